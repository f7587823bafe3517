//! `hanim-viewer check`: the H-Anim rules a catalogue maintainer cares about.
//!
//! Errors are violations that make a humanoid wrong to use (missing names, a claimed LOA without its
//! joints, weights or indices out of range, skinned vertices no joint moves, a BASIC rest pose that is not
//! the zero pose); warnings are conventions (name suffixes, non-standard names, DEF prefixes) and the
//! loader's own warnings.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::codes::{self, Player};
use crate::hanim::{DisplacerOwner, Document, Humanoid};
use crate::x3d::{NodeId, SourcePos};

use crate::names::standard::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    pub severity: Severity,
    /// Stable rule id, e.g. `loa-joints`.
    pub rule: &'static str,
    /// Its stable diagnostic code, e.g. `HANIM-LOA-JOINTS` ([`super::codes`]).
    pub code: &'static str,
    /// Players known to draw or animate the humanoid wrongly because of it (`x_ite`, `castle`, …).
    pub breaks: &'static [Player],
    pub message: String,
    pub file: String,
    pub line: Option<u32>,
    pub column: Option<u32>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub findings: Vec<Finding>,
    pub errors: usize,
    pub warnings: usize,
    /// The adapter the GPU agreement check ran on (`null` when it did not run).
    pub gpu_adapter: Option<String>,
    /// Largest GPU-versus-CPU deformation error relative to the bounding-box diagonal (`null` when the
    /// check did not run or the file has nothing to deform).
    pub gpu_max_error: Option<f32>,
}

impl Report {
    pub fn is_clean(&self) -> bool {
        self.errors == 0
    }

    pub fn render_text(&self) -> String {
        let mut out = String::new();
        for f in &self.findings {
            let sev = match f.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            let at = match (f.line, f.column) {
                (Some(l), Some(c)) => format!(":{l}:{c}"),
                _ => String::new(),
            };
            out.push_str(&format!("{sev}[{}] {}{at}: {} [{}]\n", f.rule, f.file, f.message, f.code));
        }
        if let (Some(adapter), Some(error)) = (&self.gpu_adapter, self.gpu_max_error) {
            out.push_str(&format!(
                "GPU agreement on {adapter}: largest error {error:.3e} of the bounding-box diagonal\n"
            ));
        }
        out.push_str(&format!("{} errors, {} warnings\n", self.errors, self.warnings));
        out
    }
}

fn code_of(rule: &str) -> &'static str {
    codes::of_rule(rule).map_or("HANIM-UNKNOWN", |c| c.code)
}

fn breaks_of(rule: &str) -> &'static [Player] {
    codes::of_rule(rule).map_or(&[], |c| c.breaks)
}

/// (name, DEF, node) of a joint, segment, site or displacer.
type NamedNode<'h> = (&'h str, Option<&'h str>, NodeId);

pub(super) struct Checker<'d> {
    pub(super) doc: &'d Document,
    findings: Vec<Finding>,
}

impl Checker<'_> {
    pub(super) fn push_at(&mut self, severity: Severity, rule: &'static str, pos: SourcePos, message: String) {
        self.findings.push(Finding {
            severity,
            rule,
            code: code_of(rule),
            breaks: breaks_of(rule),
            message,
            file: pos.file.display().to_string(),
            line: pos.at.map(|a| a.line),
            column: pos.at.map(|a| a.column),
        });
    }

    pub(super) fn push(&mut self, severity: Severity, rule: &'static str, node: NodeId, message: String) {
        let pos = self.doc.scene.pos(self.doc.scene.node(node).loc);
        self.push_at(severity, rule, pos, message);
    }

    /// Reports a list of offenders as one finding (first few named), so big files stay readable.
    pub(super) fn push_list(
        &mut self,
        severity: Severity,
        rule: &'static str,
        node: NodeId,
        what: &str,
        names: &[String],
    ) {
        if names.is_empty() {
            return;
        }
        let shown: Vec<&str> = names.iter().take(8).map(String::as_str).collect();
        let more =
            if names.len() > shown.len() { format!(" and {} more", names.len() - shown.len()) } else { String::new() };
        self.push(severity, rule, node, format!("{} {what}: {}{more}", names.len(), shown.join(", ")));
    }

    fn humanoid(&mut self, h: &Humanoid) {
        use Severity::*;
        if h.name.trim().is_empty() {
            self.push(Error, "humanoid-name", h.node, "the humanoid has no name".into());
        }
        if h.joints.is_empty() {
            self.push(
                Error,
                "no-joints",
                h.node,
                "the humanoid has no joints (at least humanoid_root is required); its skin is drawn as authored".into(),
            );
        }
        self.names(h);
        self.portability(h);
        self.loa(h);
        self.skin(h);
        self.rest_pose(h);
        self.motions(h);
        self.field_ranges(h);
    }

    fn names(&mut self, h: &Humanoid) {
        use Severity::*;
        // Required names and duplicates, per kind of node.
        let kinds: [(&str, Vec<NamedNode>); 4] = [
            ("joint", h.joints.iter().map(|j| (j.name.as_str(), j.def.as_deref(), j.node)).collect()),
            ("segment", h.segments.iter().map(|s| (s.name.as_str(), s.def.as_deref(), s.node)).collect()),
            ("site", h.sites.iter().map(|s| (s.name.as_str(), s.def.as_deref(), s.node)).collect()),
            ("displacer", h.displacers.iter().map(|d| (d.name.as_str(), d.def.as_deref(), d.node)).collect()),
        ];
        for (kind, items) in &kinds {
            let mut seen: HashMap<&str, NodeId> = HashMap::new();
            let mut bad_def = Vec::new();
            for &(name, def, node) in items {
                if name.is_empty() {
                    self.push(Error, "required-name", node, format!("a {kind} has no name"));
                    continue;
                }
                if seen.insert(name, node).is_some() {
                    self.push(Error, "duplicate-name", node, format!("{kind} name '{name}' is used twice"));
                }
                // Global names are the local name with the humanoid's prefix (19774 §6.x naming).
                if let Some(def) = def
                    && def != name
                    && !def.ends_with(&format!("_{name}"))
                {
                    bad_def.push(format!("{def} (name {name})"));
                }
            }
            let first = items.first().map(|i| i.2).unwrap_or(h.node);
            self.push_list(
                Warning,
                "def-prefix",
                first,
                &format!("{kind} DEF names are not <prefix>_<name>"),
                &bad_def,
            );
        }

        let standard: HashSet<&str> = LOA4_JOINTS.iter().chain(HANIM1_JOINTS).copied().collect();
        let nonstandard: Vec<String> =
            h.joints.iter().filter(|j| !standard.contains(j.name.as_str())).map(|j| j.name.clone()).collect();
        let first = h.joints.first().map(|j| j.node).unwrap_or(h.node);
        self.push_list(
            Warning,
            "standard-joint-name",
            first,
            "joint names are not standard H-Anim names",
            &nonstandard,
        );
        if let Some(root) = h.joints.first()
            && root.name != "humanoid_root"
            && root.name != "HumanoidRoot"
        {
            self.push(
                Warning,
                "root-joint",
                root.node,
                format!("the root joint is '{}', expected humanoid_root (HumanoidRoot in H-Anim 1.x)", root.name),
            );
        }

        let mut bad_sites = Vec::new();
        for site in &h.sites {
            let ok = ["_tip", "_pt", "_view"].iter().any(|s| site.name.ends_with(s));
            if !site.name.is_empty() && !ok {
                bad_sites.push(site.name.clone());
            }
            if site.in_viewpoints && !site.name.ends_with("_view") && !site.name.is_empty() {
                self.push(
                    Warning,
                    "viewpoint-site-suffix",
                    site.node,
                    format!("viewpoint site '{}' should end in _view", site.name),
                );
            }
        }
        let first = h.sites.first().map(|s| s.node).unwrap_or(h.node);
        self.push_list(Warning, "site-suffix", first, "site names do not end in _tip, _pt or _view", &bad_sites);
        let bad_displacers: Vec<String> = h
            .displacers
            .iter()
            .filter(|d| !d.name.is_empty() && !["_feature", "_action", "_config"].iter().any(|s| d.name.ends_with(s)))
            .map(|d| d.name.clone())
            .collect();
        let first = h.displacers.first().map(|d| d.node).unwrap_or(h.node);
        self.push_list(
            Warning,
            "displacer-suffix",
            first,
            "displacer names do not end in _feature, _action or _config",
            &bad_displacers,
        );
    }

    fn loa(&mut self, h: &Humanoid) {
        use Severity::*;
        if h.loa < -1 || h.loa > 4 {
            self.push(Error, "loa", h.node, format!("loa {} is outside -1..4", h.loa));
            return;
        }
        if h.loa < 1 {
            return;
        }
        let names: HashSet<&str> = h
            .joints
            .iter()
            .map(|j| HANIM1_ALIASES.iter().find(|(old, _)| *old == j.name).map_or(j.name.as_str(), |(_, new)| *new))
            .collect();
        let missing = |set: &[&str]| -> Vec<String> {
            set.iter().filter(|n| !names.contains(*n)).map(|n| n.to_string()).collect()
        };
        let first = h.joints.first().map(|j| j.node).unwrap_or(h.node);
        let loa = h.loa;
        self.push_list(
            Error,
            "loa-joints",
            first,
            &format!("LOA-1 joints missing although loa={loa}"),
            &missing(LOA1_JOINTS),
        );
        if loa >= 3 {
            self.push_list(
                Warning,
                "loa-joints",
                first,
                &format!("LOA-3 joints missing although loa={loa}"),
                &missing(LOA3_JOINTS),
            );
        }
        let nominal = LOA_JOINT_COUNTS[loa as usize];
        if h.joints.len() < nominal {
            self.push(
                Warning,
                "loa-joint-count",
                h.node,
                format!("loa={loa} names {nominal} joints; this humanoid has {}", h.joints.len()),
            );
        }
    }

    fn skin(&mut self, h: &Humanoid) {
        use Severity::*;
        let point_count = h.skin.as_ref().map_or(0, |s| s.points.len());
        for joint in &h.joints {
            let bad_w: Vec<String> =
                joint.skin_coord_weight.iter().filter(|w| !(0.0..=1.0).contains(*w)).map(|w| w.to_string()).collect();
            self.push_list(
                Error,
                "weight-range",
                joint.node,
                &format!("weights of joint '{}' outside [0, 1]", joint.name),
                &bad_w,
            );
            let bad_i: Vec<String> = joint
                .skin_coord_index
                .iter()
                .filter(|&&i| i < 0 || i as usize >= point_count)
                .map(|i| i.to_string())
                .collect();
            self.push_list(
                Error,
                "index-range",
                joint.node,
                &format!("skinCoordIndex entries of joint '{}' outside 0..{point_count}", joint.name),
                &bad_i,
            );
        }
        for d in &h.displacers {
            let range = match d.owner {
                DisplacerOwner::Joint(_) => point_count,
                DisplacerOwner::Segment(s) => h.segments[s].coord_points.len(),
            };
            let bad: Vec<String> =
                d.coord_index.iter().filter(|&&i| i < 0 || i as usize >= range).map(|i| i.to_string()).collect();
            self.push_list(
                Error,
                "index-range",
                d.node,
                &format!("coordIndex entries of displacer '{}' outside 0..{range}", d.name),
                &bad,
            );
        }
        self.skin_rules(h);
        let Some(skin) = &h.skin else { return };
        if skin.influences.entries.is_empty() {
            return;
        }
        // Vertices that deforming skin shapes draw must be moved by some joint.
        let mut used = vec![false; point_count];
        for shape in skin.shapes.iter().filter(|s| s.deforms) {
            for &i in &shape.indices {
                if let Some(u) = usize::try_from(i).ok().and_then(|i| used.get_mut(i)) {
                    *u = true;
                }
            }
        }
        let unreached: Vec<String> =
            (0..point_count).filter(|&i| used[i] && skin.influences.of(i).is_empty()).map(|i| i.to_string()).collect();
        let node = skin.coord_node.unwrap_or(h.node);
        self.push_list(
            Error,
            "unreached-vertex",
            node,
            "skinned vertices drawn by the skin are reached by no joint",
            &unreached,
        );
        let off_sum: Vec<String> = (0..point_count)
            .filter(|&i| {
                let list = skin.influences.of(i);
                !list.is_empty() && (list.iter().map(|e| e.1).sum::<f32>() - 1.0).abs() > 1e-3
            })
            .map(|i| i.to_string())
            .collect();
        self.push_list(Warning, "weight-sum", node, "skin points whose weights do not sum to 1", &off_sum);
    }

    fn rest_pose(&mut self, h: &Humanoid) {
        let basic = h.skeletal_configuration.trim().eq_ignore_ascii_case("BASIC");
        let rotated: Vec<String> = h
            .joints
            .iter()
            .filter(|j| j.rest.rotation.to_axis_angle().1.abs() > 1e-6)
            .map(|j| j.name.clone())
            .collect();
        let severity = if basic { Severity::Error } else { Severity::Warning };
        let first = h.joints.first().map(|j| j.node).unwrap_or(h.node);
        self.push_list(
            severity,
            "rest-pose",
            first,
            "joints have a non-zero rest rotation (the rest pose must be the zero-rotation binding pose)",
            &rotated,
        );
    }
}

/// Runs every rule over every humanoid of the document; loader warnings are included as warnings.
pub fn check(doc: &Document) -> Report {
    let mut checker = Checker { doc, findings: Vec::new() };
    if doc.humanoids.is_empty() {
        let pos = SourcePos { file: doc.scene.main_path().to_path_buf(), at: None };
        checker.push_at(Severity::Error, "no-humanoid", pos, "the file has no HAnimHumanoid".into());
    }
    if let Some(message) = super::portability::missing_hanim_component(doc) {
        let pos = SourcePos { file: doc.scene.main_path().to_path_buf(), at: None };
        checker.push_at(Severity::Warning, "hanim-component", pos, message);
    }
    for h in &doc.humanoids {
        checker.humanoid(h);
    }
    let mut findings = checker.findings;
    // Motion defects are loader warnings too; here they are errors of their own rules, reported once. So
    // are the loader's warnings that a portability rule states with its code (`joints` lists, skinNormal).
    let defects: Vec<_> = doc.humanoids.iter().flat_map(|h| crate::hanim::motion_defects(&doc.scene, h)).collect();
    let mut loader = Checker { doc, findings: Vec::new() };
    for w in doc.warnings.iter().filter(|w| !defects.iter().any(|d| d.pos == w.pos && d.message == w.message)) {
        let stated = super::portability::rule_stating(&w.message).is_some_and(|r| findings.iter().any(|f| f.rule == r));
        if w.message.contains(crate::x3d::error::UNDEFINED_USE_MARK) {
            // Loaded by dropping the USE (as X_ITE drops a name never DEFed), but the file does not conform
            // (ISO/IEC 19775-1 4.4.3): an error, so `check` exits 1.
            loader.push_at(Severity::Error, "use-undefined", w.pos.clone(), w.message.clone());
        } else if !stated {
            loader.push_at(Severity::Warning, "loader", w.pos.clone(), w.message.clone());
        }
    }
    loader.findings.append(&mut findings);
    let mut report =
        Report { findings: loader.findings, errors: 0, warnings: 0, gpu_adapter: None, gpu_max_error: None };
    report.recount();
    report
}

/// Largest GPU-versus-CPU error `check` accepts, relative to the bounding-box diagonal.
pub const GPU_TOLERANCE: f32 = 1e-5;

impl Report {
    fn recount(&mut self) {
        self.errors = self.findings.iter().filter(|f| f.severity == Severity::Error).count();
        self.warnings = self.findings.len() - self.errors;
    }

    /// Keeps only the findings known to break `player` (a [`Player::id`], or `all` for any player).
    pub fn keep_breaking(&mut self, player: &str) {
        self.findings.retain(|f| f.breaks.iter().any(|p| player == "all" || p.id() == player));
        self.recount();
    }

    /// Adds a finding about the whole file (no position), e.g. from the GPU agreement check.
    pub fn add(&mut self, severity: Severity, rule: &'static str, file: &std::path::Path, message: String) {
        let file = file.display().to_string();
        let (code, breaks) = (code_of(rule), breaks_of(rule));
        self.findings.push(Finding { severity, rule, code, breaks, message, file, line: None, column: None });
        self.recount();
    }
}
