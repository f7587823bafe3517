//! Syntax tree → ClassicVRML text (ISO/IEC 19776-1 mapped onto 19776-2).
//!
//! - `#X3D V{version} utf8` (4.0 when the document gives no version), `PROFILE`, then the head's
//!   `COMPONENT name:level`, `UNIT category name factor` and `META "name" "content"` in their order, then
//!   the scene's statements, two spaces per level. The `X3D` element's other attributes (`xmlns`,
//!   `xsd:noNamespaceSchemaLocation`, …) have no classic form and are not written.
//! - A node is `DEF name Type { … }` or `USE name`; its attributes are fields written by their type (see
//!   `writer_values.rs`), its child elements node-valued fields `field Node { … }` / `field [ … ]`,
//!   grouped by containerField (the default container when the element names none), in the order each
//!   field first appears. `ProtoInstance` is `Name { … }` with its `fieldValue`s as fields; `IS` is
//!   `field IS protoField` lines; a Script's or shader's `field` is `accessType type name value`.
//! - `ProtoDeclare`, `ExternProtoDeclare`, `ROUTE`, `IMPORT` and `EXPORT` are the classic statements.
//!   An `IMPORT` or `EXPORT` inside a node (XML and JSON allow them among a grouping node's children) has
//!   no place in a classic node body (19776-2 A.3 `nodeBodyElement`: fields, IS, ROUTE and PROTO; X_ITE
//!   refuses the file): it is written, with the comments before it and in the order of the source, after
//!   the statement of the scene or PROTO body that holds it. Its meaning does not depend on its place
//!   (its names are the scene's or the body's).
//! - A comment is `# …`, one line per line of its text, before the statement, field or node that
//!   follows it in the tree (inside the brackets of a node list).
//! - A Script's inline source (XML character data, JSON `#sourceCode`) becomes its
//!   `url [ "ecmascript:…" ]` when the Script has no `url`; with a `url` the source is left out (the url
//!   is what the Script runs) and a comment says so. A shader part's source becomes a `data:text/plain,`
//!   url the same way.

use std::collections::HashMap;

use super::writer_values::{pad, value};
use super::{ProtoInterfaces, quote};
use crate::x3d::syntax::{Content, Element, SyntaxDocument};

/// Writes a document as ClassicVRML text.
pub(in crate::x3d::syntax) fn write(document: &SyntaxDocument) -> String {
    let mut writer = Writer { out: String::new(), interfaces: HashMap::new(), hoisted: Vec::new() };
    writer.document(&document.root);
    writer.out
}

/// Element names of the syntax tree that are not nodes.
pub(super) const NOT_NODES: &[&str] = &[
    "X3D",
    "head",
    "Scene",
    "component",
    "unit",
    "meta",
    "ProtoDeclare",
    "ProtoInterface",
    "ProtoBody",
    "ExternProtoDeclare",
    "field",
    "fieldValue",
    "IS",
    "connect",
    "ROUTE",
    "IMPORT",
    "EXPORT",
];

pub(super) struct Writer {
    pub out: String,
    /// The prototypes declared so far, for the types of their instances' fields.
    pub interfaces: ProtoInterfaces,
    /// IMPORT and EXPORT statements met inside the nodes of the statement being written, each with its
    /// offset in the source and the comments before it: written after that statement.
    pub hoisted: Vec<(u32, Vec<String>, String)>,
}

impl Writer {
    pub(super) fn line(&mut self, indent: usize, text: &str) {
        self.out.push_str(&pad(indent));
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// A comment, one `#` line per line of its text.
    pub(super) fn comment(&mut self, indent: usize, text: &str) {
        let text = text.trim();
        if text.is_empty() {
            self.line(indent, "#");
        }
        for line in text.lines() {
            let line = line.trim();
            self.line(indent, &if line.is_empty() { "#".to_string() } else { format!("# {line}") });
        }
    }

    fn document(&mut self, root: &Element) {
        let version = root.attribute("version").map(str::trim).filter(|v| !v.is_empty()).unwrap_or("4.0");
        self.line(0, &format!("#X3D V{version} utf8"));
        if let Some(profile) = root.attribute("profile").map(str::trim).filter(|p| !p.is_empty()) {
            self.line(0, &format!("PROFILE {profile}"));
        }
        for content in &root.content {
            match content {
                Content::Comment(text) => self.comment(0, text),
                Content::Element(e) if e.name == "head" => self.head(e),
                Content::Element(e) if e.name == "Scene" => {
                    self.out.push('\n');
                    self.statements(&e.content, 0);
                }
                _ => {}
            }
        }
    }

    fn head(&mut self, head: &Element) {
        for content in &head.content {
            match content {
                Content::Comment(text) => self.comment(0, text),
                Content::Element(e) => {
                    let get = |name| e.attribute(name).unwrap_or_default();
                    match e.name.as_str() {
                        "component" => match e.attribute("level") {
                            Some(level) => self.line(0, &format!("COMPONENT {}:{}", get("name"), level.trim())),
                            None => self.line(0, &format!("COMPONENT {}", get("name"))),
                        },
                        "unit" => self.line(
                            0,
                            &format!("UNIT {} {} {}", get("category"), get("name"), get("conversionFactor").trim()),
                        ),
                        "meta" => self.line(0, &format!("META {} {}", quote(get("name")), quote(get("content")))),
                        other => self.line(0, &format!("# <{other}> has no ClassicVRML form; not written")),
                    }
                }
                Content::SourceCode(_) => {}
            }
        }
    }

    /// The statements of the scene or of a PROTO body; after each, the IMPORT and EXPORT statements found
    /// inside its nodes.
    pub(super) fn statements(&mut self, content: &[Content], indent: usize) {
        // A PROTO body inside a node: the enclosing statement's hoisted ones wait for it.
        let outer = std::mem::take(&mut self.hoisted);
        for c in content {
            match c {
                Content::Comment(text) => self.comment(indent, text),
                Content::Element(e) => {
                    self.statement(e, indent);
                    // In the order of the source (a node's fields are grouped when written).
                    let mut hoisted = std::mem::take(&mut self.hoisted);
                    hoisted.sort_by_key(|(offset, _, _)| *offset);
                    for (_, comments, line) in hoisted {
                        for text in comments {
                            self.comment(indent, &text);
                        }
                        self.line(indent, &line);
                    }
                }
                Content::SourceCode(_) => {}
            }
        }
        self.hoisted = outer;
    }

    /// A node or a statement on lines of its own.
    pub(super) fn statement(&mut self, e: &Element, indent: usize) {
        let get = |name| e.attribute(name).unwrap_or_default();
        match e.name.as_str() {
            "ROUTE" => self.line(
                indent,
                &format!("ROUTE {}.{} TO {}.{}", get("fromNode"), get("fromField"), get("toNode"), get("toField")),
            ),
            "IMPORT" | "EXPORT" => self.line(indent, &import_export(e)),
            "ProtoDeclare" => self.proto_declare(e, indent),
            "ExternProtoDeclare" => self.extern_proto_declare(e, indent),
            name if NOT_NODES.contains(&name) => {
                self.line(indent, &format!("# <{name}> has no ClassicVRML form here; not written"));
            }
            _ => {
                self.out.push_str(&pad(indent));
                self.node(e, indent);
            }
        }
    }

    /// `PROTO Name [ interface ] { body }`; comments of the ProtoDeclare itself go before it or between
    /// the interface and the body, where they stand.
    fn proto_declare(&mut self, e: &Element, indent: usize) {
        let name = e.attribute("name").unwrap_or_default();
        let parts_at = e
            .content
            .iter()
            .position(|c| matches!(c, Content::Element(p) if p.name == "ProtoInterface" || p.name == "ProtoBody"))
            .unwrap_or(e.content.len());
        let comments = |range: &[Content]| -> Vec<String> {
            range
                .iter()
                .filter_map(|c| match c {
                    Content::Comment(text) => Some(text.clone()),
                    _ => None,
                })
                .collect()
        };
        for text in comments(&e.content[..parts_at]) {
            self.comment(indent, &text);
        }
        let interface = e.child("ProtoInterface");
        self.register(name, interface);
        self.line(indent, &format!("PROTO {name} ["));
        if let Some(interface) = interface {
            self.interface(interface, indent + 1, false);
        }
        self.line(indent, "]");
        for text in comments(&e.content[parts_at..]) {
            self.comment(indent, &text);
        }
        self.line(indent, "{");
        if let Some(body) = e.child("ProtoBody") {
            self.statements(&body.content, indent + 1);
        }
        self.line(indent, "}");
    }

    /// `EXTERNPROTO Name [ declarations ] [ "url" … ]`.
    fn extern_proto_declare(&mut self, e: &Element, indent: usize) {
        let name = e.attribute("name").unwrap_or_default();
        self.register(name, Some(e));
        self.line(indent, &format!("EXTERNPROTO {name} ["));
        self.interface(e, indent + 1, true);
        let urls = value(Some("MFString"), e.attribute("url").unwrap_or_default(), indent);
        self.line(indent, &format!("] {urls}"));
    }

    /// Records the field types of a prototype's interface (the `field` children of `holder`).
    fn register(&mut self, name: &str, holder: Option<&Element>) {
        let fields = holder
            .into_iter()
            .flat_map(|h| h.elements())
            .filter(|f| f.name == "field")
            .filter_map(|f| Some((f.attribute("name")?.to_string(), f.attribute("type")?.to_string())))
            .collect();
        self.interfaces.insert(name.to_string(), fields);
    }

    /// The `field` declarations and comments of an interface.
    fn interface(&mut self, holder: &Element, indent: usize, external: bool) {
        for c in &holder.content {
            match c {
                Content::Comment(text) => self.comment(indent, text),
                Content::Element(field) if field.name == "field" => self.declaration(field, indent, external, None),
                Content::Element(other) => {
                    self.line(indent, &format!("# <{}> has no ClassicVRML form here; not written", other.name));
                }
                Content::SourceCode(_) => {}
            }
        }
    }
}

/// `IMPORT inline.name [AS name]` or `EXPORT name [AS name]`.
pub(super) fn import_export(e: &Element) -> String {
    let get = |name| e.attribute(name).unwrap_or_default();
    let alias = e.attribute("AS").map(|a| format!(" AS {a}")).unwrap_or_default();
    if e.name == "IMPORT" {
        format!("IMPORT {}.{}{alias}", get("inlineDEF"), get("importedDEF"))
    } else {
        format!("EXPORT {}{alias}", get("localDEF"))
    }
}
