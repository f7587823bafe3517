//! Reading a file that a scene refers to (an Inline, an EXTERNPROTO, an ImageTexture: any `url` field).
//!
//! A url names a file the user did not open, so reading it is guarded: only regular files are opened
//! (never a directory, a device such as `/dev/zero`, a FIFO or a socket), a file larger than the
//! per-reference limit is refused before it is read, and a failure is described by its kind alone
//! ([`ReferenceFailure`]): no message ever quotes a byte of a file that failed, so that a scene cannot
//! turn the viewer into a way to print other files.
//!
//! Paths are taken as written: relative ones against the folder of the file holding the url, `file:` URLs
//! and absolute paths as they are, `..` allowed, as browsers of local files do. What keeps that safe is
//! the guard above, not a confinement: whatever is read must be X3D ([`looks_like_x3d`]) or an image, and
//! nothing of it is echoed when it is not.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::input::ReadFailure;

/// Why a referenced file was not used. Each says what was wrong in general terms only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReferenceFailure {
    /// A remote URL (`http:`, `https:`, any other scheme): never fetched.
    Remote,
    /// The program's one door refused the file or could not read it (not found, not a regular file, over
    /// the per-reference limit, unreadable): the door's own reason, shared with every other input.
    Read(ReadFailure),
    /// The file was read but is not an X3D document (or its gzip data is corrupt or too large).
    NotX3d,
    /// An X3D document that stopped with an error at this line:column.
    BrokenX3d(Option<super::LineCol>),
    /// The file is already being read further up the chain of references.
    Cycle,
    /// References nested deeper than the load allows.
    TooDeep(usize),
    /// More referenced documents in one load than it allows.
    TooMany(usize),
    /// gzip data that expands beyond the decompressed-size limit (bytes).
    DecompressesTooLarge(u64),
    /// A text encoding the loader does not read.
    UnsupportedEncoding,
    /// An EXTERNPROTO's file that declares no prototype of the wanted name.
    NoSuchProto(String),
}

impl fmt::Display for ReferenceFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Remote => write!(f, "remote URLs are never fetched"),
            Self::Read(ReadFailure::NotFound) => write!(f, "not found"),
            Self::Read(ReadFailure::NotRegularFile(kind)) => write!(f, "not a regular file ({kind})"),
            Self::Read(ReadFailure::TooLarge { size, limit }) => {
                write!(f, "too large ({size} bytes; the limit per referenced file is {limit} bytes)")
            }
            Self::Read(ReadFailure::Unreadable(kind)) => write!(f, "cannot be read ({kind})"),
            // Bytes are never decoded by the door for a reference; a text failure is the loader's.
            Self::Read(ReadFailure::NotUtf8 { .. }) | Self::UnsupportedEncoding => {
                write!(f, "in a text encoding that is not supported")
            }
            Self::NotX3d => write!(f, "not an X3D file"),
            Self::BrokenX3d(Some(at)) => write!(f, "an X3D file with an error at line {}:{}", at.line, at.column),
            Self::BrokenX3d(None) => write!(f, "an X3D file that cannot be read"),
            Self::Cycle => write!(f, "a cycle: the file is already being read"),
            Self::TooDeep(depth) => write!(f, "nested more than {depth} references deep"),
            Self::TooMany(limit) => write!(f, "more than {limit} referenced files in one load"),
            Self::DecompressesTooLarge(limit) => {
                write!(f, "too large (its gzip data expands beyond {} MiB)", limit >> 20)
            }
            Self::NoSuchProto(name) => write!(f, "declares no PROTO '{name}'"),
        }
    }
}

/// A url split into the local file it names (relative to `dir`) and its `#fragment`; `Err(Remote)` for
/// remote URLs, which are never fetched. One-letter "schemes" are Windows drive letters.
pub fn local_target(dir: &Path, url: &str) -> Result<(PathBuf, Option<String>), ReferenceFailure> {
    let url = url.trim();
    let local = if let Some(rest) = url.strip_prefix("file://").or_else(|| url.strip_prefix("file:")) {
        rest
    } else {
        let scheme = url.split_once(':').map(|(s, _)| s);
        if scheme.is_some_and(|s| s.len() > 1 && s.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))) {
            return Err(ReferenceFailure::Remote);
        }
        url
    };
    let (file, fragment) = match local.split_once('#') {
        Some((f, frag)) => (f, Some(frag.to_string())),
        None => (local, None),
    };
    if file.is_empty() {
        return Err(ReferenceFailure::Read(ReadFailure::NotFound));
    }
    Ok((dir.join(file), fragment))
}

/// The bytes of the regular file at `path`, at most `limit` of them, read through the program's one door
/// ([`crate::input::read_within`]: regular files only, opened without blocking, checked on the handle);
/// anything else is a failure that names its kind.
pub fn read_referenced_file(path: &Path, limit: u64) -> Result<Vec<u8>, ReferenceFailure> {
    crate::input::read_within(path, limit).map_err(ReferenceFailure::Read)
}

/// Whether `first`, the first word of a file without a header line, begins a VRML97 statement: a node
/// type name or `DEF` (a headerless part file an Inline refers to).
pub fn starts_like_headerless_vrml(first: &str) -> bool {
    let word: String = first.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    word == "DEF"
        || (word.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && crate::x3d::field_types::is_known_element(&word))
}

/// Whether decoded document text is X3D: the classic header (`#VRML V2.0`, `#X3D V`), XML whose root
/// element is `X3D` (after an optional declaration, comments, processing instructions and DOCTYPE), or
/// X3D JSON (`{"X3D": …`). Only the start of the text is looked at.
pub fn looks_like_x3d(text: &str) -> bool {
    let mut rest = text.strip_prefix('\u{feff}').unwrap_or(text).trim_start();
    if rest.starts_with("#VRML V2.0")
        || rest.starts_with("#X3D V")
        || super::source::starts_like_x3d_json(rest.as_bytes())
    {
        return true;
    }
    // Declarations and comments before the root element; bounded so that a long prolog is not scanned.
    for _ in 0..64 {
        if let Some(after) = rest.strip_prefix("<?") {
            let Some(end) = after.find("?>") else { return false };
            rest = after[end + 2..].trim_start();
        } else if let Some(after) = rest.strip_prefix("<!--") {
            let Some(end) = after.find("-->") else { return false };
            rest = after[end + 3..].trim_start();
        } else if let Some(after) = rest.strip_prefix("<!DOCTYPE") {
            let end = match (after.find('['), after.find('>')) {
                (Some(open), Some(close)) if open < close => after.find("]>").map(|e| e + 2),
                (_, Some(close)) => Some(close + 1),
                _ => None,
            };
            let Some(end) = end else { return false };
            rest = after[end..].trim_start();
        } else {
            break;
        }
    }
    rest.strip_prefix("<X3D")
        .is_some_and(|after| after.starts_with(|c: char| c.is_whitespace() || c == '>' || c == '/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remote_and_local_urls() {
        let dir = Path::new("/d");
        assert_eq!(local_target(dir, "http://x/y.wrl"), Err(ReferenceFailure::Remote));
        assert_eq!(local_target(dir, "urn:web3d:x"), Err(ReferenceFailure::Remote));
        assert_eq!(local_target(dir, "lib.wrl#Joint"), Ok((PathBuf::from("/d/lib.wrl"), Some("Joint".into()))));
        assert_eq!(local_target(dir, "file://lib.wrl"), Ok((PathBuf::from("/d/lib.wrl"), None)));
        assert_eq!(local_target(dir, "../up.x3d"), Ok((PathBuf::from("/d/../up.x3d"), None)));
        assert_eq!(local_target(dir, "C:/a.png"), Ok((PathBuf::from("/d/C:/a.png"), None)));
    }

    #[test]
    fn x3d_is_recognised_by_its_start() {
        assert!(looks_like_x3d("<?xml version='1.0'?>\n<!DOCTYPE X3D PUBLIC 'a' 'b'>\n<!-- c -->\n<X3D>"));
        assert!(looks_like_x3d("\u{feff}  <X3D version='4.0'/>"));
        assert!(looks_like_x3d("<!DOCTYPE X3D [ <!ENTITY a 'b'> ]>\n<X3D>"));
        assert!(looks_like_x3d("#VRML V2.0 utf8\n"));
        assert!(looks_like_x3d("#X3D V4.0 utf8\n"));
        assert!(looks_like_x3d("{\n  \"X3D\": {}}"));
        assert!(!looks_like_x3d("{\"joints\": {}}"));
        assert!(!looks_like_x3d("root:x:0:0:root:/root:/bin/bash"));
        assert!(!looks_like_x3d("<html><X3D>"));
        assert!(!looks_like_x3d("<X3Dx>"));
        assert!(!looks_like_x3d("#VRML V1.0 ascii"));
        assert!(!looks_like_x3d(""));
    }

    #[test]
    fn only_regular_files_within_the_limit_are_read() {
        let dir = tempfile::tempdir().expect("temp dir");
        assert_eq!(
            read_referenced_file(dir.path(), 1000),
            Err(ReferenceFailure::Read(ReadFailure::NotRegularFile("a directory")))
        );
        assert_eq!(
            read_referenced_file(&dir.path().join("none"), 1000),
            Err(ReferenceFailure::Read(ReadFailure::NotFound))
        );
        let file = dir.path().join("f.x3d");
        std::fs::write(&file, b"0123456789").expect("write");
        assert_eq!(read_referenced_file(&file, 10).as_deref(), Ok(&b"0123456789"[..]));
        assert_eq!(
            read_referenced_file(&file, 9),
            Err(ReferenceFailure::Read(ReadFailure::TooLarge { size: 10, limit: 9 }))
        );
        #[cfg(target_os = "linux")]
        assert_eq!(
            read_referenced_file(Path::new("/dev/zero"), 1000),
            Err(ReferenceFailure::Read(ReadFailure::NotRegularFile("a device")))
        );
    }
}
