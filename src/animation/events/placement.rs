//! Where the scene's Shapes and Viewpoints outside the humanoids are when events have changed fields:
//! the same walk as `hanim::build::build_document` (grouping nodes show what `x3d::grouping` says, a
//! Transform's matrix is `hanim::build`'s Transform math), reading the overridden Transform fields and
//! Switch choices instead of the file's.

use std::collections::HashMap;

use glam::Mat4;

use super::billboard::billboard_matrix;
use super::{Overrides, ViewerPose};
use crate::hanim::Document;
use crate::hanim::Viewpoint;
use crate::hanim::build::transform_fields;
use crate::x3d::grouping::{is_grouping, lod_chooses_by_distance, lod_level_at, shown_children};
use crate::x3d::{NodeId, Scene, X3dError};

/// The same bound on node instances as the model builder (DEF/USE can describe exponential trees).
pub(super) const MAX_NODE_VISITS: usize = 2_000_000;

/// The scene's placements at one time, entry for entry with the document's lists.
#[derive(Debug, Clone, Default)]
pub struct ScenePlacements {
    /// The world matrix of each `Document::other_shapes` entry, then of each `switched_out_shapes` entry;
    /// `None` where the shape is not shown (a Switch's `whichChoice` changed, a switched-out shape
    /// that no event shows, an LOD level other than the one for the viewer's distance).
    pub shapes: Vec<Option<Mat4>>,
    /// Each `Document::viewpoints` entry with its overridden fields (position, orientation,
    /// fieldOfView, centerOfRotation) and world matrix; a viewpoint no longer shown keeps its load-time
    /// placement.
    pub viewpoints: Vec<(Viewpoint, Mat4)>,
}

/// A grouping node's local matrix with its overridden Transform fields.
pub(super) fn local_matrix(scene: &Scene, id: NodeId, overrides: &Overrides) -> Result<Mat4, X3dError> {
    if scene.node(id).type_name != "Transform" {
        return Ok(Mat4::IDENTITY);
    }
    // The file's warnings about these fields were given at load.
    let mut f = transform_fields(scene, id, &mut Vec::new())?;
    let vec3 = |name: &str| overrides.get(id, name).and_then(|v| v.as_vec3());
    let rot = |name: &str| overrides.get(id, name).and_then(|v| v.as_rotation());
    f.translation = vec3("translation").unwrap_or(f.translation);
    f.center = vec3("center").unwrap_or(f.center);
    f.scale = vec3("scale").unwrap_or(f.scale);
    f.rotation = rot("rotation").unwrap_or(f.rotation);
    f.scale_orientation = rot("scaleOrientation").unwrap_or(f.scale_orientation);
    Ok(f.matrix())
}

/// The children node `id` shows, with an overridden Switch `whichChoice`, and an LOD's level for the
/// viewer's distance where the viewer is known (`world`: the node's world matrix).
fn shown(
    scene: &Scene,
    id: NodeId,
    overrides: &Overrides,
    viewer: Option<ViewerPose>,
    world: Mat4,
) -> Result<Vec<NodeId>, X3dError> {
    let node = scene.node(id);
    if let Some(v) = viewer
        && lod_chooses_by_distance(scene, id)?
    {
        let viewer_local = world.inverse().transform_point3(v.position);
        return Ok(lod_level_at(scene, id, viewer_local)?.into_iter().collect());
    }
    if node.type_name == "Switch"
        && let Some(which) = overrides.get(id, "whichChoice").and_then(|v| v.as_int())
    {
        let choices: Vec<NodeId> = node.children_in("children").chain(node.children_in("choice")).collect();
        return Ok(usize::try_from(which).ok().and_then(|i| choices.get(i).copied()).into_iter().collect());
    }
    shown_children(scene, id)
}

/// Places the document's scene Shapes and Viewpoints with `overrides` applied (Billboards unturned).
pub fn place_scene(doc: &Document, overrides: &Overrides) -> Result<ScenePlacements, X3dError> {
    place_scene_seen_from(doc, overrides, None)
}

/// [`place_scene`] with the viewer at `viewer` (world): Billboards turn toward it (clause 10.4.1) and
/// each LOD with ranges shows the level for its distance (clause 10.4.3).
pub fn place_scene_seen_from(
    doc: &Document,
    overrides: &Overrides,
    viewer: Option<ViewerPose>,
) -> Result<ScenePlacements, X3dError> {
    let scene = &doc.scene;
    let mut shapes: HashMap<NodeId, Vec<Mat4>> = HashMap::new();
    let mut viewpoints: HashMap<NodeId, Vec<Mat4>> = HashMap::new();
    let mut stack: Vec<(NodeId, Mat4)> = scene.roots.iter().rev().map(|&r| (r, Mat4::IDENTITY)).collect();
    let mut visits = 0usize;
    while let Some((id, world_from_parent)) = stack.pop() {
        visits += 1;
        if visits > MAX_NODE_VISITS {
            break;
        }
        match scene.node(id).type_name.as_str() {
            "Shape" => shapes.entry(id).or_default().push(world_from_parent),
            "Viewpoint" | "OrthoViewpoint" => viewpoints.entry(id).or_default().push(world_from_parent),
            t if is_grouping(t) => {
                let local = match viewer {
                    Some(v) if t == "Billboard" => billboard_matrix(scene, id, world_from_parent, v)?,
                    _ => local_matrix(scene, id, overrides)?,
                };
                let m = world_from_parent * local;
                for child in shown(scene, id, overrides, viewer, m)?.into_iter().rev() {
                    stack.push((child, m));
                }
            }
            _ => {}
        }
    }
    // The k-th instance of a node in the document's list is its k-th instance in this walk.
    fn next(taken: &mut HashMap<NodeId, usize>, map: &HashMap<NodeId, Vec<Mat4>>, id: NodeId) -> Option<Mat4> {
        let k = taken.entry(id).or_insert(0);
        *k += 1;
        map.get(&id).and_then(|v| v.get(*k - 1)).copied()
    }
    let mut taken: HashMap<NodeId, usize> = HashMap::new();
    let shapes =
        doc.other_shapes.iter().chain(&doc.switched_out_shapes).map(|&(id, _)| next(&mut taken, &shapes, id)).collect();
    taken.clear();
    let viewpoints = doc
        .viewpoints
        .iter()
        .map(|(vp, load)| {
            let mut vp = vp.clone();
            let id = vp.node;
            let vec3 = |name: &str| overrides.get(id, name).and_then(|v| v.as_vec3());
            vp.position = vec3("position").unwrap_or(vp.position);
            vp.center_of_rotation = vec3("centerOfRotation").unwrap_or(vp.center_of_rotation);
            vp.orientation = overrides.get(id, "orientation").and_then(|v| v.as_rotation()).unwrap_or(vp.orientation);
            vp.field_of_view = overrides.get(id, "fieldOfView").and_then(|v| v.as_float()).unwrap_or(vp.field_of_view);
            let world = next(&mut taken, &viewpoints, id).unwrap_or(*load);
            (vp, world)
        })
        .collect();
    Ok(ScenePlacements { shapes, viewpoints })
}
