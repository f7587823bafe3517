//! gzip (whole, cut, corrupted) and text encodings (UTF-16, 8-bit, unknown labels) → the loader and model
//! (see fuzz/harness.rs).
#![no_main]

include!("../harness.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_compressed_input(data));
