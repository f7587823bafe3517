//! Which nodes are joints, what they are called, and the frames that turn glTF node transforms into
//! H-Anim joint fields.
//!
//! Humanoid space is the frame of the node above the skeleton's root (`A`, the humanoid's own
//! transform). A joint's frame is `G_j = A⁻¹·W_n·T(−c_j)` (node `n`'s world matrix `W_n` at rest), so
//! its local fields are `L_j = T(c_parent)·local_n·T(−c_j)`: rotation and scale the node's, translation
//! `c_parent + t_n − c_j`. A skinned vertex then moves by `G_j·B_j` with `B_j = T(c_j)·IBM_j`, exactly
//! `A⁻¹·W_n·IBM_j` as glTF moves it.

use std::collections::{HashMap, HashSet};

use glam::{Mat4, Quat, Vec3};
use serde_json::Value;

use super::Source;
use super::vrm::Vrm;

/// One joint to write.
#[derive(Debug, Clone)]
pub(super) struct JointPlan {
    pub node: usize,
    pub name: String,
    pub parent: Option<usize>,
    pub center: Vec3,
    /// The joint's rest fields.
    pub translation: Vec3,
    pub rotation: Quat,
    pub scale: Vec3,
    /// H-Anim fields this program's export kept in the node's `extras`.
    pub hanim: Option<Value>,
}

#[derive(Debug)]
pub(super) struct Skeleton {
    pub joints: Vec<JointPlan>,
    pub joint_of_node: HashMap<usize, usize>,
    /// Per node: its parent node.
    pub parent: Vec<Option<usize>>,
    /// Per node: world matrix at rest.
    pub world: Vec<Mat4>,
    /// `A`: humanoid space → world.
    pub humanoid: Mat4,
    /// The node whose frame is humanoid space, if any.
    pub humanoid_node: Option<usize>,
    /// Joints of this program's export that hold the weight no joint has (dropped on reading).
    pub static_nodes: HashSet<usize>,
}

/// The `hanim` object of a node's extras, if this program wrote one.
pub(super) fn hanim_extras(node: &gltf::Node) -> Option<Value> {
    let raw = node.extras().as_ref()?;
    let value: Value = serde_json::from_str(raw.get()).ok()?;
    value.get("hanim").cloned()
}

fn extras_type(node: &gltf::Node) -> Option<String> {
    hanim_extras(node)?.get("type")?.as_str().map(String::from)
}

fn local_of(node: &gltf::Node) -> Mat4 {
    Mat4::from_cols_array_2d(&node.transform().matrix())
}

impl Skeleton {
    /// Node `n`'s rest matrix in humanoid space.
    pub fn humanoid_from_node(&self, n: usize) -> Mat4 {
        self.humanoid.inverse() * self.world[n]
    }

    /// `G_j` at rest: joint `j`'s frame in humanoid space.
    pub fn joint_frame(&self, j: usize) -> Mat4 {
        self.humanoid_from_node(self.joints[j].node) * Mat4::from_translation(-self.joints[j].center)
    }

    /// The joint a node moves with: itself or its nearest ancestor that is a joint.
    pub fn owner(&self, mut n: usize) -> Option<usize> {
        loop {
            if let Some(&j) = self.joint_of_node.get(&n) {
                return Some(j);
            }
            n = self.parent[n]?;
        }
    }

    /// Node `n`'s rest matrix in the frame of joint `owner` (or of the humanoid).
    pub fn in_joint_frame(&self, owner: Option<usize>, n: usize) -> Mat4 {
        match owner {
            Some(j) => self.joint_frame(j).inverse() * self.humanoid_from_node(n),
            None => self.humanoid_from_node(n),
        }
    }

    /// For an animated node's local `(t, r, s)` at some time, the joint's fields `(translation, rotation,
    /// scale)`.
    pub fn joint_fields(&self, j: usize, t: Vec3, r: Quat, s: Vec3) -> (Vec3, Quat, Vec3) {
        let joint = &self.joints[j];
        let local = Mat4::from_scale_rotation_translation(s, r, t);
        // A root joint's local matrix also carries the nodes between the humanoid's frame and its parent.
        let above = match joint.parent {
            Some(_) => Mat4::IDENTITY,
            None => match self.parent[joint.node] {
                Some(p) => self.humanoid_from_node(p),
                None => self.humanoid.inverse(),
            },
        };
        let parent_center = joint.parent.map_or(Vec3::ZERO, |p| self.joints[p].center);
        let (s, r, t) = (above * local).to_scale_rotation_translation();
        (parent_center + t - joint.center, r.normalize(), s)
    }
}

/// Chooses the joints of `source` and computes their rest fields.
pub(super) fn build(source: &Source, vrm: Option<&Vrm>) -> Skeleton {
    let doc = &source.gltf;
    let count = doc.nodes().count();
    let mut parent = vec![None; count];
    for node in doc.nodes() {
        for child in node.children() {
            parent[child.index()] = Some(node.index());
        }
    }
    let mut world = vec![Mat4::IDENTITY; count];
    let mut order = Vec::new();
    let mut stack: Vec<(usize, Mat4)> =
        (0..count).filter(|&n| parent[n].is_none()).rev().map(|n| (n, Mat4::IDENTITY)).collect();
    let nodes: Vec<gltf::Node> = doc.nodes().collect();
    while let Some((n, above)) = stack.pop() {
        world[n] = above * local_of(&nodes[n]);
        order.push(n);
        for child in nodes[n].children().collect::<Vec<_>>().into_iter().rev() {
            stack.push((child.index(), world[n]));
        }
    }
    let static_nodes: HashSet<usize> =
        nodes.iter().filter(|n| extras_type(n).as_deref() == Some("StaticJoint")).map(|n| n.index()).collect();
    // The skins' joints; without a skin, every node that holds others (a rigid, segmented figure).
    let mut wanted: HashSet<usize> =
        doc.skins().flat_map(|s| s.joints().map(|j| j.index()).collect::<Vec<_>>()).collect();
    // A VRM names its humanoid bones: each is a joint, skinned or not (eyes, toes, the bones of an
    // avatar of rigid meshes).
    if let Some(vrm) = vrm {
        wanted.extend(vrm.joints.keys().copied().filter(|&n| n < count));
    }
    wanted.retain(|n| !static_nodes.contains(n));
    if wanted.is_empty() {
        // This program's export marks its joints; other rigid figures: every node that holds others.
        wanted = nodes.iter().filter(|n| extras_type(n).as_deref() == Some("HAnimJoint")).map(|n| n.index()).collect();
    }
    if wanted.is_empty() {
        wanted = nodes.iter().filter(|n| n.children().next().is_some()).map(|n| n.index()).collect();
        wanted.retain(|&n| extras_type(&nodes[n]).as_deref() != Some("HAnimHumanoid"));
    }
    if wanted.is_empty() {
        wanted = (0..count).collect();
    }
    let path_of = |mut n: usize| {
        let mut path = vec![n];
        while let Some(p) = parent[n] {
            path.push(p);
            n = p;
        }
        path.reverse();
        path
    };
    let paths: Vec<Vec<usize>> = wanted.iter().map(|&n| path_of(n)).collect();
    // The deepest node every path goes through.
    let mut common = paths.first().cloned().unwrap_or_default();
    for path in &paths {
        let shared = common.iter().zip(path).take_while(|(a, b)| a == b).count();
        common.truncate(shared);
    }
    // The humanoid's frame: the common node when it is no joint itself (an armature, or this program's
    // humanoid node), else the root joint's parent.
    let humanoid_node = match common.last() {
        Some(&c) if !wanted.contains(&c) => Some(c),
        Some(&c) => parent[c],
        None => None,
    };
    let mut is_joint = vec![false; count];
    for path in &paths {
        let start = humanoid_node.and_then(|h| path.iter().position(|&n| n == h)).map_or(0, |i| i + 1);
        for &n in &path[start..] {
            is_joint[n] = !static_nodes.contains(&n);
        }
    }
    let mut humanoid = humanoid_node.map_or(Mat4::IDENTITY, |h| world[h]);
    if vrm.is_some_and(|v| v.version0) {
        // VRM 0.x avatars face −Z; H-Anim humanoids face +Z (19774 §4.6).
        humanoid = Mat4::from_rotation_y(std::f32::consts::PI) * humanoid;
        world.iter_mut().for_each(|w| *w = Mat4::from_rotation_y(std::f32::consts::PI) * *w);
    }
    let mut skeleton = Skeleton {
        joints: Vec::new(),
        joint_of_node: HashMap::new(),
        parent,
        world,
        humanoid,
        humanoid_node,
        static_nodes,
    };
    let mut taken = HashSet::new();
    for &n in order.iter().filter(|&&n| is_joint[n]) {
        let node = &nodes[n];
        let hanim = hanim_extras(node).filter(|h| h.get("type").and_then(Value::as_str) == Some("HAnimJoint"));
        let own = node.name().map(str::to_string).filter(|s| !s.trim().is_empty());
        let name = vrm
            .and_then(|v| v.joints.get(&n).cloned())
            .or_else(|| if hanim.is_some() { None } else { own.as_deref().and_then(super::bones::rig_joint) })
            .or(own)
            .unwrap_or_else(|| format!("joint_{n}"));
        let name = if taken.insert(name.clone()) { name } else { format!("{name}_{n}") };
        taken.insert(name.clone());
        let center = hanim
            .as_ref()
            .and_then(|h| h.get("center"))
            .and_then(|c| serde_json::from_value::<[f32; 3]>(c.clone()).ok())
            .map(Vec3::from)
            .unwrap_or_else(|| skeleton.humanoid_from_node(n).transform_point3(Vec3::ZERO));
        let joint_parent = skeleton.parent[n].and_then(|p| skeleton.joint_of_node.get(&p).copied());
        let index = skeleton.joints.len();
        skeleton.joints.push(JointPlan {
            node: n,
            name,
            parent: joint_parent,
            center,
            translation: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            scale: Vec3::ONE,
            hanim,
        });
        skeleton.joint_of_node.insert(n, index);
        let (s, r, t) = local_of(node).to_scale_rotation_translation();
        let (t, r, s) = skeleton.joint_fields(index, t, r, s);
        let joint = &mut skeleton.joints[index];
        (joint.translation, joint.rotation, joint.scale) = (t, r, s);
    }
    if skeleton.joints.is_empty() {
        source.warn("no node to make a joint of");
    }
    skeleton
}
