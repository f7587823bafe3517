//! The test files and their runners agree: a file whose tests may be unable to run on some machine is
//! built without Rust's runner (Cargo.toml's `[[test]] harness = false`) and lists its tests with
//! `test_main!`, so that a test that did not run is reported ignored; and such a file has no `#[test]`,
//! which Rust would drop from it without a word.

use std::collections::BTreeSet;
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The names of the `[[test]]` targets that Cargo.toml builds with `harness = false`.
fn harnessless() -> BTreeSet<String> {
    let manifest: toml::Table = std::fs::read_to_string(Path::new(ROOT).join("Cargo.toml")).unwrap().parse().unwrap();
    manifest["test"]
        .as_array()
        .expect("[[test]] entries")
        .iter()
        .filter(|t| t.get("harness").and_then(|h| h.as_bool()) == Some(false))
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

/// Each test file (`tests/NAME.rs`) with its text.
fn test_files() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(Path::new(ROOT).join("tests"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    files.sort();
    files
}

/// Calls that skip the running test, or note what it ran without, through tests/common/harness.rs.
const SKIPPING: &[&str] = &[
    "common::gpu()",
    "common::gpu_if_any(",
    "common::needs_gpu()",
    "common::small_device(",
    "common::needs_corpus(",
    "corpus_listed(",
    "corpus_folder(",
    "harness::skip(",
    "harness::partly(",
    "common::window::",
];

#[test]
fn files_that_can_skip_run_on_the_harness_and_list_every_test() {
    let listed = harnessless();
    let files = test_files();
    let names: BTreeSet<String> = files.iter().map(|(n, _)| n.clone()).collect();
    assert!(listed.is_subset(&names), "Cargo.toml lists missing files: {:?}", listed.difference(&names));
    for (name, text) in files.iter().filter(|(n, _)| n != "test_wiring") {
        let skips = SKIPPING.iter().find(|call| text.contains(*call));
        let on_harness = listed.contains(name);
        if let Some(call) = skips {
            assert!(on_harness, "tests/{name}.rs calls {call} but is not a harness = false [[test]] in Cargo.toml");
        }
        assert_eq!(
            on_harness,
            text.lines().any(|l| l.starts_with("test_main!(")),
            "tests/{name}.rs: harness = false in Cargo.toml exactly when the file has test_main!(…)"
        );
        if on_harness {
            assert!(!text.contains("#[test]"), "tests/{name}.rs runs on the harness: a #[test] there never runs");
        }
    }
    // The check looks at something: the GPU and window files are on the harness.
    assert!(listed.contains("render") && listed.contains("window_e2e") && listed.len() >= 40, "{listed:?}");
}
