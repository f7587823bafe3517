//! The render mesh of one Shape, in the Shape's own frame, with the offset (the grouping transforms
//! between its holder and it) kept beside it: the CPU applies the offset once ([`ShapeMesh::placed`]),
//! while the GPU multiplies it into the draw's placement, so that points computed per frame in the
//! Shape's own frame (a morphing segment's `coord`) are placed where the scene graph puts the Shape.

use glam::{Mat3, Mat4, Vec3};

use super::{
    GeometryValues, RenderMesh, ShapeAppearance, Topology, appearance_of, line_mesh, primitive_of,
    skin_shape_mesh_with, text_of,
};
use crate::hanim::{Influences, Skin, SkinShape};
use crate::x3d::{NodeId, Scene, X3dError};

/// A Shape's mesh in its own frame, and the offset that places that frame.
#[derive(Debug, Clone, PartialEq)]
pub struct ShapeMesh {
    /// Corners, normals in the Shape's own frame. Triangles are wound for `offset`: a mirroring offset
    /// has its triangles' corners swapped, which keeps front faces in front once the offset is applied,
    /// on the CPU or by the GPU placement alike.
    pub mesh: RenderMesh,
    /// The points the corners index, in the Shape's own frame.
    pub points: Vec<Vec3>,
    /// Grouping transforms between the holder and the Shape.
    pub offset: Mat4,
}

impl ShapeMesh {
    /// The mesh with the offset applied to its points and normals (the holder's space).
    pub fn placed(self) -> (RenderMesh, Vec<Vec3>) {
        let ShapeMesh { mut mesh, points, offset } = self;
        // Normals (given or generated) are in the shape's own frame: turn them with the offset.
        let normal_from_offset = crate::pose::normal_from_skin(Mat3::from_mat4(offset));
        for n in &mut mesh.normals {
            *n = (normal_from_offset * *n).normalize_or_zero();
        }
        let points = points.iter().map(|&p| offset.transform_point3(p)).collect();
        (mesh, points)
    }
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
    Ok(shape_mesh(scene, shape_node, points, offset, notes)?.map(ShapeMesh::placed))
}

/// As [`render_mesh_from_shape`], the offset kept apart: the mesh and points in the Shape's own frame.
pub fn shape_mesh(
    scene: &Scene,
    shape_node: NodeId,
    points: Option<&[Vec3]>,
    offset: Mat4,
    notes: &mut Vec<String>,
) -> Result<Option<ShapeMesh>, X3dError> {
    shape_mesh_with(scene, shape_node, points, offset, &GeometryValues::default(), notes)
}

/// As [`shape_mesh`], the geometry's Coordinate, Normal, Color and TextureCoordinate nodes read from
/// `values` where it has them (what events set), from the file otherwise. `points`, when given, still
/// wins over both (a morphing segment's points).
pub fn shape_mesh_with(
    scene: &Scene,
    shape_node: NodeId,
    points: Option<&[Vec3]>,
    offset: Mat4,
    values: &GeometryValues,
    notes: &mut Vec<String>,
) -> Result<Option<ShapeMesh>, X3dError> {
    let Some((mut mesh, points)) = own_frame_mesh(scene, shape_node, points, values, notes)? else { return Ok(None) };
    if offset.determinant() < 0.0 && mesh.topology == Topology::Triangles {
        for t in mesh.indices.chunks_exact_mut(3) {
            t.swap(1, 2);
        }
    }
    Ok(Some(ShapeMesh { mesh, points, offset }))
}

/// The mesh of a Shape and the points its corners index, in the Shape's own frame.
fn own_frame_mesh(
    scene: &Scene,
    shape_node: NodeId,
    points: Option<&[Vec3]>,
    values: &GeometryValues,
    notes: &mut Vec<String>,
) -> Result<Option<(RenderMesh, Vec<Vec3>)>, X3dError> {
    let Some(geometry) = scene.node(shape_node).children_in("geometry").next() else { return Ok(None) };
    let geometry_type = scene.node(geometry).type_name.clone();
    // Primitives are solid by default; Text is not (ISO/IEC 19775-1, 15.4.2: `solid FALSE`).
    let generated = match primitive_of(scene, geometry)? {
        Some(primitive) => Some((primitive, true)),
        None if geometry_type == "Extrusion" => match super::extrusion::Extrusion::read(scene, geometry)?.mesh() {
            Ok(swept) => Some((swept, true)),
            Err(why) => {
                notes.push(format!("{} {why}; not drawn", scene.describe(geometry)));
                return Ok(None);
            }
        },
        None => text_of(scene, geometry)?.map(|text| (text, false)),
    };
    if let Some((primitive, solid_default)) = generated {
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
            maps: appearance.maps,
            texture_transform: appearance.texture_transform,
            vertex_colors: false,
            two_sided: !solid || appearance.two_sided_material,
        };
        return Ok(Some((mesh, primitive.points)));
    }
    let points: Vec<Vec3> = match points {
        Some(p) => p.to_vec(),
        // A height field's points come from its heights (an ElevationGrid has no Coordinate).
        None if super::elevation_grid::is_grid(scene, geometry) => {
            match super::elevation_grid::Grid::read(scene, geometry)? {
                Some(grid) => grid.points,
                None => {
                    notes.push(format!(
                        "{} needs xDimension and zDimension of 2 or more and a height for each of their \
                     xDimension × zDimension points; not drawn",
                        scene.describe(geometry)
                    ));
                    return Ok(None);
                }
            }
        }
        None => super::geometry_values::coord_points_with(scene, geometry, values)?,
    };
    if matches!(geometry_type.as_str(), "IndexedLineSet" | "LineSet" | "PointSet") {
        let appearance = appearance_of(scene, shape_node)?;
        note_unsupported(scene, shape_node, &appearance, notes);
        let mesh = line_mesh(scene, shape_node, geometry, &points, &appearance, values, notes)?;
        return Ok(mesh.map(|mesh| (mesh, points)));
    }
    let skin = Skin {
        shapes: Vec::new(),
        coord_node: None,
        normal_node: None,
        points: points.clone(),
        normals: Vec::new(),
        influences: Influences::default(),
        unweighted_points: 0,
    };
    let shape =
        SkinShape { shape: shape_node, geometry: Some(geometry), geometry_type, deforms: true, indices: Vec::new() };
    Ok(skin_shape_mesh_with(scene, &skin, &shape, values, notes)?.map(|mesh| (mesh, points)))
}

fn note_unsupported(scene: &Scene, shape: NodeId, appearance: &ShapeAppearance, notes: &mut Vec<String>) {
    for what in &appearance.unsupported {
        notes.push(format!("{}: {what}", scene.describe(shape)));
    }
}
