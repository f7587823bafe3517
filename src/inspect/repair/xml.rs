//! Where each element and attribute of an X3D XML text lies, and edits spliced into that text: what
//! `repair` changes is replaced in place and every other byte of the file is kept as it was.

use std::collections::HashMap;

use quick_xml::escape::escape;
use quick_xml::events::Event;

/// One element of the text: byte ranges of its start tag and of the whole element.
#[derive(Debug, Clone)]
pub struct Element {
    pub name: String,
    /// Offset of `<`.
    pub start: usize,
    /// Offset just after the start tag's `>`.
    pub tag_end: usize,
    /// Offset of the end tag's `<` (`None` for `<X …/>`).
    pub close_start: Option<usize>,
    /// Offset just after the whole element.
    pub end: usize,
    /// `start` of the enclosing element.
    pub parent: Option<usize>,
}

/// An attribute inside a start tag (absolute offsets of its name and of its value between the quotes).
#[derive(Debug, Clone, PartialEq)]
pub struct Attribute {
    pub name: String,
    pub name_start: usize,
    pub value_start: usize,
    pub value_end: usize,
}

/// Every element of a text, by the offset of its `<` (which is where the scene's `Node::loc` points).
pub struct XmlIndex {
    pub elements: Vec<Element>,
    by_start: HashMap<usize, usize>,
}

impl XmlIndex {
    pub fn new(text: &str) -> Result<XmlIndex, String> {
        let mut reader = quick_xml::Reader::from_str(text);
        let mut elements: Vec<Element> = Vec::new();
        let mut open: Vec<usize> = Vec::new();
        loop {
            let before = reader.buffer_position() as usize;
            let event = reader.read_event().map_err(|e| format!("byte {}: {e}", reader.error_position()))?;
            let after = reader.buffer_position() as usize;
            match event {
                Event::Start(e) | Event::Empty(e) => {
                    let empty = text.as_bytes()[..after].ends_with(b"/>");
                    let parent = open.last().map(|&i| elements[i].start);
                    elements.push(Element {
                        name: e.name().as_ref().to_string(),
                        start: before,
                        tag_end: after,
                        close_start: None,
                        end: after,
                        parent,
                    });
                    if !empty {
                        open.push(elements.len() - 1);
                    }
                }
                Event::End(_) => {
                    if let Some(i) = open.pop() {
                        elements[i].close_start = Some(before);
                        elements[i].end = after;
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        let by_start = elements.iter().enumerate().map(|(i, e)| (e.start, i)).collect();
        Ok(XmlIndex { elements, by_start })
    }

    pub fn at(&self, start: usize) -> Option<&Element> {
        self.by_start.get(&start).map(|&i| &self.elements[i])
    }

    /// The elements directly inside the element starting at `parent`.
    pub fn children(&self, parent: usize) -> impl Iterator<Item = &Element> {
        self.elements.iter().filter(move |e| e.parent == Some(parent))
    }
}

/// The attributes of the start tag `text[start..tag_end]`.
pub fn attributes(text: &str, element: &Element) -> Vec<Attribute> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    // Skip `<Name`.
    let mut i = element.start + 1;
    while i < element.tag_end && !bytes[i].is_ascii_whitespace() && bytes[i] != b'>' && bytes[i] != b'/' {
        i += 1;
    }
    loop {
        while i < element.tag_end && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let name_start = i;
        while i < element.tag_end && !matches!(bytes[i], b'=' | b'>' | b'/') && !bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i == name_start {
            return out;
        }
        let name = text[name_start..i].to_string();
        while i < element.tag_end && (bytes[i].is_ascii_whitespace() || bytes[i] == b'=') {
            i += 1;
        }
        let Some(&quote) = bytes.get(i).filter(|q| **q == b'\'' || **q == b'"') else { return out };
        let value_start = i + 1;
        let Some(len) = bytes[value_start..element.tag_end].iter().position(|&b| b == quote) else { return out };
        out.push(Attribute { name, name_start, value_start, value_end: value_start + len });
        i = value_start + len + 1;
    }
}

/// The value of attribute `name` (raw text, entities not decoded).
pub fn attribute<'t>(text: &'t str, element: &Element, name: &str) -> Option<&'t str> {
    attributes(text, element).into_iter().find(|a| a.name == name).map(|a| &text[a.value_start..a.value_end])
}

/// Replacements of byte ranges of one text, applied together.
#[derive(Debug, Default)]
pub struct Edits {
    list: Vec<(usize, usize, String)>,
}

impl Edits {
    pub fn replace(&mut self, start: usize, end: usize, with: impl Into<String>) {
        self.list.push((start, end, with.into()));
    }

    pub fn insert(&mut self, at: usize, text: impl Into<String>) {
        self.replace(at, at, text);
    }

    /// Forgets the edits that lie inside `start..end` (a later edit replaces that whole range).
    pub fn drop_inside(&mut self, start: usize, end: usize) {
        self.list.retain(|e| !(e.0 >= start && e.1 <= end && (e.0, e.1) != (start, end)));
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Sets attribute `name` of `element` to `value` (XML-escaped here): replaces the value between its
    /// quotes, or adds ` name='value'` after the element name.
    pub fn set_attribute(&mut self, text: &str, element: &Element, name: &str, value: &str) {
        let value = escape(value).into_owned();
        match attributes(text, element).into_iter().find(|a| a.name == name) {
            Some(a) => self.replace(a.value_start, a.value_end, value),
            None => self.insert(element.start + 1 + element.name.len(), format!(" {name}='{value}'")),
        }
    }

    /// Adds `xml` as the last child of `element`, on a line of its own indented one step more.
    pub fn append_child(&mut self, text: &str, element: &Element, xml: &str) {
        let indent = line_indent(text, element.start);
        match element.close_start {
            Some(close) => {
                let before_close = &text[..close];
                let line_start = before_close.rfind('\n').map_or(0, |n| n + 1);
                if before_close[line_start..].trim().is_empty() {
                    // `…\n<indent></X>`: the new line goes before the end tag's line.
                    self.insert(line_start, format!("{indent}  {xml}\n"));
                } else {
                    self.insert(close, xml.to_string());
                }
            }
            None => {
                // `<X …/>` → `<X …>` child `</X>`.
                let slash = text[..element.tag_end].rfind("/>").unwrap_or(element.tag_end - 2);
                let head = text[element.start + 1 + element.name.len()..slash].trim_end().len();
                let open_end = element.start + 1 + element.name.len() + head;
                self.replace(open_end, element.tag_end, format!(">\n{indent}  {xml}\n{indent}</{}>", element.name));
            }
        }
    }

    /// Removes `element`, with its line when it stands alone on it.
    pub fn remove(&mut self, text: &str, element: &Element) {
        let line_start = text[..element.start].rfind('\n').map_or(0, |n| n + 1);
        let rest = &text[element.end..];
        let line_end = rest.find('\n').map(|n| element.end + n + 1);
        match line_end {
            Some(end)
                if text[line_start..element.start].trim().is_empty() && text[element.end..end].trim().is_empty() =>
            {
                self.replace(line_start, end, "")
            }
            _ => self.replace(element.start, element.end, ""),
        }
    }

    /// The text with every edit applied. Edits at one offset keep the order they were made in; edits whose
    /// ranges overlap are an error (two fixes touching the same bytes).
    pub fn apply(mut self, text: &str) -> Result<String, String> {
        let mut order: Vec<usize> = (0..self.list.len()).collect();
        order.sort_by_key(|&i| (self.list[i].0, self.list[i].1, i));
        for pair in order.windows(2) {
            let (a, b) = (&self.list[pair[0]], &self.list[pair[1]]);
            if b.0 < a.1 {
                return Err(format!("two repairs change bytes {}..{} and {}..{}", a.0, a.1, b.0, b.1));
            }
        }
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for i in order {
            let (start, end, with) = std::mem::take(&mut self.list[i]);
            out.push_str(&text[at..start]);
            out.push_str(&with);
            at = end;
        }
        out.push_str(&text[at..]);
        Ok(out)
    }
}

/// Leading whitespace of the line holding `offset`.
pub fn line_indent(text: &str, offset: usize) -> String {
    let line_start = text[..offset].rfind('\n').map_or(0, |n| n + 1);
    text[line_start..offset].chars().take_while(|c| c.is_whitespace()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_splice_attributes_children_and_removals_keeping_the_rest() {
        let text = "<A>\n  <B x='1' y=\"2\"/>\n  <C/>\n</A>\n";
        let index = XmlIndex::new(text).unwrap();
        let b = index.elements.iter().find(|e| e.name == "B").unwrap().clone();
        let c = index.elements.iter().find(|e| e.name == "C").unwrap().clone();
        let a = index.at(0).unwrap().clone();
        assert_eq!(attribute(text, &b, "y"), Some("2"));
        let mut edits = Edits::default();
        edits.set_attribute(text, &b, "x", "3");
        edits.set_attribute(text, &b, "z", "a'b");
        edits.remove(text, &c);
        edits.append_child(text, &a, "<D/>");
        let out = edits.apply(text).unwrap();
        assert_eq!(out, "<A>\n  <B z='a&apos;b' x='3' y=\"2\"/>\n  <D/>\n</A>\n");
    }

    #[test]
    fn a_child_goes_into_an_empty_element() {
        let text = "<A>\n  <B k='v' />\n</A>";
        let index = XmlIndex::new(text).unwrap();
        let b = index.elements.iter().find(|e| e.name == "B").unwrap().clone();
        let mut edits = Edits::default();
        edits.append_child(text, &b, "<C/>");
        assert_eq!(edits.apply(text).unwrap(), "<A>\n  <B k='v'>\n    <C/>\n  </B>\n</A>");
    }
}
