//! X3D XML reader (quick-xml events → node arena), and the same scene builder for a document already
//! read into the syntax tree (X3D JSON).
//!
//! One pass over the elements with an explicit stack (no recursion, so a 100,000-deep file cannot
//! overflow the call stack). DEF/USE resolve to shared [`NodeId`]s; a USE of a name not yet DEFined, or
//! of a node whose element is still open (a cycle), is an error. ProtoDeclare bodies are parsed into the
//! arena with their own DEF scope and copied per ProtoInstance (see `proto.rs`). Inline targets that are
//! local files are read into the same arena with their own scope (through `external.rs`); remote URLs
//! are never fetched.
//!
//! Whatever the encoding, an element reaches the builder as [`Doc::open_element`] (its name, offset and
//! attributes) and [`Doc::end`]: `xml.rs` turns quick-xml events into those calls, `syntax.rs` a
//! [`SyntaxDocument`](super::syntax::SyntaxDocument)'s elements. This file holds the document state and
//! what happens when an element closes; `elements.rs` what each element opens, `nodes.rs` DEF/USE and
//! where a node is attached.

mod elements;
mod nodes;
mod syntax;
mod xml;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::error::X3dError;
use super::external::{LoadContext, ParsedDocument};
use super::proto::{self, FieldValue, InstanceData, ProtoDecl, ProtoFieldDecl};
use super::scene::{Field, Loc, NodeId, Scene};
use super::source;

pub(crate) use self::syntax::parse_json_document;

/// The most nodes one load may make: prototype instances nested in prototype bodies multiply, so each
/// instance is checked against this once copied (the same bound as the ClassicVRML reader's).
const MAX_NODES: usize = 2_000_000;

/// What an open element is, for the event handler.
enum Frame {
    X3d,
    Head,
    Scene,
    /// A node element.
    Node(NodeId),
    /// A USE element (content ignored).
    Use,
    ProtoDeclare(Box<ProtoDecl>),
    ProtoInterface,
    /// `<field>` in a ProtoInterface or ExternProtoDeclare.
    InterfaceField(ProtoFieldDecl),
    ProtoBody,
    /// `<IS>` inside a node of a ProtoBody.
    Is(NodeId),
    /// `<IS>` inside a ProtoInstance of a ProtoBody (its `connect`s forward the instance's fields).
    InstanceIs,
    ProtoInstance(Box<InstanceData>),
    FieldValue {
        name: String,
        nodes: Vec<NodeId>,
        loc: Loc,
    },
    /// `<field>` with node content inside a node (Script, shader): its nodes become children of the owner.
    NodeField {
        owner: NodeId,
        name: String,
    },
    /// Anything else; its content is skipped.
    Ignored,
}

struct Doc<'a> {
    scene: &'a mut Scene,
    file: u16,
    text: &'a str,
    dir: PathBuf,
    context: &'a mut LoadContext,
    is_main: bool,
    /// DEF scopes: [document] plus one per ProtoBody being read.
    scopes: Vec<HashMap<String, NodeId>>,
    protos: HashMap<String, ProtoDecl>,
    roots: Vec<NodeId>,
    stack: Vec<Frame>,
    /// Start offsets of the open elements, for "not closed" messages.
    open_at: Vec<(String, Loc)>,
    /// Node elements currently open, for USE cycle detection.
    open_nodes: Vec<NodeId>,
    saw_x3d: bool,
}

/// Reads one XML document (the main file, an Inline or an external prototype file) into `scene`; returns
/// its root nodes and the prototypes it declares.
pub(crate) fn parse_document(
    scene: &mut Scene,
    bytes: &[u8],
    path: &Path,
    context: &mut LoadContext,
    is_main: bool,
) -> Result<ParsedDocument, X3dError> {
    let (file, text) = source::add_source(scene, bytes, path)?;
    let mut doc = Doc::new(scene, file, &text, path, context, is_main);
    doc.run_xml()?;
    Ok(doc.finish())
}

impl<'a> Doc<'a> {
    fn new(
        scene: &'a mut Scene,
        file: u16,
        text: &'a str,
        path: &Path,
        context: &'a mut LoadContext,
        is_main: bool,
    ) -> Self {
        Doc {
            scene,
            file,
            text,
            dir: path.parent().map(Path::to_path_buf).unwrap_or_default(),
            context,
            is_main,
            scopes: vec![HashMap::new()],
            protos: HashMap::new(),
            roots: Vec::new(),
            stack: Vec::new(),
            open_at: Vec::new(),
            open_nodes: Vec::new(),
            saw_x3d: false,
        }
    }

    /// The document's roots and prototypes; the main file's DEF names go to the scene.
    fn finish(mut self) -> ParsedDocument {
        if self.is_main {
            self.scene.defs = self.scopes.swap_remove(0);
        }
        (self.roots, self.protos)
    }
}

impl Doc<'_> {
    fn loc(&self, offset: usize) -> Loc {
        Loc { file: self.file, offset: offset as u32 }
    }

    fn err(&self, offset: usize, message: impl Into<String>) -> X3dError {
        X3dError::new(self.scene.pos(self.loc(offset)), message)
    }

    /// An error at byte `at` of `field`'s value text (in a JSON file, at the JSON element it came from).
    fn err_in_value(&self, field: &Field, at: usize, message: impl Into<String>) -> X3dError {
        X3dError::new(self.scene.pos(self.scene.value_loc(field, at)), message)
    }

    /// An element closes: what it made is complete.
    fn end(&mut self) -> Result<(), X3dError> {
        self.open_at.pop();
        let Some(frame) = self.stack.pop() else { return Ok(()) };
        match frame {
            Frame::Node(id) => {
                self.open_nodes.pop();
                if self.scene.node(id).type_name == "Inline" {
                    self.inline(id)?;
                }
            }
            Frame::ProtoBody => {
                self.scopes.pop();
            }
            Frame::InterfaceField(field) => {
                // The field sits in <ProtoInterface> (or directly in an ExternProtoDeclare).
                let decl = self.stack.iter_mut().rev().take(2).find_map(|f| match f {
                    Frame::ProtoDeclare(decl) => Some(decl),
                    _ => None,
                });
                if let Some(decl) = decl {
                    decl.fields.push(field);
                }
            }
            Frame::ProtoDeclare(decl) => self.declare_proto(*decl),
            Frame::FieldValue { name, nodes, loc } => {
                if let Some(Frame::ProtoInstance(inst)) = self.stack.last_mut()
                    && (!nodes.is_empty() || !inst.values.iter().any(|(n, _)| *n == name))
                {
                    inst.values.push((name, FieldValue::Nodes(nodes, loc)));
                }
            }
            Frame::ProtoInstance(inst) => {
                let inst = *inst;
                let decl = self.protos.get(&inst.name);
                let expanded = proto::instantiate(self.scene, decl, &inst);
                let id = expanded.node;
                self.add_routes(expanded.routes);
                if self.scene.nodes.len() > MAX_NODES {
                    return Err(self.err(
                        inst.loc.offset as usize,
                        format!(
                            "prototype instances expand to more than {MAX_NODES} nodes (instances nested in \
                             prototype bodies multiply); refused"
                        ),
                    ));
                }
                if let Some(def) = inst.def.clone() {
                    self.define(def, id, inst.loc);
                }
                self.attach(id, inst.container.clone());
            }
            _ => {}
        }
        Ok(())
    }

    /// A prototype declaration is complete: an external one is resolved from its file when it can be,
    /// then the declaration is recorded for the instances that follow.
    fn declare_proto(&mut self, mut decl: ProtoDecl) {
        if decl.external && !decl.urls.is_empty() {
            // Resolved from a local file when one declares it; otherwise instances fall back as before
            // (H-Anim names to native nodes, others to a placeholder with a warning).
            // Each url that fails is a warning of its own (see `external`).
            (decl, _) = self.context.resolve_external(self.scene, decl, &self.dir);
        }
        if let Some(previous) = self.protos.get(&decl.name) {
            // An ExternProtoDeclare followed by a full ProtoDeclare: keep the full one.
            if !previous.external || decl.external {
                let msg = format!("prototype '{}' is declared again; the later declaration is used", decl.name);
                self.scene.warn(decl.loc, msg);
            }
        }
        self.protos.insert(decl.name.clone(), decl);
    }

    fn inline(&mut self, id: NodeId) -> Result<(), X3dError> {
        self.context.read_inline(self.scene, id, &self.dir)
    }
}
