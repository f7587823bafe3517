//! The XML encoding: quick-xml events turned into the builder's calls (`open_element`, `end`), and an
//! element's attributes as the text of X3D fields, each with the offset where it starts, with messages
//! for malformed ones that point into the element.

use quick_xml::events::{BytesStart, Event};

use super::Doc;
use crate::x3d::error::X3dError;
use crate::x3d::options::ProgressReporter;
use crate::x3d::scene::Field;

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

    /// The element's attributes as fields, each value at the offset where its text starts (read as the
    /// syntax reader reads them).
    fn attributes(&self, e: &BytesStart) -> Result<Vec<Field>, X3dError> {
        let attributes = crate::x3d::syntax::element_attributes(self.text, e)
            .map_err(|(offset, message)| self.err(offset, message))?;
        Ok(attributes
            .into_iter()
            .map(|a| Field { name: a.name, value: a.value, loc: self.loc(a.offset as usize) })
            .collect())
    }
}
