//! ASF/AMC and BVH text from arbitrary bytes, parsed, played and retargeted (see fuzz/harness.rs).
#![no_main]

include!("../harness.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_mocap_files(data));
