//! The syntax tree written as X3D XML that validates against the X3D 4.0 XML Schema: an XML
//! declaration, the `X3D` root with the schema location, every element with its attributes in the
//! tree's order (escaped by quick-xml), comments, and Script or shader source as CDATA.
//!
//! Readings:
//! - The document is written as X3D 4.0 unless the tree says 4.x: the 4.0 schema is the one the
//!   product validates against, and X3D 4.0 keeps every 3.x node and field a humanoid file uses.
//!   `profile` defaults to `Full` when the tree has none (the schema requires one).
//! - XML forbids `--` inside a comment and a comment ending in `-`; such characters are separated by a
//!   space (`- -`), the only change a comment's text undergoes.
//! - `]]>` inside script source ends a CDATA section; it is split across two sections.

use std::fmt::Write as _;

use quick_xml::escape::escape;

use super::{Content, Element, SyntaxDocument};

/// The attributes of `<X3D>` the writer sets itself (namespace and schema location).
const ROOT_DECORATION: &[&str] = &["xmlns:xsd", "xsd:noNamespaceSchemaLocation", "xmlns"];

pub(super) fn write(document: &SyntaxDocument) -> String {
    let root = &document.root;
    let version = match root.attribute("version") {
        Some(v) if v.starts_with("4.") => v,
        _ => "4.0",
    };
    let profile = root.attribute("profile").filter(|p| !p.is_empty()).unwrap_or("Full");
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = write!(
        out,
        "<X3D profile=\"{}\" version=\"{}\" xmlns:xsd=\"http://www.w3.org/2001/XMLSchema-instance\" \
         xsd:noNamespaceSchemaLocation=\"https://www.web3d.org/specifications/x3d-{}.xsd\"",
        escape(profile),
        escape(version),
        if version == "4.1" { "4.1" } else { "4.0" }
    );
    for a in &root.attributes {
        if !matches!(a.name.as_str(), "profile" | "version") && !ROOT_DECORATION.contains(&a.name.as_str()) {
            let _ = write!(out, " {}=\"{}\"", a.name, escape(a.value.as_str()));
        }
    }
    out.push_str(">\n");
    write_content(&mut out, &root.content, 1);
    out.push_str("</X3D>\n");
    out
}

/// Writes a list of contents at `depth` (iterative over siblings, recursive over depth: trees come from
/// readers that bound their depth).
fn write_content(out: &mut String, content: &[Content], depth: usize) {
    for item in content {
        match item {
            Content::Element(e) => write_element(out, e, depth),
            Content::Comment(c) => {
                indent(out, depth);
                let _ = writeln!(out, "<!--{}-->", comment_text(c));
            }
            Content::SourceCode(code) => {
                indent(out, depth);
                out.push_str("<![CDATA[");
                out.push_str(&code.replace("]]>", "]]]]><![CDATA[>"));
                out.push_str("]]>\n");
            }
        }
    }
}

fn write_element(out: &mut String, e: &Element, depth: usize) {
    indent(out, depth);
    out.push('<');
    out.push_str(&e.name);
    for a in &e.attributes {
        let _ = write!(out, " {}=\"{}\"", a.name, escape_attribute(&a.value));
    }
    if e.content.is_empty() {
        out.push_str("/>\n");
        return;
    }
    out.push_str(">\n");
    write_content(out, &e.content, depth + 1);
    indent(out, depth);
    let _ = writeln!(out, "</{}>", e.name);
}

/// An attribute value escaped for double quotes; line breaks and tabs as character references, so
/// that attribute-value normalisation does not turn them into spaces when the file is read back.
fn escape_attribute(value: &str) -> String {
    escape(value).replace('\n', "&#10;").replace('\r', "&#13;").replace('\t', "&#9;")
}

/// A comment's text made legal in XML (no `--`, no trailing `-`).
fn comment_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '-' && out.ends_with('-') {
            out.push(' ');
        }
        out.push(c);
    }
    if out.ends_with('-') {
        out.push(' ');
    }
    out
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::x3d::syntax::Attribute;

    #[test]
    fn writes_escaped_attributes_comments_and_cdata() {
        let mut shape = Element::new("Transform", 0);
        shape.attributes.push(Attribute { name: "DEF".into(), value: "a<b\"c".into(), offset: 0 });
        let mut script = Element::new("Script", 0);
        script.content.push(Content::SourceCode("x ]]> y".into()));
        let mut scene = Element::new("Scene", 0);
        scene.content = vec![
            Content::Comment("a -- b-".into()),
            Content::Element(shape),
            Content::Element(script),
        ];
        let mut root = Element::new("X3D", 0);
        root.set_attribute("version", "3.3");
        root.content.push(Content::Element(scene));
        let text = write(&SyntaxDocument { root });
        assert!(text.contains("version=\"4.0\""), "{text}");
        assert!(text.contains("<!--a - - b- -->"), "{text}");
        assert!(text.contains("DEF=\"a&lt;b&quot;c\""), "{text}");
        assert!(text.contains("<![CDATA[x ]]]]><![CDATA[> y]]>"), "{text}");
    }
}
