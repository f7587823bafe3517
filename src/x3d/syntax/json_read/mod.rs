//! X3D JSON (ISO/IEC 19776-5) into the syntax tree: `{"X3D": {…}}` becomes the elements and attributes
//! the XML encoding would have, so that the XML reader's scene builder loads it with the same rules.
//!
//! The mapping:
//! - `"@name": value` is attribute `name`; the value becomes XML attribute text: a number as written,
//!   `true`/`false`, a string's characters (an SFString), an array of values its scalars separated by
//!   spaces with strings quoted (`"a" "b"`, an MFString; nested arrays flattened), `[]` empty text;
//! - `"-field": [{"Type": {…}}, …]` (or one such object) holds the nodes of field `field`: each is an
//!   element `Type`, with `containerField` only where `field` is not the default container of `Type`
//!   inside its parent ([`default_container`]);
//! - other members name statements or document elements: an object (`head`, `Scene`,
//!   `ProtoInterface`, `ProtoBody`, `IS`) or an array of objects (`meta`, `component`, `unit`,
//!   `field`, `fieldValue`, `connect`), each an element of that name;
//! - `"#comment"` (a string, an array of strings, or an entry `{"#comment": …}` among nodes) is a
//!   comment, `"#sourceCode"` (a string or an array of lines) a Script's or shader's source;
//! - `encoding` and `JSON schema` of the `X3D` object describe the JSON file itself and are dropped.
//!
//! Every element records the offset of its name, every attribute the offset of its value; the
//! [`JsonValueMap`] returned beside the tree maps an offset in rebuilt attribute text back to the JSON
//! element it came from, for messages about bad values.

mod parse;

use std::path::Path;

use self::parse::{Json, JsonValue, Member};
use super::{Attribute, Content, Element, SyntaxDocument};
use crate::x3d::error::X3dError;
use crate::x3d::field_types::default_container;
use crate::x3d::scene::{JsonValueKind, JsonValueMap};

pub(super) fn read(text: &str, path: &Path) -> Result<SyntaxDocument, X3dError> {
    read_with_values(text, path).map(|(document, _)| document)
}

/// Reads X3D JSON text into the syntax tree, with where its attribute values are in the text.
pub(crate) fn read_with_values(text: &str, path: &Path) -> Result<(SyntaxDocument, JsonValueMap), X3dError> {
    let json = parse::parse(text, path)?;
    let mut reader = Reader { text, path, values: JsonValueMap::default() };
    let JsonValue::Object(members) = json.value else {
        return Err(reader.error(json.start, "expected a JSON object {\"X3D\": {…}} (is this an X3D JSON file?)"));
    };
    let Some(x3d) = members.into_iter().find(|m| m.name == "X3D") else {
        return Err(
            reader.error(json.start, "expected an \"X3D\" member in the top-level object (is this an X3D JSON file?)")
        );
    };
    let root = reader.element("X3D".to_string(), x3d.offset, x3d.value)?;
    Ok((SyntaxDocument { root }, reader.values))
}

/// Elements that are statements or parts of the document, not nodes: they never carry a
/// `containerField`, and what they hold is not in a field of theirs.
fn is_statement(name: &str) -> bool {
    matches!(
        name,
        "X3D"
            | "head"
            | "Scene"
            | "meta"
            | "component"
            | "unit"
            | "ROUTE"
            | "IMPORT"
            | "EXPORT"
            | "ProtoDeclare"
            | "ExternProtoDeclare"
            | "ProtoInterface"
            | "ProtoBody"
            | "IS"
            | "connect"
            | "field"
            | "fieldValue"
    )
}

/// A JSON value's kind, for messages.
fn kind_of(value: &JsonValue) -> &'static str {
    match value {
        JsonValue::String(_) => "a string",
        JsonValue::Number => "a number",
        JsonValue::Bool(_) => "a boolean",
        JsonValue::Null => "null",
        JsonValue::Values(v) if v.starts.is_empty() => "an empty array",
        JsonValue::Values(_) => "an array of values",
        JsonValue::Objects(_) => "an array of objects",
        JsonValue::Object(_) => "an object",
    }
}

struct Reader<'a> {
    text: &'a str,
    path: &'a Path,
    values: JsonValueMap,
}

impl Reader<'_> {
    fn error(&self, offset: u32, message: impl Into<String>) -> X3dError {
        super::error_at(self.text, self.path, offset as usize, message)
    }

    /// Element `name` from its object (`{"@attribute": …, "-field": […], …}`), the name at `offset`.
    fn element(&mut self, name: String, offset: u32, json: Json) -> Result<Element, X3dError> {
        let JsonValue::Object(members) = json.value else {
            return Err(
                self.error(json.start, format!("expected an object for \"{name}\", found {}", kind_of(&json.value)))
            );
        };
        let mut element = Element::new(name, offset);
        for member in members {
            if let Some(attribute) = member.name.strip_prefix('@') {
                let attribute = attribute.to_string();
                let value = self.attribute_text(&element.name, &attribute, member.value)?;
                element.attributes.push(Attribute { name: attribute, value: value.0, offset: value.1 });
            } else if let Some(field) = member.name.strip_prefix('-') {
                let field = field.to_string();
                self.field(&mut element, &field, member.value)?;
            } else if member.name == "#comment" {
                self.comments(&mut element.content, member.value)?;
            } else if member.name == "#sourceCode" {
                let source = self.lines("#sourceCode", member.value)?.join("\n");
                element.content.push(Content::SourceCode(source));
            } else {
                self.statements(&mut element, member)?;
            }
        }
        Ok(element)
    }

    /// An attribute's value as XML attribute text, and where the value starts.
    fn attribute_text(&mut self, element: &str, name: &str, json: Json) -> Result<(String, u32), X3dError> {
        let (start, end) = (json.start, json.end);
        let (text, kind) = match json.value {
            JsonValue::String(s) => (s, JsonValueKind::String),
            JsonValue::Number => (self.text[start as usize..end as usize].to_string(), JsonValueKind::Scalar),
            JsonValue::Bool(b) => (b.to_string(), JsonValueKind::Scalar),
            JsonValue::Values(values) => {
                for &s in &values.starts {
                    self.values.push_scalar(s);
                }
                (values.text, JsonValueKind::Array)
            }
            JsonValue::Null => {
                return Err(
                    self.error(start, format!("\"@{name}\" of \"{element}\" is null, which is not an X3D value"))
                );
            }
            JsonValue::Object(_) => return Err(self.object_for_value(start, element, name)),
            JsonValue::Objects(list) => {
                return Err(self.object_for_value(list.first().map_or(start, |o| o.start), element, name));
            }
        };
        self.values.push_value(start, end, kind);
        Ok((text, start))
    }

    fn object_for_value(&self, at: u32, element: &str, name: &str) -> X3dError {
        self.error(
            at,
            format!(
                "an object where a value belongs: \"@{name}\" of \"{element}\" takes a number, a boolean, a string \
                 or an array of them (node values go in \"-{name}\")"
            ),
        )
    }

    /// The nodes (and comments) of `"-field"` of `parent`.
    fn field(&mut self, parent: &mut Element, field: &str, json: Json) -> Result<(), X3dError> {
        let entries = match json.value {
            JsonValue::Object(members) => vec![Json { value: JsonValue::Object(members), ..json }],
            JsonValue::Objects(list) => list,
            // SFNode NULL, or an empty MFNode.
            JsonValue::Null => Vec::new(),
            JsonValue::Values(v) if v.starts.is_empty() => Vec::new(),
            other => {
                let at = match &other {
                    JsonValue::Values(v) => v.starts.first().copied().unwrap_or(json.start),
                    _ => json.start,
                };
                let found = match &other {
                    JsonValue::Values(_) => "values",
                    kind => kind_of(kind),
                };
                return Err(self.error(
                    at,
                    format!(
                        "expected node objects ({{\"Type\": {{…}}}}) in \"-{field}\" of \"{}\", found {found}",
                        parent.name
                    ),
                ));
            }
        };
        for entry in entries {
            let JsonValue::Object(members) = entry.value else { continue };
            for member in members {
                if member.name == "#comment" {
                    self.comments(&mut parent.content, member.value)?;
                    continue;
                }
                let mut child = self.element(member.name, member.offset, member.value)?;
                if !is_statement(&parent.name) && !is_statement(&child.name) {
                    set_container(&mut child, field, &parent.name, member.offset);
                }
                parent.content.push(Content::Element(child));
            }
        }
        Ok(())
    }

    /// A member naming a statement or document element: an object, or an array of objects, each an
    /// element of that name.
    fn statements(&mut self, element: &mut Element, member: Member) -> Result<(), X3dError> {
        let Member { name, offset, value } = member;
        match value.value {
            JsonValue::Object(_) => {
                let child = self.element(name, offset, value)?;
                element.content.push(Content::Element(child));
            }
            JsonValue::Objects(list) => {
                for item in list {
                    let start = item.start;
                    let child = self.element(name.clone(), start, item)?;
                    element.content.push(Content::Element(child));
                }
            }
            JsonValue::Values(v) if v.starts.is_empty() => {}
            // The JSON file's own description, not part of the scene.
            _ if element.name == "X3D" && matches!(name.as_str(), "encoding" | "JSON schema") => {}
            other => {
                // A field written without its prefix gets a hint; a misplaced statement does not.
                let hint = if is_statement(&name) {
                    String::new()
                } else {
                    format!(" (field values are written \"@{name}\", nodes \"-{name}\")")
                };
                return Err(self.error(
                    value.start,
                    format!(
                        "\"{name}\" in \"{}\" must be an object or an array of objects, found {}{hint}",
                        element.name,
                        kind_of(&other)
                    ),
                ));
            }
        }
        Ok(())
    }

    /// `"#comment"`: a string or an array of strings, each a comment.
    fn comments(&mut self, content: &mut Vec<Content>, json: Json) -> Result<(), X3dError> {
        content.extend(self.lines("#comment", json)?.into_iter().map(Content::Comment));
        Ok(())
    }

    /// A string, or an array of strings.
    fn lines(&self, what: &str, json: Json) -> Result<Vec<String>, X3dError> {
        match json.value {
            JsonValue::String(s) => Ok(vec![s]),
            JsonValue::Values(v) if v.strings == v.starts.len() => Ok(v.strings()),
            other => Err(self.error(
                json.start,
                format!("\"{what}\" must be a string or an array of strings, found {}", kind_of(&other)),
            )),
        }
    }
}

/// Gives `child`, found in field `field` of `parent`, the `containerField` that says so where its type
/// would go elsewhere by default. The JSON member names the field, so it wins over a `@containerField`
/// written in the node, except under `-children`, where some writers keep `@containerField` instead.
fn set_container(child: &mut Element, field: &str, parent: &str, offset: u32) {
    let explicit = child.attributes.iter().position(|a| a.name == "containerField");
    if field == "children" && explicit.is_some() {
        return;
    }
    if let Some(i) = explicit {
        child.attributes.remove(i);
    }
    if field != default_container(&child.name, Some(parent)) {
        child.attributes.push(Attribute { name: "containerField".into(), value: field.to_string(), offset });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_ok(text: &str) -> SyntaxDocument {
        read(text, Path::new("t.x3dj")).unwrap_or_else(|e| panic!("{e}"))
    }

    fn read_err(text: &str) -> String {
        read(text, Path::new("t.x3dj")).unwrap_err().to_string()
    }

    fn attr<'a>(e: &'a Element, name: &str) -> &'a str {
        e.attribute(name).unwrap_or_else(|| panic!("{name} of {}", e.name))
    }

    #[test]
    fn document_nodes_and_values_map_to_xml_elements() {
        let doc = read_ok(
            r##"{"X3D": {"encoding": "UTF-8", "@profile": "Immersive", "@version": 4.0,
              "head": {"meta": [{"@name": "title", "@content": "t"}], "unit": [{"@category": "length",
                "@name": "cm", "@conversionFactor": 0.01}]},
              "Scene": {"-children": [
                {"#comment": "first"},
                {"Transform": {"@DEF": "T", "@translation": [0, 1.50, -2e-1], "@visible": false,
                  "-children": [{"Shape": {"-geometry": {"Box": {}}, "-appearance": {"Appearance": {}}}}]}},
                {"HAnimHumanoid": {"-skeleton": [{"HAnimJoint": {"@name": "humanoid_root"}}],
                  "-joints": [{"HAnimJoint": {"@USE": "j"}}], "@info": ["a \"b\"", "c\\d"], "@jointBindingPositions": [[1,2,3],[4,5,6]]}},
                {"ROUTE": {"@fromNode": "a", "@fromField": "b", "@toNode": "c", "@toField": "d"}}
              ]}}}"##,
        );
        let x3d = &doc.root;
        assert_eq!(x3d.name, "X3D");
        assert_eq!(attr(x3d, "version"), "4.0");
        assert!(x3d.attribute("encoding").is_none());
        let head = x3d.child("head").unwrap();
        assert_eq!(attr(head.child("meta").unwrap(), "content"), "t");
        assert_eq!(attr(head.child("unit").unwrap(), "conversionFactor"), "0.01");
        let scene = x3d.child("Scene").unwrap();
        assert!(matches!(&scene.content[0], Content::Comment(c) if c == "first"));
        let t = scene.child("Transform").unwrap();
        assert_eq!(attr(t, "translation"), "0 1.50 -2e-1");
        assert_eq!(attr(t, "visible"), "false");
        let shape = t.child("Shape").unwrap();
        assert!(shape.attribute("containerField").is_none());
        // Default containers need no containerField.
        assert!(shape.child("Box").unwrap().attribute("containerField").is_none());
        assert!(shape.child("Appearance").unwrap().attribute("containerField").is_none());
        let h = scene.child("HAnimHumanoid").unwrap();
        let joints: Vec<_> = h.elements().map(|e| attr(e, "containerField")).collect();
        assert_eq!(joints, ["skeleton", "joints"]);
        assert_eq!(attr(h, "info"), r#""a \"b\"" "c\\d""#);
        assert_eq!(attr(h, "jointBindingPositions"), "1 2 3 4 5 6");
        let route = scene.child("ROUTE").unwrap();
        assert!(route.attribute("containerField").is_none());
        assert_eq!(attr(route, "toField"), "d");
    }

    #[test]
    fn offsets_point_at_names_and_values() {
        let text = "{\"X3D\": {\"Scene\": {\"-children\": [{\"Group\": {\"@DEF\": \"g\"}}]}}}";
        let doc = read_ok(text);
        let group = doc.root.child("Scene").unwrap().child("Group").unwrap();
        assert_eq!(&text[group.offset as usize..][..7], "\"Group\"");
        assert_eq!(&text[group.attributes[0].offset as usize..][..3], "\"g\"");
    }

    #[test]
    fn statements_comments_and_source() {
        let doc = read_ok(
            r##"{"X3D": {"Scene": {"-children": [
              {"ProtoDeclare": {"@name": "P", "ProtoInterface": {"field": [{"@name": "f", "@type": "MFString",
                "@accessType": "inputOutput", "@value": ["x"]}]},
                "ProtoBody": {"-children": [{"Group": {"IS": {"connect": [{"@nodeField": "a", "@protoField": "f"}]}}}]}}},
              {"ProtoInstance": {"@name": "P", "@DEF": "i", "fieldValue": [{"@name": "f", "@value": ["y", "z"]},
                {"@name": "n", "-children": [{"Group": {}}]}]}},
              {"Script": {"field": [{"@name": "s", "@type": "SFString", "@accessType": "initializeOnly", "@value": "v"}],
                "#sourceCode": ["ecmascript:", "function f() {}"], "#comment": ["c1", "c2"]}}
            ]}}}"##,
        );
        let scene = doc.root.child("Scene").unwrap();
        let proto = scene.child("ProtoDeclare").unwrap();
        let field = proto.child("ProtoInterface").unwrap().child("field").unwrap();
        assert_eq!(attr(field, "value"), "\"x\"");
        let connect = proto.child("ProtoBody").unwrap().child("Group").unwrap().child("IS").unwrap().child("connect");
        assert_eq!(attr(connect.unwrap(), "protoField"), "f");
        let instance = scene.child("ProtoInstance").unwrap();
        let values: Vec<_> = instance.elements().collect();
        assert_eq!(attr(values[0], "value"), "\"y\" \"z\"");
        assert!(values[1].child("Group").unwrap().attribute("containerField").is_none());
        let script = scene.child("Script").unwrap();
        assert_eq!(attr(script.child("field").unwrap(), "value"), "v");
        let rest: Vec<_> = script.content.iter().filter(|c| !matches!(c, Content::Element(_))).collect();
        assert_eq!(
            rest,
            [
                &Content::SourceCode("ecmascript:\nfunction f() {}".into()),
                &Content::Comment("c1".into()),
                &Content::Comment("c2".into())
            ]
        );
    }

    #[test]
    fn kinds_that_do_not_belong_are_errors_at_their_place() {
        assert!(read_err("[1]").starts_with("t.x3dj:1:1: expected a JSON object"));
        assert!(read_err("{\"x3d\": {}}").contains("expected an \"X3D\" member"));
        assert!(read_err("{\"X3D\": []}").contains("1:9: expected an object for \"X3D\", found an empty array"));
        let e = read_err("{\"X3D\": {\"Scene\": {\"-children\": [{\"Group\": 5}]}}}");
        assert!(e.contains("1:44: expected an object for \"Group\", found a number"), "{e}");
        let e = read_err("{\"X3D\": {\"Scene\": {\"-children\": [1, 2]}}}");
        assert!(e.contains("1:34: expected node objects"), "{e}");
        let e = read_err("{\"X3D\": {\"Scene\": {\"-children\": [{\"Transform\": {\"@translation\": {\"x\": 1}}}]}}}");
        assert!(e.contains("1:65: an object where a value belongs: \"@translation\" of \"Transform\""), "{e}");
        let e = read_err("{\"X3D\": {\"head\": \"h\"}}");
        assert!(e.contains("1:18: \"head\" in \"X3D\" must be an object"), "{e}");
        let e = read_err("{\"X3D\": {\"Scene\": {\"#sourceCode\": [1]}}}");
        assert!(e.contains("\"#sourceCode\" must be a string or an array of strings"), "{e}");
    }

    #[test]
    fn the_member_names_the_field_over_a_written_container_field() {
        let doc = read_ok(
            r##"{"X3D": {"Scene": {"-children": [{"HAnimHumanoid": {
              "-skeleton": [{"HAnimJoint": {"@containerField": "joints"}}],
              "-children": [{"HAnimJoint": {"@containerField": "skeleton"}}, {"Coordinate": {}}],
              "-skinCoord": {"Coordinate": {}}}}]}}}"##,
        );
        let h = doc.root.child("Scene").unwrap().child("HAnimHumanoid").unwrap();
        let containers: Vec<_> = h.elements().map(|e| e.attribute("containerField").unwrap()).collect();
        assert_eq!(containers, ["skeleton", "skeleton", "children", "skinCoord"]);
    }
}
