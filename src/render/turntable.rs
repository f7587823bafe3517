//! A turntable: the figure at one pose seen from a camera that circles it once about the vertical axis
//! through the middle of its box, at a distance that never changes, so nothing leaves the picture at
//! any angle and the figure neither grows nor shrinks.

use glam::{Mat4, Quat, Vec3};

use super::{PoseRenderer, PosedRenderer, RenderError, RenderedImage, SceneRequest, ViewRequest};
use crate::gpu::GpuContext;
use crate::hanim::Document;
use crate::pose::bounds::Aabb;
use crate::pose::{Pose, poses_for};
use crate::views::{self, Camera, DEFAULT_FIELD_OF_VIEW, framed_camera};

/// `frames` cameras, evenly spaced over one turn, looking at `bounds` from the direction `orientation`
/// turned about +Y. The box is widened to the square that holds its footprint's circle, so every
/// camera frames what any turn of the figure covers.
pub fn turntable_cameras(bounds: &Aabb, orientation: Quat, frames: usize, aspect: f32) -> Vec<Camera> {
    let b = views::usable_box(bounds);
    let centre = b.center();
    let half = b.size() * 0.5;
    let radius = half.x.hypot(half.z);
    let cylinder =
        Aabb { min: centre - Vec3::new(radius, half.y, radius), max: centre + Vec3::new(radius, half.y, radius) };
    let first = framed_camera(&cylinder, orientation, DEFAULT_FIELD_OF_VIEW, aspect);
    (0..frames)
        .map(|i| {
            let angle = std::f32::consts::TAU * i as f32 / frames as f32;
            let turn = Mat4::from_translation(centre) * Mat4::from_rotation_y(angle) * Mat4::from_translation(-centre);
            Camera { world_from_camera: turn * first.world_from_camera, ..first }
        })
        .collect()
}

/// Renders `doc` at the pose `request` gives (its `poses`, else the rest pose with its joint rotations
/// and displacer weights) from each of `frames` turntable cameras; calls `each(i, image)` per image.
/// `request.view` picks the direction the turn starts from: the front (automatic) or a computed view
/// (`side`, `inclined`, …); a file Viewpoint has its own place and cannot turn.
pub fn render_turntable<E: From<RenderError>>(
    ctx: &GpuContext,
    doc: &Document,
    request: &SceneRequest,
    frames: usize,
    each: impl FnMut(usize, RenderedImage) -> Result<(), E>,
) -> Result<(), E> {
    let poses = request_poses(doc, request)?;
    let mut renderer = PosedRenderer::new(ctx, doc, request, &poses)?;
    render_turntable_with(ctx, &mut renderer, doc, request, frames, each)
}

/// As [`render_turntable`], drawn with `renderer` (its size and display choices).
pub fn render_turntable_with<E: From<RenderError>>(
    ctx: &GpuContext,
    renderer: &mut impl PoseRenderer,
    doc: &Document,
    request: &SceneRequest,
    frames: usize,
    mut each: impl FnMut(usize, RenderedImage) -> Result<(), E>,
) -> Result<(), E> {
    if frames == 0 {
        return Err(RenderError::Request("a turntable needs at least one frame".into()).into());
    }
    let poses = request_poses(doc, request)?;
    let orientation = match &request.view {
        ViewRequest::Auto => Quat::IDENTITY,
        ViewRequest::Named(name) => match views::computed_view_named(doc, name) {
            Some(view) => view.orientation(),
            None => {
                let message = format!(
                    "a turntable starts from a computed view (front, side, top, inclined), not '{name}': a file's \
                     Viewpoint stands where the author put it"
                );
                return Err(RenderError::Request(message).into());
            }
        },
        ViewRequest::Camera(camera) => Quat::from_mat4(&camera.world_from_camera),
    };
    let bounds = renderer.framing_bounds(doc, &poses)?;
    let aspect = request.size.width as f32 / request.size.height as f32;
    for (i, camera) in turntable_cameras(&bounds, orientation, frames, aspect).iter().enumerate() {
        let image = renderer.render(ctx, doc, &poses, camera, &bounds)?;
        each(i, image)?;
    }
    Ok(())
}

/// The request's poses, else the rest pose with its joint rotations and displacer weights.
fn request_poses(doc: &Document, request: &SceneRequest) -> Result<Vec<Pose>, RenderError> {
    match &request.poses {
        Some(poses) => Ok(poses.clone()),
        None => Ok(poses_for(doc, &request.joint_rotations, &request.displacer_weights)?),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turntable_cameras_circle_the_box_at_one_distance_looking_at_its_axis() {
        let bounds = Aabb { min: Vec3::new(-0.3, 0.0, -0.1), max: Vec3::new(0.5, 1.8, 0.2) };
        let centre = bounds.center();
        let cameras = turntable_cameras(&bounds, Quat::IDENTITY, 8, 1.0);
        assert_eq!(cameras.len(), 8);
        let distance = |c: &Camera| Vec3::new(c.position().x - centre.x, 0.0, c.position().z - centre.z).length();
        let first = distance(&cameras[0]);
        for (i, c) in cameras.iter().enumerate() {
            assert!((distance(c) - first).abs() < 1e-4, "camera {i} is at {} not {first}", distance(c));
            assert!((c.position().y - cameras[0].position().y).abs() < 1e-4);
            // Each looks horizontally at the vertical axis through the box centre.
            let to_axis = Vec3::new(centre.x - c.position().x, 0.0, centre.z - c.position().z).normalize();
            let forward = Vec3::new(c.forward().x, 0.0, c.forward().z).normalize();
            assert!(forward.dot(to_axis) > 0.9999, "camera {i} looks away from the axis");
        }
        // The first looks down -Z (the front view); a quarter turn later the camera is on +X.
        assert!(cameras[0].forward().z < -0.99);
        assert!(cameras[2].position().x > centre.x + 0.5 * first);
        // Every corner of the figure, turned by the camera's angle, projects inside the picture.
        for (i, c) in cameras.iter().enumerate() {
            for corner in views::corners_of(&bounds) {
                let (x, y) = c.project_to_pixel(corner, 100, 100).expect("in front of the camera");
                assert!((0.0..=100.0).contains(&x) && (0.0..=100.0).contains(&y), "camera {i}: corner at {x},{y}");
            }
        }
    }
}
