//! What the panels read about the loaded humanoid: a plain-data summary built once per load, and the
//! list of views (semantics note §5) with the camera each one gives at a pose.

use std::f32::consts::{FRAC_PI_2, FRAC_PI_4};

use glam::{Mat4, Quat, Vec3};

use crate::hanim::{DisplacerOwner, Document, Humanoid, SiteParent, Viewpoint};
use crate::inspect::bounds::Aabb;

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

/// Where a view's camera comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewSource {
    /// `Humanoid::sites[site].cameras[camera]`: follows its joint when the site hangs in the skeleton.
    Site {
        site: usize,
        camera: usize,
    },
    /// `Humanoid::viewpoints[index]` (placed directly in the humanoid's `viewpoints` field).
    Humanoid(usize),
    /// `Document::viewpoints[index]`: a Viewpoint elsewhere in the scene.
    File(usize),
    Standard(StandardView),
}

/// The computed standard views (§5), used whatever the file provides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StandardView {
    Front,
    Side,
    Top,
    Inclined,
}

impl StandardView {
    pub const ALL: [StandardView; 4] =
        [StandardView::Front, StandardView::Side, StandardView::Top, StandardView::Inclined];

    pub fn label(self) -> &'static str {
        match self {
            StandardView::Front => "Front",
            StandardView::Side => "Side",
            StandardView::Top => "Top",
            StandardView::Inclined => "Inclined",
        }
    }

    /// Camera orientation (§5): Front identity, Side `0 1 0 π/2`, Top `1 0 0 −π/2`, Inclined
    /// `R_y(π/4)·R_x(−35.264°)`.
    pub fn orientation(self) -> Quat {
        match self {
            StandardView::Front => Quat::IDENTITY,
            StandardView::Side => Quat::from_rotation_y(FRAC_PI_2),
            StandardView::Top => Quat::from_rotation_x(-FRAC_PI_2),
            StandardView::Inclined => {
                Quat::from_rotation_y(FRAC_PI_4) * Quat::from_rotation_x(-(1.0f32 / 3f32.sqrt()).asin())
            }
        }
    }

    /// Unit direction from the box centre to the camera.
    pub fn direction(self) -> Vec3 {
        match self {
            StandardView::Front => Vec3::Z,
            StandardView::Side => Vec3::X,
            StandardView::Top => Vec3::Y,
            StandardView::Inclined => Vec3::ONE / 3f32.sqrt(),
        }
    }
}

/// One entry of the Viewpoints panel.
#[derive(Debug, Clone, PartialEq)]
pub struct ViewEntry {
    pub label: String,
    pub source: ViewSource,
    /// True when the camera moves with a joint (eye views): re-evaluated every frame.
    pub follows_joint: bool,
}

/// The default field of view (X3D Viewpoint default, π/4).
pub const DEFAULT_FIELD_OF_VIEW: f32 = FRAC_PI_4;

/// Everything the panels need to know about the loaded humanoid.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SceneSummary {
    pub humanoid_name: String,
    pub joints: Vec<JointSummary>,
    /// Joints without a parent, in order.
    pub roots: Vec<usize>,
    pub displacers: Vec<DisplacerSummary>,
    pub views: Vec<ViewEntry>,
}

/// Strips the humanoid-name prefix (`hanim_`, `Joe_`) from a node name.
pub fn without_prefix<'a>(name: &'a str, humanoid_name: &str) -> &'a str {
    for prefix in [humanoid_name, "hanim"] {
        if prefix.is_empty() {
            continue;
        }
        if let Some(rest) = name.strip_prefix(prefix).and_then(|r| r.strip_prefix('_'))
            && !rest.is_empty()
        {
            return rest;
        }
    }
    name
}

fn viewpoint_label(v: &Viewpoint, fallback: &str) -> String {
    if !v.description.trim().is_empty() {
        v.description.trim().to_string()
    } else if let Some(def) = &v.def {
        def.clone()
    } else {
        fallback.to_string()
    }
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
        Self { humanoid_name: h.name.clone(), joints, roots, displacers, views: view_entries(doc, h) }
    }

    /// Joints whose name contains `query` (case-insensitive), in joint order.
    pub fn search_joints(&self, query: &str) -> Vec<usize> {
        let q = query.trim().to_lowercase();
        (0..self.joints.len()).filter(|&j| self.joints[j].name.to_lowercase().contains(&q)).collect()
    }
}

/// §5 decision: Site viewpoints, file Viewpoints, then the computed standard views.
pub fn view_entries(doc: &Document, h: &Humanoid) -> Vec<ViewEntry> {
    let mut views = Vec::new();
    for (s, site) in h.sites.iter().enumerate() {
        for (c, camera) in site.cameras.iter().enumerate() {
            let fallback = without_prefix(&site.name, &h.name).to_string();
            views.push(ViewEntry {
                label: viewpoint_label(camera, &fallback),
                source: ViewSource::Site { site: s, camera: c },
                follows_joint: !site.in_viewpoints && site.parent != SiteParent::Humanoid,
            });
        }
    }
    for (i, v) in h.viewpoints.iter().enumerate() {
        views.push(ViewEntry {
            label: viewpoint_label(v, &format!("Viewpoint {}", i + 1)),
            source: ViewSource::Humanoid(i),
            follows_joint: false,
        });
    }
    for (i, (v, _)) in doc.viewpoints.iter().enumerate() {
        views.push(ViewEntry {
            label: viewpoint_label(v, &format!("Viewpoint {}", i + 1)),
            source: ViewSource::File(i),
            follows_joint: false,
        });
    }
    for s in StandardView::ALL {
        views.push(ViewEntry { label: s.label().to_string(), source: ViewSource::Standard(s), follows_joint: false });
    }
    views
}

/// A camera placement: world matrix (looking down −Z, +Y up) and field of view.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ViewPlacement {
    pub world_from_camera: Mat4,
    pub field_of_view: f32,
}

fn viewpoint_matrix(v: &Viewpoint) -> Mat4 {
    Mat4::from_rotation_translation(v.orientation, v.position)
}

fn field_of_view(v: &Viewpoint) -> f32 {
    if v.field_of_view.is_finite() && v.field_of_view > 0.01 && v.field_of_view < 3.1 {
        v.field_of_view
    } else {
        DEFAULT_FIELD_OF_VIEW
    }
}

/// The distance from the box centre that frames `bounds` for a field of view `fov` (the bounding
/// sphere touches the smaller side of the image).
pub fn framing_distance(bounds: &Aabb, fov: f32) -> f32 {
    let radius = (bounds.size().length() * 0.5).max(0.05);
    radius / (fov * 0.5).sin()
}

/// The standard view `s` of `bounds` (§5): centre `m`, distance that frames the box.
pub fn standard_view(s: StandardView, bounds: &Aabb, fov: f32) -> ViewPlacement {
    let centre = if bounds.is_empty() { Vec3::new(0.0, 1.0, 0.0) } else { bounds.center() };
    let d = framing_distance(bounds, fov);
    ViewPlacement {
        world_from_camera: Mat4::from_rotation_translation(s.orientation(), centre + s.direction() * d),
        field_of_view: fov,
    }
}

/// Where `source`'s camera is at the pose given by `humanoid_from_joint` (§5): site cameras
/// `H·G_holder·offset·L(site)·T(position)·R(orientation)`, with `G = I` for sites listed in `viewpoints`.
pub fn view_placement(
    doc: &Document,
    h: &Humanoid,
    humanoid_from_joint: &[Mat4],
    bounds: &Aabb,
    source: ViewSource,
) -> Option<ViewPlacement> {
    let world_from_humanoid = h.world_from_humanoid();
    match source {
        ViewSource::Site { site, camera } => {
            let s = h.sites.get(site)?;
            let v = s.cameras.get(camera)?;
            let joint = match s.parent {
                _ if s.in_viewpoints => None,
                SiteParent::Segment(seg) => h.segments.get(seg).and_then(|seg| seg.joint),
                SiteParent::Joint(j) => Some(j),
                SiteParent::Humanoid => None,
            };
            let holder = joint.and_then(|j| humanoid_from_joint.get(j)).copied().unwrap_or(Mat4::IDENTITY);
            let m = world_from_humanoid * holder * s.offset * s.transform.matrix() * viewpoint_matrix(v);
            Some(ViewPlacement { world_from_camera: m, field_of_view: field_of_view(v) })
        }
        ViewSource::Humanoid(i) => {
            let v = h.viewpoints.get(i)?;
            Some(ViewPlacement {
                world_from_camera: world_from_humanoid * viewpoint_matrix(v),
                field_of_view: field_of_view(v),
            })
        }
        ViewSource::File(i) => {
            let (v, world) = doc.viewpoints.get(i)?;
            Some(ViewPlacement { world_from_camera: *world * viewpoint_matrix(v), field_of_view: field_of_view(v) })
        }
        ViewSource::Standard(s) => Some(standard_view(s, bounds, DEFAULT_FIELD_OF_VIEW)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_are_stripped() {
        assert_eq!(without_prefix("hanim_l_shoulder", "hanim"), "l_shoulder");
        assert_eq!(without_prefix("Joe_l_eyebrow_raiser", "Joe"), "l_eyebrow_raiser");
        assert_eq!(without_prefix("hanim_x", "Joe"), "x");
        assert_eq!(without_prefix("l_knee", "Joe"), "l_knee");
        assert_eq!(without_prefix("hanim_", "hanim"), "hanim_");
    }

    #[test]
    fn standard_views_look_at_the_box_centre() {
        let mut b = Aabb::default();
        b.add(Vec3::new(-0.3, 0.0, -0.2));
        b.add(Vec3::new(0.3, 1.8, 0.2));
        for s in StandardView::ALL {
            let v = standard_view(s, &b, DEFAULT_FIELD_OF_VIEW);
            let eye = v.world_from_camera.transform_point3(Vec3::ZERO);
            let forward = v.world_from_camera.transform_vector3(-Vec3::Z);
            let to_centre = (b.center() - eye).normalize();
            assert!(forward.dot(to_centre) > 0.9999, "{s:?}: {forward:?} vs {to_centre:?}");
        }
    }
}
