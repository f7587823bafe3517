//! A [`SyntaxDocument`] as X3D XML 4.0 text that validates against the X3D 4.0 XML Schema: an XML
//! declaration, no DOCTYPE, the `X3D` element with `profile`, `version` and the schema location, then
//! every element as the tree holds it, two spaces of indentation per level, attributes in the tree's
//! order with double quotes.
//!
//! What the tree cannot say as it is, and what is written instead:
//! - `version`: one the 4.0 schema accepts (3.0 to 4.0) is kept, so a 3.x file keeps the meaning of 3.x
//!   (the loader reads texture modulation and H-Anim defaults by version); 4.1 is kept with the 4.1
//!   schema location; any other 4.x or later is written 4.0 and anything else (VRML97, none) 3.0, so
//!   that the version reads as 4-or-later exactly when the tree's did. See [`written_version`].
//! - `profile`: one the schema knows is kept, any other (or none) is written `Full`, the profile that
//!   holds every component ([`written_profile`]).
//! - the `X3D` element's namespace attributes (`xmlns:…`, `xsd:…`, `xsi:…`) are replaced by this
//!   writer's own; its other attributes follow them.
//! - a document without `Scene` gets an empty one (the schema requires it).
//! - attribute values are escaped with `quick_xml::escape::escape`, and tab, line feed and carriage
//!   return as character references, which XML's attribute normalisation leaves as they are: a value
//!   read back is the value written.
//! - comments: XML forbids `--` inside a comment and a `-` just before its end, so a space is put
//!   between two hyphens that follow each other, and after a final hyphen.
//! - Script and shader source is written as one CDATA section; a `]]>` inside it is split across two
//!   sections (`]]]]><![CDATA[>`), which read back as the same text.
//! - characters XML 1.0 cannot hold at all (control characters other than tab, line feed and carriage
//!   return, which a JSON or ClassicVRML string may carry) are written as U+FFFD.

use std::borrow::Cow;

use super::{Content, Element, SyntaxDocument};

/// The X3D versions the X3D 4.0 XML Schema (and the 4.0 JSON schema) accept.
const SCHEMA_VERSIONS: &[&str] = &["3.0", "3.1", "3.2", "3.3", "4.0"];

/// The profiles both X3D 4 schemas accept.
const SCHEMA_PROFILES: &[&str] = &[
    "Core",
    "Interchange",
    "CADInterchange",
    "Interactive",
    "Immersive",
    "MedicalInterchange",
    "MPEG4Interactive",
    "Full",
];

/// The `version` written for the tree's: one the 4.0 schema accepts, or 4.1, as it is; another whose
/// major number is 4 or more, 4.0; anything else 3.0 (VRML97 and documents without a version mean what
/// X3D 3.0 means to every reader of this project).
pub(super) fn written_version(version: Option<&str>) -> &'static str {
    let version = version.unwrap_or("").trim();
    if version == "4.1" {
        return "4.1";
    }
    if let Some(known) = SCHEMA_VERSIONS.iter().copied().find(|v| *v == version) {
        return known;
    }
    let major = version.split('.').next().and_then(|m| m.parse::<u32>().ok());
    if major.is_some_and(|m| m >= 4) { "4.0" } else { "3.0" }
}

/// The `profile` written for the tree's: a known one as it is, else `Full`.
pub(super) fn written_profile(profile: Option<&str>) -> &'static str {
    let profile = profile.unwrap_or("").trim();
    SCHEMA_PROFILES.iter().copied().find(|p| *p == profile).unwrap_or("Full")
}

/// Whether an attribute of the `X3D` element is an XML namespace matter (a declaration, or the schema
/// location in some namespace), which the writers replace with their own.
pub(super) fn is_namespace_attribute(name: &str) -> bool {
    name.contains(':') || name == "xmlns"
}

const XSD_NAMESPACE: &str = "http://www.w3.org/2001/XMLSchema-instance";

pub(super) fn write(document: &SyntaxDocument) -> String {
    let root = &document.root;
    let version = written_version(root.attribute("version"));
    let schema = format!("https://www.web3d.org/specifications/x3d-{version}.xsd");
    let schema = if version == "4.1" { schema } else { "https://www.web3d.org/specifications/x3d-4.0.xsd".to_string() };
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(&format!(
        "<X3D profile=\"{}\" version=\"{version}\" xmlns:xsd=\"{XSD_NAMESPACE}\" xsd:noNamespaceSchemaLocation=\"{schema}\"",
        written_profile(root.attribute("profile"))
    ));
    for attribute in &root.attributes {
        if !matches!(attribute.name.as_str(), "profile" | "version") && !is_namespace_attribute(&attribute.name) {
            push_attribute(&mut out, &attribute.name, &attribute.value);
        }
    }
    out.push_str(">\n");
    write_contents(&mut out, &root.content, 1);
    if root.child("Scene").is_none() {
        out.push_str("  <Scene/>\n");
    }
    out.push_str("</X3D>\n");
    out
}

/// Writes `contents` at `depth`, and everything inside them, with an explicit stack (a tree from any
/// reader is written whatever its depth).
fn write_contents(out: &mut String, contents: &[Content], depth: usize) {
    let mut stack: Vec<(std::slice::Iter<'_, Content>, Option<&Element>)> = vec![(contents.iter(), None)];
    while let Some((items, _)) = stack.last_mut() {
        let next = items.next();
        let level = depth + stack.len() - 1;
        match next {
            Some(Content::Element(element)) => {
                indent(out, level);
                out.push('<');
                out.push_str(&element.name);
                for attribute in &element.attributes {
                    push_attribute(out, &attribute.name, &attribute.value);
                }
                if element.content.is_empty() {
                    out.push_str("/>\n");
                } else {
                    out.push_str(">\n");
                    stack.push((element.content.iter(), Some(element)));
                }
            }
            Some(Content::Comment(text)) => {
                indent(out, level);
                out.push_str("<!--");
                out.push_str(&comment_text(text));
                out.push_str("-->\n");
            }
            Some(Content::SourceCode(code)) => {
                indent(out, level);
                out.push_str("<![CDATA[");
                out.push_str(&xml_chars(code).replace("]]>", "]]]]><![CDATA[>"));
                out.push_str("]]>\n");
            }
            None => {
                if let Some((_, Some(element))) = stack.pop() {
                    indent(out, level - 1);
                    out.push_str("</");
                    out.push_str(&element.name);
                    out.push_str(">\n");
                }
            }
        }
    }
}

fn indent(out: &mut String, level: usize) {
    out.extend(std::iter::repeat_n("  ", level));
}

/// ` name="value"`, the value escaped so that reading it back gives `value`.
fn push_attribute(out: &mut String, name: &str, value: &str) {
    out.push(' ');
    out.push_str(name);
    out.push_str("=\"");
    let escaped = quick_xml::escape::escape(xml_chars(value));
    if escaped.contains(['\t', '\n', '\r']) {
        out.push_str(&escaped.replace('\t', "&#9;").replace('\n', "&#10;").replace('\r', "&#13;"));
    } else {
        out.push_str(&escaped);
    }
    out.push('"');
}

/// A comment's text that XML accepts: no `--` inside, no `-` at the end.
fn comment_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in xml_chars(text).chars() {
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

/// Whether XML 1.0 can hold the character (its `Char` production).
fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// `text` with the characters XML cannot hold replaced by U+FFFD.
fn xml_chars(text: &str) -> Cow<'_, str> {
    if text.chars().all(is_xml_char) {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(text.chars().map(|c| if is_xml_char(c) { c } else { '\u{FFFD}' }).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::x3d::syntax::Attribute;

    fn element(name: &str, attributes: &[(&str, &str)], content: Vec<Content>) -> Element {
        Element {
            name: name.into(),
            attributes: attributes
                .iter()
                .map(|(n, v)| Attribute { name: (*n).into(), value: (*v).into(), offset: 0 })
                .collect(),
            content,
            offset: 0,
        }
    }

    #[test]
    fn comments_never_hold_a_double_hyphen_or_end_in_one() {
        assert_eq!(comment_text("a -- b"), "a - - b");
        assert_eq!(comment_text("---"), "- - - ");
        assert_eq!(comment_text("end-"), "end- ");
        assert_eq!(comment_text("plain"), "plain");
    }

    #[test]
    fn header_versions_and_profiles() {
        assert_eq!(written_version(Some("3.3")), "3.3");
        assert_eq!(written_version(Some("4.1")), "4.1");
        assert_eq!(written_version(Some("VRML97")), "3.0");
        assert_eq!(written_version(None), "3.0");
        assert_eq!(written_version(Some("4")), "4.0");
        assert_eq!(written_profile(Some("Immersive")), "Immersive");
        assert_eq!(written_profile(Some("HAnim")), "Full");
    }

    #[test]
    fn values_comments_and_source_survive_what_xml_forbids() {
        let script = element(
            "Script",
            &[("DEF", "S")],
            vec![Content::SourceCode("if (a]]>b) {}".into()), Content::Comment("x--y-".into())],
        );
        let scene = element(
            "Scene",
            &[],
            vec![
                Content::Element(element("WorldInfo", &[("title", "a\"b<c>&\td\ne\u{1}")], vec![])),
                Content::Element(script),
            ],
        );
        let root = element(
            "X3D",
            &[("xmlns:xsd", "x"), ("profile", "Immersive"), ("class", "k")],
            vec![Content::Element(scene)],
        );
        let text = write(&SyntaxDocument { root });
        assert!(text.contains(r#"profile="Immersive" version="3.0" xmlns:xsd="#), "{text}");
        assert!(text.contains(r#"class="k">"#), "{text}");
        assert!(text.contains(r#"title="a&quot;b&lt;c&gt;&amp;&#9;d&#10;e�""#), "{text}");
        assert!(text.contains("<![CDATA[if (a]]]]><![CDATA[>b) {}]]>"), "{text}");
        assert!(text.contains("<!--x- -y- -->"), "{text}");
    }
}
