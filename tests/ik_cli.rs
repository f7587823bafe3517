//! `pose --reach/--pin --json` and `render --reach` through the real binary: the reach lands within
//! 1 mm, pins hold, only the reaching limb's joints turn, the render changes only where that limb is, and
//! bad reaches are clear errors.

mod common;

test_main!(
    pose_reach_moves_the_wrist_and_only_its_arm,
    bad_reaches_are_clear_errors,
    render_reach_changes_only_the_moved_arm,
    pose_reach_with_an_orientation_turns_the_hand
);

use std::path::Path;
use std::process::Command;

use glam::Vec3;

fn viewer(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hanim-viewer")).args(args).output().expect("the binary runs")
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = viewer(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn vec3(v: &serde_json::Value) -> Vec3 {
    let a: Vec<f32> = v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect();
    Vec3::new(a[0], a[1], a[2])
}

/// The world centre of `joint` in a `pose --json` report.
fn centre(report: &serde_json::Value, joint: &str) -> Vec3 {
    let joints = report["humanoids"][0]["joints"].as_array().unwrap();
    let j = joints.iter().find(|j| j["name"] == joint).unwrap_or_else(|| panic!("{joint} in the report"));
    vec3(&j["global_center"])
}

fn pose_reach_moves_the_wrist_and_only_its_arm() {
    let file = common::corpus("x3d/JinLOA4.x3d");
    let file = file.to_str().unwrap();
    let rest = json(&["pose", file, "--json"]);
    let wrist = centre(&rest, "l_radiocarpal");
    let target = wrist + Vec3::new(-0.1, 0.2, 0.15);
    let reach = format!("l_radiocarpal={},{},{}", target.x, target.y, target.z);
    let posed = json(&["pose", file, "--reach", &reach, "--pin", "r_radiocarpal", "--json"]);
    let solve = &posed["reach"][0];
    assert_eq!(solve["converged"], true, "{solve}");
    assert!(centre(&posed, "l_radiocarpal").distance(target) < 1e-3);
    let effectors = solve["effectors"].as_array().unwrap();
    assert_eq!(effectors[0]["chain_root"], "l_shoulder");
    assert_eq!(effectors[1]["pinned"], true);
    // Joints outside the left arm (shoulder down) keep their rest rotations.
    let arm = ["l_shoulder", "l_elbow", "l_radiocarpal"];
    let joints = |r: &serde_json::Value| r["humanoids"][0]["joints"].as_array().unwrap().clone();
    let mut moved = Vec::new();
    for (a, b) in joints(&rest).iter().zip(joints(&posed)) {
        if a["quaternion"] != b["quaternion"] {
            moved.push(a["name"].as_str().unwrap().to_string());
        }
    }
    assert!(!moved.is_empty() && moved.iter().all(|m| arm.contains(&m.as_str())), "moved: {moved:?}");

    // With the chain to the root and both ankles pinned, the spine joins in and the ankles hold.
    let far = wrist + Vec3::new(-0.3, 0.1, 0.4);
    let reach = format!("l_radiocarpal={},{},{}", far.x, far.y, far.z);
    let args = ["pose", file, "--reach", &reach, "--pin", "l_talocrural", "--pin", "r_talocrural", "--reach-to-root"];
    let text = viewer(&args);
    assert!(text.status.success(), "{}", String::from_utf8_lossy(&text.stderr));
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("reach on 'JinLOA4'") && text.contains("pinned"), "{text}");
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let rooted = json(&json_args);
    assert!(centre(&rooted, "l_radiocarpal").distance(far) < 1e-3, "{}", rooted["reach"]);
    for ankle in ["l_talocrural", "r_talocrural"] {
        assert!(centre(&rooted, ankle).distance(centre(&rest, ankle)) < 1e-3, "{ankle} held");
    }
    assert_ne!(centre(&rooted, "vl5"), centre(&rest, "vl5"), "the spine turned");
}

fn bad_reaches_are_clear_errors() {
    let file = common::corpus("x3d/JinLOA4.x3d");
    let file = file.to_str().unwrap();
    let out = viewer(&["pose", file, "--reach", "l_radiocarpl=0,1,0"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("no site or joint named 'l_radiocarpl'"), "{err}");
    assert!(err.contains("l_radiocarpal"), "close names offered: {err}");
    let out = viewer(&["pose", file, "--reach", "l_radiocarpal=0,1"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("is not EFFECTOR=X,Y,Z"), "{err}");
    let out = viewer(&["pose", file, "--reach", "l_radiocarpal=0,nan,0"]);
    assert!(!out.status.success());
}

/// `render --reach` (JoeKick's fixed Scene_IFrontView camera): the picture changes only on the side of
/// the reaching arm (the figure's left, the
/// image's right from the front), and the output file is written.
fn render_reach_changes_only_the_moved_arm() {
    common::needs_gpu();
    let file = common::corpus("x3d/JoeKick.x3d");
    let file = file.to_str().unwrap();
    let rest = json(&["pose", file, "--json"]);
    let wrist = centre(&rest, "l_radiocarpal");
    let target = wrist + Vec3::new(0.15, 0.3, 0.1);
    let reach = format!("l_radiocarpal={},{},{}", target.x, target.y, target.z);
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("rest.png"), dir.path().join("reach.png"));
    for (out, extra) in [(&a, vec![]), (&b, vec!["--reach", reach.as_str()])] {
        let mut args =
            vec!["render", file, "--size", "320x240", "--view", "Scene_IFrontView", "--out", out.to_str().unwrap()];
        args.extend(extra);
        let o = viewer(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let read = |p: &Path| {
        let d = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(p).unwrap()));
        let mut r = d.read_info().unwrap();
        let mut buf = vec![0; r.output_buffer_size().unwrap()];
        let info = r.next_frame(&mut buf).unwrap();
        (info.width, info.height, info.color_type.samples(), buf)
    };
    let (w, h, n, rest_px) = read(&a);
    let (_, _, _, reach_px) = read(&b);
    let mut changed = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let k = ((y * w + x) as usize) * n;
            if (0..3).any(|c| rest_px[k + c].abs_diff(reach_px[k + c]) > 24) {
                changed.push((x, y));
            }
        }
    }
    assert!(changed.len() > 50, "the reach changed {} pixels", changed.len());
    let left_half = changed.iter().filter(|&&(x, _)| x < w / 2 - w / 20).count();
    assert!(left_half * 100 <= changed.len(), "{left_half} of {} changed pixels left of the middle", changed.len());
    let legs = changed.iter().filter(|&&(_, y)| y > h * 3 / 4).count();
    assert!(legs * 100 <= changed.len(), "{legs} changed pixels in the legs");
}

/// `--reach EFFECTOR=X,Y,Z@AX,AY,AZ,ANGLE` also turns the effector's frame: the wrist reaches the point
/// turned a quarter turn about world Z, and the report gives the angle left (degrees); a bad orientation
/// is a clear error.
fn pose_reach_with_an_orientation_turns_the_hand() {
    let file = common::corpus("x3d/JinLOA4.x3d");
    let file = file.to_str().unwrap();
    let rest = json(&["pose", file, "--json"]);
    let target = centre(&rest, "l_radiocarpal") + Vec3::new(-0.1, 0.25, 0.25);
    let reach = format!("l_radiocarpal={},{},{}@0,0,1,1.5708", target.x, target.y, target.z);
    let posed = json(&["pose", file, "--reach", &reach, "--json"]);
    let effector = &posed["reach"][0]["effectors"][0];
    assert!(effector["distance"].as_f64().unwrap() < 1e-3, "{effector}");
    let angle = effector["angle_error_degrees"].as_f64().expect("an angle is reported");
    assert!(angle < 0.5, "{effector}");
    let plain =
        json(&["pose", file, "--reach", &format!("l_radiocarpal={},{},{}", target.x, target.y, target.z), "--json"]);
    assert!(plain["reach"][0]["effectors"][0].get("angle_error_degrees").is_none());
    let bad = viewer(&["pose", file, "--reach", "l_radiocarpal=0,1,0@0,0,0,1", "--json"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("EFFECTOR=X,Y,Z[@AX,AY,AZ,ANGLE]"));
}
