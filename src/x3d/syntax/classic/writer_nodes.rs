//! Nodes and their bodies: fields from attributes, node-valued fields grouped by containerField,
//! prototype instances' `fieldValue`s, `IS` connections and Script/shader field declarations.
//!
//! A node's content is written in the order each part first appears: a node-valued field at its first
//! node (all its nodes together, since a classic field is written once), the other elements where they
//! stand. A comment goes with the element after it (inside the list, for a node of a list), so reading
//! the text back puts it at the same place.

use std::collections::HashMap;

use super::writer::{NOT_NODES, Writer, import_export};
use super::writer_values::{default_value, pad, value};
use super::{access_type, carries_value, field_type_of, quote};
use crate::x3d::field_types::{default_container, is_node_type};
use crate::x3d::syntax::{Content, Element};

/// A part of a node's body.
enum Item<'a> {
    /// The nodes of one node-valued field, each with the comments before it.
    Nodes { field: String, members: Vec<(Vec<&'a str>, &'a Element)> },
    /// Another element (IS, field, fieldValue, a statement) with the comments before it.
    Other { comments: Vec<&'a str>, element: &'a Element },
}

/// The elements of `e` each with the comments before it, and the comments after the last.
fn members_of(e: &Element) -> (Vec<(Vec<&str>, &Element)>, Vec<&str>) {
    let mut members = Vec::new();
    let mut comments = Vec::new();
    for c in &e.content {
        match c {
            Content::Comment(text) => comments.push(text.as_str()),
            Content::Element(child) => members.push((std::mem::take(&mut comments), child)),
            Content::SourceCode(_) => {}
        }
    }
    (members, comments)
}

impl Writer {
    /// A node, continuing the current line: `USE name` or `DEF name Type { … }` (`Type { }` when empty).
    pub(super) fn node(&mut self, e: &Element, indent: usize) {
        if let Some(name) = e.attribute("USE") {
            self.out.push_str(&format!("USE {name}\n"));
            return;
        }
        let instance = e.name == "ProtoInstance";
        let type_name = if instance { e.attribute("name").unwrap_or("ProtoInstance") } else { e.name.as_str() };
        if let Some(def) = e.attribute("DEF") {
            self.out.push_str(&format!("DEF {def} "));
        }
        self.out.push_str(&format!("{type_name} {{\n"));
        let body_start = self.out.len();
        self.body(e, instance.then_some(type_name), indent + 1);
        if self.out.len() == body_start {
            self.out.truncate(body_start - 1);
            self.out.push_str(" }\n");
        } else {
            self.line(indent, "}");
        }
    }

    /// A node's fields, then its content; `proto` names the prototype of an instance.
    fn body(&mut self, e: &Element, proto: Option<&str>, indent: usize) {
        let declared: HashMap<&str, &str> = e
            .elements()
            .filter(|f| f.name == "field")
            .filter_map(|f| Some((f.attribute("name")?, f.attribute("type")?)))
            .collect();
        // An instance's values are its fieldValues; its attributes are only name, DEF, USE, containerField
        // and the XML decoration (class, id, style), none of them fields.
        if proto.is_none() {
            for a in &e.attributes {
                if matches!(a.name.as_str(), "DEF" | "USE" | "containerField") {
                    continue;
                }
                let ty = match declared.get(a.name.as_str()) {
                    Some(ty) => Some(ty.to_string()),
                    None => field_type_of(&e.name, None, &a.name, &self.interfaces),
                };
                if ty.as_deref().is_some_and(is_node_type) {
                    self.line(indent, &format!("# attribute '{}' of a node-valued field; not written", a.name));
                    continue;
                }
                let text = value(ty.as_deref(), &a.value, indent);
                self.line(indent, &format!("{} {text}", a.name));
            }
        }
        self.source_code(e, indent);
        self.content(e, proto, indent);
    }

    /// Inline source (XML character data): the node's `url` when it has none.
    fn source_code(&mut self, e: &Element, indent: usize) {
        let source: String = e
            .content
            .iter()
            .filter_map(|c| match c {
                Content::SourceCode(s) => Some(s.as_str()),
                _ => None,
            })
            .collect();
        if source.trim().is_empty() {
            return;
        }
        if e.attribute("url").is_some() {
            self.line(indent, "# the inline source code is not written: the node has a url");
            return;
        }
        let trimmed = source.trim_start();
        let has_protocol =
            ["ecmascript:", "javascript:", "vrmlscript:", "data:"].iter().any(|p| trimmed.starts_with(p));
        let url = if has_protocol {
            trimmed.to_string()
        } else if e.name == "Script" {
            format!("ecmascript:{source}")
        } else {
            format!("data:text/plain,{source}")
        };
        self.line(indent, &format!("url [ {} ]", quote(&url)));
    }

    /// The content of a node in the order each part first appears.
    fn content(&mut self, e: &Element, proto: Option<&str>, indent: usize) {
        let mut items: Vec<Item> = Vec::new();
        let mut comments: Vec<&str> = Vec::new();
        for c in &e.content {
            match c {
                Content::Comment(text) => comments.push(text),
                Content::SourceCode(_) => {}
                Content::Element(child) if NOT_NODES.contains(&child.name.as_str()) => {
                    items.push(Item::Other { comments: std::mem::take(&mut comments), element: child });
                }
                Content::Element(child) => {
                    let field = match child.attribute("containerField") {
                        Some(field) => field.to_string(),
                        None => default_container(&child.name, Some(&e.name)).to_string(),
                    };
                    let member = (std::mem::take(&mut comments), child);
                    match items.iter_mut().find(|i| matches!(i, Item::Nodes { field: f, .. } if *f == field)) {
                        Some(Item::Nodes { members, .. }) => members.push(member),
                        _ => items.push(Item::Nodes { field, members: vec![member] }),
                    }
                }
            }
        }
        let connected = is_declarations(e);
        for item in items {
            match item {
                Item::Nodes { field, members } => {
                    let ty = field_type_of(&e.name, proto, &field, &self.interfaces);
                    self.node_field(&field, ty.as_deref() == Some("SFNode"), &members, &[], indent);
                }
                Item::Other { comments, element } if matches!(element.name.as_str(), "IMPORT" | "EXPORT") => {
                    // No place in a node body: after the enclosing statement (see `writer.rs`).
                    let comments = comments.into_iter().map(str::to_string).collect();
                    self.hoisted.push((element.offset, comments, import_export(element)));
                }
                Item::Other { comments, element } => {
                    for text in comments {
                        self.comment(indent, text);
                    }
                    self.body_element(element, proto, &connected, indent);
                }
            }
        }
        for text in comments {
            self.comment(indent, text);
        }
    }

    /// An element of a node's body other than a node.
    fn body_element(&mut self, e: &Element, proto: Option<&str>, connected: &HashMap<&str, &str>, indent: usize) {
        match e.name.as_str() {
            "IS" => {
                for c in &e.content {
                    match c {
                        Content::Comment(text) => self.comment(indent, text),
                        Content::Element(connect) if connect.name == "connect" => {
                            let node_field = connect.attribute("nodeField").unwrap_or_default();
                            let proto_field = connect.attribute("protoField").unwrap_or_default();
                            if connected.get(node_field) != Some(&proto_field) {
                                self.line(indent, &format!("{node_field} IS {proto_field}"));
                            }
                        }
                        _ => {}
                    }
                }
            }
            "field" => {
                let name = e.attribute("name").unwrap_or_default();
                self.declaration(e, indent, false, connected.get(name).copied());
            }
            "fieldValue" => self.field_value(e, proto, indent),
            _ => self.statement(e, indent),
        }
    }

    /// `head Node { … }` (one line per node when `single`) or `head [ … ]`, comments where they stand.
    fn node_field(
        &mut self,
        head: &str,
        single: bool,
        members: &[(Vec<&str>, &Element)],
        trailing: &[&str],
        indent: usize,
    ) {
        if single {
            for (comments, node) in members {
                if comments.is_empty() {
                    self.out.push_str(&format!("{}{head} ", pad(indent)));
                    self.node(node, indent);
                } else {
                    self.line(indent, head);
                    for text in comments {
                        self.comment(indent + 1, text);
                    }
                    self.out.push_str(&pad(indent + 1));
                    self.node(node, indent + 1);
                }
            }
            for text in trailing {
                self.comment(indent, text);
            }
            return;
        }
        self.line(indent, &format!("{head} ["));
        for (comments, node) in members {
            for text in comments {
                self.comment(indent + 1, text);
            }
            self.out.push_str(&pad(indent + 1));
            self.node(node, indent + 1);
        }
        for text in trailing {
            self.comment(indent + 1, text);
        }
        self.line(indent, "]");
    }

    /// A prototype instance's `fieldValue`: `name value` by the interface's type, or its nodes.
    fn field_value(&mut self, e: &Element, proto: Option<&str>, indent: usize) {
        let name = e.attribute("name").unwrap_or_default();
        let ty = proto.and_then(|p| field_type_of("ProtoInstance", Some(p), name, &self.interfaces));
        let (members, trailing) = members_of(e);
        let node_valued = ty.as_deref().is_none_or(is_node_type);
        match e.attribute("value") {
            Some(text) if members.is_empty() || !node_valued => {
                for c in &trailing {
                    self.comment(indent, c);
                }
                let written = value(ty.as_deref(), text, indent);
                self.line(indent, &format!("{name} {written}"));
            }
            _ if !members.is_empty() => {
                self.node_field(name, ty.as_deref() == Some("SFNode"), &members, &trailing, indent);
            }
            _ => {
                for text in &trailing {
                    self.comment(indent, text);
                }
                // Given without a value: an empty node list, or no node.
                if node_valued {
                    let empty = if ty.as_deref() == Some("MFNode") { "[ ]" } else { "NULL" };
                    self.line(indent, &format!("{name} {empty}"));
                }
            }
        }
    }

    /// `accessType type name [value | IS protoField]` of an interface or a Script/shader node; an
    /// external prototype's declarations and events carry no value.
    pub(super) fn declaration(&mut self, e: &Element, indent: usize, external: bool, is: Option<&str>) {
        let name = e.attribute("name").unwrap_or_default();
        let Some(ty) = e.attribute("type") else {
            self.line(indent, &format!("# field '{name}' has no type; not written"));
            return;
        };
        let access = e.attribute("accessType").and_then(access_type).unwrap_or("initializeOnly");
        let head = format!("{access} {ty} {name}");
        let (members, trailing) = members_of(e);
        if let Some(proto_field) = is {
            self.line(indent, &format!("{head} IS {proto_field}"));
            return;
        }
        if external || !carries_value(access) {
            self.line(indent, &head);
            return;
        }
        if is_node_type(ty) && !members.is_empty() {
            self.node_field(&head, ty == "SFNode", &members, &trailing, indent);
            return;
        }
        for text in &trailing {
            self.comment(indent, text);
        }
        let text = match e.attribute("value") {
            Some(text) if !is_node_type(ty) => value(Some(ty), text, indent),
            _ => default_value(ty).to_string(),
        };
        self.line(indent, &format!("{head} {text}"));
    }
}

/// The `IS` connections of `e` that its field declarations carry (`inputOutput SFFloat x IS y`): the
/// declared fields without a value or nodes, each with the first prototype field connected to it.
fn is_declarations(e: &Element) -> HashMap<&str, &str> {
    let connects: Vec<(&str, &str)> = e
        .elements()
        .filter(|i| i.name == "IS")
        .flat_map(|i| i.elements())
        .filter_map(|c| Some((c.attribute("nodeField")?, c.attribute("protoField")?)))
        .collect();
    let mut out = HashMap::new();
    for field in e.elements().filter(|f| f.name == "field") {
        let Some(name) = field.attribute("name") else { continue };
        if field.attribute("value").is_some() || field.elements().next().is_some() {
            continue;
        }
        if let Some((_, proto_field)) = connects.iter().find(|(n, _)| *n == name) {
            out.insert(name, *proto_field);
        }
    }
    out
}
