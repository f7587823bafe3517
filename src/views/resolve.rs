//! Views by name and views resolved at a pose: what the `render --view`, `views` and `catalog` commands
//! ask for.

use glam::Mat4;

use super::placement::{field_of_view, viewpoint_matrix};
use super::{
    Camera, DEFAULT_FIELD_OF_VIEW, PoseContext, StandardView, ViewEntry, ViewError, ViewKind, ViewPlacement,
    ViewSource, document_views, figure_bounds, framed_camera, head_joint, placement, x3d_rotation,
};
use crate::hanim::Document;
use crate::hanim::HumanoidIndex;
use crate::pose::bounds::Aabb;
use crate::pose::{self, Pose};

/// The prefix that always names a computed view (`computed:front`), even where the file has a viewpoint
/// called `front`.
pub const COMPUTED_PREFIX: &str = "computed:";

/// The name of X3D's default viewpoint: position 0 0 10, no rotation, field of view π/4 (X3D 4.0 clause
/// 23.4.5, Viewpoint's field defaults) — what browsers show a file that has no Viewpoint.
pub const X3D_DEFAULT_VIEW: &str = "x3d-default";

/// The computed view `name` asks for, if it asks for one: `computed:KEYWORD` always; a bare keyword
/// (`front`, `side`, `top`, `inclined`, `face`, any case) only when no viewpoint of the file answers to
/// it by label, description or DEF — the file's own viewpoint wins (an author's "Front" view is what a
/// user typing `--view front` means, and the computed one stays reachable with the prefix).
pub fn computed_view_named(doc: &Document, name: &str) -> Option<StandardView> {
    if let Some(keyword) = name.trim().strip_prefix(COMPUTED_PREFIX) {
        return StandardView::from_name(keyword);
    }
    let standard = StandardView::from_name(name)?;
    let file_view = document_views(doc).iter().any(|v| v.kind != ViewKind::Computed && v.answers_to(name, false));
    (!file_view).then_some(standard)
}

/// The camera of the view called `name` for `doc` at `poses`: a computed view (front, side, top,
/// inclined framing the whole `bounds`; face framing the first humanoid with a head joint) when
/// [`computed_view_named`] says so, else any listed view by label, description or DEF (exact match
/// first, then ignoring case). An unknown name is an error listing the names and the close ones.
pub fn named_camera(
    doc: &Document,
    poses: &[Pose],
    bounds: &Aabb,
    name: &str,
    aspect: f32,
) -> Result<Camera, ViewError> {
    let matrices: Vec<Vec<Mat4>> =
        doc.humanoids.iter().zip(poses).map(|(h, p)| pose::humanoid_from_joint(h, p)).collect();
    let context = |humanoid: HumanoidIndex| PoseContext {
        doc,
        humanoid,
        humanoid_from_joint: matrices.get(humanoid.0).map_or(&[], Vec::as_slice),
        world_from_humanoid: match (doc.humanoid(humanoid), poses.get(humanoid.0)) {
            (Some(h), Some(p)) => p.world_from_humanoid(h),
            _ => Mat4::IDENTITY,
        },
        figure: bounds,
        aspect,
    };
    if name.trim().eq_ignore_ascii_case(X3D_DEFAULT_VIEW) {
        let world_from_camera = Mat4::from_translation(glam::Vec3::new(0.0, 0.0, 10.0));
        return Ok(super::camera_around(world_from_camera, DEFAULT_FIELD_OF_VIEW, bounds));
    }
    match computed_view_named(doc, name) {
        Some(StandardView::Face) => {
            let Some(h) = doc.humanoids.iter().position(|h| head_joint(h).is_some()) else {
                return Err(ViewError::Unknown("no face view: no humanoid has a skullbase (or head) joint".into()));
            };
            let placed = placement(&context(HumanoidIndex(h)), ViewSource::Standard(StandardView::Face));
            return placed
                .map(|p| p.camera(bounds))
                .ok_or_else(|| ViewError::Unknown(format!("no face view of humanoid {h}")));
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
        && let Some(p) = placement(&context(HumanoidIndex(entry.humanoid.unwrap_or(0))), entry.source)
    {
        return Ok(p.camera(bounds));
    }
    let mut names: Vec<&str> = StandardView::ALL.iter().map(|s| s.name()).collect();
    names.push(X3D_DEFAULT_VIEW);
    for v in &listed {
        names.push(&v.label);
        if let Some(def) = &v.def {
            names.push(def);
        }
    }
    let hint = crate::names::close_names_hint(name, names.iter().copied());
    Err(ViewError::Unknown(format!("no view named '{name}' (views: {}){hint}", names.join(", "))))
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
pub fn resolve_document_views(doc: &Document, poses: &[Pose], aspect: f32) -> Result<Vec<ResolvedView>, ViewError> {
    let mut contexts = Vec::new();
    for (i, h) in doc.humanoids.iter().enumerate() {
        let pose = poses.get(i).cloned().unwrap_or_else(|| Pose::rest(h));
        contexts.push((
            pose::humanoid_from_joint(h, &pose),
            pose.world_from_humanoid(h),
            figure_bounds(doc, HumanoidIndex(i), &pose)?,
        ));
    }
    let empty = (Vec::new(), Mat4::IDENTITY, Aabb::default());
    let mut out = Vec::new();
    for entry in document_views(doc) {
        let index = entry.humanoid.unwrap_or(0);
        let (g, world_from_humanoid, figure) = contexts.get(index).unwrap_or(&empty);
        let ctx = PoseContext {
            doc,
            humanoid: HumanoidIndex(index),
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
