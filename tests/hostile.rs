//! Hostile inputs, generated on the fly: each gives a clear error or a warning with a sane fallback,
//! within bounded memory and time, and never a panic.
//!
//! Memory bound (documented in docs/guide/robustness.md): loading a file peaks at no more than 3 × its size + 128 MiB
//! of resident memory (the text is read whole, the parsed numbers take about as much again).

mod common;

use std::io::Write;
use std::path::Path;
use std::process::Command;

use hanim_viewer::hanim;

/// 100,000 nested joints: the loader, the model and the CPU reference use explicit stacks.
#[test]
fn a_hundred_thousand_nested_joints_load() {
    const DEPTH: usize = 100_000;
    let mut text = String::from("<X3D version='4.0'><Scene><HAnimHumanoid DEF='h' name='h'>\n");
    for i in 0..DEPTH {
        let container = if i == 0 { " containerField='skeleton'" } else { "" };
        text.push_str(&format!("<HAnimJoint DEF='j{i}' name='j{i}'{container}>"));
    }
    text.push_str(&"</HAnimJoint>".repeat(DEPTH));
    text.push_str("</HAnimHumanoid></Scene></X3D>\n");
    let doc = hanim::load_str(&text, Path::new("deep.x3d")).expect("a deep chain is valid");
    let h = &doc.humanoids[0];
    assert_eq!(h.joints.len(), DEPTH);
    let pose = hanim_viewer::pose::Pose::rest(h);
    let g = hanim_viewer::pose::humanoid_from_joint(h, &pose);
    assert_eq!(g.len(), DEPTH);
}

/// 100,000 nested Groups that never close: a positioned error, not a stack overflow.
#[test]
fn a_hundred_thousand_unclosed_groups_fail_with_a_position() {
    let text = format!("<X3D version='4.0'><Scene>{}", "<Group>".repeat(100_000));
    let e = hanim::load_str(&text, Path::new("unclosed.x3d")).expect_err("unclosed elements");
    let message = e.to_string();
    assert!(message.starts_with("unclosed.x3d:1:"), "{message}");
}

/// A 10,000,000-element MFInt32 (and its MFFloat weights): loads, with the duplicate entries merged and
/// warned about.
#[test]
fn a_ten_million_element_mf_field_loads() {
    const N: usize = 10_000_000;
    let mut indices = String::with_capacity(N * 2);
    let mut weights = String::with_capacity(N * 4);
    for i in 0..N {
        indices.push_str(["0 ", "1 ", "2 "][i % 3]);
        weights.push_str("0.5 ");
    }
    let text = format!(
        "<X3D version='4.0'><Scene><HAnimHumanoid DEF='h' name='h'>\
         <HAnimJoint DEF='r' name='humanoid_root' containerField='skeleton' skinCoordIndex='{indices}' \
         skinCoordWeight='{weights}'/><HAnimJoint USE='r' containerField='joints'/>\
         <Coordinate containerField='skinCoord' point='0 0 0, 1 1 1, 2 2 2'/></HAnimHumanoid></Scene></X3D>"
    );
    let doc = hanim::load_str(&text, Path::new("huge_mf.x3d")).expect("valid");
    let h = &doc.humanoids[0];
    assert_eq!(h.joints[0].skin_coord_index.len(), N);
    let skin = h.skin.as_ref().expect("a skin");
    assert_eq!(skin.points.len(), 3);
    assert!(!doc.warnings.is_empty(), "repeated entries are warned about");
}

/// Indices near i32::MAX in skin, displacer and face index fields: warned and skipped, no huge
/// allocation.
#[test]
fn indices_near_i32_max_are_skipped_with_warnings() {
    let text = "<X3D version='4.0'><Scene><HAnimHumanoid DEF='h' name='h'>\
        <HAnimJoint DEF='r' name='humanoid_root' containerField='skeleton' skinCoordIndex='0 2147483647 2147483646' \
        skinCoordWeight='1 1 1'>\
        <HAnimDisplacer name='d_feature' containerField='displacers' weight='1' coordIndex='2147483647 0' \
        displacements='1 1 1, 0 0 1'/>\
        <HAnimSegment name='sacrum'><Shape><IndexedFaceSet coordIndex='0 1 2147483647 -1 0 1 2 -1'>\
        <Coordinate point='0 0 0, 1 0 0, 0 1 0'/></IndexedFaceSet></Shape></HAnimSegment></HAnimJoint>\
        <HAnimJoint USE='r' containerField='joints'/>\
        <Coordinate containerField='skinCoord' point='0 0 0, 1 1 1'/></HAnimHumanoid></Scene></X3D>";
    let doc = hanim::load_str(text, Path::new("max_index.x3d")).expect("loads with warnings");
    let h = &doc.humanoids[0];
    let warnings: Vec<String> = doc.warnings.iter().map(|w| w.to_string()).collect();
    assert!(warnings.iter().any(|w| w.contains("2 skinCoordIndex entries outside 0..2")), "{warnings:#?}");
    // `check` names the displacer's and the face set's out-of-range indices.
    let report = hanim_viewer::inspect::check::check(&doc).render_text();
    assert!(report.contains("2147483647"), "{report}");
    let skin = hanim_viewer::pose::deform_skin(h, &hanim_viewer::pose::Pose::rest(h)).expect("a skin");
    assert_eq!(skin.points.len(), 2);
    assert!(skin.points.iter().all(|p| p.is_finite()));
    // The displacer's valid entry still applies (point 0 moves by (0 0 1)), the out-of-range one is dropped.
    assert!((skin.points[0] - glam::Vec3::new(0.0, 0.0, 1.0)).length() < 1e-6, "{:?}", skin.points[0]);
}

/// Nested DTD entities ("billion laughs"): never expanded, a positioned error at the first reference.
#[test]
fn nested_dtd_entities_are_never_expanded() {
    let mut text = String::from("<?xml version='1.0'?>\n<!DOCTYPE X3D [\n<!ENTITY a0 'lol'>\n");
    for i in 1..10 {
        let refs = format!("&a{};", i - 1).repeat(10);
        text.push_str(&format!("<!ENTITY a{i} '{refs}'>\n"));
    }
    text.push_str("]>\n<X3D version='4.0'><Scene><WorldInfo title='&a9;'/></Scene></X3D>\n");
    let e = hanim::load_str(&text, Path::new("laughs.x3d")).expect_err("entities are not supported");
    let message = e.to_string();
    assert!(message.starts_with("laughs.x3d:14:"), "{message}");
    assert!(message.len() < 1000, "the message does not carry an expansion: {} bytes", message.len());
}

/// A 500 MB humanoid (24 million skin points): `info` loads it within the memory bound.
#[test]
fn a_500_megabyte_file_loads_within_the_memory_bound() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.x3d");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    write!(
        file,
        "<X3D version='4.0'><Scene><HAnimHumanoid DEF='h' name='h'>\n\
         <HAnimJoint DEF='r' name='humanoid_root' containerField='skeleton' skinCoordIndex='0 1 2' \
         skinCoordWeight='1 1 1'/>\n<HAnimJoint USE='r' containerField='joints'/>\
         <Coordinate containerField='skinCoord' point='"
    )
    .unwrap();
    let mut chunk = String::new();
    for i in 0..100_000 {
        chunk.push_str(&format!("{:.4} 1.0000 0.5000 ", i as f32 * 0.001));
    }
    let target: u64 = 500 * 1000 * 1000;
    let mut written = 0u64;
    let mut points = 0u64;
    while written < target {
        file.write_all(chunk.as_bytes()).unwrap();
        written += chunk.len() as u64;
        points += 100_000;
    }
    file.write_all(b"'/></HAnimHumanoid></Scene></X3D>\n").unwrap();
    file.flush().unwrap();
    drop(file);
    let size = std::fs::metadata(&path).unwrap().len();

    let (status, peak, output) =
        common::peak::run_and_measure_peak(Command::new(env!("CARGO_BIN_EXE_hanim-viewer")).arg("info").arg(&path));
    assert!(status.success(), "{output}");
    assert!(output.contains(&format!("skin points: {points}")), "{output}");
    let bound = 3 * size + (128 << 20);
    eprintln!("{size} bytes, {points} points: peak {} MiB (bound {} MiB)", peak >> 20, bound >> 20);
    assert!(peak <= bound, "peak resident memory {peak} bytes exceeds 3 x {size} + 128 MiB");
}

/// A motion whose `values` do not fill whole frames is reported with the expected and actual counts.
#[test]
fn motion_values_of_the_wrong_length_are_reported() {
    let doc = hanim::load(&common::test_data("bad/motion_values_not_multiple.x3d"));
    let message = match doc {
        Ok(doc) => doc.warnings.iter().map(|w| w.to_string()).collect::<Vec<_>>().join("\n"),
        Err(e) => e.to_string(),
    };
    assert!(message.contains("values"), "{message}");
}
