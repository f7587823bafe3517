//! (being written)

use std::path::Path;

use super::SyntaxDocument;
use crate::x3d::error::X3dError;

pub(super) fn read(text: &str, path: &Path) -> Result<SyntaxDocument, X3dError> {
    Err(super::error_at(text, path, 0, "this encoding is not read into a syntax tree yet"))
}
