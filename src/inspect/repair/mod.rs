//! `repair`: a corrected copy of an X3D XML humanoid file for the portability findings of `check` that
//! have a fix that moves nothing (docs/guide/checking.md, "repair"). Every fix is an edit of the original text at the
//! element or attribute the scene's positions point to ([`xml`]); the rest of the file stays byte for
//! byte. What each fix does, and what it refuses, is documented on its function.

mod centers;
mod skin;
pub mod xml;

use std::collections::{HashMap, HashSet};

use crate::hanim::{Document, Humanoid};
use crate::x3d::{Encoding, NodeId};

use super::codes;
use super::portability::listed_joints;
use xml::{Edits, Element, XmlIndex};

/// One thing `repair` changed, or left alone and why.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Change {
    pub code: &'static str,
    pub message: String,
}

/// The corrected text and what was done.
#[derive(Debug, Clone)]
pub struct Repaired {
    pub text: String,
    pub changes: Vec<Change>,
    /// Findings of a repairable code that were left as they are, with the reason.
    pub skipped: Vec<Change>,
}

/// Why a file cannot be repaired at all.
#[derive(Debug, thiserror::Error)]
pub enum RepairError {
    #[error(
        "{0}: repair edits X3D XML files only; this file is in the classic VRML encoding (convert it to .x3d first)"
    )]
    Classic(String),
    #[error("{0}: {1}")]
    Unsupported(String, String),
    #[error("{0}: cannot read the XML to edit it: {1}")]
    Xml(String, String),
    #[error("{0}: internal: {1}")]
    Internal(String, String),
}

/// The codes `repair` fixes, in the order the fixes run.
pub const REPAIRED_CODES: &[&str] = &[
    "X3D-HANIM-COMPONENT",
    "HANIM-DEF-PREFIX",
    "HANIM-JOINTS-DUPLICATED",
    "HANIM-JOINTS-EMPTY",
    "HANIM-JOINTS-INCOMPLETE",
    "HANIM-SKINCOORD-NOT-SHARED",
    "HANIM-JOINT-TRANSLATION-NO-CENTER",
    "HANIM-WEIGHTS-SUM",
    "HANIM-MOTION-DISABLED",
    "HANIM-NORMALS-SHORT",
];

/// Repairs `text`, the main file of `doc` (loaded from exactly this text, after any byte-order mark).
/// `only`: the codes to fix (empty: every code repair knows).
pub fn repair(doc: &Document, text: &str, only: &[&str]) -> Result<Repaired, RepairError> {
    let file = doc.scene.main_path().display().to_string();
    if doc.scene.encoding == Encoding::Classic {
        return Err(RepairError::Classic(file));
    }
    let index = XmlIndex::new(text).map_err(|e| RepairError::Xml(file.clone(), e))?;
    let wanted: Vec<&'static str> = REPAIRED_CODES
        .iter()
        .copied()
        .filter(|c| only.is_empty() || only.iter().any(|o| o.eq_ignore_ascii_case(c)))
        .collect();
    let mut fix = Fixer {
        doc,
        text,
        index,
        edits: Edits::default(),
        changes: Vec::new(),
        skipped: Vec::new(),
        defs: HashMap::new(),
        taken: doc.scene.defs.keys().cloned().collect(),
        wanted,
    };
    if fix.wants("X3D-HANIM-COMPONENT") {
        fix.hanim_component();
    }
    for h in &doc.humanoids {
        fix.humanoid(h);
    }
    let Fixer { edits, changes, skipped, .. } = fix;
    let text = edits.apply(text).map_err(|e| RepairError::Internal(file, e))?;
    Ok(Repaired { text, changes, skipped })
}

/// The state of one repair: the edits so far and the DEF names they gave or renamed.
pub(super) struct Fixer<'d> {
    pub(super) doc: &'d Document,
    pub(super) text: &'d str,
    pub(super) index: XmlIndex,
    pub(super) edits: Edits,
    changes: Vec<Change>,
    skipped: Vec<Change>,
    /// DEF names given to nodes (new or renamed) by this repair.
    defs: HashMap<NodeId, String>,
    /// Every DEF name of the file and the ones this repair added.
    taken: HashSet<String>,
    wanted: Vec<&'static str>,
}

impl Fixer<'_> {
    fn humanoid(&mut self, h: &Humanoid) {
        if self.wants("HANIM-DEF-PREFIX") {
            self.def_prefixes(h);
        }
        if self.wants("HANIM-JOINTS-DUPLICATED")
            || self.wants("HANIM-JOINTS-EMPTY")
            || self.wants("HANIM-JOINTS-INCOMPLETE")
        {
            self.joint_list(h);
        }
        if self.wants("HANIM-SKINCOORD-NOT-SHARED") {
            self.share_skin_coord(h);
        }
        if self.wants("HANIM-JOINT-TRANSLATION-NO-CENTER") {
            self.centers(h);
        }
        if self.wants("HANIM-WEIGHTS-SUM") {
            self.normalise_weights(h);
        }
        if self.wants("HANIM-MOTION-DISABLED") {
            self.enable_motions(h);
        }
        if self.wants("HANIM-NORMALS-SHORT") {
            self.skin_normals(h);
        }
    }

    fn wants(&self, code: &str) -> bool {
        self.wanted.contains(&code)
    }

    /// X3D-HANIM-COMPONENT: adds `<component name='HAnim' level='1'/>` as the head's first entry (the
    /// schema puts components before units and meta), with a head after the X3D start tag where there is
    /// none.
    fn hanim_component(&mut self) {
        const CODE: &str = "X3D-HANIM-COMPONENT";
        const COMPONENT: &str = "<component name='HAnim' level='1'/>";
        if super::portability::missing_hanim_component(self.doc).is_none() {
            return;
        }
        let Some(root) = self.index.elements.iter().find(|e| e.parent.is_none() && e.name == "X3D").cloned() else {
            self.skip(CODE, "no X3D root element to add the component statement to".into());
            return;
        };
        let head = self.index.children(root.start).find(|e| e.name == "head").cloned();
        match head {
            Some(head) => {
                let indent = xml::line_indent(self.text, head.start);
                match head.close_start {
                    Some(_) => self.edits.insert(head.tag_end, format!("\n{indent}  {COMPONENT}")),
                    None => self.edits.replace(
                        head.start,
                        head.end,
                        format!("<head>\n{indent}  {COMPONENT}\n{indent}</head>"),
                    ),
                }
            }
            None => {
                let indent = xml::line_indent(self.text, root.start);
                self.edits
                    .insert(root.tag_end, format!("\n{indent}  <head>\n{indent}    {COMPONENT}\n{indent}  </head>"));
            }
        }
        self.changed(CODE, format!("added {COMPONENT} to the head (X_ITE reads HAnim nodes only then)"));
    }

    pub(super) fn changed(&mut self, code: &'static str, message: String) {
        self.changes.push(Change { code, message });
    }

    pub(super) fn skip(&mut self, code: &'static str, message: String) {
        self.skipped.push(Change { code, message });
    }

    /// The element a node was written as (its DEF element), when it is in the main file.
    pub(super) fn element(&self, node: NodeId) -> Option<Element> {
        let loc = self.doc.scene.node(node).loc;
        if loc.file != 0 {
            return None;
        }
        self.index.at(loc.offset as usize).cloned()
    }

    /// The DEF name a node has after this repair, giving it one (`<prefix>_<what>`) when it has none.
    pub(super) fn def_of(&mut self, h: &Humanoid, node: NodeId, what: &str) -> Option<String> {
        if let Some(def) = self.defs.get(&node) {
            return Some(def.clone());
        }
        if let Some(def) = &self.doc.scene.node(node).def {
            return Some(def.clone());
        }
        let element = self.element(node)?;
        let name = self.free_name(&format!("{}_{what}", humanoid_prefix(h)));
        self.edits.set_attribute(self.text, &element, "DEF", &name);
        self.defs.insert(node, name.clone());
        Some(name)
    }

    fn free_name(&mut self, wanted: &str) -> String {
        let mut name = wanted.to_string();
        let mut n = 2;
        while self.taken.contains(&name) {
            name = format!("{wanted}_{n}");
            n += 1;
        }
        self.taken.insert(name.clone());
        name
    }

    /// Where a DEF name is referred to in the main file: USE, and ROUTE `fromNode`/`toNode`.
    pub(super) fn references(&self, def: &str) -> Vec<xml::Attribute> {
        let mut out = Vec::new();
        for element in &self.index.elements {
            for a in xml::attributes(self.text, element) {
                if matches!(a.name.as_str(), "USE" | "fromNode" | "toNode")
                    && &self.text[a.value_start..a.value_end] == def
                {
                    out.push(a);
                }
            }
        }
        out
    }

    /// HANIM-DEF-PREFIX: renames each joint, segment, site and displacer DEF that is not `<prefix>_<name>`
    /// to that (the prefix most of the humanoid's DEFs use, else the humanoid's name), with every USE and
    /// ROUTE that names it. A name already taken is left alone.
    fn def_prefixes(&mut self, h: &Humanoid) {
        const CODE: &str = "HANIM-DEF-PREFIX";
        let prefix = humanoid_prefix(h);
        let items: Vec<(&str, Option<&str>, NodeId)> = h
            .joints
            .iter()
            .map(|j| (j.name.as_str(), j.def.as_deref(), j.node))
            .chain(h.segments.iter().map(|s| (s.name.as_str(), s.def.as_deref(), s.node)))
            .chain(h.sites.iter().map(|s| (s.name.as_str(), s.def.as_deref(), s.node)))
            .chain(h.displacers.iter().map(|d| (d.name.as_str(), d.def.as_deref(), d.node)))
            .collect();
        for (name, def, node) in items {
            let Some(def) = def else { continue };
            if name.is_empty() || def == name || def.ends_with(&format!("_{name}")) {
                continue;
            }
            let Some(element) = self.element(node) else {
                self.skip(CODE, format!("DEF '{def}' is in another file (Inline); not renamed"));
                continue;
            };
            let new = format!("{prefix}_{name}");
            if self.taken.contains(&new) {
                self.skip(CODE, format!("DEF '{def}' not renamed: '{new}' is already a DEF name"));
                continue;
            }
            self.taken.insert(new.clone());
            self.edits.set_attribute(self.text, &element, "DEF", &new);
            let refs = self.references(def);
            for a in &refs {
                self.edits.replace(a.value_start, a.value_end, new.clone());
            }
            self.defs.insert(node, new.clone());
            self.changed(CODE, format!("DEF '{def}' renamed '{new}' ({} references updated)", refs.len()));
        }
    }

    /// HANIM-JOINTS-DUPLICATED, -EMPTY, -INCOMPLETE: removes each `joints` entry that repeats a joint listed
    /// before it, and appends a `<HAnimJoint USE=… containerField='joints'/>` for every skeleton joint the
    /// list misses (in skeleton order, DEFs given where a joint has none).
    fn joint_list(&mut self, h: &Humanoid) {
        let Some(humanoid) = self.element(h.node) else { return };
        let scene = &self.doc.scene;
        let listed = listed_joints(scene, h);
        if self.wants("HANIM-JOINTS-DUPLICATED") {
            let mut seen = HashSet::new();
            let entries: Vec<Element> = self
                .index
                .children(humanoid.start)
                .filter(|e| xml::attribute(self.text, e, "containerField") == Some("joints"))
                .cloned()
                .collect();
            let mut removed = Vec::new();
            for entry in entries {
                let node = match (xml::attribute(self.text, &entry, "USE"), xml::attribute(self.text, &entry, "DEF")) {
                    (Some(name), _) | (None, Some(name)) => scene.defs.get(name).copied(),
                    _ => None,
                };
                let Some(node) = node else { continue };
                if !seen.insert(node) && xml::attribute(self.text, &entry, "USE").is_some() {
                    self.edits.remove(self.text, &entry);
                    removed.push(h.joints.iter().find(|j| j.node == node).map_or(String::new(), |j| j.name.clone()));
                }
            }
            if !removed.is_empty() {
                let message = format!("removed {} repeated `joints` entries ({})", removed.len(), shorten(&removed));
                self.changed("HANIM-JOINTS-DUPLICATED", message);
            }
        }
        let code = if listed.is_empty() { "HANIM-JOINTS-EMPTY" } else { "HANIM-JOINTS-INCOMPLETE" };
        if !self.wants(code) || !super::portability::joint_list_matters(h) {
            return;
        }
        let present: HashSet<NodeId> = listed.iter().copied().collect();
        let mut added = Vec::new();
        for joint in h.joints.iter().filter(|j| !present.contains(&j.node)) {
            let Some(def) = self.def_of(h, joint.node, &joint.name) else {
                self.skip(code, format!("joint '{}' is in another file; not listed", joint.name));
                continue;
            };
            self.edits.append_child(
                self.text,
                &humanoid,
                &format!("<HAnimJoint USE='{def}' containerField='joints'/>"),
            );
            added.push(joint.name.clone());
        }
        if !added.is_empty() {
            self.changed(code, format!("listed {} joints in `joints` ({})", added.len(), shorten(&added)));
        }
    }

    /// HANIM-MOTION-DISABLED: sets `enabled='true'` on disabled HAnimMotions, and `true` for them in the
    /// humanoid's `motionsEnabled`.
    fn enable_motions(&mut self, h: &Humanoid) {
        const CODE: &str = "HANIM-MOTION-DISABLED";
        for motion in h.motions.iter().filter(|m| !m.enabled) {
            let Some(element) = self.element(motion.node) else { continue };
            self.edits.set_attribute(self.text, &element, "enabled", "true");
            let name =
                if motion.name.is_empty() { motion.def.clone().unwrap_or_default() } else { motion.name.clone() };
            self.changed(CODE, format!("HAnimMotion '{name}': enabled set to true"));
        }
        if h.motions_enabled.iter().take(h.motions.len()).any(|e| !e)
            && let Some(element) = self.element(h.node)
        {
            let value = vec!["true"; h.motions_enabled.len()].join(" ");
            self.edits.set_attribute(self.text, &element, "motionsEnabled", &value);
            self.changed(CODE, "the humanoid's motionsEnabled set to all true".to_string());
        }
    }
}

/// The prefix of the humanoid's global names: the one most of its joint DEFs use (`hanim` for
/// `hanim_l_hip`), else the humanoid's name.
pub(super) fn humanoid_prefix(h: &Humanoid) -> String {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for j in &h.joints {
        if let Some(def) = &j.def
            && let Some(prefix) = def.strip_suffix(&format!("_{}", j.name))
            && !prefix.is_empty()
        {
            *counts.entry(prefix).or_default() += 1;
        }
    }
    let best = counts.into_iter().max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)));
    match best {
        Some((prefix, _)) => prefix.to_string(),
        None if !h.name.trim().is_empty() => h.name.trim().replace(char::is_whitespace, "_"),
        None => "hanim".to_string(),
    }
}

fn shorten(names: &[String]) -> String {
    let shown: Vec<&str> = names.iter().take(6).map(String::as_str).collect();
    if names.len() > shown.len() {
        format!("{} and {} more", shown.join(", "), names.len() - shown.len())
    } else {
        shown.join(", ")
    }
}

/// The codes table entry of a repaired code (all of them are marked repairable there).
pub fn is_repaired(code: &str) -> bool {
    codes::of_code(code).is_some_and(|c| c.repairable) && REPAIRED_CODES.iter().any(|c| c.eq_ignore_ascii_case(code))
}
