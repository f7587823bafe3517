//! A catalogue shard's catalog.json → parse, check, page, merge; no string becomes markup (see fuzz/harness.rs).
#![no_main]

include!("../harness.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_manifests(data));
