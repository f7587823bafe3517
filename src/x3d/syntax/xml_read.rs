//! X3D XML text into the syntax tree: every element with its attributes (unescaped, at their offsets),
//! comments in place, and the character data of Script and shader elements as their source code.
//!
//! One pass over quick-xml's events with an explicit stack, so a deeply nested file cannot overflow the
//! call stack. The XML declaration, a DOCTYPE and processing instructions carry no X3D meaning and are
//! not kept.

use std::path::Path;

use quick_xml::XmlVersion;
use quick_xml::events::{BytesStart, Event};

use super::{Attribute, Content, Element, SyntaxDocument, error_at};
use crate::x3d::error::X3dError;

/// Elements whose character data is program text (X3D clause 29 Script, clause 31 shaders).
const SOURCE_ELEMENTS: &[&str] = &["Script", "ShaderPart", "ShaderProgram", "ShaderProgramPart"];

pub(super) fn read(text: &str, path: &Path) -> Result<SyntaxDocument, X3dError> {
    let base = text.as_ptr() as usize;
    let offset_of = |s: &str| -> usize {
        let p = s.as_ptr() as usize;
        if p >= base && p <= base + text.len() { p - base } else { 0 }
    };
    let err = |offset: usize, message: String| error_at(text, path, offset, message);
    let mut reader = quick_xml::Reader::from_str(text);
    reader.config_mut().trim_text(false);
    let mut stack: Vec<Element> = Vec::new();
    let mut root: Option<Element> = None;
    loop {
        let event = reader
            .read_event()
            .map_err(|e| err(reader.error_position() as usize, format!("malformed XML: {e}")))?;
        match event {
            Event::Start(e) => {
                let element = open(&e, text, path, offset_of(e.name().as_ref()).saturating_sub(1))?;
                check_single_root(&stack, &root, &element, text, path)?;
                stack.push(element);
            }
            Event::Empty(e) => {
                let element = open(&e, text, path, offset_of(e.name().as_ref()).saturating_sub(1))?;
                check_single_root(&stack, &root, &element, text, path)?;
                close(&mut stack, &mut root, element);
            }
            Event::End(_) => {
                if let Some(element) = stack.pop() {
                    close(&mut stack, &mut root, element);
                }
            }
            Event::Comment(c) => {
                if let Some(parent) = stack.last_mut() {
                    parent.content.push(Content::Comment(c.xml10_content().into_owned()));
                }
            }
            Event::CData(c) => {
                if let Some(parent) = stack.last_mut().filter(|p| SOURCE_ELEMENTS.contains(&p.name.as_str())) {
                    append_source(parent, &c.xml10_content());
                }
            }
            Event::Text(t) => {
                match stack.last_mut() {
                    Some(parent) if SOURCE_ELEMENTS.contains(&parent.name.as_str()) => {
                        let code = t.xml10_content();
                        if !code.trim().is_empty() {
                            append_source(parent, &code);
                        }
                    }
                    None if !t.trim().is_empty() => {
                        let place = if root.is_some() { "after" } else { "before" };
                        return Err(err(offset_of(&t), format!("text {place} the <X3D> root element")));
                    }
                    _ => {}
                }
            }
            Event::GeneralRef(r) => {
                if let Some(parent) = stack.last_mut().filter(|p| SOURCE_ELEMENTS.contains(&p.name.as_str())) {
                    let name = r.xml10_content();
                    let resolved = match r.resolve_char_ref() {
                        Ok(Some(c)) => c.to_string(),
                        _ => quick_xml::escape::resolve_predefined_entity(&name)
                            .map(str::to_string)
                            .ok_or_else(|| err(offset_of(&r), format!("unknown entity reference '&{name};'")))?,
                    };
                    append_source(parent, &resolved);
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if let Some(open) = stack.last() {
        return Err(err(
            text.len(),
            format!("unexpected end of file: <{}> is not closed (truncated file?)", open.name),
        ));
    }
    let root = root.ok_or_else(|| err(0, "expected an <X3D> root element (is this an X3D XML file?)".into()))?;
    if root.name != "X3D" {
        return Err(err(root.offset as usize, format!("expected an <X3D> root element, found <{}>", root.name)));
    }
    Ok(SyntaxDocument { root })
}

/// A second element at the top level is not well-formed XML.
fn check_single_root(
    stack: &[Element],
    root: &Option<Element>,
    element: &Element,
    text: &str,
    path: &Path,
) -> Result<(), X3dError> {
    if stack.is_empty() && root.is_some() {
        return Err(error_at(
            text,
            path,
            element.offset as usize,
            format!("<{}> after the end of the root element (a file has a single root element)", element.name),
        ));
    }
    Ok(())
}

fn close(stack: &mut [Element], root: &mut Option<Element>, element: Element) {
    match stack.last_mut() {
        Some(parent) => parent.content.push(Content::Element(element)),
        None => *root = Some(element),
    }
}

/// Script text may come in several pieces (text, CDATA sections, references): one source block.
fn append_source(parent: &mut Element, code: &str) {
    if let Some(Content::SourceCode(existing)) = parent.content.last_mut() {
        existing.push_str(code);
    } else {
        parent.content.push(Content::SourceCode(code.to_string()));
    }
}

/// An element and its attributes, each value unescaped at the offset where its text starts.
fn open(e: &BytesStart, text: &str, path: &Path, offset: usize) -> Result<Element, X3dError> {
    let base = text.as_ptr() as usize;
    let name = e.name().as_ref().to_string();
    let mut element = Element::new(name.clone(), offset as u32);
    for attr in e.attributes() {
        let mut attr =
            attr.map_err(|err| error_at(text, path, offset, format!("malformed attribute in <{name}>: {err}")))?;
        let value_offset = {
            let p = attr.value.as_ptr() as usize;
            if p >= base && p <= base + text.len() { p - base } else { offset }
        };
        let key = attr.key.as_ref().to_string();
        // XML normalisation turns CR LF into one space; two keep the offsets of what follows.
        if attr.value.contains('\r') {
            attr.value = attr.value.replace("\r\n", " \n").into();
        }
        let value = attr.normalized_value(XmlVersion::Implicit1_0).map_err(|err| {
            error_at(text, path, value_offset, format!("bad character or entity reference in attribute '{key}': {err}"))
        })?;
        element.attributes.push(Attribute { name: key, value: value.into_owned(), offset: value_offset as u32 });
    }
    Ok(element)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<SyntaxDocument, X3dError> {
        read(text, Path::new("t.x3d"))
    }

    #[test]
    fn keeps_elements_attributes_comments_and_script_source() {
        let doc = parse(
            "<?xml version='1.0'?>\n<X3D version='4.0'><head><meta name='a' content='b &amp; c'/></head>\
             <Scene><!-- hello --><Transform DEF='T' translation='0 1 0'><Shape/></Transform>\
             <Script DEF='S'><![CDATA[ecmascript: function f() {}]]></Script></Scene></X3D>",
        )
        .unwrap();
        assert_eq!(doc.root.attribute("version"), Some("4.0"));
        let head = doc.root.child("head").unwrap();
        assert_eq!(head.child("meta").unwrap().attribute("content"), Some("b & c"));
        let scene = doc.root.child("Scene").unwrap();
        assert_eq!(scene.content[0], Content::Comment(" hello ".into()));
        let t = scene.child("Transform").unwrap();
        assert_eq!(t.attribute("translation"), Some("0 1 0"));
        assert_eq!(t.child("Shape").unwrap().name, "Shape");
        let script = scene.child("Script").unwrap();
        assert_eq!(script.content, vec![Content::SourceCode("ecmascript: function f() {}".into())]);
    }

    #[test]
    fn reports_malformed_xml_and_a_wrong_root_with_line_and_column() {
        let e = parse("<X3D>\n<Scene>\n<Transform></Scene></X3D>").unwrap_err();
        assert!(e.pos.at.is_some(), "{e}");
        let e = parse("<Scene/>").unwrap_err();
        assert!(e.to_string().contains("expected an <X3D> root element"), "{e}");
        let e = parse("<X3D><Scene>").unwrap_err();
        assert!(e.to_string().contains("not closed"), "{e}");
        let e = parse("<X3D/><X3D/>").unwrap_err();
        assert!(e.to_string().contains("single root"), "{e}");
    }
}
