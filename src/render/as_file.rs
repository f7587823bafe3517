//! Rendering "as the file says": the whole scene at scene time `t`, every enabled sensor and motion
//! running at once ([`FilePlayback`]); the scene's Shapes and Viewpoints placed where the event cascade
//! moved them, their materials and texture transforms, and their vertices (Coordinate, Normal, Color,
//! TextureCoordinate), as the events set them.

use super::{PoseRenderer, PosedRenderer, RenderError, RenderedImage, SceneRequest, camera_for};
use crate::animation::SampleOptions;
use crate::animation::events::{FilePlayback, ViewerPose, place_scene_seen_from};
use crate::gpu::GpuContext;
use crate::hanim::Document;
use crate::pose::{Pose, poses_for};

/// Renders `doc` as the file plays at each of `times` (seconds of scene time); calls `each(i, image)`
/// with each image. The computed views frame all the frames at once; a file Viewpoint is placed at each
/// frame's time (one a Transform carries moves with it).
pub fn render_as_file<E: From<RenderError>>(
    ctx: &GpuContext,
    doc: &Document,
    request: &SceneRequest,
    options: &SampleOptions,
    times: &[f64],
    mut each: impl FnMut(usize, RenderedImage) -> Result<(), E>,
) -> Result<(), E> {
    if times.is_empty() {
        return Err(RenderError::Request("no times to render".into()).into());
    }
    let playback = FilePlayback::new(doc);
    for w in playback.warnings() {
        log::info!("{w}");
    }
    let base = poses_for(doc, &request.joint_rotations, &request.displacer_weights).map_err(RenderError::from)?;
    let mut frames = Vec::with_capacity(times.len());
    for &t in times {
        let mut poses: Vec<Pose> = base.clone();
        let overrides = playback.apply(doc, t, options, &mut poses);
        let placed = FilePlayback::placements(doc, &overrides).map_err(RenderError::Placement)?;
        frames.push((poses, placed, overrides));
    }
    let mut renderer = PosedRenderer::new(ctx, doc, request, &frames[0].0)?;
    let (bounds, view) =
        super::sequence::framing_over(&renderer, doc, frames.iter().map(|(p, ..)| p.as_slice()), request)?;
    let aspect = request.size.width as f32 / request.size.height as f32;
    // The document with its viewpoints where each frame's events put them.
    let mut at_time = doc.clone();
    for (i, (poses, placed, overrides)) in frames.into_iter().enumerate() {
        at_time.viewpoints = placed.viewpoints;
        let mut camera = camera_for(&at_time, &poses, &bounds, &view, aspect)?;
        // What follows the viewer (a ProximitySensor's HUD) may sit centimetres in front of it; the
        // offscreen render keeps the near plane there too, but the events must see the same camera.
        camera.near = camera.near.min(doc.settings.near_clip_distance());
        // ProximitySensors (clause 22.4.1) and Billboards (clause 10.4.1) see this picture's camera,
        // known only now: the scene's Shapes placed again with the viewer there (what follows the viewer
        // is a HUD or a label, not the framing).
        let (_, orientation, position) = camera.world_from_camera.to_scale_rotation_translation();
        let viewer = Some(ViewerPose { position, orientation });
        let overrides = if playback.events.proximity.is_empty() {
            overrides
        } else {
            playback.events.evaluate_seen_from(times[i], viewer)
        };
        let shapes = place_scene_seen_from(doc, &overrides, viewer).map_err(RenderError::Placement)?.shapes;
        renderer.place_scene_shapes(ctx, &shapes);
        renderer.apply_appearance(ctx, doc, &overrides);
        renderer.apply_geometry(ctx, doc, &overrides);
        let image = renderer.render(ctx, &at_time, &poses, &camera, &bounds)?;
        each(i, image)?;
    }
    Ok(())
}
