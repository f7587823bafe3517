//! ClassicVRML and VRML97 text read into the syntax tree. The reader and the writer live in `classic/`
//! (declared here, so that the syntax module lists its encodings as one `*_read`/`*_write` pair each),
//! where they share the classic vocabulary; see `classic/reader.rs` for the mapping.

use std::path::Path;

use super::SyntaxDocument;
use crate::x3d::error::X3dError;

#[path = "classic/mod.rs"]
pub(super) mod classic;

pub(super) fn read(text: &str, path: &Path) -> Result<SyntaxDocument, X3dError> {
    classic::read(text, path)
}
