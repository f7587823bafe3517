//! Where scene text comes from: file bytes, gzip-compressed or not, in XML or in the classic VRML syntax,
//! turned into the text the parsers read and registered with the scene (for line:column in messages).
//!
//! The encoding is decided by the content, not only the name: gzip data is recognised by its magic bytes,
//! the classic syntax by its `#VRML` / `#X3D` header line; the file extension only breaks the tie when
//! the header is missing, so that a `.wrl` without one gets the classic reader's message about it.

use std::borrow::Cow;
use std::io::Read;
use std::path::Path;

use super::error::{SourcePos, X3dError};
use super::scene::{Encoding, Loc, Scene, SourceFile};

/// File extensions the viewer opens (lower case, without the dot): X3D XML, ClassicVRML, VRML97 and
/// their gzip-compressed forms. A `.gz` suffix is accepted after any of the others (`.wrl.gz`).
pub const SUPPORTED_EXTENSIONS: &[&str] = &["x3d", "xml", "x3dv", "wrl", "x3dz", "x3dvz", "wrz", "gz"];

/// Extensions whose content is the classic (VRML-style) syntax.
const CLASSIC_EXTENSIONS: &[&str] = &["x3dv", "wrl", "x3dvz", "wrz", "vrml"];

/// Upper bound on the decompressed size of a gzip file, so that a small hostile file cannot fill memory.
const MAX_DECOMPRESSED_BYTES: u64 = 1 << 30;

/// Whether the viewer opens files with this name (by extension, case-insensitive).
pub fn is_supported_path(path: &Path) -> bool {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    SUPPORTED_EXTENSIONS.contains(&ext.as_str())
}

/// `bytes` decompressed when they are gzip data (magic `1f 8b`), else unchanged.
pub fn decompress_if_gzip<'a>(bytes: &'a [u8], path: &Path) -> Result<Cow<'a, [u8]>, X3dError> {
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return Ok(Cow::Borrowed(bytes));
    }
    let mut out = Vec::with_capacity(bytes.len() * 4);
    let decoder = flate2::read::MultiGzDecoder::new(bytes);
    decoder.take(MAX_DECOMPRESSED_BYTES + 1).read_to_end(&mut out).map_err(|e| {
        X3dError::new(
            SourcePos { file: path.to_path_buf(), at: None },
            format!("the file starts like gzip data but cannot be decompressed: {e} (truncated or corrupt?)"),
        )
    })?;
    if out.len() as u64 > MAX_DECOMPRESSED_BYTES {
        return Err(X3dError::new(
            SourcePos { file: path.to_path_buf(), at: None },
            format!("gzip data decompresses to more than {} MiB; refused", MAX_DECOMPRESSED_BYTES >> 20),
        ));
    }
    Ok(Cow::Owned(out))
}

/// The encoding of (decompressed) file content: the classic header decides, then the extension.
pub fn detect_encoding(bytes: &[u8], path: &Path) -> Encoding {
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let start = text.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(text.len());
    let text = &text[start..];
    if text.starts_with(b"#VRML") || text.starts_with(b"#X3D") {
        return Encoding::Classic;
    }
    if text.starts_with(b"<") {
        return Encoding::Xml;
    }
    // The extension before any `.gz`.
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("").to_ascii_lowercase();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    let ext = Path::new(name).extension().and_then(|e| e.to_str()).unwrap_or("");
    if CLASSIC_EXTENSIONS.contains(&ext) { Encoding::Classic } else { Encoding::Xml }
}

/// Registers a source file with `scene` and returns its index and text: the bytes after a byte-order mark,
/// invalid UTF-8 replaced (with a warning at the first bad byte). Offsets, and so line:column, refer to
/// this text in both the XML and the classic reader.
pub(crate) fn add_source<'a>(scene: &mut Scene, bytes: &'a [u8], path: &Path) -> Result<(u16, Cow<'a, str>), X3dError> {
    if scene.files.len() >= u16::MAX as usize {
        return Err(X3dError::new(SourcePos { file: path.to_path_buf(), at: None }, "too many files"));
    }
    let file = scene.files.len() as u16;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let invalid_at = std::str::from_utf8(bytes).err().map(|e| e.valid_up_to());
    let text = String::from_utf8_lossy(bytes);
    scene.files.push(SourceFile::new(path.to_path_buf(), text.as_bytes()));
    if let Some(offset) = invalid_at {
        scene.warn(Loc { file, offset: offset as u32 }, "file is not valid UTF-8; invalid bytes were replaced");
    }
    Ok((file, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_by_header_then_extension() {
        let p = Path::new;
        assert_eq!(detect_encoding(b"#VRML V2.0 utf8\n", p("a.x3d")), Encoding::Classic);
        assert_eq!(detect_encoding(b"\xEF\xBB\xBF#X3D V3.0 utf8", p("a")), Encoding::Classic);
        assert_eq!(detect_encoding(b"<?xml version='1.0'?>", p("a.wrl")), Encoding::Xml);
        assert_eq!(detect_encoding(b"Transform {}", p("a.wrl")), Encoding::Classic);
        assert_eq!(detect_encoding(b"Transform {}", p("a.wrl.gz")), Encoding::Classic);
        assert_eq!(detect_encoding(b"junk", p("a.x3d")), Encoding::Xml);
    }

    #[test]
    fn supported_paths() {
        for name in ["a.x3d", "b.WRL", "c.x3dv", "d.wrz", "e.x3dvz", "f.x3dz", "g.wrl.gz"] {
            assert!(is_supported_path(Path::new(name)), "{name}");
        }
        assert!(!is_supported_path(Path::new("a.png")));
    }
}
