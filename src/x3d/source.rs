//! Where scene text comes from: file bytes, gzip-compressed or not, in XML, in the classic VRML syntax or
//! in X3D JSON, turned into the text the parsers read and registered with the scene (for line:column in messages).
//!
//! The encoding is decided by the content, not only the name: gzip data is recognised by its magic bytes,
//! the classic syntax by its `#VRML` / `#X3D` header line; the file extension only breaks the tie when
//! the header is missing, so that a `.wrl` without one gets the classic reader's message about it.

use std::borrow::Cow;
use std::io::Read;
use std::path::Path;

use super::error::{SourcePos, X3dError};
use super::scene::{Encoding, Loc, Scene, SourceFile};

/// File extensions the viewer opens (lower case, without the dot): X3D XML, ClassicVRML, VRML97, X3D
/// JSON and their gzip-compressed forms. A `.gz` suffix is accepted after any of the others
/// (`.wrl.gz`). `.json` names other files too (pose files, catalogues): where files are gathered from a
/// folder, a `.json` file counts only when [`starts_like_x3d_json`]. glTF 2.0 and VRM assets (`.gltf`,
/// `.glb`, `.vrm`) are read as the H-Anim humanoid they hold (`crate::gltf::import`).
pub const SUPPORTED_EXTENSIONS: &[&str] =
    &["x3d", "xml", "x3dv", "wrl", "x3dj", "json", "x3dz", "x3dvz", "wrz", "x3djz", "gz", "gltf", "glb", "vrm"];

/// Extensions whose content is the classic (VRML-style) syntax.
const CLASSIC_EXTENSIONS: &[&str] = &["x3dv", "wrl", "x3dvz", "wrz", "vrml"];

/// Extensions whose content is the X3D JSON encoding.
const JSON_EXTENSIONS: &[&str] = &["x3dj", "json", "x3djz"];

/// Whether the viewer opens files with this name (by extension, case-insensitive).
pub fn is_supported_path(path: &Path) -> bool {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    SUPPORTED_EXTENSIONS.contains(&ext.as_str())
}

/// Whether (decompressed) text starts as an X3D JSON document does: `{`, then the member `"X3D"`
/// (after an optional byte-order mark and whitespace). Tells X3D JSON from other `.json` files.
pub fn starts_like_x3d_json(bytes: &[u8]) -> bool {
    let skip_space = |b: &[u8]| -> usize { b.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(b.len()) };
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = &text[skip_space(text)..];
    let Some(rest) = text.strip_prefix(b"{") else { return false };
    rest[skip_space(rest)..].starts_with(b"\"X3D\"")
}

/// `bytes` decompressed when they are gzip data (magic `1f 8b`), else unchanged.
///
/// A small file can expand enormously, so the decompressed size is measured first by a streaming pass
/// that keeps only a fixed 64 KiB buffer: data that would exceed `limit` bytes is refused after that
/// pass, having cost no more memory than the buffer. Accepted data is then decompressed into a buffer
/// of exactly its size. Peak memory for any gzip input is therefore at most `limit` plus a constant.
pub fn decompress_if_gzip<'a>(bytes: &'a [u8], path: &Path, limit: u64) -> Result<Cow<'a, [u8]>, X3dError> {
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return Ok(Cow::Borrowed(bytes));
    }
    let corrupt = |e: std::io::Error| {
        X3dError::new(
            SourcePos { file: path.to_path_buf(), at: None },
            format!("the file starts like gzip data but cannot be decompressed: {e} (truncated or corrupt?)"),
        )
    };
    let mut scratch = vec![0u8; 64 * 1024];
    let mut decoder = flate2::read::MultiGzDecoder::new(bytes);
    let mut size = 0u64;
    loop {
        let n = decoder.read(&mut scratch).map_err(corrupt)?;
        if n == 0 {
            break;
        }
        size += n as u64;
        if size > limit {
            return Err(X3dError::new(
                SourcePos { file: path.to_path_buf(), at: None },
                format!(
                    "gzip data decompresses to more than {} MiB (the limit; HANIM_MAX_DECOMPRESSED_MIB raises \
                     it); refused",
                    limit >> 20
                ),
            ));
        }
    }
    drop(scratch);
    let mut out = Vec::with_capacity(size as usize);
    flate2::read::MultiGzDecoder::new(bytes).take(size).read_to_end(&mut out).map_err(corrupt)?;
    Ok(Cow::Owned(out))
}

/// Encodings a document may be written in, besides UTF-8: the byte-order mark or the XML declaration
/// names it. Labels are matched as the WHATWG Encoding Standard does (`latin1`, `ISO-8859-1` and
/// `US-ASCII` are windows-1252 there, of which ISO-8859-1's printable characters are a subset).
const ACCEPTED_8BIT_ENCODINGS: &[&encoding_rs::Encoding] = &[encoding_rs::WINDOWS_1252];

/// Document bytes as UTF-8: a UTF-8 byte-order mark is kept (the source registry skips it), UTF-16
/// with a byte-order mark and the 8-bit encodings an XML declaration may name (ISO-8859-1,
/// windows-1252) are decoded with `encoding_rs`; any other declared encoding is an error naming it.
pub fn decode_to_utf8<'a>(bytes: &'a [u8], path: &Path) -> Result<Cow<'a, [u8]>, X3dError> {
    let error = |message: String| X3dError::new(SourcePos { file: path.to_path_buf(), at: None }, message);
    if let Some((encoding, bom_length)) = encoding_rs::Encoding::for_bom(bytes) {
        if encoding == encoding_rs::UTF_8 {
            return Ok(Cow::Borrowed(bytes));
        }
        let (text, malformed) = encoding.decode_without_bom_handling(&bytes[bom_length..]);
        if malformed {
            return Err(error(format!("the file is marked {} but is not valid {0}", encoding.name())));
        }
        return Ok(Cow::Owned(text.into_owned().into_bytes()));
    }
    if bytes.len() >= 4 && (bytes[..4] == [b'<', 0, b'?', 0] || bytes[..4] == [0, b'<', 0, b'?']) {
        return Err(error(
            "the file looks like UTF-16 without a byte-order mark; save it as UTF-8, or as \
                          UTF-16 with a byte-order mark"
                .into(),
        ));
    }
    let Some(label) = declared_encoding(bytes) else { return Ok(Cow::Borrowed(bytes)) };
    let Some(encoding) = encoding_rs::Encoding::for_label(label.as_bytes()) else {
        return Err(error(format!("the XML declaration names the encoding '{label}', which is not known")));
    };
    if encoding == encoding_rs::UTF_8 {
        return Ok(Cow::Borrowed(bytes));
    }
    if encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE {
        return Err(error(format!(
            "the XML declaration names the encoding '{label}' but the file has no UTF-16 byte-order mark"
        )));
    }
    if !ACCEPTED_8BIT_ENCODINGS.contains(&encoding) {
        return Err(error(format!(
            "the XML declaration names the encoding '{label}', which is not supported (supported: UTF-8, \
             UTF-16 with a byte-order mark, ISO-8859-1, windows-1252, US-ASCII)"
        )));
    }
    // Never fails for windows-1252: every byte is a character.
    let (text, _) = encoding.decode_without_bom_handling(bytes);
    Ok(Cow::Owned(text.into_owned().into_bytes()))
}

/// The `encoding="..."` of an XML declaration at the very start of the bytes, if any (printable ASCII,
/// at most 40 characters: a label, not arbitrary text).
fn declared_encoding(bytes: &[u8]) -> Option<String> {
    let head = &bytes[..bytes.len().min(256)];
    if !head.starts_with(b"<?xml") {
        return None;
    }
    let end = head.windows(2).position(|w| w == b"?>")?;
    let declaration = std::str::from_utf8(&head[..end]).ok()?;
    let after = &declaration[declaration.find("encoding")? + "encoding".len()..];
    let after = after.trim_start().strip_prefix('=')?.trim_start();
    let quote = after.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let value = &after[1..];
    let label = &value[..value.find(quote)?];
    (label.len() <= 40 && label.chars().all(|c| c.is_ascii_graphic())).then(|| label.to_string())
}

/// The encoding of (decompressed) file content: the classic header, `<` or `{` decides, then the
/// extension.
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
    if text.starts_with(b"{") {
        return Encoding::Json;
    }
    // The extension before any `.gz`.
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("").to_ascii_lowercase();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    let ext = Path::new(name).extension().and_then(|e| e.to_str()).unwrap_or("");
    if CLASSIC_EXTENSIONS.contains(&ext) {
        Encoding::Classic
    } else if JSON_EXTENSIONS.contains(&ext) {
        Encoding::Json
    } else {
        Encoding::Xml
    }
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
    // The same text as `source_text` gives (the mark is stripped once, above).
    let text = String::from_utf8_lossy(bytes);
    scene.files.push(SourceFile::new(path.to_path_buf(), text.as_bytes()));
    if let Some(offset) = invalid_at {
        scene.warn(Loc { file, offset: offset as u32 }, "file is not valid UTF-8; invalid bytes were replaced");
    }
    Ok((file, text))
}

/// The text [`add_source`] registers for `bytes`: after a UTF-8 byte-order mark, invalid UTF-8 replaced.
/// A reader that parses before registering its source parses this, so that its offsets hold.
pub(crate) fn source_text(bytes: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes))
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
        assert_eq!(detect_encoding(b" {\"X3D\": {}}", p("a.x3d")), Encoding::Json);
        assert_eq!(detect_encoding(b"junk", p("a.x3dj")), Encoding::Json);
        assert_eq!(detect_encoding(b"junk", p("a.x3dj.gz")), Encoding::Json);
        assert_eq!(detect_encoding(b"junk", p("a.x3djz")), Encoding::Json);
    }

    #[test]
    fn x3d_json_is_told_from_other_json() {
        assert!(starts_like_x3d_json(b"{\"X3D\": {}}"));
        assert!(starts_like_x3d_json(b"\xEF\xBB\xBF\n { \r\n\t\"X3D\":"));
        assert!(!starts_like_x3d_json(b"{\"format\": \"hanim-pose\"}"));
        assert!(!starts_like_x3d_json(b"[{\"X3D\": {}}]"));
        assert!(!starts_like_x3d_json(b"{\"X3DX\""));
        assert!(!starts_like_x3d_json(b""));
    }

    #[test]
    fn encodings_are_decoded_or_named() {
        let p = Path::new("e.x3d");
        let utf16le: Vec<u8> =
            [0xFF, 0xFE].into_iter().chain("<X3D a='é'/>".encode_utf16().flat_map(u16::to_le_bytes)).collect();
        assert_eq!(&*decode_to_utf8(&utf16le, p).unwrap(), "<X3D a='é'/>".as_bytes());
        let utf16be: Vec<u8> =
            [0xFE, 0xFF].into_iter().chain("<X3D/>".encode_utf16().flat_map(u16::to_be_bytes)).collect();
        assert_eq!(&*decode_to_utf8(&utf16be, p).unwrap(), b"<X3D/>");
        let latin1 = b"<?xml version='1.0' encoding='ISO-8859-1'?><X3D a='\xe9\x80'/>";
        assert_eq!(
            std::str::from_utf8(&decode_to_utf8(latin1, p).unwrap()).unwrap(),
            "<?xml version='1.0' encoding='ISO-8859-1'?><X3D a='é€'/>"
        );
        let utf8 = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><X3D a='é'/>";
        assert!(matches!(decode_to_utf8(utf8.as_bytes(), p).unwrap(), Cow::Borrowed(_)));
        let sjis = decode_to_utf8(b"<?xml version='1.0' encoding='Shift_JIS'?><X3D/>", p).unwrap_err();
        assert!(sjis.message.contains("'Shift_JIS', which is not supported"), "{}", sjis.message);
        let unknown = decode_to_utf8(b"<?xml version='1.0' encoding='klingon'?><X3D/>", p).unwrap_err();
        assert!(unknown.message.contains("'klingon', which is not known"), "{}", unknown.message);
        let no_bom: Vec<u8> = "<?xml?>".encode_utf16().flat_map(u16::to_le_bytes).collect();
        assert!(decode_to_utf8(&no_bom, p).unwrap_err().message.contains("UTF-16 without a byte-order mark"));
    }

    #[test]
    fn gzip_is_refused_beyond_the_limit_and_read_within_it() {
        use std::io::Write;
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(&[b' '; 4096]).unwrap();
        let gz = encoder.finish().unwrap();
        let p = Path::new("b.x3d.gz");
        assert_eq!(decompress_if_gzip(&gz, p, 4096).unwrap().len(), 4096);
        let refused = decompress_if_gzip(&gz, p, 4095).unwrap_err();
        assert!(refused.message.contains("decompresses to more than"), "{}", refused.message);
        assert!(
            decompress_if_gzip(&gz[..gz.len() / 2], p, 1 << 20).unwrap_err().message.contains("cannot be decompressed")
        );
    }

    #[test]
    fn supported_paths() {
        for name in
            ["a.x3d", "b.WRL", "c.x3dv", "d.wrz", "e.x3dvz", "f.x3dz", "g.wrl.gz", "h.x3dj", "i.json", "j.x3djz"]
        {
            assert!(is_supported_path(Path::new(name)), "{name}");
        }
        assert!(!is_supported_path(Path::new("a.png")));
    }
}
