//! Keyframes: authored clips on a corpus humanoid (plain data: keys, slerp, undo/redo of key edits) and
//! `motion keys` through the real binary: three keys written as an HAnimMotion and as interpolators,
//! reloaded through the normal loader and `pose --motion NAME --time T`, give the keyed poses at the
//! key times and the slerp between them; the rest pose is written in place; bad keys are clear errors.

mod common;

use std::path::Path;
use std::process::Command;

use glam::{Quat, Vec3};
use hanim_viewer::animation::{Animations, Key, Transport};
use hanim_viewer::hanim::HumanoidIndex;
use hanim_viewer::pose::Pose;
use hanim_viewer::ui::keys::KeyCommand;
use hanim_viewer::ui::{PoseEditor, UiCommand, UiState};

fn viewer(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hanim-viewer")).args(args).output().expect("the binary runs")
}

/// Per joint name: the effective local rotation `pose FILE ARGS --json` reports.
fn rotations(args: &[&str]) -> Vec<(String, Quat)> {
    let out = viewer(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    report["humanoids"][0]["joints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| {
            let q: Vec<f32> = j["quaternion"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap() as f32).collect();
            (j["name"].as_str().unwrap().to_string(), Quat::from_xyzw(q[0], q[1], q[2], q[3]))
        })
        .collect()
}

/// The largest component difference between two rotations (`q` and `−q` are the same rotation).
fn rotation_gap(a: Quat, b: Quat) -> f32 {
    let b = if a.dot(b) < 0.0 { -b } else { b };
    (a - b).to_array().iter().fold(0.0f32, |m, d| m.max(d.abs()))
}

fn assert_same_pose(what: &str, got: &[(String, Quat)], want: &[(String, Quat)], tolerance: f32) {
    assert_eq!(got.len(), want.len(), "{what}: joint count");
    let mut worst = (0.0f32, String::new());
    for ((name, a), (other, b)) in got.iter().zip(want) {
        assert_eq!(name, other);
        let gap = rotation_gap(*a, *b);
        if gap > worst.0 {
            worst = (gap, name.clone());
        }
    }
    assert!(worst.0 <= tolerance, "{what}: {} is {:.3e} off (allowed {tolerance:e})", worst.1, worst.0);
    eprintln!("{what}: worst joint {} at {:.2e}", worst.1, worst.0);
}

/// Three keys on JinLOA4: the left arm raised at 0 s, a reach of the right hand (with a head turn) at 1 s,
/// and both elbows bent at 2 s.
fn three_keys(file: &str) -> Vec<String> {
    // The right wrist's rest centre, from the binary itself, moved forward and up.
    let out = viewer(&["pose", file, "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let wrist = report["humanoids"][0]["joints"]
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["name"] == "r_radiocarpal")
        .map(|j| j["global_center"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect::<Vec<_>>())
        .unwrap();
    let target = [wrist[0] + 0.05, wrist[1] + 0.25, wrist[2] + 0.2];
    vec![
        "0=l_shoulder=0,0,1,-1.2".to_string(),
        format!("1=reach:r_radiocarpal={},{},{}+skullbase=0,1,0,0.5", target[0], target[1], target[2]),
        "2=l_elbow=0,1,0,1.1+r_elbow=1,0,0,-0.9+l_shoulder=0,0,1,-0.4".to_string(),
    ]
}

fn check_round_trip(as_interpolators: bool) {
    let file = common::corpus("x3d/JinLOA4.x3d");
    let file = file.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join(if as_interpolators { "keys-interp.x3d" } else { "keys.x3d" });
    let out_s = out.to_str().unwrap();
    let keys = three_keys(file);
    let mut args = vec!["motion", "keys", file, "--out", out_s];
    for k in &keys {
        args.extend(["--key", k.as_str()]);
    }
    if as_interpolators {
        args.push("--as-interpolators");
    }
    let run = viewer(&args);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let said = String::from_utf8_lossy(&run.stdout);
    assert!(said.contains("3 keys"), "{said}");

    // The keyed poses, from the original file: rest with the rotations (JOINT=axis,angle is an offset
    // after the rest rotation), and the reach as `pose --reach` solves it.
    let doc = hanim_viewer::hanim::load(Path::new(file)).unwrap();
    let h = &doc.humanoids[0];
    let rest = rotations(&["pose", file, "--json"]);
    let with = |pose: &[(String, Quat)], joint: &str, axis: Vec3, angle: f32| -> Vec<(String, Quat)> {
        let j = h.joints.iter().position(|x| x.name == joint).unwrap();
        let mut p = pose.to_vec();
        p[j].1 = h.joints[j].rest.rotation * Quat::from_axis_angle(axis.normalize(), angle);
        p
    };
    let key0 = with(&rest, "l_shoulder", Vec3::Z, -1.2);
    let reach = keys[1].trim_start_matches("1=").split('+').next().unwrap().trim_start_matches("reach:").to_string();
    let reached = rotations(&["pose", file, "--reach", &reach, "--json"]);
    let key1 = with(&reached, "skullbase", Vec3::Y, 0.5);
    let key2 =
        with(&with(&with(&rest, "l_elbow", Vec3::Y, 1.1), "r_elbow", Vec3::X, -0.9), "l_shoulder", Vec3::Z, -0.4);

    let out_doc = hanim_viewer::hanim::load(&out).expect("the exported file loads");
    let animations = Animations::from_document_strict(&out_doc).expect("its clips are playable");
    assert!(animations.find("keys").is_some(), "the clip 'keys' is in the file");
    let at = |t: f64| rotations(&["pose", out_s, "--motion", "keys", "--time", &t.to_string(), "--json"]);
    let kind = if as_interpolators { "interpolators" } else { "HAnimMotion" };
    for (t, want) in [(0.0, &key0), (1.0, &key1), (2.0, &key2)] {
        assert_same_pose(&format!("{kind} at key {t} s"), &at(t), want, 1e-5);
    }
    // Halfway between keys: the slerp of the two keys, joint by joint.
    for (t, a, b) in [(0.5f64, &key0, &key1), (1.5, &key1, &key2), (1.25, &key1, &key2)] {
        let f = ((t - t.floor()) as f32).max(0.0);
        let want: Vec<(String, Quat)> =
            a.iter().zip(b.iter()).map(|((n, qa), (_, qb))| (n.clone(), qa.slerp(*qb, f))).collect();
        assert_same_pose(&format!("{kind} at {t} s"), &at(t), &want, 1e-5);
    }
    // Everything outside the inserted text is the original, byte for byte.
    let (before, after) = (std::fs::read_to_string(file).unwrap(), std::fs::read_to_string(&out).unwrap());
    let common_head = before.bytes().zip(after.bytes()).take_while(|(a, b)| a == b).count();
    let common_tail = before.bytes().rev().zip(after.bytes().rev()).take_while(|(a, b)| a == b).count();
    assert!(
        common_head + common_tail >= before.len(),
        "only an insertion: {common_head} + {common_tail} of {}",
        before.len()
    );
}

#[test]
fn three_keys_round_trip_as_an_hanim_motion() {
    check_round_trip(false);
}

#[test]
fn three_keys_round_trip_as_interpolators() {
    check_round_trip(true);
}

#[test]
fn the_rest_pose_is_written_into_the_joint_tags_alone() {
    let file = common::corpus("x3d/JinLOA4.x3d");
    let file = file.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rest.x3d");
    let run = viewer(&[
        "motion",
        "keys",
        file,
        "--rest-pose",
        "l_shoulder=0,0,1,-1+r_hip=1,0,0,0.3",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(String::from_utf8_lossy(&run.stdout).contains("rest pose: 2 joints rewritten"));
    let (before, after) = (std::fs::read_to_string(file).unwrap(), std::fs::read_to_string(&out).unwrap());
    let changed: Vec<(&str, &str)> = before.lines().zip(after.lines()).filter(|(a, b)| a != b).collect();
    assert_eq!(before.lines().count(), after.lines().count());
    assert_eq!(changed.len(), 2, "{changed:?}");
    assert!(changed.iter().all(|(a, b)| a.contains("<HAnimJoint") && b.contains(" rotation='")), "{changed:?}");
    let doc = hanim_viewer::hanim::load(Path::new(file)).unwrap();
    let h = &doc.humanoids[0];
    let reloaded = rotations(&["pose", out.to_str().unwrap(), "--json"]);
    for (joint, axis, angle) in [("l_shoulder", Vec3::Z, -1.0f32), ("r_hip", Vec3::X, 0.3)] {
        let j = h.joints.iter().position(|x| x.name == joint).unwrap();
        let want = h.joints[j].rest.rotation * Quat::from_axis_angle(axis, angle);
        assert!(rotation_gap(reloaded[j].1, want) < 1e-6, "{joint}: {} vs {want}", reloaded[j].1);
    }
}

#[test]
fn bad_keys_are_clear_errors_and_write_nothing() {
    let file = common::corpus("x3d/JinLOA4.x3d");
    let file = file.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bad.x3d");
    let out_s = out.to_str().unwrap();
    for (args, expected) in [
        (vec!["--key", "0.51=rest"], "not on a frame at 30 fps"),
        (vec!["--key", "0=rest", "--key", "0=rest"], "two keys at the same time"),
        (vec!["--key", "1=l_shouldr=0,0,1,1"], "l_shoulder"),
        (vec!["--key", "1=reach:nowhere=0,0,0"], "nowhere"),
        (vec!["--key", "x=rest"], "is not SECONDS=POSE"),
        (vec![], "nothing to write"),
    ] {
        let mut all = vec!["motion", "keys", file, "--out", out_s];
        all.extend(args.iter().copied());
        let run = viewer(&all);
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success() && err.contains(expected), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?} wrote a file");
    }
}

/// Key add, move and delete in the pose editor and transport (as the window does them), undone and
/// redone, on JinLOA4.
#[test]
fn key_edits_undo_and_redo() {
    let doc = hanim_viewer::hanim::load(&common::corpus("x3d/JinLOA4.x3d")).unwrap();
    let h = &doc.humanoids[0];
    let me = HumanoidIndex(0);
    let mut transport = Transport::new(Animations::from_document(&doc));
    let mut editor = PoseEditor::new(h);
    let mut state = UiState::default();
    let shoulder = h.joints.iter().position(|j| j.name == "l_shoulder").unwrap();
    let root = h.joints.iter().position(|j| j.parent.is_none()).unwrap();
    let rotate = |editor: &mut PoseEditor, state: &mut UiState, degrees: [f32; 3]| {
        let joint = hanim_viewer::hanim::JointIndex(shoulder);
        assert!(editor.apply(h, state, UiCommand::SetJointAngles { joint, degrees }).is_none());
        assert!(editor.apply(h, state, UiCommand::EndEdit).is_none());
    };
    let sample = |transport: &Transport, editor: &mut PoseEditor| {
        let mut poses = vec![editor.pose.clone()];
        transport.apply(&doc, &mut poses);
        editor.pose = poses.remove(0);
    };
    let keys_of = |t: &Transport| -> Vec<f64> {
        hanim_viewer::ui::keys::selected_keys(t).map(|c| c.keys.iter().map(|k| k.time).collect()).unwrap_or_default()
    };

    // Key 1 at 0 s: the arm raised and the root moved.
    rotate(&mut editor, &mut state, [0.0, 0.0, -60.0]);
    editor.pose.translation_offsets[root] = Vec3::new(0.0, 0.1, 0.0);
    let raised = editor.pose.effective_rotation(h, shoulder);
    editor.apply_key(h, me, &mut transport, KeyCommand::Set).unwrap();
    assert_eq!(keys_of(&transport), [0.0]);
    assert_eq!(editor.pose.rotation_offsets[shoulder], Quat::IDENTITY, "the edit went into the key");
    assert!(rotation_gap(editor.pose.effective_rotation(h, shoulder), raised) < 1e-6, "and the clip shows it");
    let raised_root = h.joints[root].rest.translation + Vec3::new(0.0, 0.1, 0.0);
    assert!(editor.pose.effective_translation(h, root).distance(raised_root) < 1e-6);

    // Key 2 at 1.01 s lands on frame 30 (1 s): the arm lowered, root at rest.
    transport.seek_time(1.01);
    sample(&transport, &mut editor);
    rotate(&mut editor, &mut state, [0.0, 0.0, 30.0]);
    editor.pose.translation_offsets[root] = Vec3::new(0.0, -0.1, 0.0);
    let lowered = editor.pose.effective_rotation(h, shoulder);
    editor.apply_key(h, me, &mut transport, KeyCommand::Set).unwrap();
    assert_eq!(keys_of(&transport), [0.0, 1.0]);
    assert!((transport.time - 1.0).abs() < 1e-12);

    // Halfway: the slerp of the two keys, the root halfway.
    transport.seek_time(0.5);
    sample(&transport, &mut editor);
    assert!(rotation_gap(editor.pose.effective_rotation(h, shoulder), raised.slerp(lowered, 0.5)) < 1e-6);
    // Key 1 held the root 0.1 up and key 2 brought it back to rest (base 0.1 up, offset −0.1).
    let halfway_root = h.joints[root].rest.translation + Vec3::new(0.0, 0.05, 0.0);
    assert!(editor.pose.effective_translation(h, root).distance(halfway_root) < 1e-6);

    // Move the second key to 2 s, then delete the first.
    editor.apply_key(h, me, &mut transport, KeyCommand::Move { from: 1.0, to: 2.0 }).unwrap();
    assert_eq!(keys_of(&transport), [0.0, 2.0]);
    let e = editor.apply_key(h, me, &mut transport, KeyCommand::Move { from: 0.0, to: 2.0 }).unwrap_err();
    assert!(e.to_string().contains("already at 2.000 s"), "{e}");
    let e = editor.apply_key(h, me, &mut transport, KeyCommand::Delete(0.7)).unwrap_err();
    assert!(e.to_string().contains("no key at 0.700 s"), "{e}");
    editor.apply_key(h, me, &mut transport, KeyCommand::Delete(0.0)).unwrap();
    assert_eq!(keys_of(&transport), [2.0]);

    // Undo: delete, move, second key, first key (with the pose edits it folded in), in that order.
    assert!(editor.travel(true, Some(&mut transport)));
    assert_eq!(keys_of(&transport), [0.0, 2.0]);
    assert!(editor.travel(true, Some(&mut transport)));
    assert_eq!(keys_of(&transport), [0.0, 1.0]);
    assert!(editor.travel(true, Some(&mut transport)));
    assert_eq!(keys_of(&transport), [0.0]);
    assert!(editor.pose.rotation_offsets[shoulder] != Quat::IDENTITY, "the offset before the key is back");
    editor.travel(true, Some(&mut transport)); // the slider edit before key 2
    assert!(editor.travel(true, Some(&mut transport)));
    assert!(transport.animations.clips.is_empty(), "undoing the first key removes the new clip");
    // Redo it all.
    while editor.history.can_redo() {
        editor.travel(false, Some(&mut transport));
    }
    assert_eq!(keys_of(&transport), [2.0]);
    assert_eq!(transport.animations.clips.len(), 1);
    // A new edit clears the redo steps.
    let _ = Key::of_pose(h, &Pose::rest(h), 0.0);
    editor.apply_key(h, me, &mut transport, KeyCommand::Set).unwrap();
    assert!(!editor.history.can_redo());
}

/// A file with `UNIT` angle (degrees) and length (centimetres): the rest pose and the interpolators are
/// written in the file's units, and read back as keyed.
#[test]
fn values_are_written_in_the_files_units() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/keys_units.x3d");
    let file = file.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("units.x3d");
    let out_s = out.to_str().unwrap();
    let run = viewer(&[
        "motion",
        "keys",
        file,
        "--rest-pose",
        "l_shoulder=0,0,1,0.5",
        "--key",
        "0=rest",
        "--key",
        "1=l_elbow=1,0,0,1",
        "--as-interpolators",
        "--out",
        out_s,
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    // 10° in the file plus 0.5 rad about the same axis: 38.648°.
    assert!(text.contains("rotation='0 0 1 38.64"), "{text}");
    assert!(text.contains("keyValue='0 0 1 0, 1 0 0 57.29"), "{text}");
    let rest = rotations(&["pose", out_s, "--json"]);
    assert!(rotation_gap(rest[1].1, Quat::from_rotation_z(10f32.to_radians() + 0.5)) < 1e-6);
    let keyed = rotations(&["pose", out_s, "--motion", "keys", "--time", "1", "--json"]);
    assert!(rotation_gap(keyed[2].1, Quat::from_rotation_x(1.0)) < 1e-5, "{:?}", keyed[2]);
}
