//! Meshes: skinned primitives welded into the humanoid's one skin, their morph targets and VRM
//! expressions as displacers; unskinned meshes as rigid shapes of the joint they hang from, their morph
//! targets as displacers of a segment's coord.

use std::collections::HashMap;

use glam::{Mat4, Vec3};

use super::Source;
use super::skeleton::Skeleton;
use super::vrm::Vrm;

/// One primitive as an IndexedFaceSet: triangles over its points, and per-vertex attributes indexed by
/// the primitive's own vertex numbers (`vertex_index`, one per corner).
#[derive(Debug, Clone, Default)]
pub(super) struct ShapePlan {
    /// Point index per corner, three per triangle.
    pub coord_index: Vec<u32>,
    /// The primitive's vertex per corner (indexes `normals`, `uvs`, `colors`).
    pub vertex_index: Vec<u32>,
    pub normals: Option<Vec<Vec3>>,
    pub uvs: Option<Vec<[f32; 2]>>,
    pub colors: Option<Vec<[f32; 4]>>,
    pub material: Option<usize>,
    /// Points of a rigid shape (skin shapes use the skin's points).
    pub points: Vec<Vec3>,
}

/// A displacer: points and displacements, its name, weight and owning joint.
#[derive(Debug, Clone)]
pub(super) struct DisplacerPlan {
    pub name: String,
    pub joint: usize,
    pub deltas: Vec<(u32, Vec3)>,
    pub weight: f32,
    /// `(node, morph target)` whose animated weight drives it, for a plain morph target.
    pub target: Option<(usize, usize)>,
}

#[derive(Debug, Default)]
pub(super) struct SkinPlan {
    pub points: Vec<Vec3>,
    /// Per point: `(joint, weight)`.
    pub influences: Vec<Vec<(usize, f32)>>,
    pub shapes: Vec<ShapePlan>,
    pub displacers: Vec<DisplacerPlan>,
    /// Per joint: its inverse bind matrix, where a skin names one.
    pub inverse_bind: Vec<Option<Mat4>>,
}

/// The triangles of a primitive as vertex indices (lists, strips and fans), or `None` for lines and points.
fn triangles(mode: gltf::mesh::Mode, indices: Vec<u32>) -> Option<Vec<u32>> {
    use gltf::mesh::Mode;
    match mode {
        Mode::Triangles => Some(indices.chunks_exact(3).flatten().copied().collect()),
        Mode::TriangleStrip => Some(
            (2..indices.len())
                .flat_map(|i| {
                    if i % 2 == 0 {
                        [indices[i - 2], indices[i - 1], indices[i]]
                    } else {
                        [indices[i - 1], indices[i - 2], indices[i]]
                    }
                })
                .collect(),
        ),
        Mode::TriangleFan => Some((2..indices.len()).flat_map(|i| [indices[0], indices[i - 1], indices[i]]).collect()),
        _ => None,
    }
}

/// What one primitive reads: vertex positions, attributes, influences, morph deltas, triangles.
struct Read {
    positions: Vec<Vec3>,
    shape: ShapePlan,
    joints: Vec<Vec<(u16, f32)>>,
    targets: Vec<Vec<Vec3>>,
}

fn read_primitive(source: &Source, primitive: &gltf::Primitive, what: &str) -> Option<Read> {
    let buffers = &source.buffers;
    let reader = primitive.reader(|b| buffers.get(b.index()).map(Vec::as_slice));
    let positions: Vec<Vec3> = reader.read_positions()?.map(Vec3::from).collect();
    let indices: Vec<u32> = match reader.read_indices() {
        Some(i) => i.into_u32().collect(),
        None => (0..positions.len() as u32).collect(),
    };
    let Some(vertex_index) = triangles(primitive.mode(), indices) else {
        let mode = primitive.mode();
        source.warn(format!("{what}: a primitive of mode {mode:?} (lines or points) is left out"));
        return None;
    };
    let vertex_index: Vec<u32> = vertex_index
        .chunks_exact(3)
        .filter(|t| t.iter().all(|&i| (i as usize) < positions.len()))
        .flatten()
        .copied()
        .collect();
    let normals = reader.read_normals().map(|n| n.map(Vec3::from).collect::<Vec<_>>());
    // glTF's v runs downwards, X3D's t upwards.
    let uvs = reader.read_tex_coords(0).map(|t| t.into_f32().map(|[u, v]| [u, 1.0 - v]).collect::<Vec<_>>());
    let colors = reader.read_colors(0).map(|c| c.into_rgba_f32().collect::<Vec<_>>());
    let mut joints = vec![Vec::new(); positions.len()];
    let mut set = 0;
    while let (Some(j), Some(w)) = (reader.read_joints(set), reader.read_weights(set)) {
        for (v, (j, w)) in j.into_u16().zip(w.into_f32()).enumerate() {
            if let Some(list) = joints.get_mut(v) {
                list.extend(j.into_iter().zip(w).filter(|(_, w)| *w > 0.0));
            }
        }
        set += 1;
    }
    let targets = reader
        .read_morph_targets()
        .map(|(p, _, _)| match p {
            Some(p) => p.map(Vec3::from).collect(),
            None => vec![Vec3::ZERO; positions.len()],
        })
        .collect();
    let shape = ShapePlan {
        coord_index: Vec::new(),
        vertex_index,
        normals,
        uvs,
        colors,
        material: primitive.material().index(),
        points: Vec::new(),
    };
    Some(Read { positions, shape, joints, targets })
}

fn bits(v: Vec3) -> [u32; 3] {
    [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()]
}

/// One morph target of one skinned node: `(node, target)`, its name, default weight, and the points it
/// moves.
type Morph = ((usize, usize), String, f32, HashMap<u32, Vec3>);

/// The skin: every primitive of every skinned mesh node.
pub(super) fn build_skin(source: &Source, skeleton: &Skeleton, vrm: Option<&Vrm>) -> SkinPlan {
    let mut plan = SkinPlan { inverse_bind: vec![None; skeleton.joints.len()], ..SkinPlan::default() };
    let mut welded: HashMap<Vec<u32>, u32> = HashMap::new();
    // Per (node, morph target): the points it moves.
    let mut morphs: Vec<Morph> = Vec::new();
    let nodes: Vec<gltf::Node> = source.gltf.nodes().collect();
    for node in nodes.iter().filter(|n| n.skin().is_some() && n.mesh().is_some()) {
        let (Some(skin), Some(mesh)) = (node.skin(), node.mesh()) else { continue };
        // The skin's joint slots → H-Anim joints (None: the static joint or a node that is no joint).
        let slots: Vec<Option<usize>> =
            skin.joints().map(|j| skeleton.joint_of_node.get(&j.index()).copied()).collect();
        let buffers = &source.buffers;
        let binds: Vec<Mat4> = skin
            .reader(|b| buffers.get(b.index()).map(Vec::as_slice))
            .read_inverse_bind_matrices()
            .map(|m| m.map(|c| Mat4::from_cols_array_2d(&c)).collect())
            .unwrap_or_default();
        for (slot, joint) in slots.iter().enumerate() {
            let Some(j) = *joint else { continue };
            let bind = binds.get(slot).copied().unwrap_or(Mat4::IDENTITY);
            match plan.inverse_bind[j] {
                None => plan.inverse_bind[j] = Some(bind),
                Some(known) if !known.abs_diff_eq(bind, 1e-5) => source.warn(format!(
                    "joint {}: skins disagree on its inverse bind matrix; the first is used",
                    skeleton.joints[j].name
                )),
                Some(_) => {}
            }
        }
        let target_names = target_names(&mesh);
        let weights: Vec<f32> = node.weights().or(mesh.weights()).map(<[f32]>::to_vec).unwrap_or_default();
        let what = format!("mesh {}", mesh.name().unwrap_or("(unnamed)"));
        for primitive in mesh.primitives() {
            let Some(read) = read_primitive(source, &primitive, &what) else { continue };
            let mut point_of_vertex = Vec::with_capacity(read.positions.len());
            for (v, &p) in read.positions.iter().enumerate() {
                let mut influences: Vec<(usize, f32)> = Vec::new();
                for &(slot, w) in &read.joints[v] {
                    if let Some(Some(j)) = slots.get(slot as usize) {
                        match influences.iter_mut().find(|e| e.0 == *j) {
                            Some(e) => e.1 += w,
                            None => influences.push((*j, w)),
                        }
                    }
                }
                influences.sort_by_key(|e| e.0);
                let mut key: Vec<u32> = bits(p).to_vec();
                key.push(node.index() as u32);
                key.extend(influences.iter().flat_map(|&(j, w)| [j as u32, w.to_bits()]));
                key.push(u32::MAX);
                key.extend(read.targets.iter().flat_map(|t| bits(t[v])));
                let point = *welded.entry(key).or_insert_with(|| {
                    plan.points.push(p);
                    plan.influences.push(influences);
                    plan.points.len() as u32 - 1
                });
                point_of_vertex.push(point);
            }
            for (k, deltas) in read.targets.iter().enumerate() {
                let key = (node.index(), k);
                let at = match morphs.iter().position(|m| m.0 == key) {
                    Some(at) => at,
                    None => {
                        let name = target_names
                            .get(k)
                            .cloned()
                            .unwrap_or_else(|| format!("{}_morph_{k}", mesh.name().unwrap_or("mesh")));
                        morphs.push((key, name, weights.get(k).copied().unwrap_or(0.0), HashMap::new()));
                        morphs.len() - 1
                    }
                };
                for (v, d) in deltas.iter().enumerate() {
                    if *d != Vec3::ZERO {
                        morphs[at].3.insert(point_of_vertex[v], *d);
                    }
                }
            }
            let mut shape = read.shape;
            shape.coord_index = shape.vertex_index.iter().map(|&v| point_of_vertex[v as usize]).collect();
            plan.shapes.push(shape);
        }
    }
    // VRM expressions first, then the morph targets no expression uses.
    let mut bound = std::collections::HashSet::new();
    for expression in vrm.map(|v| v.expressions.as_slice()).unwrap_or_default() {
        let mut sum: HashMap<u32, Vec3> = HashMap::new();
        for &(node, target, weight) in &expression.binds {
            if let Some(m) = morphs.iter().find(|m| m.0 == (node, target)) {
                bound.insert((node, target));
                for (&p, &d) in &m.3 {
                    *sum.entry(p).or_default() += d * weight;
                }
            }
        }
        if !sum.is_empty() {
            push_displacer(&mut plan, expression.name.clone(), sum, 0.0, None);
        }
    }
    for (key, name, weight, deltas) in morphs {
        if !bound.contains(&key) && !deltas.is_empty() {
            push_displacer(&mut plan, name, deltas, weight, Some(key));
        }
    }
    plan
}

/// A displacer owned by the joint that weighs most on its points (H-Anim turns displacements by their
/// joint's matrix, glTF by the vertex's blend: they agree on points that joint holds alone).
fn push_displacer(
    plan: &mut SkinPlan,
    name: String,
    deltas: HashMap<u32, Vec3>,
    weight: f32,
    target: Option<(usize, usize)>,
) {
    let mut totals: HashMap<usize, f32> = HashMap::new();
    for &p in deltas.keys() {
        for &(j, w) in &plan.influences[p as usize] {
            *totals.entry(j).or_default() += w;
        }
    }
    let joint = totals.into_iter().max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0))).map_or(0, |(j, _)| j);
    let mut deltas: Vec<(u32, Vec3)> = deltas.into_iter().collect();
    deltas.sort_by_key(|d| d.0);
    plan.displacers.push(DisplacerPlan { name, joint, deltas, weight, target });
}

/// A rigid (unskinned) mesh node's primitives, their points in the node's own frame.
pub(super) fn rigid_shapes(source: &Source, node: &gltf::Node) -> Vec<ShapePlan> {
    let Some(mesh) = node.mesh() else { return Vec::new() };
    let what = format!("mesh {}", mesh.name().unwrap_or("(unnamed)"));
    let mut out = Vec::new();
    for primitive in mesh.primitives() {
        let Some(read) = read_primitive(source, &primitive, &what) else { continue };
        let mut shape = read.shape;
        shape.coord_index = shape.vertex_index.clone();
        shape.points = read.positions;
        out.push(shape);
    }
    out
}

/// A rigid mesh with morph targets: one point list for all its primitives (a segment's `coord`), the
/// shapes indexing it, and a displacer per morph target (its deltas on those points, in the node's frame:
/// H-Anim adds a segment displacer's displacements to the coord's points as they are).
#[derive(Debug, Default)]
pub(super) struct MorphingMesh {
    pub points: Vec<Vec3>,
    pub shapes: Vec<ShapePlan>,
    /// `name`, `joint` unused (0), `target` the node and morph target whose animated weight drives it.
    pub displacers: Vec<DisplacerPlan>,
}

/// The morphing form of a rigid mesh node, or `None` when its mesh has no morph target.
pub(super) fn morphing_mesh(source: &Source, node: &gltf::Node) -> Option<MorphingMesh> {
    let mesh = node.mesh()?;
    if !mesh.primitives().any(|p| p.morph_targets().next().is_some()) {
        return None;
    }
    let what = format!("mesh {}", mesh.name().unwrap_or("(unnamed)"));
    let names = target_names(&mesh);
    let weights: Vec<f32> = node.weights().or(mesh.weights()).map(<[f32]>::to_vec).unwrap_or_default();
    let mut out = MorphingMesh::default();
    let mut deltas: Vec<Vec<(u32, Vec3)>> = Vec::new();
    for primitive in mesh.primitives() {
        let Some(read) = read_primitive(source, &primitive, &what) else { continue };
        let first = out.points.len() as u32;
        for (k, target) in read.targets.iter().enumerate() {
            if deltas.len() <= k {
                deltas.resize(k + 1, Vec::new());
            }
            deltas[k].extend(
                target.iter().enumerate().filter(|(_, d)| **d != Vec3::ZERO).map(|(v, d)| (first + v as u32, *d)),
            );
        }
        let mut shape = read.shape;
        shape.coord_index = shape.vertex_index.iter().map(|&v| first + v).collect();
        out.points.extend(read.positions);
        out.shapes.push(shape);
    }
    for (k, deltas) in deltas.into_iter().enumerate() {
        if deltas.is_empty() {
            continue;
        }
        let name = names.get(k).cloned().unwrap_or_else(|| format!("{}_morph_{k}", mesh.name().unwrap_or("mesh")));
        let weight = weights.get(k).copied().unwrap_or(0.0);
        out.displacers.push(DisplacerPlan { name, joint: 0, deltas, weight, target: Some((node.index(), k)) });
    }
    Some(out)
}

/// A mesh's `extras.targetNames` (the names Blender and this program's export give morph targets).
fn target_names(mesh: &gltf::Mesh) -> Vec<String> {
    mesh.extras()
        .as_ref()
        .and_then(|raw| serde_json::from_str::<serde_json::Value>(raw.get()).ok())
        .and_then(|v| serde_json::from_value(v.get("targetNames")?.clone()).ok())
        .unwrap_or_default()
}
