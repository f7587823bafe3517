//! Every input the fuzzers found a fault with (tests/data/fuzz, named `<target>-<kind>-<hash>`) is
//! replayed through the same harness the fuzzer ran (fuzz/harness.rs): none may panic or abort again.

#![allow(dead_code)]

include!("../fuzz/harness.rs");

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
