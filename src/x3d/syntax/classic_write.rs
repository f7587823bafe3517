//! A syntax tree written as ClassicVRML text; see `classic/writer.rs` for the mapping.

use super::SyntaxDocument;

pub(super) fn write(document: &SyntaxDocument) -> String {
    super::classic_read::classic::write(document)
}
