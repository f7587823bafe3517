//! The X3D document of an imported asset: head, the humanoid (joints with their skin weights and
//! displacers, segments holding rigid geometry, sites and cameras, the skin), the clips, and what lies
//! outside the skeleton.

use glam::{Mat4, Quat, Vec3};
use serde_json::Value;

use super::Source;
use super::materials::{Appearances, appearance};
use super::skeleton::{self, Skeleton};
use super::skin::{self, ShapePlan, SkinPlan};
use super::tree::{Build, Defs, el, floats, ints, mfstring, nmtoken, num, rotation, transform, vec3, vec3s};
use super::{animations, vrm};
use crate::x3d::syntax::{Element, SyntaxDocument};

/// An IndexedFaceSet Shape for `shape`; `coord` is the Coordinate element (a USE of the skin's, or the
/// shape's own points).
fn shape_element(
    source: &Source,
    defs: &mut Defs,
    looks: &mut Appearances,
    shape: &ShapePlan,
    coord: Element,
    container: Option<&str>,
) -> Element {
    let faces = |index: &[u32]| {
        ints(index.chunks_exact(3).flat_map(|t| [i64::from(t[0]), i64::from(t[1]), i64::from(t[2]), -1]))
    };
    let double_sided = shape.material.and_then(|m| source.gltf.materials().nth(m)).is_some_and(|m| m.double_sided());
    let mut geometry = el("IndexedFaceSet")
        .attr("coordIndex", faces(&shape.coord_index))
        .attr("solid", if double_sided { "false" } else { "true" })
        .child(coord);
    let corners = faces(&shape.vertex_index);
    if let Some(normals) = &shape.normals {
        geometry = geometry.attr("normalIndex", corners.clone()).child(el("Normal").attr("vector", vec3s(normals)));
    }
    if let Some(uvs) = &shape.uvs {
        // A texture transform no TextureTransform can draw is applied to the coordinates here.
        let baked = super::materials::uv_map(source, shape.material)
            .filter(|m| m.texture_transform().is_none())
            .map(|m| m.on_x3d_coordinates());
        let point = |&[s, t]: &[f32; 2]| match baked {
            Some(map) => map.transform_point2(glam::Vec2::new(s, t)).to_array(),
            None => [s, t],
        };
        geometry = geometry
            .attr("texCoordIndex", corners.clone())
            .child(el("TextureCoordinate").attr("point", floats(uvs.iter().flat_map(point))));
    }
    if let Some(colors) = &shape.colors {
        geometry = geometry
            .attr("colorIndex", corners)
            .child(el("ColorRGBA").attr("color", floats(colors.iter().flatten().copied())));
    }
    let mut e = el("Shape");
    if let Some(c) = container {
        e = e.attr("containerField", c);
    }
    e.child(appearance(source, defs, looks, shape.material)).child(geometry)
}

fn viewpoint(camera: &gltf::Camera, local: Mat4, name: &str) -> Element {
    let (_, r, t) = local.to_scale_rotation_translation();
    let mut v = el("Viewpoint").attr("description", name).attr("position", vec3(t)).attr("orientation", rotation(r));
    if let gltf::camera::Projection::Perspective(p) = camera.projection() {
        v = v.attr("fieldOfView", num(p.yfov()));
    }
    v
}

fn string(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str).map(String::from).filter(|s| !s.is_empty())
}

/// The whole document.
pub(super) fn build(source: &Source) -> Result<SyntaxDocument, String> {
    let nodes: Vec<gltf::Node> = source.gltf.nodes().collect();
    let nodes_of_mesh =
        |m: usize| nodes.iter().filter(|n| n.mesh().map(|x| x.index()) == Some(m)).map(|n| n.index()).collect();
    let vrm = vrm::read(&source.json, nodes_of_mesh);
    let skeleton = skeleton::build(source, vrm.as_ref());
    if skeleton.joints.is_empty() {
        return Err("the asset has no node to make an H-Anim joint of".into());
    }
    let skin = skin::build_skin(source, &skeleton, vrm.as_ref());
    let humanoid_extras = skeleton.humanoid_node.and_then(|h| skeleton::hanim_extras(&nodes[h]));
    let stem = source.path.file_stem().map_or_else(|| "humanoid".to_string(), |s| s.to_string_lossy().into_owned());
    let name = humanoid_extras
        .as_ref()
        .and_then(|h| string(h.get("name")))
        .or_else(|| {
            skeleton.humanoid_node.and_then(|h| nodes[h].name().map(String::from)).filter(|_| humanoid_extras.is_some())
        })
        .or_else(|| vrm.as_ref().and_then(|v| v.title.clone()))
        .unwrap_or(stem);
    let mut defs = Defs::default();
    let humanoid_def =
        humanoid_extras.as_ref().and_then(|h| string(h.get("def"))).unwrap_or_else(|| format!("hanim_{name}"));
    let humanoid_def = defs.make(&humanoid_def);
    let joint_defs: Vec<String> = skeleton
        .joints
        .iter()
        .map(|j| {
            let wanted =
                j.hanim.as_ref().and_then(|h| string(h.get("def"))).unwrap_or_else(|| format!("hanim_{}", j.name));
            defs.make(&wanted)
        })
        .collect();
    let mut displacer_defs: Vec<String> =
        skin.displacers.iter().map(|d| defs.make(&format!("hanim_{}", d.name))).collect();
    // The skin's displacers, then those of segments (rigid meshes with morph targets), for the clips.
    let mut all_displacers = skin.displacers.clone();
    let mut looks = Appearances::default();

    // Binding: B_j = T(c_j)·IBM_j where a skin names the joint, else the rest pose itself.
    let binding: Vec<Mat4> = (0..skeleton.joints.len())
        .map(|j| match skin.inverse_bind[j] {
            Some(ibm) => Mat4::from_translation(skeleton.joints[j].center) * ibm,
            None => skeleton.joint_frame(j).inverse(),
        })
        .collect();
    let basic = binding.iter().all(|b| b.abs_diff_eq(Mat4::IDENTITY, 1e-5));

    // Joint elements, children attached bottom-up.
    let mut joint_elements: Vec<Element> =
        skeleton.joints.iter().enumerate().map(|(j, plan)| joint_element(plan, &joint_defs[j])).collect();
    attach_skin_weights(&mut joint_elements, &skin);
    for (d, displacer) in skin.displacers.iter().enumerate() {
        let e = el("HAnimDisplacer")
            .attr("DEF", displacer_defs[d].clone())
            .attr("name", nmtoken(&displacer.name))
            .attr("coordIndex", ints(displacer.deltas.iter().map(|d| i64::from(d.0))))
            .attr("displacements", vec3s(displacer.deltas.iter().map(|d| &d.1)))
            .attr("weight", num(displacer.weight));
        joint_elements[displacer.joint].push(e);
    }
    // Segments: rigid meshes, sites and cameras of each joint.
    let mut segments: Vec<Option<Element>> = vec![None; skeleton.joints.len()];
    let mut morph_segments: Vec<(usize, Element)> = Vec::new();
    let mut outside = Vec::new();
    let mut humanoid_viewpoints = Vec::new();
    let mut site_uses = Vec::new();
    for node in &nodes {
        let n = node.index();
        if skeleton.static_nodes.contains(&n) || !reachable(&skeleton, n) {
            continue;
        }
        let owner = skeleton.owner(n);
        let extras = skeleton::hanim_extras(node);
        let kind = extras.as_ref().and_then(|h| string(h.get("type")));
        let in_viewpoints = extras.as_ref().and_then(|h| h.get("inViewpoints")).and_then(Value::as_bool) == Some(true);
        let mut held = Vec::new();
        let morphing = if node.skin().is_none() { skin::morphing_mesh(source, node) } else { None };
        match (morphing, owner) {
            (Some(mesh), Some(j)) => {
                let (segment, displacers) = morphing_segment(source, &mut defs, &mut looks, &skeleton, j, n, mesh);
                for d in displacers {
                    displacer_defs.push(d.0);
                    all_displacers.push(d.1);
                }
                morph_segments.push((j, segment));
                continue;
            }
            (Some(_), None) => source.warn(format!(
                "mesh {}: morph targets of a mesh outside the skeleton are not read",
                node.mesh().and_then(|m| m.name().map(String::from)).unwrap_or_else(|| "(unnamed)".into())
            )),
            (None, _) => {}
        }
        if node.skin().is_none() && node.mesh().is_some() {
            for shape in skin::rigid_shapes(source, node) {
                let coord = el("Coordinate").attr("point", vec3s(&shape.points));
                held.push(shape_element(source, &mut defs, &mut looks, &shape, coord, None));
            }
        }
        let site = kind.as_deref() == Some("HAnimSite");
        if site {
            let site_name = node.name().unwrap_or("site").to_string();
            let def = defs.make(
                &extras.as_ref().and_then(|h| string(h.get("def"))).unwrap_or_else(|| format!("hanim_{site_name}")),
            );
            let local = if in_viewpoints { skeleton.humanoid_from_node(n) } else { skeleton.in_joint_frame(owner, n) };
            let mut e = transform(local);
            e.name = "HAnimSite".into();
            e = e.attr("DEF", def.clone()).attr("name", nmtoken(&site_name));
            for child in node.children() {
                if let Some(camera) = child.camera() {
                    let label = child.name().unwrap_or("view").to_string();
                    e.push(viewpoint(&camera, Mat4::from_cols_array_2d(&child.transform().matrix()), &label));
                }
            }
            if in_viewpoints || owner.is_none() {
                humanoid_viewpoints.push(e.attr("containerField", "viewpoints"));
            } else {
                site_uses.push(def);
                held.push(e);
            }
        } else if let Some(camera) = node.camera()
            && !node.parent_is_site(&nodes, &skeleton)
        {
            let label = node.name().unwrap_or("view").to_string();
            match owner {
                Some(_) => held.push(viewpoint(&camera, skeleton.in_joint_frame(owner, n), &label)),
                None => outside.push(viewpoint(&camera, skeleton.world[n], &label)),
            }
        }
        if held.is_empty() {
            continue;
        }
        match owner {
            Some(j) => {
                let placed =
                    if site { held } else { vec![placed_in(transform(skeleton.in_joint_frame(Some(j), n)), held)] };
                let segment = segments[j].get_or_insert_with(|| {
                    let seg_name = format!("{}_segment", skeleton.joints[j].name);
                    el("HAnimSegment")
                        .attr("DEF", defs.make(&format!("hanim_{seg_name}")))
                        .attr("name", nmtoken(&seg_name))
                });
                for e in placed {
                    segment.push(e);
                }
            }
            None => outside.push(placed_in(transform(skeleton.world[n]), held)),
        }
    }
    let mut segment_uses = Vec::new();
    let all_segments = segments.into_iter().enumerate().filter_map(|(j, s)| Some((j, s?))).chain(morph_segments);
    for (j, segment) in all_segments {
        segment_uses.push(segment.attribute("DEF").unwrap_or_default().to_string());
        joint_elements[j].push(segment);
    }
    // Nest joints: children were appended in parent-before-child order, so fold from the end.
    let mut slots: Vec<Option<Element>> = joint_elements.into_iter().map(Some).collect();
    for j in (0..slots.len()).rev() {
        if let Some(p) = skeleton.joints[j].parent {
            let child = slots[j].take().expect("each joint is moved once");
            let children = slots[p].as_mut().expect("parents come first");
            // Keep sibling order: insert before the ones already attached by later indices.
            let at = first_joint_child(children);
            children.content.insert(at, crate::x3d::syntax::Content::Element(child));
        }
    }
    let (s, r, t) = skeleton.humanoid.to_scale_rotation_translation();
    let mut humanoid = el("HAnimHumanoid")
        .attr("DEF", humanoid_def)
        .attr("name", nmtoken(&name))
        .attr("version", "2.0")
        .attr("skeletalConfiguration", if basic { "BASIC" } else { "GLTF" });
    if let Some(h) = &humanoid_extras {
        if let Some(d) = string(h.get("description")) {
            humanoid = humanoid.attr("description", d);
        }
        if let Some(loa) = h.get("loa").and_then(Value::as_i64) {
            humanoid = humanoid.attr("loa", loa.to_string());
        }
        if let Some(info) = h.get("info").and_then(Value::as_object).filter(|i| !i.is_empty()) {
            let entries: Vec<String> =
                info.iter().map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default())).collect();
            humanoid = humanoid.attr("info", mfstring(entries.iter().map(String::as_str)));
        }
    }
    if t != Vec3::ZERO {
        humanoid = humanoid.attr("translation", vec3(t));
    }
    if r.normalize() != Quat::IDENTITY {
        humanoid = humanoid.attr("rotation", rotation(r));
    }
    if (s - Vec3::ONE).abs().max_element() > 1e-7 {
        humanoid = humanoid.attr("scale", vec3(s));
    }
    if !basic {
        let parts: Vec<(Vec3, Quat, Vec3)> = binding.iter().map(|b| b.to_scale_rotation_translation()).collect();
        humanoid = humanoid
            .attr("jointBindingPositions", parts.iter().map(|p| vec3(p.2)).collect::<Vec<_>>().join(" "))
            .attr("jointBindingRotations", parts.iter().map(|p| rotation(p.1)).collect::<Vec<_>>().join(" "))
            .attr("jointBindingScales", parts.iter().map(|p| vec3(p.0)).collect::<Vec<_>>().join(" "));
    }
    for root in slots.into_iter().flatten() {
        humanoid.push(root.attr("containerField", "skeleton"));
    }
    if !skin.points.is_empty() {
        let coord_def = defs.make(&format!("{name}_skinCoord"));
        humanoid.push(
            el("Coordinate")
                .attr("DEF", coord_def.clone())
                .attr("containerField", "skinCoord")
                .attr("point", vec3s(&skin.points)),
        );
        for shape in &skin.shapes {
            let coord = el("Coordinate").attr("USE", coord_def.clone());
            let e = shape_element(source, &mut defs, &mut looks, shape, coord, Some("skin"));
            humanoid.push(e);
        }
    }
    for def in &joint_defs {
        humanoid.push(el("HAnimJoint").attr("USE", def.clone()).attr("containerField", "joints"));
    }
    for def in &segment_uses {
        humanoid.push(el("HAnimSegment").attr("USE", def.clone()).attr("containerField", "segments"));
    }
    for def in &site_uses {
        humanoid.push(el("HAnimSite").attr("USE", def.clone()).attr("containerField", "sites"));
    }
    for v in humanoid_viewpoints {
        humanoid.push(v);
    }
    let clips = animations::build(source, &skeleton, &all_displacers, &joint_defs, &displacer_defs, &mut defs);
    let mut scene = el("Scene").child(el("WorldInfo").attr("title", name.clone()));
    if let Some(library) = looks.library() {
        scene.push(library);
    }
    for e in outside {
        scene.push(e);
    }
    scene.push(humanoid);
    for e in clips {
        scene.push(e);
    }
    let generator = format!(
        "hanim-viewer {} from {}",
        crate::VERSION,
        source.path.file_name().map_or_else(String::new, |f| f.to_string_lossy().into_owned())
    );
    let head = el("head")
        .child(el("component").attr("name", "HAnim").attr("level", "3"))
        .child(el("meta").attr("name", "generator").attr("content", generator));
    let root = el("X3D").attr("profile", "Immersive").attr("version", "4.0").child(head).child(scene);
    Ok(SyntaxDocument { root })
}

/// A segment of joint `j` for the rigid mesh of node `n` that has morph targets: the mesh's points as
/// the segment's `coord`, a displacer per morph target, and the shapes (USEing the coord) under a
/// Transform placing the node's frame. Returns it with the displacers' DEFs and plans.
fn morphing_segment(
    source: &Source,
    defs: &mut Defs,
    looks: &mut Appearances,
    skeleton: &Skeleton,
    j: usize,
    n: usize,
    mesh: skin::MorphingMesh,
) -> (Element, Vec<(String, skin::DisplacerPlan)>) {
    let node_name = source.gltf.nodes().nth(n).and_then(|node| node.name().map(String::from));
    let seg_name = format!("{}_{}_segment", skeleton.joints[j].name, node_name.unwrap_or_else(|| format!("node{n}")));
    let coord_def = defs.make(&format!("hanim_{seg_name}_coord"));
    let mut segment =
        el("HAnimSegment").attr("DEF", defs.make(&format!("hanim_{seg_name}"))).attr("name", nmtoken(&seg_name)).child(
            el("Coordinate")
                .attr("DEF", coord_def.clone())
                .attr("containerField", "coord")
                .attr("point", vec3s(&mesh.points)),
        );
    let mut displacers = Vec::new();
    for plan in mesh.displacers {
        let def = defs.make(&format!("hanim_{}", plan.name));
        segment.push(
            el("HAnimDisplacer")
                .attr("DEF", def.clone())
                .attr("containerField", "displacers")
                .attr("name", nmtoken(&plan.name))
                .attr("coordIndex", ints(plan.deltas.iter().map(|d| i64::from(d.0))))
                .attr("displacements", vec3s(plan.deltas.iter().map(|d| &d.1)))
                .attr("weight", num(plan.weight)),
        );
        displacers.push((def, plan));
    }
    let shapes = mesh
        .shapes
        .iter()
        .map(|shape| {
            let coord = el("Coordinate").attr("USE", coord_def.clone());
            shape_element(source, defs, looks, shape, coord, None)
        })
        .collect();
    segment.push(placed_in(transform(skeleton.in_joint_frame(Some(j), n)), shapes));
    (segment, displacers)
}

/// Whether node `n` is in the scene tree (glTF lets nodes lie outside every scene).
fn reachable(skeleton: &Skeleton, n: usize) -> bool {
    skeleton.world.get(n).is_some()
}

fn placed_in(mut group: Element, children: Vec<Element>) -> Element {
    for c in children {
        group.push(c);
    }
    group
}

fn first_joint_child(e: &Element) -> usize {
    e.content
        .iter()
        .position(|c| matches!(c, crate::x3d::syntax::Content::Element(x) if x.name == "HAnimJoint"))
        .unwrap_or(e.content.len())
}

fn joint_element(plan: &skeleton::JointPlan, def: &str) -> Element {
    let mut e = el("HAnimJoint").attr("DEF", def).attr("name", nmtoken(&plan.name)).attr("center", vec3(plan.center));
    if plan.translation.abs().max_element() > 1e-6 {
        e = e.attr("translation", vec3(plan.translation));
    }
    if plan.rotation != Quat::IDENTITY {
        e = e.attr("rotation", rotation(plan.rotation));
    }
    // Decomposing a rest matrix leaves scales a few ulps from 1.
    if (plan.scale - Vec3::ONE).abs().max_element() > 1e-5 {
        e = e.attr("scale", vec3(plan.scale));
    }
    if let Some(h) = &plan.hanim {
        for key in ["llimit", "ulimit", "stiffness"] {
            if let Some(values) = h.get(key).and_then(Value::as_array).filter(|v| !v.is_empty()) {
                e = e.attr(key, floats(values.iter().filter_map(Value::as_f64).map(|v| v as f32)));
            }
        }
        if let Some(lo) = h.get("limitOrientation").and_then(|v| serde_json::from_value::<[f32; 4]>(v.clone()).ok())
            && lo[3] != 0.0
        {
            e = e.attr("limitOrientation", floats(lo));
        }
        if let Some(d) = string(h.get("description")) {
            e = e.attr("description", d);
        }
    }
    e
}

/// Each joint's skinCoordIndex and skinCoordWeight, from the points' influences.
fn attach_skin_weights(joints: &mut [Element], skin: &SkinPlan) {
    let mut lists: Vec<(Vec<i64>, Vec<f32>)> = vec![(Vec::new(), Vec::new()); joints.len()];
    for (p, influences) in skin.influences.iter().enumerate() {
        for &(j, w) in influences {
            lists[j].0.push(p as i64);
            lists[j].1.push(w);
        }
    }
    for (e, (index, weight)) in joints.iter_mut().zip(lists) {
        if !index.is_empty() {
            e.set_attribute("skinCoordIndex", ints(index));
            e.set_attribute("skinCoordWeight", floats(weight));
        }
    }
}

/// Cameras under a site are written with the site.
trait SiteChild {
    fn parent_is_site(&self, nodes: &[gltf::Node], skeleton: &Skeleton) -> bool;
}

impl SiteChild for gltf::Node<'_> {
    fn parent_is_site(&self, nodes: &[gltf::Node], skeleton: &Skeleton) -> bool {
        skeleton.parent[self.index()].is_some_and(|p| {
            skeleton::hanim_extras(&nodes[p]).and_then(|h| string(h.get("type"))).as_deref() == Some("HAnimSite")
        })
    }
}
