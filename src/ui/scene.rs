//! What the panels read about the loaded humanoid: a plain-data summary built once per load, and the
//! list of views (semantics note §5) with the camera each one gives at a pose.

use glam::{Mat4, Quat};

use crate::hanim::{DisplacerOwner, Document, Humanoid, HumanoidIndex, JointIndex};
use crate::pose::bounds::Aabb;

/// One joint as the Joints panel shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct JointSummary {
    pub name: String,
    pub parent: Option<usize>,
    pub children: Vec<usize>,
    pub depth: usize,
    /// `llimit`/`ulimit` as written (radians) and the limit frame.
    pub llimit: Vec<f32>,
    pub ulimit: Vec<f32>,
    pub limit_orientation: Quat,
}

/// One displacer as the Displacers panel shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct DisplacerSummary {
    /// Name without the humanoid prefix.
    pub label: String,
    /// The joint or segment that holds it (name without the humanoid prefix).
    pub owner: String,
    pub rest_weight: f32,
}

pub use crate::views::{StandardView, ViewEntry, ViewPlacement, ViewSource, without_prefix};

pub use crate::views::DEFAULT_FIELD_OF_VIEW;

/// Everything the panels need to know about the loaded humanoid.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SceneSummary {
    pub humanoid_name: String,
    /// Every humanoid of the file (name, else DEF, else its number), and which one this summary is of.
    pub humanoid_names: Vec<String>,
    pub humanoid_index: usize,
    pub joints: Vec<JointSummary>,
    /// Joints without a parent, in order.
    pub roots: Vec<usize>,
    pub displacers: Vec<DisplacerSummary>,
    pub views: Vec<ViewEntry>,
}

impl SceneSummary {
    pub fn new(doc: &Document, h: &Humanoid) -> Self {
        let mut joints: Vec<JointSummary> = h
            .joints
            .iter()
            .map(|j| JointSummary {
                name: j.name.clone(),
                parent: j.parent,
                children: Vec::new(),
                depth: 0,
                llimit: j.llimit.clone(),
                ulimit: j.ulimit.clone(),
                limit_orientation: j.limit_orientation,
            })
            .collect();
        let mut roots = Vec::new();
        for i in 0..joints.len() {
            // The model orders parents before children, so the parent's depth is already known.
            match joints[i].parent.filter(|&p| p < i) {
                Some(p) => {
                    joints[i].depth = joints[p].depth + 1;
                    joints[p].children.push(i);
                }
                None => roots.push(i),
            }
        }
        let displacers = h
            .displacers
            .iter()
            .map(|d| {
                let owner = match d.owner {
                    DisplacerOwner::Joint(j) => h.joints.get(j).map(|j| j.name.as_str()),
                    DisplacerOwner::Segment(s) => h.segments.get(s).map(|s| s.name.as_str()),
                }
                .unwrap_or("?");
                DisplacerSummary {
                    label: without_prefix(&d.name, &h.name).to_string(),
                    owner: without_prefix(owner, &h.name).to_string(),
                    rest_weight: d.weight,
                }
            })
            .collect();
        let humanoid_names = doc
            .humanoids
            .iter()
            .enumerate()
            .map(|(i, h)| match (h.name.is_empty(), &h.def) {
                (false, _) => h.name.clone(),
                (true, Some(def)) => def.clone(),
                (true, None) => format!("humanoid {}", i + 1),
            })
            .collect();
        Self {
            humanoid_name: h.name.clone(),
            humanoid_names,
            humanoid_index: humanoid_index(doc, h).0,
            joints,
            roots,
            displacers,
            views: view_entries(doc, h),
        }
    }

    /// Joints whose name contains `query` (case-insensitive), in joint order.
    pub fn search_joints(&self, query: &str) -> Vec<JointIndex> {
        let q = query.trim().to_lowercase();
        (0..self.joints.len()).filter(|&j| self.joints[j].name.to_lowercase().contains(&q)).map(JointIndex).collect()
    }
}

/// The index of `h` in `doc` (the panels are handed the humanoid itself).
fn humanoid_index(doc: &Document, h: &Humanoid) -> HumanoidIndex {
    HumanoidIndex(doc.humanoids.iter().position(|x| std::ptr::eq(x, h)).unwrap_or(0))
}

/// The panel's list (§5 decision, [`crate::views::humanoid_views`]): site viewpoints, joint viewpoints,
/// file Viewpoints, then the computed views.
pub fn view_entries(doc: &Document, h: &Humanoid) -> Vec<ViewEntry> {
    crate::views::humanoid_views(doc, humanoid_index(doc, h).0)
}

/// The distance from the box centre that frames `bounds` for a field of view `fov` (the bounding
/// sphere touches the smaller side of the image).
pub fn framing_distance(bounds: &Aabb, fov: f32) -> f32 {
    let radius = (bounds.size().length() * 0.5).max(0.05);
    radius / (fov * 0.5).sin()
}

/// Where `source`'s camera is at the pose given by `humanoid_from_joint` ([`crate::views::placement`]);
/// computed views frame `bounds` for a square view, which leaves room in any wider one.
pub fn view_placement(
    doc: &Document,
    h: &Humanoid,
    humanoid_from_joint: &[Mat4],
    world_from_humanoid: Mat4,
    bounds: &Aabb,
    source: ViewSource,
) -> Option<ViewPlacement> {
    let ctx = crate::views::PoseContext {
        doc,
        humanoid: humanoid_index(doc, h),
        humanoid_from_joint,
        world_from_humanoid,
        figure: bounds,
        aspect: 1.0,
    };
    crate::views::placement(&ctx, source)
}
