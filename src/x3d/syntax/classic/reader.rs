//! Classic text → syntax tree: the tree the XML reader gives for the same scene (ISO/IEC 19776-2 mapped
//! onto 19776-1).
//!
//! - The header `#X3D V4.0 utf8` gives `<X3D version="4.0">`. `#VRML V2.0 utf8` gives an X3D 3.0
//!   document of the Immersive profile: VRML97's nodes are X3D 3.0's Immersive profile nodes, and its
//!   `field`/`exposedField`/`eventIn`/`eventOut` are `initializeOnly`/`inputOutput`/`inputOnly`/`outputOnly`.
//! - `PROFILE` is the `profile` attribute; `COMPONENT n:l`, `UNIT c n f` and `META "n" "c"` are the `head`'s
//!   `component`, `unit` and `meta` elements.
//! - A node is an element named by its type (a USE by the type of the node its DEF names), with `DEF`
//!   or `USE` first, its non-node fields as attributes in the order written, and its node-valued fields as
//!   child elements carrying `containerField` (last) where the field is not the default container.
//! - An instance of a prototype declared earlier in the file, or of an H-Anim 1.x prototype the loader
//!   accepts undeclared, is a `ProtoInstance` with `fieldValue` children; the nodes of a fieldValue, of a
//!   `field` declaration or of an interface default carry no containerField (the element names the field).
//! - Values are typed by the field (the standard's table, the prototype's interface, the declaration):
//!   see `reader_nodes.rs`.
//! - Comments are `Content::Comment` (the text after `#`, trimmed) at their place: in the innermost element
//!   open where they stand, before the statement or field that follows them. A comment inside a field's
//!   value is placed after that field's earlier siblings, since an attribute has no place for it.
//!
//! Nesting is bounded ([`MAX_DEPTH`]): the tree is recursive, and so is anything that walks it.

use std::collections::HashMap;
use std::path::Path;

use super::{ProtoInterfaces, is_keyword};
use crate::x3d::classic::lexer::{Lexer, Tok, Token};
use crate::x3d::error::X3dError;
use crate::x3d::syntax::{Attribute, Content, Element, SyntaxDocument, error_at};

/// How deeply nodes may nest.
pub(super) const MAX_DEPTH: usize = 500;

/// Reads classic text (already decoded to UTF-8; a byte-order mark is skipped) into a syntax tree.
pub(in crate::x3d::syntax) fn read(text: &str, path: &Path) -> Result<SyntaxDocument, X3dError> {
    let mut reader = Reader {
        text,
        path,
        lexer: Lexer::new(text, 0),
        comments_placed: 0,
        last_end: 0,
        scopes: vec![HashMap::new()],
        interfaces: HashMap::new(),
        bodies: Vec::new(),
        depth: 0,
    };
    reader.document()
}

/// What a DEF name stands for in its scope.
pub(super) struct Defined {
    /// The element name a USE of it takes: the node type, or `ProtoInstance`.
    pub element: String,
    /// Whether its node's body is still being read (a USE there would make a cycle).
    pub open: bool,
}

pub(super) struct Reader<'a> {
    pub text: &'a str,
    path: &'a Path,
    lexer: Lexer<'a>,
    /// How many of the comments the lexer has recorded are in the tree already.
    comments_placed: usize,
    /// Where the last token read ends.
    pub last_end: usize,
    /// DEF scopes: the file's, then one per PROTO body being read (as the loader looks names up: in the
    /// innermost scope only).
    pub scopes: Vec<HashMap<String, Defined>>,
    /// The prototypes declared so far (the loader's are file-wide too).
    pub interfaces: ProtoInterfaces,
    /// The PROTO bodies being read, innermost last: the prototype's name and interface field names.
    pub bodies: Vec<(String, Vec<String>)>,
    /// How many nodes are open.
    pub depth: usize,
}

/// An attribute with the byte offset of its value.
pub(super) fn attribute(name: &str, value: impl Into<String>, offset: usize) -> Attribute {
    Attribute { name: name.to_string(), value: value.into(), offset: offset as u32 }
}

/// Whether a token can be (part of) a non-node field value.
pub(super) fn is_scalar(t: &Token) -> bool {
    matches!(&t.kind, Tok::Number | Tok::Str(_)) || t.is_ident("TRUE") || t.is_ident("FALSE")
}

impl Reader<'_> {
    pub(super) fn err(&self, offset: usize, message: impl Into<String>) -> X3dError {
        error_at(self.text, self.path, offset, message)
    }

    pub(super) fn next(&mut self) -> Result<Token, X3dError> {
        match self.lexer.next_token() {
            Ok(t) => {
                self.last_end = t.end;
                Ok(t)
            }
            Err(e) => Err(self.err(e.offset, e.message)),
        }
    }

    pub(super) fn peek(&mut self) -> Result<Token, X3dError> {
        match self.lexer.peek() {
            Ok(t) => Ok(t.clone()),
            Err(e) => {
                let (offset, message) = (e.offset, e.message.clone());
                Err(self.err(offset, message))
            }
        }
    }

    pub(super) fn describe(&self, t: &Token) -> String {
        t.describe(self.text)
    }

    /// A name (an identifier that is not a keyword); `what` says what it names.
    pub(super) fn expect_name(&mut self, what: &str) -> Result<(String, Token), X3dError> {
        let t = self.next()?;
        match &t.kind {
            Tok::Ident(name) if !is_keyword(name) => Ok((name.clone(), t.clone())),
            _ => Err(self.err(t.start, format!("expected {what}, found {}", self.describe(&t)))),
        }
    }

    pub(super) fn expect(&mut self, kind: Tok, what: &str) -> Result<Token, X3dError> {
        let t = self.next()?;
        if t.kind == kind {
            Ok(t)
        } else {
            Err(self.err(t.start, format!("expected {what}, found {}", self.describe(&t))))
        }
    }

    /// The error for a construct opened at `open_at` that the file does not close.
    pub(super) fn unclosed(&self, open_at: usize, what: &str, missing: &str) -> X3dError {
        let file = crate::x3d::SourceFile::new(self.path.to_path_buf(), self.text.as_bytes());
        let at = file.line_col(open_at as u32);
        self.err(
            self.text.len(),
            format!("unexpected end of file: {what} opened at {at} is not closed (missing {missing}; truncated file?)"),
        )
    }

    /// Moves the comments the lexer has passed that start before `before` into `into`, in order.
    pub(super) fn place_comments(&mut self, before: usize, into: &mut Element) {
        while let Some(&(start, end)) = self.lexer.comments.get(self.comments_placed) {
            if start >= before {
                break;
            }
            let raw = &self.text[start..end];
            into.content.push(Content::Comment(raw.strip_prefix('#').unwrap_or(raw).trim().to_string()));
            self.comments_placed += 1;
        }
    }

    /// The header line: the document's version, whether it is VRML97, and where the statements start.
    fn header(&self) -> Result<(String, bool, usize), X3dError> {
        let text = self.text;
        let after_bom = text.strip_prefix('\u{feff}').unwrap_or(text);
        let start = text.len() - after_bom.trim_start().len();
        let line_end = text[start..].find(['\n', '\r']).map_or(text.len(), |i| start + i);
        let line = &text[start..line_end];
        let mut words = line.split_whitespace();
        let expected = "expected a '#VRML V2.0 utf8' or '#X3D V4.0 utf8' header line";
        match (words.next(), words.next()) {
            (Some("#VRML"), Some("V2.0")) => Ok(("3.0".to_string(), true, line_end)),
            (Some("#VRML"), Some(v)) if v.starts_with("V1") => {
                Err(self
                    .err(start, format!("VRML {} files are not supported (only VRML97 '#VRML V2.0 utf8')", &v[1..])))
            }
            (Some("#X3D"), Some(v)) if v.starts_with('V') && v[1..].parse::<f32>().is_ok() => {
                Ok((v[1..].to_string(), false, line_end))
            }
            _ => {
                let shown: String = line.chars().take(40).collect();
                Err(self.err(start, format!("{expected}, found '{shown}'")))
            }
        }
    }

    fn document(&mut self) -> Result<SyntaxDocument, X3dError> {
        let (version, vrml97, body_start) = self.header()?;
        self.lexer = Lexer::new(self.text, body_start);
        let mut root = Element::new("X3D", 0);
        root.attributes.push(attribute("version", version, 0));
        if vrml97 {
            root.attributes.push(attribute("profile", "Immersive", 0));
        }
        let mut head = Element::new("head", body_start as u32);
        let mut scene = Element::new("Scene", body_start as u32);
        loop {
            let t = self.next()?;
            match &t.kind {
                Tok::Eof => {
                    self.place_comments(usize::MAX, &mut scene);
                    break;
                }
                Tok::Ident(word) if word == "PROFILE" => {
                    let (name, tok) = self.expect_name("a profile name after PROFILE")?;
                    root.attributes.retain(|a| a.name != "profile");
                    root.attributes.push(attribute("profile", name, tok.start));
                }
                Tok::Ident(word) if matches!(word.as_str(), "COMPONENT" | "UNIT" | "META") => {
                    self.place_comments(t.start, &mut head);
                    let element = match word.as_str() {
                        "COMPONENT" => self.component(t.start)?,
                        "UNIT" => self.unit(t.start)?,
                        _ => self.meta(t.start)?,
                    };
                    head.content.push(Content::Element(element));
                }
                _ => {
                    self.place_comments(t.start, &mut scene);
                    self.statement(t, &mut scene)?;
                }
            }
        }
        if !head.content.is_empty() {
            let first = head.elements().next().map_or(head.offset, |e| e.offset);
            head.offset = first;
            root.content.push(Content::Element(head));
        }
        root.content.push(Content::Element(scene));
        Ok(SyntaxDocument { root })
    }

    /// A statement of the file or of a PROTO body (or, as the loader allows, of a node body or a node
    /// list), added to `parent`; comments before it are placed already.
    pub(super) fn statement(&mut self, t: Token, parent: &mut Element) -> Result<(), X3dError> {
        if let Tok::Ident(word) = &t.kind {
            let element = match word.as_str() {
                "ROUTE" => Some(self.route(t.start)?),
                "PROTO" => Some(self.proto(false, t.start)?),
                "EXTERNPROTO" => Some(self.proto(true, t.start)?),
                "IMPORT" => Some(self.import(t.start)?),
                "EXPORT" => Some(self.export(t.start)?),
                "PROFILE" | "COMPONENT" | "UNIT" | "META" => {
                    return Err(self.err(t.start, format!("{word} is only allowed at the top of the file")));
                }
                _ => None,
            };
            if let Some(element) = element {
                parent.content.push(Content::Element(element));
                return Ok(());
            }
        }
        let node = self.node_statement(t, "")?;
        parent.content.push(Content::Element(node));
        Ok(())
    }

    /// `COMPONENT name:level`, with or without spaces around the `:` (X_ITE writes `COMPONENT HAnim : 1`;
    /// the loader reads every spacing); written without `:level`, the element has no level.
    fn component(&mut self, start: usize) -> Result<Element, X3dError> {
        let (spec, tok) = self.expect_name("'name:level' after COMPONENT")?;
        let mut element = Element::new("component", start as u32);
        // The name, and the level's text with where it starts: `HAnim:1`, `HAnim: 1`, `HAnim :1`, `HAnim : 1`.
        let (name, level) = match spec.rsplit_once(':') {
            Some((name, level)) => (name.to_string(), Some((level.to_string(), tok.start + name.len() + 1))),
            None => match self.peek()?.kind {
                Tok::Ident(word) if word.starts_with(':') => {
                    let colon = self.next()?;
                    (spec.clone(), Some((word[1..].to_string(), colon.start + 1)))
                }
                _ => (spec.clone(), None),
            },
        };
        let level = match level {
            Some((level, _)) if level.is_empty() => {
                let t = self.next()?;
                match t.kind {
                    Tok::Number => Some((self.text[t.start..t.end].to_string(), t.start)),
                    _ => {
                        return Err(self.err(
                            t.start,
                            format!(
                                "expected the support level (an integer) after 'COMPONENT {name}:', found {}",
                                self.describe(&t)
                            ),
                        ));
                    }
                }
            }
            level => level,
        };
        element.attributes.push(attribute("name", &name, tok.start));
        if let Some((level, at)) = level {
            if level.parse::<i32>().is_err() {
                return Err(self.err(at, format!("COMPONENT '{name}:{level}': the level after ':' must be an integer")));
            }
            element.attributes.push(attribute("level", level, at));
        }
        Ok(element)
    }

    /// `UNIT category name conversionFactor`.
    fn unit(&mut self, start: usize) -> Result<Element, X3dError> {
        let (category, cat_tok) = self.expect_name("a unit category (length, angle, mass, force) after UNIT")?;
        let (name, name_tok) = self.expect_name("a unit name after the UNIT category")?;
        let factor = self.next()?;
        if !matches!(factor.kind, Tok::Number) {
            return Err(self.err(
                factor.start,
                format!("expected the UNIT conversion factor (a number), found {}", self.describe(&factor)),
            ));
        }
        let written = &self.text[factor.start..factor.end];
        if !written.parse::<f64>().is_ok_and(|f| f > 0.0 && f.is_finite()) {
            return Err(
                self.err(factor.start, format!("UNIT {category} conversion factor must be > 0, found {written}"))
            );
        }
        let mut element = Element::new("unit", start as u32);
        element.attributes.push(attribute("category", category, cat_tok.start));
        element.attributes.push(attribute("name", name, name_tok.start));
        element.attributes.push(attribute("conversionFactor", written, factor.start));
        Ok(element)
    }

    /// `META "name" "content"`.
    fn meta(&mut self, start: usize) -> Result<Element, X3dError> {
        let mut element = Element::new("meta", start as u32);
        for (attr, what) in [("name", "the META name (a string)"), ("content", "the META content (a string)")] {
            let s = self.next()?;
            match s.kind {
                Tok::Str(value) => element.attributes.push(attribute(attr, value, s.start + 1)),
                _ => return Err(self.err(s.start, format!("expected {what}, found {}", self.describe(&s)))),
            }
        }
        Ok(element)
    }

    /// `ROUTE node.field TO node.field`.
    pub(super) fn route(&mut self, start: usize) -> Result<Element, X3dError> {
        let (from_node, a) = self.expect_name("a DEF name after ROUTE")?;
        self.expect(Tok::Period, &format!("'.' after '{from_node}' (ROUTE node.field TO node.field)"))?;
        let (from_field, b) = self.expect_name("a field name after '.'")?;
        let to = self.next()?;
        if !to.is_ident("TO") {
            return Err(self.err(
                to.start,
                format!("expected TO after 'ROUTE {from_node}.{from_field}', found {}", self.describe(&to)),
            ));
        }
        let (to_node, c) = self.expect_name("a DEF name after TO")?;
        self.expect(Tok::Period, &format!("'.' after '{to_node}' (ROUTE node.field TO node.field)"))?;
        let (to_field, d) = self.expect_name("a field name after '.'")?;
        let mut element = Element::new("ROUTE", start as u32);
        element.attributes.push(attribute("fromNode", from_node, a.start));
        element.attributes.push(attribute("fromField", from_field, b.start));
        element.attributes.push(attribute("toNode", to_node, c.start));
        element.attributes.push(attribute("toField", to_field, d.start));
        Ok(element)
    }

    /// `IMPORT inline.exported [AS local]`.
    fn import(&mut self, start: usize) -> Result<Element, X3dError> {
        let (inline, a) = self.expect_name("the Inline's DEF name after IMPORT")?;
        self.expect(Tok::Period, "'.' between the Inline name and the exported name")?;
        let (imported, b) = self.expect_name("the exported node name")?;
        let mut element = Element::new("IMPORT", start as u32);
        element.attributes.push(attribute("inlineDEF", inline, a.start));
        element.attributes.push(attribute("importedDEF", imported, b.start));
        self.optional_as(&mut element)?;
        Ok(element)
    }

    /// `EXPORT local [AS exported]`.
    fn export(&mut self, start: usize) -> Result<Element, X3dError> {
        let (local, a) = self.expect_name("a node name after EXPORT")?;
        let mut element = Element::new("EXPORT", start as u32);
        element.attributes.push(attribute("localDEF", local, a.start));
        self.optional_as(&mut element)?;
        Ok(element)
    }

    fn optional_as(&mut self, element: &mut Element) -> Result<(), X3dError> {
        if self.peek()?.is_ident("AS") {
            self.next()?;
            let (name, tok) = self.expect_name("a name after AS")?;
            element.attributes.push(attribute("AS", name, tok.start));
        }
        Ok(())
    }
}
