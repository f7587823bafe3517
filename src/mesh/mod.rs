//! CPU mesh building: turns a humanoid's deforming skin shapes into render corners and triangles.
//!
//! A *corner* is one render vertex: the skin point it draws (`source_point`, whose deformed position the
//! skin pass writes), its binding normal (skinned per corner with that point's influences, semantics
//! note §2.5), its colour and texture coordinate. Faces are triangulated by ear clipping in their own
//! plane, wound counter-clockwise as seen from the front (`ccw = false` files are flipped), and corners
//! that agree in all four attributes are shared. Nothing here knows about wgpu.
//!
//! Normals, in order of preference: the geometry's own `normal` node (the skinNormal node, read from
//! [`Skin::normals`] so that binding normals win, or another Normal node) with `normalIndex` /
//! `normalPerVertex`; else the skin's per-point normals when the humanoid has them; else X3D's generated
//! normals (per face, or averaged within `creaseAngle`; triangle sets, which have no crease angle, are
//! smooth when `normalPerVertex` is true).

mod appearance;
mod elevation_grid;
mod extrusion;
mod faces;
mod geometry_values;
mod lines;
pub mod material_maps;
mod normals;
mod primitives;
pub mod rigid_merge;
mod segments;
mod shape;
mod text;
pub mod texture_image;
pub mod texture_sampling;
mod triangulate;

use std::collections::HashMap;

use glam::Vec3;

pub use appearance::{
    MaterialParams, ShapeAppearance, TextureRef, TextureTransformFields, appearance_of, texture_transform,
};
pub use faces::{FaceCorner, Faces, faces_of};
pub use geometry_values::{GeometryNodes, GeometryValues, is_vertex_field, routed_vertex_nodes};
pub use lines::line_mesh;
pub use normals::{crease_normals, face_normals};
pub use primitives::{PrimitiveMesh, box_mesh, cone_mesh, cylinder_mesh, primitive_of, sphere_mesh};
pub use segments::{RigidShape, render_mesh_from_rigid_shape, rigid_shape_mesh, rigid_shapes};
pub use shape::{ShapeMesh, render_mesh_from_shape, shape_mesh, shape_mesh_with};
pub use text::{text_mesh, text_of};
pub use triangulate::{newell_normal, triangulate_polygon};

use crate::hanim::{Humanoid, Skin, SkinShape};
use crate::x3d::{NodeId, Scene, X3dError};

/// What the indices of a [`RenderMesh`] draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Topology {
    /// Three indices per triangle (face sets, triangle sets, primitives).
    Triangles,
    /// Two indices per line segment (IndexedLineSet, LineSet): unlit.
    Lines,
    /// One index per point (PointSet): unlit.
    Points,
}

/// The render data of one shape: corners, triangles (or lines, points) over them, and how to shade them.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderMesh {
    /// The Shape node this mesh comes from.
    pub shape: NodeId,
    /// Per corner: the skin point it draws (an index into [`Skin::points`]).
    pub source_point: Vec<u32>,
    /// Per corner: the binding normal (unit length, or zero where none can be had).
    pub normals: Vec<Vec3>,
    /// Per corner: RGBA as written in the file (white when the geometry has no colour node).
    pub colors: Vec<[f32; 4]>,
    /// Per corner: texture coordinate (zero without a TextureCoordinate).
    pub uvs: Vec<[f32; 2]>,
    /// Triangles over the corners, counter-clockwise seen from the front (or line segments, or points:
    /// see [`Self::topology`]).
    pub indices: Vec<u32>,
    pub topology: Topology,
    pub material: MaterialParams,
    /// The ImageTexture to draw with.
    pub texture: Option<TextureRef>,
    /// The material's other maps (normal, metallic-roughness, occlusion, emissive), read with [`Self::uvs`].
    pub maps: material_maps::MaterialMaps,
    /// The Appearance's TextureTransform (identity without one), applied to [`Self::uvs`] when drawing:
    /// the corners keep the file's coordinates, so an event that moves the texture changes one uniform.
    pub texture_transform: glam::Affine2,
    /// True when the geometry has a colour node: its colours replace the diffuse (or, unlit, the
    /// emissive) colour.
    pub vertex_colors: bool,
    /// `solid = false` (or a TwoSidedMaterial): both sides are drawn and lit.
    pub two_sided: bool,
}

impl RenderMesh {
    pub fn corner_count(&self) -> usize {
        self.source_point.len()
    }

    pub fn triangle_count(&self) -> usize {
        if self.topology == Topology::Triangles { self.indices.len() / 3 } else { 0 }
    }
}

/// All deforming skin shapes of a humanoid. Their corners, concatenated in part order, are the corners
/// the skin pass skins normals for.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SkinMesh {
    pub parts: Vec<RenderMesh>,
    /// Things skipped or approximated, one line each, for the log.
    pub notes: Vec<String>,
}

impl SkinMesh {
    pub fn corner_count(&self) -> usize {
        self.parts.iter().map(RenderMesh::corner_count).sum()
    }

    /// The first corner of each part in the concatenated corner list.
    pub fn corner_offsets(&self) -> Vec<u32> {
        let mut offsets = Vec::with_capacity(self.parts.len());
        let mut start = 0u32;
        for part in &self.parts {
            offsets.push(start);
            start += part.corner_count() as u32;
        }
        offsets
    }

    /// `(source_point, normals)` of every part, concatenated: the input of
    /// [`SkinCorners`](crate::gpu::SkinCorners).
    pub fn concatenated_corners(&self) -> (Vec<u32>, Vec<Vec3>) {
        let source_point = self.parts.iter().flat_map(|p| p.source_point.iter().copied()).collect();
        let normals = self.parts.iter().flat_map(|p| p.normals.iter().copied()).collect();
        (source_point, normals)
    }
}

/// Builds the render corners of every deforming skin shape of `h` (shapes with `deforms == true`; the
/// others are rigid). Unsupported geometry is reported in [`SkinMesh::notes`].
pub fn skin_mesh_from_humanoid(scene: &Scene, h: &Humanoid) -> Result<SkinMesh, X3dError> {
    let mut mesh = SkinMesh::default();
    let Some(skin) = &h.skin else { return Ok(mesh) };
    for shape in &skin.shapes {
        if !shape.deforms {
            // Drawn rigidly with the humanoid (see `gpu::scene_draw`).
            continue;
        }
        if let Some(part) = render_mesh_from_skin_shape(scene, skin, shape, &mut mesh.notes)? {
            mesh.parts.push(part);
        }
    }
    Ok(mesh)
}

/// How one face set supplies normals.
enum NormalSource {
    /// Vectors with the face set's indexing rules (`normalIndex`, `normalPerVertex`).
    Indexed { vectors: Vec<Vec3>, per_vertex: bool, index: Vec<i32> },
    /// One normal per skin point.
    PerPoint(Vec<Vec3>),
    /// Generated: faceted, or averaged within the crease angle.
    Generated { crease_angle: f32 },
}

/// The render mesh of one deforming skin shape; `None` (with a note) for geometry it cannot draw.
pub fn render_mesh_from_skin_shape(
    scene: &Scene,
    skin: &Skin,
    shape: &SkinShape,
    notes: &mut Vec<String>,
) -> Result<Option<RenderMesh>, X3dError> {
    skin_shape_mesh_with(scene, skin, shape, &GeometryValues::default(), notes)
}

/// As [`render_mesh_from_skin_shape`], reading the Normal, Color and TextureCoordinate nodes' values from
/// `values` where it has them (events; the points are `skin.points`, which the caller took from there).
pub(crate) fn skin_shape_mesh_with(
    scene: &Scene,
    skin: &Skin,
    shape: &SkinShape,
    values: &GeometryValues,
    notes: &mut Vec<String>,
) -> Result<Option<RenderMesh>, X3dError> {
    let Some(geometry) = shape.geometry else { return Ok(None) };
    let type_name = scene.node(geometry).type_name.clone();
    let points = &skin.points;
    if matches!(type_name.as_str(), "IndexedLineSet" | "LineSet" | "PointSet") {
        // A wireframe or point cloud over the skin: its corners are skin points, so the skin pass moves
        // them with the body in the same dispatch and the same render pass draws them (unlit).
        let appearance = appearance_of(scene, shape.shape)?;
        return lines::line_mesh(scene, shape.shape, geometry, points, &appearance, values, notes);
    }
    let Some(faces) = faces_of(scene, geometry, points.len())? else {
        notes.push(format!("{} is not a face set, line set or point set; not drawn", scene.describe(geometry)));
        return Ok(None);
    };
    // A Coordinate that events fill (one that starts empty, say) has faces beyond the file's points:
    // they are drawn once the events bring the points, and are no defect of the file.
    if faces.dropped > 0 && !geometry_values::coord_is_routed(scene, geometry) {
        notes.push(format!(
            "{}: {} face(s) with fewer than 3 distinct points or an index outside the {} points skipped",
            scene.describe(geometry),
            faces.dropped,
            points.len()
        ));
    }
    let is_face_set = type_name == "IndexedFaceSet";
    let ccw = scene.sf_bool(geometry, "ccw", true)?;
    let solid = scene.sf_bool(geometry, "solid", true)?;
    let appearance = appearance_of(scene, shape.shape)?;
    for what in &appearance.unsupported {
        notes.push(format!("{}: {what}", scene.describe(shape.shape)));
    }

    // Normals.
    let normal_per_vertex = scene.sf_bool(geometry, "normalPerVertex", true)?;
    let normal_index = if is_face_set { scene.mf_int32(geometry, "normalIndex")? } else { Vec::new() };
    let normal_node = scene.node(geometry).children_in("normal").next();
    let source = match normal_node {
        Some(node) if Some(node) == skin.normal_node && !skin.normals.is_empty() => {
            NormalSource::Indexed { vectors: skin.normals.clone(), per_vertex: normal_per_vertex, index: normal_index }
        }
        Some(node) if scene.node(node).type_name == "Normal" => {
            let vectors = geometry_values::normal_vectors_with(scene, node, values)?;
            NormalSource::Indexed { vectors, per_vertex: normal_per_vertex, index: normal_index }
        }
        _ if skin.normals.len() == points.len() && !points.is_empty() => NormalSource::PerPoint(skin.normals.clone()),
        _ => {
            let crease_angle = if !normal_per_vertex {
                0.0
            } else if is_face_set || type_name == "ElevationGrid" {
                scene.sf_angle(geometry, "creaseAngle", 0.0)?
            } else {
                std::f32::consts::PI * 2.0
            };
            NormalSource::Generated { crease_angle }
        }
    };
    let flat_normals = face_normals(points, &faces.faces, ccw);
    let generated = match &source {
        NormalSource::Generated { crease_angle } => {
            Some(crease_normals(points.len(), &faces.faces, &flat_normals, *crease_angle))
        }
        _ => None,
    };

    // Colours and texture coordinates.
    let colors = geometry_values::colors_with(scene, geometry, values)?;
    let color_per_vertex = scene.sf_bool(geometry, "colorPerVertex", true)?;
    let color_index = if is_face_set { scene.mf_int32(geometry, "colorIndex")? } else { Vec::new() };
    let uvs = match geometry_values::uvs_with(scene, geometry, &appearance.maps.mapping, values)? {
        // X3D's default mapping for a textured face set without texture coordinates (indexed like the
        // coordinates: the index list is ignored).
        None if appearance.texture.is_some() || appearance.maps.bits() != 0 => {
            match elevation_grid::Grid::read(scene, geometry)?.filter(|g| g.points.len() == points.len()) {
                Some(grid) => Some(grid.tex_coords()),
                None => Some(default_tex_coords(points)),
            }
        }
        given => given,
    };
    let has_tex_coord = scene.node(geometry).children_in("texCoord").next().is_some();
    let tex_index = if is_face_set && has_tex_coord { scene.mf_int32(geometry, "texCoordIndex")? } else { Vec::new() };

    let mut missing = MissingCounts::default();
    let mut builder = CornerBuilder::default();
    let mut indices = Vec::new();
    for (f, face) in faces.faces.iter().enumerate() {
        let corners: Vec<u32> = face
            .iter()
            .enumerate()
            .map(|(k, &corner)| {
                let normal = match &source {
                    NormalSource::Indexed { vectors, per_vertex, index } => faces
                        .attribute_index(*per_vertex, index, f, corner)
                        .and_then(|i| vectors.get(i))
                        .copied()
                        .unwrap_or_else(|| {
                            missing.normals += 1;
                            flat_normals[f]
                        }),
                    NormalSource::PerPoint(vectors) => vectors[corner.point as usize],
                    NormalSource::Generated { .. } => generated.as_ref().map_or(flat_normals[f], |g| g[f][k]),
                }
                .normalize_or_zero();
                let color = match &colors {
                    Some(list) => faces
                        .attribute_index(color_per_vertex, &color_index, f, corner)
                        .and_then(|i| list.get(i))
                        .copied()
                        .unwrap_or_else(|| {
                            missing.colors += 1;
                            [1.0; 4]
                        }),
                    None => [1.0; 4],
                };
                let uv = match &uvs {
                    Some(list) => faces
                        .attribute_index(true, &tex_index, f, corner)
                        .and_then(|i| list.get(i))
                        .copied()
                        .unwrap_or_else(|| {
                            missing.uvs += 1;
                            [0.0; 2]
                        }),
                    None => [0.0; 2],
                };
                builder.corner(corner.point, normal, color, uv)
            })
            .collect();
        let polygon: Vec<Vec3> = face.iter().map(|c| points[c.point as usize]).collect();
        for [a, b, c] in triangulate_polygon(&polygon) {
            // Ear clipping keeps the file's winding; a clockwise (ccw = false) file is turned around.
            let triangle = if ccw { [a, b, c] } else { [a, c, b] };
            indices.extend(triangle.map(|k| corners[k]));
        }
    }
    for (what, count) in [("normal", missing.normals), ("colour", missing.colors), ("texture coordinate", missing.uvs)]
    {
        if count > 0 {
            notes.push(format!(
                "{}: {count} corner(s) index no {what} (the list is too short); defaults used",
                scene.describe(geometry)
            ));
        }
    }
    let CornerBuilder { source_point, normals, colors: corner_colors, uvs: corner_uvs, .. } = builder;
    Ok(Some(RenderMesh {
        shape: shape.shape,
        source_point,
        normals,
        colors: corner_colors,
        uvs: corner_uvs,
        indices,
        topology: Topology::Triangles,
        texture: appearance.texture,
        maps: appearance.maps,
        texture_transform: appearance.texture_transform,
        material: appearance.material,
        vertex_colors: colors.is_some(),
        two_sided: !solid || appearance.two_sided_material,
    }))
}

/// X3D's default texture coordinates (ISO/IEC 19775-1, 13.3.6): S runs 0..1 along the longest side of
/// the points' bounding box, T along the second longest (ties: X, then Y, then Z), scaled alike so that
/// the texture is not stretched.
pub fn default_tex_coords(points: &[Vec3]) -> Vec<[f32; 2]> {
    let lo = points.iter().copied().fold(Vec3::splat(f32::MAX), Vec3::min);
    let hi = points.iter().copied().fold(Vec3::splat(f32::MIN), Vec3::max);
    let size = (hi - lo).max(Vec3::ZERO);
    let mut axes = [0usize, 1, 2];
    // Stable sort: equal sides keep X, Y, Z order.
    axes.sort_by(|&a, &b| size[b].total_cmp(&size[a]));
    let (s, t) = (axes[0], axes[1]);
    let longest = if size[s] > 0.0 { size[s] } else { 1.0 };
    points.iter().map(|p| [(p[s] - lo[s]) / longest, (p[t] - lo[t]) / longest]).collect()
}

#[derive(Default)]
struct MissingCounts {
    normals: usize,
    colors: usize,
    uvs: usize,
}

/// Bit pattern of a float for hashing, with −0 and +0 the same.
fn bits(x: f32) -> u32 {
    (x + 0.0).to_bits()
}

/// What makes two corners the same: point, and the bit patterns of normal, colour and texture coordinate.
type CornerKey = (u32, [u32; 3], [u32; 4], [u32; 2]);

/// Collects corners, sharing those equal in point, normal, colour and texture coordinate.
#[derive(Default)]
pub(crate) struct CornerBuilder {
    pub(crate) source_point: Vec<u32>,
    pub(crate) normals: Vec<Vec3>,
    pub(crate) colors: Vec<[f32; 4]>,
    pub(crate) uvs: Vec<[f32; 2]>,
    seen: HashMap<CornerKey, u32>,
}

impl CornerBuilder {
    pub(crate) fn corner(&mut self, point: u32, normal: Vec3, color: [f32; 4], uv: [f32; 2]) -> u32 {
        let key = (point, normal.to_array().map(bits), color.map(bits), uv.map(bits));
        let next = self.source_point.len() as u32;
        *self.seen.entry(key).or_insert_with(|| {
            self.source_point.push(point);
            self.normals.push(normal);
            self.colors.push(color);
            self.uvs.push(uv);
            next
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hanim;

    /// A humanoid whose skin is the given geometry element (which must use `USE='SkinCoord'`).
    fn humanoid_with_skin(points: &str, geometry: &str, appearance: &str) -> hanim::Document {
        let text = format!(
            r#"<X3D version='4.0'><Scene>
              <HAnimHumanoid name='h' version='2.0'>
                <HAnimJoint containerField='skeleton' name='humanoid_root' skinCoordIndex='0' skinCoordWeight='1'/>
                <Coordinate DEF='SkinCoord' containerField='skinCoord' point='{points}'/>
                <Shape containerField='skin'>{appearance}{geometry}</Shape>
              </HAnimHumanoid></Scene></X3D>"#
        );
        hanim::load_str(&text, std::path::Path::new("mesh_test.x3d")).unwrap_or_else(|e| panic!("{e}"))
    }

    fn mesh_of(doc: &hanim::Document) -> SkinMesh {
        skin_mesh_from_humanoid(&doc.scene, &doc.humanoids[0]).unwrap_or_else(|e| panic!("{e}"))
    }

    const CUBE_POINTS: &str = "0 0 0  1 0 0  1 1 0  0 1 0  0 0 -1  1 0 -1  1 1 -1  0 1 -1";
    /// The six faces of the unit cube [0,1]×[0,1]×[−1,0], counter-clockwise seen from outside.
    const CUBE_FACES: &str = "0 1 2 3 -1 5 4 7 6 -1 1 5 6 2 -1 4 0 3 7 -1 3 2 6 7 -1 4 5 1 0 -1";

    #[test]
    fn faceted_cube_has_four_corners_per_face_and_outward_normals() {
        let doc = humanoid_with_skin(
            CUBE_POINTS,
            &format!("<IndexedFaceSet coordIndex='{CUBE_FACES}'><Coordinate USE='SkinCoord'/></IndexedFaceSet>"),
            "<Appearance><Material/></Appearance>",
        );
        let mesh = mesh_of(&doc);
        assert_eq!(mesh.parts.len(), 1, "{:?}", mesh.notes);
        let part = &mesh.parts[0];
        // creaseAngle 0: each of the 8 points appears with 3 different normals.
        assert_eq!(part.corner_count(), 24);
        assert_eq!(part.triangle_count(), 12);
        let points = &doc.humanoids[0].skin.as_ref().unwrap().points;
        let centre = Vec3::new(0.5, 0.5, -0.5);
        for t in part.indices.chunks(3) {
            let [a, b, c] = [0, 1, 2].map(|k| points[part.source_point[t[k] as usize] as usize]);
            let geometric = (b - a).cross(c - a).normalize();
            assert!(geometric.dot((a + b + c) / 3.0 - centre) > 0.0, "triangle {t:?} faces inwards");
            for &k in t {
                assert!(part.normals[k as usize].abs_diff_eq(geometric, 1e-6), "corner normal != face normal");
            }
        }
        assert_eq!(part.material, MaterialParams::default());
        assert!(!part.two_sided && !part.vertex_colors);
    }

    #[test]
    fn smooth_cube_shares_one_corner_per_point() {
        let doc = humanoid_with_skin(
            CUBE_POINTS,
            &format!(
                "<IndexedFaceSet creaseAngle='1.6' solid='false' coordIndex='{CUBE_FACES}'>\
                 <Coordinate USE='SkinCoord'/></IndexedFaceSet>"
            ),
            "",
        );
        let part = &mesh_of(&doc).parts[0];
        assert_eq!(part.corner_count(), 8, "creaseAngle above 90°: the corners are shared");
        let points = &doc.humanoids[0].skin.as_ref().unwrap().points;
        for (k, &p) in part.source_point.iter().enumerate() {
            let expected = (points[p as usize] - Vec3::new(0.5, 0.5, -0.5)).normalize();
            assert!(part.normals[k].abs_diff_eq(expected, 1e-6), "{} vs {expected}", part.normals[k]);
        }
        assert!(part.two_sided);
        assert_eq!(part.material, MaterialParams::unlit_white(), "no Appearance: unlit white");
    }

    #[test]
    fn clockwise_files_are_turned_around() {
        let doc = humanoid_with_skin(
            "0 0 0  1 0 0  1 1 0",
            "<IndexedTriangleSet ccw='false' index='0 2 1'><Coordinate USE='SkinCoord'/></IndexedTriangleSet>",
            "<Appearance><Material diffuseColor='1 0 0'/></Appearance>",
        );
        let part = &mesh_of(&doc).parts[0];
        // 0 2 1 is clockwise seen from +Z, so with ccw='false' the front is +Z: the output triangle is
        // counter-clockwise about +Z and its generated normal is +Z.
        let pts = &doc.humanoids[0].skin.as_ref().unwrap().points;
        let [a, b, c] = [0, 1, 2].map(|k| pts[part.source_point[part.indices[k] as usize] as usize]);
        assert!((b - a).cross(c - a).z > 0.0);
        assert!(part.normals.iter().all(|n| n.abs_diff_eq(Vec3::Z, 1e-6)));
        assert_eq!(part.material.diffuse, [1.0, 0.0, 0.0]);
    }

    #[test]
    fn corners_are_shared_only_when_all_attributes_agree() {
        // Two triangles sharing the edge 1–2 in one plane; per-face colours differ, so the shared points
        // get two corners each; with equal colours they are shared.
        let geometry = |colors: &str| {
            format!(
                "<IndexedFaceSet creaseAngle='0' colorPerVertex='false' coordIndex='0 1 2 -1 2 1 3 -1'>\
                 <Coordinate USE='SkinCoord'/><Color color='{colors}'/></IndexedFaceSet>"
            )
        };
        let points = "0 0 0  1 0 0  0 1 0  1 1 0";
        let different = humanoid_with_skin(points, &geometry("1 0 0  0 0 1"), "<Appearance><Material/></Appearance>");
        let part = &mesh_of(&different).parts[0];
        assert_eq!(part.corner_count(), 6);
        assert!(part.vertex_colors);
        assert_eq!(part.colors[0], [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(part.colors[5], [0.0, 0.0, 1.0, 1.0]);

        let same = humanoid_with_skin(points, &geometry("0 1 0  0 1 0"), "<Appearance><Material/></Appearance>");
        let part = &mesh_of(&same).parts[0];
        assert_eq!(part.corner_count(), 4, "coplanar faces, equal colours: one corner per point");
        assert_eq!(part.indices, vec![0, 1, 2, 2, 1, 3]);
    }

    #[test]
    fn a_concave_face_is_triangulated_in_its_plane() {
        // The chevron of the triangulation test, standing in the YZ plane, facing +X.
        let doc = humanoid_with_skin(
            "0 0 0  0 0 -2  0 2 -2  0 1 -1  0 2 0",
            "<IndexedFaceSet coordIndex='0 1 2 3 4'><Coordinate USE='SkinCoord'/></IndexedFaceSet>",
            "<Appearance><Material/></Appearance>",
        );
        let part = &mesh_of(&doc).parts[0];
        assert_eq!(part.triangle_count(), 3);
        assert!(part.normals.iter().all(|n| n.abs_diff_eq(Vec3::X, 1e-6)), "{:?}", part.normals);
    }

    #[test]
    fn skin_normals_are_used_when_the_file_has_them() {
        let text = r#"<X3D version='4.0'><Scene>
              <HAnimHumanoid name='h' version='2.0'>
                <HAnimJoint containerField='skeleton' name='humanoid_root' skinCoordIndex='0 1 2' skinCoordWeight='1'/>
                <Coordinate DEF='SkinCoord' containerField='skinCoord' point='0 0 0 1 0 0 0 1 0'/>
                <Normal DEF='SkinNormal' containerField='skinNormal' vector='0 0 1  0 1 0  1 0 0'/>
                <Shape containerField='skin'>
                  <IndexedFaceSet coordIndex='0 1 2'><Coordinate USE='SkinCoord'/><Normal USE='SkinNormal'/></IndexedFaceSet>
                </Shape>
              </HAnimHumanoid></Scene></X3D>"#;
        let doc = hanim::load_str(text, std::path::Path::new("n.x3d")).unwrap_or_else(|e| panic!("{e}"));
        let part = &mesh_of(&doc).parts[0];
        assert_eq!(part.normals, vec![Vec3::Z, Vec3::Y, Vec3::X]);
    }

    #[test]
    fn default_texture_coordinates_follow_the_two_longest_sides() {
        // 4 long in Z, 2 in X, 1 in Y: S along Z, T along X up to 2/4.
        let points = [Vec3::new(0.0, 0.0, 0.0), Vec3::new(2.0, 1.0, 4.0), Vec3::new(1.0, 0.5, 1.0)];
        let uv = default_tex_coords(&points);
        assert_eq!(uv, vec![[0.0, 0.0], [1.0, 0.5], [0.25, 0.25]]);
        // A tie between X and Y: X wins for S.
        let square = default_tex_coords(&[Vec3::ZERO, Vec3::new(2.0, 2.0, 0.0)]);
        assert_eq!(square, vec![[0.0, 0.0], [1.0, 1.0]]);
    }

    #[test]
    fn triangle_strips_and_fans_are_read() {
        let doc = humanoid_with_skin(
            "0 0 0  1 0 0  0 1 0  1 1 0  0 2 0",
            "<IndexedTriangleStripSet index='0 1 2 3 4'><Coordinate USE='SkinCoord'/></IndexedTriangleStripSet>",
            "",
        );
        let part = &mesh_of(&doc).parts[0];
        assert_eq!(part.triangle_count(), 3);
        assert!(part.normals.iter().all(|n| n.abs_diff_eq(Vec3::Z, 1e-6)), "every strip triangle faces +Z");
    }
}
