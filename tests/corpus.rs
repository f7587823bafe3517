//! Every X3D humanoid of the corpus loads, its counts match `tests/corpus/COUNTS.md` (the shared corpus's
//! `MANIFEST.md` table, measured there by an independent script), the zero pose reproduces the binding skin
//! points, and `info` / `check` run on it.

mod common;

test_main!(
    every_corpus_file_loads_and_matches_the_manifest,
    korean_motion_has_the_manifest_frames_and_channels,
    hanimmotion_container_field_defaults,
    zero_pose_reproduces_binding_points_for_every_skinned_file,
    rest_pose_of_a_rotated_skeleton_moves_the_skin,
    info_and_check_run_on_every_corpus_file,
    check_exit_codes_and_findings_on_known_files,
    info_reports_a_plausible_rest_bbox,
    a_file_that_fails_to_load_exits_non_zero_with_position,
    check_reports_gpu_agreement_for_skinned_files
);

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

use hanim_viewer::hanim::{self, DisplacerOwner};
use hanim_viewer::pose::{self, Pose};

/// The corpus X3D files: all 18 (the shared corpus), or those in the repository, the test then
/// reported as having run without the others (see `common::corpus_folder`; under `CI=true` an absent file fails).
fn x3d_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(common::corpus_folder("x3d"))
        .expect("the corpus x3d folder")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "x3d"))
        .collect();
    files.sort();
    let absent = common::corpus_missing("x3d").iter().filter(|f| f.ends_with(".x3d")).count();
    assert!(files.len() + absent >= 18, "expected the 18 corpus X3D files, found {} (+{absent} absent)", files.len());
    files
}

/// One row of the counts table, by column name.
fn manifest_rows() -> HashMap<String, HashMap<String, String>> {
    let text = std::fs::read_to_string(common::corpus("COUNTS.md")).unwrap();
    let mut lines = text.lines().filter(|l| l.starts_with('|'));
    let split = |l: &str| -> Vec<String> {
        l.trim().trim_matches('|').split(" | ").map(|c| c.trim().to_string()).collect::<Vec<_>>()
    };
    let header = split(lines.next().unwrap());
    let mut rows = HashMap::new();
    for line in lines {
        let cells = split(line);
        if cells.len() != header.len() || !cells[0].ends_with(".x3d") {
            continue;
        }
        rows.insert(cells[0].clone(), header.iter().cloned().zip(cells).collect());
    }
    rows
}

fn leading_number(cell: &str) -> usize {
    cell.split(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap()
        .parse()
        .unwrap_or_else(|_| panic!("no number in '{cell}'"))
}

fn every_corpus_file_loads_and_matches_the_manifest() {
    let rows = manifest_rows();
    for path in x3d_files() {
        let key = format!("x3d/{}", path.file_name().unwrap().to_string_lossy());
        let row = rows.get(&key).unwrap_or_else(|| panic!("{key} is not in COUNTS.md"));
        let doc = hanim::load(&path).unwrap_or_else(|e| panic!("{key}: {e}"));
        let col = |name: &str| leading_number(&row[name]);
        let all_motions = doc.scene.nodes.iter().filter(|n| n.type_name == "HAnimMotion").count();
        assert_eq!(all_motions, col("#HAnimMotion (frames, channels)"), "{key}: motions");
        if col("#HAnimJoint") == 0 {
            // hanimmotion_containerfield.x3d: an empty humanoid.
            assert!(doc.humanoids.iter().all(|h| h.joints.is_empty()), "{key}");
            continue;
        }
        assert_eq!(doc.humanoids.len(), 1, "{key}: one humanoid");
        let h = &doc.humanoids[0];
        assert_eq!(h.joints.len(), col("#HAnimJoint"), "{key}: joints");
        assert_eq!(h.segments.len(), col("#HAnimSegment"), "{key}: segments");
        assert_eq!(h.sites.len(), col("#HAnimSite"), "{key}: sites");
        assert_eq!(
            h.sites.iter().filter(|s| s.in_viewpoints).count(),
            col("#viewpoint sites"),
            "{key}: viewpoint sites"
        );
        assert_eq!(h.skin.as_ref().map_or(0, |s| s.points.len()), col("#skinCoord points"), "{key}: skin points");
        assert_eq!(
            h.joints.iter().filter(|j| !j.skin_coord_index.is_empty()).count(),
            col("#joints with skin weights"),
            "{key}: weighted joints"
        );
        let (on_joints, on_segments) = row["#HAnimDisplacer (joint/segment)"].split_once('/').unwrap();
        let joint_displacers = h.displacers.iter().filter(|d| matches!(d.owner, DisplacerOwner::Joint(_))).count();
        assert_eq!(joint_displacers, leading_number(on_joints), "{key}: joint displacers");
        assert_eq!(h.displacers.len() - joint_displacers, leading_number(on_segments), "{key}: segment displacers");
        // Parent-before-child order.
        for (j, joint) in h.joints.iter().enumerate() {
            assert!(joint.parent.is_none_or(|p| p < j), "{key}: joint {j} comes before its parent");
        }
    }
}

fn korean_motion_has_the_manifest_frames_and_channels() {
    let doc = hanim::load(&common::corpus("x3d/KoreanCharacterMotionAnnexD01Jin.x3d")).unwrap();
    let m = &doc.humanoids[0].motions;
    assert_eq!(m.len(), 1);
    assert_eq!((m[0].frame_count, m[0].channel_count), (392, 57));
    assert_eq!(m[0].def.as_deref(), Some("hanim_motion_animation"));
}

fn hanimmotion_container_field_defaults() {
    let doc = hanim::load(&common::corpus("x3d/hanimmotion_containerfield.x3d")).unwrap();
    // Inside HAnimHumanoid the default containerField is `motions`; elsewhere it is `children`.
    assert_eq!(doc.humanoids[0].motions.len(), 1);
    let in_children = doc
        .scene
        .nodes
        .iter()
        .flat_map(|n| &n.children)
        .filter(|c| c.field == "children" && doc.scene.node(c.node).type_name == "HAnimMotion");
    assert_eq!(in_children.count(), 1, "the HAnimMotion inside a Group is a child");
    let at_root = doc.scene.roots.iter().filter(|&&r| doc.scene.node(r).type_name == "HAnimMotion").count();
    assert_eq!(at_root, 1);
}

fn zero_pose_reproduces_binding_points_for_every_skinned_file() {
    let mut skinned = 0;
    for path in x3d_files() {
        let doc = hanim::load(&path).unwrap();
        for h in &doc.humanoids {
            let Some(skin) = &h.skin else { continue };
            if skin.influences.entries.is_empty() {
                continue;
            }
            skinned += 1;
            let deformed = pose::deform_skin(h, &Pose::zero(h)).unwrap();
            assert_eq!(deformed.points.len(), skin.points.len());
            for (i, (a, b)) in deformed.points.iter().zip(&skin.points).enumerate() {
                assert!((*a - *b).abs().max_element() <= 1e-6, "{}: point {i}: {a} vs {b}", path.display());
            }
        }
    }
    assert!(skinned >= 4, "expected the four weighted skins of the corpus, found {skinned}");
}

fn rest_pose_of_a_rotated_skeleton_moves_the_skin() {
    // BvhSeamless3dExport1's joints carry the first animation frame as rest rotations: at rest the skin is
    // deformed, and a zero pose brings it back. This guards against a reference that ignores rotations.
    let doc = hanim::load(&common::corpus("x3d/BvhSeamless3dExport1.x3d")).unwrap();
    let h = &doc.humanoids[0];
    let rest = pose::deform_skin(h, &Pose::rest(h)).unwrap();
    let moved = rest.points.iter().zip(&h.skin.as_ref().unwrap().points).filter(|(a, b)| (**a - **b).length() > 1e-3);
    assert!(moved.count() > 1000);
}

fn run_cli(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hanim-viewer")).args(args).output().expect("the binary runs")
}

fn info_and_check_run_on_every_corpus_file() {
    for path in x3d_files() {
        let p = path.to_str().unwrap();
        let out = run_cli(&["info", p]);
        assert!(out.status.success(), "info {p}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("joints:") && text.contains("warnings:"), "{p}: {text}");

        let out = run_cli(&["info", "--json", p]);
        assert!(out.status.success());
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        for key in ["file", "x3d_version", "humanoids", "warnings"] {
            assert!(json.get(key).is_some(), "{p}: key {key}");
        }
        for h in json["humanoids"].as_array().unwrap() {
            for key in ["name", "version", "loa", "info", "counts", "motions", "rest_bbox"] {
                assert!(h.get(key).is_some(), "{p}: humanoid key {key}");
            }
        }

        let out = run_cli(&["check", "--json", p]);
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let errors = report["errors"].as_u64().unwrap();
        assert_eq!(out.status.code(), Some(if errors == 0 { 0 } else { 1 }), "{p}: check exit code");
    }
}

fn check_exit_codes_and_findings_on_known_files() {
    let dir = common::corpus("x3d");
    // A clean LOA-1 figure.
    let out = run_cli(&["check", dir.join("JinLOA1.x3d").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    // BvhSeamless3dExport1: unnamed humanoid, BASIC skeleton whose rest pose is rotated.
    let out = run_cli(&["check", dir.join("BvhSeamless3dExport1.x3d").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("error[humanoid-name]") && text.contains("error[rest-pose]"), "{text}");
    assert!(text.contains("warning[standard-joint-name]"), "{text}");
    // JoeKick: the DEF of l_acromioclavicular is Joe_l_sternoclavicular, so l_sternoclavicular is missing.
    let out = run_cli(&["check", dir.join("JoeKick.x3d").to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Joe_l_sternoclavicular (name l_acromioclavicular)"), "{text}");
}

fn info_reports_a_plausible_rest_bbox() {
    let out = run_cli(&["info", "--json", common::corpus("x3d/JoeKick.x3d").to_str().unwrap()]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let size = &json["humanoids"][0]["rest_bbox"]["size"];
    let height = size[1].as_f64().unwrap();
    assert!((1.6..1.9).contains(&height), "Joe is about 1.77 m tall, got {height}");
}

fn a_file_that_fails_to_load_exits_non_zero_with_position() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.x3d");
    std::fs::write(&bad, "<X3D><Scene>\n<HAnimHumanoid>\n<HAnimJoint center='1 x 3'/>\n</HAnimHumanoid></Scene></X3D>")
        .unwrap();
    let out = run_cli(&["info", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("bad.x3d:3:23") && err.contains("SFVec3f value 'x'") && err.contains("center"), "{err}");
}

fn check_reports_gpu_agreement_for_skinned_files() {
    let out = run_cli(&["check", "--json", common::corpus("x3d/BvhSeamless3dExport1.x3d").to_str().unwrap()]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    match report["gpu_adapter"].as_str() {
        Some(adapter) => {
            let error = report["gpu_max_error"].as_f64().expect("gpu_max_error beside gpu_adapter");
            eprintln!("GPU agreement on {adapter}: {error:e}");
            assert!(error <= 1e-5, "GPU/CPU disagreement {error}");
            assert!(!report["findings"].as_array().unwrap().iter().any(|f| f["rule"] == "gpu-agreement"));
        }
        None => common::harness::partly("a GPU adapter (check found none): the agreement was not checked"),
    }
    // A file with nothing to deform does not start the GPU.
    let out = run_cli(&["check", "--json", common::corpus("x3d/JinLOA1.x3d").to_str().unwrap()]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(report["gpu_max_error"].is_null());
}
