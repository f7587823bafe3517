//! Rigid parts merged into a one-influence skin: the segment, joint and site shapes of a segmented
//! humanoid (JinLOA4 has 146) would each cost a draw per part; merged, every point carries its joint
//! (weight 1) and the skin pass places it, so shapes that share an appearance become one part of one
//! mesh and a whole figure costs a handful of draws.
//!
//! A rigid shape's point `p` (in its Shape's frame) is drawn at `G_j · offset · p`; the skin pass draws a
//! skin point `q` of joint j at `M_j · q` with `M_j = G_j · B_j`. So `q = B_j⁻¹ · offset · p`, and its
//! normals go by the inverse transpose of the same matrix (`N_j` then gives `N(G_j · offset)`, as the
//! rigid draw's placement would).

use glam::{Mat3, Mat4, Vec3};

use super::{RenderMesh, SkinMesh, Topology};
use crate::hanim::{Humanoid, Influences, Skin};
use crate::pose::normal_from_skin;

/// One rigid shape to merge: its mesh and points in the Shape's frame, placed by `G_joint · offset`.
pub struct RigidPiece<'a> {
    pub joint: usize,
    pub offset: Mat4,
    pub mesh: &'a RenderMesh,
    pub points: &'a [Vec3],
}

/// Rigid shapes as one skin: a humanoid that is `h` but for its skin (the merged points, each weighted
/// 1 to its joint; no displacers, no segment coords), and the mesh of parts over those points, one per
/// appearance.
pub struct MergedRigid {
    pub humanoid: Humanoid,
    pub mesh: SkinMesh,
}

/// Whether `piece` can join a merged mesh: triangles (lines and points keep their unlit draws) whose
/// joint's binding matrix can be undone.
pub fn can_merge(h: &Humanoid, piece: &RigidPiece) -> bool {
    let binding = h.binding.get(piece.joint).copied().unwrap_or(Mat4::IDENTITY);
    piece.mesh.topology == Topology::Triangles
        && piece.joint < h.joints.len()
        && binding.determinant().abs() > f32::EPSILON
        && binding.is_finite()
}

/// Merges `pieces` (each passing [`can_merge`]) into one skin; pieces that share an appearance share a
/// part, in the order their first piece comes.
pub fn merge_rigid(h: &Humanoid, pieces: &[RigidPiece]) -> MergedRigid {
    let mut points: Vec<Vec3> = Vec::new();
    let mut influences = Influences { offsets: vec![0], entries: Vec::new() };
    let mut parts: Vec<RenderMesh> = Vec::new();
    for piece in pieces {
        let binding = h.binding.get(piece.joint).copied().unwrap_or(Mat4::IDENTITY);
        let to_bind = binding.inverse() * piece.offset;
        let normal_to_bind = normal_from_skin(Mat3::from_mat4(to_bind));
        let first_point = points.len() as u32;
        for p in piece.points {
            points.push(to_bind.transform_point3(*p));
            influences.entries.push((piece.joint as u32, 1.0));
            influences.offsets.push(influences.entries.len() as u32);
        }
        let mesh = piece.mesh;
        let part = match parts.iter_mut().position(|part| same_appearance(part, mesh)) {
            Some(i) => &mut parts[i],
            None => {
                parts.push(RenderMesh {
                    source_point: Vec::new(),
                    normals: Vec::new(),
                    colors: Vec::new(),
                    uvs: Vec::new(),
                    indices: Vec::new(),
                    ..mesh.clone()
                });
                parts.last_mut().expect("just pushed")
            }
        };
        let first_corner = part.source_point.len() as u32;
        part.source_point.extend(mesh.source_point.iter().map(|&i| i + first_point));
        part.normals.extend(mesh.normals.iter().map(|n| (normal_to_bind * *n).normalize_or_zero()));
        part.colors.extend_from_slice(&mesh.colors);
        part.uvs.extend_from_slice(&mesh.uvs);
        part.indices.extend(mesh.indices.iter().map(|&i| i + first_corner));
    }
    let mut humanoid = h.clone();
    humanoid.skin = Some(Skin {
        shapes: Vec::new(),
        coord_node: None,
        normal_node: None,
        points,
        normals: Vec::new(),
        influences,
        unweighted_points: 0,
    });
    humanoid.displacers.clear();
    for segment in &mut humanoid.segments {
        segment.coord_points.clear();
        segment.displacers.clear();
    }
    MergedRigid { humanoid, mesh: SkinMesh { parts, notes: Vec::new() } }
}

/// Whether two meshes are shaded alike: the same material, textures and texture transform, vertex
/// colours or not, sidedness and topology.
fn same_appearance(a: &RenderMesh, b: &RenderMesh) -> bool {
    a.topology == b.topology
        && a.material == b.material
        && a.texture == b.texture
        && a.maps == b.maps
        && a.texture_transform == b.texture_transform
        && a.vertex_colors == b.vertex_colors
        && a.two_sided == b.two_sided
}
