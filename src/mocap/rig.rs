//! One kinematic form for ASF/AMC and BVH: joints with rest positions in metres, and per frame a local
//! rotation `L_j` and translation offset per joint, all in the world-aligned rest frame that H-Anim
//! joints use too (docs/asf-amc.md §4, §5).
//!
//! # Forward kinematics (docs/asf-amc.md §4)
//! ```text
//! C_b    = Euler(axis_b, order_b)           the bone's axis frame at rest, in world space
//! M_b    = Euler(rx, ry, rz, order_b)       the AMC dof values (a dof that is not listed is 0)
//! L_b    = C_b · M_b · C_b⁻¹                 the bone's rotation in world-aligned terms
//! G_root = Euler(RX RY RZ, root axis) · Euler(orientation, root axis)
//! G_b    = G_parent · L_b
//! start_b = end_parent,  end_b = start_b + s · G_b · direction_b · length_b,  s = 0.0254 / units.length
//! root   = s · (TX TY TZ + position)
//! ```
//! A BVH joint is the same with `L_j` = its rotation channels multiplied in the listed order and its
//! rest offset = `OFFSET`; position channels give the joint's position relative to its parent (the root's
//! absolute position), replacing the matching OFFSET components.

use glam::{DQuat, DVec3};

use super::amc::Amc;
use super::asf::{Asf, Dof};
use super::bvh::{Bvh, BvhChannel};

/// CMU's capture rate (CMU FAQ/Info: 120 Hz); AMC files store none.
pub const CMU_FRAME_RATE: f64 = 120.0;

#[derive(Debug, Clone, PartialEq)]
pub struct RigJoint {
    /// The source name (ASF bone or BVH joint; `root` for the ASF root).
    pub name: String,
    pub parent: Option<usize>,
    /// Rest position in metres (world-aligned rest frame): where this joint's rotation acts.
    pub rest: DVec3,
    /// Rest end of the bone that starts here (ASF: start + s·direction·length; BVH: the End Site), for
    /// joints that end a chain; `None` when children carry on.
    pub tip: Option<DVec3>,
    /// Rest bone vector in metres (ASF: s·direction·length; BVH: towards the first child or End Site).
    pub bone: DVec3,
    /// Rotation limits in radians about x, y, z (lower, upper): the ASF `limits` of a bone whose axis frame
    /// is the world's (`axis 0 0 0`), the only case where they are limits about the H-Anim joint axes
    /// (docs/asf-amc.md §5). An axis without a dof gets (0, 0); `inf` becomes ±π.
    pub limits: Option<(DVec3, DVec3)>,
}

/// A skeleton in metres, parent before child.
#[derive(Debug, Clone, PartialEq)]
pub struct Rig {
    pub name: String,
    pub joints: Vec<RigJoint>,
    /// The file's length unit in metres.
    pub metres_per_unit: f64,
}

impl Rig {
    pub fn joint_index(&self, name: &str) -> Option<usize> {
        self.joints.iter().position(|j| j.name.eq_ignore_ascii_case(name))
    }

    /// Children of every joint, in joint order (first child first).
    pub fn children(&self) -> Vec<Vec<usize>> {
        let mut children = vec![Vec::new(); self.joints.len()];
        for (j, joint) in self.joints.iter().enumerate() {
            if let Some(p) = joint.parent {
                children[p].push(j);
            }
        }
        children
    }
}

/// A sampled motion for a [`Rig`]: per frame and joint a local rotation and translation offset.
#[derive(Debug, Clone, PartialEq)]
pub struct RigClip {
    pub joint_count: usize,
    /// Seconds per frame.
    pub frame_time: f64,
    /// `frames × joints` local rotations `L_j` (the root's is `G_root`).
    pub rotations: Vec<DQuat>,
    /// `frames × joints` translation offsets in metres, in the parent's world-aligned frame: the H-Anim
    /// joint translation (the root's is its position minus its rest position).
    pub translations: Vec<DVec3>,
}

impl RigClip {
    pub fn frame_count(&self) -> usize {
        self.rotations.len().checked_div(self.joint_count).unwrap_or(0)
    }

    pub fn rotation(&self, frame: usize, joint: usize) -> DQuat {
        self.rotations[frame * self.joint_count + joint]
    }

    pub fn translation(&self, frame: usize, joint: usize) -> DVec3 {
        self.translations[frame * self.joint_count + joint]
    }

    /// Global rotation of every joint at `frame` (`G_j = G_parent·L_j`).
    pub fn global_rotations(&self, rig: &Rig, frame: usize) -> Vec<DQuat> {
        let mut g: Vec<DQuat> = Vec::with_capacity(rig.joints.len());
        for (j, joint) in rig.joints.iter().enumerate() {
            let local = self.rotation(frame, j);
            let global = match joint.parent {
                Some(p) => (g[p] * local).normalize(),
                None => local,
            };
            g.push(global);
        }
        g
    }

    /// World positions in metres at `frame` (which must be below [`RigClip::frame_count`]): every joint, and
    /// the tip of each joint that ends a chain.
    pub fn positions(&self, rig: &Rig, frame: usize) -> FramePositions {
        let g = self.global_rotations(rig, frame);
        let mut joints: Vec<DVec3> = Vec::with_capacity(rig.joints.len());
        for (j, joint) in rig.joints.iter().enumerate() {
            let t = self.translation(frame, j);
            let p = match joint.parent {
                Some(p) => joints[p] + g[p] * (joint.rest - rig.joints[p].rest + t),
                None => joint.rest + t,
            };
            joints.push(p);
        }
        let tips = rig
            .joints
            .iter()
            .enumerate()
            .map(|(j, joint)| joint.tip.map(|tip| joints[j] + g[j] * (tip - joint.rest)))
            .collect();
        FramePositions { joints, tips }
    }
}

/// World positions of one frame.
#[derive(Debug, Clone, PartialEq)]
pub struct FramePositions {
    pub joints: Vec<DVec3>,
    /// One per joint: the tip position for joints that end a chain.
    pub tips: Vec<Option<DVec3>>,
}

/// The rig of an ASF: joint 0 is the root, then one joint per bone in hierarchy order, each at the
/// bone's start.
pub fn rig_from_asf(asf: &Asf) -> Rig {
    let s = asf.units.metres_per_unit();
    let mut joints = vec![RigJoint {
        name: "root".into(),
        parent: None,
        rest: asf.root.position * s,
        tip: None,
        bone: DVec3::ZERO,
        limits: None,
    }];
    let mut joint_of_bone = vec![0usize; asf.bones.len()];
    let mut has_children = vec![false; asf.bones.len()];
    for bone in &asf.bones {
        if let Some(p) = bone.parent {
            has_children[p] = true;
        }
    }
    for &b in &asf.order {
        let bone = &asf.bones[b];
        let parent = bone.parent.map_or(0, |p| joint_of_bone[p]);
        let parent_joint = &joints[parent];
        let start = parent_joint.rest + parent_joint.bone;
        let vector = bone.direction * bone.length * s;
        let has_children = has_children[b];
        joint_of_bone[b] = joints.len();
        joints.push(RigJoint {
            name: bone.name.clone(),
            parent: Some(parent),
            rest: start,
            tip: (!has_children).then_some(start + vector),
            bone: vector,
            limits: asf_limits(bone, asf.units.radians_per_unit()),
        });
    }
    Rig { name: asf.name.clone(), joints, metres_per_unit: s }
}

fn asf_limits(bone: &super::asf::Bone, radians_per_unit: f64) -> Option<(DVec3, DVec3)> {
    let rotational = bone.dofs.iter().any(|d| matches!(d, Dof::Rx | Dof::Ry | Dof::Rz));
    if bone.axis != DVec3::ZERO || !rotational || bone.limits.len() != bone.dofs.len() {
        return None;
    }
    let (mut lower, mut upper) = (DVec3::ZERO, DVec3::ZERO);
    for (dof, (min, max)) in bone.dofs.iter().zip(&bone.limits) {
        let axis = match dof {
            Dof::Rx => 0,
            Dof::Ry => 1,
            Dof::Rz => 2,
            _ => continue,
        };
        let clamp = |v: f64| (v * radians_per_unit).clamp(-std::f64::consts::PI, std::f64::consts::PI);
        lower[axis] = clamp(*min);
        upper[axis] = clamp(*max);
    }
    Some((lower, upper))
}

/// The clip of an AMC for its ASF (and the rig from [`rig_from_asf`]), at `frame_rate` frames per second.
pub fn clip_from_amc(asf: &Asf, amc: &Amc, frame_rate: f64) -> RigClip {
    let s = asf.units.metres_per_unit();
    let axis_scale = asf.units.radians_per_unit();
    let value_scale = if amc.degrees { std::f64::consts::PI / 180.0 } else { 1.0 };
    let joint_count = asf.bones.len() + 1;
    let frames = amc.frame_count();
    let mut rotations = Vec::with_capacity(frames * joint_count);
    let mut translations = Vec::with_capacity(frames * joint_count);
    // C and C⁻¹ per bone, in rig joint order (hierarchy order).
    let frames_c: Vec<(DQuat, DQuat)> = asf
        .order
        .iter()
        .map(|&b| {
            let bone = &asf.bones[b];
            let c = bone.axis_order.rotation(bone.axis * axis_scale);
            (c, c.inverse())
        })
        .collect();
    let orientation = asf.root.axis.rotation(asf.root.orientation * axis_scale);
    for f in 0..frames {
        let values = amc.frame(f);
        // Root.
        let mut rot = DVec3::ZERO;
        let mut trans = DVec3::ZERO;
        for (k, dof) in asf.root.order.iter().enumerate() {
            let v = values[k];
            match dof {
                Dof::Tx => trans.x = v,
                Dof::Ty => trans.y = v,
                Dof::Tz => trans.z = v,
                Dof::Rx => rot.x = v * value_scale,
                Dof::Ry => rot.y = v * value_scale,
                Dof::Rz => rot.z = v * value_scale,
                Dof::L => {}
            }
        }
        rotations.push(asf.root.axis.rotation(rot) * orientation);
        // position + T in file units; minus the rest position (s·position) leaves s·T.
        translations.push(trans * s);
        for (k, &b) in asf.order.iter().enumerate() {
            let bone = &asf.bones[b];
            let slot = amc.slot_of_bone[b];
            let mut rot = DVec3::ZERO;
            let mut trans = DVec3::ZERO;
            for (d, dof) in bone.dofs.iter().enumerate() {
                let v = values[slot + d];
                match dof {
                    Dof::Rx => rot.x = v * value_scale,
                    Dof::Ry => rot.y = v * value_scale,
                    Dof::Rz => rot.z = v * value_scale,
                    Dof::Tx => trans.x = v,
                    Dof::Ty => trans.y = v,
                    Dof::Tz => trans.z = v,
                    Dof::L => {}
                }
            }
            let (c, c_inv) = frames_c[k];
            rotations.push((c * bone.axis_order.rotation(rot) * c_inv).normalize());
            translations.push(c * trans * s);
        }
    }
    RigClip { joint_count, frame_time: 1.0 / frame_rate, rotations, translations }
}

/// Metres per unit of a BVH: BVH states no unit, so the candidate (metres, centimetres, millimetres,
/// inches, CMU units) that makes the rest skeleton closest to 1.7 m tall is taken.
pub fn guess_bvh_metres_per_unit(bvh: &Bvh) -> f64 {
    let rig = rig_from_bvh(bvh, 1.0);
    let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
    for j in &rig.joints {
        for p in std::iter::once(j.rest).chain(j.tip) {
            low = low.min(p.y);
            high = high.max(p.y);
        }
    }
    let height = high - low;
    if !(height.is_finite() && height > 0.0) {
        return 1.0;
    }
    let candidates = [1.0, 0.01, 0.001, 0.0254, 0.0254 / 0.45];
    candidates
        .into_iter()
        .min_by(|a, b| ((height * a / 1.7).ln().abs()).total_cmp(&(height * b / 1.7).ln().abs()))
        .unwrap_or(1.0)
}

/// The rig of a BVH, one joint per BVH joint, with lengths scaled by `metres_per_unit`.
pub fn rig_from_bvh(bvh: &Bvh, metres_per_unit: f64) -> Rig {
    let s = metres_per_unit;
    let mut joints: Vec<RigJoint> = Vec::with_capacity(bvh.joints.len());
    // First child with a non-zero offset, and whether any child exists, per joint.
    let mut first_child: Vec<Option<usize>> = vec![None; bvh.joints.len()];
    let mut has_children = vec![false; bvh.joints.len()];
    for (c, child) in bvh.joints.iter().enumerate() {
        if let Some(p) = child.parent {
            has_children[p] = true;
            if first_child[p].is_none() && child.offset.length() > 0.0 {
                first_child[p] = Some(c);
            }
        }
    }
    for (j, joint) in bvh.joints.iter().enumerate() {
        let rest = match joint.parent {
            Some(p) => joints[p].rest + joint.offset * s,
            None => joint.offset * s,
        };
        let end_site = joint.end_sites.first().map(|e| *e * s);
        let has_children = has_children[j];
        let bone = first_child[j].map(|c| bvh.joints[c].offset * s).or(end_site).unwrap_or(DVec3::ZERO);
        joints.push(RigJoint {
            name: joint.name.clone(),
            parent: joint.parent,
            rest,
            tip: if has_children { None } else { end_site.map(|e| rest + e) },
            bone,
            limits: None,
        });
    }
    Rig { name: bvh.joints.first().map(|j| j.name.clone()).unwrap_or_default(), joints, metres_per_unit: s }
}

/// The clip of a BVH for [`rig_from_bvh`] at the same scale; the frame time is the file's.
pub fn clip_from_bvh(bvh: &Bvh, metres_per_unit: f64) -> RigClip {
    let s = metres_per_unit;
    let frames = bvh.frame_count();
    let joint_count = bvh.joints.len();
    let mut rotations = Vec::with_capacity(frames * joint_count);
    let mut translations = Vec::with_capacity(frames * joint_count);
    for f in 0..frames {
        let row = bvh.frame(f);
        for joint in &bvh.joints {
            let mut rotation = DQuat::IDENTITY;
            let mut position = joint.offset;
            for (k, channel) in joint.channels.iter().enumerate() {
                let v = row[joint.first_channel + k];
                let (axis, is_rotation) = channel.axis();
                if is_rotation {
                    let angle = v.to_radians();
                    rotation *= match channel {
                        BvhChannel::Xrotation => DQuat::from_rotation_x(angle),
                        BvhChannel::Yrotation => DQuat::from_rotation_y(angle),
                        _ => DQuat::from_rotation_z(angle),
                    };
                } else {
                    position[axis] = v;
                }
            }
            rotations.push(rotation.normalize());
            translations.push((position - joint.offset) * s);
        }
    }
    RigClip { joint_count, frame_time: bvh.frame_time, rotations, translations }
}
