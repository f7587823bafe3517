//! Every viewpoint of a document, resolved as the semantics note §5 says, and the cameras they give at a
//! pose: the one implementation behind the `views`, `render` and `catalog` commands and the window's
//! Viewpoints panel.
//!
//! Kinds of view, in the order the panel lists them (§5 decision):
//! - Viewpoints inside HAnimSites — sites in the humanoid's `viewpoints` field (fixed to the humanoid:
//!   `H · offset · L(site) · T · R`) and sites in the skeleton (they follow their joint:
//!   `H · G_j · offset · L(site) · T · R`); a Viewpoint may sit under grouping nodes inside the site.
//! - Skeleton sites named `*_view` with no Viewpoint inside: a camera at the site's origin looking down
//!   its −Z (19774 §6.5 names camera sites `_view`).
//! - Viewpoints among the children of joints and segments: H-Anim 1.0 puts `hanim_LeftEyeView`,
//!   `hanim_RightEyeView`, `hanim_CyclopeanView`, `hanim_FaceView`, `hanim_FaceLeft`, `hanim_FaceRight`
//!   under `skullbase`; they follow the joint.
//! - Viewpoints placed directly in the `viewpoints` field (H-Anim 1.x), fixed to the humanoid.
//! - Scene Viewpoints, including the H-Anim 1.0 `Viewpoints` group (FrontView, SideView, TopView,
//!   InclinedView).
//! - Computed views: front, side, top, inclined framing the figure's box at the current pose, and a
//!   face view framing the head (when the humanoid has a head joint). They are always offered, even when
//!   the file has its own FrontView: the file's cameras were placed for the rest pose at a distance of
//!   the author's choosing, while a catalogue needs every figure framed by the same rule.

mod camera;
mod framing;
mod placement;
mod resolve;

use std::f32::consts::{FRAC_PI_2, FRAC_PI_4};

use glam::{Mat4, Quat, Vec3};

pub use framing::{
    DEFAULT_FIELD_OF_VIEW, FRAME_MARGIN, camera_around, corners_of, frame_points, framed_camera, usable_box,
};

use crate::hanim::{Document, Humanoid, SiteParent, Viewpoint};
pub use camera::Camera;
pub use placement::{PoseContext, ViewPlacement, figure_bounds, placement, x3d_rotation};
pub use resolve::{
    COMPUTED_PREFIX, ResolvedView, X3D_DEFAULT_VIEW, computed_view_named, named_camera, resolve_document_views,
};

/// Why a view cannot be had: a name no view answers to (the message lists the names), or a humanoid
/// whose geometry cannot be read for framing.
#[derive(Debug, thiserror::Error)]
pub enum ViewError {
    #[error("{0}")]
    Unknown(String),
    #[error(transparent)]
    Scene(#[from] crate::x3d::X3dError),
}

/// The computed views (§5) plus the face view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StandardView {
    Front,
    Side,
    Top,
    Inclined,
    /// The face from the front, framing the head (the head joint's subtree).
    Face,
}

impl StandardView {
    pub const ALL: [StandardView; 5] =
        [StandardView::Front, StandardView::Side, StandardView::Top, StandardView::Inclined, StandardView::Face];
    /// The views that frame the whole figure.
    pub const BODY: [StandardView; 4] =
        [StandardView::Front, StandardView::Side, StandardView::Top, StandardView::Inclined];

    /// Lower-case name, as the command line takes it.
    pub fn name(self) -> &'static str {
        match self {
            StandardView::Front => "front",
            StandardView::Side => "side",
            StandardView::Top => "top",
            StandardView::Inclined => "inclined",
            StandardView::Face => "face",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            StandardView::Front => "Front",
            StandardView::Side => "Side",
            StandardView::Top => "Top",
            StandardView::Inclined => "Inclined",
            StandardView::Face => "Face",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name().eq_ignore_ascii_case(name.trim()))
    }

    /// Camera orientation (§5): Front and Face identity (looking down −Z at a figure facing +Z), Side
    /// `0 1 0 π/2` (looks down −X), Top `1 0 0 −π/2` (looks down −Y), Inclined `R_y(π/4)·R_x(−35.264°)`
    /// (looks towards (−1,−1,−1)). Relative to the humanoid's frame, the face view's to the head's.
    pub fn orientation(self) -> Quat {
        match self {
            StandardView::Front | StandardView::Face => Quat::IDENTITY,
            StandardView::Side => Quat::from_rotation_y(FRAC_PI_2),
            StandardView::Top => Quat::from_rotation_x(-FRAC_PI_2),
            StandardView::Inclined => {
                Quat::from_rotation_y(FRAC_PI_4) * Quat::from_rotation_x(-(1.0f32 / 3f32.sqrt()).asin())
            }
        }
    }

    /// Unit direction from the framed box's centre to the camera.
    pub fn direction(self) -> Vec3 {
        self.orientation() * Vec3::Z
    }
}

/// Where a view's camera comes from, within one humanoid (scene Viewpoints belong to the document).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewSource {
    /// `Humanoid::sites[site].cameras[camera]`: follows its joint when the site hangs in the skeleton.
    Site {
        site: usize,
        camera: usize,
    },
    /// `Humanoid::sites[site]`, a site named `*_view` with no Viewpoint inside.
    SiteOrigin(usize),
    /// `Humanoid::joint_viewpoints[index]`: a Viewpoint under a joint or segment (H-Anim 1.0 eye views).
    Joint(usize),
    /// `Humanoid::viewpoints[index]` (placed directly in the humanoid's `viewpoints` field).
    Humanoid(usize),
    /// `Document::viewpoints[index]`: a Viewpoint elsewhere in the scene.
    File(usize),
    Standard(StandardView),
}

/// The kind of a view, as `views` reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ViewKind {
    /// A Viewpoint in a site listed in the humanoid's `viewpoints` field.
    ViewpointSite,
    /// A Viewpoint in a site inside the skeleton (follows its joint).
    SkeletonSite,
    /// A skeleton site named `*_view` without a Viewpoint.
    SiteOrigin,
    /// A Viewpoint among a joint's or segment's children.
    JointViewpoint,
    /// A Viewpoint directly in the humanoid's `viewpoints` field.
    HumanoidViewpoint,
    /// A Viewpoint elsewhere in the scene.
    SceneViewpoint,
    /// Computed from the figure's (or head's) box at the current pose.
    Computed,
}

/// H-Anim 1.0 names ("Eyepoints" and "Additional Useful Features"), recognised by DEF or description.
const HANIM1_NAMES: [(&str, &str); 10] = [
    ("hanim_LeftEyeView", "H-Anim 1.0 left eye view"),
    ("hanim_RightEyeView", "H-Anim 1.0 right eye view"),
    ("hanim_CyclopeanView", "H-Anim 1.0 cyclopean (between the eyes) view"),
    ("hanim_FaceView", "H-Anim 1.0 face view"),
    ("hanim_FaceLeft", "H-Anim 1.0 three-quarter face view from the left"),
    ("hanim_FaceRight", "H-Anim 1.0 three-quarter face view from the right"),
    ("FrontView", "H-Anim 1.0 standard front view"),
    ("SideView", "H-Anim 1.0 standard side view"),
    ("TopView", "H-Anim 1.0 standard top view"),
    ("InclinedView", "H-Anim 1.0 standard inclined view"),
];

/// What the H-Anim 1.0 text calls this Viewpoint, if it uses one of its names.
pub fn hanim1_role(v: &Viewpoint) -> Option<&'static str> {
    HANIM1_NAMES.iter().find_map(|(name, role)| {
        let matches = |s: &str| s == *name || s.strip_prefix("hanim_") == Some(name);
        (v.def.as_deref().is_some_and(matches) || matches(v.description.trim())).then_some(*role)
    })
}

/// One listed view.
#[derive(Debug, Clone, PartialEq)]
pub struct ViewEntry {
    /// Description, else DEF, else the site name without the humanoid prefix (§5).
    pub label: String,
    pub description: String,
    pub def: Option<String>,
    /// The humanoid it belongs to (`None`: a scene Viewpoint).
    pub humanoid: Option<usize>,
    pub source: ViewSource,
    pub kind: ViewKind,
    /// A sentence saying where it comes from.
    pub origin: String,
    /// The joint the camera moves with (eye views): re-evaluated at every pose.
    pub follows_joint: Option<usize>,
    /// A scene Viewpoint of an inlined file (listed after the file's own views; never bound at load).
    pub inlined: bool,
}

impl ViewEntry {
    /// Whether the view looks at the face or out of an eye (the standard face view, a view that moves
    /// with a joint, or one whose label, DEF or description names an eye or the face): overlays such as
    /// the skeleton would sit on the face there.
    pub fn is_face_or_eye(&self) -> bool {
        let named = |s: &str| {
            let s = s.to_lowercase();
            s.contains("eye") || s.contains("face")
        };
        self.source == ViewSource::Standard(StandardView::Face)
            || self.follows_joint()
            || named(&self.label)
            || named(&self.description)
            || self.def.as_deref().is_some_and(named)
    }

    /// True when the camera moves with a joint (the window re-evaluates it every frame).
    pub fn follows_joint(&self) -> bool {
        self.follows_joint.is_some()
    }

    /// Matches `name` against the label, DEF, description or computed view name.
    pub fn answers_to(&self, name: &str, exact: bool) -> bool {
        let same = |s: &str| if exact { s == name } else { s.trim().eq_ignore_ascii_case(name.trim()) };
        same(&self.label)
            || same(&self.description)
            || self.def.as_deref().is_some_and(same)
            || matches!(self.source, ViewSource::Standard(s) if same(s.name()))
    }
}

pub use crate::hanim::site_joint;
pub use crate::names::without_prefix;

fn label_of(v: &Viewpoint, fallback: &str) -> String {
    if !v.description.trim().is_empty() {
        v.description.trim().to_string()
    } else if let Some(def) = &v.def {
        def.clone()
    } else {
        fallback.to_string()
    }
}

fn joint_name(h: &Humanoid, joint: Option<usize>) -> String {
    joint.and_then(|j| h.joints.get(j)).map_or_else(|| "?".to_string(), |j| j.name.clone())
}

/// The head joint: `skullbase` (H-Anim), else a joint named `head` in any case (BVH conversions).
pub fn head_joint(h: &Humanoid) -> Option<usize> {
    let named =
        |wanted: &str| h.joints.iter().position(|j| without_prefix(&j.name, &h.name).eq_ignore_ascii_case(wanted));
    named("skullbase").or_else(|| named("head"))
}

/// The views of humanoid `index`, in the panel's order (§5): site cameras, `*_view` sites, joint
/// Viewpoints, `viewpoints`-field Viewpoints, scene Viewpoints (shared by every humanoid), computed views,
/// then the scene Viewpoints of inlined files (a crowd of ten Inlines of one file lists each of its
/// Viewpoints ten times: after the views that are the file's own).
pub fn humanoid_views(doc: &Document, index: usize) -> Vec<ViewEntry> {
    let mut views = own_views(doc, index);
    views.extend(scene_views(doc, false));
    views.extend(computed_views(doc, index));
    views.extend(scene_views(doc, true));
    views
}

/// Every view of the document, each once: per humanoid its own views, then the scene Viewpoints, then
/// the computed views of each humanoid, then the scene Viewpoints of inlined files.
pub fn document_views(doc: &Document) -> Vec<ViewEntry> {
    let mut views: Vec<ViewEntry> = (0..doc.humanoids.len()).flat_map(|h| own_views(doc, h)).collect();
    views.extend(scene_views(doc, false));
    views.extend((0..doc.humanoids.len()).flat_map(|h| computed_views(doc, h)));
    views.extend(scene_views(doc, true));
    views
}

fn own_views(doc: &Document, index: usize) -> Vec<ViewEntry> {
    let Some(h) = doc.humanoids.get(index) else { return Vec::new() };
    let mut views = Vec::new();
    for (s, site) in h.sites.iter().enumerate() {
        let follows = site_joint(h, site);
        let site_label = without_prefix(&site.name, &h.name).to_string();
        let place = match (follows, site.in_viewpoints) {
            (Some(j), _) => format!("in the skeleton on joint {}, follows it", joint_name(h, Some(j))),
            (None, true) if site.parent != SiteParent::Humanoid => {
                "in the skeleton and listed in `viewpoints`: fixed to the humanoid".to_string()
            }
            (None, true) => "in the humanoid's `viewpoints` field, fixed to the humanoid".to_string(),
            (None, false) => "directly in the skeleton, fixed to the humanoid".to_string(),
        };
        let kind =
            if follows.is_some() || !site.in_viewpoints { ViewKind::SkeletonSite } else { ViewKind::ViewpointSite };
        for (c, held) in site.cameras.iter().enumerate() {
            let v = &held.viewpoint;
            let nested = if held.offset == Mat4::IDENTITY { "" } else { " (under grouping nodes)" };
            let role = hanim1_role(v).map(|r| format!(" [{r}]")).unwrap_or_default();
            views.push(ViewEntry {
                label: label_of(v, &site_label),
                description: v.description.clone(),
                def: v.def.clone(),
                humanoid: Some(index),
                source: ViewSource::Site { site: s, camera: c },
                kind,
                origin: format!("Viewpoint{nested} in site {}, {place}{role}", site.name),
                follows_joint: follows,
                inlined: false,
            });
        }
        if site.cameras.is_empty() && site.name.ends_with("_view") {
            views.push(ViewEntry {
                label: site_label,
                description: site.description.clone(),
                def: site.def.clone(),
                humanoid: Some(index),
                source: ViewSource::SiteOrigin(s),
                kind: ViewKind::SiteOrigin,
                origin: format!(
                    "site {} (named *_view, no Viewpoint inside: camera at its origin looking down its -Z), {place}",
                    site.name
                ),
                follows_joint: follows,
                inlined: false,
            });
        }
    }
    for (i, jv) in h.joint_viewpoints.iter().enumerate() {
        let v = &jv.held.viewpoint;
        let role = hanim1_role(v).map(|r| format!(" [{r}]")).unwrap_or_default();
        views.push(ViewEntry {
            label: label_of(v, &format!("{} camera", joint_name(h, jv.joint))),
            description: v.description.clone(),
            def: v.def.clone(),
            humanoid: Some(index),
            source: ViewSource::Joint(i),
            kind: ViewKind::JointViewpoint,
            origin: format!("Viewpoint among the children of joint {}, follows it{role}", joint_name(h, jv.joint)),
            follows_joint: jv.joint,
            inlined: false,
        });
    }
    for (i, held) in h.viewpoints.iter().enumerate() {
        let v = &held.viewpoint;
        let role = hanim1_role(v).map(|r| format!(" [{r}]")).unwrap_or_default();
        views.push(ViewEntry {
            label: label_of(v, &format!("Viewpoint {}", i + 1)),
            description: v.description.clone(),
            def: v.def.clone(),
            humanoid: Some(index),
            source: ViewSource::Humanoid(i),
            kind: ViewKind::HumanoidViewpoint,
            origin: format!("Viewpoint directly in the humanoid's `viewpoints` field, fixed to the humanoid{role}"),
            follows_joint: None,
            inlined: false,
        });
    }
    views
}

/// The scene Viewpoints of the file itself (`inlined` false) or of its inlined files (`inlined` true).
fn scene_views(doc: &Document, inlined: bool) -> Vec<ViewEntry> {
    doc.viewpoints
        .iter()
        .enumerate()
        .filter(|(i, _)| doc.viewpoint_inlined(*i) == inlined)
        .map(|(i, (v, _))| {
            let role = hanim1_role(v).map(|r| format!(" [{r}]")).unwrap_or_default();
            let place =
                if inlined { "scene Viewpoint of an inlined file" } else { "scene Viewpoint outside the humanoid" };
            ViewEntry {
                label: label_of(v, &format!("Viewpoint {}", i + 1)),
                description: v.description.clone(),
                def: v.def.clone(),
                humanoid: None,
                source: ViewSource::File(i),
                kind: ViewKind::SceneViewpoint,
                origin: format!("{place}{role}"),
                follows_joint: None,
                inlined,
            }
        })
        .collect()
}

fn computed_views(doc: &Document, index: usize) -> Vec<ViewEntry> {
    let Some(h) = doc.humanoids.get(index) else { return Vec::new() };
    let head = head_joint(h);
    StandardView::ALL
        .into_iter()
        .filter(|s| *s != StandardView::Face || head.is_some())
        .map(|s| ViewEntry {
            label: s.label().to_string(),
            description: String::new(),
            def: None,
            humanoid: Some(index),
            source: ViewSource::Standard(s),
            kind: ViewKind::Computed,
            origin: if s == StandardView::Face {
                format!("computed: the face from the front, framing what moves with joint {}", joint_name(h, head))
            } else {
                format!("computed: {} view framing the figure's box at the current pose", s.name())
            },
            follows_joint: if s == StandardView::Face { head } else { None },
            inlined: false,
        })
        .collect()
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
    fn standard_view_names_round_trip() {
        for s in StandardView::ALL {
            assert_eq!(StandardView::from_name(s.name()), Some(s));
            assert_eq!(StandardView::from_name(&s.label().to_uppercase()), Some(s));
            assert!((s.direction().length() - 1.0).abs() < 1e-5);
        }
        assert_eq!(StandardView::from_name("back"), None);
        assert!(StandardView::Inclined.direction().abs_diff_eq(Vec3::ONE.normalize(), 1e-5));
    }

    #[test]
    fn hanim1_names_are_recognised_by_def_or_description() {
        let v = |def: Option<&str>, description: &str| Viewpoint {
            node: crate::x3d::NodeId(0),
            def: def.map(str::to_string),
            description: description.to_string(),
            position: Vec3::ZERO,
            orientation: Quat::IDENTITY,
            field_of_view: DEFAULT_FIELD_OF_VIEW,
            center_of_rotation: Vec3::ZERO,
        };
        assert_eq!(hanim1_role(&v(Some("hanim_LeftEyeView"), "")), Some("H-Anim 1.0 left eye view"));
        assert_eq!(hanim1_role(&v(None, "hanim_FaceView")), Some("H-Anim 1.0 face view"));
        assert_eq!(hanim1_role(&v(Some("FrontView"), "Front View")), Some("H-Anim 1.0 standard front view"));
        assert_eq!(hanim1_role(&v(Some("Scene_TopView"), "Top")), None);
    }

    #[test]
    fn rotations_are_written_as_x3d_does() {
        assert_eq!(x3d_rotation(Quat::IDENTITY), [0.0, 0.0, 1.0, 0.0]);
        let [x, y, z, a] = x3d_rotation(Quat::from_rotation_x(-FRAC_PI_2));
        assert!(Vec3::new(x, y, z).abs_diff_eq(-Vec3::X, 1e-5) && (a - FRAC_PI_2).abs() < 1e-5, "{x} {y} {z} {a}");
    }

    #[test]
    fn a_scaled_parent_moves_the_camera_without_scaling_it() {
        let m = Mat4::from_scale(Vec3::splat(0.175)) * Mat4::from_translation(Vec3::new(0.0, 0.0, 10.0));
        let p = ViewPlacement::rigid(m, 0.7);
        assert!(p.position().abs_diff_eq(Vec3::new(0.0, 0.0, 1.75), 1e-5));
        assert!(p.forward().abs_diff_eq(-Vec3::Z, 1e-5));
        let (scale, _, _) = p.world_from_camera.to_scale_rotation_translation();
        assert!(scale.abs_diff_eq(Vec3::ONE, 1e-5));
    }
}
