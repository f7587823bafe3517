//! Node elements: DEF and USE (with cycle detection), and where a node goes once read: the parent field
//! its containerField names, or the default one for its type.

use super::{Doc, Frame};
use crate::x3d::error::X3dError;
use crate::x3d::scene::{Child, Field, Loc, Node, NodeId};

impl Doc<'_> {
    /// The node element that holds the element being opened, if a node does.
    fn parent_node(&self) -> Option<NodeId> {
        match self.stack.last() {
            Some(Frame::Node(id)) => Some(*id),
            _ => None,
        }
    }

    /// The node DEFined as `name` in the current scope (the file's, or a ProtoBody's).
    pub(super) fn lookup(&self, name: &str) -> Option<NodeId> {
        self.scopes.last().and_then(|s| s.get(name).copied())
    }

    /// Attaches a finished (or USEd) node to whatever holds it.
    pub(super) fn attach(&mut self, id: NodeId, container: Option<String>) {
        let parent_type = self.parent_node().map(|p| self.scene.node(p).type_name.clone());
        match self.stack.last_mut() {
            Some(Frame::Node(parent)) => {
                let parent = *parent;
                let field = container.unwrap_or_else(|| {
                    crate::x3d::field_types::default_container(&self.scene.node(id).type_name, parent_type.as_deref())
                        .to_string()
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

    /// A USE: the DEFined node attached again where the USE stands. A USE of a name no DEF before it
    /// defines is dropped with a warning (see `undefined_use_message`); the rest of the scene still loads.
    pub(super) fn use_node(&mut self, use_name: &Field, container: Option<String>, loc: Loc) -> Result<(), X3dError> {
        let Some(target) = self.lookup(&use_name.value) else {
            self.scene.warn(use_name.loc, crate::x3d::error::undefined_use_message(&use_name.value));
            return Ok(());
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

    /// A node element opens: a USE, or a new node in the arena (DEFined if it has a name).
    pub(super) fn node_start(&mut self, type_name: String, mut attrs: Vec<Field>, loc: Loc) -> Result<Frame, X3dError> {
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
        // Attributes that are XML/HTML decoration, not X3D fields — except FontStyle's and
        // ScreenFontStyle's own `style` field (PLAIN, BOLD, ITALIC, BOLDITALIC; clause 15).
        let has_style_field = matches!(type_name.as_str(), "FontStyle" | "ScreenFontStyle");
        attrs.retain(|f| match f.name.as_str() {
            "class" | "id" => false,
            "style" => has_style_field,
            name => !name.starts_with("xmlns"),
        });
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

    /// Records a DEF name in the current scope.
    pub(super) fn define(&mut self, def: String, id: NodeId, loc: Loc) {
        if let Some(scope) = self.scopes.last_mut()
            && scope.insert(def.clone(), id).is_some()
        {
            self.scene.warn(loc, format!("DEF '{def}' is defined again; later USEs refer to this one"));
        }
    }
}
