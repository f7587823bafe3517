//! (being written)

use super::SyntaxDocument;

pub(super) fn write(document: &SyntaxDocument) -> String {
    format!("{document:?}")
}
