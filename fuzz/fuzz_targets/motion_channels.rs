//! HAnimMotion channels and fields from arbitrary bytes, played on a small skeleton (see fuzz/harness.rs).
#![no_main]

include!("../harness.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_motion_channels(data));
