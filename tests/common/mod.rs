//! Helpers shared by the integration tests.
#![allow(dead_code)] // each test binary uses its own subset

pub mod by_hand;
pub mod harness;
pub mod image_compare;
pub mod offscreen;
pub mod peak;
pub mod scene_compare;
pub mod schema;
pub mod window;

use std::path::{Path, PathBuf};

use hanim_viewer::gpu::GpuContext;

/// Corpus files whose licences do not clearly allow redistribution: they are not in `tests/corpus/`
/// (see its `MANIFEST.md`) and are found only in `$HANIM_CORPUS` or `../shared/corpus`.
pub const NOT_VENDORED: &[&str] = &[
    "x3d/NancyNativeTags.x3d",
    "x3d/DiamondManLOA2.x3d",
    "x3d/small_logo.gif",
    "vrml/nancy_h-anim.wrl",
    "vrml/small_logo.gif",
    "vrml/SphereMan_1.1.wrl",
    "vrml/dork-proto.wrl",
];

/// Where corpus files are looked up, in this order: the repository's `tests/corpus/`, `$HANIM_CORPUS`
/// (when set), then the team's shared corpus `../shared/corpus` beside the project.
pub fn corpus_roots() -> Vec<PathBuf> {
    let project = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut roots = vec![project.join("tests/corpus")];
    if let Some(dir) = std::env::var_os("HANIM_CORPUS").filter(|d| !d.is_empty()) {
        roots.push(PathBuf::from(dir));
    }
    roots.push(project.join("../shared/corpus"));
    roots
}

/// The first root holding `relative` (a file or a folder), if any.
pub fn find_corpus(relative: &str) -> Option<PathBuf> {
    corpus_roots().into_iter().map(|root| root.join(relative)).find(|p| p.exists())
}

/// A corpus file (or folder) that a test needs. Files in `tests/corpus/` are always found; a test that
/// needs one of [`NOT_VENDORED`] first calls [`needs_corpus`], so that an absent file skips it.
pub fn corpus(relative: &str) -> PathBuf {
    find_corpus(relative).unwrap_or_else(|| {
        panic!(
            "corpus file {relative} not found in {:?} (a test that needs a file outside tests/corpus must call \
             common::needs_corpus first)",
            corpus_roots()
        )
    })
}

/// The running test's name: the one [`harness`] runs on this thread, else the thread's (libtest names
/// each test's thread after it).
pub fn test_name() -> String {
    if let Some(name) = harness::running_test() {
        return name.to_string();
    }
    match std::thread::current().name() {
        Some(name) if name != "main" => name.to_string(),
        _ => "(test)".to_string(),
    }
}

/// Where to get a corpus file that is not found.
fn not_found(file: &str) -> String {
    format!("{file} not found (set HANIM_CORPUS or put the shared corpus beside the project as ../shared)")
}

/// Skips the running test ([`harness::skip`]) unless every listed corpus file can be found; under
/// `CI=true` a missing file fails it.
///
/// ```ignore
/// common::needs_corpus(&["x3d/NancyNativeTags.x3d"]);
/// ```
pub fn needs_corpus(files: &[&str]) {
    if let Some(missing) = files.iter().find(|f| find_corpus(f).is_none()) {
        harness::skip(not_found(missing));
    }
}

/// Whether one file of a test's list can be found. A file in `tests/corpus/` must be: its absence fails
/// the test. One of [`NOT_VENDORED`] may be absent outside CI: the test goes on with the other files of
/// its list, and is reported as having run without it ([`harness::partly`]).
pub fn corpus_listed(file: &str) -> bool {
    if find_corpus(file).is_some() {
        return true;
    }
    assert!(
        NOT_VENDORED.contains(&file),
        "{file} is not in tests/corpus, where every file outside common::NOT_VENDORED must be"
    );
    harness::partly(not_found(file));
    false
}

/// The corpus files of `folder` ("x3d", "vrml", …) that cannot be found anywhere.
pub fn corpus_missing(folder: &str) -> Vec<&'static str> {
    let prefix = format!("{}/", folder.trim_end_matches('/'));
    NOT_VENDORED.iter().copied().filter(|f| f.starts_with(&prefix) && find_corpus(f).is_none()).collect()
}

/// A whole corpus folder, for tests that read or catalogue every file in it: the first root whose
/// `folder` holds every file of the shared corpus's folder. Without one (a bare clone), the repository's
/// folder: the test runs on the files that are there and is reported as having run without the others
/// ([`harness::partly`]; under `CI=true`: a failure).
pub fn corpus_folder(folder: &str) -> PathBuf {
    let prefix = format!("{}/", folder.trim_end_matches('/'));
    let wanted: Vec<&str> = NOT_VENDORED.iter().copied().filter(|f| f.starts_with(&prefix)).collect();
    let roots = corpus_roots();
    if let Some(root) = roots.iter().find(|r| r.join(folder).is_dir() && wanted.iter().all(|f| r.join(f).exists())) {
        return root.join(folder);
    }
    // Textures (Nancy's logo) go with a scene file that is reported already.
    for file in corpus_missing(folder).into_iter().filter(|f| !f.ends_with(".gif")) {
        harness::partly(not_found(file));
    }
    roots[0].join(folder)
}

pub fn test_data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

/// A GPU context on the first adapter; without one the running test is skipped ([`harness::skip`]; under
/// `CI=true` it fails: CI must never pass without running the GPU path).
pub fn gpu() -> GpuContext {
    match GpuContext::headless(None) {
        Ok(ctx) => ctx,
        Err(e) => harness::skip(format!("no GPU adapter: {e} (install mesa-vulkan-drivers for lavapipe)")),
    }
}

/// Skips the running test, as [`gpu`] does, when no GPU adapter can be used (for tests that reach the
/// GPU through the binary or a library call of their own).
pub fn needs_gpu() {
    drop(gpu());
}

/// A device on the real adapter with `limits` lower than the adapter's own, to play a small GPU (skipped
/// as [`gpu`] is when there is no adapter).
pub fn small_device(limits: wgpu::Limits) -> GpuContext {
    needs_gpu();
    GpuContext::headless_with_limits(None, limits).expect("a device with lower limits than the adapter's")
}

/// A GPU context when there is an adapter. Without one the test goes on without the parts that need it,
/// and is reported as having run without it ([`harness::partly`]; under `CI=true`: a failure).
pub fn gpu_if_any(without: &str) -> Option<GpuContext> {
    match GpuContext::headless(None) {
        Ok(ctx) => Some(ctx),
        Err(e) => {
            harness::partly(format!("a GPU adapter ({e}): {without}"));
            None
        }
    }
}
