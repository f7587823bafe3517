//! Streaming X3D XML reader (quick-xml events → node arena).
//!
//! One pass over the events with an explicit stack (no recursion, so a 100,000-deep file cannot overflow
//! the call stack). DEF/USE resolve to shared [`NodeId`]s; a USE of a name not yet DEFined, or of a node
//! whose element is still open (a cycle), is an error. ProtoDeclare bodies are parsed into the arena with
//! their own DEF scope and copied per ProtoInstance (see `proto.rs`). Inline targets that are local files
//! are read into the same arena with their own scope; remote URLs are never fetched.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use quick_xml::XmlVersion;
use quick_xml::escape::EscapeError;
use quick_xml::events::attributes::AttrError;
use quick_xml::events::{BytesStart, Event};

use super::error::X3dError;
use super::external::{LoadContext, ParsedDocument};
use super::fields;
use super::options::ProgressReporter;
use super::proto::{self, FieldValue, InstanceData, ProtoDecl, ProtoFieldDecl};
use super::scene::{Child, Component, Field, Loc, Node, NodeId, Route, Scene};
use super::source;

/// Where an attribute error is (offset from the element name) and what it is, without quick-xml's
/// "position N" prefix, which counts from a place the reader of the message cannot see.
fn describe_attr_error(err: &AttrError) -> (usize, String) {
    match err {
        AttrError::ExpectedEq(at) => (*at, "the attribute name must be followed by `=`".into()),
        AttrError::ExpectedValue(at) => (*at, "`=` must be followed by a quoted value".into()),
        AttrError::UnquotedValue(at) => (*at, "the attribute value must be enclosed in `\"` or `'`".into()),
        AttrError::ExpectedQuote(at, quote) => (*at, format!("missing closing quote `{}`", *quote as char)),
        AttrError::Duplicated(at, _) => (*at, "the same attribute is given twice (not well-formed XML)".into()),
    }
}

/// What an open element is, for the event handler.
enum Frame {
    X3d,
    Head,
    Scene,
    /// A node element; `def_scope_pushed` is unused here, kept simple.
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
    let text: &str = &text;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut doc = Doc {
        scene,
        file,
        text,
        dir,
        context,
        is_main,
        scopes: vec![HashMap::new()],
        protos: HashMap::new(),
        roots: Vec::new(),
        stack: Vec::new(),
        open_at: Vec::new(),
        open_nodes: Vec::new(),
        saw_x3d: false,
    };
    doc.run()?;
    let roots = std::mem::take(&mut doc.roots);
    if is_main {
        let defs = doc.scopes.swap_remove(0);
        doc.scene.defs = defs;
    }
    Ok((roots, std::mem::take(&mut doc.protos)))
}

impl Doc<'_> {
    fn loc(&self, offset: usize) -> Loc {
        Loc { file: self.file, offset: offset as u32 }
    }

    fn err(&self, offset: usize, message: impl Into<String>) -> X3dError {
        X3dError::new(self.scene.pos(self.loc(offset)), message)
    }

    /// Byte offset of a slice that borrows from the document text.
    fn offset_of(&self, s: &[u8]) -> Option<usize> {
        let base = self.text.as_ptr() as usize;
        let p = s.as_ptr() as usize;
        (p >= base && p <= base + self.text.len()).then(|| p - base)
    }

    fn run(&mut self) -> Result<(), X3dError> {
        let mut reader = quick_xml::Reader::from_str(self.text);
        reader.config_mut().trim_text(true);
        let mut progress = ProgressReporter::new(&self.context.options, self.is_main, self.text.len());
        loop {
            progress.at(reader.buffer_position() as usize);
            let event = reader.read_event().map_err(|e| {
                let at = reader.error_position() as usize;
                self.err(at, format!("malformed XML: {e}"))
            })?;
            match event {
                Event::Start(e) => self.start(&e, false)?,
                Event::Empty(e) => {
                    self.start(&e, true)?;
                    self.end()?;
                }
                Event::End(_) => self.end()?,
                Event::Eof => break,
                // XML allows only comments, processing instructions and the DOCTYPE around the root.
                Event::Text(t) if self.stack.is_empty() => {
                    let offset = self.offset_of(t.as_bytes()).unwrap_or(reader.buffer_position() as usize);
                    let shown: String = t.chars().take(40).collect();
                    let place = if self.saw_x3d { "after" } else { "before" };
                    return Err(self.err(offset, format!("text {place} the <X3D> root element: '{}'", shown.trim())));
                }
                Event::CData(t) if self.stack.is_empty() => {
                    let offset = self.offset_of(t.as_bytes()).unwrap_or(reader.buffer_position() as usize);
                    return Err(self.err(offset, "CDATA section outside the <X3D> root element"));
                }
                // Text, CDATA (Script source), comments, processing instructions: not needed.
                Event::DocType(_) => {}
                _ => {}
            }
        }
        if let Some((name, loc)) = self.open_at.last() {
            let at = self.scene.pos(*loc).at.map(|a| a.to_string()).unwrap_or_default();
            return Err(self.err(
                self.text.len(),
                format!("unexpected end of file: <{name}> opened at {at} is not closed (truncated file?)"),
            ));
        }
        if !self.saw_x3d {
            return Err(self.err(0, "expected an <X3D> root element (is this an X3D XML file?)"));
        }
        Ok(())
    }

    fn attributes(&self, e: &BytesStart) -> Result<Vec<Field>, X3dError> {
        let name_offset = self.offset_of(e.name().as_ref().as_bytes());
        let elem_offset = name_offset.unwrap_or(0).saturating_sub(1);
        let mut out = Vec::new();
        for attr in e.attributes() {
            let mut attr = attr.map_err(|err| {
                // Positions in an AttrError count from the start of the element name.
                let (at, what) = describe_attr_error(&err);
                let offset = name_offset.map_or(elem_offset, |n| n + at);
                self.err(offset, format!("malformed attribute in <{}>: {what}", e.name().as_ref()))
            })?;
            let value_offset = self.offset_of(attr.value.as_bytes()).unwrap_or(elem_offset);
            let name = attr.key.as_ref().to_string();
            // XML normalisation turns CR LF into one space, which would shift the offsets of everything after
            // it in a multi-line value (and so the line:column of a bad number). Two spaces keep them.
            if attr.value.contains('\r') {
                attr.value = attr.value.replace("\r\n", " \n").into();
            }
            let value = attr.normalized_value(XmlVersion::Implicit1_0).map_err(|err| match err {
                quick_xml::Error::Escape(EscapeError::UnrecognizedEntity(range, entity)) => self.err(
                    value_offset + range.start.saturating_sub(1),
                    format!(
                        "unknown entity reference '&{entity};' in attribute '{name}': only the predefined XML \
                         entities (&lt; &gt; &amp; &apos; &quot;) and character references are expanded, never \
                         entities declared in a DOCTYPE"
                    ),
                ),
                err => {
                    self.err(value_offset, format!("bad character or entity reference in attribute '{name}': {err}"))
                }
            })?;
            out.push(Field { name, value: value.into_owned(), loc: self.loc(value_offset) });
        }
        Ok(out)
    }

    fn take(fields: &mut Vec<Field>, name: &str) -> Option<Field> {
        let i = fields.iter().position(|f| f.name == name)?;
        Some(fields.remove(i))
    }

    fn parent_node(&self) -> Option<NodeId> {
        match self.stack.last() {
            Some(Frame::Node(id)) => Some(*id),
            _ => None,
        }
    }

    fn start(&mut self, e: &BytesStart, _empty: bool) -> Result<(), X3dError> {
        let name = e.name().as_ref().to_string();
        let offset = self.offset_of(e.name().as_ref().as_bytes()).unwrap_or(0).saturating_sub(1);
        let loc = self.loc(offset);
        self.open_at.push((name.clone(), loc));
        let mut attrs = self.attributes(e)?;
        let frame = match (name.as_str(), self.stack.last()) {
            (_, None) if self.saw_x3d => {
                return Err(self.err(
                    offset,
                    format!("<{name}> after the end of the <X3D> root element (a file has a single root element)"),
                ));
            }
            ("X3D", None) => {
                self.saw_x3d = true;
                if self.is_main {
                    if let Some(v) = Self::take(&mut attrs, "version") {
                        self.scene.version = v.value;
                    }
                    if let Some(p) = Self::take(&mut attrs, "profile") {
                        self.scene.profile = p.value;
                    }
                }
                Frame::X3d
            }
            (_, None) => {
                return Err(self.err(offset, format!("expected an <X3D> root element, found <{name}>")));
            }
            ("head", Some(Frame::X3d)) => Frame::Head,
            ("Scene", Some(Frame::X3d)) => Frame::Scene,
            ("component", Some(Frame::Head)) => {
                if self.is_main {
                    let level = match Self::take(&mut attrs, "level") {
                        Some(l) => fields::parse_sf_int32(&l.value).unwrap_or(1),
                        None => 1,
                    };
                    let cname = Self::take(&mut attrs, "name").map(|f| f.value).unwrap_or_default();
                    self.scene.components.push(Component { name: cname, level });
                }
                Frame::Ignored
            }
            ("meta", Some(Frame::Head)) => {
                if self.is_main {
                    let mname = Self::take(&mut attrs, "name").map(|f| f.value).unwrap_or_default();
                    let content = Self::take(&mut attrs, "content").map(|f| f.value).unwrap_or_default();
                    self.scene.meta.push((mname, content));
                }
                Frame::Ignored
            }
            ("unit", Some(Frame::Head)) => {
                self.unit(&mut attrs, offset)?;
                Frame::Ignored
            }
            (_, Some(Frame::Head)) => Frame::Ignored,
            (_, Some(Frame::X3d)) => {
                // Content outside <Scene>: tolerated, as browsers do, but reported.
                self.scene.warn(loc, format!("<{name}> outside <Scene> is ignored"));
                Frame::Ignored
            }
            (_, Some(Frame::Ignored | Frame::Use)) => Frame::Ignored,
            ("ROUTE", _) => {
                self.route(&mut attrs, loc);
                Frame::Ignored
            }
            ("ProtoDeclare" | "ExternProtoDeclare", _) => {
                let pname = Self::take(&mut attrs, "name").map(|f| f.value).unwrap_or_default();
                if pname.is_empty() {
                    return Err(self.err(offset, format!("<{name}> without a name")));
                }
                let urls = match Self::take(&mut attrs, "url") {
                    Some(url) => fields::parse_mf_string(&url.value).map_err(|e| {
                        self.err(url.loc.offset as usize + e.offset, format!("url of <{name} name='{pname}'>: {e}"))
                    })?,
                    None => Vec::new(),
                };
                Frame::ProtoDeclare(Box::new(ProtoDecl {
                    name: pname,
                    fields: Vec::new(),
                    body: Vec::new(),
                    routes: Vec::new(),
                    external: name == "ExternProtoDeclare",
                    urls,
                    loc,
                }))
            }
            ("ProtoInterface", Some(Frame::ProtoDeclare(_))) => Frame::ProtoInterface,
            ("field", Some(Frame::ProtoInterface | Frame::ProtoDeclare(_))) => {
                Frame::InterfaceField(self.interface_field(&mut attrs, loc))
            }
            ("ProtoBody", Some(Frame::ProtoDeclare(_))) => {
                self.scopes.push(HashMap::new());
                Frame::ProtoBody
            }
            ("IS", Some(Frame::Node(id))) => Frame::Is(*id),
            ("connect", Some(Frame::Is(id))) => {
                let node_field = Self::take(&mut attrs, "nodeField").map(|f| f.value).unwrap_or_default();
                let proto_field = Self::take(&mut attrs, "protoField").map(|f| f.value).unwrap_or_default();
                let id = *id;
                self.scene.nodes[id.0 as usize].is_connections.push((node_field, proto_field));
                Frame::Ignored
            }
            ("field", Some(Frame::Node(owner))) => {
                // A field declaration of a Script or shader node; node-valued content becomes children.
                let owner = *owner;
                let fname = Self::take(&mut attrs, "name").map(|f| f.value).unwrap_or_default();
                if let Some(value) = Self::take(&mut attrs, "value") {
                    self.scene.nodes[owner.0 as usize].fields.push(Field { name: fname.clone(), ..value });
                }
                Frame::NodeField { owner, name: fname }
            }
            ("fieldValue", Some(Frame::ProtoInstance(_))) => {
                let fname = Self::take(&mut attrs, "name").map(|f| f.value).unwrap_or_default();
                if let Some(value) = Self::take(&mut attrs, "value")
                    && let Some(Frame::ProtoInstance(inst)) = self.stack.last_mut()
                {
                    inst.values.push((fname.clone(), FieldValue::Text(value.value, value.loc)));
                }
                Frame::FieldValue { name: fname, nodes: Vec::new(), loc }
            }
            ("ProtoInstance", _) => {
                let pname = Self::take(&mut attrs, "name").map(|f| f.value).unwrap_or_default();
                let def = Self::take(&mut attrs, "DEF").map(|f| f.value);
                let container = Self::take(&mut attrs, "containerField").map(|f| f.value);
                if let Some(use_name) = Self::take(&mut attrs, "USE") {
                    self.use_node(&use_name, container, loc)?;
                    Frame::Use
                } else {
                    Frame::ProtoInstance(Box::new(InstanceData {
                        name: pname,
                        def,
                        container,
                        values: Vec::new(),
                        forwarded: Vec::new(),
                        loc,
                    }))
                }
            }
            _ => self.node_start(name, attrs, loc)?,
        };
        self.stack.push(frame);
        Ok(())
    }

    fn unit(&mut self, attrs: &mut Vec<Field>, offset: usize) -> Result<(), X3dError> {
        let category = Self::take(attrs, "category").map(|f| f.value).unwrap_or_default();
        let (factor, factor_offset) = match Self::take(attrs, "conversionFactor") {
            Some(f) => (
                fields::parse_sf_double(&f.value)
                    .map_err(|e| self.err(f.loc.offset as usize + e.offset, format!("unit conversionFactor: {e}")))?,
                f.loc.offset as usize,
            ),
            None => return Err(self.err(offset, "<unit> without conversionFactor")),
        };
        if factor <= 0.0 {
            return Err(self.err(
                factor_offset,
                format!("<unit category='{category}'> conversionFactor must be > 0, found {factor}"),
            ));
        }
        let units = &mut self.scene.files[self.file as usize].units;
        match category.as_str() {
            "length" => units.length = factor,
            "angle" => units.angle = factor,
            "mass" => units.mass = factor,
            "force" => units.force = factor,
            other => {
                let loc = self.loc(offset);
                self.scene.warn(loc, format!("unknown unit category '{other}' ignored"));
            }
        }
        Ok(())
    }

    fn interface_field(&mut self, attrs: &mut Vec<Field>, loc: Loc) -> ProtoFieldDecl {
        let name = Self::take(attrs, "name").map(|f| f.value).unwrap_or_default();
        let type_name = Self::take(attrs, "type").map(|f| f.value).unwrap_or_default();
        let value = Self::take(attrs, "value").map(|f| (f.value, f.loc));
        ProtoFieldDecl { name, type_name, value, nodes: Vec::new(), loc }
    }

    fn lookup(&self, name: &str) -> Option<NodeId> {
        self.scopes.last().and_then(|s| s.get(name).copied())
    }

    fn route(&mut self, attrs: &mut Vec<Field>, loc: Loc) {
        let mut get = |n: &str| Self::take(attrs, n).map(|f| f.value).unwrap_or_default();
        let (from_node, from_field, to_node, to_field) =
            (get("fromNode"), get("fromField"), get("toNode"), get("toField"));
        match (self.lookup(&from_node), self.lookup(&to_node)) {
            (Some(from), Some(to)) => {
                let route = Route { from_node: from, from_field, to_node: to, to_field, loc };
                match self.stack.iter_mut().rev().find_map(|f| match f {
                    Frame::ProtoDeclare(decl) => Some(decl),
                    _ => None,
                }) {
                    Some(decl) => decl.routes.push(route),
                    None => self.scene.routes.push(route),
                }
            }
            _ => {
                let missing = if self.lookup(&from_node).is_none() { from_node } else { to_node };
                self.scene.warn(loc, format!("ROUTE refers to unknown DEF '{missing}'; ignored"));
            }
        }
    }

    /// The default containerField of a node type, given the parent's type.
    fn default_container(type_name: &str, parent_type: Option<&str>) -> &'static str {
        match type_name {
            "Coordinate" | "CoordinateDouble" => "coord",
            "Normal" => "normal",
            "Color" | "ColorRGBA" => "color",
            "TextureCoordinate" | "TextureCoordinateGenerator" | "MultiTextureCoordinate" => "texCoord",
            "Appearance" => "appearance",
            "Material" | "PhysicalMaterial" | "UnlitMaterial" | "TwoSidedMaterial" => "material",
            "ImageTexture" | "PixelTexture" | "MovieTexture" | "MultiTexture" => "texture",
            "TextureTransform" | "MultiTextureTransform" => "textureTransform",
            "TextureProperties" => "textureProperties",
            "FontStyle" | "ScreenFontStyle" => "fontStyle",
            "FillProperties" => "fillProperties",
            "LineProperties" => "lineProperties",
            "HAnimDisplacer" => "displacers",
            "HAnimMotion" if parent_type == Some("HAnimHumanoid") => "motions",
            "MetadataBoolean" | "MetadataDouble" | "MetadataFloat" | "MetadataInteger" | "MetadataSet"
            | "MetadataString" => {
                if parent_type == Some("MetadataSet") {
                    "value"
                } else {
                    "metadata"
                }
            }
            "Box"
            | "Cone"
            | "Cylinder"
            | "Sphere"
            | "Text"
            | "ElevationGrid"
            | "Extrusion"
            | "IndexedFaceSet"
            | "IndexedLineSet"
            | "IndexedTriangleSet"
            | "IndexedTriangleFanSet"
            | "IndexedTriangleStripSet"
            | "IndexedQuadSet"
            | "LineSet"
            | "PointSet"
            | "TriangleSet"
            | "TriangleFanSet"
            | "TriangleStripSet"
            | "QuadSet"
            | "Arc2D"
            | "ArcClose2D"
            | "Circle2D"
            | "Disk2D"
            | "Polyline2D"
            | "Polypoint2D"
            | "Rectangle2D"
            | "TriangleSet2D" => "geometry",
            _ => "children",
        }
    }

    /// Attaches a finished (or USEd) node to whatever holds it.
    fn attach(&mut self, id: NodeId, container: Option<String>) {
        let parent_type = self.parent_node().map(|p| self.scene.node(p).type_name.clone());
        match self.stack.last_mut() {
            Some(Frame::Node(parent)) => {
                let parent = *parent;
                let field = container.unwrap_or_else(|| {
                    Self::default_container(&self.scene.node(id).type_name, parent_type.as_deref()).to_string()
                });
                self.scene.nodes[parent.0 as usize].children.push(Child { field, node: id });
            }
            Some(Frame::Scene) => self.roots.push(id),
            Some(Frame::ProtoBody) => {
                if let Some(Frame::ProtoDeclare(decl)) = self.stack.iter_mut().rev().nth(1) {
                    decl.body.push(id);
                }
            }
            Some(Frame::FieldValue { nodes, .. }) => nodes.push(id),
            Some(Frame::InterfaceField(decl)) => decl.nodes.push(id),
            Some(Frame::NodeField { owner, name }) => {
                let (owner, field) = (*owner, name.clone());
                self.scene.nodes[owner.0 as usize].children.push(Child { field, node: id });
            }
            _ => {}
        }
    }

    fn use_node(&mut self, use_name: &Field, container: Option<String>, loc: Loc) -> Result<(), X3dError> {
        let Some(target) = self.lookup(&use_name.value) else {
            return Err(self.err(
                use_name.loc.offset as usize,
                format!(
                    "USE '{}' refers to no DEF before this point (a DEF must come before its USE in document order)",
                    use_name.value
                ),
            ));
        };
        if self.open_nodes.contains(&target) {
            let def_at = self.scene.pos(self.scene.node(target).loc).at.map(|a| a.to_string()).unwrap_or_default();
            return Err(self.err(
                use_name.loc.offset as usize,
                format!("USE '{}' is inside its own DEF (opened at {def_at}): this would make a cycle", use_name.value),
            ));
        }
        let _ = loc;
        self.attach(target, container);
        Ok(())
    }

    fn node_start(&mut self, type_name: String, mut attrs: Vec<Field>, loc: Loc) -> Result<Frame, X3dError> {
        let container = Self::take(&mut attrs, "containerField").map(|f| f.value);
        if let Some(use_name) = Self::take(&mut attrs, "USE") {
            let target = self.lookup(&use_name.value);
            if let Some(t) = target {
                let actual = &self.scene.node(t).type_name;
                if *actual != type_name && self.scene.node(t).proto.is_none() {
                    let msg = format!("USE '{}' is a {actual}, written as <{type_name}>", use_name.value);
                    self.scene.warn(use_name.loc, msg);
                }
            }
            self.use_node(&use_name, container, loc)?;
            return Ok(Frame::Use);
        }
        let def = Self::take(&mut attrs, "DEF").map(|f| f.value);
        // Attributes that are XML/HTML decoration, not X3D fields.
        attrs.retain(|f| !matches!(f.name.as_str(), "class" | "id" | "style") && !f.name.starts_with("xmlns"));
        let id = NodeId(self.scene.nodes.len() as u32);
        self.scene.nodes.push(Node {
            type_name,
            def: def.clone(),
            fields: attrs,
            children: Vec::new(),
            loc,
            proto: None,
            is_connections: Vec::new(),
        });
        if let Some(def) = def {
            self.define(def, id, loc);
        }
        self.attach(id, container);
        self.open_nodes.push(id);
        Ok(Frame::Node(id))
    }

    fn define(&mut self, def: String, id: NodeId, loc: Loc) {
        if let Some(scope) = self.scopes.last_mut()
            && scope.insert(def.clone(), id).is_some()
        {
            self.scene.warn(loc, format!("DEF '{def}' is defined again; later USEs refer to this one"));
        }
    }

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
            Frame::ProtoDeclare(decl) => {
                let mut decl = *decl;
                if decl.external && !decl.urls.is_empty() {
                    // Resolved from a local file when one declares it; otherwise instances fall back as before
                    // (H-Anim names to native nodes, others to a placeholder with a warning).
                    let copy = decl.clone();
                    decl = match self.context.resolve_external(self.scene, decl, &self.dir) {
                        Ok((resolved, _)) => resolved,
                        Err(e) => {
                            let msg = format!("ExternProtoDeclare '{}': its file cannot be read ({e})", copy.name);
                            self.scene.warn(copy.loc, msg);
                            copy
                        }
                    };
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
                let id = proto::instantiate(self.scene, decl, &inst);
                if let Some(def) = inst.def.clone() {
                    self.define(def, id, inst.loc);
                }
                self.attach(id, inst.container.clone());
            }
            _ => {}
        }
        Ok(())
    }

    fn inline(&mut self, id: NodeId) -> Result<(), X3dError> {
        self.context.read_inline(self.scene, id, &self.dir)
    }
}
