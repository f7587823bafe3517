//! Every input the fuzzers found a fault with (tests/data/fuzz, named `<target>-<kind>-<hash>`) is
//! replayed through the same harness the fuzzer ran (fuzz/harness.rs): none may panic or abort again.

#![allow(dead_code)]

include!("../fuzz/harness.rs");

mod common;

use std::path::Path;

#[test]
fn every_fuzzer_finding_is_fixed() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz");
    let mut replayed = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let data = std::fs::read(&path).unwrap();
        if name.starts_with("load_document-") {
            fuzz_load_document(&data);
        } else if name.starts_with("motion_channels-") {
            fuzz_motion_channels(&data);
        } else if name.starts_with("mocap_files-") {
            fuzz_mocap_files(&data);
        } else if name.starts_with("references-") {
            fuzz_references(&data);
        } else if name.starts_with("compressed_input-") {
            fuzz_compressed_input(&data);
        } else if name.starts_with("json_document-") {
            fuzz_json_document(&data);
        } else if name.starts_with("pose_files-") {
            fuzz_pose_files(&data);
        } else if name.starts_with("scripts-") {
            fuzz_scripts(&data);
        } else if name.starts_with("mappings-") {
            fuzz_mappings(&data);
        } else if name.starts_with("manifests-") {
            fuzz_manifests(&data);
        } else {
            panic!("{name}: not named after a fuzz target");
        }
        replayed += 1;
    }
    assert!(replayed >= 1, "the findings folder is empty");
}

#[test]
fn a_huge_channel_count_is_an_error_not_an_allocation() {
    let e = hanim_viewer::animation::motion::parse_channels("2226741226735498126 Xrotation").unwrap_err();
    assert!(e.contains("announces 2226741226735498126 channels but the string ends after 1"), "{e}");
}

#[test]
fn the_mocap_harness_runs_on_the_malformed_captures_and_corpus_heads() {
    // The third fuzz target's body on its seeds: every malformed capture of tests/data/bad_mocap, and
    // the first 4 KiB of each corpus capture (an ASF joined to its AMC by a 0x00).
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bad_mocap");
    let mut inputs = 0;
    for entry in std::fs::read_dir(&data).unwrap() {
        fuzz_mocap_files(&std::fs::read(entry.unwrap().path()).unwrap());
        inputs += 1;
    }
    let head = |p: &str| {
        let mut bytes = std::fs::read(common::corpus(p)).unwrap();
        bytes.truncate(4096);
        bytes
    };
    let mut joined = std::fs::read(common::corpus("asf/07.asf")).unwrap();
    joined.push(0);
    joined.extend(head("asf/07_05.amc"));
    fuzz_mocap_files(&joined);
    fuzz_mocap_files(&head("bvh/01_01.bvh"));
    inputs += 2;
    assert!(inputs >= 20, "{inputs} inputs");
}

#[test]
fn the_reference_and_compressed_input_harnesses_run_on_their_seeds() {
    // The fourth and fifth targets' bodies on their seeds: url lists with failing entries (the harness
    // asserts that no message quotes its secret file), gzip cut and corrupted, UTF-16 and 8-bit text.
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut inputs = 0;
    for (folder, harness) in
        [("seeds_references", fuzz_references as fn(&[u8])), ("seeds_compressed", fuzz_compressed_input)]
    {
        for entry in std::fs::read_dir(fuzz.join(folder)).unwrap() {
            harness(&std::fs::read(entry.unwrap().path()).unwrap());
            inputs += 1;
        }
    }
    assert!(inputs >= 40, "{inputs} inputs");
}

#[test]
fn the_input_harnesses_run_on_their_seeds() {
    // The pose file, script, mapping and manifest targets' bodies on their seeds: real files written by the
    // program, every script step, placeholders, and manifests with `<script>` in a name or a path that
    // climbs out (the manifest harness asserts that no string becomes markup).
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut inputs = 0;
    for (folder, harness, at_least) in [
        ("seeds_pose", fuzz_pose_files as fn(&[u8]), 4),
        ("seeds_scripts", fuzz_scripts, 3),
        ("seeds_mappings", fuzz_mappings, 3),
        ("seeds_manifests", fuzz_manifests, 5),
    ] {
        let mut here = 0;
        for entry in std::fs::read_dir(fuzz.join(folder)).unwrap() {
            harness(&std::fs::read(entry.unwrap().path()).unwrap());
            here += 1;
        }
        assert!(here >= at_least, "{folder}: {here} seeds");
        inputs += here;
    }
    assert!(inputs >= 15, "{inputs} inputs");
}
