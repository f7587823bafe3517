//! Where scene text comes from: files (gzip-compressed or not), in XML or in the classic VRML syntax, for
//! the main file, Inlines and external prototype files alike.
//!
//! The encoding is decided by the content, not only the name: gzip data is recognised by its magic bytes,
//! the classic syntax by its `#VRML` / `#X3D` header line; the file extension only breaks the tie when
//! the header is missing, so that a `.wrl` without one gets the classic reader's message about it.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::error::{SourcePos, X3dError};
use super::proto::ProtoDecl;
use super::reader::LoadOptions;
use super::{Child, Loc, NodeId, Scene, SourceFile, classic, reader};

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

/// The two syntaxes of X3D scene files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub enum Encoding {
    /// X3D XML encoding.
    #[default]
    Xml,
    /// ClassicVRML (`#X3D V3.x/V4.x utf8`) or VRML97 (`#VRML V2.0 utf8`).
    Classic,
}

/// Loads a scene file of any supported encoding.
pub fn load_file(path: &Path, options: &LoadOptions) -> Result<Scene, X3dError> {
    let bytes = std::fs::read(path).map_err(|e| {
        X3dError::new(SourcePos { file: path.to_path_buf(), at: None }, format!("cannot read file: {e}"))
    })?;
    if let Some(p) = &options.progress {
        p.set_stage(super::LoadStage::Parsing);
    }
    load_bytes(&bytes, path, options)
}

/// Loads scene text (XML or classic, told apart by its header); `path` names it in messages and
/// resolves relative URLs.
pub fn load_str(text: &str, path: &Path, options: &LoadOptions) -> Result<Scene, X3dError> {
    load_bytes(text.as_bytes(), path, options)
}

/// Loads scene bytes of any supported encoding, gzip-compressed or not.
pub fn load_bytes(bytes: &[u8], path: &Path, options: &LoadOptions) -> Result<Scene, X3dError> {
    let mut scene = Scene::default();
    let mut chain = vec![path.to_path_buf()];
    let (roots, _) = parse_any(&mut scene, bytes, path, options, &mut chain, true)?;
    scene.roots = roots;
    Ok(scene)
}

/// `bytes` decompressed when they are gzip data (magic `1f 8b`), else unchanged.
pub fn decompress_if_gzip<'a>(bytes: &'a [u8], path: &Path) -> Result<std::borrow::Cow<'a, [u8]>, X3dError> {
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return Ok(std::borrow::Cow::Borrowed(bytes));
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
    Ok(std::borrow::Cow::Owned(out))
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

/// Reads one document of any encoding into `scene`: its roots and the prototypes it declares.
pub(crate) fn parse_any(
    scene: &mut Scene,
    bytes: &[u8],
    path: &Path,
    options: &LoadOptions,
    chain: &mut Vec<PathBuf>,
    is_main: bool,
) -> Result<(Vec<NodeId>, HashMap<String, ProtoDecl>), X3dError> {
    let bytes = decompress_if_gzip(bytes, path)?;
    let encoding = detect_encoding(&bytes, path);
    if is_main {
        scene.encoding = encoding;
    }
    match encoding {
        Encoding::Xml => reader::parse_document(scene, &bytes, path, options, chain, is_main),
        Encoding::Classic => classic::parse_document(scene, &bytes, path, options, chain, is_main),
    }
}

/// A URL split into the local file it names (relative to `dir`) and its `#fragment`; `None` for remote
/// URLs, which are never fetched.
pub(crate) fn local_target(dir: &Path, url: &str) -> Option<(PathBuf, Option<String>)> {
    let lower = url.to_ascii_lowercase();
    if lower.contains("://") && !lower.starts_with("file://") {
        return None;
    }
    let local = if lower.starts_with("file://") { &url[7..] } else { url };
    let (file, fragment) = match local.split_once('#') {
        Some((f, frag)) => (f, Some(frag.to_string())),
        None => (local, None),
    };
    Some((dir.join(file), fragment))
}

fn same_file(a: &Path, b: &Path) -> bool {
    a.canonicalize().unwrap_or(a.to_path_buf()) == b.canonicalize().unwrap_or(b.to_path_buf())
}

/// Reads the first local target of an Inline node into the scene as the Inline's children. Remote URLs
/// are reported, never fetched; a file including itself, or Inlines nested too deeply, are not followed.
pub(crate) fn read_inline(
    scene: &mut Scene,
    id: NodeId,
    dir: &Path,
    options: &LoadOptions,
    chain: &mut Vec<PathBuf>,
) -> Result<(), X3dError> {
    let load = scene.sf_bool(id, "load", true)?;
    if !load || !options.follow_inlines {
        return Ok(());
    }
    let urls = scene.mf_string(id, "url")?;
    let loc = scene.node(id).loc;
    let mut tried = Vec::new();
    let mut remote = Vec::new();
    let report_remote = |scene: &mut Scene, remote: &[&str]| {
        if !remote.is_empty() {
            scene.warn(loc, format!("Inline: remote URLs are never fetched ({})", remote.join(", ")));
        }
    };
    for url in &urls {
        let Some((path, _)) = local_target(dir, url) else {
            remote.push(url.as_str());
            continue;
        };
        if !path.is_file() {
            tried.push(path.display().to_string());
            continue;
        }
        if chain.iter().any(|p| same_file(p, &path)) {
            scene.warn(loc, format!("Inline '{}' includes itself; not followed", path.display()));
            return Ok(());
        }
        if chain.len() > options.max_inline_depth {
            scene.warn(loc, format!("Inline '{}' is nested too deeply; not followed", path.display()));
            return Ok(());
        }
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                scene.warn(loc, format!("Inline '{}' cannot be read: {e}", path.display()));
                continue;
            }
        };
        chain.push(path.clone());
        let parsed = parse_any(scene, &bytes, &path, options, chain, false);
        chain.pop();
        let (roots, _) = parsed?;
        let node = &mut scene.nodes[id.0 as usize];
        node.children.extend(roots.into_iter().map(|r| Child { field: "children".into(), node: r }));
        report_remote(scene, &remote);
        return Ok(());
    }
    if !tried.is_empty() {
        scene.warn(loc, format!("Inline: no local file found (tried {})", tried.join(", ")));
    }
    report_remote(scene, &remote);
    Ok(())
}

/// Result of looking for an EXTERNPROTO's definition in local files.
pub(crate) enum ExternalProto {
    Found(ProtoDecl),
    /// Nothing usable; the strings say what was tried (paths, remote URLs, missing names).
    NotFound(Vec<String>),
}

/// An external declaration replaced by the definition its URLs name in a local file, when one is found:
/// the definition's body and defaults, plus any interface field only the external declaration lists.
/// Otherwise the declaration comes back unchanged (still `external`) with what was tried.
pub(crate) fn resolve_external(
    scene: &mut Scene,
    decl: ProtoDecl,
    dir: &Path,
    options: &LoadOptions,
    chain: &mut Vec<PathBuf>,
) -> Result<(ProtoDecl, Vec<String>), X3dError> {
    match external_proto(scene, &decl.name, &decl.urls, dir, options, chain)? {
        ExternalProto::Found(mut definition) => {
            for f in decl.fields {
                if !definition.fields.iter().any(|e| e.name == f.name) {
                    definition.fields.push(f);
                }
            }
            definition.loc = decl.loc;
            definition.urls = decl.urls;
            Ok((definition, Vec::new()))
        }
        ExternalProto::NotFound(tried) => Ok((decl, tried)),
    }
}

/// Finds the prototype an EXTERNPROTO names: the first local URL whose file declares it (`file#Name`, or
/// the EXTERNPROTO's own name without a fragment). The file is read into the scene (its nodes stay in the
/// arena as prototype bodies); its scene roots are not shown.
pub(crate) fn external_proto(
    scene: &mut Scene,
    name: &str,
    urls: &[String],
    dir: &Path,
    options: &LoadOptions,
    chain: &mut Vec<PathBuf>,
) -> Result<ExternalProto, X3dError> {
    let mut tried = Vec::new();
    for url in urls {
        let Some((path, fragment)) = local_target(dir, url) else {
            tried.push(format!("{url} (remote URLs are never fetched)"));
            continue;
        };
        if !path.is_file() {
            tried.push(format!("{} (no such file)", path.display()));
            continue;
        }
        if chain.iter().any(|p| same_file(p, &path)) || chain.len() > options.max_inline_depth {
            tried.push(format!("{} (refers back to a file being read)", path.display()));
            continue;
        }
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                tried.push(format!("{} ({e})", path.display()));
                continue;
            }
        };
        chain.push(path.clone());
        let parsed = parse_any(scene, &bytes, &path, options, chain, false);
        chain.pop();
        let (_, mut protos) = parsed?;
        let wanted = fragment.unwrap_or_else(|| name.to_string());
        match protos.remove(&wanted) {
            Some(mut decl) if !decl.external => {
                decl.name = name.to_string();
                return Ok(ExternalProto::Found(decl));
            }
            _ => tried.push(format!("{} (declares no PROTO '{wanted}')", path.display())),
        }
    }
    Ok(ExternalProto::NotFound(tried))
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

    #[test]
    fn remote_and_local_urls() {
        let dir = Path::new("/d");
        assert!(local_target(dir, "http://x/y.wrl").is_none());
        assert_eq!(local_target(dir, "lib.wrl#Joint"), Some((PathBuf::from("/d/lib.wrl"), Some("Joint".into()))));
        assert_eq!(local_target(dir, "file://lib.wrl"), Some((PathBuf::from("/d/lib.wrl"), None)));
    }
}
