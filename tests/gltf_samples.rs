//! Public glTF and VRM characters (`tests/corpus/gltf/`, MANIFEST.md says whose) open as H-Anim humanoids:
//! Khronos' Fox (a skinned, animated quadruped with its own bone names), CesiumMan and RiggedFigure
//! (skinned, animated figures made by COLLADA2GLTF), a VRM 1.0 sample (bones mapped to H-Anim names,
//! rigid meshes) and a VRM 0.x avatar (cryptovoxels: a skinned human, 43 humanoid bones). Each imports,
//! takes a pose, plays its animations (the GPU skin agreeing with the CPU reference), and its X3D written
//! by `convert` validates against the X3D 4.0 schema.

mod common;

test_main!(
    the_khronos_fox_imports_poses_and_plays_its_three_animations,
    cesium_man_and_rigged_figure_walk_as_the_cpu_reference_skins_them,
    the_vrm_0_avatar_maps_every_humanoid_bone_by_the_written_table,
    the_vrm_sample_opens_with_hanim_joints_and_takes_a_builtin_pose,
    the_samples_saved_as_x3d_validate
);

use std::path::{Path, PathBuf};
use std::process::Command;

use glam::{Mat4, Quat, Vec3};
use hanim_viewer::animation::{Animations, Interpolation, SampleOptions};
use hanim_viewer::gpu::agreement;
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::pose::file::{PoseFile, apply_to_document};
use hanim_viewer::pose::{Pose, humanoid_from_joint, poses_for};

const FOX: &str = "gltf/Fox.glb";
const VRM: &str = "gltf/VRMC_vrm_expressions_isBinary_Overrides.vrm";
const CESIUM_MAN: &str = "gltf/CesiumMan.glb";
const RIGGED_FIGURE: &str = "gltf/RiggedFigure.glb";
const VRM0: &str = "gltf/cryptovoxels.vrm";

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
    for file in [FOX, VRM, CESIUM_MAN, RIGGED_FIGURE, VRM0] {
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

/// The poses a clip gives at `fractions` of its length, played alone.
fn clip_poses(doc: &Document, clip: usize, fractions: &[f64]) -> Vec<Pose> {
    let mut solo = Animations::from_document(doc);
    solo.solo(clip);
    let length = solo.clips[clip].duration(Interpolation::Smooth);
    fractions
        .iter()
        .map(|f| {
            let mut poses = poses_for(doc, &[], &[]).unwrap();
            solo.apply(doc, length * *f, &SampleOptions::default(), &mut poses);
            poses.swap_remove(0)
        })
        .collect()
}

/// The largest distance between the joint centres of two poses.
fn joints_apart(doc: &Document, a: &Pose, b: &Pose) -> f32 {
    let h = &doc.humanoids[0];
    let (ma, mb) = (humanoid_from_joint(h, a), humanoid_from_joint(h, b));
    (0..h.joints.len())
        .map(|j| {
            (ma[j].transform_point3(h.joints[j].rest.center) - mb[j].transform_point3(h.joints[j].rest.center)).length()
        })
        .fold(0.0, f32::max)
}

/// CesiumMan and RiggedFigure: 19 skinned joints each (their own names, kept), one walk (Cesium Man) or
/// step (Rigged Figure) animation whose scale channels all hold the rest scale (so none is written).
/// The clip at ¼, ½ and ¾ of its length gives three different poses; at each, and at rest and with a
/// joint turned by hand, the GPU skin agrees with the CPU reference within 1e-5 of the figure's size.
fn cesium_man_and_rigged_figure_walk_as_the_cpu_reference_skins_them() {
    let ctx = common::gpu();
    // Their node names (kept: no rig table knows them); CesiumMan's later export prefixes some.
    let cesium = ["Skeleton_torso_joint_1", "leg_joint_L_5", "Skeleton_arm_joint_R__3_", "Skeleton_neck_joint_2"];
    let rigged = ["torso_joint_1", "leg_joint_L_5", "arm_joint_R_3", "neck_joint_2"];
    for (file, skin_points, names, turned) in
        [(CESIUM_MAN, 2000, cesium, "Skeleton_arm_joint_L__2_"), (RIGGED_FIGURE, 100, rigged, "arm_joint_L_1")]
    {
        let path = common::corpus(file);
        let imported = hanim_viewer::gltf::import::import(&std::fs::read(&path).unwrap(), &path).unwrap();
        assert!(!imported.warnings.iter().any(|w| w.contains("scale")), "{file}: {:?}", imported.warnings);
        let doc = hanim::load(&path).unwrap();
        let h = &doc.humanoids[0];
        let skinned = h.joints.iter().filter(|j| !j.skin_coord_index.is_empty()).count();
        assert_eq!(skinned, 19, "{file}: {:?}", h.joints.iter().map(|j| &j.name).collect::<Vec<_>>());
        for name in names {
            assert!(h.joint_index(name).is_some(), "{file}: no joint {name}");
        }
        let points = h.skin.as_ref().map_or(0, |s| s.points.len());
        assert!(points >= skin_points, "{file}: {points} skin points");
        let animations = Animations::from_document(&doc);
        assert_eq!(animations.clips.len(), 1, "{file}");
        let poses = clip_poses(&doc, 0, &[0.25, 0.5, 0.75]);
        for (i, j) in [(0, 1), (1, 2), (0, 2)] {
            let apart = joints_apart(&doc, &poses[i], &poses[j]);
            // Both figures are about 1.5 m tall: a step moves a foot by several centimetres.
            assert!(apart > 0.02, "{file}: poses {i} and {j} are {apart} m apart");
        }
        let mut all = vec![Pose::rest(h)];
        all.extend(poses);
        let mut by_hand = Pose::rest(h);
        let arm = h.joint_index(turned).unwrap();
        by_hand.rotation_offsets[arm] = Quat::from_rotation_z(0.9);
        all.push(by_hand);
        let a = agreement::measure_poses(&ctx, h, &all, 0x5EED).unwrap();
        eprintln!("{file}: {a:?}");
        assert_eq!(a.poses, all.len());
        assert!(a.max_point_error <= 1e-5 && a.max_normal_error <= 1e-5, "{file}: {a:?}");
    }
}

/// cryptovoxels.vrm, a VRM 0.x avatar: every bone of its humanoid list is a joint named by the table of
/// `docs/gltf.md` (written out here, not taken from the code), whose centre is that node's rest position
/// turned to face +Z; the skin follows the joints (a turned shoulder moves the arm's points only).
fn the_vrm_0_avatar_maps_every_humanoid_bone_by_the_written_table() {
    let table: &[(&str, &str)] = &[
        ("hips", "humanoid_root"),
        ("spine", "vl5"),
        ("chest", "vt10"),
        ("upperChest", "vt1"),
        ("neck", "vc4"),
        ("head", "skullbase"),
        ("jaw", "temporomandibular"),
        ("leftEye", "l_eyeball_joint"),
        ("rightEye", "r_eyeball_joint"),
        ("leftUpperLeg", "l_hip"),
        ("leftLowerLeg", "l_knee"),
        ("leftFoot", "l_talocrural"),
        ("leftToes", "l_metatarsophalangeal_2"),
        ("rightUpperLeg", "r_hip"),
        ("rightLowerLeg", "r_knee"),
        ("rightFoot", "r_talocrural"),
        ("rightToes", "r_metatarsophalangeal_2"),
        ("leftShoulder", "l_sternoclavicular"),
        ("leftUpperArm", "l_shoulder"),
        ("leftLowerArm", "l_elbow"),
        ("leftHand", "l_radiocarpal"),
        ("rightShoulder", "r_sternoclavicular"),
        ("rightUpperArm", "r_shoulder"),
        ("rightLowerArm", "r_elbow"),
        ("rightHand", "r_radiocarpal"),
        ("leftThumbProximal", "l_carpometacarpal_1"),
        ("leftThumbIntermediate", "l_metacarpophalangeal_1"),
        ("leftThumbDistal", "l_carpal_interphalangeal_1"),
        ("rightThumbProximal", "r_carpometacarpal_1"),
        ("rightThumbIntermediate", "r_metacarpophalangeal_1"),
        ("rightThumbDistal", "r_carpal_interphalangeal_1"),
    ];
    let fingers = [("Index", 2), ("Middle", 3), ("Ring", 4), ("Little", 5)];
    let joints = [
        ("Proximal", "metacarpophalangeal"),
        ("Intermediate", "carpal_proximal_interphalangeal"),
        ("Distal", "carpal_distal_interphalangeal"),
    ];
    let mut wanted: Vec<(String, String)> = table.iter().map(|(v, h)| (v.to_string(), h.to_string())).collect();
    for (side, s) in [("left", "l"), ("right", "r")] {
        for (finger, n) in fingers {
            for (part, joint) in joints {
                wanted.push((format!("{side}{finger}{part}"), format!("{s}_{joint}_{n}")));
            }
        }
    }
    let path = common::corpus(VRM0);
    let bytes = std::fs::read(&path).unwrap();
    let gltf = gltf::Gltf::from_slice(&bytes).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&gltf::Glb::from_slice(&bytes).unwrap().json).unwrap();
    let bones = json["extensions"]["VRM"]["humanoid"]["humanBones"].as_array().unwrap();
    assert_eq!(bones.len(), 43);
    // World matrices at rest, from the glTF node tree.
    let nodes: Vec<gltf::Node> = gltf.nodes().collect();
    let mut world = vec![Mat4::IDENTITY; nodes.len()];
    let mut stack: Vec<(usize, Mat4)> =
        gltf.scenes().next().unwrap().nodes().map(|n| (n.index(), Mat4::IDENTITY)).collect();
    while let Some((n, above)) = stack.pop() {
        world[n] = above * Mat4::from_cols_array_2d(&nodes[n].transform().matrix());
        stack.extend(nodes[n].children().map(|c| (c.index(), world[n])));
    }
    let doc = hanim::load(&path).unwrap();
    let h = &doc.humanoids[0];
    // VRM 0.x faces −Z: the humanoid is turned half round to face +Z.
    let turn = Mat4::from_rotation_y(std::f32::consts::PI);
    // The importer writes the humanoid's translation, rotation and scale only (no centre).
    let t = &h.transform;
    let humanoid = h.world_from_parent * Mat4::from_scale_rotation_translation(t.scale, t.rotation, t.translation);
    let mut mapped = 0;
    for bone in bones {
        let (name, node) = (bone["bone"].as_str().unwrap(), bone["node"].as_u64().unwrap() as usize);
        let expected = &wanted.iter().find(|w| w.0 == name).unwrap_or_else(|| panic!("{name} is in no table row")).1;
        let joint = h.joint_index(expected).unwrap_or_else(|| panic!("VRM bone {name}: no joint {expected}"));
        let centre = humanoid.transform_point3(h.joints[joint].rest.center);
        let node_at = turn.transform_point3(world[node].transform_point3(Vec3::ZERO));
        assert!(centre.abs_diff_eq(node_at, 1e-4), "{name} → {expected}: centre {centre} vs node {node_at}");
        mapped += 1;
    }
    assert_eq!(mapped, 43);
    // The head is above the hips and the left hand on the figure's left (+x, facing +Z).
    let at = |name: &str| humanoid.transform_point3(h.joints[h.joint_index(name).unwrap()].rest.center);
    assert!(at("skullbase").y > at("humanoid_root").y + 0.3);
    assert!(at("l_radiocarpal").x > at("r_radiocarpal").x);
    // A turned shoulder moves points of the skin, on the figure's left only.
    let mut pose = Pose::rest(h);
    pose.rotation_offsets[h.joint_index("l_shoulder").unwrap()] = Quat::from_rotation_z(-1.0);
    let rest = hanim_viewer::pose::deform_skin(h, &Pose::rest(h)).unwrap();
    let turned = hanim_viewer::pose::deform_skin(h, &pose).unwrap();
    let moved: Vec<Vec3> = (0..rest.points.len())
        .filter(|&p| (rest.points[p] - turned.points[p]).length() > 0.01)
        .map(|p| humanoid.transform_point3(rest.points[p]))
        .collect();
    assert!(moved.len() > 20, "{} points moved", moved.len());
    let middle = at("humanoid_root").x;
    // (Points of the chest by the midline weigh a little on the shoulder: 1 cm of slack.)
    let rightmost = moved.iter().map(|p| p.x - middle).fold(f32::MAX, f32::min);
    assert!(rightmost > -0.01, "a point {rightmost} m right of the hips moved with the left shoulder");
}
