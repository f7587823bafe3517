//! Portability diagnostics and `repair`: each hand-made file of `tests/data/portability/` gives exactly its
//! code in `check --json`; `repair` fixes every code it claims (the copy no longer has it) without moving
//! the skin (CPU reference within 1e-6), leaves the rest of the file as it was, and leaves the codes it
//! does not fix byte for byte; `check --motion` finds a knee's limit excesses at exactly the frames a
//! synthetic clip breaks it.

mod common;

test_main!(
    each_file_gives_exactly_its_code_and_the_base_file_none,
    check_for_a_player_keeps_what_breaks_it,
    repair_fixes_each_code_it_claims_without_moving_the_skin,
    repair_touches_only_what_it_fixes,
    repair_refuses_classic_files_and_unknown_codes_writing_nothing,
    a_clip_breaking_the_knee_limit_is_reported_at_exactly_those_frames_worst_first,
    a_corpus_skin_with_a_doubled_joints_list_is_found_and_repaired_to_the_original_bytes,
    translation_joints_with_segments_and_sites_become_centres_without_moving_anything,
    repaired_copies_validate_against_the_x3d_4_0_schema
);

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use glam::{Quat, Vec3};
use hanim_viewer::hanim;
use hanim_viewer::pose::Pose;
use hanim_viewer::pose::deform_skin;

fn fixtures() -> Vec<PathBuf> {
    let dir = common::test_data("portability");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("HANIM-") || name.starts_with("X3D-")
        })
        .collect();
    files.sort();
    assert!(files.len() >= 12, "fixtures in {}: {files:?}", dir.display());
    files
}

fn code_of(path: &Path) -> String {
    path.file_stem().unwrap().to_string_lossy().into_owned()
}

fn run(args: &[&str]) -> (i32, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_hanim-viewer")).args(args).output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    (output.status.code().unwrap_or(-1), text)
}

/// The codes `check --json` reports for `path`.
fn codes(path: &Path, extra: &[&str]) -> (i32, BTreeSet<String>) {
    let mut args = vec!["check", "--no-gpu", "--json"];
    args.extend_from_slice(extra);
    let p = path.to_str().unwrap();
    args.push(p);
    let (status, text) = run(&args);
    let json: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let codes = json["findings"].as_array().unwrap().iter().map(|f| f["code"].as_str().unwrap().to_string()).collect();
    (status, codes)
}

fn each_file_gives_exactly_its_code_and_the_base_file_none() {
    for path in fixtures() {
        let (_, found) = codes(&path, &[]);
        assert_eq!(found, BTreeSet::from([code_of(&path)]), "{}", path.display());
    }
    let (status, found) = codes(&common::test_data("portability/clean.x3d"), &[]);
    assert_eq!((status, found), (0, BTreeSet::new()));
}

fn check_for_a_player_keeps_what_breaks_it() {
    let file = common::test_data("portability/HANIM-JOINT-TRANSLATION-NO-CENTER.x3d");
    assert_eq!(codes(&file, &["--for", "castle"]), (1, BTreeSet::from(["HANIM-JOINT-TRANSLATION-NO-CENTER".into()])));
    assert_eq!(codes(&file, &["--for", "x_ite"]), (0, BTreeSet::new()));
    let doubled = common::test_data("portability/HANIM-JOINTS-DUPLICATED.x3d");
    assert_eq!(codes(&doubled, &["--for", "all"]).1, BTreeSet::from(["HANIM-JOINTS-DUPLICATED".into()]));
    assert_eq!(codes(&doubled, &["--for", "x3dom"]), (0, BTreeSet::new()));
}

/// Skin points at a pose given as (joint name, rotation) pairs on top of the file's rest values.
fn skin_at(path: &Path, turns: &[(&str, Quat)]) -> Vec<Vec3> {
    let doc = hanim::load(path).unwrap();
    let h = &doc.humanoids[0];
    let mut pose = Pose::rest(h);
    for (name, q) in turns {
        let j = h.joint_index(name).unwrap();
        pose.rotations[j] *= *q;
    }
    deform_skin(h, &pose).unwrap().points
}

fn max_distance(a: &[Vec3], b: &[Vec3]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(p, q)| p.distance(*q)).fold(0.0, f32::max)
}

/// Codes whose fix changes how the skin deforms away from the rest pose on purpose.
const CHANGE_POSED: &[&str] = &["HANIM-WEIGHTS-SUM"];
/// Codes repair does not fix.
const NOT_REPAIRED: &[&str] = &[
    "HANIM-COORD-EMPTY",
    "HANIM-INFLUENCES-OVER-4",
    "HANIM-VERTEX-UNWEIGHTED",
    "HANIM-SITE-UNDER-JOINT",
    "HANIM-GEOMETRY-UNDER-JOINT",
    "HANIM-SKIN-NO-SKINCOORD",
    "HANIM-UNBOUND-SKIN",
    "HANIM-NO-JOINTS",
];

fn repair_fixes_each_code_it_claims_without_moving_the_skin() {
    let dir = tempfile::tempdir().unwrap();
    let bent = [
        ("l_hip", Quat::from_rotation_x(0.4)),
        ("l_knee", Quat::from_rotation_x(1.1) * Quat::from_rotation_z(0.2)),
        ("humanoid_root", Quat::from_rotation_y(0.3)),
    ];
    for path in fixtures() {
        let code = code_of(&path);
        let out = dir.path().join(format!("{code}.x3d"));
        let (status, text) = run(&["repair", path.to_str().unwrap(), "--out", out.to_str().unwrap()]);
        assert_eq!(status, 0, "{code}: {text}");
        let original = std::fs::read_to_string(&path).unwrap();
        let repaired = std::fs::read_to_string(&out).unwrap();
        if NOT_REPAIRED.contains(&code.as_str()) {
            assert_eq!(repaired, original, "{code}: a code repair does not fix leaves the file as it is");
            assert!(text.contains("0 changes"), "{code}: {text}");
            continue;
        }
        assert!(text.contains(&format!("fixed[{code}]")), "{code}: {text}");
        let (status, found) = codes(&out, &[]);
        assert_eq!((status, found), (0, BTreeSet::new()), "{code}: the repaired copy passes check");
        let rest = max_distance(&skin_at(&path, &[]), &skin_at(&out, &[]));
        assert!(rest <= 1e-6, "{code}: the rest pose moved by {rest}");
        if !CHANGE_POSED.contains(&code.as_str()) {
            let posed = max_distance(&skin_at(&path, &bent), &skin_at(&out, &bent));
            assert!(posed <= 1e-6, "{code}: a bent pose moved by {posed}");
        }
    }
}

fn repair_touches_only_what_it_fixes() {
    let clean = std::fs::read_to_string(common::test_data("portability/clean.x3d")).unwrap();
    let without_meta = |t: &str| t.lines().filter(|l| !l.contains("<meta ")).collect::<Vec<_>>().join("\n");
    let dir = tempfile::tempdir().unwrap();
    // These two files are the base file with one mistake: repaired, they are the base file again.
    for code in ["HANIM-JOINTS-DUPLICATED", "HANIM-DEF-PREFIX"] {
        let path = common::test_data(&format!("portability/{code}.x3d"));
        let out = dir.path().join("out.x3d");
        let (status, text) = run(&["repair", path.to_str().unwrap(), "--out", out.to_str().unwrap()]);
        assert_eq!(status, 0, "{text}");
        assert_eq!(without_meta(&std::fs::read_to_string(&out).unwrap()), without_meta(&clean), "{code}");
    }
    // --only keeps the other fixes out.
    let path = common::test_data("portability/HANIM-JOINTS-DUPLICATED.x3d");
    let out = dir.path().join("only.x3d");
    let args = ["repair", path.to_str().unwrap(), "--out", out.to_str().unwrap(), "--only", "HANIM-WEIGHTS-SUM"];
    let (status, text) = run(&args);
    assert_eq!(status, 0, "{text}");
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&path).unwrap());
}

fn repair_refuses_classic_files_and_unknown_codes_writing_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let wrl = dir.path().join("h.x3dv");
    std::fs::write(
        &wrl,
        "#X3D V4.0 utf8\nPROFILE Immersive\nDEF h HAnimHumanoid { name \"h\" skeleton [ DEF h_humanoid_root HAnimJoint { name \"humanoid_root\" } ] }\n",
    )
    .unwrap();
    let out = dir.path().join("out.x3d");
    let (status, text) = run(&["repair", wrl.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_ne!(status, 0);
    assert!(text.contains("X3D XML files only") && text.contains("classic VRML"), "{text}");
    assert!(!out.exists());
    let clean = common::test_data("portability/clean.x3d");
    let (status, text) =
        run(&["repair", clean.to_str().unwrap(), "--out", out.to_str().unwrap(), "--only", "HANIM-LOA"]);
    assert_ne!(status, 0);
    assert!(text.contains("does not fix"), "{text}");
    assert!(!out.exists());
}

/// The base file with a 10-frame HAnimMotion bending l_knee (limits −0.1 … 2.4 rad about X) to `degrees`.
fn knee_clip(dir: &Path, degrees: &[f32]) -> PathBuf {
    let clean = std::fs::read_to_string(common::test_data("portability/clean.x3d")).unwrap();
    let values: Vec<String> = degrees.iter().map(|d| d.to_string()).collect();
    let motion = format!(
        "      <HAnimMotion DEF='hanim_Fix_kick' name='kick' joints='l_knee' channels='1 Xrotation' values='{}' \
         frameDuration='0.05'/>\n    </HAnimHumanoid>",
        values.join(" ")
    );
    let path = dir.join("kick.x3d");
    std::fs::write(&path, clean.replace("    </HAnimHumanoid>", &motion)).unwrap();
    path
}

fn a_clip_breaking_the_knee_limit_is_reported_at_exactly_those_frames_worst_first() {
    let dir = tempfile::tempdir().unwrap();
    // 2.4 rad = 137.5°, −0.1 rad = −5.73°: frames 2, 4 and 6 break the limits.
    let path = knee_clip(dir.path(), &[0.0, 30.0, 150.0, 60.0, 160.0, 0.0, -20.0, 10.0, 137.0, -5.0]);
    let (status, text) = run(&["check", "--no-gpu", "--json", "--motion", "kick", path.to_str().unwrap()]);
    assert_eq!(status, 1, "{text}");
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let excesses = json["excesses"].as_array().unwrap();
    let frames: Vec<u64> = excesses.iter().map(|e| e["frame"].as_u64().unwrap()).collect();
    assert_eq!(frames, [4, 6, 2], "{text}");
    for e in excesses {
        assert_eq!((e["joint_name"].as_str(), e["axis"].as_u64()), (Some("l_knee"), Some(0)));
        let time = e["time"].as_f64().unwrap();
        assert!((time - 0.05 * e["frame"].as_f64().unwrap()).abs() < 1e-9, "{e}");
    }
    let degrees: Vec<f64> = excesses.iter().map(|e| e["excess"].as_f64().unwrap().to_degrees()).collect();
    let expected = [160.0 - 2.4f64.to_degrees(), -0.1f64.to_degrees() + 20.0, 150.0 - 2.4f64.to_degrees()];
    for (got, want) in degrees.iter().zip(expected) {
        assert!((got - want).abs() < 1e-3, "{degrees:?} vs {expected:?}");
    }
    // The text form says the same, one line per excess, and a clip within its limits exits 0.
    let (_, text) = run(&["check", "--no-gpu", "--motion", "kick", path.to_str().unwrap()]);
    assert!(text.lines().next().unwrap().starts_with("frame 4 (0.200 s): l_knee X 160.0° > ulimit 137.5°"), "{text}");
    let calm = knee_clip(dir.path(), &[0.0, 30.0, 137.0, -5.0]);
    let (status, text) = run(&["check", "--no-gpu", "--motion", "kick", calm.to_str().unwrap()]);
    assert_eq!(status, 0, "{text}");
    let (status, text) = run(&["check", "--no-gpu", "--motion", "walk", calm.to_str().unwrap()]);
    assert_ne!(status, 0);
    assert!(text.contains("no clip named 'walk'") && text.contains("kick"), "{text}");
}

fn a_corpus_skin_with_a_doubled_joints_list_is_found_and_repaired_to_the_original_bytes() {
    // Real auto-rigged files list every joint twice; X_ITE then draws no skin (docs/portability.md).
    let original = std::fs::read_to_string(common::corpus("x3d/JoeKick.x3d")).unwrap();
    let lines: Vec<&str> = original.split('\n').collect();
    let listed: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].contains("containerField='joints'")).collect();
    assert_eq!(listed.len(), 94);
    let (first, last) = (listed[0], *listed.last().unwrap());
    let doubled: Vec<&str> =
        lines[..=last].iter().chain(&lines[first..=last]).chain(&lines[last + 1..]).copied().collect();
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("JoeKick.x3d");
    std::fs::write(&broken, doubled.join("\n")).unwrap();
    // JoeKick itself has a weight list of the wrong length (X_ITE reads NaN there); the doubled list is new.
    let (_, before) = codes(&common::corpus("x3d/JoeKick.x3d"), &["--for", "x_ite"]);
    let (_, found) = codes(&broken, &["--for", "x_ite"]);
    let new: Vec<&String> = found.difference(&before).collect();
    assert_eq!(new, ["HANIM-JOINTS-DUPLICATED"], "{before:?} → {found:?}");
    let out = dir.path().join("repaired.x3d");
    let (status, text) = run(&["repair", broken.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(status, 0, "{text}");
    assert!(text.contains("fixed[HANIM-JOINTS-DUPLICATED] removed 94 repeated"), "{text}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), original);
}

fn translation_joints_with_segments_and_sites_become_centres_without_moving_anything() {
    let path = common::test_data("portability/segments_translation.x3d");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("centres.x3d");
    let (status, text) = run(&["repair", path.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(status, 0, "{text}");
    assert!(text.contains("3 joints placed by center") && text.contains("non-joint children shifted back"), "{text}");
    assert!(!codes(&out, &[]).1.contains("HANIM-JOINT-TRANSLATION-NO-CENTER"));
    let (a, b) = (hanim::load(&path).unwrap(), hanim::load(&out).unwrap());
    let (ha, hb) = (&a.humanoids[0], &b.humanoids[0]);
    for turns in [vec![], vec![("l_hip", Quat::from_rotation_x(-0.7)), ("l_knee", Quat::from_rotation_x(1.2))]] {
        let pose = |h: &hanim::Humanoid| {
            let mut pose = Pose::rest(h);
            for (name, q) in &turns {
                pose.rotations[h.joint_index(name).unwrap()] *= *q;
            }
            pose
        };
        let (pa, pb) = (pose(ha), pose(hb));
        // Segment geometry, rigid with its joint: the bounding box of every Shape.
        let ba = hanim_viewer::pose::bounds::humanoid_bounds(&a.scene, ha, &pa).unwrap();
        let bb = hanim_viewer::pose::bounds::humanoid_bounds(&b.scene, hb, &pb).unwrap();
        assert!(ba.min.distance(bb.min) < 1e-5 && ba.max.distance(bb.max) < 1e-5, "{ba:?} vs {bb:?}");
        // Sites: G_joint · offset · L(site).
        let (ga, gb) =
            (hanim_viewer::pose::humanoid_from_joint(ha, &pa), hanim_viewer::pose::humanoid_from_joint(hb, &pb));
        for (sa, sb) in ha.sites.iter().zip(&hb.sites) {
            let at = |h: &hanim::Humanoid, g: &[glam::Mat4], s: &hanim::Site| {
                let joint = hanim::site_joint(h, s).unwrap();
                (g[joint] * s.offset * s.transform.matrix()).transform_point3(Vec3::ZERO)
            };
            let (pa, pb) = (at(ha, &ga, sa), at(hb, &gb, sb));
            assert!(pa.distance(pb) < 1e-6, "site {}: {pa} vs {pb}", sa.name);
        }
    }
}

/// Which of `files` xmllint finds valid against the X3D 4.0 schema; `None` without xmllint or the
/// schemas beside the project.
fn schema_valid(files: &[PathBuf]) -> Option<Vec<bool>> {
    let log = common::schema::xmllint_report(&common::schema::schemas_dir()?, files)?;
    Some(files.iter().map(|f| log.lines().any(|l| l == format!("{} validates", f.display()))).collect())
}

/// Every fixture that validates against the X3D 4.0 schema still validates once repaired: what repair
/// adds (a component statement first in the head, `joints` entries, DEF names) keeps the schema's order.
fn repaired_copies_validate_against_the_x3d_4_0_schema() {
    let originals = fixtures();
    let Some(valid) = schema_valid(&originals) else {
        common::harness::skip("xmllint or ../shared/schemas/x3d-4.0.xsd not found");
    };
    let dir = tempfile::tempdir().unwrap();
    let mut repaired = Vec::new();
    for (path, _) in originals.iter().zip(&valid).filter(|(_, v)| **v) {
        let out = dir.path().join(format!("{}.x3d", code_of(path)));
        let (status, text) = run(&["repair", path.to_str().unwrap(), "--out", out.to_str().unwrap()]);
        assert_eq!(status, 0, "{}: {text}", code_of(path));
        repaired.push(out);
    }
    assert!(repaired.len() >= 10, "only {} fixtures validate against the schema", repaired.len());
    for (out, ok) in repaired.iter().zip(schema_valid(&repaired).unwrap()) {
        assert!(ok, "{}: the repaired copy breaks the schema", out.display());
    }
    // The component fixture has no component statement to begin with: repaired, it has one, first.
    let text = std::fs::read_to_string(dir.path().join("X3D-HANIM-COMPONENT.x3d")).unwrap();
    let head = &text[text.find("<head>").unwrap() + "<head>".len()..text.find("</head>").unwrap()];
    assert!(head.trim_start().starts_with("<component name='HAnim' level='1'/>"), "{head}");
}
