//! Parser of the classic syntax into the node arena.
//!
//! One loop over the tokens with an explicit stack of open constructs (node bodies, node lists, PROTO
//! interfaces and bodies), so a file nested 100,000 deep cannot overflow the call stack. Field values are
//! stored as the text an XML attribute would hold: the source slice of the value with brackets and
//! comments blanked out (byte offsets unchanged, so a bad number found later is reported at its own
//! line:column), or for a single SFString its unescaped content.

mod protos;
mod values;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::lexer::{LexError, Lexer, Tok, Token};
use super::types::{self, FieldType};
use crate::x3d::error::X3dError;
use crate::x3d::external::{LoadContext, ParsedDocument};
use crate::x3d::fields;
use crate::x3d::options::ProgressReporter;
use crate::x3d::proto::{self, FieldValue, InstanceData, ProtoDecl, ProtoFieldDecl};
use crate::x3d::scene::{Child, Component, Field, Loc, Node, NodeId, Route, Scene};
use crate::x3d::source;

/// Upper bound on nodes in the arena. PROTO instances copy their body, and a body may hold instances of
/// another PROTO, so a short file can describe exponentially many nodes; past this the file is refused.
const MAX_NODES: usize = 2_000_000;

/// Where a finished node goes.
#[derive(Debug, Clone)]
enum Sink {
    /// The file's root nodes.
    Roots,
    /// A node-valued field of a node.
    Field(NodeId, String),
    /// The body of the innermost PROTO being declared.
    ProtoBody,
}

/// A prototype instance being read: its field values collect on a scratch node until the closing `}`.
#[derive(Debug)]
struct PendingInstance {
    proto: String,
    def: Option<String>,
    sink: Sink,
}

/// An open construct.
#[derive(Debug)]
enum Frame {
    /// The top level of the file.
    File,
    /// Inside `Type { ... }`.
    Node { id: NodeId, instance: Option<Box<PendingInstance>>, open_at: usize, type_name: String },
    /// Inside `[ ... ]` of a node-valued field.
    List { owner: NodeId, field: String, open_at: usize },
    /// A node-valued field whose single node comes next.
    Single { owner: NodeId, field: String },
    /// Inside `PROTO Name [ ... ]` or `EXTERNPROTO Name [ ... ]`; node-valued defaults collect on `holder`.
    Interface { decl: Box<ProtoDecl>, holder: NodeId, open_at: usize },
    /// Inside `PROTO Name [ ... ] { ... }`.
    Body { decl: Box<ProtoDecl>, open_at: usize },
}

/// Reads one classic-encoded document into `scene`; returns its roots and the prototypes it declares.
pub(crate) fn parse_document(
    scene: &mut Scene,
    bytes: &[u8],
    path: &Path,
    context: &mut LoadContext,
    is_main: bool,
) -> Result<ParsedDocument, X3dError> {
    let (file, text) = source::add_source(scene, bytes, path)?;
    let text: &str = &text;
    let mut parser = Parser {
        scene,
        file,
        text,
        lexer: Lexer::new(text, 0),
        dir: path.parent().map(Path::to_path_buf).unwrap_or_default(),
        context,
        is_main,
        scopes: vec![HashMap::new()],
        protos: HashMap::new(),
        roots: Vec::new(),
        stack: vec![Frame::File],
        open_nodes: HashSet::new(),
    };
    let body_start = parser.header()?;
    parser.lexer = Lexer::new(text, body_start);
    parser.run()?;
    if is_main {
        parser.scene.defs = parser.scopes.swap_remove(0);
    }
    Ok((std::mem::take(&mut parser.roots), std::mem::take(&mut parser.protos)))
}

struct Parser<'a> {
    scene: &'a mut Scene,
    file: u16,
    text: &'a str,
    lexer: Lexer<'a>,
    dir: PathBuf,
    context: &'a mut LoadContext,
    is_main: bool,
    /// DEF scopes: the file, plus one per PROTO body being read.
    scopes: Vec<HashMap<String, NodeId>>,
    protos: HashMap<String, ProtoDecl>,
    roots: Vec<NodeId>,
    stack: Vec<Frame>,
    /// Nodes whose body is open, for USE cycle detection (a set: a file may nest 100,000 deep).
    open_nodes: HashSet<NodeId>,
}

/// Words that cannot be node type names.
fn is_keyword(word: &str) -> bool {
    matches!(
        word,
        "DEF"
            | "USE"
            | "PROTO"
            | "EXTERNPROTO"
            | "ROUTE"
            | "TO"
            | "IS"
            | "NULL"
            | "TRUE"
            | "FALSE"
            | "PROFILE"
            | "COMPONENT"
            | "UNIT"
            | "META"
            | "IMPORT"
            | "EXPORT"
            | "AS"
    )
}

/// The interface declaration keywords, and whether the declaration carries a value.
fn interface_kind(word: &str) -> Option<bool> {
    match word {
        "field" | "exposedField" | "initializeOnly" | "inputOutput" => Some(true),
        "eventIn" | "eventOut" | "inputOnly" | "outputOnly" => Some(false),
        _ => None,
    }
}

fn is_scalar(t: &Token) -> bool {
    matches!(&t.kind, Tok::Number | Tok::Str(_)) || t.is_ident("TRUE") || t.is_ident("FALSE")
}

/// H-Anim 1.x prototype names, accepted as instances even without a declaration.
fn is_hanim1_name(name: &str) -> bool {
    proto::hanim1_native_type(name).is_some()
}

impl Parser<'_> {
    fn loc(&self, offset: usize) -> Loc {
        Loc { file: self.file, offset: offset as u32 }
    }

    fn err(&self, offset: usize, message: impl Into<String>) -> X3dError {
        X3dError::new(self.scene.pos(self.loc(offset)), message)
    }

    fn at(&self, offset: usize) -> String {
        self.scene.pos(self.loc(offset)).at.map(|a| a.to_string()).unwrap_or_default()
    }

    fn lex_err(&self, e: LexError) -> X3dError {
        self.err(e.offset, e.message)
    }

    fn next(&mut self) -> Result<Token, X3dError> {
        self.lexer.next_token().map_err(|e| self.lex_err(e))
    }

    fn peek(&mut self) -> Result<Token, X3dError> {
        match self.lexer.peek() {
            Ok(t) => Ok(t.clone()),
            Err(e) => {
                let e = e.clone();
                Err(self.lex_err(e))
            }
        }
    }

    fn describe(&self, t: &Token) -> String {
        t.describe(self.text)
    }

    /// Reads a name (identifier that is not a keyword); `what` says what the name is for.
    fn expect_name(&mut self, what: &str) -> Result<(String, Token), X3dError> {
        let t = self.next()?;
        match &t.kind {
            Tok::Ident(name) if !is_keyword(name) => Ok((name.clone(), t.clone())),
            _ => Err(self.err(t.start, format!("expected {what}, found {}", self.describe(&t)))),
        }
    }

    fn expect(&mut self, kind: Tok, what: &str) -> Result<Token, X3dError> {
        let t = self.next()?;
        if t.kind == kind {
            Ok(t)
        } else {
            Err(self.err(t.start, format!("expected {what}, found {}", self.describe(&t))))
        }
    }

    /// Checks the header line and returns where the statements start.
    fn header(&mut self) -> Result<usize, X3dError> {
        let text = self.text;
        let start = text.len() - text.trim_start().len();
        let line_end = text[start..].find(['\n', '\r']).map_or(text.len(), |i| start + i);
        let line = &text[start..line_end];
        let mut words = line.split_whitespace();
        let (spec, version, charset) = (words.next(), words.next(), words.next());
        let expected = "expected a '#VRML V2.0 utf8' or '#X3D V4.0 utf8' header line";
        match (spec, version) {
            (Some("#VRML"), Some("V2.0")) => {
                if self.is_main {
                    self.scene.version = "VRML97".into();
                }
            }
            (Some("#VRML"), Some(v)) if v.starts_with("V1") => {
                return Err(self
                    .err(start, format!("VRML {} files are not supported (only VRML97 '#VRML V2.0 utf8')", &v[1..])));
            }
            (Some("#X3D"), Some(v)) if v.starts_with('V') && v[1..].parse::<f32>().is_ok() => {
                if !(v.starts_with("V3.") || v.starts_with("V4.")) {
                    let loc = self.loc(start);
                    self.scene.warn(loc, format!("unknown X3D version '{v}' in the header; read as X3D 4"));
                }
                if self.is_main {
                    self.scene.version = v[1..].to_string();
                }
            }
            _ => {
                let shown: String = line.chars().take(40).collect();
                return Err(self.err(start, format!("{expected}, found '{shown}'")));
            }
        }
        if charset != Some("utf8") {
            let loc = self.loc(start);
            self.scene.warn(loc, format!("header charset is '{}', not 'utf8'; read as UTF-8", charset.unwrap_or("")));
        }
        Ok(line_end)
    }

    fn run(&mut self) -> Result<(), X3dError> {
        let mut progress = ProgressReporter::new(&self.context.options, self.is_main, self.text.len());
        loop {
            progress.at(self.lexer.position());
            match self.stack.last() {
                Some(Frame::File) => {
                    let t = self.next()?;
                    if t.kind == Tok::Eof {
                        return Ok(());
                    }
                    self.statement(t, Sink::Roots, true)?;
                }
                Some(Frame::Body { open_at, .. }) => {
                    let open_at = *open_at;
                    let t = self.next()?;
                    match t.kind {
                        Tok::RBrace => self.end_proto_body(),
                        Tok::Eof => return Err(self.unclosed(open_at, "PROTO body '{'", "'}'")),
                        _ => self.statement(t, Sink::ProtoBody, false)?,
                    }
                }
                Some(Frame::List { owner, field, open_at }) => {
                    let (owner, field, open_at) = (*owner, field.clone(), *open_at);
                    let t = self.next()?;
                    match t.kind {
                        Tok::RBracket => {
                            self.stack.pop();
                        }
                        Tok::Eof => return Err(self.unclosed(open_at, &format!("'{field} ['"), "']'")),
                        _ => self.node_statement(t, Sink::Field(owner, field.clone()), &format!("in '{field}'"))?,
                    }
                }
                Some(Frame::Single { owner, field }) => {
                    let (owner, field) = (*owner, field.clone());
                    self.stack.pop();
                    let t = self.next()?;
                    self.node_statement(t, Sink::Field(owner, field.clone()), &format!("as the value of '{field}'"))?;
                }
                Some(Frame::Node { id, open_at, type_name, .. }) => {
                    let (id, open_at, type_name) = (*id, *open_at, type_name.clone());
                    let t = self.next()?;
                    match &t.kind {
                        Tok::RBrace => self.end_node()?,
                        Tok::Eof => return Err(self.unclosed(open_at, &format!("'{type_name} {{'"), "'}'")),
                        Tok::Ident(word) if word == "ROUTE" => self.route(t.start)?,
                        Tok::Ident(word) if word == "PROTO" || word == "EXTERNPROTO" => {
                            self.proto_start(word == "EXTERNPROTO", t.start)?
                        }
                        Tok::Ident(word) if interface_kind(word).is_some() => {
                            let word = word.clone();
                            self.node_interface_field(id, &word, t.start)?
                        }
                        Tok::Ident(word) if !is_keyword(word) => {
                            let word = word.clone();
                            self.node_field(id, word, t.start)?
                        }
                        _ => {
                            return Err(self.err(
                                t.start,
                                format!("expected a field name or '}}' in '{type_name}', found {}", self.describe(&t)),
                            ));
                        }
                    }
                }
                Some(Frame::Interface { open_at, .. }) => {
                    let open_at = *open_at;
                    let t = self.next()?;
                    match &t.kind {
                        Tok::RBracket => self.end_interface()?,
                        Tok::Eof => return Err(self.unclosed(open_at, "PROTO interface '['", "']'")),
                        Tok::Ident(word) if interface_kind(word).is_some() => {
                            let word = word.clone();
                            self.interface_field(&word, t.start)?
                        }
                        _ => {
                            return Err(self.err(
                                t.start,
                                format!(
                                    "expected a field declaration (field, exposedField, eventIn, eventOut, \
                                     initializeOnly, inputOutput, inputOnly, outputOnly) or ']', found {}",
                                    self.describe(&t)
                                ),
                            ));
                        }
                    }
                }
                None => return Ok(()),
            }
        }
    }

    fn unclosed(&self, open_at: usize, what: &str, missing: &str) -> X3dError {
        self.err(
            self.text.len(),
            format!(
                "unexpected end of file: {what} opened at {} is not closed (missing {missing}; truncated file?)",
                self.at(open_at)
            ),
        )
    }

    /// A statement at the top level or in a PROTO body.
    fn statement(&mut self, t: Token, sink: Sink, top: bool) -> Result<(), X3dError> {
        if let Tok::Ident(word) = &t.kind {
            match word.as_str() {
                "ROUTE" => return self.route(t.start),
                "PROTO" => return self.proto_start(false, t.start),
                "EXTERNPROTO" => return self.proto_start(true, t.start),
                "PROFILE" | "COMPONENT" | "UNIT" | "META" if top => return self.header_statement(word.clone()),
                "PROFILE" | "COMPONENT" | "UNIT" | "META" => {
                    return Err(self.err(t.start, format!("{word} is only allowed at the top of the file")));
                }
                "IMPORT" | "EXPORT" => return self.import_export(word.clone(), t.start),
                _ => {}
            }
        }
        self.node_statement(t, sink, "")
    }

    fn header_statement(&mut self, word: String) -> Result<(), X3dError> {
        match word.as_str() {
            "PROFILE" => {
                let (name, _) = self.expect_name("a profile name after PROFILE")?;
                if self.is_main {
                    self.scene.profile = name;
                }
            }
            "COMPONENT" => {
                let (spec, tok) = self.expect_name("'name:level' after COMPONENT")?;
                let (name, level) = match spec.rsplit_once(':') {
                    Some((name, level)) => {
                        let level = fields::parse_sf_int32(level).map_err(|_| {
                            self.err(tok.start, format!("COMPONENT '{spec}': the level after ':' must be an integer"))
                        })?;
                        (name.to_string(), level)
                    }
                    None => (spec, 1),
                };
                if self.is_main {
                    self.scene.components.push(Component { name, level });
                }
            }
            "UNIT" => {
                let (category, cat_tok) =
                    self.expect_name("a unit category (length, angle, mass, force) after UNIT")?;
                self.expect_name("a unit name after the UNIT category")?;
                let factor_tok = self.next()?;
                if factor_tok.kind != Tok::Number {
                    return Err(self.err(
                        factor_tok.start,
                        format!("expected the UNIT conversion factor (a number), found {}", self.describe(&factor_tok)),
                    ));
                }
                let factor: f64 = self.text[factor_tok.start..factor_tok.end].parse().unwrap_or(0.0);
                if !(factor > 0.0 && factor.is_finite()) {
                    return Err(self.err(
                        factor_tok.start,
                        format!("UNIT {category} conversion factor must be > 0, found {factor}"),
                    ));
                }
                let units = &mut self.scene.files[self.file as usize].units;
                match category.as_str() {
                    "length" => units.length = factor,
                    "angle" => units.angle = factor,
                    "mass" => units.mass = factor,
                    "force" => units.force = factor,
                    other => {
                        let loc = self.loc(cat_tok.start);
                        self.scene.warn(loc, format!("unknown unit category '{other}' ignored"));
                    }
                }
            }
            _ => {
                // META "name" "content"
                let mut strings = Vec::new();
                for what in ["the META name (a string)", "the META content (a string)"] {
                    let s = self.next()?;
                    match s.kind {
                        Tok::Str(v) => strings.push(v),
                        _ => return Err(self.err(s.start, format!("expected {what}, found {}", self.describe(&s)))),
                    }
                }
                if self.is_main {
                    let content = strings.pop().unwrap_or_default();
                    self.scene.meta.push((strings.pop().unwrap_or_default(), content));
                }
            }
        }
        Ok(())
    }

    /// `IMPORT inline.name [AS local]` / `EXPORT local [AS name]`: read and reported, not used.
    fn import_export(&mut self, word: String, start: usize) -> Result<(), X3dError> {
        self.expect_name(&format!("a node name after {word}"))?;
        if word == "IMPORT" {
            self.expect(Tok::Period, "'.' between the Inline name and the exported name")?;
            self.expect_name("the exported node name")?;
        }
        if self.peek()?.is_ident("AS") {
            self.next()?;
            self.expect_name("a name after AS")?;
        }
        let loc = self.loc(start);
        self.scene.warn(loc, format!("{word} statements are not supported; ignored"));
        Ok(())
    }

    /// `DEF name Type { ... }`, `USE name` or `Type { ... }`.
    fn node_statement(&mut self, t: Token, sink: Sink, context: &str) -> Result<(), X3dError> {
        let context = if context.is_empty() { String::new() } else { format!(" {context}") };
        match &t.kind {
            Tok::Ident(word) if word == "USE" => {
                let (name, name_tok) = self.expect_name("a DEF name after USE")?;
                let Some(target) = self.lookup(&name) else {
                    return Err(self.err(
                        name_tok.start,
                        format!(
                            "USE '{name}' refers to no DEF before this point (a DEF must come before its USE in \
                             document order)"
                        ),
                    ));
                };
                if self.open_nodes.contains(&target) {
                    let def_at = self.scene.pos(self.scene.node(target).loc).at.map(|a| a.to_string());
                    return Err(self.err(
                        name_tok.start,
                        format!(
                            "USE '{name}' is inside its own DEF (opened at {}): this would make a cycle",
                            def_at.unwrap_or_default()
                        ),
                    ));
                }
                self.attach(target, &sink);
                Ok(())
            }
            Tok::Ident(word) if word == "DEF" => {
                let (def, _) = self.expect_name("a name after DEF")?;
                let (type_name, type_tok) = self.expect_name(&format!("a node type after 'DEF {def}'"))?;
                self.start_node(type_name, Some(def), sink, t.start, type_tok)
            }
            Tok::Ident(word) if !is_keyword(word) => {
                let word = word.clone();
                self.start_node(word, None, sink, t.start, t)
            }
            _ => Err(self.err(
                t.start,
                format!("expected a node (a node type, DEF or USE){context}, found {}", self.describe(&t)),
            )),
        }
    }

    fn start_node(
        &mut self,
        type_name: String,
        def: Option<String>,
        sink: Sink,
        start: usize,
        type_tok: Token,
    ) -> Result<(), X3dError> {
        let brace = self.next()?;
        if brace.kind != Tok::LBrace {
            let hint = if is_scalar(&brace) { " (is a field name missing before the value?)" } else { "" };
            return Err(self.err(
                brace.start,
                format!("expected '{{' after node type '{type_name}', found {}{hint}", self.describe(&brace)),
            ));
        }
        let loc = self.loc(start);
        let is_instance = self.protos.contains_key(&type_name) || is_hanim1_name(&type_name);
        let id = NodeId(self.scene.nodes.len() as u32);
        self.scene.nodes.push(Node {
            type_name: type_name.clone(),
            def: if is_instance { None } else { def.clone() },
            fields: Vec::new(),
            children: Vec::new(),
            loc,
            proto: is_instance.then(|| type_name.clone()),
            is_connections: Vec::new(),
        });
        let instance = if is_instance {
            if !self.protos.contains_key(&type_name) {
                let loc = self.loc(type_tok.start);
                let native = proto::hanim1_native_type(&type_name).unwrap_or_default();
                self.scene.warn(
                    loc,
                    format!("'{type_name}' is used without a PROTO declaration; read as the H-Anim node {native}"),
                );
            }
            Some(Box::new(PendingInstance { proto: type_name.clone(), def, sink }))
        } else {
            if let Some(def) = def {
                self.define(def, id, loc);
            }
            self.attach(id, &sink);
            self.open_nodes.insert(id);
            None
        };
        self.stack.push(Frame::Node { id, instance, open_at: brace.start, type_name });
        Ok(())
    }

    fn define(&mut self, def: String, id: NodeId, loc: Loc) {
        if let Some(scope) = self.scopes.last_mut()
            && scope.insert(def.clone(), id).is_some()
        {
            self.scene.warn(loc, format!("DEF '{def}' is defined again; later USEs refer to this one"));
        }
    }

    fn lookup(&self, name: &str) -> Option<NodeId> {
        self.scopes.last().and_then(|s| s.get(name).copied())
    }

    fn attach(&mut self, id: NodeId, sink: &Sink) {
        match sink {
            Sink::Roots => self.roots.push(id),
            Sink::Field(owner, field) => {
                self.scene.nodes[owner.0 as usize].children.push(Child { field: field.clone(), node: id })
            }
            Sink::ProtoBody => {
                if let Some(Frame::Body { decl, .. }) =
                    self.stack.iter_mut().rev().find(|f| matches!(f, Frame::Body { .. }))
                {
                    decl.body.push(id);
                }
            }
        }
    }

    fn end_node(&mut self) -> Result<(), X3dError> {
        let Some(Frame::Node { id, instance, .. }) = self.stack.pop() else { return Ok(()) };
        match instance {
            None => {
                self.open_nodes.remove(&id);
                if self.scene.node(id).type_name == "Inline" {
                    self.context.read_inline(self.scene, id, &self.dir)?;
                }
            }
            Some(pending) => {
                let PendingInstance { proto, def, sink } = *pending;
                let scratch = std::mem::replace(
                    &mut self.scene.nodes[id.0 as usize],
                    Node {
                        type_name: String::new(),
                        def: None,
                        fields: Vec::new(),
                        children: Vec::new(),
                        loc: Loc::default(),
                        proto: None,
                        is_connections: Vec::new(),
                    },
                );
                let mut values: Vec<(String, FieldValue)> =
                    scratch.fields.into_iter().map(|f| (f.name, FieldValue::Text(f.value, f.loc))).collect();
                for child in scratch.children {
                    match values.iter_mut().find(|(n, v)| *n == child.field && matches!(v, FieldValue::Nodes(..))) {
                        Some((_, FieldValue::Nodes(nodes, _))) => nodes.push(child.node),
                        _ => values.push((child.field, FieldValue::Nodes(vec![child.node], scratch.loc))),
                    }
                }
                let inst = InstanceData {
                    name: proto.clone(),
                    def: def.clone(),
                    container: None,
                    values,
                    forwarded: scratch.is_connections,
                    loc: scratch.loc,
                };
                let decl = self.protos.get(&proto);
                let new = proto::instantiate(self.scene, decl, &inst);
                if self.scene.nodes.len() > MAX_NODES {
                    return Err(self.err(
                        scratch.loc.offset as usize,
                        format!(
                            "PROTO instances expand to more than {MAX_NODES} nodes (instances nested in PROTO \
                             bodies multiply); refused"
                        ),
                    ));
                }
                // The scratch node keeps its place in the arena, empty and unreachable.
                self.scene.nodes[id.0 as usize].type_name = format!("{proto} (instance fields)");
                if let Some(def) = def {
                    self.define(def, new, scratch.loc);
                }
                self.attach(new, &sink);
            }
        }
        Ok(())
    }

    /// The type of field `name` of node `owner` when it is known (an instance's PROTO interface).
    fn declared_type(&self, owner: NodeId, name: &str) -> Option<FieldType> {
        let proto = self.scene.node(owner).proto.as_ref()?;
        let decl = self.protos.get(proto)?;
        decl.fields.iter().find(|f| f.name == name).and_then(|f| FieldType::parse(&f.type_name))
    }

    fn node_field(&mut self, owner: NodeId, name: String, name_at: usize) -> Result<(), X3dError> {
        let ty = self.declared_type(owner, &name);
        if let Some(proto) = self.scene.node(owner).proto.clone()
            && let Some(decl) = self.protos.get(&proto)
            && ty.is_none()
        {
            let known = decl.fields.iter().any(|f| f.name == name);
            let loc = self.loc(name_at);
            let message = if known {
                format!("field '{name}' of PROTO '{proto}' has an unknown type; its value is read as written")
            } else {
                format!("PROTO '{proto}' declares no field '{name}'; the value is kept as written")
            };
            self.scene.warn(loc, message);
        }
        self.field_value(owner, name, ty, name_at, true)
    }

    /// `field SFType name value` (or `eventIn SFType name`) inside a Script or shader node.
    fn node_interface_field(&mut self, owner: NodeId, kind: &str, start: usize) -> Result<(), X3dError> {
        let (ty, name) = self.declaration_head(kind)?;
        let has_value = interface_kind(kind).unwrap_or(false);
        if has_value || self.peek()?.is_ident("IS") {
            self.field_value(owner, name, Some(ty), start, has_value)?;
        }
        Ok(())
    }

    /// `TYPE name` after an interface keyword.
    fn declaration_head(&mut self, kind: &str) -> Result<(FieldType, String), X3dError> {
        let (type_name, type_tok) = self.expect_name(&format!("a field type after '{kind}'"))?;
        let Some(ty) = FieldType::parse(&type_name) else {
            return Err(self.err(
                type_tok.start,
                format!("unknown field type '{type_name}' (expected SFBool, SFFloat, SFVec3f, MFNode, ...)"),
            ));
        };
        let (name, _) = self.expect_name(&format!("a field name after '{kind} {type_name}'"))?;
        Ok((ty, name))
    }

    /// `ROUTE a.field TO b.field`.
    fn route(&mut self, start: usize) -> Result<(), X3dError> {
        let (from_node, _) = self.expect_name("a DEF name after ROUTE")?;
        self.expect(Tok::Period, &format!("'.' after '{from_node}' (ROUTE node.field TO node.field)"))?;
        let (from_field, _) = self.expect_name("a field name after '.'")?;
        let to = self.next()?;
        if !to.is_ident("TO") {
            return Err(self.err(
                to.start,
                format!("expected TO after 'ROUTE {from_node}.{from_field}', found {}", self.describe(&to)),
            ));
        }
        let (to_node, _) = self.expect_name("a DEF name after TO")?;
        self.expect(Tok::Period, &format!("'.' after '{to_node}' (ROUTE node.field TO node.field)"))?;
        let (to_field, _) = self.expect_name("a field name after '.'")?;
        let loc = self.loc(start);
        match (self.lookup(&from_node), self.lookup(&to_node)) {
            (Some(from), Some(to)) => {
                let route = Route { from_node: from, from_field, to_node: to, to_field, loc };
                match self.stack.iter_mut().rev().find_map(|f| match f {
                    Frame::Body { decl, .. } => Some(decl),
                    _ => None,
                }) {
                    Some(decl) => decl.routes.push(route),
                    None => self.scene.routes.push(route),
                }
            }
            (from, _) => {
                let missing = if from.is_none() { from_node } else { to_node };
                self.scene.warn(loc, format!("ROUTE refers to unknown DEF '{missing}'; ignored"));
            }
        }
        Ok(())
    }
}
