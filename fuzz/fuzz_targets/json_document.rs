//! Any bytes → the loader as an X3D JSON file → H-Anim model → CPU reference deformation (see
//! fuzz/harness.rs).
#![no_main]

include!("../harness.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_json_document(data));
