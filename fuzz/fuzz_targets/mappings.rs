//! A bone mapping (--map) → parse, write back, retarget (see fuzz/harness.rs).
#![no_main]

include!("../harness.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_mappings(data));
