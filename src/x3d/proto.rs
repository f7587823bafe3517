//! ProtoDeclare / ProtoInstance expansion.
//!
//! Generic X3D semantics: an instance is a fresh copy of the prototype body with every `IS` connection
//! filled from the instance's `fieldValue` or the interface default; the first body node gives the
//! instance its node type. Each copy's IS connections are kept as the instance's interface, through
//! which ROUTEs naming the instance reach the body (`proto_routes`). The H-Anim 1.x prototypes
//! (`Humanoid`, `Joint`, `Segment`, `Site`, `Displacer`) are recognised by name and become the native
//! H-Anim node they stand for, with the instance's field values, so the skeleton is usable like an X3D
//! HAnim one.

use std::collections::HashMap;

use super::proto_routes::{Access, InstanceInterface};
use super::scene::{Child, Field, Loc, Node, NodeId, Route, Scene};

#[derive(Debug, Clone)]
pub(crate) struct ProtoFieldDecl {
    pub name: String,
    /// Declared type (`SFVec3f`); empty for XML fields that omit it.
    pub type_name: String,
    /// Declared access type; `None` for XML fields that omit it (ROUTEs then follow it both ways).
    pub access: Option<Access>,
    pub value: Option<(String, Loc)>,
    pub nodes: Vec<NodeId>,
    #[allow(dead_code)]
    pub loc: Loc,
}

#[derive(Debug, Clone)]
pub(crate) struct ProtoDecl {
    pub name: String,
    pub fields: Vec<ProtoFieldDecl>,
    pub body: Vec<NodeId>,
    pub routes: Vec<Route>,
    pub external: bool,
    /// The URLs of an external declaration (EXTERNPROTO / ExternProtoDeclare).
    pub urls: Vec<String>,
    pub loc: Loc,
}

#[derive(Debug, Clone)]
pub(crate) enum FieldValue {
    Text(String, Loc),
    Nodes(Vec<NodeId>, #[allow(dead_code)] Loc),
}

#[derive(Debug, Clone)]
pub(crate) struct InstanceData {
    pub name: String,
    pub def: Option<String>,
    pub container: Option<String>,
    pub values: Vec<(String, FieldValue)>,
    /// `(instance field, enclosing prototype's field)` for `field IS outer` on an instance written inside
    /// another prototype's body: filled when the enclosing prototype is instantiated.
    pub forwarded: Vec<(String, String)>,
    pub loc: Loc,
}

/// The native node an H-Anim 1.x prototype name stands for.
pub fn hanim1_native_type(proto_name: &str) -> Option<&'static str> {
    match proto_name {
        "Humanoid" => Some("HAnimHumanoid"),
        "Joint" => Some("HAnimJoint"),
        "Segment" => Some("HAnimSegment"),
        "Site" => Some("HAnimSite"),
        "Displacer" => Some("HAnimDisplacer"),
        _ => None,
    }
}

/// The native H-Anim node a prototype stands for: by its name (`Joint`, or the X3D name `HAnimJoint`),
/// else by its interface, so that a humanoid whose author renamed the prototypes (`HumanJoint`) or
/// declared them under another name is still recognised. The interface signatures are the fields that
/// only that H-Anim node has.
pub(crate) fn hanim_type_of(proto_name: &str, decl: Option<&ProtoDecl>) -> Option<&'static str> {
    let by_name = hanim1_native_type(proto_name)
        .or_else(|| proto_name.strip_prefix("HAnim").and_then(hanim1_native_type))
        .or_else(|| match proto_name.to_ascii_lowercase().as_str() {
            "humanoid" => Some("HAnimHumanoid"),
            "joint" => Some("HAnimJoint"),
            "segment" => Some("HAnimSegment"),
            "site" => Some("HAnimSite"),
            "displacer" => Some("HAnimDisplacer"),
            _ => None,
        });
    if by_name.is_some() {
        return by_name;
    }
    let decl = decl?;
    let has = |name: &str| decl.fields.iter().any(|f| f.name == name);
    if has("humanoidBody") || (has("joints") && has("segments")) || (has("skeleton") && has("joints")) {
        Some("HAnimHumanoid")
    } else if has("center") && (has("llimit") || has("ulimit") || has("limitOrientation") || has("skinCoordIndex")) {
        Some("HAnimJoint")
    } else if has("children") && (has("mass") || has("centerOfMass") || has("momentsOfInertia")) {
        Some("HAnimSegment")
    } else if has("coordIndex") && has("displacements") {
        Some("HAnimDisplacer")
    } else if has("children") && has("translation") && proto_name.to_ascii_lowercase().contains("site") {
        Some("HAnimSite")
    } else {
        None
    }
}

/// H-Anim 1.x field names of the Humanoid prototype and their X3D names.
fn native_field_name(field: &str) -> &str {
    match field {
        "humanoidBody" => "skeleton",
        other => other,
    }
}

fn new_node(scene: &mut Scene, node: Node) -> NodeId {
    let id = NodeId(scene.nodes.len() as u32);
    scene.nodes.push(node);
    id
}

/// An instance expanded into the arena.
pub(crate) struct Expanded {
    /// The node that represents the instance.
    pub node: NodeId,
    /// The copies of the body's ROUTEs. They belong where the instance stands: to the scene, or, for an
    /// instance inside another prototype's body, to that body, so that each of its instances copies them.
    pub routes: Vec<Route>,
}

/// Expands one instance into the arena.
pub(crate) fn instantiate(scene: &mut Scene, decl: Option<&ProtoDecl>, inst: &InstanceData) -> Expanded {
    if let Some(native) = hanim_type_of(&inst.name, decl) {
        return Expanded { node: instantiate_hanim1(scene, native, decl, inst), routes: Vec::new() };
    }
    let node = match decl {
        Some(decl) if !decl.body.is_empty() => return instantiate_body(scene, decl, inst),
        _ => {
            let why = match decl {
                Some(d) if d.external => "its ExternProtoDeclare is not loaded",
                Some(_) => "its body is empty",
                None => "it is not declared",
            };
            scene.warn(inst.loc, format!("ProtoInstance '{}' cannot be expanded: {why}", inst.name));
            placeholder(scene, &inst.name, decl, inst)
        }
    };
    Expanded { node, routes: Vec::new() }
}

/// A node named after the prototype, holding the instance's values; nothing renders it.
fn placeholder(scene: &mut Scene, type_name: &str, decl: Option<&ProtoDecl>, inst: &InstanceData) -> NodeId {
    let mut fields: Vec<Field> = Vec::new();
    let mut children: Vec<Child> = Vec::new();
    if let Some(decl) = decl {
        for f in &decl.fields {
            if inst.values.iter().any(|(n, _)| *n == f.name) {
                continue;
            }
            if let Some((value, loc)) = &f.value {
                fields.push(Field { name: native_field_name(&f.name).into(), value: value.clone(), loc: *loc });
            }
            children.extend(f.nodes.iter().map(|&node| Child { field: native_field_name(&f.name).into(), node }));
        }
    }
    for (name, value) in &inst.values {
        let name = native_field_name(name).to_string();
        match value {
            FieldValue::Text(text, loc) => fields.push(Field { name, value: text.clone(), loc: *loc }),
            FieldValue::Nodes(nodes, _) => {
                children.extend(nodes.iter().map(|&node| Child { field: name.clone(), node }))
            }
        }
    }
    let is_connections =
        inst.forwarded.iter().map(|(field, outer)| (native_field_name(field).to_string(), outer.clone())).collect();
    new_node(
        scene,
        Node {
            type_name: type_name.to_string(),
            def: inst.def.clone(),
            fields,
            children,
            loc: inst.loc,
            proto: Some(inst.name.clone()),
            is_connections,
        },
    )
}

fn instantiate_hanim1(scene: &mut Scene, native: &str, decl: Option<&ProtoDecl>, inst: &InstanceData) -> NodeId {
    placeholder(scene, native, decl, inst)
}

/// Copies the body (sharing structure as the body shares it) and applies the IS connections.
fn instantiate_body(scene: &mut Scene, decl: &ProtoDecl, inst: &InstanceData) -> Expanded {
    // Every node reachable from the body, iteratively.
    let mut order = Vec::new();
    let mut seen = HashMap::new();
    let mut stack: Vec<NodeId> = decl.body.iter().rev().copied().collect();
    while let Some(id) = stack.pop() {
        if seen.contains_key(&id) {
            continue;
        }
        seen.insert(id, NodeId(0));
        order.push(id);
        stack.extend(scene.node(id).children.iter().rev().map(|c| c.node));
    }
    // Nodes handed in through field values or interface defaults are shared, not copied.
    let copy_of: HashMap<NodeId, NodeId> = order
        .iter()
        .map(|&old| {
            let mut node = scene.node(old).clone();
            node.children.clear();
            let new = new_node(scene, node);
            (old, new)
        })
        .collect();
    for &old in &order {
        let children: Vec<Child> =
            scene.node(old).children.iter().map(|c| Child { field: c.field.clone(), node: copy_of[&c.node] }).collect();
        scene.nodes[copy_of[&old].0 as usize].children = children;
    }
    let mut interface = InstanceInterface {
        proto: inst.name.clone(),
        fields: decl.fields.iter().map(|f| (f.name.clone(), f.access)).collect(),
        connections: Vec::new(),
    };
    for &old in &order {
        let new = copy_of[&old];
        let connections = std::mem::take(&mut scene.nodes[new.0 as usize].is_connections);
        for (node_field, proto_field) in connections {
            // Events pass through the interface along every connection, forwarded ones included: a ROUTE
            // into this instance reaches the body field whichever prototype gives the field its value.
            interface.connections.push((proto_field.clone(), new, node_field.clone()));
            // Connected to a field that this instance itself takes from an enclosing prototype: left for
            // the enclosing prototype's instantiation to fill.
            if let Some((_, outer)) = inst.forwarded.iter().find(|(f, _)| *f == proto_field) {
                scene.nodes[new.0 as usize].is_connections.push((node_field, outer.clone()));
                continue;
            }
            let value = inst.values.iter().find(|(n, _)| *n == proto_field).map(|(_, v)| v.clone()).or_else(|| {
                decl.fields.iter().find(|f| f.name == proto_field).map(|f| match &f.value {
                    Some((text, loc)) => FieldValue::Text(text.clone(), *loc),
                    None => FieldValue::Nodes(f.nodes.clone(), f.loc),
                })
            });
            let node = &mut scene.nodes[new.0 as usize];
            match value {
                Some(FieldValue::Text(text, loc)) => {
                    node.fields.retain(|f| f.name != node_field);
                    node.fields.push(Field { name: node_field, value: text, loc });
                }
                Some(FieldValue::Nodes(nodes, _)) => {
                    node.children.retain(|c| c.field != node_field);
                    node.children.extend(nodes.into_iter().map(|n| Child { field: node_field.clone(), node: n }));
                }
                None => {}
            }
        }
    }
    // The body's ROUTEs were resolved through the interfaces of instances nested in the body when they
    // were read (`proto_routes`), so they name body nodes only, and their copies name the copied nodes.
    let routes = decl
        .routes
        .iter()
        .filter_map(|route| match (copy_of.get(&route.from_node), copy_of.get(&route.to_node)) {
            (Some(&from), Some(&to)) => Some(Route { from_node: from, to_node: to, ..route.clone() }),
            _ => None,
        })
        .collect();
    let primary = copy_of[&decl.body[0]];
    let extras: Vec<Child> =
        decl.body[1..].iter().map(|b| Child { field: "__proto_extra".into(), node: copy_of[b] }).collect();
    let node = &mut scene.nodes[primary.0 as usize];
    node.def = inst.def.clone();
    node.proto = Some(inst.name.clone());
    node.loc = inst.loc;
    node.children.extend(extras);
    scene.instance_interfaces.insert(primary, interface);
    Expanded { node: primary, routes }
}
