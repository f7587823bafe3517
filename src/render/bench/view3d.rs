//! The 3D view alone, as the window draws it, without a window: the window's target formats (no MSAA on a
//! CPU adapter), a clip sampled at each frame's time, the joint matrices uploaded, every humanoid skinned,
//! one scene pass with the window's overlay (grid and skeleton). `copies` places N copies of the file on a
//! grid, each at its own clip time; they are batched (one instanced [`SceneDraw`] holds as many copies as
//! the GPU's buffer limits allow: one skin dispatch per kernel and one draw per opaque part for all of
//! them) unless `batched` is off, which gives each copy its own draws, to compare. Frames are submitted
//! as the window does (one command buffer each, the next encoded while the GPU draws the last); a second
//! run submits the skin and scene passes apart and waits for each, which times them on adapters without
//! GPU timestamps.

use std::time::Instant;

use glam::{Mat4, Quat, Vec3};
use rayon::prelude::*;

use super::report::{BenchReport, DeformThroughput, StageSamples};
use crate::animation::{Animations, SampleOptions};
use crate::gpu::GpuContext;
use crate::gpu::lighting::Lighting;
use crate::gpu::overlay::{self, OverlayLines};
use crate::gpu::scene_draw::SceneDraw;
use crate::gpu::scene_renderer::{FrameInputs, SceneRenderer};
use crate::gpu::target::{RenderTarget, TargetFormats};
use crate::gpu::timing::{self, GpuTimer};
use crate::hanim::{Background, Document};
use crate::pose::Pose;
use crate::pose::bounds::Aabb;
use crate::pose::skin_inspection::OverlayMode;
use crate::render::{ImageSize, RenderError};
use crate::views;

/// What to measure.
#[derive(Debug, Clone)]
pub struct ViewBenchOptions {
    pub size: ImageSize,
    /// Measured frames (after `warmup` frames that are not).
    pub frames: u32,
    pub warmup: u32,
    /// The clip to play (name or DEF); `None`: the first the file enables, else its first clip.
    pub motion: Option<String>,
    /// Copies of the file, each at its own clip time.
    pub copies: usize,
    /// Copies drawn as instances of shared draws (the default), or each with its own draws.
    pub batched: bool,
    /// The 3D view's formats (the window's: see `app::viewport::ViewportTarget::formats_for`).
    pub formats: TargetFormats,
}

/// Seconds of clip time between frames (a 60 Hz display).
const FRAME_STEP: f64 = 1.0 / 60.0;

/// A file's copies drawn together, each at its own place and clip phase.
struct Copies {
    /// The draws: each holds the next `instances()` copies (all of them when batched and the GPU's
    /// limits allow; one each when not batched).
    scenes: Vec<SceneDraw>,
    /// Where each copy stands (world offset).
    offsets: Vec<Mat4>,
    /// Clip-time offset of each copy.
    phases: Vec<f64>,
}

impl Copies {
    #[allow(clippy::too_many_arguments)]
    fn build(
        ctx: &GpuContext,
        renderer: &SceneRenderer,
        doc: &Document,
        rest: &[Pose],
        count: usize,
        batched: bool,
        spacing: f32,
        duration: f64,
    ) -> Result<Self, RenderError> {
        let columns = (count as f64).sqrt().ceil().max(1.0) as usize;
        let mut out = Copies { scenes: Vec::new(), offsets: Vec::new(), phases: Vec::new() };
        for k in 0..count {
            let (column, row) = ((k % columns) as f32, (k / columns) as f32);
            let x = (column - (columns as f32 - 1.0) / 2.0) * spacing;
            out.offsets.push(Mat4::from_translation(Vec3::new(x, 0.0, -row * spacing)));
            out.phases.push(duration * k as f64 / count as f64);
        }
        let per_draw = if batched { SceneDraw::instances_that_fit(ctx, doc, count as u32)? as usize } else { 1 };
        let shapes: Vec<Option<Mat4>> = doc.other_shapes.iter().map(|&(_, world)| Some(world)).collect();
        for first in (0..count).step_by(per_draw) {
            let n = per_draw.min(count - first);
            let mut scene = if batched {
                SceneDraw::instanced(ctx, renderer.mesh_pipelines(), doc, rest, n as u32)?
            } else {
                // Each copy, and each humanoid the file repeats, in draws of its own.
                SceneDraw::unbatched(ctx, renderer.mesh_pipelines(), doc, rest)?
            };
            scene.place_scene_shape_instances(&ctx.queue, &shapes, &out.offsets[first..first + n]);
            out.scenes.push(scene);
        }
        Ok(out)
    }
}

/// Runs the benchmark on `doc` (read from `file`).
pub fn bench_view(
    ctx: &GpuContext,
    doc: &Document,
    file: &str,
    options: &ViewBenchOptions,
) -> Result<BenchReport, RenderError> {
    if doc.humanoids.is_empty() {
        return Err(RenderError::Request(format!("{file}: the file has no HAnimHumanoid to draw")));
    }
    let copies = options.copies.max(1);
    let (animations, clip) = choose_clip(doc, options.motion.as_deref())?;
    let sample = SampleOptions::default();
    let duration = clip.and_then(|c| animations.clips.get(c)).map_or(0.0, |c| c.duration(sample.interpolation));
    let rest: Vec<Pose> = doc.humanoids.iter().map(Pose::rest).collect();

    let mut renderer = SceneRenderer::new(ctx, options.formats)?;
    let ImageSize { width, height } = options.size;
    let target = RenderTarget::new(ctx, width, height, options.formats)?;
    let figure = figure_box(doc, &rest)?;
    let spacing = figure.size().x.max(figure.size().z).max(figure.size().y * 0.5).max(0.1) * 1.25;
    let mut copies_built = Copies::build(ctx, &renderer, doc, &rest, copies, options.batched, spacing, duration)?;
    let grid_box = grid_bounds(&figure, &copies_built.offsets);
    let aspect = width as f32 / height as f32;
    // Looking slightly down, so rows of copies behind the first show.
    let orientation = if copies > 1 { Quat::from_rotation_x(-0.35) } else { Quat::IDENTITY };
    let camera = views::framed_camera(&grid_box, orientation, views::DEFAULT_FIELD_OF_VIEW, aspect);
    let background = doc.settings.background.clone().unwrap_or_else(|| Background::uniform([0.0; 3]));
    let timer = GpuTimer::new(ctx, timing::MARK_SCENE_DRAWN + 1);

    let mut poses: Vec<Vec<Pose>> = vec![rest.clone(); copies];
    let mut samples = StageSamples::default();
    let total_frames = options.warmup + options.frames;
    let mut previous: Option<wgpu::SubmissionIndex> = None;
    let mut measured_start = Instant::now();
    for frame in 0..total_frames {
        if frame == options.warmup {
            wait(ctx, previous.take())?;
            measured_start = Instant::now();
        }
        let measured = frame >= options.warmup;
        let time = f64::from(frame) * FRAME_STEP;
        let t0 = Instant::now();
        // Each copy samples its clip on its own: a crowd does it on every core.
        let phases = &copies_built.phases;
        poses.par_iter_mut().with_min_len(8).enumerate().for_each(|(k, copy_poses)| {
            animations.apply(doc, time + phases[k], &sample, copy_poses);
        });
        let t1 = Instant::now();
        upload(ctx, doc, &mut copies_built, &poses);
        let t2 = Instant::now();
        let lines = overlay_for(doc, &poses[0], &figure);
        let draws: Vec<_> = copies_built.scenes.iter().flat_map(SceneDraw::draws).collect();
        let inputs = FrameInputs {
            camera: &camera,
            aspect,
            settings: Some(&doc.settings),
            lighting: Lighting::Standard,
            background: &background,
            draws: &draws,
            lines: &lines,
            overlay: OverlayMode::Off,
            timer: timer.as_ref(),
            transparent: false,
        };
        let mut encoder =
            ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("bench::frame") });
        if let Some(timer) = &timer {
            timer.mark(&mut encoder, timing::MARK_START);
        }
        for scene in &copies_built.scenes {
            SceneRenderer::encode_skin(&mut encoder, Some(scene), None);
        }
        if let Some(timer) = &timer {
            timer.mark(&mut encoder, timing::MARK_SKINNED);
        }
        renderer.encode_scene_pass(ctx, &mut encoder, target.views(), &inputs);
        if let Some(timer) = &timer
            && measured
        {
            timer.resolve(&mut encoder);
        }
        let t3 = Instant::now();
        let index = ctx.queue.submit([encoder.finish()]);
        let t4 = Instant::now();
        // One frame in flight: the next frame is sampled and encoded while this one is drawn.
        wait(ctx, previous.replace(index))?;
        let t5 = Instant::now();
        if measured {
            let ms = |a: Instant, b: Instant| (b - a).as_secs_f64() * 1e3;
            samples.add("sample clip", "cpu", ms(t0, t1));
            samples.add("upload joints", "cpu", ms(t1, t2));
            samples.add("encode", "cpu", ms(t2, t3));
            samples.add("submit", "cpu", ms(t3, t4));
            samples.add("wait for previous frame", "cpu", ms(t4, t5));
        }
    }
    wait(ctx, previous.take())?;
    let elapsed = measured_start.elapsed().as_secs_f64();
    // The last measured frame's GPU stages (read once; reading every frame would stall the pipeline).
    if let Some(stages) = timer.as_ref().and_then(|t| t.read_stages_ms(ctx)) {
        samples.add("skin/morph (GPU)", "gpu", stages[0]);
        samples.add("scene pass (GPU)", "gpu", stages[1]);
    }
    split_run(ctx, doc, &mut renderer, &target, &mut copies_built, &poses, &camera, &background, &mut samples)?;
    ctx.check_health()?;

    let frames = options.frames.max(1);
    let fps = f64::from(frames) / elapsed.max(1e-9);
    let skins = copies_built.scenes.iter().flat_map(|s| s.skins());
    let (skin_points, dispatches, deform_bytes) = skins.fold((0u64, 0u32, 0u64), |(p, d, b), s| {
        (p + u64::from(s.point_count) * u64::from(s.instances), d + s.dispatch_count(), b + s.bytes_per_frame())
    });
    let stages = samples.summarise();
    let trust_timestamps = timer.is_some() && ctx.adapter_info.device_type != wgpu::DeviceType::Cpu;
    let deform = DeformThroughput::from_stages(&stages, trust_timestamps, skin_points, deform_bytes);
    let draws: Vec<_> = copies_built.scenes.iter().flat_map(SceneDraw::draws).collect();
    Ok(BenchReport {
        mode: "3d-view".into(),
        file: file.to_string(),
        adapter: ctx.summary.to_string(),
        width,
        height,
        msaa: options.formats.sample_count,
        copies,
        batches: copies_built.scenes.iter().map(SceneDraw::batch_count).sum(),
        motion: clip.map(|c| animations.clips[c].name().to_string()),
        frames,
        triangles: copies_built.scenes.iter().map(|s| u64::from(s.triangles) * u64::from(s.instances())).sum(),
        skin_points,
        dispatches,
        draw_calls: draws.iter().map(|d| d.draw_calls()).sum::<u32>() + 1,
        fps,
        frame_ms: 1e3 / fps,
        gpu_timestamps: timer.is_some(),
        stages,
        deform,
    })
}

/// A few frames with the skin passes and the scene pass each submitted alone and waited for: their time
/// on the GPU measured by the CPU (the only clock an adapter without timestamps has).
#[allow(clippy::too_many_arguments)]
fn split_run(
    ctx: &GpuContext,
    doc: &Document,
    renderer: &mut SceneRenderer,
    target: &RenderTarget,
    copies: &mut Copies,
    poses: &[Vec<Pose>],
    camera: &views::Camera,
    background: &Background,
    samples: &mut StageSamples,
) -> Result<(), RenderError> {
    const SPLIT_FRAMES: u32 = 10;
    let aspect = target.width as f32 / target.height as f32;
    let figure = figure_box(doc, &poses[0])?;
    for _ in 0..SPLIT_FRAMES {
        upload(ctx, doc, copies, poses);
        wait(ctx, Some(ctx.queue.submit([])))?;
        let t0 = Instant::now();
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        // Skinned whether or not the pose changed: this times the pass itself.
        for scene in &copies.scenes {
            scene.encode_always(&mut encoder);
        }
        wait(ctx, Some(ctx.queue.submit([encoder.finish()])))?;
        let t1 = Instant::now();
        let lines = overlay_for(doc, &poses[0], &figure);
        let draws: Vec<_> = copies.scenes.iter().flat_map(SceneDraw::draws).collect();
        let inputs = FrameInputs {
            camera,
            aspect,
            settings: Some(&doc.settings),
            lighting: Lighting::Standard,
            background,
            draws: &draws,
            lines: &lines,
            overlay: OverlayMode::Off,
            timer: None,
            transparent: false,
        };
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        renderer.encode_scene_pass(ctx, &mut encoder, target.views(), &inputs);
        wait(ctx, Some(ctx.queue.submit([encoder.finish()])))?;
        let t2 = Instant::now();
        samples.add("skin/morph (alone)", "cpu+wait", (t1 - t0).as_secs_f64() * 1e3);
        samples.add("scene pass (alone)", "cpu+wait", (t2 - t1).as_secs_f64() * 1e3);
    }
    Ok(())
}

/// Writes every copy's joint matrices, displacer weights and placements (its offset before the pose's
/// own): per draw and humanoid, one write per buffer for all the copies it holds.
fn upload(ctx: &GpuContext, doc: &Document, copies: &mut Copies, poses: &[Vec<Pose>]) {
    let mut first = 0;
    for scene in &mut copies.scenes {
        let range = first..first + scene.instances() as usize;
        first = range.end;
        for (index, h) in doc.indexed_humanoids() {
            let held: Vec<&Pose> = poses[range.clone()].iter().map(|p| &p[index.0]).collect();
            let placed: Vec<Mat4> = held
                .iter()
                .zip(&copies.offsets[range.clone()])
                .map(|(pose, offset)| *offset * pose.world_from_humanoid(h))
                .collect();
            scene.update_humanoid_instances(&ctx.queue, index, h, &held, &placed);
        }
    }
}

/// Waits until `index` (if any) is done on the GPU.
fn wait(ctx: &GpuContext, index: Option<wgpu::SubmissionIndex>) -> Result<(), RenderError> {
    let Some(index) = index else { return Ok(()) };
    ctx.device
        .poll(wgpu::PollType::Wait { submission_index: Some(index), timeout: None })
        .map(|_| ())
        .map_err(|e| RenderError::Request(format!("waiting for the GPU: {e}")))
}

/// The window's overlay for the first copy: the ground grid and the skeleton of its first humanoid.
fn overlay_for(doc: &Document, poses: &[Pose], figure: &Aabb) -> OverlayLines {
    let mut lines = OverlayLines::default();
    overlay::push_grid(&mut lines.grid, figure);
    if let (Some(h), Some(pose)) = (doc.humanoids.first(), poses.first()) {
        let cross = views::usable_box(figure).size().max_element() * 0.012;
        overlay::push_skeleton(&mut lines.skeleton, h, pose, cross);
    }
    lines
}

/// The figures' box at `poses` (the scene's bounds should the humanoids draw nothing).
fn figure_box(doc: &Document, poses: &[Pose]) -> Result<Aabb, RenderError> {
    let mut bounds = Aabb::default();
    for ((index, _), pose) in doc.indexed_humanoids().zip(poses) {
        let b = views::figure_bounds(doc, index, pose)?;
        if !b.is_empty() {
            bounds.add(b.min);
            bounds.add(b.max);
        }
    }
    if bounds.is_empty() {
        bounds = crate::render::scene_bounds(doc, poses)?;
    }
    Ok(bounds)
}

/// `figure` at every copy's offset.
fn grid_bounds(figure: &Aabb, offsets: &[Mat4]) -> Aabb {
    let mut out = Aabb::default();
    if figure.is_empty() {
        return out;
    }
    for offset in offsets {
        out.add(offset.transform_point3(figure.min));
        out.add(offset.transform_point3(figure.max));
    }
    out
}

/// The clips of `doc` with the one to play enabled alone: `wanted`, else the first the file enables, else
/// the first playable one. Its index, `None` when the file has no clip.
fn choose_clip(doc: &Document, wanted: Option<&str>) -> Result<(Animations, Option<usize>), RenderError> {
    let mut animations = Animations::from_document(doc);
    let chosen = match wanted {
        Some(name) => Some(animations.find(name).ok_or_else(|| {
            let names: Vec<&str> = animations.clips.iter().map(|c| c.name()).collect();
            RenderError::Request(format!("no motion or clip named '{name}' (clips: {})", names.join(", ")))
        })?),
        None => animations
            .clips
            .iter()
            .position(|c| c.enabled && c.unsupported().is_none())
            .or_else(|| animations.clips.iter().position(|c| c.unsupported().is_none())),
    };
    if let Some(index) = chosen {
        animations.solo(index);
    }
    Ok((animations, chosen))
}
