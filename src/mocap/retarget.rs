//! Retargeting a [`RigClip`] onto a loaded H-Anim humanoid (docs/asf-amc.md §5).
//!
//! The source's world-space rotation of each bone relative to its rest pose, `Gs_b`, is carried over,
//! not its local rotation; so bones that the humanoid lacks (LOA 1 has no vl3 or clavicles) still
//! reach their descendants, and joints the source lacks stay rigid with their parent.
//!
//! ```text
//! Q_j   = the rotation turning the humanoid's rest bone direction (centre j → centre of the joint mapped
//!         from the source bone's first mapped descendant) onto the source's (the same two joints);
//!         identity for the root; inherited from the nearest mapped ancestor where no direction exists
//! D_j   = Gs_b · Q_j   (j driven by b),   D_j = D_parent   (j not driven)
//! G_j   = D_j · Rrest_j                    Rrest = the humanoid's rest global rotation
//! r_j   = G_parent⁻¹ · G_j                 the joint rotation written to the motion
//! ```
//! So at the source's rest the humanoid takes the source's rest shape (CMU: arms sideways, legs 20° out),
//! and every limb keeps the humanoid's own lengths. The root moves as the source root scaled by
//! `k` = humanoid leg length / source leg length (hip → knee → ankle), relative to the first frame, then
//! shifted vertically so that the lowest the humanoid's ankles get over the clip is their rest height.

use glam::{DQuat, DVec3, Vec3};

use super::mapping::Mapping;
use super::rig::{Rig, RigClip};
use crate::hanim::Humanoid;
use crate::pose::{self, Pose};

/// A motion for a humanoid: per frame, a rotation for each listed joint and the root translation.
#[derive(Debug, Clone, PartialEq)]
pub struct Retargeted {
    /// Humanoid joint indices with channels; the root first.
    pub joints: Vec<usize>,
    /// `frames × joints.len()` joint rotations `r_j` (they replace the file rotation).
    pub rotations: Vec<DQuat>,
    /// Root translation per frame (humanoid space, metres of the humanoid's units).
    pub root_translation: Vec<DVec3>,
    pub frame_time: f64,
    /// Source joint name → humanoid joint names it drives.
    pub pairs: Vec<(String, Vec<String>)>,
    /// Leg-length ratio humanoid / source.
    pub scale: f64,
    pub notes: Vec<String>,
}

impl Retargeted {
    pub fn frame_count(&self) -> usize {
        self.root_translation.len()
    }

    /// The humanoid's pose at `frame`: the file's rest pose with the motion's joints replaced.
    pub fn pose(&self, h: &Humanoid, frame: usize) -> Pose {
        let mut pose = Pose::rest(h);
        let n = self.joints.len();
        for (k, &j) in self.joints.iter().enumerate() {
            pose.rotations[j] = self.rotations[frame * n + k].as_quat();
        }
        pose.translations[self.joints[0]] = self.root_translation[frame].as_vec3();
        pose
    }
}

/// Finds a humanoid joint by name, then DEF, then without case.
pub fn find_joint(h: &Humanoid, name: &str) -> Option<usize> {
    h.joints
        .iter()
        .position(|j| j.name == name)
        .or_else(|| h.joints.iter().position(|j| j.def.as_deref() == Some(name)))
        .or_else(|| h.joints.iter().position(|j| j.name.eq_ignore_ascii_case(name)))
}

fn is_descendant(h: &Humanoid, mut joint: usize, ancestor: usize) -> bool {
    while let Some(p) = h.joints[joint].parent {
        if p == ancestor {
            return true;
        }
        joint = p;
    }
    false
}

/// Rest globals of the humanoid: rotation (scale ignored) and centre position, humanoid space.
fn rest_globals(h: &Humanoid) -> (Vec<DQuat>, Vec<DVec3>) {
    let g = pose::humanoid_from_joint(h, &Pose::rest(h));
    let mut rotations: Vec<DQuat> = Vec::with_capacity(h.joints.len());
    for joint in &h.joints {
        let local = joint.rest.rotation.as_dquat();
        let parent = joint.parent.and_then(|p| rotations.get(p).copied()).unwrap_or(DQuat::IDENTITY);
        rotations.push((parent * local).normalize());
    }
    let centres = h.joints.iter().zip(&g).map(|(joint, m)| m.transform_point3(joint.rest.center).as_dvec3()).collect();
    (rotations, centres)
}

/// Why a capture cannot be retargeted onto a humanoid.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RetargetError {
    #[error("humanoid '{0}' has no joints to drive")]
    NoJoints(String),
}

/// Retargets `clip` (on `rig`) onto humanoid `h` with `mapping`.
pub fn retarget(rig: &Rig, clip: &RigClip, h: &Humanoid, mapping: &Mapping) -> Result<Retargeted, RetargetError> {
    let Some(root) = h.joints.iter().position(|j| j.parent.is_none()) else {
        return Err(RetargetError::NoJoints(h.name.clone()));
    };
    let mut notes = Vec::new();
    let (rest_rot, rest_pos) = rest_globals(h);
    let drive = Drive::new(rig, h, mapping, root, &rest_pos, &mut notes);
    let (ratios, ankles) = leg_ratios(rig, mapping, &drive.targets, &rest_pos);
    let scale = if ratios.is_empty() {
        notes.push("no hip, knee and ankle on both skeletons: the root translation is not scaled".into());
        1.0
    } else {
        ratios.iter().sum::<f64>() / ratios.len() as f64
    };
    let (joints, rotations, root_translation) = drive.solve(rig, clip, h, &rest_rot, rest_pos[root], scale);
    let pairs = rig
        .joints
        .iter()
        .enumerate()
        .filter(|(s, _)| !drive.targets[*s].is_empty())
        .map(|(s, j)| (j.name.clone(), drive.targets[s].iter().map(|&t| h.joints[t].name.clone()).collect()))
        .collect();
    let mut result =
        Retargeted { joints, rotations, root_translation, frame_time: clip.frame_time, pairs, scale, notes };
    let ankle_joints: Vec<usize> = ankles.iter().map(|(_, j)| *j).collect();
    level_on_ankles(&mut result, h, &ankle_joints, &rest_pos);
    Ok(result)
}

/// Which source joint drives which humanoid joints, and with what offset `Q`.
struct Drive {
    /// The humanoid's root joint (driven by the source root).
    root: usize,
    /// Source joint → the humanoid joints it drives.
    targets: Vec<Vec<usize>>,
    /// Humanoid joint → the source joint that drives it.
    driven_by: Vec<Option<usize>>,
    /// `Q` per source joint.
    q: Vec<Option<DQuat>>,
}

impl Drive {
    fn new(
        rig: &Rig,
        h: &Humanoid,
        mapping: &Mapping,
        root: usize,
        rest_pos: &[DVec3],
        notes: &mut Vec<String>,
    ) -> Drive {
        let (targets, driven_by) = pair_joints(rig, h, mapping, root, notes);
        let q = bone_offsets(rig, h, &targets, rest_pos);
        Drive { root, targets, driven_by, q }
    }

    /// Per frame, `r_j` of the root and every driven joint (the joints listed root first), and the root
    /// translation: the source root's motion scaled by `scale`, relative to the first frame.
    fn solve(
        &self,
        rig: &Rig,
        clip: &RigClip,
        h: &Humanoid,
        rest_rot: &[DQuat],
        rest_root: DVec3,
        scale: f64,
    ) -> (Vec<usize>, Vec<DQuat>, Vec<DVec3>) {
        let frames = clip.frame_count();
        let root_positions: Vec<DVec3> = (0..frames).map(|f| clip.positions(rig, f).joints[0]).collect();
        let root_centre = h.joints[self.root].rest.center.as_dvec3();
        let first = root_positions.first().copied().unwrap_or(DVec3::ZERO);

        let mut joints: Vec<usize> = vec![self.root];
        joints.extend((0..h.joints.len()).filter(|&j| j != self.root && self.driven_by[j].is_some()));
        let column: Vec<Option<usize>> = {
            let mut c = vec![None; h.joints.len()];
            for (k, &j) in joints.iter().enumerate() {
                c[j] = Some(k);
            }
            c
        };
        let mut rotations = Vec::with_capacity(frames * joints.len());
        let mut root_translation = Vec::with_capacity(frames);
        let mut d: Vec<DQuat> = vec![DQuat::IDENTITY; h.joints.len()];
        let mut row = vec![DQuat::IDENTITY; joints.len()];
        for (f, p) in root_positions.iter().enumerate() {
            let gs = clip.global_rotations(rig, f);
            for j in 0..h.joints.len() {
                let parent = h.joints[j].parent;
                d[j] = match self.driven_by[j] {
                    Some(s) => (gs[s] * self.q[s].unwrap_or(DQuat::IDENTITY)).normalize(),
                    None => parent.map_or(DQuat::IDENTITY, |p| d[p]),
                };
                if let Some(k) = column[j] {
                    let global = d[j] * rest_rot[j];
                    let parent_global = parent.map_or(DQuat::IDENTITY, |p| d[p] * rest_rot[p]);
                    row[k] = (parent_global.inverse() * global).normalize();
                }
            }
            rotations.extend_from_slice(&row);
            // Provisional height: relative to the first frame; the ankles fix the level below.
            let world = rest_root + scale * (*p - first);
            // The root's centre lands at translation + centre (its parent is the humanoid).
            root_translation.push(world - root_centre);
        }
        (joints, rotations, root_translation)
    }
}

/// The humanoid joints each source joint drives (source root → humanoid root; others as the mapping
/// lists them, or by their own name), each humanoid joint driven at most once. What is left out is noted.
fn pair_joints(
    rig: &Rig,
    h: &Humanoid,
    mapping: &Mapping,
    root: usize,
    notes: &mut Vec<String>,
) -> (Vec<Vec<usize>>, Vec<Option<usize>>) {
    let mut targets: Vec<Vec<usize>> = vec![Vec::new(); rig.joints.len()];
    let mut driven_by: Vec<Option<usize>> = vec![None; h.joints.len()];
    for (s, joint) in rig.joints.iter().enumerate() {
        let wanted: Vec<usize> = match (joint.parent, mapping.targets_of(&joint.name)) {
            (None, _) => vec![root],
            // Listed without targets: deliberately drives nothing.
            (Some(_), Some([])) => Vec::new(),
            (Some(_), listed) => {
                let found: Vec<usize> = listed.unwrap_or(&[]).iter().filter_map(|n| find_joint(h, n)).collect();
                // A humanoid named like the source (e.g. a BVH export) is driven joint by joint.
                if found.is_empty() { find_joint(h, &joint.name).into_iter().collect() } else { found }
            }
        };
        for j in wanted {
            if let Some(other) = driven_by[j] {
                notes.push(format!(
                    "{} is already driven by {}; {} ignored for it",
                    h.joints[j].name, rig.joints[other].name, joint.name
                ));
                continue;
            }
            driven_by[j] = Some(s);
            targets[s].push(j);
        }
    }
    let unmapped: Vec<&str> = rig
        .joints
        .iter()
        .enumerate()
        .filter(|(s, j)| targets[*s].is_empty() && mapping.targets_of(&j.name).is_none())
        .map(|(_, j)| j.name.as_str())
        .collect();
    if !unmapped.is_empty() {
        notes.push(format!(
            "source joints not in the mapping (they still move their descendants): {}",
            unmapped.join(", ")
        ));
    }
    (targets, driven_by)
}

/// `Q` per source joint with targets, from the first mapped descendant along first children; the
/// others take the nearest source ancestor's (rig order is parent first).
fn bone_offsets(rig: &Rig, h: &Humanoid, targets: &[Vec<usize>], rest_pos: &[DVec3]) -> Vec<Option<DQuat>> {
    let mut q: Vec<Option<DQuat>> = vec![None; rig.joints.len()];
    let children = rig.children();
    for s in 0..rig.joints.len() {
        if targets[s].is_empty() {
            continue;
        }
        if rig.joints[s].parent.is_none() {
            q[s] = Some(DQuat::IDENTITY);
            continue;
        }
        let j = targets[s][0];
        let mut next = children[s].first().copied();
        let mut found = None;
        while let Some(c) = next {
            let below: Vec<usize> = targets[c].iter().copied().filter(|&t| is_descendant(h, t, j)).collect();
            if !below.is_empty() {
                found = Some((c, below));
                break;
            }
            next = children[c].first().copied();
        }
        if let Some((c, below)) = found {
            let d_s = rig.joints[c].rest - rig.joints[s].rest;
            let centre = below.iter().map(|&t| rest_pos[t]).sum::<DVec3>() / below.len() as f64;
            let d_t = centre - rest_pos[j];
            if d_s.length() > 1e-4 && d_t.length() > 1e-4 {
                q[s] = Some(DQuat::from_rotation_arc(d_t.normalize(), d_s.normalize()));
            }
        }
    }
    for s in 0..rig.joints.len() {
        if q[s].is_none() {
            q[s] = Some(rig.joints[s].parent.and_then(|p| q[p]).unwrap_or(DQuat::IDENTITY));
        }
    }
    q
}

/// Root translation scale and vertical calibration, from the source joints the mapping sends to the
/// hips, knees and ankles and the humanoid joints they drive (whatever those are named): the leg-length
/// ratio humanoid / source per side, and the (source, humanoid) ankle joints.
fn leg_ratios(
    rig: &Rig,
    mapping: &Mapping,
    targets: &[Vec<usize>],
    rest_pos: &[DVec3],
) -> (Vec<f64>, Vec<(usize, usize)>) {
    let source_for = |hanim_names: &[String]| -> Option<usize> {
        (0..rig.joints.len()).find(|&s| {
            !targets[s].is_empty()
                && mapping.targets_of(&rig.joints[s].name).is_some_and(|t| t.iter().any(|n| hanim_names.contains(n)))
        })
    };
    let leg_length = |points: [DVec3; 3]| (points[1] - points[0]).length() + (points[2] - points[1]).length();
    let mut ratios = Vec::new();
    let mut ankles: Vec<(usize, usize)> = Vec::new();
    for side in ["l", "r"] {
        let chain = [
            vec![format!("{side}_hip")],
            vec![format!("{side}_knee")],
            vec![format!("{side}_talocrural"), format!("{side}_ankle")],
        ];
        let sources: Option<Vec<usize>> = chain.iter().map(|names| source_for(names)).collect();
        let Some(sources) = sources else { continue };
        let source_points = [0, 1, 2].map(|k| rig.joints[sources[k]].rest);
        let target_points = [0, 1, 2].map(|k| rest_pos[targets[sources[k]][0]]);
        let (s, t) = (leg_length(source_points), leg_length(target_points));
        if s > 1e-6 && t > 1e-9 {
            ratios.push(t / s);
        }
        ankles.push((sources[2], targets[sources[2]][0]));
    }
    (ratios, ankles)
}

/// Vertical level: the lowest the humanoid's ankles get over the clip is their rest height, so the
/// supporting foot stands where the humanoid's own feet stand (the source's floor may sit a few cm off
/// y = 0, and the root-to-hip offsets of the two skeletons differ).
fn level_on_ankles(result: &mut Retargeted, h: &Humanoid, ankle_joints: &[usize], rest_pos: &[DVec3]) {
    if ankle_joints.is_empty() {
        result.notes.push("no ankles mapped: the root height follows the source relative to its first frame".into());
        return;
    }
    let rest_ankle = ankle_joints.iter().map(|&j| rest_pos[j].y).sum::<f64>() / ankle_joints.len() as f64;
    let mut lowest = f64::INFINITY;
    for f in 0..result.frame_count() {
        let g = pose::humanoid_from_joint(h, &result.pose(h, f));
        for &j in ankle_joints {
            lowest = lowest.min(f64::from(g[j].transform_point3(h.joints[j].rest.center).y));
        }
    }
    if lowest.is_finite() {
        for t in &mut result.root_translation {
            t.y += rest_ankle - lowest;
        }
    }
}

/// World position of joint centres at `pose` (for checks): `H·G_j·c_j`.
pub fn joint_world_positions(h: &Humanoid, pose: &Pose) -> Vec<Vec3> {
    let world = pose::world_from_joint(h, pose, &pose::humanoid_from_joint(h, pose));
    h.joints.iter().zip(world).map(|(j, m)| m.transform_point3(j.rest.center)).collect()
}
