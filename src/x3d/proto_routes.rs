//! ROUTEs to and from prototype instances.
//!
//! X3D 4.0 clause 4.4.4 (prototype semantics): an event sent by a body node's field that is IS-connected
//! to an interface field of access type outputOnly or inputOutput is sent out of the instance, and an
//! event sent to an instance's inputOnly or inputOutput interface field is delivered to every body field
//! IS-connected to it. An expanded instance is no node of its own in the arena (its first body node stands
//! for it, see `proto.rs`), so the interface cannot hold events: each ROUTE naming an instance's interface
//! field is rewritten, when it is read, into ROUTEs from or to the body fields connected to it. Everything
//! that follows ROUTEs (the event model, the interpolator clips, `check`) then sees plain node fields.

use std::collections::HashMap;

use super::scene::{NodeId, Route, Scene};

/// The access type of a prototype interface field (X3D 4.0 clause 4.4.2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    InitializeOnly,
    InputOnly,
    OutputOnly,
    InputOutput,
}

impl Access {
    /// An XML/JSON `accessType`, or the keyword of a ClassicVRML interface declaration (VRML97's
    /// `field`, `exposedField`, `eventIn` and `eventOut` too).
    pub(crate) fn parse(word: &str) -> Option<Access> {
        match word {
            "initializeOnly" | "field" => Some(Access::InitializeOnly),
            "inputOnly" | "eventIn" => Some(Access::InputOnly),
            "outputOnly" | "eventOut" => Some(Access::OutputOnly),
            "inputOutput" | "exposedField" => Some(Access::InputOutput),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Access::InitializeOnly => "initializeOnly",
            Access::InputOnly => "inputOnly",
            Access::OutputOnly => "outputOnly",
            Access::InputOutput => "inputOutput",
        }
    }
}

/// One expanded instance's interface, as ROUTEs naming the instance see it.
#[derive(Debug, Clone)]
pub(crate) struct InstanceInterface {
    pub proto: String,
    /// The declared fields; `None`: the declaration does not say (an XML `<field>` without `accessType`),
    /// taken as inputOutput so that the ROUTE is followed rather than lost.
    pub fields: Vec<(String, Option<Access>)>,
    /// `(interface field, body node, that node's field)` for every IS connection of the copied body, IS
    /// chains through nested instances already followed down to the nodes that hold the fields.
    pub connections: Vec<(String, NodeId, String)>,
}

/// Each expanded instance's interface, by the node that stands for the instance.
pub(crate) type InstanceInterfaces = HashMap<NodeId, InstanceInterface>;

/// Which end of a ROUTE a node field is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    From,
    To,
}

/// The ROUTEs `route` stands for: itself when neither end is an instance's interface field; otherwise one
/// ROUTE per body field connected to each such end (every pair when both ends are). A ROUTE naming a field
/// the prototype does not declare, or one its access type does not allow at that end, is a warning at the
/// ROUTE's position and stands for nothing.
pub(crate) fn resolve_route(scene: &mut Scene, route: Route) -> Vec<Route> {
    let ends = instance_end(scene, route.from_node, &route.from_field, End::From)
        .and_then(|from| Ok((from, instance_end(scene, route.to_node, &route.to_field, End::To)?)));
    let (from, to) = match ends {
        Ok(ends) => ends,
        Err(why) => {
            let message = format!(
                "ROUTE {}.{} TO {}.{}: {why}; ignored",
                scene.node(route.from_node).def_name(),
                route.from_field,
                scene.node(route.to_node).def_name(),
                route.to_field
            );
            scene.warn(route.loc, message);
            return Vec::new();
        }
    };
    let from = from.unwrap_or_else(|| vec![(route.from_node, route.from_field.clone())]);
    let to = to.unwrap_or_else(|| vec![(route.to_node, route.to_field.clone())]);
    from.iter()
        .flat_map(|(from_node, from_field)| {
            to.iter().map(|(to_node, to_field)| Route {
                from_node: *from_node,
                from_field: from_field.clone(),
                to_node: *to_node,
                to_field: to_field.clone(),
                loc: route.loc,
            })
        })
        .collect()
}

/// The body fields that field `field` of `node` stands for at `end` of a ROUTE: `Ok(None)` when `node` is
/// not an expanded instance (the ROUTE end is the node's own field), an error saying why the ROUTE
/// carries no events otherwise.
fn instance_end(scene: &Scene, node: NodeId, field: &str, end: End) -> Result<Option<Vec<(NodeId, String)>>, String> {
    let Some(interface) = scene.instance_interfaces.get(&node) else { return Ok(None) };
    let proto = &interface.proto;
    let Some((name, access)) = declared_field(interface, field, end) else {
        let names: Vec<&str> = interface.fields.iter().map(|(n, _)| n.as_str()).collect();
        let hint = crate::names::close_names_hint(field, names.iter().copied());
        let listed = if hint.is_empty() {
            let more = if names.len() > 12 { ", ..." } else { "" };
            format!(" (it declares: {}{more})", names[..names.len().min(12)].join(", "))
        } else {
            hint
        };
        return Err(format!("prototype '{proto}' declares no interface field '{field}'{listed}"));
    };
    if let Some(access) = access {
        let allowed = match end {
            End::From => matches!(access, Access::OutputOnly | Access::InputOutput),
            End::To => matches!(access, Access::InputOnly | Access::InputOutput),
        };
        if !allowed {
            let role = if end == End::From { "sends no events" } else { "takes no events" };
            return Err(format!("interface field '{name}' of prototype '{proto}' is {}: it {role}", access.name()));
        }
    }
    let connected: Vec<(NodeId, String)> = interface
        .connections
        .iter()
        .filter(|(interface_field, _, _)| interface_field == name)
        .map(|(_, body_node, body_field)| (*body_node, body_field.clone()))
        .collect();
    if connected.is_empty() {
        return Err(format!(
            "interface field '{name}' of prototype '{proto}' is IS-connected to no field of its body, so no \
             event passes through it"
        ));
    }
    Ok(Some(connected))
}

/// The declared interface field a ROUTE's field name means: the name itself, or for an inputOutput field
/// `x` also `set_x` (as a ROUTE's destination) and `x_changed` (as its source), as for built-in fields
/// (clause 4.4.2.2).
fn declared_field<'a>(interface: &'a InstanceInterface, field: &str, end: End) -> Option<(&'a str, Option<Access>)> {
    let exact = interface.fields.iter().find(|(name, _)| name == field);
    let alias = || {
        let base = match end {
            End::From => field.strip_suffix("_changed"),
            End::To => field.strip_prefix("set_"),
        }?;
        interface.fields.iter().find(|(name, access)| name == base && access.is_none_or(|a| a == Access::InputOutput))
    };
    exact.or_else(alias).map(|(name, access)| (name.as_str(), *access))
}
