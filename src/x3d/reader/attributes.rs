//! Attributes of an element: their values as the text of X3D fields, each with the offset where it
//! starts, and messages for malformed ones that point into the element.

use quick_xml::XmlVersion;
use quick_xml::escape::EscapeError;
use quick_xml::events::BytesStart;
use quick_xml::events::attributes::AttrError;

use super::Doc;
use crate::x3d::error::X3dError;
use crate::x3d::scene::Field;

/// Where an attribute error is (offset from the element name) and what it is, without quick-xml's
/// "position N" prefix, which counts from a place the reader of the message cannot see.
fn describe_attr_error(err: &AttrError) -> (usize, String) {
    match err {
        AttrError::ExpectedEq(at) => (*at, "the attribute name must be followed by `=`".into()),
        AttrError::ExpectedValue(at) => (*at, "`=` must be followed by a quoted value".into()),
        AttrError::UnquotedValue(at) => (*at, "the attribute value must be enclosed in `\"` or `'`".into()),
        AttrError::ExpectedQuote(at, quote) => (*at, format!("missing closing quote `{}`", *quote as char)),
        AttrError::Duplicated(at, _) => (*at, "the same attribute is given twice (not well-formed XML)".into()),
    }
}

impl Doc<'_> {
    /// The element's attributes as fields, each value at the offset where its text starts.
    pub(super) fn attributes(&self, e: &BytesStart) -> Result<Vec<Field>, X3dError> {
        let name_offset = self.offset_of(e.name().as_ref().as_bytes());
        let elem_offset = name_offset.unwrap_or(0).saturating_sub(1);
        let mut out = Vec::new();
        for attr in e.attributes() {
            let mut attr = attr.map_err(|err| {
                // Positions in an AttrError count from the start of the element name.
                let (at, what) = describe_attr_error(&err);
                let offset = name_offset.map_or(elem_offset, |n| n + at);
                self.err(offset, format!("malformed attribute in <{}>: {what}", e.name().as_ref()))
            })?;
            let value_offset = self.offset_of(attr.value.as_bytes()).unwrap_or(elem_offset);
            let name = attr.key.as_ref().to_string();
            // XML normalisation turns CR LF into one space, which would shift the offsets of everything after
            // it in a multi-line value (and so the line:column of a bad number). Two spaces keep them.
            if attr.value.contains('\r') {
                attr.value = attr.value.replace("\r\n", " \n").into();
            }
            let value = attr.normalized_value(XmlVersion::Implicit1_0).map_err(|err| match err {
                quick_xml::Error::Escape(EscapeError::UnrecognizedEntity(range, entity)) => self.err(
                    value_offset + range.start.saturating_sub(1),
                    format!(
                        "unknown entity reference '&{entity};' in attribute '{name}': only the predefined XML \
                         entities (&lt; &gt; &amp; &apos; &quot;) and character references are expanded, never \
                         entities declared in a DOCTYPE"
                    ),
                ),
                err => {
                    self.err(value_offset, format!("bad character or entity reference in attribute '{name}': {err}"))
                }
            })?;
            out.push(Field { name, value: value.into_owned(), loc: self.loc(value_offset) });
        }
        Ok(out)
    }

    /// Removes and returns the attribute `name`.
    pub(super) fn take(fields: &mut Vec<Field>, name: &str) -> Option<Field> {
        let i = fields.iter().position(|f| f.name == name)?;
        Some(fields.remove(i))
    }
}
