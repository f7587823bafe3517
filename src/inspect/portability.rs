//! `check` rules about portability: authoring mistakes that the standard leaves open or that each player
//! tolerates differently, so a humanoid animates in one browser and not in another. Each rule's code,
//! clause and the players it breaks (with the tracker issues and source files they were read from) are in
//! the guide's table of codes (docs/guide/checking.md); `repair` (`inspect::repair`) fixes most of them.

use std::collections::{HashMap, HashSet};

use crate::hanim::Humanoid;
use crate::x3d::NodeId;

use super::check::{Checker, Severity};

/// The rule that states a loader warning with a code of its own, so `check` reports it once.
pub fn rule_stating(loader_message: &str) -> Option<&'static str> {
    if loader_message.contains("missing from the humanoid's `joints` list") {
        Some("joints-incomplete")
    } else if loader_message.contains("no skin shape uses the skinCoord node") {
        Some("skincoord-not-shared")
    } else if loader_message.starts_with("skinNormal has") {
        Some("normals-short")
    } else if loader_message.contains("have weights that do not sum to 1") {
        Some("weight-sum")
    } else if loader_message.starts_with("joints carry skin weights but the humanoid has no skinCoord") {
        Some("skin-no-skincoord")
    } else if loader_message.starts_with("no joint weights any of the") {
        Some("unbound-skin")
    } else if loader_message.contains("have no joint influence and stay in place") {
        Some("unreached-vertex")
    } else {
        None
    }
}

/// Whether an X3D file uses the HAnim nodes without asking for them: its profile is not Full (the only
/// profile that holds the HAnim component) and no `component` statement names HAnim (X3D 4.0 7.2.5.4;
/// "H-Anim" in X3D 3.0). X_ITE then refuses every HAnim node and draws no humanoid; Castle reads them
/// anyway. VRML97 files build humanoids from PROTOs and need no component. The message, or `None`.
pub fn missing_hanim_component(doc: &crate::hanim::Document) -> Option<String> {
    let scene = &doc.scene;
    let native = doc.humanoids.iter().any(|h| scene.node(h.node).type_name == "HAnimHumanoid");
    // A file without a profile is read as Full (the schema's default for the API; X_ITE does so).
    let asked = scene.profile.is_empty()
        || scene.profile.eq_ignore_ascii_case("Full")
        || scene.components.iter().any(|c| matches!(c.name.as_str(), "HAnim" | "H-Anim") && c.level >= 1);
    (native && scene.version != "VRML97" && !asked).then(|| {
        format!(
            "the file uses HAnim nodes but its profile ({}) does not hold them and no component statement \
             asks for HAnim (add <component name='HAnim' level='1'/> to the head)",
            scene.profile
        )
    })
}

/// The nodes of a humanoid's `joints` field, in order (USE references resolve to the joint's node).
pub fn listed_joints(scene: &crate::x3d::Scene, h: &Humanoid) -> Vec<NodeId> {
    scene.node(h.node).children_in("joints").collect()
}

/// Whether players read the `joints` list for this humanoid: X_ITE skins and animates (HAnimMotion) only
/// the joints listed there, so the list matters when the humanoid has a weighted skin or motions.
pub fn joint_list_matters(h: &Humanoid) -> bool {
    h.joints.iter().any(|j| !j.skin_coord_index.is_empty()) || !h.motions.is_empty()
}

/// Skin shapes whose geometry has a Coordinate of its own, not the skinCoord node, with as many points as
/// skinCoord: a copy meant to deform, which only players that match by content would skin.
pub fn unshared_skin_coords(scene: &crate::x3d::Scene, h: &Humanoid) -> Vec<(NodeId, NodeId)> {
    let Some(skin) = &h.skin else { return Vec::new() };
    let Some(skin_coord) = skin.coord_node else { return Vec::new() };
    let count = scene.mf_float(skin_coord, "point").map_or(0, |p| p.len() / 3);
    let mut out = Vec::new();
    for shape in &skin.shapes {
        let Some(geometry) = shape.geometry else { continue };
        let Some(coord) = scene.node(geometry).children_in("coord").next() else { continue };
        if coord == skin_coord || scene.node(coord).type_name != "Coordinate" {
            continue;
        }
        let points = scene.mf_float(coord, "point").map_or(0, |p| p.len() / 3);
        if points == count && count > 0 {
            out.push((geometry, coord));
        }
    }
    out
}

/// Joints placed by `translation` alone: a non-zero translation and the default `center`, where the
/// translation is a placement (no HAnimMotion position channel or ROUTE drives it).
pub fn translation_only_joints(scene: &crate::x3d::Scene, h: &Humanoid) -> Vec<usize> {
    let driven = translation_driven(scene, h);
    (0..h.joints.len())
        .filter(|&j| {
            let rest = &h.joints[j].rest;
            !driven[j] && rest.translation.length() > 1e-9 && rest.center.length() <= 1e-9
        })
        .collect()
}

/// Per joint: whether an HAnimMotion position channel or a ROUTE to its translation drives it.
pub fn translation_driven(scene: &crate::x3d::Scene, h: &Humanoid) -> Vec<bool> {
    let mut driven = vec![false; h.joints.len()];
    for motion in &h.motions {
        let Ok(groups) = crate::hanim::motion_rules::channel_groups(&motion.channels) else { continue };
        for (name, group) in crate::hanim::motion_rules::split_list(&motion.joints).zip(&groups) {
            if group.iter().any(|c| c.to_ascii_lowercase().ends_with("position"))
                && let Some(j) = h.find_motion_joint(name)
            {
                driven[j] = true;
            }
        }
    }
    for route in &scene.routes {
        if route.to_field.contains("translation")
            && let Some(j) = h.joints.iter().position(|j| j.node == route.to_node)
        {
            driven[j] = true;
        }
    }
    driven
}

impl Checker<'_> {
    pub(super) fn portability(&mut self, h: &Humanoid) {
        self.joint_list(h);
        self.skin_coord_sharing(h);
        self.translation_without_center(h);
        self.influence_counts(h);
        self.disabled_motions(h);
        self.empty_coords(h);
        self.normal_count(h);
        self.sites_under_joints(h);
        self.geometry_under_joints(h);
    }

    /// X3D 4.0 26.3.3 gives HAnimJoint's `children` as HAnimJoint and HAnimSegment only: a Site belongs in
    /// a segment (or the skeleton). We draw one found directly under a joint, as view3dscene does, at
    /// the joint; X_ITE drops it.
    fn sites_under_joints(&mut self, h: &Humanoid) {
        let sites = self.joint_children(h, |t| t == "HAnimSite");
        let what = "HAnimSites stand directly in a joint's children, where X3D 4.0 allows only joints and segments \
                    (a Site goes in a segment); X_ITE drops them";
        self.push_list(Severity::Warning, "site-under-joint", h.node, what, &sites);
    }

    /// Shapes and grouping nodes directly in an HAnimJoint's `children` (H-Anim 1.x files put a joint's
    /// marker there), where X3D 4.0 26.3.3 allows joints and segments only.
    fn geometry_under_joints(&mut self, h: &Humanoid) {
        let nodes = self.joint_children(h, |t| !matches!(t, "HAnimJoint" | "HAnimSegment" | "HAnimSite"));
        let what = "geometry stands directly in a joint's children, where X3D 4.0 allows only joints and segments \
                    (a joint's shapes go in its segment); X_ITE drops it, this viewer draws it at the joint";
        self.push_list(Severity::Warning, "geometry-under-joint", h.node, what, &nodes);
    }

    /// The nodes in the joints' `children` whose type `keep` takes, each described with its joint.
    fn joint_children(&self, h: &Humanoid, keep: impl Fn(&str) -> bool) -> Vec<String> {
        let scene = &self.doc.scene;
        h.joints
            .iter()
            .flat_map(|joint| {
                scene
                    .node(joint.node)
                    .children_in("children")
                    .filter(|&c| keep(&scene.node(c).type_name))
                    .map(|c| format!("{} (in joint '{}')", scene.describe(c), joint.name))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    fn joint_list(&mut self, h: &Humanoid) {
        use Severity::Warning;
        let scene = &self.doc.scene;
        let listed = listed_joints(scene, h);
        if h.joints.is_empty() || !joint_list_matters(h) {
            return;
        }
        if listed.is_empty() {
            let message = format!(
                "the humanoid's `joints` field is empty; X_ITE skins and animates only the joints listed there \
                 ({} joints in the skeleton)",
                h.joints.len()
            );
            self.push(Warning, "joints-empty", h.node, message);
            return;
        }
        let mut times: HashMap<NodeId, usize> = HashMap::new();
        for node in &listed {
            *times.entry(*node).or_default() += 1;
        }
        let twice: Vec<String> = h
            .joints
            .iter()
            .filter(|j| times.get(&j.node).is_some_and(|&n| n > 1))
            .map(|j| format!("{} ({}×)", j.name, times[&j.node]))
            .collect();
        self.push_list(Warning, "joints-duplicated", h.node, "joints are listed more than once in `joints`", &twice);
        let present: HashSet<NodeId> = listed.iter().copied().collect();
        let missing: Vec<String> =
            h.joints.iter().filter(|j| !present.contains(&j.node)).map(|j| j.name.clone()).collect();
        self.push_list(Warning, "joints-incomplete", h.node, "skeleton joints are missing from `joints`", &missing);
    }

    fn skin_coord_sharing(&mut self, h: &Humanoid) {
        for (geometry, coord) in unshared_skin_coords(&self.doc.scene, h) {
            let message = format!(
                "the skin's {} has its own Coordinate, not the skinCoord node (DEF/USE), so it does not deform \
                 in players that skin only the shared node",
                self.doc.scene.describe(geometry)
            );
            self.push(Severity::Warning, "skincoord-not-shared", coord, message);
        }
    }

    fn translation_without_center(&mut self, h: &Humanoid) {
        let joints = translation_only_joints(&self.doc.scene, h);
        let names: Vec<String> = joints.iter().map(|&j| h.joints[j].name.clone()).collect();
        let first = joints.first().map_or(h.node, |&j| h.joints[j].node);
        self.push_list(
            Severity::Warning,
            "joint-translation-no-center",
            first,
            "joints are placed by translation with no center",
            &names,
        );
    }

    fn influence_counts(&mut self, h: &Humanoid) {
        let Some(skin) = &h.skin else { return };
        let over: Vec<String> = (0..skin.influences.point_count())
            .filter(|&i| skin.influences.of(i).len() > 4)
            .map(|i| format!("{i} ({})", skin.influences.of(i).len()))
            .collect();
        let node = skin.coord_node.unwrap_or(h.node);
        self.push_list(Severity::Warning, "influences-over-4", node, "skin points have more than 4 influences", &over);
    }

    fn disabled_motions(&mut self, h: &Humanoid) {
        for (i, motion) in h.motions.iter().enumerate() {
            let by_humanoid = h.motions_enabled.get(i) == Some(&false);
            if motion.enabled && !by_humanoid {
                continue;
            }
            let how = if motion.enabled { "the humanoid's motionsEnabled disables it" } else { "enabled FALSE" };
            let name =
                if motion.name.is_empty() { motion.def.clone().unwrap_or_default() } else { motion.name.clone() };
            let message = format!("HAnimMotion '{name}' does not play: {how}");
            self.push(Severity::Warning, "motion-disabled", motion.node, message);
        }
    }

    fn empty_coords(&mut self, h: &Humanoid) {
        let scene = &self.doc.scene;
        let Some(skin) = &h.skin else { return };
        let mut empty: Vec<NodeId> = Vec::new();
        for shape in &skin.shapes {
            let Some(geometry) = shape.geometry else { continue };
            let Some(coord) = scene.node(geometry).children_in("coord").next() else { continue };
            let points = scene.mf_float(coord, "point").map_or(0, |p| p.len());
            if points == 0 && shape.indices.iter().any(|&i| i >= 0) && !empty.contains(&coord) {
                empty.push(coord);
            }
        }
        for coord in empty {
            let message = format!(
                "{} has no points but the skin's faces index it (players that read it before an interpolator fills \
                 it report every index)",
                scene.describe(coord)
            );
            self.push(Severity::Warning, "coord-empty", coord, message);
        }
    }

    fn normal_count(&mut self, h: &Humanoid) {
        let scene = &self.doc.scene;
        let Some(skin) = &h.skin else { return };
        let (Some(normal), Some(coord)) = (skin.normal_node, skin.coord_node) else { return };
        let normals = scene.mf_float(normal, "vector").map_or(0, |v| v.len() / 3);
        let points = scene.mf_float(coord, "point").map_or(0, |p| p.len() / 3);
        if normals != points {
            let message = format!(
                "skinNormal has {normals} vectors for {points} skinCoord points (one per point; x3dom crashes \
                 with fewer, this viewer ignores them)"
            );
            self.push(Severity::Warning, "normals-short", normal, message);
        }
    }
}
