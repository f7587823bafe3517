//! Meshes: the deforming skin (one skinned mesh, a primitive per skin shape, joint displacers as morph
//! targets), each joint's rigid geometry (on the joint's node, segment displacers as morph targets) and
//! the scene's other shapes.

use std::collections::BTreeMap;

use glam::{Mat4, Vec2, Vec3};
use serde_json::json;

use super::skeleton::HumanoidNodes;
use super::{ExportError, Writer, materials};
use crate::gltf::buffer::ARRAY_BUFFER;
use crate::gltf::json::{Mesh, Node, Primitive, Skin};
use crate::hanim::{DisplacerOwner, Humanoid};
use crate::mesh::{RenderMesh, Topology, render_mesh_from_shape, rigid_shape_mesh, rigid_shapes};

/// The glTF influences of one skin point: `(joint slot, weight)`, largest first, summing to 1.
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::gltf) struct VertexInfluences {
    pub entries: Vec<(u16, f32)>,
    pub reduced: bool,
    pub normalised: bool,
}

/// `p' = (1 − Σw)·p + Σ w·M·p` (semantics note §2.4) as glTF weights: the point's influences, largest
/// first, plus the static joint (`static_slot`, never moving) holding `1 − Σw` where the weights sum to
/// less than 1. Sums over 1 are scaled to 1 (glTF has no negative weight); `limit` keeps the largest.
pub(in crate::gltf) fn vertex_influences(
    influences: &[(u32, f32)],
    static_slot: u16,
    limit: Option<usize>,
) -> VertexInfluences {
    let mut entries: Vec<(u16, f64)> =
        influences.iter().filter(|(_, w)| w.is_finite() && *w > 0.0).map(|&(j, w)| (j as u16, f64::from(w))).collect();
    let mut out = VertexInfluences::default();
    let sum: f64 = entries.iter().map(|e| e.1).sum();
    if sum > 1.0 + 1e-6 {
        out.normalised = true;
        entries.iter_mut().for_each(|e| e.1 /= sum);
    } else if sum < 1.0 - 1e-7 {
        entries.push((static_slot, 1.0 - sum));
    }
    entries.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    if let Some(limit) = limit
        && entries.len() > limit
    {
        entries.truncate(limit.max(1));
        let kept: f64 = entries.iter().map(|e| e.1).sum();
        entries.iter_mut().for_each(|e| e.1 /= kept);
        out.reduced = true;
    }
    let mut weights: Vec<(u16, f32)> = entries.iter().map(|&(j, w)| (j, w as f32)).collect();
    // The largest weight takes what f32 rounding left, so that the stored weights sum to 1.
    let rest: f32 = weights.iter().skip(1).map(|e| e.1).sum();
    if let Some(first) = weights.first_mut() {
        first.1 = 1.0 - rest;
    }
    out.entries = weights;
    out
}

fn uv_of(mesh: &RenderMesh, uv: [f32; 2]) -> [f32; 2] {
    // X3D's t grows upwards, glTF's v downwards; the texture transform is baked into the coordinates.
    let p = mesh.texture_transform.transform_point2(Vec2::from(uv));
    [p.x, 1.0 - p.y]
}

/// The corners' normals as glTF wants them, unit length. A corner whose normal is zero (a smooth normal
/// whose faces cancel, a point only degenerate faces use) takes the normal of the first triangle that uses
/// it, else +Y: without a NORMAL attribute a glTF reader draws the whole primitive flat-shaded (glTF 2.0,
/// 3.7.2.1), so one such corner must not cost the rest their smooth normals.
fn unit_normals(mesh: &RenderMesh, positions: &[[f32; 3]]) -> Vec<[f32; 3]> {
    let mut normals: Vec<Option<Vec3>> = mesh
        .normals
        .iter()
        .map(|n| Some(*n).filter(|n| n.is_finite() && n.length() > 1e-6).map(|n| n.normalize()))
        .collect();
    if normals.iter().any(Option::is_none) {
        for t in mesh.indices.chunks_exact(3) {
            let [a, b, c] = [0, 1, 2].map(|k| Vec3::from(positions[t[k] as usize]));
            let face = (b - a).cross(c - a).normalize_or_zero();
            for &k in t {
                if normals[k as usize].is_none() && face != Vec3::ZERO {
                    normals[k as usize] = Some(face);
                }
            }
        }
    }
    normals.into_iter().map(|n| n.unwrap_or(Vec3::Y).to_array()).collect()
}

/// The attributes every primitive shares: positions per corner, normals, texture coordinates, colours.
fn base_primitive(w: &mut Writer, mesh: &RenderMesh, positions: &[[f32; 3]]) -> Primitive {
    let mut attributes = BTreeMap::new();
    attributes.insert("POSITION".to_string(), w.buffer.floats(positions, Some(ARRAY_BUFFER), true));
    let lit = mesh.topology == Topology::Triangles && mesh.material.lit;
    if lit && mesh.normals.len() == positions.len() {
        let normals = unit_normals(mesh, positions);
        attributes.insert("NORMAL".to_string(), w.buffer.floats(&normals, Some(ARRAY_BUFFER), false));
    }
    let textured = mesh.texture.is_some() || mesh.maps.bits() != 0;
    if textured && mesh.uvs.len() == positions.len() {
        let uvs: Vec<[f32; 2]> = mesh.uvs.iter().map(|&uv| uv_of(mesh, uv)).collect();
        attributes.insert("TEXCOORD_0".to_string(), w.buffer.floats(&uvs, Some(ARRAY_BUFFER), false));
    }
    if mesh.vertex_colors && mesh.colors.len() == positions.len() {
        let linear = !mesh.material.physical;
        let colors: Vec<[f32; 4]> = mesh
            .colors
            .iter()
            .map(|c| {
                let f =
                    |v: f32| if linear { crate::gltf::srgb_to_linear(v.clamp(0.0, 1.0)) } else { v.clamp(0.0, 1.0) };
                [f(c[0]), f(c[1]), f(c[2]), c[3].clamp(0.0, 1.0)]
            })
            .collect();
        attributes.insert("COLOR_0".to_string(), w.buffer.floats(&colors, Some(ARRAY_BUFFER), false));
    }
    let indices = Some(w.buffer.indices(&mesh.indices));
    let mode = match mesh.topology {
        Topology::Triangles => None,
        Topology::Lines => Some(1),
        Topology::Points => Some(0),
    };
    let material = materials::material_for(w, mesh);
    Primitive { attributes, indices, material, mode, targets: Vec::new() }
}

fn target(w: &mut Writer, deltas: &[[f32; 3]]) -> BTreeMap<String, u32> {
    BTreeMap::from([("POSITION".to_string(), w.buffer.floats(deltas, Some(ARRAY_BUFFER), true))])
}

fn mesh_extras(names: &[String]) -> Option<serde_json::Value> {
    (!names.is_empty()).then(|| json!({ "targetNames": names }))
}

/// Adds `mesh` to the document with `displacers` as its morph targets (their names, and their weights in
/// the `rest` pose); its index.
fn push_mesh(w: &mut Writer, h: &Humanoid, rest: &crate::pose::Pose, mut mesh: Mesh, displacers: &[usize]) -> u32 {
    let names: Vec<String> = displacers.iter().map(|&d| h.displacers[d].name.clone()).collect();
    mesh.weights = displacers.iter().map(|&d| rest.displacer_weight(h, d)).collect();
    mesh.extras = mesh_extras(&names);
    w.report.morph_targets += displacers.len();
    w.root.meshes.push(mesh);
    w.report.meshes += 1;
    w.root.meshes.len() as u32 - 1
}

/// The deforming skin as one skinned mesh on a node at the scene's root (glTF ignores a skinned mesh
/// node's own transform).
pub(super) fn write_skin(w: &mut Writer, index: usize, nodes: &mut HumanoidNodes) -> Result<(), ExportError> {
    let doc = w.doc;
    let h: &Humanoid = &doc.humanoids[index];
    let Some(skin) = &h.skin else { return Ok(()) };
    let skin_mesh = crate::mesh::skin_mesh_from_humanoid(&doc.scene, h)?;
    for note in &skin_mesh.notes {
        w.note(format!("{}: {note}", h.name));
    }
    if skin_mesh.parts.is_empty() {
        return Ok(());
    }
    let static_slot = h.joints.len() as u16;
    let per_point: Vec<VertexInfluences> = (0..skin.points.len())
        .map(|i| {
            let list = if i < skin.influences.point_count() { skin.influences.of(i) } else { &[] };
            vertex_influences(list, static_slot, w.options.max_influences)
        })
        .collect();
    let used_points: Vec<bool> = {
        let mut used = vec![false; skin.points.len()];
        skin_mesh.parts.iter().flat_map(|p| &p.source_point).for_each(|&s| used[s as usize] = true);
        used
    };
    let counted = per_point.iter().zip(&used_points).filter(|(_, u)| **u).map(|(v, _)| v);
    let (mut max_len, mut reduced, mut normalised, mut uses_static) = (1, 0, 0, false);
    for v in counted {
        max_len = max_len.max(v.entries.len());
        reduced += usize::from(v.reduced);
        normalised += usize::from(v.normalised);
        uses_static |= v.entries.iter().any(|e| e.0 == static_slot);
    }
    let sets = max_len.div_ceil(4);
    w.report.max_influences = w.report.max_influences.max(max_len);
    w.report.influence_sets = w.report.influence_sets.max(sets);
    w.report.reduced_vertices += reduced;
    w.report.normalised_vertices += normalised;
    if reduced > 0 {
        w.note(format!(
            "{}: {reduced} skin point(s) had more than {} influences; the largest were kept and renormalised",
            h.name,
            w.options.max_influences.unwrap_or(0)
        ));
    }
    if normalised > 0 {
        w.note(format!("{}: {normalised} skin point(s) had weights summing over 1, scaled to 1", h.name));
    }
    // The skin's joints: every H-Anim joint, then (where some point is not fully weighted) a joint that
    // never moves, holding the weight the residual form leaves at the binding point.
    let mut joint_nodes = nodes.joints.clone();
    let mut inverse_binds: Vec<Mat4> = h
        .joints
        .iter()
        .enumerate()
        .map(|(j, joint)| {
            Mat4::from_translation(-joint.rest.center) * h.binding.get(j).copied().unwrap_or(Mat4::IDENTITY)
        })
        .collect();
    if uses_static {
        let mut node = Node { name: Some(format!("{}_unweighted", h.name)), ..Node::default() };
        node.extras = Some(json!({ "hanim": { "type": "StaticJoint" } }));
        joint_nodes.push(w.add_child(Some(nodes.humanoid), node));
        inverse_binds.push(Mat4::IDENTITY);
    }
    let ibm = w.buffer.matrices(&inverse_binds);
    w.root.skins.push(Skin {
        name: Some(h.name.clone()),
        inverse_bind_matrices: ibm,
        skeleton: Some(nodes.humanoid),
        joints: joint_nodes,
    });
    let skin_index = w.root.skins.len() as u32 - 1;

    let displacers: Vec<usize> =
        (0..h.displacers.len()).filter(|&d| matches!(h.displacers[d].owner, DisplacerOwner::Joint(_))).collect();
    let point_deltas: Vec<Vec<Vec3>> = displacers
        .iter()
        .map(|&d| {
            let mut deltas = vec![Vec3::ZERO; skin.points.len()];
            let displacer = &h.displacers[d];
            for (k, &i) in displacer.coord_index.iter().enumerate() {
                if let (Ok(i), Some(delta)) = (usize::try_from(i), displacer.displacements.get(k))
                    && i < deltas.len()
                {
                    deltas[i] += *delta;
                }
            }
            deltas
        })
        .collect();
    let mut mesh = Mesh { name: Some(format!("{} skin", h.name)), ..Mesh::default() };
    for part in &skin_mesh.parts {
        let positions: Vec<[f32; 3]> = part.source_point.iter().map(|&s| skin.points[s as usize].to_array()).collect();
        let mut primitive = base_primitive(w, part, &positions);
        for set in 0..sets {
            let mut joints = Vec::with_capacity(positions.len());
            let mut weights = Vec::with_capacity(positions.len());
            for &s in &part.source_point {
                let entries = &per_point[s as usize].entries;
                let mut j = [0u16; 4];
                let mut wt = [0f32; 4];
                for k in 0..4 {
                    if let Some(&(slot, weight)) = entries.get(set * 4 + k) {
                        j[k] = slot;
                        wt[k] = weight;
                    }
                }
                joints.push(j);
                weights.push(wt);
            }
            primitive.attributes.insert(format!("JOINTS_{set}"), w.buffer.joints(&joints));
            primitive.attributes.insert(format!("WEIGHTS_{set}"), w.buffer.floats(&weights, Some(ARRAY_BUFFER), false));
        }
        for deltas in &point_deltas {
            let corner: Vec<[f32; 3]> = part.source_point.iter().map(|&s| deltas[s as usize].to_array()).collect();
            primitive.targets.push(target(w, &corner));
        }
        mesh.primitives.push(primitive);
    }
    let mesh_index = push_mesh(w, h, &nodes.rest, mesh, &displacers);
    let node = Node {
        name: Some(format!("{} skin", h.name)),
        mesh: Some(mesh_index),
        skin: Some(skin_index),
        ..Node::default()
    };
    let at = w.add_child(None, node);
    nodes.skin_mesh = Some((at, displacers));
    Ok(())
}

/// A rigid shape's mesh, its points in its holder's space, and the morphing segment (with the grouping
/// transforms above the shape) whose `coord` it draws.
type RigidPart = (RenderMesh, Vec<Vec3>, Option<(usize, Mat4)>);

/// Each joint's rigid geometry as one mesh on the joint's node, in the node's frame (points minus the
/// joint's centre); geometry fixed to the humanoid (and skin shapes that do not deform) on a node under
/// the humanoid node.
pub(super) fn write_rigid(w: &mut Writer, index: usize, nodes: &mut HumanoidNodes) -> Result<(), ExportError> {
    let doc = w.doc;
    let h: &Humanoid = &doc.humanoids[index];
    let scene = &doc.scene;
    let mut notes = Vec::new();
    // Per holder (joint, or None for the humanoid): (mesh, points in the holder's space, morph segment).
    let mut by_holder: BTreeMap<Option<usize>, Vec<RigidPart>> = BTreeMap::new();
    for rigid in rigid_shapes(scene, h)? {
        if let Some(shape) = rigid_shape_mesh(scene, h, &rigid, &mut notes)? {
            let offset = shape.offset;
            let (mesh, points) = shape.placed();
            by_holder.entry(rigid.joint).or_default().push((mesh, points, rigid.morph_segment.map(|s| (s, offset))));
        }
    }
    if let Some(skin) = &h.skin {
        for shape in skin.shapes.iter().filter(|s| !s.deforms) {
            if let Some((mesh, points)) = render_mesh_from_shape(scene, shape.shape, None, Mat4::IDENTITY, &mut notes)?
            {
                by_holder.entry(None).or_default().push((mesh, points, None));
            }
        }
    }
    for note in notes {
        w.note(format!("{}: {note}", h.name));
    }
    for (holder, parts) in by_holder {
        let center = holder.map_or(Vec3::ZERO, |j| h.joints[j].rest.center);
        let displacers: Vec<usize> = (0..h.displacers.len())
            .filter(|&d| match h.displacers[d].owner {
                DisplacerOwner::Segment(s) => {
                    h.segments[s].joint == holder && parts.iter().any(|p| p.2.map(|m| m.0) == Some(s))
                }
                DisplacerOwner::Joint(_) => false,
            })
            .collect();
        let name = holder.map_or_else(|| format!("{} fixed", h.name), |j| h.joints[j].name.clone());
        let mut mesh = Mesh { name: Some(name.clone()), ..Mesh::default() };
        for (part, points, morph) in &parts {
            let positions: Vec<[f32; 3]> =
                part.source_point.iter().map(|&s| (points[s as usize] - center).to_array()).collect();
            let mut primitive = base_primitive(w, part, &positions);
            for &d in &displacers {
                let displacer = &h.displacers[d];
                let mut deltas = vec![Vec3::ZERO; points.len()];
                if let (Some((segment, offset)), DisplacerOwner::Segment(owner)) = (morph, displacer.owner)
                    && *segment == owner
                {
                    for (k, &i) in displacer.coord_index.iter().enumerate() {
                        if let (Ok(i), Some(delta)) = (usize::try_from(i), displacer.displacements.get(k))
                            && i < deltas.len()
                        {
                            deltas[i] += offset.transform_vector3(*delta);
                        }
                    }
                }
                let corner: Vec<[f32; 3]> = part.source_point.iter().map(|&s| deltas[s as usize].to_array()).collect();
                primitive.targets.push(target(w, &corner));
            }
            mesh.primitives.push(primitive);
        }
        let mesh_index = push_mesh(w, h, &nodes.rest, mesh, &displacers);
        let node = match holder {
            Some(j) => {
                w.root.nodes[nodes.joints[j] as usize].mesh = Some(mesh_index);
                nodes.joints[j]
            }
            None => {
                w.add_child(Some(nodes.humanoid), Node { name: Some(name), mesh: Some(mesh_index), ..Node::default() })
            }
        };
        nodes.rigid_meshes.push((node, displacers));
    }
    Ok(())
}

/// Shapes outside every humanoid, in world space, as one mesh at the scene's root.
pub(super) fn write_scene_shapes(w: &mut Writer) -> Result<(), ExportError> {
    let doc = w.doc;
    let mut notes = Vec::new();
    let mut mesh = Mesh { name: Some("scene".into()), ..Mesh::default() };
    for &(shape, world) in &doc.other_shapes {
        if let Some((part, points)) = render_mesh_from_shape(&doc.scene, shape, None, world, &mut notes)? {
            let positions: Vec<[f32; 3]> = part.source_point.iter().map(|&s| points[s as usize].to_array()).collect();
            let primitive = base_primitive(w, &part, &positions);
            mesh.primitives.push(primitive);
        }
    }
    for note in notes {
        w.note(note);
    }
    if !mesh.primitives.is_empty() {
        w.root.meshes.push(mesh);
        w.report.meshes += 1;
        let node = Node { name: Some("scene".into()), mesh: Some(w.root.meshes.len() as u32 - 1), ..Node::default() };
        w.add_child(None, node);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn residual_weight_goes_to_the_static_joint_and_sums_stay_one() {
        let v = vertex_influences(&[(3, 0.25), (1, 0.5)], 9, None);
        assert_eq!(v.entries, vec![(1, 0.5), (3, 0.25), (9, 0.25)]);
        let v = vertex_influences(&[(0, 1.5), (2, 0.5)], 9, None);
        assert!(v.normalised);
        assert_eq!(v.entries, vec![(0, 0.75), (2, 0.25)]);
        let v = vertex_influences(&[], 9, None);
        assert_eq!(v.entries, vec![(9, 1.0)]);
        let many: Vec<(u32, f32)> = (0..6).map(|j| (j, 1.0 / 6.0 + j as f32 * 1e-3)).collect();
        let v = vertex_influences(&many, 9, Some(4));
        assert!(v.reduced);
        assert_eq!(v.entries.len(), 4);
        assert_eq!(v.entries[0].0, 5);
        assert!((v.entries.iter().map(|e| e.1).sum::<f32>() - 1.0).abs() < 1e-6);
    }
}
