//! `PROTO` and `EXTERNPROTO` declarations: `ProtoDeclare` (a `ProtoInterface` of `field`s, node defaults
//! as their children, and a `ProtoBody` with its own DEF scope) and `ExternProtoDeclare` (`field`s and the
//! `url`). Comments inside an interface stay in it (in the ExternProtoDeclare itself for an external one).

use std::collections::HashMap;

use super::reader::{Reader, attribute};
use super::reader_nodes::Holder;
use super::{access_type, carries_value, quote};
use crate::x3d::classic::lexer::{Tok, Token};
use crate::x3d::error::X3dError;
use crate::x3d::field_types::is_node_type;
use crate::x3d::syntax::{Content, Element};

impl Reader<'_> {
    /// `PROTO Name [ … ] { … }` or `EXTERNPROTO Name [ … ] urls`, the keyword read.
    pub(super) fn proto(&mut self, external: bool, start: usize) -> Result<Element, X3dError> {
        let keyword = if external { "EXTERNPROTO" } else { "PROTO" };
        let (name, name_tok) = self.expect_name(&format!("a name after {keyword}"))?;
        let open = self.expect(Tok::LBracket, &format!("'[' (the interface) after '{keyword} {name}'"))?;
        let mut declare = Element::new(if external { "ExternProtoDeclare" } else { "ProtoDeclare" }, start as u32);
        declare.attributes.push(attribute("name", name.clone(), name_tok.start));
        if external {
            let fields = self.interface(&mut declare, &name, true, open.start)?;
            let url = self.url_list(&name)?;
            declare.attributes.push(url);
            self.interfaces.insert(name, fields);
            return Ok(declare);
        }
        let mut interface = Element::new("ProtoInterface", open.start as u32);
        let fields = self.interface(&mut interface, &name, false, open.start)?;
        declare.content.push(Content::Element(interface));
        let body_open = self.expect(Tok::LBrace, &format!("'{{' (the body) after the interface of PROTO '{name}'"))?;
        self.place_comments(body_open.start, &mut declare);
        let mut body = Element::new("ProtoBody", body_open.start as u32);
        self.scopes.push(HashMap::new());
        self.bodies.push((name.clone(), fields.iter().map(|(f, _)| f.clone()).collect()));
        let read = self.body(&mut body, body_open.start);
        self.scopes.pop();
        self.bodies.pop();
        read?;
        declare.content.push(Content::Element(body));
        // Declared once its body is read: the loader knows a prototype only after its declaration.
        self.interfaces.insert(name, fields);
        Ok(declare)
    }

    /// The statements of a PROTO body up to its `}`.
    fn body(&mut self, body: &mut Element, open_at: usize) -> Result<(), X3dError> {
        loop {
            let t = self.next()?;
            match t.kind {
                Tok::RBrace => {
                    self.place_comments(t.start, body);
                    return Ok(());
                }
                Tok::Eof => return Err(self.unclosed(open_at, "PROTO body '{'", "'}'")),
                _ => {
                    self.place_comments(t.start, body);
                    self.statement(t, body)?;
                }
            }
        }
    }

    /// The declarations of an interface up to its `]`, as `field` elements of `holder`; returns the
    /// interface's `(name, type)`s.
    fn interface(
        &mut self,
        holder: &mut Element,
        proto: &str,
        external: bool,
        open_at: usize,
    ) -> Result<Vec<(String, String)>, X3dError> {
        let mut fields: Vec<(String, String)> = Vec::new();
        loop {
            let t = self.next()?;
            match &t.kind {
                Tok::RBracket => {
                    self.place_comments(t.start, holder);
                    return Ok(fields);
                }
                Tok::Eof => return Err(self.unclosed(open_at, "PROTO interface '['", "']'")),
                Tok::Ident(word) if access_type(word).is_some() => {
                    self.place_comments(t.start, holder);
                    let word = word.clone();
                    let field = self.interface_field(&word, t.start, external)?;
                    let name = field.attribute("name").unwrap_or_default().to_string();
                    if fields.iter().any(|(f, _)| *f == name) {
                        return Err(self.err(t.start, format!("PROTO '{proto}' declares field '{name}' twice")));
                    }
                    fields.push((name, field.attribute("type").unwrap_or_default().to_string()));
                    holder.content.push(Content::Element(field));
                }
                _ => {
                    return Err(self.err(
                        t.start,
                        format!(
                            "expected a field declaration (field, exposedField, eventIn, eventOut, initializeOnly, \
                             inputOutput, inputOnly, outputOnly) or ']', found {}",
                            self.describe(&t)
                        ),
                    ));
                }
            }
        }
    }

    /// One interface declaration; a PROTO's fields and exposedFields carry their default (a node-valued
    /// one may have none), an EXTERNPROTO's none.
    fn interface_field(&mut self, keyword: &str, start: usize, external: bool) -> Result<Element, X3dError> {
        let (mut field, access) = self.declaration(keyword, start)?;
        if external || !carries_value(access) {
            return Ok(field);
        }
        let name = field.attribute("name").unwrap_or_default().to_string();
        let ty = field.attribute("type").unwrap_or_default().to_string();
        let next = self.peek()?;
        if next.kind == Tok::RBracket || is_declaration_keyword(&next) {
            if !is_node_type(&ty) {
                return Err(self.err(
                    next.start,
                    format!("{keyword} '{name}' ({ty}) needs an initial value, found {}", self.describe(&next)),
                ));
            }
            return Ok(field);
        }
        if let Some((text, offset)) = self.value(&mut field, Holder::FieldElement, &name, Some(&ty))? {
            field.attributes.push(attribute("value", text, offset));
        }
        Ok(field)
    }

    /// The URL list of an EXTERNPROTO, `"a"` or `[ "a" "b" ]`, as its `url` attribute (XML MFString form).
    fn url_list(&mut self, name: &str) -> Result<crate::x3d::syntax::Attribute, X3dError> {
        let t = self.next()?;
        match t.kind {
            Tok::Str(s) => Ok(attribute("url", quote(&s), t.start)),
            Tok::LBracket => {
                let mut urls = Vec::new();
                loop {
                    let u = self.next()?;
                    match u.kind {
                        Tok::Str(s) => urls.push(quote(&s)),
                        Tok::RBracket => return Ok(attribute("url", urls.join(" "), t.start + 1)),
                        _ => {
                            return Err(self.err(
                                u.start,
                                format!(
                                    "expected a \"URL\" or ']' in the URL list of EXTERNPROTO '{name}', found {}",
                                    self.describe(&u)
                                ),
                            ));
                        }
                    }
                }
            }
            _ => Err(self.err(
                t.start,
                format!(
                    "expected the URL list (\"url\" or [ \"url\" ... ]) of EXTERNPROTO '{name}', found {}",
                    self.describe(&t)
                ),
            )),
        }
    }
}

fn is_declaration_keyword(t: &Token) -> bool {
    matches!(&t.kind, Tok::Ident(w) if access_type(w).is_some())
}
