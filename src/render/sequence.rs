//! Rendering a clip over time: one camera framing the humanoids over all the frames asked for (so
//! travel shows and nothing leaves the picture), then each frame posed and drawn with one renderer.

use glam::Quat;

use super::{PoseRenderer, PosedRenderer, RenderError, RenderedImage, SceneRequest, ViewRequest, camera_for};
use crate::animation::{Animations, SampleOptions};
use crate::gpu::GpuContext;
use crate::hanim::Document;
use crate::pose::bounds::Aabb;
use crate::pose::{Pose, poses_for};
use crate::views::{self, DEFAULT_FIELD_OF_VIEW, framed_camera};

/// Renders the clip `args` names at each of `times`, with one camera framing all of them; calls
/// `each(i, image)` with each image; `each`'s error stops the run.
pub fn render_times<E: From<RenderError>>(
    ctx: &GpuContext,
    doc: &Document,
    animations: &Animations,
    options: &SampleOptions,
    request: &SceneRequest,
    times: &[f64],
    each: impl FnMut(usize, RenderedImage) -> Result<(), E>,
) -> Result<(), E> {
    let frames = sample_frames(doc, animations, options, request, times)?;
    // GPU resources are built once; each frame only uploads its pose.
    let mut renderer = PosedRenderer::new(ctx, doc, request, &frames[0])?;
    draw_frames(ctx, &mut renderer, doc, &frames, request, each)
}

/// As [`render_times`], drawn with `renderer` (its size and display choices, not `request`'s).
#[allow(clippy::too_many_arguments)]
pub fn render_times_with<E: From<RenderError>>(
    ctx: &GpuContext,
    renderer: &mut impl PoseRenderer,
    doc: &Document,
    animations: &Animations,
    options: &SampleOptions,
    request: &SceneRequest,
    times: &[f64],
    each: impl FnMut(usize, RenderedImage) -> Result<(), E>,
) -> Result<(), E> {
    let frames = sample_frames(doc, animations, options, request, times)?;
    draw_frames(ctx, renderer, doc, &frames, request, each)
}

/// Each time's poses: the request's (or the rest pose with its offsets), the clips sampled on top.
fn sample_frames(
    doc: &Document,
    animations: &Animations,
    options: &SampleOptions,
    request: &SceneRequest,
    times: &[f64],
) -> Result<Vec<Vec<Pose>>, RenderError> {
    if times.is_empty() {
        return Err(RenderError::Request("no frames to render".into()));
    }
    // The request's own poses (the window's, edits included), else the rest pose with its offsets.
    let base = match &request.poses {
        Some(poses) => poses.clone(),
        None => poses_for(doc, &request.joint_rotations, &request.displacer_weights)?,
    };
    // Each frame's poses, user offsets on top; the humanoid fields clips set travel in the poses.
    Ok(times
        .iter()
        .map(|&t| {
            let mut poses = base.clone();
            animations.apply(doc, t, options, &mut poses);
            poses
        })
        .collect())
}

/// Draws `frames` with one camera framing all of them.
fn draw_frames<E: From<RenderError>>(
    ctx: &GpuContext,
    renderer: &mut impl PoseRenderer,
    doc: &Document,
    frames: &[Vec<Pose>],
    request: &SceneRequest,
    mut each: impl FnMut(usize, RenderedImage) -> Result<(), E>,
) -> Result<(), E> {
    let (bounds, view) = framing_over(renderer, doc, frames.iter().map(Vec::as_slice), request)?;
    let aspect = request.size.width as f32 / request.size.height as f32;
    // One camera for every frame: a file Viewpoint is placed at the first frame's pose.
    let camera = match &view {
        ViewRequest::Camera(c) => *c,
        _ => camera_for(doc, &frames[0], &bounds, &view, aspect)?,
    };
    for (i, poses) in frames.iter().enumerate() {
        let image = renderer.render(ctx, doc, poses, &camera, &bounds)?;
        each(i, image)?;
    }
    Ok(())
}

/// What a run of frames is framed by: the box of the figures over every frame (so travel shows and nothing
/// leaves the picture), and the view asked for with the computed ones turned into that box's camera.
pub(super) fn framing_over<'p>(
    renderer: &impl PoseRenderer,
    doc: &Document,
    frames: impl Iterator<Item = &'p [Pose]>,
    request: &SceneRequest,
) -> Result<(Aabb, ViewRequest), RenderError> {
    let mut bounds = Aabb::default();
    for poses in frames {
        let b = renderer.framing_bounds(doc, poses)?;
        if !b.is_empty() {
            bounds.add(b.min);
            bounds.add(b.max);
        }
    }
    let aspect = request.size.width as f32 / request.size.height as f32;
    let view = match &request.view {
        ViewRequest::Auto => ViewRequest::Camera(framed_camera(&bounds, Quat::IDENTITY, DEFAULT_FIELD_OF_VIEW, aspect)),
        ViewRequest::Named(name) => match views::computed_view_named(doc, name) {
            Some(v) => ViewRequest::Camera(framed_camera(&bounds, v.orientation(), DEFAULT_FIELD_OF_VIEW, aspect)),
            None => request.view.clone(),
        },
        ViewRequest::Camera(c) => ViewRequest::Camera(*c),
    };
    Ok((bounds, view))
}
