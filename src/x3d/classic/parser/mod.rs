//! Parser of the classic syntax into the node arena.
//!
//! One loop over the tokens with an explicit stack of open constructs (node bodies, node lists, PROTO
//! interfaces and bodies), so a file nested 100,000 deep cannot overflow the call stack. Field values are
//! stored as the text an XML attribute would hold: the source slice of the value with brackets and
//! comments blanked out (byte offsets unchanged, so a bad number found later is reported at its own
//! line:column), or for a single SFString its unescaped content.
//!
//! This file holds the loop and the token helpers; `statements.rs` the header and the statements other
//! than nodes, `nodes.rs` nodes and their fields, `values.rs` field values, `protos.rs` PROTO and
//! EXTERNPROTO declarations, `beyond_grammar.rs` the statements read where the grammar has no place for
//! them (docs/classic-grammar.md lists each, with the players that read it).

mod beyond_grammar;
mod nodes;
mod protos;
mod statements;
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
use crate::x3d::proto_routes::{self, Access};
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
        x3d: true,
        head_rank: 0,
        foreign_keywords_reported: false,
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
    /// `#X3D` header (ClassicVRML, ISO/IEC 19776-2) rather than `#VRML V2.0` (VRML97, ISO/IEC 14772-1).
    x3d: bool,
    /// How far the file's head has come: the rank of the last head statement (PROFILE 1, COMPONENT 2,
    /// UNIT 3, META 4), or [`BODY_STARTED`] once any other statement was read.
    head_rank: u8,
    /// Whether the interface keywords of the other standard (VRML97 `field` in an X3D file, X3D
    /// `initializeOnly` in a VRML97 file) were already reported, so that a file says it once.
    foreign_keywords_reported: bool,
}

/// [`Parser::head_rank`] once the scene's statements have begun.
const BODY_STARTED: u8 = 5;

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

/// `TRUE`/`FALSE`, and the lower-case `true`/`false` that X_ITE and view3dscene both read too (the XML
/// encoding's spelling; the stored text is the same either way).
fn is_bool_word(word: &str) -> bool {
    matches!(word, "TRUE" | "FALSE" | "true" | "false")
}

fn is_scalar(t: &Token) -> bool {
    matches!(&t.kind, Tok::Number | Tok::Str(_)) || matches!(&t.kind, Tok::Ident(w) if is_bool_word(w))
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

    /// Reads tokens until the file ends, each in the innermost open construct.
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
                        Tok::Ident(ref word) if self.is_list_statement(word) => self.statement_in_list(t, &field)?,
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
                    self.in_node_body(id, open_at, &type_name)?;
                }
                Some(Frame::Interface { open_at, .. }) => {
                    let open_at = *open_at;
                    self.in_interface(open_at)?;
                }
                None => return Ok(()),
            }
        }
    }

    /// The next token inside `Type { ... }`: a field, a Script field declaration, a ROUTE or PROTO, or `}`.
    fn in_node_body(&mut self, id: NodeId, open_at: usize, type_name: &str) -> Result<(), X3dError> {
        let t = self.next()?;
        match &t.kind {
            Tok::RBrace => self.end_node(),
            Tok::Eof => Err(self.unclosed(open_at, &format!("'{type_name} {{'"), "'}'")),
            Tok::Ident(word) if word == "ROUTE" => self.route(t.start),
            Tok::Ident(word) if word == "PROTO" || word == "EXTERNPROTO" => {
                self.proto_start(word == "EXTERNPROTO", t.start)
            }
            Tok::Ident(word) if word == "IMPORT" || word == "EXPORT" => {
                let word = word.clone();
                self.import_export_in_body(word, t.start, type_name)
            }
            Tok::Ident(word) if interface_kind(word).is_some() => {
                let word = word.clone();
                self.node_interface_field(id, &word, t.start)
            }
            Tok::Ident(word) if !is_keyword(word) => {
                let word = word.clone();
                self.node_field(id, word, t.start)
            }
            _ => Err(self
                .err(t.start, format!("expected a field name or '}}' in '{type_name}', found {}", self.describe(&t)))),
        }
    }

    /// The next token inside a PROTO interface `[ ... ]`: a field declaration or `]`.
    fn in_interface(&mut self, open_at: usize) -> Result<(), X3dError> {
        let t = self.next()?;
        match &t.kind {
            Tok::RBracket => self.end_interface(),
            Tok::Eof => Err(self.unclosed(open_at, "PROTO interface '['", "']'")),
            Tok::Ident(word) if interface_kind(word).is_some() => {
                let word = word.clone();
                self.interface_field(&word, t.start)
            }
            _ => Err(self.err(
                t.start,
                format!(
                    "expected a field declaration (field, exposedField, eventIn, eventOut, initializeOnly, \
                     inputOutput, inputOnly, outputOnly) or ']', found {}",
                    self.describe(&t)
                ),
            )),
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
            if matches!(word.as_str(), "PROFILE" | "COMPONENT" | "UNIT" | "META") {
                if !top {
                    return Err(self.err(t.start, format!("{word} is only allowed at the top of the file")));
                }
                return self.header_statement(word.clone(), t.start);
            }
            if top {
                self.head_rank = BODY_STARTED;
            }
            match word.as_str() {
                "ROUTE" => return self.route(t.start),
                "PROTO" => return self.proto_start(false, t.start),
                "EXTERNPROTO" => return self.proto_start(true, t.start),
                "IMPORT" | "EXPORT" => return self.import_export(word.clone(), t.start),
                "NULL" => return self.null_statement(word.clone(), t.start, None),
                "null" if !self.protos.contains_key(word) => return self.null_statement(word.clone(), t.start, None),
                _ => {}
            }
        }
        if top {
            self.head_rank = BODY_STARTED;
        }
        self.node_statement(t, sink, "")
    }

    /// The grammar that this file's header names, for messages: its annex A and the standard's number.
    fn grammar(&self) -> &'static str {
        if self.x3d { "ISO/IEC 19776-2 annex A" } else { "ISO/IEC 14772-1 annex A" }
    }
}
