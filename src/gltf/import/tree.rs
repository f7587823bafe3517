//! Building X3D syntax-tree elements: attribute text in the XML encoding's form, DEF names made valid.

use std::collections::HashSet;

use glam::{Mat4, Quat, Vec3};

use crate::x3d::syntax::{Content, Element};

/// An element with attributes and children, built up by chained calls.
pub(super) fn el(name: &str) -> Element {
    Element::new(name, 0)
}

pub(super) trait Build {
    fn attr(self, name: &str, value: impl Into<String>) -> Self;
    fn child(self, child: Element) -> Self;
    fn push(&mut self, child: Element);
}

impl Build for Element {
    fn attr(mut self, name: &str, value: impl Into<String>) -> Self {
        self.set_attribute(name, value);
        self
    }

    fn child(mut self, child: Element) -> Self {
        self.push(child);
        self
    }

    fn push(&mut self, child: Element) {
        self.content.push(Content::Element(child));
    }
}

/// A float as the shortest text that reads back as the same `f32`.
pub(super) fn num(v: f32) -> String {
    if v == 0.0 { "0".into() } else { format!("{v}") }
}

pub(super) fn vec3(v: Vec3) -> String {
    format!("{} {} {}", num(v.x), num(v.y), num(v.z))
}

pub(super) fn rotation(q: Quat) -> String {
    let (axis, angle) = q.normalize().to_axis_angle();
    if angle.abs() < 1e-9 || !axis.is_finite() { "0 0 1 0".into() } else { format!("{} {}", vec3(axis), num(angle)) }
}

pub(super) fn floats(values: impl IntoIterator<Item = f32>) -> String {
    values.into_iter().map(num).collect::<Vec<_>>().join(" ")
}

pub(super) fn ints(values: impl IntoIterator<Item = i64>) -> String {
    values.into_iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" ")
}

pub(super) fn vec3s<'a>(values: impl IntoIterator<Item = &'a Vec3>) -> String {
    values.into_iter().map(|v| vec3(*v)).collect::<Vec<_>>().join(" ")
}

/// A string for an MFString attribute: `"a" "b"` with quotes and backslashes escaped.
pub(super) fn mfstring<'a>(values: impl IntoIterator<Item = &'a str>) -> String {
    values
        .into_iter()
        .map(|s| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\"")))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A Transform element placing its children by `m` (translation, rotation, scale).
pub(super) fn transform(m: Mat4) -> Element {
    let (s, r, t) = m.to_scale_rotation_translation();
    let mut e = el("Transform");
    if t != Vec3::ZERO {
        e.set_attribute("translation", vec3(t));
    }
    if r.is_finite() && r.normalize() != Quat::IDENTITY {
        e.set_attribute("rotation", rotation(r));
    }
    if (s - Vec3::ONE).abs().max_element() > 1e-7 {
        e.set_attribute("scale", vec3(s));
    }
    e
}

/// A `name` field value the X3D schema accepts (an `xs:NMTOKEN`): glTF node, mesh and VRM titles are
/// free text ("isBinary overrides"), so characters a name token cannot hold become `_`.
pub(super) fn nmtoken(text: &str) -> String {
    let token: String =
        text.chars().map(|c| if c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ':') { c } else { '_' }).collect();
    if token.is_empty() { "_".to_string() } else { token }
}

/// DEF names: valid XML names (`xs:ID` in the X3D schema), unique within the document.
#[derive(Debug, Default)]
pub(super) struct Defs {
    used: HashSet<String>,
}

impl Defs {
    pub fn make(&mut self, wanted: &str) -> String {
        let mut name: String = wanted
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.' { c } else { '_' })
            .collect();
        if !name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') {
            name.insert(0, '_');
        }
        let mut candidate = name.clone();
        let mut n = 2;
        while !self.used.insert(candidate.clone()) {
            candidate = format!("{name}_{n}");
            n += 1;
        }
        candidate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defs_are_valid_and_unique() {
        let mut defs = Defs::default();
        assert_eq!(defs.make("mixamorig:Hips"), "mixamorig_Hips");
        assert_eq!(defs.make("mixamorig:Hips"), "mixamorig_Hips_2");
        assert_eq!(defs.make("1st bone"), "_1st_bone");
        assert_eq!(mfstring(["a\"b", "c"]), r#""a\"b" "c""#);
        assert_eq!(num(0.1), "0.1");
    }
}
