//! HANIM-JOINT-TRANSLATION-NO-CENTER: joints placed by `translation` become joints placed by `center`
//! (the H-Anim 1 / BASIC layout Castle expects), without moving anything.
//!
//! With `L = T(t)·T(c)·R·S·T(−c)` and `d_j` the offset each joint's frame moves by, going down the
//! skeleton from `d = 0` above the roots:
//! - a joint whose `center` is zero gets `center = t + d_parent`, `translation = 0`, and `d_j = center`;
//! - any other joint gets `translation = t + d_parent`, and `d_j = 0`.
//!
//! Then every new joint matrix is the old one times `T(−d_j)` (`G'_j = G_j·T(−d_j)`, by induction), so each
//! joint turns about the same point as before and the children it holds that are not joints are shifted
//! back by `d_j`: an HAnimSite, Transform or Viewpoint gets `translation`/`position += d_j`; any other child
//! (a Shape, a Group) is wrapped in `<Transform translation='d_j'>`; inside a segment the same is done to
//! the segment's children. The skin keeps its skin matrices `M_j = G_j·B_j` when `B'_j = T(d_j)·B_j`: with
//! X_ITE's inverse-bind reading of `jointBindingPositions` (semantics note §2.3) that is `position += d_j`,
//! rewritten for every listed joint. Refused (the file is left as it is, with the reason): a weighted skin
//! without inverse-bind positions (the binding would have to be invented), a segment with a deformable
//! `coord` or displacers, a child in another file, length units other than metres, and joints whose
//! translation a motion or ROUTE drives (their translation is not a placement; they are not flagged).

use std::fmt::Write as _;

use glam::Vec3;

use super::Fixer;
use super::skin::format_float;
use super::xml::{self, Element};
use crate::hanim::{BindingMode, Humanoid};
use crate::inspect::portability::translation_only_joints;

const CODE: &str = "HANIM-JOINT-TRANSLATION-NO-CENTER";

fn vec_text(v: Vec3) -> String {
    format!("{} {} {}", format_float(v.x), format_float(v.y), format_float(v.z))
}

impl Fixer<'_> {
    pub(super) fn centers(&mut self, h: &Humanoid) {
        let flagged = translation_only_joints(&self.doc.scene, h);
        if flagged.is_empty() {
            return;
        }
        let weighted = h.joints.iter().any(|j| !j.skin_coord_index.is_empty());
        if weighted && h.binding_mode != BindingMode::InverseBindMatrix {
            self.skip(CODE, format!("humanoid '{}': a weighted skin without inverse-bind jointBindingPositions; joints left as they are", h.name));
            return;
        }
        if self.doc.scene.files.first().is_some_and(|f| f.units.length != 1.0) {
            self.skip(CODE, "the file converts lengths (UNIT); joints left as they are".to_string());
            return;
        }
        let driven = crate::inspect::portability::translation_driven(&self.doc.scene, h);
        let mut d = vec![Vec3::ZERO; h.joints.len()];
        let mut joint_edits: Vec<(usize, Option<Vec3>, Vec3)> = Vec::new();
        for (j, joint) in h.joints.iter().enumerate() {
            let dp = joint.parent.map_or(Vec3::ZERO, |p| d[p]);
            let rest = &joint.rest;
            if driven[j] {
                if dp != Vec3::ZERO {
                    self.skip(
                        CODE,
                        format!(
                            "joint '{}' has a driven translation under a converted joint; nothing converted",
                            joint.name
                        ),
                    );
                    return;
                }
                continue;
            }
            if rest.center.length() <= 1e-9 {
                let center = rest.translation + dp;
                if center != Vec3::ZERO || rest.translation != Vec3::ZERO {
                    joint_edits.push((j, Some(center), Vec3::ZERO));
                }
                d[j] = center;
            } else if dp != Vec3::ZERO {
                joint_edits.push((j, None, rest.translation + dp));
            }
        }
        // Children that are not joints, shifted back by d_j.
        let mut child_edits: Vec<(Element, Vec3)> = Vec::new();
        for (j, joint) in h.joints.iter().enumerate() {
            if d[j] == Vec3::ZERO {
                continue;
            }
            let Some(element) = self.element(joint.node) else {
                self.skip(CODE, format!("joint '{}' is in another file; nothing converted", joint.name));
                return;
            };
            for child in self.index.children(element.start).cloned().collect::<Vec<_>>() {
                if let Err(why) = self.plan_child(&child, d[j], &mut child_edits) {
                    self.skip(CODE, format!("joint '{}': {why}; nothing converted", joint.name));
                    return;
                }
            }
        }
        let binding = if weighted { self.shifted_binding_positions(h, &d) } else { None };
        for &(j, center, translation) in &joint_edits {
            let Some(element) = self.element(h.joints[j].node) else { return };
            if let Some(c) = center {
                self.edits.set_attribute(self.text, &element, "center", &vec_text(c));
            }
            self.edits.set_attribute(self.text, &element, "translation", &vec_text(translation));
        }
        for (element, shift) in &child_edits {
            self.shift_child(element, *shift);
        }
        if let (Some(value), Some(humanoid)) = (binding, self.element(h.node)) {
            self.edits.set_attribute(self.text, &humanoid, "jointBindingPositions", &value);
        }
        let names: Vec<&str> =
            joint_edits.iter().filter(|e| e.1.is_some()).map(|e| h.joints[e.0].name.as_str()).collect();
        let mut message = format!("{} joints placed by center instead of translation", names.len());
        let _ = write!(message, " ({})", names.iter().take(6).copied().collect::<Vec<_>>().join(", "));
        if !child_edits.is_empty() {
            let _ = write!(message, "; {} non-joint children shifted back", child_edits.len());
        }
        self.changed(CODE, message);
    }

    /// What a child element of a converted joint (or of its segment) needs; an error refuses the fix.
    fn plan_child(&self, child: &Element, shift: Vec3, out: &mut Vec<(Element, Vec3)>) -> Result<(), String> {
        let container = xml::attribute(self.text, child, "containerField");
        match child.name.as_str() {
            "HAnimJoint" | "HAnimDisplacer" => Ok(()),
            name if name.starts_with("Metadata") => Ok(()),
            "HAnimSegment" if xml::attribute(self.text, child, "USE").is_none() => {
                for inner in self.index.children(child.start) {
                    let inner_container = xml::attribute(self.text, inner, "containerField");
                    if inner.name == "HAnimDisplacer"
                        || inner_container == Some("coord")
                        || inner.name.starts_with("Coordinate")
                    {
                        return Err("a segment has a deformable coord or displacers".to_string());
                    }
                    if inner.name.starts_with("Metadata") {
                        continue;
                    }
                    if inner_container.is_some_and(|c| c != "children") {
                        return Err(format!("a segment child has containerField '{}'", inner_container.unwrap_or("")));
                    }
                    out.push((inner.clone(), shift));
                }
                Ok(())
            }
            _ if container.is_some_and(|c| c != "children") => {
                Err(format!("a {} child has containerField '{}'", child.name, container.unwrap_or("")))
            }
            _ => {
                out.push((child.clone(), shift));
                Ok(())
            }
        }
    }

    /// `translation += shift` (Site, Transform), `position += shift` (Viewpoint), or a wrapping Transform.
    fn shift_child(&mut self, child: &Element, shift: Vec3) {
        let is_use = xml::attribute(self.text, child, "USE").is_some();
        let field = match child.name.as_str() {
            "HAnimSite" | "Transform" if !is_use => Some("translation"),
            "Viewpoint" | "OrthoViewpoint" if !is_use => Some("position"),
            _ => None,
        };
        match field {
            Some(field) => {
                let old = xml::attribute(self.text, child, field).map_or(Vec3::ZERO, parse_vec3);
                self.edits.set_attribute(self.text, child, field, &vec_text(old + shift));
            }
            None => {
                self.edits.insert(child.start, format!("<Transform translation='{}'>", vec_text(shift)));
                self.edits.insert(child.end, "</Transform>".to_string());
            }
        }
    }

    /// `jointBindingPositions` with `d_j` added for the `k`-th listed joint (one value per listed joint,
    /// since a short list stands for its last value repeated).
    fn shifted_binding_positions(&self, h: &Humanoid, d: &[Vec3]) -> Option<String> {
        let positions = &h.joint_binding_positions;
        let values: Vec<String> = h
            .skin_joints
            .iter()
            .enumerate()
            .map(|(k, &j)| vec_text(positions.get(k).or(positions.last()).copied().unwrap_or(Vec3::ZERO) + d[j]))
            .collect();
        (!values.is_empty()).then(|| values.join(", "))
    }
}

fn parse_vec3(text: &str) -> Vec3 {
    let v: Vec<f32> = crate::hanim::motion_rules::split_list(text).filter_map(|t| t.parse().ok()).collect();
    if v.len() == 3 { Vec3::new(v[0], v[1], v[2]) } else { Vec3::ZERO }
}
