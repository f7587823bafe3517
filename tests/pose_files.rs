//! Pose files and HAnimPose nodes on real humanoids: a pose reached by IK or sampled from a clip goes
//! through a file and comes back to the same rotations; a pose saved on JinLOA4 drives exactly the
//! joints JinLOA1 and JohnJoint20 share with it and lists the rest; a file's own HAnimPoses are read,
//! and a pose written as an HAnimPose and read back is the same pose.

mod common;

use std::collections::HashSet;
use std::path::Path;

use glam::{Quat, Vec3};
use hanim_viewer::animation::{Animations, SampleOptions};
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::pose::file::{
    HumanoidPose, JointPose, PoseFile, apply_to_document, apply_to_humanoid, canonical_joint_name, from_hanim_pose,
    hanim_pose_xml,
};
use hanim_viewer::pose::ik::{IkOptions, Reach, ReachRequest, reach_named};
use hanim_viewer::pose::{Pose, humanoid_from_joint};

fn load(relative: &str) -> Document {
    hanim::load(&common::corpus(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

/// Writes `poses` of `doc` to a pose file, reads it back and applies it to fresh rest poses.
fn through_a_file(doc: &Document, poses: &[Pose], dir: &Path) -> Vec<Pose> {
    let path = dir.join("pose.json");
    PoseFile::from_poses(doc, poses, Some("test".into()), None).write(&path).unwrap();
    let file = PoseFile::read(&path).unwrap();
    let mut loaded: Vec<Pose> = doc.humanoids.iter().map(Pose::rest).collect();
    let applied = apply_to_document(doc, &file, &mut loaded, true);
    for a in &applied {
        assert!(a.missing.is_empty() && a.clamped.is_empty(), "{a:?}");
    }
    loaded
}

/// Every joint's effective rotation and the root translation agree within 1e-6.
fn assert_same_pose(doc: &Document, want: &[Pose], got: &[Pose], what: &str) {
    for ((h, want), got) in doc.humanoids.iter().zip(want).zip(got) {
        for j in 0..h.joints.len() {
            let (a, b) = (want.effective_rotation(h, j), got.effective_rotation(h, j));
            // q and −q are the same rotation.
            let apart = (a - b).length().min((a + b).length());
            assert!(apart < 1e-6, "{what}: {} of '{}': {a} vs {b} ({apart:e})", h.joints[j].name, h.name);
        }
        let (a, b) = (want.effective_translation(h, 0), got.effective_translation(h, 0));
        assert!(a.abs_diff_eq(b, 1e-6), "{what}: root translation {a} vs {b}");
    }
}

#[test]
fn an_ik_pose_and_clip_frames_come_back_from_a_file_within_1e_6() {
    let dir = tempfile::tempdir().unwrap();
    // JinLOA4: the left wrist reaching up and forward by IK, chain to the root.
    let doc = load("x3d/JinLOA4.x3d");
    let h = &doc.humanoids[0];
    let mut poses: Vec<Pose> = doc.humanoids.iter().map(Pose::rest).collect();
    let wrist = h.joint_index("l_radiocarpal").unwrap();
    let at = humanoid_from_joint(h, &poses[0])[wrist].transform_point3(h.joints[wrist].rest.center);
    let request = ReachRequest {
        reaches: vec![Reach {
            effector: "l_radiocarpal".into(),
            target: at + Vec3::new(0.1, 0.3, 0.15),
            orientation: None,
        }],
        pins: Vec::new(),
        to_root: true,
        options: IkOptions::default(),
    };
    reach_named(&doc, &mut poses, &request).unwrap();
    let turned = (0..h.joints.len()).filter(|&j| poses[0].effective_rotation(h, j) != Quat::IDENTITY).count();
    assert!(turned >= 5, "the reach turned {turned} joints");
    assert_same_pose(&doc, &poses, &through_a_file(&doc, &poses, dir.path()), "JinLOA4 reach");

    // Clip frames: an interpolator clip (JoeKick) and an HAnimMotion (KoreanCharacterMotionAnnexD01Jin).
    for (file, clip, time) in
        [("x3d/JoeKick.x3d", "KickTimer", 1.3), ("x3d/KoreanCharacterMotionAnnexD01Jin.x3d", "motion_animation", 7.25)]
    {
        let doc = load(file);
        let mut animations = Animations::from_document(&doc);
        let index = animations.find(clip).unwrap_or_else(|| panic!("{file}: clip {clip}"));
        animations.solo(index);
        let poses = animations.sample(&doc, time, &SampleOptions::default());
        let h = &doc.humanoids[0];
        let rest = Pose::rest(h);
        let moved = (0..h.joints.len())
            .filter(|&j| poses[0].effective_rotation(h, j).angle_between(rest.effective_rotation(h, j)) > 0.01)
            .count();
        assert!(moved >= 5, "{file}: the clip moved {moved} joints at {time} s");
        assert_same_pose(&doc, &poses, &through_a_file(&doc, &poses, dir.path()), file);
    }
}

#[test]
fn a_pose_saved_on_jin_loa4_drives_exactly_the_joints_loa1_and_john_share() {
    let dir = tempfile::tempdir().unwrap();
    let source = load("x3d/JinLOA4.x3d");
    let sh = &source.humanoids[0];
    // Every joint of JinLOA4 turned by its own small rotation, so that a wrong match shows.
    let mut pose = Pose::rest(sh);
    for (j, offset) in pose.rotation_offsets.iter_mut().enumerate() {
        let axis = Vec3::new(1.0, (j % 3) as f32, (j % 5) as f32 - 2.0).normalize();
        *offset = Quat::from_axis_angle(axis, 0.01 * (j + 1) as f32);
    }
    let path = dir.path().join("jin4.json");
    PoseFile::from_poses(&source, std::slice::from_ref(&pose), None, None).write(&path).unwrap();
    let file = PoseFile::read(&path).unwrap();
    let by_name: std::collections::HashMap<String, Quat> = sh
        .joints
        .iter()
        .enumerate()
        .map(|(j, joint)| (canonical_joint_name(&joint.name, &sh.name), pose.effective_rotation(sh, j)))
        .collect();

    for target in ["x3d/JinLOA1.x3d", "x3d/JohnJoint20.x3d"] {
        let doc = load(target);
        let h = &doc.humanoids[0];
        let mut poses = vec![Pose::rest(h)];
        let applied = apply_to_document(&doc, &file, &mut poses, true);
        assert_eq!(applied.len(), 1);
        let applied = &applied[0];
        let names: HashSet<String> = h.joints.iter().map(|j| canonical_joint_name(&j.name, &h.name)).collect();
        let shared = names.iter().filter(|n| by_name.contains_key(*n)).count();
        assert!(shared >= 18, "{target} shares {shared} joints");
        assert_eq!(applied.driven.len(), shared, "{target}: driven");
        let lacking: HashSet<&String> = by_name.keys().filter(|n| !names.contains(*n)).collect();
        let missing: HashSet<&String> = applied.missing.iter().collect();
        assert_eq!(missing, lacking, "{target}: the joints it lacks are listed");
        for (j, joint) in h.joints.iter().enumerate() {
            let got = poses[0].effective_rotation(h, j);
            match by_name.get(&canonical_joint_name(&joint.name, &h.name)) {
                Some(want) => assert!(got.abs_diff_eq(*want, 1e-6), "{target}: {} {got} vs {want}", joint.name),
                None => assert_eq!(got, joint.rest.rotation, "{target}: {} is not in the pose", joint.name),
            }
        }
        eprintln!("{target}: {}", applied.summary("jin4.json"));
    }
}

#[test]
fn a_files_hanim_poses_are_read_in_both_spellings() {
    let doc = hanim::load(&common::test_data("hanim_pose.x3d")).unwrap();
    let h = &doc.humanoids[0];
    assert_eq!(h.joints.len(), 3, "the pose joints are not taken for skeleton joints");
    let names: Vec<&str> = h.poses.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["arm_out", "elbow_only"]);
    let arm_out = &h.poses[0];
    assert_eq!((arm_out.loa, arm_out.transition_duration, arm_out.reset_other_joints), (1, 0.5, true));
    assert_eq!(arm_out.joints.len(), 3);
    assert!(arm_out.joints[1].rotation.abs_diff_eq(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2), 1e-6));
    assert_eq!(arm_out.joints[0].translation, Some(Vec3::new(0.0, 0.1, 0.0)));
    assert_eq!(arm_out.joints[1].translation, None);
    let elbow_only = &h.poses[1];
    assert!(!elbow_only.reset_other_joints);
    assert_eq!(elbow_only.joints.len(), 1);

    // Applied: arm_out sets all three joints and raises the root; elbow_only then keeps the shoulder.
    let mut pose = Pose::rest(h);
    apply_to_humanoid(h, &from_hanim_pose(h, arm_out), &mut pose, true);
    let out = pose.effective_rotation(h, 1);
    assert!(out.abs_diff_eq(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2), 1e-6));
    assert_eq!(pose.effective_translation(h, 0), Vec3::new(0.0, 0.1, 0.0));
    apply_to_humanoid(h, &from_hanim_pose(h, elbow_only), &mut pose, true);
    assert_eq!(pose.effective_rotation(h, 1), out, "resetOtherJoints FALSE keeps the shoulder");
    assert!(pose.effective_rotation(h, 2).abs_diff_eq(Quat::from_rotation_y(std::f32::consts::FRAC_PI_6), 1e-6));
}

#[test]
fn a_pose_written_as_an_hanim_pose_reads_back_equal() {
    let path = common::test_data("hanim_pose.x3d");
    let text = std::fs::read_to_string(&path).unwrap();
    let written = HumanoidPose {
        name: "PoseArm".into(),
        loa: 1,
        root_translation: Some([0.0, -0.05, 0.02]),
        reset_other_joints: true,
        joints: vec![
            JointPose::new("humanoid_root", Quat::from_rotation_y(0.3)),
            JointPose::new("l_shoulder", Quat::from_axis_angle(Vec3::new(0.3, -0.2, 0.9).normalize(), 1.1)),
            JointPose::new("l_elbow", Quat::from_rotation_x(-0.7)),
        ],
    };
    let element = hanim_pose_xml(&written, "written & read", "      ");
    let with_pose = text.replacen("    </HAnimHumanoid>", &format!("{element}    </HAnimHumanoid>"), 1);
    assert_ne!(with_pose, text);
    let doc = hanim::load_str(&with_pose, &path).unwrap();
    let h = &doc.humanoids[0];
    assert!(h.warnings.is_empty(), "{:?}", h.warnings);
    let node = h.poses.iter().find(|p| p.name == "written & read").expect("the written pose is read");
    let read = from_hanim_pose(h, node);
    assert_eq!(read.name, written.name);
    assert_eq!(read.loa, written.loa);
    assert_eq!(read.root_translation, written.root_translation);
    assert_eq!(read.joints.len(), written.joints.len());
    for (a, b) in read.joints.iter().zip(&written.joints) {
        assert_eq!(a.name, b.name);
        let (qa, qb) = (a.rotation(), b.rotation());
        assert!((qa - qb).length().min((qa + qb).length()) < 1e-6, "{}: {qa} vs {qb}", a.name);
    }
}
