//! `check` rules about field values: HAnimMotion (every defect `hanim::motion_rules` finds, as errors)
//! and the ranges and counts X3D 4.0 clause 26.3 gives the other H-Anim nodes' fields, plus the
//! end-effector naming of ISO/IEC 19774-1 §6.5 (Site).

use crate::hanim::{Humanoid, SiteParent, motion_defects};

use super::check::{Checker, Severity};

impl Checker<'_> {
    /// Every motion defect is an error, except a `channelsEnabled` list of an unexpected length, which
    /// the player reads per joint group (a warning).
    pub(super) fn motions(&mut self, h: &Humanoid) {
        for defect in motion_defects(&self.doc.scene, h) {
            let severity = if defect.rule == "motion-channels-enabled" { Severity::Warning } else { Severity::Error };
            self.push_at(severity, defect.rule, defect.pos, defect.message);
        }
    }

    /// Joint, segment and humanoid fields against their ranges in X3D 4.0 clause 26.3.
    pub(super) fn field_ranges(&mut self, h: &Humanoid) {
        use Severity::*;
        let x3d4 = self.doc.scene.version.trim().starts_with('4');
        let version = h.version.trim();
        let allowed: &[&str] = if x3d4 { &["2.0"] } else { &["", "1.0", "1.1", "2.0"] };
        if !allowed.contains(&version) {
            let expected = if x3d4 { "\"2.0\" in an X3D 4 file" } else { "\"1.0\", \"1.1\" or \"2.0\"" };
            self.push(Error, "version", h.node, format!("humanoid version '{version}' is not {expected}"));
        }
        for joint in &h.joints {
            let name = &joint.name;
            if !joint.skin_coord_weight.is_empty() && joint.skin_coord_weight.len() != joint.skin_coord_index.len() {
                let message = format!(
                    "joint '{name}' has {} skinCoordIndex entries but {} skinCoordWeight entries (one weight per index)",
                    joint.skin_coord_index.len(),
                    joint.skin_coord_weight.len()
                );
                self.push(Error, "weight-count", joint.node, message);
            }
            // The model drops a list of the wrong length (a loader warning); the file's own values count here.
            for field in ["llimit", "ulimit", "stiffness"] {
                let values = self.doc.scene.mf_float(joint.node, field).unwrap_or_default();
                if !values.is_empty() && values.len() != 3 {
                    let message = format!("joint '{name}' {field} has {} values; it must have 3 or none", values.len());
                    self.push(Error, "limit-count", joint.node, message);
                }
            }
            if joint.llimit.len() == 3 && joint.ulimit.len() == 3 {
                let crossed: Vec<String> = (0..3)
                    .filter(|&i| joint.llimit[i] > joint.ulimit[i])
                    .map(|i| format!("{} ({} > {})", ["X", "Y", "Z"][i], joint.llimit[i], joint.ulimit[i]))
                    .collect();
                if !crossed.is_empty() {
                    let message = format!("joint '{name}' has llimit above ulimit about {}", crossed.join(", "));
                    self.push(Error, "limit-order", joint.node, message);
                }
            }
            let stiff: Vec<String> =
                joint.stiffness.iter().filter(|s| !(0.0..=1.0).contains(*s)).map(|s| s.to_string()).collect();
            self.push_list(
                Error,
                "stiffness-range",
                joint.node,
                &format!("stiffness of joint '{name}' outside [0, 1]"),
                &stiff,
            );
        }
        for segment in &h.segments {
            if segment.mass.is_nan() || segment.mass < 0.0 {
                let message = format!("segment '{}' has mass {}; it must be 0 or more", segment.name, segment.mass);
                self.push(Error, "segment-mass", segment.node, message);
            }
            let moments = &segment.moments_of_inertia;
            if (!moments.is_empty() && moments.len() != 9) || moments.iter().any(|m| m.is_nan() || *m < 0.0) {
                let message = format!(
                    "segment '{}' momentsOfInertia must be 9 values of 0 or more, found {:?}",
                    segment.name,
                    moments.iter().take(9).collect::<Vec<_>>()
                );
                self.push(Error, "segment-mass", segment.node, message);
            }
        }
        // 19774-1 §6.5: an end effector is named after its segment with `_tip` and is that segment's child.
        for site in &h.sites {
            let (Some(segment_name), SiteParent::Segment(s)) = (site.name.strip_suffix("_tip"), site.parent) else {
                continue;
            };
            let parent = &h.segments[s].name;
            if parent != segment_name {
                let message = format!(
                    "end-effector site '{}' hangs in segment '{parent}'; its name says segment '{segment_name}'",
                    site.name
                );
                // A warning: published humanoids (DiamondMan, JohnJoint20) hang `l_hand_tip` in `l_carpal`.
                self.push(Warning, "site-tip-segment", site.node, message);
            }
        }
    }
}
