//! A main file and the files it refers to (Inline, EXTERNPROTO, ImageTexture) → the loader and model;
//! no message may quote a file that failed (see fuzz/harness.rs).
#![no_main]

include!("../harness.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_references(data));
