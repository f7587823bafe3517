//! Where a view's camera is at a pose: site cameras and `*_view` sites that follow their joint, file
//! Viewpoints fixed to the humanoid or the scene, the computed views framing the figure, and the face view
//! that follows the head (semantics note §5).

use glam::{Mat4, Quat, Vec3};

use super::{
    Camera, DEFAULT_FIELD_OF_VIEW, StandardView, ViewError, ViewSource, camera_around, framed_camera, head_joint,
    site_joint,
};
use crate::hanim::HumanoidIndex;
use crate::hanim::{Document, HeldViewpoint, Viewpoint};
use crate::pose::bounds::{Aabb, BoxParts, part_bounds};
use crate::pose::{self, Pose};

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

pub(super) fn field_of_view(v: &Viewpoint) -> f32 {
    if v.field_of_view.is_finite() && v.field_of_view > 0.01 && v.field_of_view < 3.1 {
        v.field_of_view
    } else {
        DEFAULT_FIELD_OF_VIEW
    }
}

pub(super) fn viewpoint_matrix(v: &Viewpoint) -> Mat4 {
    Mat4::from_rotation_translation(v.orientation, v.position)
}

fn held_matrix(held: &HeldViewpoint) -> Mat4 {
    held.offset * viewpoint_matrix(&held.viewpoint)
}

/// What a view is evaluated against: one humanoid at one pose.
#[derive(Debug, Clone, Copy)]
pub struct PoseContext<'a> {
    pub doc: &'a Document,
    pub humanoid: HumanoidIndex,
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
    let h = doc.humanoid(ctx.humanoid)?;
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
    let h = ctx.doc.humanoid(ctx.humanoid)?;
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
        &BoxParts { joints: Some(&subtree), camera_sites: false, far_sites: false },
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
pub fn figure_bounds(doc: &Document, h: HumanoidIndex, pose: &Pose) -> Result<Aabb, ViewError> {
    let humanoid = doc.humanoid(h).ok_or_else(|| ViewError::Unknown(format!("no humanoid {}", h.0)))?;
    let g = pose::humanoid_from_joint(humanoid, pose);
    let b = part_bounds(&doc.scene, humanoid, &g, pose.world_from_humanoid(humanoid), Some(pose), &BoxParts::FIGURE)?;
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
