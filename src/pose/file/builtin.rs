//! The standard poses every humanoid gets in the library, defined by H-Anim joint names and rotations
//! alone so that they work at any LOA (joints a figure lacks are skipped, as for any pose).
//!
//! The rotations are effective joint rotations in H-Anim's default frame: the humanoid faces +Z, its
//! left is +X, and with every rotation at identity it stands with its arms at its sides (19774-1 §4.6.2,
//! the binding pose). A shoulder turned +90° about Z holds the left arm out along +X; a hip turned −90°
//! about X swings the thigh forward. A figure modelled in another rest pose (a T-pose skeleton) shows
//! these rotations on top of that.

use std::f32::consts::PI;

use glam::Quat;

use super::{FormatTag, FormatVersion, HumanoidPose, JointPose, PoseFile, VERSION};

/// The built-in poses: `builtin:NAME` in scripts, listed in this order in the library.
pub const BUILTIN_POSES: &[(&str, &str)] = &[
    ("t-pose", "T-pose"),
    ("a-pose", "A-pose"),
    ("relaxed", "Relaxed"),
    ("sitting", "Sitting"),
    ("walking-contact", "Walking contact"),
    ("waving", "Waving"),
];

fn deg(d: f32) -> f32 {
    d * PI / 180.0
}

fn x(d: f32) -> Quat {
    Quat::from_rotation_x(deg(d))
}

fn z(d: f32) -> Quat {
    Quat::from_rotation_z(deg(d))
}

/// The joint rotations of built-in pose `id`.
fn joints_of(id: &str) -> Option<Vec<(&'static str, Quat)>> {
    Some(match id {
        "t-pose" => vec![("l_shoulder", z(90.0)), ("r_shoulder", z(-90.0))],
        "a-pose" => vec![("l_shoulder", z(45.0)), ("r_shoulder", z(-45.0))],
        "relaxed" => vec![
            ("l_shoulder", z(6.0)),
            ("r_shoulder", z(-6.0)),
            ("l_elbow", x(-15.0)),
            ("r_elbow", x(-15.0)),
            ("l_knee", x(4.0)),
            ("r_knee", x(4.0)),
            ("skullbase", x(5.0)),
        ],
        "sitting" => vec![
            ("l_hip", x(-90.0)),
            ("r_hip", x(-90.0)),
            ("l_knee", x(90.0)),
            ("r_knee", x(90.0)),
            ("l_shoulder", x(-20.0)),
            ("r_shoulder", x(-20.0)),
            ("l_elbow", x(-45.0)),
            ("r_elbow", x(-45.0)),
        ],
        // The left heel strikes the ground ahead, the right leg trails; the arms swing against the legs.
        "walking-contact" => vec![
            ("l_hip", x(-25.0)),
            ("l_knee", x(5.0)),
            ("l_talocrural", x(10.0)),
            ("r_hip", x(15.0)),
            ("r_knee", x(15.0)),
            ("r_talocrural", x(-10.0)),
            ("l_shoulder", x(20.0)),
            ("r_shoulder", x(-20.0)),
            ("l_elbow", x(-10.0)),
            ("r_elbow", x(-30.0)),
        ],
        // The right arm out and up, the forearm upright.
        "waving" => {
            vec![("r_shoulder", z(-85.0)), ("r_elbow", z(-80.0)), ("l_shoulder", z(6.0)), ("skullbase", z(-8.0))]
        }
        _ => return None,
    })
}

/// Built-in pose `id` (see [`BUILTIN_POSES`]) as a pose file of one humanoid; the other joints go back
/// to their file values when it is applied.
pub fn builtin_pose(id: &str) -> Option<PoseFile> {
    let label = BUILTIN_POSES.iter().find(|(i, _)| *i == id)?.1;
    let joints = joints_of(id)?.into_iter().map(|(name, q)| JointPose::new(name, q)).collect();
    Some(PoseFile {
        format: FormatTag,
        version: FormatVersion(VERSION),
        name: Some(label.to_string()),
        file: None,
        humanoids: vec![HumanoidPose {
            name: "built-in".to_string(),
            loa: -1,
            root_translation: None,
            reset_other_joints: true,
            joints,
        }],
    })
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;
    use crate::names::standard::LOA1_JOINTS;

    #[test]
    fn every_builtin_exists_and_names_loa1_joints_only() {
        for (id, label) in BUILTIN_POSES {
            let pose = builtin_pose(id).unwrap();
            assert_eq!(pose.name.as_deref(), Some(*label));
            for j in &pose.humanoids[0].joints {
                assert!(LOA1_JOINTS.contains(&j.name.as_str()), "{id}: {} is not an LOA 1 joint", j.name);
            }
        }
        assert!(builtin_pose("moonwalk").is_none());
    }

    #[test]
    fn the_t_pose_holds_the_arms_out_sideways() {
        let pose = builtin_pose("t-pose").unwrap();
        let left = pose.humanoids[0].joints.iter().find(|j| j.name == "l_shoulder").unwrap().rotation();
        // The left arm hangs along −Y; the T-pose turns it to +X (the humanoid's left).
        assert!((left * Vec3::NEG_Y).abs_diff_eq(Vec3::X, 1e-6));
    }
}
