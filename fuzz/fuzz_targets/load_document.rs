//! Any bytes → X3D loader → H-Anim model → CPU reference deformation (see fuzz/harness.rs).
#![no_main]

include!("../harness.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_load_document(data));
