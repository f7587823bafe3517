//! What each element opens: the document's own elements (`<X3D>`, `<head>` with its components, meta
//! and units, `<Scene>`), ROUTEs, IMPORT and EXPORT (reported, not used), the prototype elements
//! (declarations, interfaces, bodies, `IS`, instances and their field values), field declarations of
//! Script and shader nodes, and nodes.

use std::collections::HashMap;

use super::{Doc, Frame};
use crate::x3d::error::X3dError;
use crate::x3d::fields;
use crate::x3d::proto::{FieldValue, InstanceData, ProtoDecl, ProtoFieldDecl};
use crate::x3d::proto_routes::{self, Access};
use crate::x3d::scene::{Component, Field, Loc, Route};

impl Doc<'_> {
    /// An element opens (`name` at byte `offset`, with its attributes): what it is, given what holds
    /// it, goes on the stack. Every encoding's elements come through here.
    pub(super) fn open_element(&mut self, name: String, offset: usize, mut attrs: Vec<Field>) -> Result<(), X3dError> {
        let loc = self.loc(offset);
        self.open_at.push((name.clone(), loc));
        let frame = match self.stack.last() {
            None | Some(Frame::X3d | Frame::Head) => self.document_element(&name, &mut attrs, offset, loc)?,
            Some(Frame::Ignored | Frame::Use) => Frame::Ignored,
            _ => self.scene_element(name, attrs, offset, loc)?,
        };
        self.stack.push(frame);
        Ok(())
    }

    /// Removes and returns the attribute `name`.
    pub(super) fn take(fields: &mut Vec<Field>, name: &str) -> Option<Field> {
        let i = fields.iter().position(|f| f.name == name)?;
        Some(fields.remove(i))
    }

    /// An element outside `<Scene>`: the root, `<head>` and what it holds, `<Scene>` itself.
    fn document_element(
        &mut self,
        name: &str,
        attrs: &mut Vec<Field>,
        offset: usize,
        loc: Loc,
    ) -> Result<Frame, X3dError> {
        Ok(match (name, self.stack.last()) {
            (_, None) if self.saw_x3d => {
                return Err(self.err(
                    offset,
                    format!("<{name}> after the end of the <X3D> root element (a file has a single root element)"),
                ));
            }
            ("X3D", None) => {
                self.saw_x3d = true;
                if self.is_main {
                    if let Some(v) = Self::take(attrs, "version") {
                        self.scene.version = v.value;
                    }
                    if let Some(p) = Self::take(attrs, "profile") {
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
                    let level = match Self::take(attrs, "level") {
                        Some(l) => fields::parse_sf_int32(&l.value).unwrap_or(1),
                        None => 1,
                    };
                    let cname = Self::take(attrs, "name").map(|f| f.value).unwrap_or_default();
                    self.scene.components.push(Component { name: cname, level });
                }
                Frame::Ignored
            }
            ("meta", Some(Frame::Head)) => {
                if self.is_main {
                    let mname = Self::take(attrs, "name").map(|f| f.value).unwrap_or_default();
                    let content = Self::take(attrs, "content").map(|f| f.value).unwrap_or_default();
                    self.scene.meta.push((mname, content));
                }
                Frame::Ignored
            }
            ("unit", Some(Frame::Head)) => {
                self.unit(attrs, offset)?;
                Frame::Ignored
            }
            (_, Some(Frame::Head)) => Frame::Ignored,
            _ => {
                // Content of <X3D> outside <Scene>: tolerated, as browsers do, but reported.
                self.scene.warn(loc, format!("<{name}> outside <Scene> is ignored"));
                Frame::Ignored
            }
        })
    }

    /// An element inside `<Scene>` (or a prototype declaration in it).
    fn scene_element(
        &mut self,
        name: String,
        mut attrs: Vec<Field>,
        offset: usize,
        loc: Loc,
    ) -> Result<Frame, X3dError> {
        Ok(match (name.as_str(), self.stack.last()) {
            ("ROUTE", _) => {
                self.route(&mut attrs, loc);
                Frame::Ignored
            }
            // Statements, not nodes (wherever they stand: XML and JSON allow them among a grouping node's
            // children): read and reported, not used, as the classic parser does.
            ("IMPORT" | "EXPORT", _) => {
                self.scene.warn(loc, format!("{name} statements are not supported; ignored"));
                Frame::Ignored
            }
            ("ProtoDeclare" | "ExternProtoDeclare", _) => self.proto_declare(&name, &mut attrs, offset, loc)?,
            ("ProtoInterface", Some(Frame::ProtoDeclare(_))) => Frame::ProtoInterface,
            ("field", Some(Frame::ProtoInterface | Frame::ProtoDeclare(_))) => {
                Frame::InterfaceField(self.interface_field(&mut attrs, loc))
            }
            ("ProtoBody", Some(Frame::ProtoDeclare(_))) => {
                self.scopes.push(HashMap::new());
                Frame::ProtoBody
            }
            ("IS", Some(Frame::Node(id))) => Frame::Is(*id),
            ("IS", Some(Frame::ProtoInstance(_))) => Frame::InstanceIs,
            ("connect", Some(Frame::Is(id))) => {
                let node_field = Self::take(&mut attrs, "nodeField").map(|f| f.value).unwrap_or_default();
                let proto_field = Self::take(&mut attrs, "protoField").map(|f| f.value).unwrap_or_default();
                let id = *id;
                self.scene.nodes[id.0 as usize].is_connections.push((node_field, proto_field));
                Frame::Ignored
            }
            ("connect", Some(Frame::InstanceIs)) => {
                // An instance inside another prototype's body whose field is the enclosing prototype's:
                // filled, and passing events, when the enclosing prototype is instantiated.
                let node_field = Self::take(&mut attrs, "nodeField").map(|f| f.value).unwrap_or_default();
                let proto_field = Self::take(&mut attrs, "protoField").map(|f| f.value).unwrap_or_default();
                if let Some(Frame::ProtoInstance(inst)) = self.stack.iter_mut().rev().nth(1) {
                    inst.forwarded.push((node_field, proto_field));
                }
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
            ("ProtoInstance", _) => self.proto_instance(&mut attrs, loc)?,
            _ => self.node_start(name, attrs, loc)?,
        })
    }

    /// `<ProtoDeclare>` or `<ExternProtoDeclare>` (`element`).
    fn proto_declare(
        &mut self,
        element: &str,
        attrs: &mut Vec<Field>,
        offset: usize,
        loc: Loc,
    ) -> Result<Frame, X3dError> {
        let pname = Self::take(attrs, "name").map(|f| f.value).unwrap_or_default();
        if pname.is_empty() {
            return Err(self.err(offset, format!("<{element}> without a name")));
        }
        let urls = match Self::take(attrs, "url") {
            Some(url) => fields::parse_mf_string(&url.value)
                .map_err(|e| self.err_in_value(&url, e.offset, format!("url of <{element} name='{pname}'>: {e}")))?,
            None => Vec::new(),
        };
        Ok(Frame::ProtoDeclare(Box::new(ProtoDecl {
            name: pname,
            fields: Vec::new(),
            body: Vec::new(),
            routes: Vec::new(),
            external: element == "ExternProtoDeclare",
            urls,
            loc,
        })))
    }

    /// `<ProtoInstance>`: a USE of an earlier one, or a new instance whose field values follow.
    fn proto_instance(&mut self, attrs: &mut Vec<Field>, loc: Loc) -> Result<Frame, X3dError> {
        let pname = Self::take(attrs, "name").map(|f| f.value).unwrap_or_default();
        let def = Self::take(attrs, "DEF").map(|f| f.value);
        let container = Self::take(attrs, "containerField").map(|f| f.value);
        if let Some(use_name) = Self::take(attrs, "USE") {
            self.use_node(&use_name, container, loc)?;
            return Ok(Frame::Use);
        }
        Ok(Frame::ProtoInstance(Box::new(InstanceData {
            name: pname,
            def,
            container,
            values: Vec::new(),
            forwarded: Vec::new(),
            loc,
        })))
    }

    /// `<unit category conversionFactor>` in the head: the file's UNIT conversion factor for a category.
    fn unit(&mut self, attrs: &mut Vec<Field>, offset: usize) -> Result<(), X3dError> {
        let category = Self::take(attrs, "category").map(|f| f.value).unwrap_or_default();
        let (factor, factor_offset) = match Self::take(attrs, "conversionFactor") {
            Some(f) => (
                fields::parse_sf_double(&f.value)
                    .map_err(|e| self.err_in_value(&f, e.offset, format!("unit conversionFactor: {e}")))?,
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

    /// `<field name type value>` of a ProtoInterface or ExternProtoDeclare.
    fn interface_field(&mut self, attrs: &mut Vec<Field>, loc: Loc) -> ProtoFieldDecl {
        let name = Self::take(attrs, "name").map(|f| f.value).unwrap_or_default();
        let type_name = Self::take(attrs, "type").map(|f| f.value).unwrap_or_default();
        let value = Self::take(attrs, "value").map(|f| (f.value, f.loc));
        let access = Self::take(attrs, "accessType").and_then(|a| {
            let access = Access::parse(&a.value);
            if access.is_none() {
                let message = format!(
                    "field '{name}': accessType '{}' is none of initializeOnly, inputOnly, outputOnly, inputOutput; \
                     ROUTEs may use it both ways",
                    a.value
                );
                self.scene.warn(a.loc, message);
            }
            access
        });
        ProtoFieldDecl { name, type_name, access, value, nodes: Vec::new(), loc }
    }

    /// ROUTEs read here: in a ProtoBody the body's, which each instance copies; anywhere else the scene's
    /// (the nodes of an interface default are shared by the instances, not copied).
    pub(super) fn add_routes(&mut self, routes: Vec<Route>) {
        let innermost = self
            .stack
            .iter()
            .rposition(|f| matches!(f, Frame::ProtoBody | Frame::ProtoInterface | Frame::InterfaceField(_)));
        let body = innermost.filter(|&i| matches!(self.stack[i], Frame::ProtoBody));
        match body.and_then(|i| i.checked_sub(1)).map(|i| &mut self.stack[i]) {
            Some(Frame::ProtoDeclare(decl)) => decl.routes.extend(routes),
            _ => self.scene.routes.extend(routes),
        }
    }

    /// `<ROUTE fromNode fromField toNode toField>`, kept with the prototype being declared if any.
    fn route(&mut self, attrs: &mut Vec<Field>, loc: Loc) {
        let mut get = |n: &str| Self::take(attrs, n).map(|f| f.value).unwrap_or_default();
        let (from_node, from_field, to_node, to_field) =
            (get("fromNode"), get("fromField"), get("toNode"), get("toField"));
        match (self.lookup(&from_node), self.lookup(&to_node)) {
            (Some(from), Some(to)) => {
                let route = Route { from_node: from, from_field, to_node: to, to_field, loc };
                // A ROUTE naming a prototype instance's interface field goes to the body fields behind it.
                let routes = proto_routes::resolve_route(self.scene, route);
                self.add_routes(routes);
            }
            _ => {
                let missing = if self.lookup(&from_node).is_none() { from_node } else { to_node };
                self.scene.warn(loc, format!("ROUTE refers to unknown DEF '{missing}'; ignored"));
            }
        }
    }
}
