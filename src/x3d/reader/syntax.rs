//! A document read into the syntax tree (X3D JSON): its elements reach the builder in document order
//! through the same calls as the XML reader's events (`open_element`, `end`), so DEF/USE scopes,
//! prototypes, Inline, ROUTEs, units and warnings follow exactly the XML reader's rules.

use std::path::Path;

use super::Doc;
use crate::x3d::error::X3dError;
use crate::x3d::external::{LoadContext, ParsedDocument};
use crate::x3d::options::ProgressReporter;
use crate::x3d::scene::{Field, JsonValueMap, Scene};
use crate::x3d::source;
use crate::x3d::syntax::{self, Content, Element, SyntaxDocument};

/// Reads one X3D JSON document (the main file, an Inline or an external prototype file) into `scene`;
/// returns its root nodes and the prototypes it declares.
pub(crate) fn parse_json_document(
    scene: &mut Scene,
    bytes: &[u8],
    path: &Path,
    context: &mut LoadContext,
    is_main: bool,
) -> Result<ParsedDocument, X3dError> {
    // The text the source registry will hold, so that the tree's offsets are offsets in it.
    let text = source::source_text(bytes);
    let (document, values) = syntax::read_json_with_values(&text, path)?;
    parse_syntax_document(scene, document, Some(values), bytes, path, context, is_main)
}

/// Builds the scene of a document already read into the syntax tree from `bytes` (registered as its
/// source: the tree's offsets are offsets in [`source::source_text`] of them). `json_values` marks a
/// JSON source, so that a bad value is reported at the JSON element it came from.
pub(crate) fn parse_syntax_document(
    scene: &mut Scene,
    document: SyntaxDocument,
    json_values: Option<JsonValueMap>,
    bytes: &[u8],
    path: &Path,
    context: &mut LoadContext,
    is_main: bool,
) -> Result<ParsedDocument, X3dError> {
    let (file, text) = source::add_source(scene, bytes, path)?;
    if let Some(values) = json_values {
        scene.files[file as usize].set_json_values(values);
    }
    let mut doc = Doc::new(scene, file, &text, path, context, is_main);
    doc.walk(document)?;
    Ok(doc.finish())
}

impl Doc<'_> {
    /// Opens and closes every element of the tree, depth first, without recursion. The tree is
    /// consumed as it goes: attribute text moves into the scene's fields instead of being copied.
    fn walk(&mut self, document: SyntaxDocument) -> Result<(), X3dError> {
        let mut progress = ProgressReporter::new(&self.context.options, self.is_main, self.text.len());
        let mut open: Vec<std::vec::IntoIter<Content>> = Vec::new();
        let mut next = Some(document.root);
        loop {
            if let Some(Element { name, attributes, content, offset }) = next.take() {
                progress.at(offset as usize);
                let attrs = attributes
                    .into_iter()
                    .map(|a| Field { name: a.name, value: a.value, loc: self.loc(a.offset as usize) })
                    .collect();
                self.open_element(name, offset as usize, attrs)?;
                open.push(content.into_iter());
            }
            let Some(content) = open.last_mut() else { break };
            next = content.find_map(|c| match c {
                Content::Element(e) => Some(e),
                // Comments and script source are not part of the scene.
                Content::Comment(_) | Content::SourceCode(_) => None,
            });
            if next.is_none() {
                open.pop();
                self.end()?;
            }
        }
        Ok(())
    }
}
