//! An X3D document as written, in any of the three encodings: the elements of the XML encoding (the
//! abstract syntax that ISO/IEC 19776-1, -2 and -5 all map onto) with their attributes as XML attribute
//! text, comments and script source, before DEF/USE, PROTO or Inline mean anything.
//!
//! `convert` reads a file of one encoding into this tree and writes it in another, so DEF/USE, PROTO
//! declarations and instances, ROUTEs, IMPORT/EXPORT, comments and UNIT statements survive as written.
//! The X3D JSON reader builds the same tree, which the XML reader's scene builder then walks, so JSON
//! files load through the same DEF/USE, PROTO and Inline rules as XML.
//!
//! Shape of the tree, whatever the encoding it came from:
//! - the root element is `X3D` (attributes `version`, `profile`), holding `head` (with `component`,
//!   `unit`, `meta` elements) and `Scene`;
//! - a node is an element named by its type, with `DEF`/`USE` and its non-node fields as attributes,
//!   and its node-valued fields as child elements carrying `containerField` only where it differs
//!   from [`default_container`](super::field_types::default_container);
//! - statements are elements too: `ROUTE`, `IMPORT`, `EXPORT`, `ProtoDeclare` (`ProtoInterface` of
//!   `field`s, `ProtoBody`), `ExternProtoDeclare`, `ProtoInstance` (`fieldValue`s), `IS` (`connect`s),
//!   and a Script's or shader's `field` declarations;
//! - attribute values are the text an XML attribute holds, unescaped: `1 2 3`, `true`, `"a" "b"` for an
//!   MFString, the plain characters of an SFString.

/// A parsed document: the `X3D` root element.
#[derive(Debug, Clone, PartialEq)]
pub struct SyntaxDocument {
    pub root: Element,
}

/// One element: a node, a statement, or a document element (`X3D`, `head`, `Scene`).
#[derive(Debug, Clone, PartialEq)]
pub struct Element {
    pub name: String,
    pub attributes: Vec<Attribute>,
    pub content: Vec<Content>,
    /// Byte offset in the source text where the element starts (for messages; 0 when made in memory).
    pub offset: u32,
}

/// One attribute (one field value, or a statement's parameter).
#[derive(Debug, Clone, PartialEq)]
pub struct Attribute {
    pub name: String,
    /// The value as an XML attribute holds it, unescaped.
    pub value: String,
    /// Byte offset in the source text where the value starts.
    pub offset: u32,
}

/// What an element holds, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    Element(Element),
    /// A comment's text, without its delimiters.
    Comment(String),
    /// Script or shader source: XML character data / CDATA, JSON `#sourceCode`.
    SourceCode(String),
}

impl Element {
    pub fn new(name: impl Into<String>, offset: u32) -> Self {
        Self { name: name.into(), attributes: Vec::new(), content: Vec::new(), offset }
    }

    /// The value of attribute `name`, if present.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes.iter().find(|a| a.name == name).map(|a| a.value.as_str())
    }

    /// Sets attribute `name` (replacing an earlier value).
    pub fn set_attribute(&mut self, name: impl Into<String>, value: impl Into<String>) {
        let name = name.into();
        let value = value.into();
        match self.attributes.iter_mut().find(|a| a.name == name) {
            Some(a) => a.value = value,
            None => self.attributes.push(Attribute { name, value, offset: 0 }),
        }
    }

    /// The child elements, in order (comments and source code skipped).
    pub fn elements(&self) -> impl Iterator<Item = &Element> {
        self.content.iter().filter_map(|c| match c {
            Content::Element(e) => Some(e),
            _ => None,
        })
    }

    /// The first child element named `name`.
    pub fn child(&self, name: &str) -> Option<&Element> {
        self.elements().find(|e| e.name == name)
    }
}

mod classic_read;
mod classic_write;
pub mod convert;
mod json_read;
mod json_write;
pub mod undefined_uses;
mod xml_read;
pub(crate) use xml_read::element_attributes;
mod xml_write;

pub(crate) use json_read::read_with_values as read_json_with_values;

use std::path::Path;

use super::error::{SourcePos, X3dError};
use super::scene::{Encoding, SourceFile};

/// Reads a document's text (already decompressed and decoded to UTF-8) written in `encoding`; `path`
/// names it in messages.
pub fn read(text: &str, encoding: Encoding, path: &Path) -> Result<SyntaxDocument, X3dError> {
    match encoding {
        Encoding::Xml => xml_read::read(text, path),
        Encoding::Classic => classic_read::read(text, path),
        Encoding::Json => json_read::read(text, path),
    }
}

/// Writes a document in `encoding`.
pub fn write(document: &SyntaxDocument, encoding: Encoding) -> String {
    match encoding {
        Encoding::Xml => xml_write::write(document),
        Encoding::Classic => classic_write::write(document),
        Encoding::Json => json_write::write(document),
    }
}

/// An error at byte `offset` of `text` (the file `path`), with its line:column.
pub(crate) fn error_at(text: &str, path: &Path, offset: usize, message: impl Into<String>) -> X3dError {
    let file = SourceFile::new(path.to_path_buf(), text.as_bytes());
    X3dError::new(SourcePos { file: path.to_path_buf(), at: Some(file.line_col(offset as u32)) }, message)
}
