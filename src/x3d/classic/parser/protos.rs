//! PROTO and EXTERNPROTO declarations: interfaces with their defaults, bodies, external definitions.

use super::*;

impl Parser<'_> {
    /// `PROTO Name [` or `EXTERNPROTO Name [`.
    pub(super) fn proto_start(&mut self, external: bool, start: usize) -> Result<(), X3dError> {
        let keyword = if external { "EXTERNPROTO" } else { "PROTO" };
        let (name, _) = self.expect_name(&format!("a name after {keyword}"))?;
        let open = self.expect(Tok::LBracket, &format!("'[' (the interface) after '{keyword} {name}'"))?;
        let holder = NodeId(self.scene.nodes.len() as u32);
        self.scene.nodes.push(Node {
            type_name: format!("{name} (interface defaults)"),
            def: None,
            fields: Vec::new(),
            children: Vec::new(),
            loc: self.loc(start),
            proto: None,
            is_connections: Vec::new(),
        });
        let decl = ProtoDecl {
            name,
            fields: Vec::new(),
            body: Vec::new(),
            routes: Vec::new(),
            external,
            urls: Vec::new(),
            loc: self.loc(start),
        };
        self.stack.push(Frame::Interface { decl: Box::new(decl), holder, open_at: open.start });
        Ok(())
    }

    pub(super) fn interface_field(&mut self, kind: &str, start: usize) -> Result<(), X3dError> {
        self.check_keyword_set(kind, start);
        let (ty, name) = self.declaration_head(kind)?;
        let Some(Frame::Interface { decl, holder, .. }) = self.stack.last_mut() else { return Ok(()) };
        let holder = *holder;
        let external = decl.external;
        if decl.fields.iter().any(|f| f.name == name) {
            let proto = decl.name.clone();
            return Err(self.err(start, format!("PROTO '{proto}' declares field '{name}' twice")));
        }
        decl.fields.push(ProtoFieldDecl {
            name: name.clone(),
            type_name: ty.name.to_string(),
            access: Access::parse(kind),
            value: None,
            nodes: Vec::new(),
            loc: Loc { file: self.file, offset: start as u32 },
        });
        if interface_kind(kind) == Some(true) && !external {
            let next = self.peek()?;
            if matches!(next.kind, Tok::RBracket) || interface_kind_token(&next) {
                if !ty.is_node() {
                    return Err(self.err(
                        next.start,
                        format!("{kind} '{name}' ({}) needs an initial value, found {}", ty.name, self.describe(&next)),
                    ));
                }
                return Ok(());
            }
            self.field_value(holder, name, Some(ty), start, true)?;
        }
        Ok(())
    }

    /// `]` closing an interface: the defaults move into the declaration; a PROTO continues with its body,
    /// an EXTERNPROTO with its URLs.
    pub(super) fn end_interface(&mut self) -> Result<(), X3dError> {
        let Some(Frame::Interface { mut decl, holder, .. }) = self.stack.pop() else { return Ok(()) };
        let defaults = std::mem::replace(
            &mut self.scene.nodes[holder.0 as usize],
            Node {
                type_name: format!("{} (interface defaults)", decl.name),
                def: None,
                fields: Vec::new(),
                children: Vec::new(),
                loc: decl.loc,
                proto: None,
                is_connections: Vec::new(),
            },
        );
        for f in &mut decl.fields {
            // Node-valued fields and events keep `value: None` (an IS to them hands on nodes, if any).
            if let Some(text) = defaults.fields.iter().find(|d| d.name == f.name) {
                f.value = Some((text.value.clone(), text.loc));
            }
            f.nodes = defaults.children.iter().filter(|c| c.field == f.name).map(|c| c.node).collect();
        }
        if decl.external {
            let urls = self.url_list(&decl.name)?;
            self.extern_proto(*decl, urls);
            return Ok(());
        }
        let open =
            self.expect(Tok::LBrace, &format!("'{{' (the body) after the interface of PROTO '{}'", decl.name))?;
        self.scopes.push(HashMap::new());
        self.stack.push(Frame::Body { decl, open_at: open.start });
        Ok(())
    }

    /// The URL list of an EXTERNPROTO: one string or `[ "a" "b" ]`.
    pub(super) fn url_list(&mut self, name: &str) -> Result<Vec<String>, X3dError> {
        let t = self.next()?;
        match t.kind {
            Tok::Str(s) => Ok(vec![s]),
            Tok::LBracket => {
                let mut urls = Vec::new();
                loop {
                    let u = self.next()?;
                    match u.kind {
                        Tok::Str(s) => urls.push(s),
                        Tok::RBracket => return Ok(urls),
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

    pub(super) fn extern_proto(&mut self, mut decl: ProtoDecl, urls: Vec<String>) {
        decl.urls = urls;
        let (name, loc) = (decl.name.clone(), decl.loc);
        let fallback = match proto::hanim_type_of(&name, Some(&decl)) {
            Some(native) => format!("its instances are read as the H-Anim node {native}"),
            None => "its instances cannot be expanded".to_string(),
        };
        let resolved = match self.context.resolve_external(self.scene, decl, &self.dir) {
            (resolved, _) if !resolved.external => resolved,
            (decl, tried) => {
                let tried = if tried.is_empty() { "no URL".to_string() } else { tried.join("; ") };
                self.scene
                    .warn(loc, format!("EXTERNPROTO '{name}' is not available locally (tried {tried}); {fallback}"));
                decl
            }
        };
        self.declare(resolved);
    }

    pub(super) fn end_proto_body(&mut self) {
        self.scopes.pop();
        if let Some(Frame::Body { decl, .. }) = self.stack.pop() {
            self.declare(*decl);
        }
    }

    pub(super) fn declare(&mut self, decl: ProtoDecl) {
        if let Some(previous) = self.protos.get(&decl.name)
            && (!previous.external || decl.external)
        {
            let msg = format!("PROTO '{}' is declared again; the later declaration is used", decl.name);
            self.scene.warn(decl.loc, msg);
        }
        self.protos.insert(decl.name.clone(), decl);
    }
}

fn interface_kind_token(t: &Token) -> bool {
    matches!(&t.kind, Tok::Ident(w) if interface_kind(w).is_some())
}
