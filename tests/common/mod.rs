//! Helpers shared by the integration tests.
#![allow(dead_code)] // each test binary uses its own subset

pub mod by_hand;
pub mod window;

use std::path::{Path, PathBuf};

use hanim_viewer::gpu::GpuContext;

pub fn corpus(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus").join(relative)
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
