//! Nodes, their fields and field values, read into elements and attributes.
//!
//! A value becomes the text an XML attribute holds for it, by the field's type:
//! - SFString: the string's characters (`"a\"b"` → `a"b`); MFString: `"a" "b"` with `\"`/`\\` kept
//!   escaped, one bare string being a list of one;
//! - SFBool/MFBool: `true`/`false`; numbers as written, separated by one space (commas and brackets
//!   dropped), hexadecimal integers in decimal;
//! - SFNode/MFNode: child elements; `NULL` and `[ ]` nothing (a prototype instance keeps the `fieldValue`,
//!   empty, to say the field was given);
//! - a field whose type is unknown (not in the standard's table nor in an interface) is typed by what is
//!   written: nodes are nodes, one bare string is an SFString, strings in brackets or several are an
//!   MFString, anything else numbers/booleans as above, `[ ]` an empty attribute.

use super::reader::{Defined, MAX_DEPTH, Reader, attribute, is_scalar};
use super::{access_type, carries_value, field_type_of, is_field_type, is_keyword, quote};
use crate::x3d::classic::lexer::{Tok, Token};
use crate::x3d::error::X3dError;
use crate::x3d::field_types::{default_container, is_node_type};
use crate::x3d::proto::hanim1_native_type;
use crate::x3d::syntax::{Content, Element};

/// Where the nodes of a field value go.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Holder {
    /// Straight into a node's content, with `containerField` where the field is not the default.
    Node,
    /// Into a `fieldValue` or `field` element, which names the field.
    FieldElement,
}

impl Reader<'_> {
    /// `DEF name Type { … }`, `USE name` or `Type { … }`; `context` says where, for messages.
    pub(super) fn node_statement(&mut self, t: Token, context: &str) -> Result<Element, X3dError> {
        let context = if context.is_empty() { String::new() } else { format!(" {context}") };
        match &t.kind {
            Tok::Ident(word) if word == "USE" => {
                let (name, tok) = self.expect_name("a DEF name after USE")?;
                let element = match self.scopes.last().and_then(|scope| scope.get(&name)) {
                    // Its type is unknown here: a placeholder, which `drop_undefined_uses` takes out with a
                    // warning before anything is written (as the loader drops the node).
                    None => crate::x3d::syntax::undefined_uses::UNRESOLVED_USE.to_string(),
                    Some(Defined { open: true, .. }) => {
                        return Err(
                            self.err(tok.start, format!("USE '{name}' is inside its own DEF: this would make a cycle"))
                        );
                    }
                    Some(defined) => defined.element.clone(),
                };
                let mut node = Element::new(element, t.start as u32);
                node.attributes.push(attribute("USE", name, tok.start));
                Ok(node)
            }
            Tok::Ident(word) if word == "DEF" => {
                let (def, def_tok) = self.expect_name("a name after DEF")?;
                let (type_name, type_tok) = self.expect_name(&format!("a node type after 'DEF {def}'"))?;
                self.node(type_name, type_tok.start, Some((def, def_tok.start)), t.start)
            }
            Tok::Ident(word) if !is_keyword(word) => self.node(word.clone(), t.start, None, t.start),
            _ => Err(self.err(
                t.start,
                format!("expected a node (a node type, DEF or USE){context}, found {}", self.describe(&t)),
            )),
        }
    }

    /// A node's body after its type name, up to the closing `}`.
    fn node(
        &mut self,
        type_name: String,
        type_at: usize,
        def: Option<(String, usize)>,
        start: usize,
    ) -> Result<Element, X3dError> {
        let brace = self.next()?;
        if brace.kind != Tok::LBrace {
            let hint = if is_scalar(&brace) { " (is a field name missing before the value?)" } else { "" };
            return Err(self.err(
                brace.start,
                format!("expected '{{' after node type '{type_name}', found {}{hint}", self.describe(&brace)),
            ));
        }
        if self.depth >= MAX_DEPTH {
            return Err(self.err(start, format!("nodes nested more than {MAX_DEPTH} deep")));
        }
        self.depth += 1;
        let instance = self.interfaces.contains_key(&type_name) || hanim1_native_type(&type_name).is_some();
        let mut node = if instance {
            let mut node = Element::new("ProtoInstance", start as u32);
            node.attributes.push(attribute("name", type_name.clone(), type_at));
            node
        } else {
            Element::new(type_name.clone(), start as u32)
        };
        if let Some((def, at)) = &def {
            node.attributes.push(attribute("DEF", def.clone(), *at));
            // A prototype instance is named once complete, as the loader does.
            if !instance {
                self.define(def, &type_name, true);
            }
        }
        let proto = instance.then_some(type_name.as_str());
        loop {
            let t = self.next()?;
            match &t.kind {
                Tok::RBrace => {
                    self.place_comments(t.start, &mut node);
                    break;
                }
                Tok::Eof => return Err(self.unclosed(brace.start, &format!("'{type_name} {{'"), "'}'")),
                Tok::Ident(word) if matches!(word.as_str(), "ROUTE" | "PROTO" | "EXTERNPROTO") => {
                    self.place_comments(t.start, &mut node);
                    self.statement(t, &mut node)?;
                }
                Tok::Ident(word) if access_type(word).is_some() => {
                    self.place_comments(t.start, &mut node);
                    let word = word.clone();
                    self.field_declaration(&mut node, &word, t.start)?;
                }
                Tok::Ident(word) if !is_keyword(word) => {
                    self.place_comments(t.start, &mut node);
                    let word = word.clone();
                    self.field(&mut node, proto, word, t.start)?;
                }
                _ => {
                    return Err(self.err(
                        t.start,
                        format!("expected a field name or '}}' in '{type_name}', found {}", self.describe(&t)),
                    ));
                }
            }
        }
        if let Some((def, _)) = &def {
            let element = if instance { "ProtoInstance" } else { type_name.as_str() };
            self.define(def, element, false);
        }
        self.depth -= 1;
        Ok(node)
    }

    /// Names a node in the innermost scope (again, to close it: a later DEF of the name replaces it).
    fn define(&mut self, def: &str, element: &str, open: bool) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(def.to_string(), Defined { element: element.to_string(), open });
        }
    }

    /// `name value` or `name IS protoField` in the body of `node` (an instance of `proto`, if given).
    fn field(&mut self, node: &mut Element, proto: Option<&str>, name: String, at: usize) -> Result<(), X3dError> {
        if self.peek()?.is_ident("IS") {
            self.next()?;
            return self.is_connection(node, &name, at);
        }
        let ty = field_type_of(&node.name, proto, &name, &self.interfaces);
        if proto.is_some() {
            let mut field_value = Element::new("fieldValue", at as u32);
            field_value.attributes.push(attribute("name", name.clone(), at));
            if let Some((text, offset)) = self.value(&mut field_value, Holder::FieldElement, &name, ty.as_deref())? {
                field_value.attributes.push(attribute("value", text, offset));
            }
            node.content.push(Content::Element(field_value));
        } else if let Some((text, offset)) = self.value(node, Holder::Node, &name, ty.as_deref())? {
            // Given twice, the later value counts, as in the loader.
            node.attributes.retain(|a| a.name != name);
            node.attributes.push(attribute(&name, text, offset));
        }
        Ok(())
    }

    /// `IS protoField` after the field `name` of `node`: a `connect` in the node's `IS` element.
    fn is_connection(&mut self, node: &mut Element, name: &str, at: usize) -> Result<(), X3dError> {
        let (proto_field, tok) = self.expect_name("the name of a PROTO interface field after IS")?;
        match self.bodies.last() {
            None => return Err(self.err(tok.start, format!("'{name} IS {proto_field}' outside a PROTO body"))),
            Some((proto, fields)) if !fields.contains(&proto_field) => {
                return Err(self.err(
                    tok.start,
                    format!(
                        "IS '{proto_field}': PROTO '{proto}' has no such interface field (it has: {})",
                        fields.join(", ")
                    ),
                ));
            }
            Some(_) => {}
        }
        let mut connect = Element::new("connect", at as u32);
        connect.attributes.push(attribute("nodeField", name, at));
        connect.attributes.push(attribute("protoField", proto_field, tok.start));
        let existing = node.content.iter_mut().find_map(|c| match c {
            Content::Element(e) if e.name == "IS" => Some(e),
            _ => None,
        });
        match existing {
            Some(is) => is.content.push(Content::Element(connect)),
            None => {
                let mut is = Element::new("IS", at as u32);
                is.content.push(Content::Element(connect));
                node.content.push(Content::Element(is));
            }
        }
        Ok(())
    }

    /// `keyword Type name [value | IS protoField]`: a Script's or shader's field declaration, a `field`
    /// element of `node` (whose IS, if any, goes to the node's `IS`).
    fn field_declaration(&mut self, node: &mut Element, keyword: &str, start: usize) -> Result<(), X3dError> {
        let (mut field, access) = self.declaration(keyword, start)?;
        let name = field.attribute("name").unwrap_or_default().to_string();
        let ty = field.attribute("type").unwrap_or_default().to_string();
        if self.peek()?.is_ident("IS") {
            self.next()?;
            node.content.push(Content::Element(field));
            return self.is_connection(node, &name, start);
        }
        if carries_value(access)
            && let Some((text, offset)) = self.value(&mut field, Holder::FieldElement, &name, Some(&ty))?
        {
            field.attributes.push(attribute("value", text, offset));
        }
        node.content.push(Content::Element(field));
        Ok(())
    }

    /// `Type name` after an interface keyword: the `field` element (name, type, accessType) and its access.
    pub(super) fn declaration(&mut self, keyword: &str, start: usize) -> Result<(Element, &'static str), X3dError> {
        let access = access_type(keyword).unwrap_or("initializeOnly");
        let (type_name, type_tok) = self.expect_name(&format!("a field type after '{keyword}'"))?;
        if !is_field_type(&type_name) {
            return Err(self.err(
                type_tok.start,
                format!("unknown field type '{type_name}' (expected SFBool, SFFloat, SFVec3f, MFNode, ...)"),
            ));
        }
        let (name, name_tok) = self.expect_name(&format!("a field name after '{keyword} {type_name}'"))?;
        let mut field = Element::new("field", start as u32);
        field.attributes.push(attribute("name", name, name_tok.start));
        field.attributes.push(attribute("type", type_name, type_tok.start));
        field.attributes.push(attribute("accessType", access, start));
        Ok((field, access))
    }

    /// The value of field `field` (of type `ty`, if known): its attribute text and offset, or `None` when
    /// the value is nodes (added to `holder`) or `NULL`.
    pub(super) fn value(
        &mut self,
        holder: &mut Element,
        how: Holder,
        field: &str,
        ty: Option<&str>,
    ) -> Result<Option<(String, usize)>, X3dError> {
        let t = self.peek()?;
        let node_typed = ty.map(is_node_type);
        let type_text = ty.map(|t| format!(" ({t})")).unwrap_or_default();
        match &t.kind {
            Tok::LBracket => {
                self.next()?;
                let inner = self.peek()?;
                let node_list = match node_typed {
                    Some(is_node) => is_node,
                    None => matches!(&inner.kind, Tok::Ident(w) if !matches!(w.as_str(), "TRUE" | "FALSE" | "NULL")),
                };
                if node_list {
                    if ty == Some("SFNode") && inner.kind != Tok::RBracket {
                        return Err(self.err(t.start, format!("field '{field}'{type_text} holds one node, not a list")));
                    }
                    self.node_list(holder, how, field, t.start)?;
                    return Ok(None);
                }
                let tokens = self.scalars(field, true)?;
                self.scalar_text(field, ty, &tokens, true, inner.start).map(Some)
            }
            _ if is_scalar(&t) => {
                if node_typed == Some(true) {
                    return Err(self.err(
                        t.start,
                        format!(
                            "expected a node, NULL or USE for field '{field}'{type_text}, found {}",
                            self.describe(&t)
                        ),
                    ));
                }
                let tokens = self.scalars(field, false)?;
                self.scalar_text(field, ty, &tokens, false, t.start).map(Some)
            }
            Tok::Ident(word) if word == "NULL" => {
                self.next()?;
                Ok(None)
            }
            Tok::Ident(word) if (!is_keyword(word) || word == "DEF" || word == "USE") && node_typed != Some(false) => {
                let t = self.next()?;
                self.place_comments(t.start, holder);
                let node = self.node_statement(t, &format!("as the value of '{field}'"))?;
                attach(holder, how, field, node);
                Ok(None)
            }
            _ => Err(self.err(
                t.start,
                format!(
                    "expected a value for field '{field}'{type_text} (numbers, \"strings\", TRUE/FALSE, [ list ], a \
                     node, NULL or IS), found {}",
                    self.describe(&t)
                ),
            )),
        }
    }

    /// The nodes of `[ … ]` (the `[` read), and the ROUTEs the loader allows among them.
    fn node_list(&mut self, holder: &mut Element, how: Holder, field: &str, open_at: usize) -> Result<(), X3dError> {
        loop {
            let t = self.next()?;
            match &t.kind {
                Tok::RBracket => {
                    self.place_comments(t.start, holder);
                    return Ok(());
                }
                Tok::Eof => return Err(self.unclosed(open_at, &format!("'{field} ['"), "']'")),
                Tok::Ident(word) if word == "ROUTE" => {
                    self.place_comments(t.start, holder);
                    let route = self.route(t.start)?;
                    holder.content.push(Content::Element(route));
                }
                _ => {
                    self.place_comments(t.start, holder);
                    let node = self.node_statement(t, &format!("in '{field}'"))?;
                    attach(holder, how, field, node);
                }
            }
        }
    }

    /// The scalar tokens of one value: inside `[ ]` up to the closing bracket, else the run of scalars.
    fn scalars(&mut self, field: &str, bracketed: bool) -> Result<Vec<Token>, X3dError> {
        let mut out = Vec::new();
        loop {
            let t = self.peek()?;
            if is_scalar(&t) {
                out.push(self.next()?);
            } else if !bracketed {
                return Ok(out);
            } else if t.kind == Tok::RBracket {
                self.next()?;
                return Ok(out);
            } else {
                return Err(self.err(
                    t.start,
                    format!(
                        "expected a number, a \"string\", TRUE/FALSE or ']' in the list of '{field}', found {}",
                        self.describe(&t)
                    ),
                ));
            }
        }
    }

    /// The attribute text of scalar tokens, checked against the field's type where it is known.
    fn scalar_text(
        &self,
        field: &str,
        ty: Option<&str>,
        tokens: &[Token],
        bracketed: bool,
        start: usize,
    ) -> Result<(String, usize), X3dError> {
        let is_string = |t: &&Token| matches!(t.kind, Tok::Str(_));
        let strings = tokens.iter().filter(is_string).count();
        let string_typed = match ty {
            Some(ty) => {
                let expects_strings = matches!(ty, "SFString" | "MFString");
                if let Some(bad) = tokens.iter().find(|t| is_string(t) != expects_strings) {
                    let expected = if expects_strings { "a \"string\"" } else { "a number or TRUE/FALSE" };
                    return Err(self.err(
                        bad.start,
                        format!("field '{field}' ({ty}): expected {expected}, found {}", self.describe(bad)),
                    ));
                }
                expects_strings
            }
            None => {
                if strings > 0 && strings < tokens.len() {
                    let bad = tokens.iter().find(|t| !is_string(t)).unwrap_or(&tokens[0]);
                    return Err(self.err(
                        bad.start,
                        format!("field '{field}' mixes strings and other values: {} among strings", self.describe(bad)),
                    ));
                }
                strings > 0
            }
        };
        let offset = tokens.first().map_or(start, |t| t.start);
        let text_of = |t: &Token| match &t.kind {
            Tok::Str(s) => s.clone(),
            _ => String::new(),
        };
        if !string_typed {
            let words: Vec<String> = tokens.iter().map(|t| self.scalar_word(t)).collect();
            return Ok((words.join(" "), offset));
        }
        let single = match ty {
            Some(ty) => ty == "SFString",
            None => tokens.len() == 1 && !bracketed,
        };
        if !single {
            let quoted: Vec<String> = tokens.iter().map(|t| quote(&text_of(t))).collect();
            return Ok((quoted.join(" "), offset));
        }
        if tokens.len() > 1 {
            return Err(self.err(tokens[1].start, format!("field '{field}' (SFString) takes a single string")));
        }
        // The value starts inside the quotes.
        Ok((tokens.first().map(text_of).unwrap_or_default(), tokens.first().map_or(start, |t| t.start + 1)))
    }

    /// A number as written (a hexadecimal integer in decimal), or a boolean as XML writes it.
    fn scalar_word(&self, t: &Token) -> String {
        match &t.kind {
            Tok::Ident(w) if w == "TRUE" => "true".to_string(),
            Tok::Ident(w) if w == "FALSE" => "false".to_string(),
            _ => {
                let written = &self.text[t.start..t.end];
                hex_in_decimal(written).unwrap_or_else(|| written.to_string())
            }
        }
    }
}

/// `0x1F` → `31`, `-0x10` → `-16`; `None` for anything not a hexadecimal integer.
fn hex_in_decimal(written: &str) -> Option<String> {
    let (sign, digits) = match written.as_bytes().first() {
        Some(b'-') => ("-", &written[1..]),
        Some(b'+') => ("", &written[1..]),
        _ => ("", written),
    };
    let hex = digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X"))?;
    let value = u128::from_str_radix(hex, 16).ok()?;
    Some(format!("{sign}{value}"))
}

/// Adds a node read as the value of `field` to `holder`.
fn attach(holder: &mut Element, how: Holder, field: &str, mut node: Element) {
    if how == Holder::Node && default_container(&node.name, Some(&holder.name)) != field {
        let offset = node.offset as usize;
        node.attributes.push(attribute("containerField", field, offset));
    }
    holder.content.push(Content::Element(node));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hexadecimal_integers_in_decimal() {
        assert_eq!(hex_in_decimal("0x1F").as_deref(), Some("31"));
        assert_eq!(hex_in_decimal("-0X10").as_deref(), Some("-16"));
        assert_eq!(hex_in_decimal("0xFFFFFFFF").as_deref(), Some("4294967295"));
        assert_eq!(hex_in_decimal("10"), None);
        assert_eq!(hex_in_decimal("1e5"), None);
    }
}
