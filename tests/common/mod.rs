//! Helpers shared by the integration tests.
#![allow(dead_code)] // each test binary uses its own subset

pub mod by_hand;
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
/// needs one of [`NOT_VENDORED`] first asks [`corpus_has`], so that an absent file skips it loudly.
pub fn corpus(relative: &str) -> PathBuf {
    find_corpus(relative).unwrap_or_else(|| {
        panic!(
            "corpus file {relative} not found in {:?} (a test that needs a file outside tests/corpus must call \
             common::corpus_has first)",
            corpus_roots()
        )
    })
}

/// The running test's name (libtest names each test's thread after it).
pub fn test_name() -> String {
    match std::thread::current().name() {
        Some(name) if name != "main" => name.to_string(),
        _ => "(test)".to_string(),
    }
}

/// Reports a corpus file that cannot be found: under `CI=true` the test fails (CI has the whole corpus);
/// elsewhere one loud `SKIP <test>: <file> not found` line. `rest` says what the test does next.
pub fn report_missing(file: &str, rest: &str) {
    let test = test_name();
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!(
            "CI=true but {file} was not found in {:?} (set HANIM_CORPUS or put the shared corpus beside the project)",
            corpus_roots()
        );
    }
    // Straight to the process's stderr: libtest captures eprintln! of passing tests, and this line must show.
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIP {test}: {file} not found{rest}");
}

/// Whether every listed corpus file can be found. When one cannot, prints `SKIP <test>: <file> not found`
/// (under `CI=true` it panics instead) and returns `false`: the test then returns, and passes.
///
/// ```ignore
/// if !common::corpus_has(&["x3d/NancyNativeTags.x3d"]) {
///     return;
/// }
/// ```
pub fn corpus_has(files: &[&str]) -> bool {
    match files.iter().find(|f| find_corpus(f).is_none()) {
        Some(missing) => {
            report_missing(missing, "");
            false
        }
        None => true,
    }
}

/// Whether one file of a test's list can be found; when not, one `SKIP <test>: <file> not found (…)` line
/// (under `CI=true`: a failure) and the test goes on with the other files of its list.
pub fn corpus_listed(file: &str) -> bool {
    let found = find_corpus(file).is_some();
    if !found {
        report_missing(file, " (the test checks the other files of its list)");
    }
    found
}

/// The corpus files of `folder` ("x3d", "vrml", …) that cannot be found anywhere.
pub fn corpus_missing(folder: &str) -> Vec<&'static str> {
    let prefix = format!("{}/", folder.trim_end_matches('/'));
    NOT_VENDORED.iter().copied().filter(|f| f.starts_with(&prefix) && find_corpus(f).is_none()).collect()
}

/// A whole corpus folder, for tests that read or catalogue every file in it: the first root whose
/// `folder` holds every file of the shared corpus's folder. Without one (a bare clone), the repository's
/// folder, after one `SKIP <test>: <file> not found (…)` line per absent file (under `CI=true`: a failure);
/// the test then checks the files that are there.
pub fn corpus_folder(folder: &str) -> PathBuf {
    let prefix = format!("{}/", folder.trim_end_matches('/'));
    let wanted: Vec<&str> = NOT_VENDORED.iter().copied().filter(|f| f.starts_with(&prefix)).collect();
    let roots = corpus_roots();
    if let Some(root) = roots.iter().find(|r| r.join(folder).is_dir() && wanted.iter().all(|f| r.join(f).exists())) {
        return root.join(folder);
    }
    // Textures (Nancy's logo) go with a scene file that is reported already.
    for file in corpus_missing(folder).into_iter().filter(|f| !f.ends_with(".gif")) {
        report_missing(file, " (the test runs on the other files of the folder)");
    }
    roots[0].join(folder)
}

pub fn test_data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

/// A GPU context, or `None` with a loud message when no adapter exists. Under `CI=true` a missing
/// adapter fails the test: CI must never pass without running the GPU path.
pub fn gpu_or_skip() -> Option<GpuContext> {
    match GpuContext::headless(None) {
        Ok(ctx) => {
            eprintln!("GPU adapter: {}", ctx.summary);
            Some(ctx)
        }
        Err(e) if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("CI=true but no GPU adapter could be used: {e} (install mesa-vulkan-drivers for lavapipe)")
        }
        Err(e) => {
            eprintln!("SKIP (no GPU adapter: {e}) -- this test did not run");
            None
        }
    }
}

/// A device on the real adapter with `limits` lower than the adapter's own, to play a small GPU (`None`
/// as [`gpu_or_skip`] when there is no adapter).
pub fn small_device(limits: wgpu::Limits) -> Option<GpuContext> {
    gpu_or_skip()?;
    Some(GpuContext::headless_with_limits(None, limits).expect("a device with lower limits than the adapter's"))
}
