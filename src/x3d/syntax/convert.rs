//! One file's bytes in any encoding into text (or gzip bytes) of another: what `hanim-viewer convert`
//! and the window's *Save as X3D…* do, through the syntax tree, so DEF/USE, PROTOs, ROUTEs, comments and
//! UNIT statements are kept as written.

use std::io::Write as _;
use std::path::Path;

use super::undefined_uses::drop_undefined_uses;
use super::{read, write};
use crate::x3d::error::{SourcePos, Warning, X3dError, undefined_use_message};
use crate::x3d::scene::{Encoding, SourceFile};
use crate::x3d::source::{decode_to_utf8, decompress_if_gzip, detect_encoding};

/// How a file is written, from its name: the encoding and whether it is gzip-compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutputKind {
    pub encoding: Encoding,
    pub gzip: bool,
}

/// The encoding a file name asks for (`.x3d`, `.x3dv`, `.x3dj`; `.x3dz`, `.x3dvz`, `.x3djz` or any of
/// them with `.gz` compressed; `.wrl`/`.wrz` ClassicVRML; `.json` X3D JSON), or `None`.
pub fn output_kind(path: &Path) -> Option<OutputKind> {
    let name = path.file_name()?.to_str()?.to_ascii_lowercase();
    let (name, gz) = match name.strip_suffix(".gz") {
        Some(rest) => (rest.to_string(), true),
        None => (name, false),
    };
    let ext = Path::new(&name).extension()?.to_str()?.to_string();
    let (encoding, compressed) = match ext.as_str() {
        "x3d" | "xml" => (Encoding::Xml, false),
        "x3dz" => (Encoding::Xml, true),
        "x3dv" | "wrl" => (Encoding::Classic, false),
        "x3dvz" | "wrz" => (Encoding::Classic, true),
        "x3dj" | "json" => (Encoding::Json, false),
        "x3djz" => (Encoding::Json, true),
        _ => return None,
    };
    Some(OutputKind { encoding, gzip: gz || compressed })
}

/// `bytes` (a file named `path`, any encoding, gzip or not, at most `max_decompressed` bytes once
/// decompressed) written as `to`: the file's bytes, compressed when `to.gzip`.
pub fn convert_bytes(bytes: &[u8], path: &Path, to: OutputKind, max_decompressed: u64) -> Result<Vec<u8>, X3dError> {
    convert_bytes_noting(bytes, path, to, max_decompressed).map(|(written, _)| written)
}

/// As [`convert_bytes`], with the warnings of the way: each USE of a name no DEF before it defines,
/// left out of what is written (the loaders drop it too; see [`super::undefined_uses`]).
pub fn convert_bytes_noting(
    bytes: &[u8],
    path: &Path,
    to: OutputKind,
    max_decompressed: u64,
) -> Result<(Vec<u8>, Vec<Warning>), X3dError> {
    if crate::gltf::is_gltf(path, bytes) {
        let imported = crate::gltf::import::import(bytes, path)?;
        let warnings = imported
            .warnings
            .into_iter()
            .map(|message| Warning { pos: SourcePos { file: path.to_path_buf(), at: None }, message })
            .collect();
        return finish(&imported.document, to, path, warnings);
    }
    let bytes = decompress_if_gzip(bytes, path, max_decompressed)?;
    let text = decode_to_utf8(&bytes, path)?;
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&text);
    let encoding = detect_encoding(text, path);
    let text = std::str::from_utf8(text).map_err(|e| {
        // Undeclared text that is not UTF-8: refused at the first bad byte, never guessed.
        let valid = std::str::from_utf8(&text[..e.valid_up_to()]).unwrap_or_default();
        super::error_at(valid, path, e.valid_up_to(), "not valid UTF-8 (and no encoding is declared)")
    })?;
    let mut document = read(text, encoding, path)?;
    let file = SourceFile::new(path.to_path_buf(), text.as_bytes());
    let warnings = drop_undefined_uses(&mut document)
        .into_iter()
        .map(|d| Warning {
            pos: SourcePos { file: path.to_path_buf(), at: Some(file.line_col(d.offset)) },
            message: undefined_use_message(&d.name),
        })
        .collect();
    finish(&document, to, path, warnings)
}

/// `document` written as `to`, compressed when asked.
fn finish(
    document: &super::SyntaxDocument,
    to: OutputKind,
    path: &Path,
    warnings: Vec<Warning>,
) -> Result<(Vec<u8>, Vec<Warning>), X3dError> {
    let written = write(document, to.encoding);
    if !to.gzip {
        return Ok((written.into_bytes(), warnings));
    }
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let compressed = encoder.write_all(written.as_bytes()).and_then(|()| encoder.finish());
    let compressed = compressed
        .map_err(|e| X3dError::new(SourcePos { file: path.to_path_buf(), at: None }, format!("gzip: {e}")))?;
    Ok((compressed, warnings))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_kinds_follow_the_file_name() {
        let kind = |n: &str| output_kind(Path::new(n)).map(|k| (k.encoding, k.gzip));
        assert_eq!(kind("a.x3d"), Some((Encoding::Xml, false)));
        assert_eq!(kind("a.X3DZ"), Some((Encoding::Xml, true)));
        assert_eq!(kind("a.x3dv.gz"), Some((Encoding::Classic, true)));
        assert_eq!(kind("a.x3dj"), Some((Encoding::Json, false)));
        assert_eq!(kind("a.x3djz"), Some((Encoding::Json, true)));
        assert_eq!(kind("a.png"), None);
        assert_eq!(kind("a"), None);
    }
}
