//! Rigid geometry of a humanoid: the Shapes under its segments, under joints (`extra_children`) and under
//! sites, each drawn with its joint's matrix `H · G_j` (semantics note §6). Grouping nodes between the
//! holder and a Shape are flattened once into a static offset, showing what `x3d::grouping` says they
//! show (Switch: its choice; LOD: the most detailed level with a Shape); nothing here changes per frame.

use glam::{Mat4, Vec3};

use super::{
    RenderMesh, ShapeAppearance, Topology, appearance_of, line_mesh, primitive_of, render_mesh_from_skin_shape, text_of,
};
use crate::hanim::{Humanoid, Influences, Skin, SkinShape};
use crate::x3d::{NodeId, Scene, X3dError, grouping};

/// One Shape reached from a segment, joint or site.
#[derive(Debug, Clone, PartialEq)]
pub struct RigidShape {
    pub shape: NodeId,
    /// The joint whose matrix places it (`None`: humanoid transform only).
    pub joint: Option<usize>,
    /// The segment whose `coord` node its geometry uses (its points are the segment's morphed points).
    pub morph_segment: Option<usize>,
    /// Grouping transforms between the holder and the Shape (humanoid space at rest).
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

/// The points of a geometry's `coord` Coordinate node.
fn coord_points(scene: &Scene, geometry: NodeId) -> Result<Vec<Vec3>, X3dError> {
    let Some(coord) = scene.node(geometry).children_in("coord").next() else { return Ok(Vec::new()) };
    Ok(scene.mf_length3(coord, "point")?.into_iter().map(Vec3::from).collect())
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
    let morph_points = rigid.morph_segment.map(|s| h.segments[s].coord_points.as_slice());
    render_mesh_from_shape(scene, rigid.shape, morph_points, rigid.offset, notes)
}

/// The render mesh of any Shape (face and triangle sets, line and point sets, Box, Sphere, Cylinder,
/// Cone, Text) and the points its corners index, with `offset` applied to points and normals; `points`
/// replaces the geometry's own `coord` points when given. `None` (with a note) for geometry that cannot
/// be drawn.
pub fn render_mesh_from_shape(
    scene: &Scene,
    shape_node: NodeId,
    points: Option<&[Vec3]>,
    offset: Mat4,
    notes: &mut Vec<String>,
) -> Result<Option<(RenderMesh, Vec<Vec3>)>, X3dError> {
    let Some(geometry) = scene.node(shape_node).children_in("geometry").next() else { return Ok(None) };
    let geometry_type = scene.node(geometry).type_name.clone();
    // Primitives are solid by default; Text is not (ISO/IEC 19775-1, 15.4.2: `solid FALSE`).
    let generated = match primitive_of(scene, geometry)? {
        Some(primitive) => Some((primitive, true)),
        None => text_of(scene, geometry)?.map(|text| (text, false)),
    };
    let (mut mesh, points) = if let Some((primitive, solid_default)) = generated {
        let appearance = appearance_of(scene, shape_node)?;
        note_unsupported(scene, shape_node, &appearance, notes);
        let solid = scene.sf_bool(geometry, "solid", solid_default)?;
        let count = primitive.points.len();
        let mesh = RenderMesh {
            shape: shape_node,
            source_point: (0..count as u32).collect(),
            normals: primitive.normals,
            colors: vec![[1.0; 4]; count],
            uvs: primitive.uvs,
            indices: primitive.indices,
            topology: Topology::Triangles,
            material: appearance.material,
            texture: appearance.texture,
            texture_transform: appearance.texture_transform,
            vertex_colors: false,
            two_sided: !solid || appearance.two_sided_material,
        };
        (mesh, primitive.points)
    } else {
        let points: Vec<Vec3> = match points {
            Some(p) => p.to_vec(),
            None => coord_points(scene, geometry)?,
        };
        if matches!(geometry_type.as_str(), "IndexedLineSet" | "LineSet" | "PointSet") {
            let appearance = appearance_of(scene, shape_node)?;
            note_unsupported(scene, shape_node, &appearance, notes);
            match line_mesh(scene, shape_node, geometry, &points, &appearance, notes)? {
                Some(mesh) => (mesh, points),
                None => return Ok(None),
            }
        } else {
            let skin = Skin {
                shapes: Vec::new(),
                coord_node: None,
                normal_node: None,
                points: points.clone(),
                normals: Vec::new(),
                influences: Influences::default(),
                unweighted_points: 0,
            };
            let shape = SkinShape {
                shape: shape_node,
                geometry: Some(geometry),
                geometry_type,
                deforms: true,
                indices: Vec::new(),
            };
            match render_mesh_from_skin_shape(scene, &skin, &shape, notes)? {
                Some(mesh) => (mesh, points),
                None => return Ok(None),
            }
        }
    };
    // Normals (given or generated) are in the shape's own frame: turn them with the offset.
    let normal_from_offset = crate::pose::normal_from_skin(glam::Mat3::from_mat4(offset));
    for n in &mut mesh.normals {
        *n = (normal_from_offset * *n).normalize_or_zero();
    }
    if offset.determinant() < 0.0 && mesh.topology == Topology::Triangles {
        for t in mesh.indices.chunks_exact_mut(3) {
            t.swap(1, 2);
        }
    }
    let points = points.iter().map(|&p| offset.transform_point3(p)).collect();
    Ok(Some((mesh, points)))
}

fn note_unsupported(scene: &Scene, shape: NodeId, appearance: &ShapeAppearance, notes: &mut Vec<String>) {
    for what in &appearance.unsupported {
        notes.push(format!("{}: {what}", scene.describe(shape)));
    }
}
