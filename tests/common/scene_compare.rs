//! Two loaded scenes are the same scene: node for node, field for field, the same sharing and ROUTEs,
//! whatever encoding each was written in (the encodings round-trip and property tests).

use std::collections::HashMap;

use hanim_viewer::x3d::{self, NodeId, Scene, field_types};

/// Two field values are the same when their tokens are: numbers within a relative 1e-6 (encodings write
/// `1.0`, `1.` and `1` alike), booleans whatever their case (XML `true`, ClassicVRML `TRUE`), strings by
/// their characters (an MFString by its parsed strings).
pub fn same_value(node_type: &str, field: &str, a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let ty = field_types::field_type(node_type, field).unwrap_or("");
    if ty == "MFString" {
        return x3d::fields::parse_mf_string(a).ok() == x3d::fields::parse_mf_string(b).ok();
    }
    if ty == "SFString" {
        return false;
    }
    let split = |s: &str| {
        s.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    let (ta, tb) = (split(a), split(b));
    ta.len() == tb.len()
        && ta.iter().zip(&tb).all(|(x, y)| {
            if x.eq_ignore_ascii_case(y) {
                return true;
            }
            match (number(x), number(y)) {
                (Some(p), Some(q)) => (p - q).abs() <= 1e-6 * p.abs().max(q.abs()).max(1.0),
                _ => false,
            }
        })
}

/// A number token: decimal, or hexadecimal (`0xFF`, which the XML and ClassicVRML encodings allow for
/// integers, an SFImage's pixels above all, and JSON writes in decimal).
fn number(token: &str) -> Option<f64> {
    let (sign, digits) = match token.strip_prefix('-') {
        Some(rest) => (-1.0, rest),
        None => (1.0, token.strip_prefix('+').unwrap_or(token)),
    };
    match digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok().map(|v| sign * v as f64),
        None => token.parse::<f64>().ok(),
    }
}

/// Node types whose fields a file declares (`<field>`, `initializeOnly SFVec3f x 0 0 0`).
const DECLARING: &[&str] = &["Script", "ComposedShader", "PackagedShader", "ShaderProgram"];

/// Whether a field's text is the default value of some field type: nothing (an empty list or string),
/// `""`, zeros, `FALSE`, `-1` (SFTime), `0 0 1 0` (SFRotation) or an identity matrix.
fn is_type_default(value: &str) -> bool {
    let tokens: Vec<&str> = value.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()).collect();
    let numbers: Option<Vec<f64>> = tokens.iter().map(|t| number(t)).collect();
    let identity = |n: usize| (0..n * n).map(move |i| if i % (n + 1) == 0 { 1.0 } else { 0.0 });
    match (tokens.as_slice(), numbers) {
        ([], _) | (["\"\""], _) => true,
        ([word], _) if word.eq_ignore_ascii_case("false") => true,
        (_, Some(n)) => {
            n.iter().all(|v| *v == 0.0)
                || n == [-1.0]
                || n == [0.0, 0.0, 1.0, 0.0]
                || n.iter().copied().eq(identity(3))
                || n.iter().copied().eq(identity(4))
        }
        _ => false,
    }
}

/// Walks both scenes from their roots in step and asserts the same nodes, DEF names, fields, children
/// and sharing (a USE in one is a USE of the corresponding node in the other), and the same ROUTEs.
pub fn assert_same_scene(a: &Scene, b: &Scene, what: &str) {
    assert_eq!(a.roots.len(), b.roots.len(), "{what}: number of root nodes");
    let mut pairs: HashMap<NodeId, NodeId> = HashMap::new();
    let mut stack: Vec<(NodeId, NodeId, String)> =
        a.roots.iter().zip(&b.roots).map(|(x, y)| (*x, *y, "Scene".to_string())).collect();
    while let Some((x, y, place)) = stack.pop() {
        if let Some(seen) = pairs.get(&x) {
            assert_eq!(*seen, y, "{what}: {place}: a node shared in one scene is not the same node in the other");
            continue;
        }
        pairs.insert(x, y);
        let (nx, ny) = (a.node(x), b.node(y));
        let place = format!("{place} > {}", a.describe(x));
        assert_eq!(nx.type_name, ny.type_name, "{what}: {place}: node type");
        assert_eq!(nx.def, ny.def, "{what}: {place}: DEF");
        // A Script's inline source (XML character data, JSON #sourceCode) has no place in ClassicVRML but
        // its url (`"ecmascript: …"`, X3D clause 29.2.2), so `url` may appear on the way round.
        let kept = |f: &&x3d::Field| !(nx.type_name == "Script" && f.name == "url");
        // A field declared without a value (XML, JSON) holds its type's default; ClassicVRML's grammar
        // gives every declaration a value, so the writer writes that default, which then loads as given.
        let declared_default = |f: &x3d::Field, other: &x3d::Node| {
            DECLARING.contains(&nx.type_name.as_str()) && other.field(&f.name).is_none() && is_type_default(&f.value)
        };
        let mut fx: Vec<_> = nx
            .fields
            .iter()
            .filter(kept)
            .filter(|f| !declared_default(f, ny))
            .map(|f| (f.name.as_str(), f.value.as_str()))
            .collect();
        let mut fy: Vec<_> = ny
            .fields
            .iter()
            .filter(kept)
            .filter(|f| !declared_default(f, nx))
            .map(|f| (f.name.as_str(), f.value.as_str()))
            .collect();
        fx.sort();
        fy.sort();
        let names = |f: &[(&str, &str)]| f.iter().map(|(n, _)| n.to_string()).collect::<Vec<_>>();
        assert_eq!(names(&fx), names(&fy), "{what}: {place}: field names");
        for ((name, vx), (_, vy)) in fx.iter().zip(&fy) {
            assert!(
                same_value(&nx.type_name, name, vx, vy),
                "{what}: {place}: field {name}: '{}' vs '{}'",
                vx.chars().take(120).collect::<String>(),
                vy.chars().take(120).collect::<String>()
            );
        }
        assert_eq!(nx.children.len(), ny.children.len(), "{what}: {place}: number of children");
        // Order matters within a field, not across fields (JSON groups a node's children by field).
        let by_field = |children: &[x3d::Child]| {
            let mut sorted: Vec<x3d::Child> = children.to_vec();
            sorted.sort_by(|p, q| p.field.cmp(&q.field));
            sorted
        };
        for (cx, cy) in by_field(&nx.children).iter().zip(&by_field(&ny.children)) {
            assert_eq!(cx.field, cy.field, "{what}: {place}: field holding a child");
            stack.push((cx.node, cy.node, place.clone()));
        }
    }
    let routes = |s: &Scene, map: Option<&HashMap<NodeId, NodeId>>| {
        let mut r: Vec<_> = s
            .routes
            .iter()
            .map(|r| {
                let (from, to) = match map {
                    Some(m) => (m.get(&r.from_node).copied(), m.get(&r.to_node).copied()),
                    None => (Some(r.from_node), Some(r.to_node)),
                };
                (from, r.from_field.clone(), to, r.to_field.clone())
            })
            .collect();
        r.sort_by_key(|(f, ff, t, tf)| (f.map(|n| n.0), ff.clone(), t.map(|n| n.0), tf.clone()));
        r
    };
    assert_eq!(routes(a, Some(&pairs)), routes(b, None), "{what}: ROUTEs");
    assert_eq!(a.components.len(), b.components.len(), "{what}: components");
    assert_eq!(a.units_of_main(), b.units_of_main(), "{what}: UNIT statements");
}

pub trait MainUnits {
    fn units_of_main(&self) -> x3d::Units;
}

impl MainUnits for Scene {
    fn units_of_main(&self) -> x3d::Units {
        self.files.first().map(|f| f.units).unwrap_or_default()
    }
}
