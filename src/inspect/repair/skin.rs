//! Skin fixes: one shared skinCoord node, weights that sum to 1, one skin normal per point.

use std::fmt::Write as _;

use glam::Vec3;

use super::Fixer;
use super::xml::{self, Element};
use crate::hanim::Humanoid;
use crate::inspect::portability::unshared_skin_coords;

impl Fixer<'_> {
    /// HANIM-SKINCOORD-NOT-SHARED: each skin geometry's own Coordinate (as many points as skinCoord)
    /// becomes a USE of the skinCoord node, so the points that deform are the ones drawn. A DEF must come
    /// before its USEs, so when the first such geometry comes before the skinCoord element, the skinCoord
    /// element (its DEF and points, without its containerField) moves into that geometry and the
    /// humanoid's skinCoord becomes the USE. A Coordinate whose own DEF is referred to elsewhere is left.
    pub(super) fn share_skin_coord(&mut self, h: &Humanoid) {
        const CODE: &str = "HANIM-SKINCOORD-NOT-SHARED";
        let unshared = unshared_skin_coords(&self.doc.scene, h);
        let Some(skin_coord) = h.skin.as_ref().and_then(|s| s.coord_node) else { return };
        let Some(skin_element) = self.element(skin_coord) else { return };
        let mut copies: Vec<Element> = Vec::new();
        for (_, coord) in unshared {
            let Some(element) = self.element(coord) else { continue };
            if let Some(def) = &self.doc.scene.node(coord).def
                && !self.references(def).is_empty()
            {
                self.skip(CODE, format!("Coordinate DEF '{def}' is used elsewhere; left as it is"));
                continue;
            }
            if !copies.iter().any(|c| c.start == element.start) {
                copies.push(element);
            }
        }
        if copies.is_empty() {
            return;
        }
        copies.sort_by_key(|e| e.start);
        let Some(def) = self.def_of(h, skin_coord, "skinCoord") else { return };
        let use_xml = |container: Option<&str>| match container {
            Some(c) => format!("<Coordinate USE='{def}' containerField='{c}'/>"),
            None => format!("<Coordinate USE='{def}'/>"),
        };
        let mut rest = &copies[..];
        if copies[0].start < skin_element.start {
            // Move the DEF into the first copy's place.
            let first = &copies[0];
            let moved = self.moved_definition(&skin_element, &def, xml::attribute(self.text, first, "containerField"));
            self.edits.replace(first.start, first.end, moved);
            let container = xml::attribute(self.text, &skin_element, "containerField").unwrap_or("skinCoord");
            let container = container.to_string();
            self.replace_element_keeping_def_edit(&skin_element, use_xml(Some(&container)));
            rest = &copies[1..];
            self.changed(CODE, format!("skinCoord DEF '{def}' moved into the skin geometry; skinCoord now USEs it"));
        }
        for copy in rest {
            let container = xml::attribute(self.text, copy, "containerField").map(str::to_string);
            self.edits.replace(copy.start, copy.end, use_xml(container.as_deref()));
        }
        if !rest.is_empty() {
            self.changed(CODE, format!("{} skin geometry Coordinate(s) replaced by USE '{def}'", rest.len()));
        }
    }

    /// The text of the skinCoord element as it will stand inside a geometry: its own attributes but the
    /// containerField (the copy's, if it had one), with DEF `def`.
    fn moved_definition(&self, element: &Element, def: &str, container: Option<&str>) -> String {
        let text = self.text;
        let mut out = format!("<{} DEF='{def}'", element.name);
        if let Some(c) = container {
            let _ = write!(out, " containerField='{c}'");
        }
        for a in xml::attributes(text, element) {
            if a.name == "DEF" || a.name == "containerField" {
                continue;
            }
            let quote = &text[a.value_start - 1..a.value_start];
            let _ = write!(out, " {}={quote}{}{quote}", a.name, &text[a.value_start..a.value_end]);
        }
        match element.close_start {
            Some(close) => {
                out.push('>');
                out.push_str(&text[element.tag_end..close]);
                let _ = write!(out, "</{}>", element.name);
            }
            None => out.push_str("/>"),
        }
        out
    }

    /// Replaces a whole element whose DEF this repair may have added as an attribute edit: that edit
    /// lies inside the element, so it is dropped in favour of the replacement.
    fn replace_element_keeping_def_edit(&mut self, element: &Element, with: String) {
        self.edits.drop_inside(element.start, element.end);
        self.edits.replace(element.start, element.end, with);
    }

    /// HANIM-WEIGHTS-SUM: divides the weights of each point whose weights do not sum to 1 (and not to 0)
    /// by their sum, in every joint's `skinCoordWeight` (written out in full, one weight per index). The
    /// rest pose does not move: there every skin matrix is the identity.
    pub(super) fn normalise_weights(&mut self, h: &Humanoid) {
        const CODE: &str = "HANIM-WEIGHTS-SUM";
        let Some(skin) = &h.skin else { return };
        let points = skin.points.len();
        let mut sums = vec![0.0f64; points];
        let effective = |weights: &[f32], k: usize| -> f32 {
            if weights.is_empty() { 1.0 } else { weights.get(k).or(weights.last()).copied().unwrap_or(1.0) }
        };
        for &j in &h.skin_joints {
            let joint = &h.joints[j];
            for (k, &i) in joint.skin_coord_index.iter().enumerate() {
                if let Some(s) = usize::try_from(i).ok().and_then(|i| sums.get_mut(i)) {
                    *s += f64::from(effective(&joint.skin_coord_weight, k));
                }
            }
        }
        let off = |i: i32| -> Option<f64> {
            let s = *usize::try_from(i).ok().and_then(|i| sums.get(i))?;
            ((s - 1.0).abs() > 1e-3 && s > 1e-9).then_some(s)
        };
        let fixed_points = (0..points as i32).filter(|&i| off(i).is_some()).count();
        if fixed_points == 0 {
            return;
        }
        let mut joints_changed = 0;
        for &j in &h.skin_joints {
            let joint = &h.joints[j];
            if !joint.skin_coord_index.iter().any(|&i| off(i).is_some()) {
                continue;
            }
            let Some(element) = self.element(joint.node) else {
                self.skip(CODE, format!("joint '{}' is in another file; weights left", joint.name));
                continue;
            };
            let weights: Vec<String> = joint
                .skin_coord_index
                .iter()
                .enumerate()
                .map(|(k, &i)| {
                    let w = f64::from(effective(&joint.skin_coord_weight, k));
                    format_float((w / off(i).unwrap_or(1.0)) as f32)
                })
                .collect();
            self.edits.set_attribute(self.text, &element, "skinCoordWeight", &weights.join(" "));
            joints_changed += 1;
        }
        self.changed(
            CODE,
            format!("normalised the weights of {fixed_points} points ({joints_changed} joints rewritten)"),
        );
    }

    /// HANIM-NORMALS-SHORT: gives skinNormal one vector per skinCoord point, computed from the deforming
    /// skin faces (area-weighted face normals summed at each corner point; +Y for a point on no face). When
    /// the skin has no faces the mismatched skinNormal is dropped instead, if nothing else uses it. A
    /// Normal that a geometry indexes with its own `normalIndex` is left alone.
    pub(super) fn skin_normals(&mut self, h: &Humanoid) {
        const CODE: &str = "HANIM-NORMALS-SHORT";
        let scene = &self.doc.scene;
        let Some(skin) = &h.skin else { return };
        let (Some(normal), Some(coord)) = (skin.normal_node, skin.coord_node) else { return };
        let count = scene.mf_float(normal, "vector").map_or(0, |v| v.len() / 3);
        let points: Vec<Vec3> = match scene.mf_length3(coord, "point") {
            Ok(p) => p.into_iter().map(Vec3::from).collect(),
            Err(_) => return,
        };
        if count == points.len() {
            return;
        }
        let indexed_elsewhere = skin.shapes.iter().filter_map(|s| s.geometry).any(|g| {
            scene.node(g).children_in("normal").any(|n| n == normal) && scene.node(g).field("normalIndex").is_some()
        });
        let Some(element) = self.element(normal) else { return };
        if indexed_elsewhere {
            self.skip(CODE, "the skinNormal node is indexed by a geometry's normalIndex; left as it is".into());
            return;
        }
        let faces: Vec<&[i32]> = skin
            .shapes
            .iter()
            .filter(|s| s.deforms && s.geometry_type == "IndexedFaceSet")
            .flat_map(|s| s.indices.split(|&i| i < 0))
            .filter(|f| f.len() >= 3)
            .collect();
        if faces.is_empty() {
            let used = scene.node(normal).def.as_deref().is_some_and(|d| !self.references(d).is_empty());
            if used {
                self.skip(
                    CODE,
                    "the skin has no faces to compute normals from and skinNormal is used elsewhere".into(),
                );
            } else {
                self.edits.remove(self.text, &element);
                self.changed(CODE, format!("dropped skinNormal ({count} vectors for {} points)", points.len()));
            }
            return;
        }
        let normals = vertex_normals(&points, &faces);
        let value: Vec<String> = normals
            .iter()
            .map(|n| format!("{} {} {}", format_float(n.x), format_float(n.y), format_float(n.z)))
            .collect();
        self.edits.set_attribute(self.text, &element, "vector", &value.join(", "));
        self.changed(CODE, format!("skinNormal: {} vectors computed from the skin faces (was {count})", points.len()));
    }
}

/// Area-weighted vertex normals of polygons (fans from each polygon's first corner).
pub fn vertex_normals(points: &[Vec3], faces: &[&[i32]]) -> Vec<Vec3> {
    let mut sum = vec![Vec3::ZERO; points.len()];
    let at = |i: i32| usize::try_from(i).ok().filter(|&i| i < points.len());
    for face in faces {
        let Some(a) = at(face[0]) else { continue };
        let mut normal = Vec3::ZERO;
        for pair in face[1..].windows(2) {
            if let (Some(b), Some(c)) = (at(pair[0]), at(pair[1])) {
                normal += (points[b] - points[a]).cross(points[c] - points[a]);
            }
        }
        for &i in face.iter() {
            if let Some(i) = at(i) {
                sum[i] += normal;
            }
        }
    }
    sum.into_iter().map(|n| n.try_normalize().unwrap_or(Vec3::Y)).collect()
}

/// A value as written by repair: at most 7 decimals (sums of `f32` translations leave noise such as
/// `0.49999997` below that), no trailing zeros, no `-0`.
pub fn format_float(v: f32) -> String {
    let text = format!("{v:.7}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" || text.is_empty() { "0".to_string() } else { text.to_string() }
}
