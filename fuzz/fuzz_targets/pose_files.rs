//! A pose file (--pose-file, Load pose…) → parse, check, apply, write back (see fuzz/harness.rs).
#![no_main]

include!("../harness.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_pose_files(data));
