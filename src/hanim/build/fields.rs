//! Field readers shared by every part of the build: a Transform-like node's fields with the quirks of real
//! files fixed (and warned about), rotations, warnings at a field's own position, and a grouping node's
//! matrix.

use glam::{Mat4, Quat, Vec3};

use crate::hanim::model::*;
use crate::x3d::{Loc, NodeId, Scene, Warning, X3dError};

pub(crate) fn transform_fields(
    scene: &Scene,
    id: NodeId,
    warnings: &mut Vec<Warning>,
) -> Result<TransformFields, X3dError> {
    let rotation = rotation_field(scene, id, "rotation", warnings)?;
    let scale_orientation = rotation_field(scene, id, "scaleOrientation", warnings)?;
    let mut scale = Vec3::from(scene.sf_vec3f(id, "scale", [1.0; 3])?);
    if scale.cmple(Vec3::ZERO).any() {
        let fixed = Vec3::select(scale.cmpeq(Vec3::ZERO), Vec3::ONE, scale.abs());
        warn_at(
            scene,
            warnings,
            field_loc(scene, id, "scale"),
            format!("{}: scale {} must be > 0; using {}", scene.describe(id), fmt3(scale), fmt3(fixed)),
        );
        scale = fixed;
    }
    Ok(TransformFields {
        translation: Vec3::from(scene.sf_length3(id, "translation", [0.0; 3])?),
        rotation,
        center: Vec3::from(scene.sf_length3(id, "center", [0.0; 3])?),
        scale,
        scale_orientation,
    })
}

pub(super) fn fmt3(v: Vec3) -> String {
    format!("{} {} {}", v.x, v.y, v.z)
}

pub(super) fn rotation_field(
    scene: &Scene,
    id: NodeId,
    name: &str,
    warnings: &mut Vec<Warning>,
) -> Result<Quat, X3dError> {
    let r = scene.sf_rotation(id, name, [0.0, 0.0, 1.0, 0.0])?;
    if r[3] != 0.0 && r[0] == 0.0 && r[1] == 0.0 && r[2] == 0.0 {
        warn_at(
            scene,
            warnings,
            field_loc(scene, id, name),
            format!("{}: {name} has a zero-length axis; using no rotation", scene.describe(id)),
        );
    }
    Ok(quat_from_axis_angle(r))
}

pub(super) fn field_loc(scene: &Scene, id: NodeId, name: &str) -> Loc {
    scene.node(id).field(name).map(|f| f.loc).unwrap_or(scene.node(id).loc)
}

pub(super) fn warn_at(scene: &Scene, warnings: &mut Vec<Warning>, loc: Loc, message: String) {
    warnings.push(Warning { pos: scene.pos(loc), message });
}

/// `L` of a grouping node (identity for all but Transform), the matrix every walk through grouping nodes
/// applies; which children it shows is `x3d::grouping::shown_children`.
pub(crate) fn grouping_matrix(scene: &Scene, id: NodeId, warnings: &mut Vec<Warning>) -> Result<Mat4, X3dError> {
    if scene.node(id).type_name == "Transform" {
        Ok(transform_fields(scene, id, warnings)?.matrix())
    } else {
        Ok(Mat4::IDENTITY)
    }
}

/// The non-grouping nodes at or under `root`, in document order, each with the grouping transforms from
/// `root`'s parent down to it. Grouping nodes are followed as `x3d::grouping` says; each node is visited
/// once, because DEF/USE can give a node exponentially many paths and only its first place counts.
pub(super) fn leaves_below(
    scene: &Scene,
    root: NodeId,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<(NodeId, Mat4)>, X3dError> {
    let mut leaves = Vec::new();
    let mut stack = vec![(root, Mat4::IDENTITY)];
    let mut seen = std::collections::HashSet::new();
    while let Some((node, parent_matrix)) = stack.pop() {
        if !seen.insert(node) {
            continue;
        }
        if crate::x3d::grouping::is_grouping(&scene.node(node).type_name) {
            let m = parent_matrix * grouping_matrix(scene, node, warnings)?;
            // Reversed onto the stack, so they come off in document order.
            for child in crate::x3d::grouping::shown_children(scene, node)?.into_iter().rev() {
                stack.push((child, m));
            }
        } else {
            leaves.push((node, parent_matrix));
        }
    }
    Ok(leaves)
}
