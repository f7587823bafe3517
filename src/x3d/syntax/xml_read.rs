//! X3D XML text into a [`SyntaxDocument`]: every element with its attributes as written (unescaped), the
//! comments where they stand, the source of Script and shader elements, and the byte offset of every
//! element and attribute value.
//!
//! The XML itself is read by quick-xml with the loader's settings, and a file the loader calls malformed
//! gets the same message at the same line:column here: broken XML, text or a second element outside the
//! root, a root other than `<X3D>`, elements left open at the end, bad attributes and unknown entities.
//! What the tree does not keep: the XML declaration, the DOCTYPE, processing instructions, whitespace
//! between elements and character data outside Script and shader elements (none of them means anything
//! to X3D). Comments before the root element become the first content of `X3D`, comments after it the
//! last, the nearest places the tree has for them.
//!
//! Offsets count from after a byte-order mark, as the loader's do. The tree is built with an explicit
//! stack, and elements nested deeper than [`MAX_DEPTH`] are refused: every user of the tree (comparison,
//! the writers, dropping it) walks it recursively.

use std::borrow::Cow;
use std::path::Path;

use quick_xml::XmlVersion;
use quick_xml::escape::EscapeError;
use quick_xml::events::attributes::AttrError;
use quick_xml::events::{BytesRef, BytesStart, Event};

use super::{Attribute, Content, Element, SyntaxDocument};
use crate::x3d::error::X3dError;

/// How deep elements may nest. Humanoids nest a few dozen levels (the spine is the longest chain of
/// joints); a thousand leaves room for any real scene while keeping every recursive walk of the tree far
/// from the end of a thread's stack.
pub(crate) const MAX_DEPTH: usize = 1000;

/// Elements whose character data is program source (Script, ShaderPart, ShaderProgram), kept as
/// [`Content::SourceCode`]; the X3D JSON encoding gives exactly these a `#sourceCode`.
pub(crate) fn holds_source_code(element: &str) -> bool {
    matches!(element, "Script" | "ShaderPart" | "ShaderProgram")
}

pub(super) fn read(text: &str, path: &Path) -> Result<SyntaxDocument, X3dError> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    Reader { text: body, path, stack: Vec::new(), root: None, before_root: Vec::new(), source: None }.run()
}

struct Reader<'a> {
    text: &'a str,
    path: &'a Path,
    /// The open elements, outermost first.
    stack: Vec<Element>,
    /// The `X3D` element once it has closed.
    root: Option<Element>,
    /// Comments before the root element.
    before_root: Vec<String>,
    /// Character data of a Script or shader element being gathered (pieces since the last element or
    /// comment); becomes one [`Content::SourceCode`] when something else comes.
    source: Option<SourceRun>,
}

/// Consecutive text and CDATA pieces. Whitespace text at either end of the run is indentation, not
/// source, so that a source written back inside indented CDATA reads back as the same string.
#[derive(Default)]
struct SourceRun {
    pieces: Vec<(String, bool)>,
}

impl SourceRun {
    /// The source, or `None` when the run is only whitespace text.
    fn finish(mut self) -> Option<String> {
        let is_blank_text = |(text, cdata): &(String, bool)| !cdata && text.trim_matches(is_xml_space).is_empty();
        while self.pieces.first().is_some_and(is_blank_text) {
            self.pieces.remove(0);
        }
        while self.pieces.last().is_some_and(is_blank_text) {
            self.pieces.pop();
        }
        if self.pieces.is_empty() {
            return None;
        }
        let last = self.pieces.len() - 1;
        let mut out = String::new();
        for (i, (text, cdata)) in self.pieces.iter().enumerate() {
            let mut piece = text.as_str();
            if !cdata && i == 0 {
                piece = piece.trim_start_matches(is_xml_space);
            }
            if !cdata && i == last {
                piece = piece.trim_end_matches(is_xml_space);
            }
            out.push_str(piece);
        }
        Some(out)
    }
}

fn is_xml_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

impl Reader<'_> {
    fn err(&self, offset: usize, message: impl Into<String>) -> X3dError {
        super::error_at(self.text, self.path, offset, message)
    }

    /// Byte offset of a slice that borrows from the document text.
    fn offset_of(&self, s: &str) -> Option<usize> {
        let base = self.text.as_ptr() as usize;
        let p = s.as_ptr() as usize;
        (p >= base && p <= base + self.text.len()).then(|| p - base)
    }

    fn run(mut self) -> Result<SyntaxDocument, X3dError> {
        let text = self.text;
        let mut reader = quick_xml::Reader::from_str(text);
        reader.config_mut().trim_text(false);
        loop {
            let event = reader.read_event().map_err(|e| {
                let at = reader.error_position() as usize;
                self.err(at, format!("malformed XML: {e}"))
            })?;
            match event {
                Event::Start(e) => self.start(&e)?,
                Event::Empty(e) => {
                    self.start(&e)?;
                    self.end();
                }
                Event::End(_) => self.end(),
                Event::Eof => break,
                Event::Text(t) if self.stack.is_empty() => {
                    let trimmed = t.trim_start_matches(is_xml_space);
                    if !trimmed.is_empty() {
                        let offset = self.offset_of(trimmed).unwrap_or(reader.buffer_position() as usize);
                        let shown: String = trimmed.chars().take(40).collect();
                        let place = if self.root.is_some() { "after" } else { "before" };
                        let message = format!("text {place} the <X3D> root element: '{}'", shown.trim());
                        return Err(self.err(offset, message));
                    }
                }
                Event::CData(t) if self.stack.is_empty() => {
                    let offset = self.offset_of(&t).unwrap_or(reader.buffer_position() as usize);
                    return Err(self.err(offset, "CDATA section outside the <X3D> root element"));
                }
                Event::Text(t) => self.character_data(t.xml10_content(), false),
                Event::CData(t) => self.character_data(t.xml10_content(), true),
                Event::GeneralRef(r) if !self.stack.is_empty() => self.character_data(resolve_reference(&r), false),
                Event::Comment(c) => self.comment(c.xml10_content().into_owned()),
                // The XML declaration, DOCTYPE, processing instructions and references outside the root
                // mean nothing to X3D.
                _ => {}
            }
        }
        if let Some(open) = self.stack.last() {
            let at = super::error_at(self.text, self.path, open.offset as usize, "")
                .pos
                .at
                .map(|a| a.to_string())
                .unwrap_or_default();
            let message =
                format!("unexpected end of file: <{}> opened at {at} is not closed (truncated file?)", open.name);
            return Err(self.err(self.text.len(), message));
        }
        match self.root {
            Some(root) => Ok(SyntaxDocument { root }),
            None => Err(self.err(0, "expected an <X3D> root element (is this an X3D XML file?)")),
        }
    }

    /// An element opens: checked where it stands, its attributes read, pushed on the stack.
    fn start(&mut self, e: &BytesStart) -> Result<(), X3dError> {
        let name = e.name().as_ref().to_string();
        let name_offset = self.offset_of(e.name().into_inner());
        let offset = name_offset.unwrap_or(0).saturating_sub(1);
        if self.stack.is_empty() {
            if self.root.is_some() {
                return Err(self.err(
                    offset,
                    format!("<{name}> after the end of the <X3D> root element (a file has a single root element)"),
                ));
            }
            if name != "X3D" {
                return Err(self.err(offset, format!("expected an <X3D> root element, found <{name}>")));
            }
        }
        let attributes = element_attributes(self.text, e).map_err(|(at, message)| self.err(at, message))?;
        if self.stack.len() >= MAX_DEPTH {
            return Err(self.err(
                offset,
                format!(
                    "<{name}> is nested more than {MAX_DEPTH} elements deep, more than any X3D scene needs; refused"
                ),
            ));
        }
        self.flush_source();
        let mut element = Element::new(name, offset as u32);
        element.attributes = attributes;
        if self.stack.is_empty() {
            element.content.extend(self.before_root.drain(..).map(Content::Comment));
        }
        self.stack.push(element);
        Ok(())
    }

    /// The innermost open element closes and goes into its parent (or becomes the root).
    fn end(&mut self) {
        self.flush_source();
        let Some(element) = self.stack.pop() else { return };
        match self.stack.last_mut() {
            Some(parent) => parent.content.push(Content::Element(element)),
            None => self.root = Some(element),
        }
    }

    fn comment(&mut self, text: String) {
        self.flush_source();
        match (self.stack.last_mut(), self.root.as_mut()) {
            (Some(open), _) => open.content.push(Content::Comment(text)),
            (None, Some(root)) => root.content.push(Content::Comment(text)),
            (None, None) => self.before_root.push(text),
        }
    }

    /// Text or CDATA inside an element: kept only inside Script and shader elements.
    fn character_data(&mut self, text: Cow<str>, cdata: bool) {
        if self.stack.last().is_some_and(|e| holds_source_code(&e.name)) {
            self.source.get_or_insert_with(SourceRun::default).pieces.push((text.into_owned(), cdata));
        }
    }

    fn flush_source(&mut self) {
        if let Some(run) = self.source.take()
            && let Some(code) = run.finish()
            && let Some(open) = self.stack.last_mut()
        {
            open.content.push(Content::SourceCode(code));
        }
    }
}

/// A reference in character data: a character reference or predefined entity resolved; any other
/// entity (which only a DOCTYPE could declare, and which X3D never expands) kept as written.
fn resolve_reference(reference: &BytesRef) -> Cow<'static, str> {
    if let Ok(Some(c)) = reference.resolve_char_ref() {
        return Cow::Owned(c.to_string());
    }
    match quick_xml::escape::resolve_predefined_entity(reference) {
        Some(resolved) => Cow::Borrowed(resolved),
        None => Cow::Owned(format!("&{};", &**reference)),
    }
}

/// Where an attribute error is (offset from the element name) and what it is, in the loader's words.
fn describe_attr_error(err: &AttrError) -> (usize, String) {
    match err {
        AttrError::ExpectedEq(at) => (*at, "the attribute name must be followed by `=`".into()),
        AttrError::ExpectedValue(at) => (*at, "`=` must be followed by a quoted value".into()),
        AttrError::UnquotedValue(at) => (*at, "the attribute value must be enclosed in `\"` or `'`".into()),
        AttrError::ExpectedQuote(at, quote) => (*at, format!("missing closing quote `{}`", *quote as char)),
        AttrError::Duplicated(at, _) => (*at, "the same attribute is given twice (not well-formed XML)".into()),
    }
}

/// The attributes of element `e` of `text` (the document quick-xml reads), unescaped, each with the byte
/// offset where its value starts; an error is its offset and message. The scene loader and the syntax
/// reader both read attributes here, so they give the same messages at the same places.
pub(crate) fn element_attributes(text: &str, e: &BytesStart) -> Result<Vec<Attribute>, (usize, String)> {
    let base = text.as_ptr() as usize;
    let offset_of = |s: &str| {
        let p = s.as_ptr() as usize;
        (p >= base && p <= base + text.len()).then(|| p - base)
    };
    let name_offset = offset_of(e.name().as_ref());
    let elem_offset = name_offset.unwrap_or(0).saturating_sub(1);
    let element = e.name().as_ref().to_string();
    let mut out = Vec::new();
    for attr in e.attributes() {
        let mut attr = attr.map_err(|err| {
            // Positions in an AttrError count from the start of the element name.
            let (at, what) = describe_attr_error(&err);
            (name_offset.map_or(elem_offset, |n| n + at), format!("malformed attribute in <{element}>: {what}"))
        })?;
        let value_offset = offset_of(&attr.value).unwrap_or(elem_offset);
        let name = attr.key.as_ref().to_string();
        // XML normalisation turns CR LF into one space, which would shift the offsets of everything after
        // it in a multi-line value (and so the line:column of a bad number). Two spaces keep them.
        if attr.value.contains('\r') {
            attr.value = attr.value.replace("\r\n", " \n").into();
        }
        let value = attr.normalized_value(XmlVersion::Implicit1_0).map_err(|err| match err {
            quick_xml::Error::Escape(EscapeError::UnrecognizedEntity(range, entity)) => (
                value_offset + range.start.saturating_sub(1),
                format!(
                    "unknown entity reference '&{entity};' in attribute '{name}': only the predefined XML \
                     entities (&lt; &gt; &amp; &apos; &quot;) and character references are expanded, never \
                     entities declared in a DOCTYPE"
                ),
            ),
            err => (value_offset, format!("bad character or entity reference in attribute '{name}': {err}")),
        })?;
        out.push(Attribute { name, value: value.into_owned(), offset: value_offset as u32 });
    }
    Ok(out)
}
