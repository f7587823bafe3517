//! Public glTF and VRM characters (`tests/corpus/gltf/`, MANIFEST.md says whose) open as H-Anim humanoids:
//! Khronos' Fox (a skinned, animated quadruped with its own bone names) and a VRM 1.0 sample (bones mapped
//! to H-Anim names, rigid meshes). Each imports, takes a pose, plays its animations, and its X3D written by
//! `convert` validates against the X3D 4.0 schema.

mod common;

test_main!(
    the_khronos_fox_imports_poses_and_plays_its_three_animations,
    the_vrm_sample_opens_with_hanim_joints_and_takes_a_builtin_pose,
    the_samples_saved_as_x3d_validate
);

use std::path::{Path, PathBuf};
use std::process::Command;

use hanim_viewer::animation::{Animations, Interpolation, SampleOptions};
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::pose::file::{PoseFile, apply_to_document};
use hanim_viewer::pose::{Pose, humanoid_from_joint, poses_for};

const FOX: &str = "gltf/Fox.glb";
const VRM: &str = "gltf/VRMC_vrm_expressions_isBinary_Overrides.vrm";

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_hanim-viewer")
}

/// How far (metres, in humanoid space) the joints of `pose` are from where the rest pose has them.
fn largest_joint_move(doc: &Document, pose: &Pose) -> f32 {
    let h = &doc.humanoids[0];
    let rest = humanoid_from_joint(h, &Pose::rest(h));
    let posed = humanoid_from_joint(h, pose);
    let centre = |m: &glam::Mat4, j: usize| m.transform_point3(h.joints[j].rest.center);
    (0..h.joints.len()).map(|j| (centre(&rest[j], j) - centre(&posed[j], j)).length()).fold(0.0, f32::max)
}

fn the_khronos_fox_imports_poses_and_plays_its_three_animations() {
    let doc = hanim::load(&common::corpus(FOX)).unwrap();
    assert_eq!(doc.humanoids.len(), 1);
    let h = &doc.humanoids[0];
    assert_eq!(h.joints.len(), 24, "{:?}", h.joints.iter().map(|j| &j.name).collect::<Vec<_>>());
    assert!(h.joints.iter().any(|j| j.name == "b_Head_05"));
    let skinned = h.joints.iter().filter(|j| !j.skin_coord_index.is_empty()).count();
    assert!(skinned >= 20, "{skinned} joints weigh skin points");
    // The three animations are clips, each moving the figure away from its rest pose while it plays.
    let animations = Animations::from_document(&doc);
    for name in ["Survey", "Walk", "Run"] {
        let index = animations.find(name).unwrap_or_else(|| panic!("no clip {name}"));
        let length = animations.clips[index].duration(Interpolation::Smooth);
        assert!(length > 0.5, "{name}: {length} s");
        let mut solo = Animations::from_document(&doc);
        solo.solo(index);
        let mut poses = poses_for(&doc, &[], &[]).unwrap();
        solo.apply(&doc, length * 0.5, &SampleOptions::default(), &mut poses);
        let moved = largest_joint_move(&doc, &poses[0]);
        // The fox is about 80 units tall (centimetres): a stride moves its feet by several units.
        assert!(moved > 2.0, "{name} at {:.2} s moves no joint more than {moved}", length * 0.5);
    }
    // Posed by hand (a joint turned) and by inverse kinematics, through the render command.
    let dir = tempfile::tempdir().unwrap();
    let rest = dir.path().join("rest.png");
    let turned = dir.path().join("turned.png");
    let reached = dir.path().join("reached.png");
    let fox = common::corpus(FOX);
    let run = |args: &[&str], out: &Path| {
        let run = Command::new(bin()).arg("render").arg(&fox).args(args).arg("--out").arg(out).output().unwrap();
        assert!(run.status.success(), "{args:?}: {}", String::from_utf8_lossy(&run.stderr));
    };
    common::needs_gpu();
    run(&["--size", "160x160", "--view", "side"], &rest);
    run(&["--size", "160x160", "--view", "side", "--pose", "b_Neck_04=1,0,0,0.8"], &turned);
    run(&["--size", "160x160", "--view", "side", "--reach", "b_Head_05=0,60,60"], &reached);
    let read = |p: &PathBuf| image::open(p).unwrap().to_rgb8().into_raw();
    assert_ne!(read(&rest), read(&turned), "turning the neck changes nothing");
    assert_ne!(read(&rest), read(&reached), "reaching with the head changes nothing");
}

fn the_vrm_sample_opens_with_hanim_joints_and_takes_a_builtin_pose() {
    let doc = hanim::load(&common::corpus(VRM)).unwrap();
    let h = &doc.humanoids[0];
    let names: Vec<&str> = h.joints.iter().map(|j| j.name.as_str()).collect();
    for wanted in ["humanoid_root", "l_shoulder", "r_elbow", "l_knee", "skullbase", "vc4", "r_radiocarpal"] {
        assert!(names.contains(&wanted), "{wanted} not among {names:?}");
    }
    assert_eq!(h.name, "isBinary_overrides", "the VRM title as a name token");
    // The rigid meshes hang from the joints as segments.
    assert!(!h.segments.is_empty());
    let mut poses = poses_for(&doc, &[], &[]).unwrap();
    let file = PoseFile::open("builtin:waving").unwrap();
    let applied = apply_to_document(&doc, &file, &mut poses, false);
    assert_eq!(applied.len(), 1);
    assert!(largest_joint_move(&doc, &poses[0]) > 0.05, "the waving pose moves no joint");
}

fn the_samples_saved_as_x3d_validate() {
    let Some(schemas) = common::schema::schemas_dir() else {
        common::harness::skip("../shared/schemas/x3d-4.0.xsd is not there");
    };
    let dir = tempfile::tempdir().unwrap();
    let mut written = Vec::new();
    for file in [FOX, VRM] {
        let x3d = dir.path().join(format!("{}.x3d", Path::new(file).file_stem().unwrap().to_string_lossy()));
        let run = Command::new(bin()).arg("convert").arg(common::corpus(file)).arg("--out").arg(&x3d).output().unwrap();
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        // What was written reads back as the same humanoid.
        let back = hanim::load(&x3d).unwrap();
        let original = hanim::load(&common::corpus(file)).unwrap();
        assert_eq!(back.humanoids[0].joints.len(), original.humanoids[0].joints.len());
        written.push(x3d);
    }
    let Some(log) = common::schema::xmllint_report(&schemas, &written) else {
        common::harness::skip("xmllint cannot be run");
    };
    for file in &written {
        assert!(log.contains(&format!("{} validates", file.display())), "{log}");
    }
}
