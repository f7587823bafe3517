//! Any bytes → the classic reader (VRML97 / ClassicVRML) as a `.x3dv` document → the H-Anim model: every
//! statement wherever it stands (head statements, ROUTE, PROTO, EXTERNPROTO, IMPORT/EXPORT, NULL, Script
//! declarations, IS), inside and outside the grammar. Must never panic, hang or run out of memory;
//! errors are fine. Bytes that do not start with a header line get `#X3D V4.0 utf8`, so that the fuzzer
//! spends its time in the statements rather than in the header check. Inlines are not followed: the
//! input is one document.
#![no_main]

use std::path::Path;

use hanim_viewer::{hanim, x3d};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let text = if text.starts_with('#') { text.into_owned() } else { format!("#X3D V4.0 utf8\n{text}") };
    let options = x3d::LoadOptions { follow_inlines: false, ..x3d::LoadOptions::default() };
    if let Ok(scene) = x3d::load_str(&text, Path::new("fuzz.x3dv"), &options) {
        let _ = hanim::build_document(scene);
    }
});
