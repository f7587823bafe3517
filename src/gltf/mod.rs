//! The bridge to glTF 2.0 and VRM (`docs/gltf.md`).
//!
//! - [`export`]: a loaded document's humanoids written as a glTF 2.0 asset (`.glb` or `.gltf`): joints
//!   as nodes named with their H-Anim names, the skin with inverse bind matrices from the binding pose,
//!   displacers as morph targets, every clip as an animation, materials as glTF PBR. It reads the model
//!   and the layers that evaluate it (`mesh`, `pose`, `animation`), so it sits beside `render`.
//! - [`import`]: a `.gltf`, `.glb` or `.vrm` file read (through the `gltf` crate) into the X3D syntax
//!   tree of an H-Anim humanoid, which the X3D loader then reads like any other document: it is a reader
//!   of the `x3d` layer, and imports only `x3d::syntax`, `input` and `names`.
//!
//! Both directions share one frame convention. A glTF joint node's origin is the H-Anim joint's
//! `center`: the node frame is `N_j = G_j · T(c_j)` (semantics note §1.2), so a node's local transform
//! is `T(−c_parent) · L_j · T(c_j)`, i.e. translation `t + c − c_parent`, rotation `r`, scale `s`, and its
//! inverse bind matrix `T(−c_j) · B_j`.

pub mod buffer;
pub mod export;
pub mod import;
pub mod json;

use std::path::Path;

/// What the output file's name asks for: binary `.glb` (also `.vrm`, which is never written) or JSON
/// `.gltf`; `None` for any other name.
pub fn output_is_binary(path: &Path) -> Option<bool> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "glb" => Some(true),
        "gltf" => Some(false),
        _ => None,
    }
}

/// Whether a file is a glTF asset: by its extension (`.gltf`, `.glb`, `.vrm`) or, whatever its name, by
/// the binary container's magic `glTF`.
pub fn is_gltf(path: &Path, bytes: &[u8]) -> bool {
    if bytes.starts_with(b"glTF") {
        return true;
    }
    let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    matches!(ext.as_deref(), Some("gltf" | "glb" | "vrm"))
}

/// sRGB-encoded colour component to linear light (the Phong materials' colours are the values X3D
/// shows; glTF factors are linear).
pub fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
}

/// Linear light to sRGB encoding (the inverse of [`srgb_to_linear`]).
pub fn linear_to_srgb(c: f32) -> f32 {
    if c <= 0.0031308 { c * 12.92 } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_encodings_invert_each_other() {
        for i in 0..=20 {
            let c = i as f32 / 20.0;
            assert!((linear_to_srgb(srgb_to_linear(c)) - c).abs() < 1e-5, "{c}");
        }
    }

    #[test]
    fn files_are_told_by_name_or_magic() {
        assert!(is_gltf(Path::new("a.GLB"), b""));
        assert!(is_gltf(Path::new("a.vrm"), b"{"));
        assert!(is_gltf(Path::new("a.bin"), b"glTF\x02\0\0\0"));
        assert!(!is_gltf(Path::new("a.x3d"), b"<X3D"));
        assert_eq!(output_is_binary(Path::new("x.glb")), Some(true));
        assert_eq!(output_is_binary(Path::new("x.gltf")), Some(false));
        assert_eq!(output_is_binary(Path::new("x.x3d")), None);
    }
}
