//! Applying a pose to a humanoid, by H-Anim joint name: HAnim 2.0 names and their 1.x aliases match
//! (`l_ankle` drives `l_talocrural`), humanoid-name prefixes are ignored (`hanim_l_knee`, `Jin_l_knee`),
//! joints the humanoid lacks are listed, and rotations are kept within the joints' limits unless asked
//! not to.
//!
//! A pose sets effective rotations (`r_eff`). It is written into the user offsets (`Δ = r_base⁻¹·r_eff`,
//! §1.4), so that a clip driving `r_base` meanwhile keeps playing underneath, as the window's edits do.

use glam::{Quat, Vec3};

use super::{HumanoidPose, PoseFile, root_joint};
use crate::hanim::{Document, Humanoid};
use crate::names::{hanim_alias, standard::HANIM1_ALIASES, without_prefix};
use crate::pose::Pose;
use crate::pose::limits::{
    clamp_angles, limit_angles_from_rotation, limit_intervals, offset_for_target, rotation_from_limit_angles,
};

/// What applying a pose to one humanoid did.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct AppliedPose {
    pub humanoid: String,
    /// The humanoid's joints the pose set, by their names in the humanoid.
    pub driven: Vec<String>,
    /// The pose's joints the humanoid lacks, by their names in the pose.
    pub missing: Vec<String>,
    /// Driven joints whose rotation was brought within their limits.
    pub clamped: Vec<String>,
}

impl AppliedPose {
    /// One line: how many joints `source` set on the humanoid, which of its joints it lacks, which were
    /// held at their limits.
    pub fn summary(&self, source: &str) -> String {
        let mut line = format!("{source} on '{}': {} joint(s) set", self.humanoid, self.driven.len());
        if !self.missing.is_empty() {
            // The first dozen names: a LOA 4 pose on a LOA 1 figure lacks over a hundred.
            let shown: Vec<&str> = self.missing.iter().take(12).map(String::as_str).collect();
            let more = self.missing.len() - shown.len();
            let more = if more > 0 { format!(" and {more} more") } else { String::new() };
            let _ = std::fmt::Write::write_fmt(
                &mut line,
                format_args!("; {} not in this humanoid: {}{more}", self.missing.len(), shown.join(", ")),
            );
        }
        if !self.clamped.is_empty() {
            let _ = std::fmt::Write::write_fmt(
                &mut line,
                format_args!("; held at their limits: {}", self.clamped.join(", ")),
            );
        }
        line
    }
}

/// `name` as the H-Anim 2.0 standard spells it: without the humanoid's prefix, a 1.x name replaced by
/// its 2.0 one. Two joints with the same canonical name are the same joint of the standard.
pub fn canonical_joint_name(name: &str, humanoid_name: &str) -> String {
    let bare = without_prefix(name.trim(), humanoid_name);
    match HANIM1_ALIASES.iter().find(|(old, _)| *old == bare) {
        Some((_, new)) => (*new).to_string(),
        None => bare.to_string(),
    }
}

/// The humanoid pose of `file` meant for humanoid `index` of a document, named `name`: the only one
/// when the file has one, else the one of that name, else the one at that place.
pub fn pose_for_humanoid<'a>(file: &'a PoseFile, index: usize, name: &str) -> Option<&'a HumanoidPose> {
    match file.humanoids.as_slice() {
        [only] => Some(only),
        all => all.iter().find(|h| h.name == name).or_else(|| all.get(index)),
    }
}

/// Applies `file` to every humanoid of `doc` it has a pose for (see [`pose_for_humanoid`]).
pub fn apply_to_document(
    doc: &Document,
    file: &PoseFile,
    poses: &mut [Pose],
    respect_limits: bool,
) -> Vec<AppliedPose> {
    doc.humanoids
        .iter()
        .zip(poses.iter_mut())
        .enumerate()
        .filter_map(|(index, (h, pose))| {
            pose_for_humanoid(file, index, &h.name).map(|hp| apply_to_humanoid(h, hp, pose, respect_limits))
        })
        .collect()
}

/// Sets `pose`'s offsets so that every joint `source` names takes its rotation (within its limits when
/// `respect_limits`), the root joint its translation; with `reset_other_joints` the other joints first
/// lose their offsets.
pub fn apply_to_humanoid(h: &Humanoid, source: &HumanoidPose, pose: &mut Pose, respect_limits: bool) -> AppliedPose {
    let mut report = AppliedPose { humanoid: h.name.clone(), ..AppliedPose::default() };
    let joints = h.joints.len();
    pose.rotation_offsets.resize(joints, Quat::IDENTITY);
    pose.translation_offsets.resize(joints, Vec3::ZERO);
    if source.reset_other_joints {
        pose.rotation_offsets.iter_mut().for_each(|q| *q = Quat::IDENTITY);
        pose.translation_offsets.iter_mut().for_each(|t| *t = Vec3::ZERO);
    }
    let canonical: Vec<String> = h.joints.iter().map(|j| canonical_joint_name(&j.name, &h.name)).collect();
    for joint_pose in &source.joints {
        let wanted = canonical_joint_name(&joint_pose.name, &source.name);
        // A DEF may carry the standard name where `name` does not (older files).
        let found = canonical.iter().position(|c| *c == wanted).or_else(|| {
            h.joints.iter().position(|j| {
                j.def.as_deref().is_some_and(|d| {
                    let d = canonical_joint_name(d, &h.name);
                    d == wanted || hanim_alias(&d) == Some(wanted.as_str())
                })
            })
        });
        let Some(j) = found else {
            report.missing.push(joint_pose.name.clone());
            continue;
        };
        let joint = &h.joints[j];
        let mut target = joint_pose.rotation();
        if respect_limits {
            let (clamped, changed) = within_limits(target, joint.limit_orientation, &joint.llimit, &joint.ulimit);
            if changed {
                report.clamped.push(joint.name.clone());
                target = clamped;
            }
        }
        let base = pose.rotations.get(j).copied().unwrap_or(joint.rest.rotation);
        pose.rotation_offsets[j] = offset_for_target(base, target);
        report.driven.push(joint.name.clone());
    }
    if let (Some(t), Some(root)) = (source.root_translation, root_joint(h)) {
        let base = pose.translations.get(root).copied().unwrap_or(h.joints[root].rest.translation);
        pose.translation_offsets[root] = Vec3::from(t) - base;
    }
    report
}

/// `rotation` kept within the joint's limits (§8); `changed` is false, and the rotation returned exactly
/// as given, when every limited angle is already inside its interval — so a pose that respects the
/// limits goes through unaltered by the decomposition's rounding.
fn within_limits(rotation: Quat, limit_orientation: Quat, llimit: &[f32], ulimit: &[f32]) -> (Quat, bool) {
    let intervals = limit_intervals(llimit, ulimit);
    if intervals.iter().all(Option::is_none) {
        return (rotation, false);
    }
    let angles = limit_angles_from_rotation(rotation, limit_orientation);
    let clamped = clamp_angles(angles, &intervals);
    // A hair inside the interval counts as inside: the decomposition of a clamped rotation comes back
    // within rounding of the bound.
    if angles.iter().zip(&clamped).all(|(a, c)| (a - c).abs() <= 1e-5) {
        return (rotation, false);
    }
    (rotation_from_limit_angles(clamped, limit_orientation), true)
}

#[cfg(test)]
mod tests {
    use super::super::JointPose;
    use super::*;
    use crate::pose::test_humanoid::HumanoidBuilder;

    fn source(joints: Vec<JointPose>) -> HumanoidPose {
        HumanoidPose { name: "Jin".into(), loa: 4, root_translation: None, reset_other_joints: true, joints }
    }

    #[test]
    fn names_match_across_prefixes_and_hanim1_aliases() {
        assert_eq!(canonical_joint_name("hanim_l_ankle", "Joe"), "l_talocrural");
        assert_eq!(canonical_joint_name("Joe_HumanoidRoot", "Joe"), "humanoid_root");
        assert_eq!(canonical_joint_name("l_knee", "Joe"), "l_knee");
        let mut h = HumanoidBuilder::new()
            .joint("Joe_HumanoidRoot", None, Vec3::ZERO)
            .joint("Joe_l_ankle", Some(0), Vec3::Y)
            .joint("Joe_l_knee", Some(0), Vec3::Y)
            .build();
        h.name = "Joe".into();
        let mut pose = Pose::rest(&h);
        let q = Quat::from_rotation_x(0.4);
        let p = source(vec![
            JointPose::new("l_talocrural", q),
            JointPose::new("Jin_l_knee", q),
            JointPose::new("l_eyeball", q),
        ]);
        let report = apply_to_humanoid(&h, &p, &mut pose, true);
        assert_eq!(report.driven, ["Joe_l_ankle", "Joe_l_knee"]);
        assert_eq!(report.missing, ["l_eyeball"]);
        assert!(pose.effective_rotation(&h, 1).abs_diff_eq(q, 1e-6));
        assert_eq!(pose.effective_rotation(&h, 0), Quat::IDENTITY);
    }

    #[test]
    fn limits_clamp_unless_off_and_other_joints_reset() {
        let mut h =
            HumanoidBuilder::new().joint("humanoid_root", None, Vec3::ZERO).joint("l_knee", Some(0), Vec3::Y).build();
        h.joints[1].llimit = vec![-1.0, 0.0, 0.0];
        h.joints[1].ulimit = vec![0.0, 0.0, 0.0];
        h.joints[1].rest.rotation = Quat::from_rotation_y(0.2);
        let mut pose = Pose::rest(&h);
        pose.rotation_offsets[0] = Quat::from_rotation_z(0.3);
        let within = Quat::from_rotation_x(-0.5);
        let report = apply_to_humanoid(&h, &source(vec![JointPose::new("l_knee", within)]), &mut pose, true);
        assert!(report.clamped.is_empty());
        assert!(pose.effective_rotation(&h, 1).abs_diff_eq(within, 1e-6));
        assert_eq!(pose.rotation_offsets[0], Quat::IDENTITY, "reset_other_joints");
        let beyond = Quat::from_rotation_x(-1.5);
        let report = apply_to_humanoid(&h, &source(vec![JointPose::new("l_knee", beyond)]), &mut pose, true);
        assert_eq!(report.clamped, ["l_knee"]);
        assert!(pose.effective_rotation(&h, 1).abs_diff_eq(Quat::from_rotation_x(-1.0), 1e-5));
        apply_to_humanoid(&h, &source(vec![JointPose::new("l_knee", beyond)]), &mut pose, false);
        assert!(pose.effective_rotation(&h, 1).abs_diff_eq(beyond, 1e-6));
    }

    #[test]
    fn the_root_translation_goes_to_the_root_joint() {
        let h = HumanoidBuilder::new().joint("humanoid_root", None, Vec3::ZERO).build();
        let mut pose = Pose::rest(&h);
        pose.translations[0] = Vec3::new(0.0, 1.0, 0.0);
        let mut p = source(Vec::new());
        p.root_translation = Some([0.5, 0.25, 0.0]);
        apply_to_humanoid(&h, &p, &mut pose, true);
        assert_eq!(pose.effective_translation(&h, 0), Vec3::new(0.5, 0.25, 0.0));
    }
}
