//! Rigid geometry of a humanoid: the Shapes under its segments, under joints (`extra_children`) and under
//! sites, each drawn with its joint's matrix `H · G_j` (semantics note §6). Grouping nodes between the
//! holder and a Shape are flattened once into a static offset, showing what `x3d::grouping` says they
//! show (Switch: its choice; LOD: the most detailed level with a Shape); nothing here changes per frame.
//! The offset places a morphing segment's points too: a Shape drawn from them is `H · G_j · offset · q'`.

use glam::{Mat4, Vec3};

use super::RenderMesh;
use super::shape::{ShapeMesh, shape_mesh};
use crate::hanim::Humanoid;
use crate::x3d::{NodeId, Scene, X3dError, grouping};

/// One Shape reached from a segment, joint or site.
#[derive(Debug, Clone, PartialEq)]
pub struct RigidShape {
    pub shape: NodeId,
    /// The joint whose matrix places it (`None`: humanoid transform only).
    pub joint: Option<usize>,
    /// The segment whose `coord` node its geometry uses (its points are the segment's morphed points).
    pub morph_segment: Option<usize>,
    /// Grouping transforms between the holder and the Shape (humanoid space at rest). They place the
    /// Shape's points, a morphing segment's morphed points included: drawn at `H · G_j · offset · q'`.
    pub offset: Mat4,
}

/// Every Shape drawn rigidly with a joint, in skeleton order: segment geometry, joint extra children,
/// site geometry.
pub fn rigid_shapes(scene: &Scene, h: &Humanoid) -> Result<Vec<RigidShape>, X3dError> {
    let mut found = Vec::new();
    for segment in &h.segments {
        for &node in &segment.geometry {
            collect(scene, node, Mat4::IDENTITY, segment.joint, &mut found, 0)?;
        }
    }
    for (j, joint) in h.joints.iter().enumerate() {
        for &node in &joint.extra_children {
            collect(scene, node, Mat4::IDENTITY, Some(j), &mut found, 0)?;
        }
    }
    for site in &h.sites {
        let joint = match site.parent {
            crate::hanim::SiteParent::Segment(s) => h.segments[s].joint,
            crate::hanim::SiteParent::Joint(j) => Some(j),
            crate::hanim::SiteParent::Humanoid => None,
        };
        let offset = site.offset * site.transform.matrix();
        for &node in &site.geometry {
            collect(scene, node, offset, joint, &mut found, 0)?;
        }
    }
    for shape in &mut found {
        shape.morph_segment = morph_segment_of(scene, h, shape.shape);
    }
    Ok(found)
}

/// The segment whose `coord` node is the coord of `shape`'s geometry.
fn morph_segment_of(scene: &Scene, h: &Humanoid, shape: NodeId) -> Option<usize> {
    let geometry = scene.node(shape).children_in("geometry").next()?;
    let coord = scene.node(geometry).children_in("coord").next()?;
    h.segments.iter().position(|s| s.coord == Some(coord))
}

/// Deep enough for any real file; stops USE cycles the loader let through.
const MAX_DEPTH: usize = 64;

fn collect(
    scene: &Scene,
    node: NodeId,
    offset: Mat4,
    joint: Option<usize>,
    out: &mut Vec<RigidShape>,
    depth: usize,
) -> Result<(), X3dError> {
    if depth > MAX_DEPTH {
        return Ok(());
    }
    match scene.node(node).type_name.as_str() {
        "Shape" => out.push(RigidShape { shape: node, joint, morph_segment: None, offset }),
        t if grouping::is_grouping(t) => {
            let mut warnings = Vec::new();
            let offset = offset * crate::hanim::build::grouping_matrix(scene, node, &mut warnings)?;
            for child in grouping::shown_children(scene, node)? {
                collect(scene, child, offset, joint, out, depth + 1)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// A rigid shape's render mesh plus the points its corners index (humanoid space at rest, offset applied),
/// or `None` (with a note) for geometry that cannot be drawn. A morphing segment's geometry indexes the
/// segment's `coord` points.
pub fn render_mesh_from_rigid_shape(
    scene: &Scene,
    h: &Humanoid,
    rigid: &RigidShape,
    notes: &mut Vec<String>,
) -> Result<Option<(RenderMesh, Vec<Vec3>)>, X3dError> {
    Ok(rigid_shape_mesh(scene, h, rigid, notes)?.map(ShapeMesh::placed))
}

/// As [`render_mesh_from_rigid_shape`], in the Shape's own frame with its offset kept apart: what the GPU
/// draws with `H · G_j · offset`. A morphing segment's points are morphed per frame in segment space, the
/// frame of its `coord` node; the Transforms between the segment and the Shape that uses the coord still
/// place them (X3D 4.0 clause 26, HAnimSegment), each Shape by its own when several share the coord.
pub fn rigid_shape_mesh(
    scene: &Scene,
    h: &Humanoid,
    rigid: &RigidShape,
    notes: &mut Vec<String>,
) -> Result<Option<ShapeMesh>, X3dError> {
    let morph_points = rigid.morph_segment.map(|s| h.segments[s].coord_points.as_slice());
    shape_mesh(scene, rigid.shape, morph_points, rigid.offset, notes)
}
