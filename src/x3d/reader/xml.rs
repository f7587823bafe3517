//! The XML encoding: quick-xml events turned into the builder's calls (`open_element`, `end`), and an
//! element's attributes as the text of X3D fields, each with the offset where it starts, with messages
//! for malformed ones that point into the element.

use quick_xml::XmlVersion;
use quick_xml::escape::EscapeError;
use quick_xml::events::attributes::AttrError;
use quick_xml::events::{BytesStart, Event};

use super::Doc;
use crate::x3d::error::X3dError;
use crate::x3d::options::ProgressReporter;
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
    /// Byte offset of a slice that borrows from the document text.
    fn offset_of(&self, s: &[u8]) -> Option<usize> {
        let base = self.text.as_ptr() as usize;
        let p = s.as_ptr() as usize;
        (p >= base && p <= base + self.text.len()).then(|| p - base)
    }

    /// Reads the XML text: every element opens and closes through the shared builder.
    pub(super) fn run_xml(&mut self) -> Result<(), X3dError> {
        let mut reader = quick_xml::Reader::from_str(self.text);
        reader.config_mut().trim_text(true);
        let mut progress = ProgressReporter::new(&self.context.options, self.is_main, self.text.len());
        loop {
            progress.at(reader.buffer_position() as usize);
            let event = reader.read_event().map_err(|e| {
                let at = reader.error_position() as usize;
                self.err(at, format!("malformed XML: {e}"))
            })?;
            match event {
                Event::Start(e) => self.start(&e)?,
                Event::Empty(e) => {
                    self.start(&e)?;
                    self.end()?;
                }
                Event::End(_) => self.end()?,
                Event::Eof => break,
                // XML allows only comments, processing instructions and the DOCTYPE around the root.
                Event::Text(t) if self.stack.is_empty() => {
                    let offset = self.offset_of(t.as_bytes()).unwrap_or(reader.buffer_position() as usize);
                    let shown: String = t.chars().take(40).collect();
                    let place = if self.saw_x3d { "after" } else { "before" };
                    return Err(self.err(offset, format!("text {place} the <X3D> root element: '{}'", shown.trim())));
                }
                Event::CData(t) if self.stack.is_empty() => {
                    let offset = self.offset_of(t.as_bytes()).unwrap_or(reader.buffer_position() as usize);
                    return Err(self.err(offset, "CDATA section outside the <X3D> root element"));
                }
                // Text, CDATA (Script source), comments, processing instructions: not needed.
                Event::DocType(_) => {}
                _ => {}
            }
        }
        if let Some((name, loc)) = self.open_at.last() {
            let at = self.scene.pos(*loc).at.map(|a| a.to_string()).unwrap_or_default();
            return Err(self.err(
                self.text.len(),
                format!("unexpected end of file: <{name}> opened at {at} is not closed (truncated file?)"),
            ));
        }
        if !self.saw_x3d {
            return Err(self.err(0, "expected an <X3D> root element (is this an X3D XML file?)"));
        }
        Ok(())
    }

    /// An element opens: its name, where it starts (the `<`) and its attributes go to the builder.
    fn start(&mut self, e: &BytesStart) -> Result<(), X3dError> {
        let name = e.name().as_ref().to_string();
        let offset = self.offset_of(e.name().as_ref().as_bytes()).unwrap_or(0).saturating_sub(1);
        let attrs = self.attributes(e)?;
        self.open_element(name, offset, attrs)
    }

    /// The element's attributes as fields, each value at the offset where its text starts.
    fn attributes(&self, e: &BytesStart) -> Result<Vec<Field>, X3dError> {
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
}
