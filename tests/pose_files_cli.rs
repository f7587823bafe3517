//! `--pose-file` through the real binary: `pose --json` output is a pose file that `render` and `catalog`
//! read; a pose file renders the same picture as the same rotations given with `--pose`; bad pose files
//! are clear errors (file, line:column, what was expected) and leave no output behind.

mod common;

test_main!(
    pose_json_is_a_pose_file_that_renders_as_the_reach_did,
    a_pose_file_renders_as_the_same_rotations_given_with_pose,
    bad_pose_files_are_clear_errors_and_write_nothing
);

use std::path::Path;
use std::process::{Command, Output};

fn viewer(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hanim-viewer")).args(args).output().expect("the binary runs")
}

fn ok(args: &[&str]) -> Output {
    let out = viewer(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

/// Pixels whose colour differs by more than 2 in some channel.
fn changed_pixels(a: &Path, b: &Path) -> usize {
    let (wa, ha, pa) = common::window::read_rgba(a);
    let (wb, hb, pb) = common::window::read_rgba(b);
    assert_eq!((wa, ha), (wb, hb));
    pa.chunks(4).zip(pb.chunks(4)).filter(|(x, y)| (0..3).any(|c| x[c].abs_diff(y[c]) > 2)).count()
}

fn pose_json_is_a_pose_file_that_renders_as_the_reach_did() {
    common::needs_gpu();
    let dir = tempfile::tempdir().unwrap();
    let file = common::corpus("x3d/JinLOA4.x3d");
    let file = file.to_str().unwrap();
    let at = |name: &str| dir.path().join(name).display().to_string();
    let reach = ["--reach", "l_radiocarpal=0.35,1.25,0.25", "--reach-to-root"];
    let report = ok(&[&["pose", file, "--json"][..], &reach].concat());
    std::fs::write(at("reach.json"), &report.stdout).unwrap();
    // The report reads as a pose file: what `render --pose-file` applies.
    let json: serde_json::Value = serde_json::from_slice(&report.stdout).unwrap();
    assert_eq!((json["format"].as_str(), json["version"].as_u64()), (Some("hanim-viewer-pose"), Some(1)));
    assert_eq!(json["humanoids"][0]["loa"], 4);

    let size = ["--size", "200x200"];
    ok(&[&["render", file, "--out", &at("rest.png")][..], &size].concat());
    ok(&[&["render", file, "--out", &at("reach.png")][..], &size, &reach].concat());
    let loaded =
        ok(&[&["render", file, "--out", &at("loaded.png"), "--pose-file", &at("reach.json")][..], &size].concat());
    let said = String::from_utf8_lossy(&loaded.stderr);
    assert!(said.contains("on 'JinLOA4': 146 joint(s) set"), "{said}");
    let moved = changed_pixels(&dir.path().join("rest.png"), &dir.path().join("loaded.png"));
    assert!(moved > 300, "the pose file moved {moved} pixels");
    let apart = changed_pixels(&dir.path().join("reach.png"), &dir.path().join("loaded.png"));
    eprintln!("--pose-file vs --reach: {apart} pixels differ (vs rest: {moved})");
    assert!(apart <= 4, "the loaded pose differs from the reach in {apart} pixels");
}

fn a_pose_file_renders_as_the_same_rotations_given_with_pose() {
    common::needs_gpu();
    let dir = tempfile::tempdir().unwrap();
    let file = common::corpus("x3d/JinLOA1.x3d");
    let file = file.to_str().unwrap();
    let at = |name: &str| dir.path().join(name).display().to_string();
    // JinLOA1's rest rotations are identity: a `--pose` offset is then the effective rotation.
    std::fs::write(
        at("arms.json"),
        r#"{"format": "hanim-viewer-pose", "version": 1, "humanoids": [{"name": "somebody",
            "joints": [{"name": "l_shoulder", "axis_angle": [0, 0, 1, 1.2]},
                       {"name": "r_elbow", "axis_angle": [-1, 0, 0, 0.9]},
                       {"name": "l_knee", "quaternion": [0.25881905, 0, 0, 0.96592583]}]}]}"#,
    )
    .unwrap();
    let size = ["--size", "160x200"];
    ok(&[&["render", file, "--out", &at("file.png"), "--pose-file", &at("arms.json")][..], &size].concat());
    let offsets = ["--pose", "l_shoulder=0,0,1,1.2", "r_elbow=-1,0,0,0.9", "l_knee=1,0,0,0.5235988"];
    ok(&[&["render", file, "--out", &at("offsets.png")][..], &size, &offsets].concat());
    ok(&[&["render", file, "--out", &at("rest.png")][..], &size].concat());
    let apart = changed_pixels(&dir.path().join("file.png"), &dir.path().join("offsets.png"));
    eprintln!("--pose-file vs --pose: {apart} pixels differ");
    assert!(apart <= 4, "the pose file and --pose differ in {apart} pixels");
    assert!(changed_pixels(&dir.path().join("file.png"), &dir.path().join("rest.png")) > 200);

    // A built-in pose works the same way, and `catalog` takes pose files too.
    ok(&[&["render", file, "--out", &at("t.png"), "--pose-file", "builtin:t-pose"][..], &size].concat());
    assert!(changed_pixels(&dir.path().join("t.png"), &dir.path().join("rest.png")) > 200);
    let out = at("catalog");
    ok(&["catalog", file, "--views", "front", "--size", "64x64", "--out", &out, "--pose-file", &at("arms.json")]);
    let html = std::fs::read_to_string(dir.path().join("catalog/index.html")).unwrap();
    assert!(html.contains("pose &apos;arms&apos;"), "the page names the pose");
}

fn bad_pose_files_are_clear_errors_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = common::corpus("x3d/JinLOA1.x3d");
    let file = file.to_str().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"format\": \"hanim-viewer-pose\", \"version\": 1,\n  \"humanoids\": [{\"name\": \"a\", \"joints\": [\n    {\"name\": \"l_knee\", \"axis_angle\": [0, 0, 0, 1]}]}]}\n").unwrap();
    let out = dir.path().join("out.png");
    let run = viewer(&["render", file, "--out", out.to_str().unwrap(), "--pose-file", bad.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success());
    assert!(said.contains(&format!("{}:3:", bad.display())) && said.contains("zero axis"), "{said}");
    assert!(!out.exists(), "no image for a bad pose file");

    let run = viewer(&["pose", file, "--pose-file", "builtin:moonwalk"]);
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("no built-in pose 'moonwalk' (there are: t-pose"));
    let run = viewer(&["pose", file, "--pose-file", dir.path().join("absent.json").to_str().unwrap()]);
    assert!(!run.status.success() && String::from_utf8_lossy(&run.stderr).contains("absent.json"));
    // A pose that names no joint of the humanoid is an error, not a silent rest pose.
    std::fs::write(&bad, r#"{"format":"hanim-viewer-pose","version":1,"humanoids":[{"name":"x","joints":[{"name":"tail","axis_angle":[0,0,1,1]}]}]}"#).unwrap();
    let run = viewer(&["pose", file, "--pose-file", bad.to_str().unwrap()]);
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("no joint of the pose is in"));
}
