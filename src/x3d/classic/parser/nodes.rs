//! Nodes: `DEF`/`USE`, a node's body and its fields, prototype instances expanded when their body
//! closes, and where a finished node goes.

use super::*;

impl Parser<'_> {
    /// `DEF name Type { ... }`, `USE name` or `Type { ... }`.
    pub(super) fn node_statement(&mut self, t: Token, sink: Sink, context: &str) -> Result<(), X3dError> {
        let context = if context.is_empty() { String::new() } else { format!(" {context}") };
        match &t.kind {
            Tok::Ident(word) if word == "USE" => {
                let (name, name_tok) = self.expect_name("a DEF name after USE")?;
                let Some(target) = self.lookup(&name) else {
                    // Dropped with a warning (see `undefined_use_message`); the rest of the scene still loads.
                    let loc = self.loc(name_tok.start);
                    self.scene.warn(loc, crate::x3d::error::undefined_use_message(&name));
                    return Ok(());
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

    pub(super) fn start_node(
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

    pub(super) fn define(&mut self, def: String, id: NodeId, loc: Loc) {
        if let Some(scope) = self.scopes.last_mut()
            && scope.insert(def.clone(), id).is_some()
        {
            self.scene.warn(loc, format!("DEF '{def}' is defined again; later USEs refer to this one"));
        }
    }

    pub(super) fn lookup(&self, name: &str) -> Option<NodeId> {
        self.scopes.last().and_then(|s| s.get(name).copied())
    }

    pub(super) fn attach(&mut self, id: NodeId, sink: &Sink) {
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

    /// `}` closes a node: an Inline reads its file, a prototype instance is expanded.
    pub(super) fn end_node(&mut self) -> Result<(), X3dError> {
        let Some(Frame::Node { id, instance, .. }) = self.stack.pop() else { return Ok(()) };
        match instance {
            None => {
                self.open_nodes.remove(&id);
                if self.scene.node(id).type_name == "Inline" {
                    self.context.read_inline(self.scene, id, &self.dir)?;
                }
                Ok(())
            }
            Some(pending) => self.expand_instance(id, *pending),
        }
    }

    /// A prototype instance is complete: the field values collected on its scratch node `id` become the
    /// instance's, and the expanded copy of the prototype body takes its place where it goes.
    fn expand_instance(&mut self, id: NodeId, pending: PendingInstance) -> Result<(), X3dError> {
        let PendingInstance { proto, def, sink } = pending;
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
        let expanded = proto::instantiate(self.scene, decl, &inst);
        let new = expanded.node;
        self.add_routes(expanded.routes);
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
        Ok(())
    }

    /// The type of field `name` of node `owner` when it is known: an instance's PROTO interface, or for a
    /// built-in node whether the standard declares the field node-valued or a string (the same name is
    /// a node list in one node and a string in another: HAnimHumanoid's `joints` holds joints,
    /// HAnimMotion's is an SFString of names). Numeric fields of built-in nodes stay untyped, read as
    /// written and checked when used, as the XML reader does.
    fn declared_type(&self, owner: NodeId, name: &str) -> Option<FieldType> {
        let node = self.scene.node(owner);
        let Some(proto) = node.proto.as_ref() else {
            let builtin = crate::x3d::field_types::field_type(&node.type_name, name)?;
            return matches!(builtin, "SFNode" | "MFNode" | "SFString" | "MFString")
                .then(|| FieldType::parse(builtin))
                .flatten();
        };
        let decl = self.protos.get(proto)?;
        decl.fields.iter().find(|f| f.name == name).and_then(|f| FieldType::parse(&f.type_name))
    }

    /// Whether the standard declares field `name` of built-in node `owner` node-valued (None: not a
    /// built-in node's declared field).
    pub(super) fn builtin_node_valued(&self, owner: NodeId, name: &str) -> Option<bool> {
        let node = self.scene.node(owner);
        if node.proto.is_some() {
            return None;
        }
        crate::x3d::field_types::field_type(&node.type_name, name).map(crate::x3d::field_types::is_node_type)
    }

    pub(super) fn node_field(&mut self, owner: NodeId, name: String, name_at: usize) -> Result<(), X3dError> {
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

    /// `field SFType name value` (or `eventIn SFType name`) inside a Script or shader node. Other nodes
    /// have no user-defined fields (the grammar's `scriptBody`); X_ITE refuses such a file and view3dscene
    /// stops reading it, and so it is refused here.
    pub(super) fn node_interface_field(&mut self, owner: NodeId, kind: &str, start: usize) -> Result<(), X3dError> {
        let node = self.scene.node(owner);
        let type_name = node.proto.as_deref().unwrap_or(&node.type_name);
        if !accepts_field_declarations(type_name, node.proto.is_some()) {
            let instance = if node.proto.is_some() { "an instance of PROTO " } else { "" };
            return Err(self.err(
                start,
                format!(
                    "a field declaration ('{kind}') in {instance}'{type_name}': only Script and the shader \
                     nodes (ComposedShader, PackagedShader, ShaderProgram) declare fields of their own ({}, \
                     scriptBody)",
                    self.grammar()
                ),
            ));
        }
        self.check_keyword_set(kind, start);
        let (ty, name) = self.declaration_head(kind)?;
        let has_value = interface_kind(kind).unwrap_or(false);
        if has_value || self.peek()?.is_ident("IS") {
            self.field_value(owner, name, Some(ty), start, has_value)?;
        }
        Ok(())
    }

    /// `TYPE name` after an interface keyword.
    pub(super) fn declaration_head(&mut self, kind: &str) -> Result<(FieldType, String), X3dError> {
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
}

/// Whether a node of type `type_name` may declare fields of its own: Script and the programmable shaders
/// (ISO/IEC 19775-1 X3DScriptNode, X3DProgrammableShaderObject); also a type this reader does not know
/// (a node of a later version of the standard), whose fields it cannot judge. PROTO instances never do.
fn accepts_field_declarations(type_name: &str, is_instance: bool) -> bool {
    if is_instance {
        return false;
    }
    matches!(type_name, "Script" | "ComposedShader" | "PackagedShader" | "ShaderProgram")
        || !crate::x3d::field_types::is_known_element(type_name)
}
