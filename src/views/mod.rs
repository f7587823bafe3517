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

use std::f32::consts::{FRAC_PI_2, FRAC_PI_4};

use glam::{Mat4, Quat, Vec3};

pub use framing::{
    DEFAULT_FIELD_OF_VIEW, FRAME_MARGIN, camera_around, corners_of, frame_points, framed_camera, usable_box,
};

use crate::hanim::{Document, HeldViewpoint, Humanoid, Site, SiteParent, Viewpoint};
use crate::pose::bounds::{Aabb, Parts, part_bounds};
use crate::pose::{self, Pose};
pub use camera::Camera;

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
}

impl ViewEntry {
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

/// The joint a site moves with, or `None` when it is fixed to the humanoid: sites listed in
/// `viewpoints` are evaluated with the humanoid transform only, even when they also sit in the
/// skeleton (§5 decision).
pub fn site_joint(h: &Humanoid, site: &Site) -> Option<usize> {
    if site.in_viewpoints {
        return None;
    }
    match site.parent {
        SiteParent::Segment(s) => h.segments.get(s).and_then(|seg| seg.joint),
        SiteParent::Joint(j) => Some(j),
        SiteParent::Humanoid => None,
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
/// Viewpoints, `viewpoints`-field Viewpoints, scene Viewpoints (shared by every humanoid), computed views.
pub fn humanoid_views(doc: &Document, index: usize) -> Vec<ViewEntry> {
    let mut views = own_views(doc, index);
    views.extend(scene_views(doc));
    views.extend(computed_views(doc, index));
    views
}

/// Every view of the document, each once: per humanoid its own views, then the scene Viewpoints, then
/// the computed views of each humanoid.
pub fn document_views(doc: &Document) -> Vec<ViewEntry> {
    let mut views: Vec<ViewEntry> = (0..doc.humanoids.len()).flat_map(|h| own_views(doc, h)).collect();
    views.extend(scene_views(doc));
    views.extend((0..doc.humanoids.len()).flat_map(|h| computed_views(doc, h)));
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
        });
    }
    views
}

fn scene_views(doc: &Document) -> Vec<ViewEntry> {
    doc.viewpoints
        .iter()
        .enumerate()
        .map(|(i, (v, _))| {
            let role = hanim1_role(v).map(|r| format!(" [{r}]")).unwrap_or_default();
            ViewEntry {
                label: label_of(v, &format!("Viewpoint {}", i + 1)),
                description: v.description.clone(),
                def: v.def.clone(),
                humanoid: None,
                source: ViewSource::File(i),
                kind: ViewKind::SceneViewpoint,
                origin: format!("scene Viewpoint outside the humanoid{role}"),
                follows_joint: None,
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
        })
        .collect()
}

/// A camera placement: rigid world matrix (looking down −Z, +Y up) and field of view.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ViewPlacement {
    pub world_from_camera: Mat4,
    pub field_of_view: f32,
}

impl ViewPlacement {
    /// Removes any scale a file's transforms put on the camera: a Viewpoint under a scaled Transform
    /// is moved by the scale, but its view is not distorted (X3D §23 Viewpoint).
    pub fn rigid(world_from_viewpoint: Mat4, field_of_view: f32) -> Self {
        let (_, rotation, translation) = world_from_viewpoint.to_scale_rotation_translation();
        let rotation =
            if rotation.is_finite() && rotation.length() > 0.5 { rotation.normalize() } else { Quat::IDENTITY };
        Self { world_from_camera: Mat4::from_rotation_translation(rotation, translation), field_of_view }
    }

    pub fn position(&self) -> Vec3 {
        self.world_from_camera.transform_point3(Vec3::ZERO)
    }

    pub fn orientation(&self) -> Quat {
        self.world_from_camera.to_scale_rotation_translation().1
    }

    /// Unit view direction (the camera's −Z in world space).
    pub fn forward(&self) -> Vec3 {
        self.world_from_camera.transform_vector3(-Vec3::Z).normalize_or_zero()
    }

    /// The render camera, near and far chosen around `bounds`.
    pub fn camera(&self, bounds: &Aabb) -> Camera {
        camera_around(self.world_from_camera, self.field_of_view, bounds)
    }
}

fn field_of_view(v: &Viewpoint) -> f32 {
    if v.field_of_view.is_finite() && v.field_of_view > 0.01 && v.field_of_view < 3.1 {
        v.field_of_view
    } else {
        DEFAULT_FIELD_OF_VIEW
    }
}

fn viewpoint_matrix(v: &Viewpoint) -> Mat4 {
    Mat4::from_rotation_translation(v.orientation, v.position)
}

fn held_matrix(held: &HeldViewpoint) -> Mat4 {
    held.offset * viewpoint_matrix(&held.viewpoint)
}

/// What a view is evaluated against: one humanoid at one pose.
#[derive(Debug, Clone, Copy)]
pub struct PoseContext<'a> {
    pub doc: &'a Document,
    pub humanoid: usize,
    /// `G_j` at the pose ([`pose::humanoid_from_joint`]).
    pub humanoid_from_joint: &'a [Mat4],
    /// `H` at the pose ([`Pose::world_from_humanoid`]).
    pub world_from_humanoid: Mat4,
    /// The box the body views frame (world space, at the pose).
    pub figure: &'a Aabb,
    /// Image width / height; the computed views frame for it.
    pub aspect: f32,
}

/// Where `source`'s camera is at the context's pose, or `None` for an index that does not exist or a
/// face view of a humanoid without a head joint.
pub fn placement(ctx: &PoseContext, source: ViewSource) -> Option<ViewPlacement> {
    let doc = ctx.doc;
    let h = doc.humanoids.get(ctx.humanoid)?;
    let g = ctx.humanoid_from_joint;
    let world_from_humanoid = ctx.world_from_humanoid;
    let joint_matrix = |j: Option<usize>| j.and_then(|j| g.get(j)).copied().unwrap_or(Mat4::IDENTITY);
    match source {
        ViewSource::Site { site, camera } => {
            let s = h.sites.get(site)?;
            let held = s.cameras.get(camera)?;
            let m = world_from_humanoid
                * joint_matrix(site_joint(h, s))
                * s.offset
                * s.transform.matrix()
                * held_matrix(held);
            Some(ViewPlacement::rigid(m, field_of_view(&held.viewpoint)))
        }
        ViewSource::SiteOrigin(site) => {
            let s = h.sites.get(site)?;
            let m = world_from_humanoid * joint_matrix(site_joint(h, s)) * s.offset * s.transform.matrix();
            Some(ViewPlacement::rigid(m, DEFAULT_FIELD_OF_VIEW))
        }
        ViewSource::Joint(i) => {
            let jv = h.joint_viewpoints.get(i)?;
            let m = world_from_humanoid * joint_matrix(jv.joint) * held_matrix(&jv.held);
            Some(ViewPlacement::rigid(m, field_of_view(&jv.held.viewpoint)))
        }
        ViewSource::Humanoid(i) => {
            let held = h.viewpoints.get(i)?;
            Some(ViewPlacement::rigid(world_from_humanoid * held_matrix(held), field_of_view(&held.viewpoint)))
        }
        ViewSource::File(i) => {
            let (v, world) = doc.viewpoints.get(i)?;
            Some(ViewPlacement::rigid(*world * viewpoint_matrix(v), field_of_view(v)))
        }
        ViewSource::Standard(StandardView::Face) => face_placement(ctx),
        ViewSource::Standard(s) => {
            // Standard directions are the humanoid's (a humanoid rotated in the scene is still seen from
            // its front), so the box is framed in the humanoid's orientation.
            let turn = rotation_of(world_from_humanoid);
            let camera = framed_camera(ctx.figure, turn * s.orientation(), DEFAULT_FIELD_OF_VIEW, ctx.aspect);
            Some(ViewPlacement { world_from_camera: camera.world_from_camera, field_of_view: DEFAULT_FIELD_OF_VIEW })
        }
    }
}

fn rotation_of(m: Mat4) -> Quat {
    let (_, r, _) = m.to_scale_rotation_translation();
    if r.is_finite() && r.length() > 0.5 { r.normalize() } else { Quat::IDENTITY }
}

/// The face view: looks at the head from the front of the face, framing what moves with the head joint
/// (its subtree's skin, segments and sites). The direction follows the head: the humanoid's front
/// turned by the head's rotation relative to its rest pose, so a turned head is still seen face on.
fn face_placement(ctx: &PoseContext) -> Option<ViewPlacement> {
    let h = ctx.doc.humanoids.get(ctx.humanoid)?;
    let head = head_joint(h)?;
    let g = ctx.humanoid_from_joint;
    let mut subtree = vec![false; h.joints.len()];
    for (j, joint) in h.joints.iter().enumerate() {
        // Parents come before children in the model.
        subtree[j] = j == head || joint.parent.is_some_and(|p| p < j && subtree[p]);
    }
    let head_box = part_bounds(
        &ctx.doc.scene,
        h,
        g,
        ctx.world_from_humanoid,
        None,
        &Parts { joints: Some(&subtree), camera_sites: false },
    )
    .ok()?;
    let rest = pose::humanoid_from_joint(h, &Pose::rest(h));
    let turn_from_rest = rotation_of(*g.get(head)? * rest.get(head)?.inverse());
    let orientation = rotation_of(ctx.world_from_humanoid) * turn_from_rest;
    // A head with little geometry of its own (a skeleton drawn as diamonds, a joint centre only) still
    // gets a face-sized frame: at least a tenth of the figure's height around the head's centre.
    let figure_height = ctx.figure.size().max_element();
    let minimum = (figure_height * 0.1).max(0.05);
    let centre = if head_box.is_empty() {
        (ctx.world_from_humanoid * *g.get(head)?).transform_point3(h.joints[head].rest.center)
    } else {
        head_box.center()
    };
    let mut framed = if head_box.is_empty() { Aabb::default() } else { head_box };
    framed.add(centre - Vec3::splat(minimum * 0.5));
    framed.add(centre + Vec3::splat(minimum * 0.5));
    let camera = framed_camera(&framed, orientation, DEFAULT_FIELD_OF_VIEW, ctx.aspect);
    Some(ViewPlacement { world_from_camera: camera.world_from_camera, field_of_view: DEFAULT_FIELD_OF_VIEW })
}

/// The figure box (world space) of humanoid `h` at `pose`, displacers included: everything but the
/// markers of camera sites in `viewpoints`, which often stand metres away.
pub fn figure_bounds(doc: &Document, h: usize, pose: &Pose) -> anyhow::Result<Aabb> {
    let humanoid = doc.humanoids.get(h).ok_or_else(|| anyhow::anyhow!("no humanoid {h}"))?;
    let g = pose::humanoid_from_joint(humanoid, pose);
    let b = part_bounds(&doc.scene, humanoid, &g, pose.world_from_humanoid(humanoid), Some(pose), &Parts::FIGURE)?;
    Ok(b)
}

/// `q` as X3D writes a rotation: unit axis and an angle in [0, π]; `0 0 1 0` for none.
pub fn x3d_rotation(q: Quat) -> [f32; 4] {
    let (axis, angle) = q.normalize().to_axis_angle();
    let angle = angle.rem_euclid(std::f32::consts::TAU);
    if angle < 1e-6 || !axis.is_finite() {
        return [0.0, 0.0, 1.0, 0.0];
    }
    let (axis, angle) =
        if angle > std::f32::consts::PI { (-axis, std::f32::consts::TAU - angle) } else { (axis, angle) };
    [axis.x, axis.y, axis.z, angle]
}

/// The camera of the view called `name` for `doc` at `poses`: a computed view (front, side, top,
/// inclined framing the whole `bounds`; face framing the first humanoid with a head joint), else any
/// listed view by label, description or DEF (exact match first, then ignoring case). An unknown name is
/// an error listing the names and the close ones.
pub fn named_camera(doc: &Document, poses: &[Pose], bounds: &Aabb, name: &str, aspect: f32) -> anyhow::Result<Camera> {
    let matrices: Vec<Vec<Mat4>> =
        doc.humanoids.iter().zip(poses).map(|(h, p)| pose::humanoid_from_joint(h, p)).collect();
    let context = |humanoid: usize| PoseContext {
        doc,
        humanoid,
        humanoid_from_joint: matrices.get(humanoid).map_or(&[], Vec::as_slice),
        world_from_humanoid: match (doc.humanoids.get(humanoid), poses.get(humanoid)) {
            (Some(h), Some(p)) => p.world_from_humanoid(h),
            _ => Mat4::IDENTITY,
        },
        figure: bounds,
        aspect,
    };
    match StandardView::from_name(name) {
        Some(StandardView::Face) => {
            let Some(h) = doc.humanoids.iter().position(|h| head_joint(h).is_some()) else {
                anyhow::bail!("no face view: no humanoid has a skullbase (or head) joint");
            };
            let placed = placement(&context(h), ViewSource::Standard(StandardView::Face));
            return placed.map(|p| p.camera(bounds)).ok_or_else(|| anyhow::anyhow!("no face view of humanoid {h}"));
        }
        Some(standard) => {
            // The whole scene framed along the standard direction.
            return Ok(framed_camera(bounds, standard.orientation(), DEFAULT_FIELD_OF_VIEW, aspect));
        }
        None => {}
    }
    let listed: Vec<ViewEntry> = document_views(doc).into_iter().filter(|v| v.kind != ViewKind::Computed).collect();
    let found =
        listed.iter().find(|v| v.answers_to(name, true)).or_else(|| listed.iter().find(|v| v.answers_to(name, false)));
    if let Some(entry) = found
        && let Some(p) = placement(&context(entry.humanoid.unwrap_or(0)), entry.source)
    {
        return Ok(p.camera(bounds));
    }
    let mut names: Vec<&str> = StandardView::ALL.iter().map(|s| s.name()).collect();
    for v in &listed {
        names.push(&v.label);
        if let Some(def) = &v.def {
            names.push(def);
        }
    }
    let hint = crate::names::close_names_hint(name, names.iter().copied());
    Err(anyhow::anyhow!("no view named '{name}' (views: {}){hint}", names.join(", ")))
}

/// A view resolved at a pose: what `views` prints.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ResolvedView {
    pub label: String,
    pub description: String,
    pub def: Option<String>,
    /// The humanoid's name (`None`: a scene Viewpoint).
    pub humanoid: Option<String>,
    pub kind: ViewKind,
    pub origin: String,
    /// The joint the camera follows.
    pub follows_joint: Option<String>,
    /// World position.
    pub position: [f32; 3],
    /// World orientation as X3D's axis-angle `x y z angle` (radians).
    pub orientation: [f32; 4],
    /// Unit view direction in world space.
    pub direction: [f32; 3],
    /// Radians.
    pub field_of_view: f32,
}

/// Every view of `doc` at `poses` (one per humanoid), for images of `aspect`; views that cannot be
/// placed (none today) are left out. Scene Viewpoints are evaluated once.
pub fn resolve_document_views(doc: &Document, poses: &[Pose], aspect: f32) -> anyhow::Result<Vec<ResolvedView>> {
    let mut contexts = Vec::new();
    for (i, h) in doc.humanoids.iter().enumerate() {
        let pose = poses.get(i).cloned().unwrap_or_else(|| Pose::rest(h));
        contexts.push((
            pose::humanoid_from_joint(h, &pose),
            pose.world_from_humanoid(h),
            figure_bounds(doc, i, &pose)?,
        ));
    }
    let empty = (Vec::new(), Mat4::IDENTITY, Aabb::default());
    let mut out = Vec::new();
    for entry in document_views(doc) {
        let index = entry.humanoid.unwrap_or(0);
        let (g, world_from_humanoid, figure) = contexts.get(index).unwrap_or(&empty);
        let ctx = PoseContext {
            doc,
            humanoid: index,
            humanoid_from_joint: g,
            world_from_humanoid: *world_from_humanoid,
            figure,
            aspect,
        };
        let placed = match entry.source {
            // Scene Viewpoints do not depend on a humanoid.
            ViewSource::File(i) => doc
                .viewpoints
                .get(i)
                .map(|(v, world)| ViewPlacement::rigid(*world * viewpoint_matrix(v), field_of_view(v))),
            source => placement(&ctx, source),
        };
        let Some(p) = placed else { continue };
        let [ax, ay, az, angle] = x3d_rotation(p.orientation());
        let h = entry.humanoid.and_then(|i| doc.humanoids.get(i));
        out.push(ResolvedView {
            label: entry.label,
            description: entry.description,
            def: entry.def,
            humanoid: h.map(|h| h.name.clone()),
            kind: entry.kind,
            origin: entry.origin,
            follows_joint: h.and_then(|h| entry.follows_joint.and_then(|j| h.joints.get(j)).map(|j| j.name.clone())),
            position: p.position().to_array(),
            orientation: [ax, ay, az, angle],
            direction: p.forward().to_array(),
            field_of_view: p.field_of_view,
        });
    }
    Ok(out)
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
