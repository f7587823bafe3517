//! Nodes: the humanoid, its joints (origin at each joint's `center`), sites and cameras.

use glam::{Mat4, Quat, Vec3};
use serde_json::json;

use super::{ExportError, Writer};
use crate::gltf::json::{Camera, Node, Perspective};
use crate::hanim::{Humanoid, TransformFields, Viewpoint, site_joint};
use crate::pose::Pose;

/// The nodes written for one humanoid, for the meshes, cameras and animations that hang on them.
#[derive(Debug, Clone)]
pub(in crate::gltf) struct HumanoidNodes {
    pub humanoid: u32,
    /// One node per joint, in [`Humanoid::joints`] order.
    pub joints: Vec<u32>,
    pub sites: Vec<u32>,
    /// The node holding the skinned mesh, and the skin displacers its morph targets are, in order.
    pub skin_mesh: Option<(u32, Vec<usize>)>,
    /// Per joint, the node of its rigid mesh and the segment displacers its morph targets are.
    pub rigid_meshes: Vec<(u32, Vec<usize>)>,
    /// The pose written as the nodes' rest transforms.
    pub rest: Pose,
}

/// A matrix as a node's translation, rotation and scale (left out where they are the defaults).
type Trs = (Option<[f32; 3]>, Option<[f32; 4]>, Option<[f32; 3]>);

pub(super) fn trs(m: Mat4) -> Trs {
    let (s, r, t) = m.to_scale_rotation_translation();
    let r = if r.is_finite() && r.length() > 0.5 { r.normalize() } else { Quat::IDENTITY };
    let t = (t.length_squared() > 0.0).then(|| t.to_array());
    let r = (r != Quat::IDENTITY).then(|| r.to_array());
    let s = ((s - Vec3::ONE).abs().max_element() > 1e-7).then(|| s.to_array());
    (t, r, s)
}

pub(super) fn node_at(name: Option<String>, m: Mat4) -> Node {
    let (translation, rotation, scale) = trs(m);
    Node { name, translation, rotation, scale, ..Node::default() }
}

/// `T(−c_parent) · L_j · T(c_j)`: joint `j`'s node transform at `pose`, relative to its parent's node.
pub(in crate::gltf) fn joint_node_matrix(h: &Humanoid, pose: &Pose, j: usize) -> Mat4 {
    let parent_center = h.joints[j].parent.map_or(Vec3::ZERO, |p| h.joints[p].rest.center);
    Mat4::from_translation(-parent_center) * pose.local_matrix(h, j) * Mat4::from_translation(h.joints[j].rest.center)
}

fn axis_angle(q: Quat) -> [f32; 4] {
    let (axis, angle) = q.to_axis_angle();
    if angle.abs() < 1e-9 { [0.0, 0.0, 1.0, 0.0] } else { [axis.x, axis.y, axis.z, angle] }
}

fn fields_json(f: &TransformFields) -> serde_json::Value {
    json!({
        "translation": f.translation.to_array(),
        "rotation": axis_angle(f.rotation),
        "center": f.center.to_array(),
        "scale": f.scale.to_array(),
        "scaleOrientation": axis_angle(f.scale_orientation),
    })
}

/// The humanoid node and its joints and sites, posed by `pose`.
pub(super) fn write_humanoid(w: &mut Writer, index: usize, pose: &Pose) -> Result<HumanoidNodes, ExportError> {
    let h = &w.doc.humanoids[index];
    let mut top = node_at(Some(h.name.clone()), pose.world_from_humanoid(h));
    let info: serde_json::Map<String, serde_json::Value> =
        h.info.iter().map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone()))).collect();
    top.extras = Some(json!({ "hanim": {
        "type": "HAnimHumanoid",
        "def": h.def,
        "version": h.version,
        "loa": h.loa,
        "skeletalConfiguration": h.skeletal_configuration,
        "description": h.description,
        "info": info,
        "fields": fields_json(&h.transform),
    }}));
    let humanoid = w.add_child(None, top);
    let mut joints: Vec<u32> = Vec::with_capacity(h.joints.len());
    for (j, joint) in h.joints.iter().enumerate() {
        let parent = match joint.parent {
            Some(p) if p < j => joints[p],
            Some(_) => {
                return Err(ExportError::Humanoid {
                    humanoid: h.name.clone(),
                    message: format!("joint {} comes before its parent", joint.name),
                });
            }
            None => humanoid,
        };
        let mut node = node_at(Some(joint.name.clone()), joint_node_matrix(h, pose, j));
        node.extras = Some(json!({ "hanim": {
            "type": "HAnimJoint",
            "def": joint.def,
            "center": joint.rest.center.to_array(),
            "fields": fields_json(&joint.rest),
            "llimit": joint.llimit,
            "ulimit": joint.ulimit,
            "limitOrientation": axis_angle(joint.limit_orientation),
            "stiffness": joint.stiffness,
            "description": joint.description,
        }}));
        joints.push(w.add_child(Some(parent), node));
    }
    w.report.joints += joints.len();
    let mut sites = Vec::with_capacity(h.sites.len());
    for site in &h.sites {
        let joint = site_joint(h, site);
        let (parent, center) = match joint {
            Some(j) => (joints[j], h.joints[j].rest.center),
            None => (humanoid, Vec3::ZERO),
        };
        let local = Mat4::from_translation(-center) * site.offset * site.transform.matrix();
        let mut node = node_at(Some(site.name.clone()), local);
        node.extras = Some(json!({ "hanim": {
            "type": "HAnimSite",
            "def": site.def,
            "fields": fields_json(&site.transform),
            "inViewpoints": site.in_viewpoints,
            "joint": joint.map(|j| h.joints[j].name.clone()),
            "description": site.description,
        }}));
        sites.push(w.add_child(Some(parent), node));
    }
    w.report.sites += sites.len();
    Ok(HumanoidNodes { humanoid, joints, sites, skin_mesh: None, rigid_meshes: Vec::new(), rest: pose.clone() })
}

fn camera_node(w: &mut Writer, parent: Option<u32>, v: &Viewpoint, local: Mat4) -> u32 {
    let field_of_view = if v.field_of_view.is_finite() && v.field_of_view > 0.01 && v.field_of_view < 3.1 {
        v.field_of_view
    } else {
        std::f32::consts::FRAC_PI_4
    };
    let label = if !v.description.trim().is_empty() {
        v.description.trim().to_string()
    } else {
        v.def.clone().unwrap_or_else(|| format!("camera {}", w.root.cameras.len()))
    };
    w.root.cameras.push(Camera {
        name: Some(label.clone()),
        kind: "perspective".into(),
        perspective: Perspective { yfov: field_of_view, znear: w.doc.settings.near_clip_distance().max(1e-4) },
    });
    let camera = w.root.cameras.len() as u32 - 1;
    // A camera looks down its node's −Z with +Y up, as an X3D Viewpoint does; scale is dropped so the view
    // is not distorted (X3D 23.4.5).
    let (_, rotation, translation) =
        (local * Mat4::from_rotation_translation(v.orientation, v.position)).to_scale_rotation_translation();
    let mut node = node_at(Some(label), Mat4::from_rotation_translation(rotation.normalize(), translation));
    node.camera = Some(camera);
    node.extras = Some(json!({ "hanim": { "type": "Viewpoint", "def": v.def, "description": v.description } }));
    w.report.cameras += 1;
    w.add_child(parent, node)
}

/// The humanoid's viewpoints: site cameras (on their site nodes, so eye views follow the head), joint
/// Viewpoints (on their joint nodes) and those of the `viewpoints` field (on the humanoid node).
pub(super) fn write_cameras(w: &mut Writer, index: usize, nodes: &HumanoidNodes) {
    let h = &w.doc.humanoids[index];
    for (s, site) in h.sites.iter().enumerate() {
        for held in &site.cameras {
            camera_node(w, Some(nodes.sites[s]), &held.viewpoint, held.offset);
        }
    }
    for jv in &h.joint_viewpoints {
        let (parent, center) = match jv.joint {
            Some(j) => (nodes.joints[j], h.joints[j].rest.center),
            None => (nodes.humanoid, Vec3::ZERO),
        };
        camera_node(w, Some(parent), &jv.held.viewpoint, Mat4::from_translation(-center) * jv.held.offset);
    }
    for held in &h.viewpoints {
        camera_node(w, Some(nodes.humanoid), &held.viewpoint, held.offset);
    }
}

/// Viewpoints outside the humanoids, at their world placement.
pub(super) fn write_scene_cameras(w: &mut Writer) {
    let doc = w.doc;
    for (v, world) in &doc.viewpoints {
        camera_node(w, None, v, *world);
    }
}
