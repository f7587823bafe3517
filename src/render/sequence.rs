//! `render --motion`: one frame of a clip (`--frame N` / `--time T`, `--out f.png`), or a numbered PNG
//! sequence (`--every K --out-dir DIR`) for catalogues and GIFs. Every image of a sequence uses one camera
//! framing the humanoids over all its frames, so travel shows and nothing leaves the picture.

use std::path::PathBuf;

use anyhow::{Context, Result, anyhow, bail};
use glam::Quat;

use super::pose_command::resolve_time;
use super::{Animations, ClipSource, Interpolation, SampleOptions, with_overrides};
use crate::gpu::GpuContext;
use crate::hanim::Document;
use crate::headless::{self, RenderArgs, SceneRequest, ViewRequest, poses_for, write_png_atomically};
use crate::pose::Pose;
use crate::pose::bounds::Aabb;
use crate::views::{DEFAULT_FIELD_OF_VIEW, StandardView, framed_camera};

/// Frames per second of a sequence rendered from an interpolator clip (`--every K` steps K/30 s).
pub const INTERPOLATOR_SEQUENCE_FPS: f64 = 30.0;

/// The motion options of `render`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct MotionRenderArgs {
    /// Pose the humanoids with this HAnimMotion (name or DEF) or interpolator clip (TimeSensor DEF),
    /// playing alone.
    #[arg(long, value_name = "NAME", group = "clip")]
    pub motion: Option<String>,
    /// The HAnimMotion frame to render.
    #[arg(long, requires = "clip", conflicts_with_all = ["time", "every"])]
    pub frame: Option<usize>,
    /// The playback time to render, in seconds from the clip's start.
    #[arg(long, requires = "clip", conflicts_with = "every")]
    pub time: Option<f64>,
    /// Render every K-th frame of the motion (an interpolator clip: every K/30 s) into --out-dir.
    #[arg(long, value_name = "K", requires_all = ["clip", "out_dir"], value_parser = clap::value_parser!(u32).range(1..))]
    pub every: Option<u32>,
    /// Folder for the numbered sequence `frame_00000.png`, `frame_00001.png`, ... (created if missing).
    #[arg(long, value_name = "DIR", requires = "every")]
    pub out_dir: Option<PathBuf>,
    #[command(flatten)]
    pub playback: super::pose_command::PlaybackArgs,
    /// A motion capture to retarget onto the humanoid and render instead of --motion.
    #[command(flatten)]
    pub capture: crate::mocap::cli::RenderCaptureArgs,
}

/// Playback times of a sequence: every `every`-th frame of an HAnimMotion in playing order (the first
/// frame for `frameIncrement > 0`, the last for `< 0`), or every `every/30` s of an interpolator clip,
/// over one pass.
pub fn sequence_times(animations: &Animations, clip: usize, every: u32, mode: Interpolation) -> Vec<f64> {
    let clip = &animations.clips[clip];
    match &clip.source {
        ClipSource::Motion { motion, .. } => {
            let frames: Vec<usize> = if motion.frame_increment < 0 {
                (motion.first_frame..=motion.last_frame).rev().step_by(every as usize).collect()
            } else {
                (motion.first_frame..=motion.last_frame).step_by(every as usize).collect()
            };
            frames.into_iter().map(|f| motion.time_of_frame(f as f64)).collect()
        }
        ClipSource::Interpolators(_) => {
            let step = f64::from(every) / INTERPOLATOR_SEQUENCE_FPS;
            let count = (clip.duration(mode) / step).floor() as usize + 1;
            (0..count).map(|i| i as f64 * step).collect()
        }
    }
}

/// The document (with any humanoid fields clips set) and poses at `tau`, user offsets on top.
fn posed(
    doc: &Document,
    animations: &Animations,
    tau: f64,
    options: &SampleOptions,
    base: &[Pose],
) -> (Option<Document>, Vec<Pose>) {
    let mut poses = base.to_vec();
    let overrides = animations.apply(doc, tau, options, &mut poses);
    (with_overrides(doc, &overrides), poses)
}

/// Renders the clip `args` names at each of `times`, with one camera framing all of them; calls
/// `written(i)` after each image. Returns the images.
pub fn render_times(
    ctx: &GpuContext,
    doc: &Document,
    animations: &Animations,
    options: &SampleOptions,
    request: &SceneRequest,
    times: &[f64],
    mut each: impl FnMut(usize, headless::RenderedImage) -> Result<()>,
) -> Result<()> {
    if times.is_empty() {
        bail!("no frames to render");
    }
    let base = poses_for(doc, &request.joint_rotations, &request.displacer_weights)?;
    let frames: Vec<(Option<Document>, Vec<Pose>)> =
        times.iter().map(|&t| posed(doc, animations, t, options, &base)).collect();
    // GPU resources are built once; each frame only uploads its pose.
    let mut renderer = headless::PosedRenderer::new(ctx, doc, request, &frames[0].1)?;
    let mut bounds = Aabb::default();
    for (copy, poses) in &frames {
        let b = renderer.framing_bounds(copy.as_ref().unwrap_or(doc), poses)?;
        if !b.is_empty() {
            bounds.add(b.min);
            bounds.add(b.max);
        }
    }
    let aspect = request.size.width as f32 / request.size.height as f32;
    let view = match &request.view {
        ViewRequest::Auto => ViewRequest::Camera(framed_camera(&bounds, Quat::IDENTITY, DEFAULT_FIELD_OF_VIEW, aspect)),
        ViewRequest::Named(name) => match StandardView::from_name(name) {
            Some(v) => ViewRequest::Camera(framed_camera(&bounds, v.orientation(), DEFAULT_FIELD_OF_VIEW, aspect)),
            None => request.view.clone(),
        },
        ViewRequest::Camera(c) => ViewRequest::Camera(*c),
    };
    // One camera for every frame: a file Viewpoint is placed at the first frame's pose.
    let camera = match &view {
        ViewRequest::Camera(c) => *c,
        _ => {
            let (copy, poses) = &frames[0];
            headless::camera_for(copy.as_ref().unwrap_or(doc), poses, &bounds, &view, aspect)?
        }
    };
    for (i, (copy, poses)) in frames.iter().enumerate() {
        let image = renderer.render(ctx, copy.as_ref().unwrap_or(doc), poses, &camera, &bounds)?;
        each(i, image)?;
    }
    Ok(())
}

/// `render --motion ...`.
pub fn run(ctx: &GpuContext, doc: &Document, args: &RenderArgs) -> Result<()> {
    let m = &args.motion;
    let name = m.motion.as_deref().ok_or_else(|| anyhow!("--motion is required"))?;
    let options = m.playback.options();
    let mut animations = Animations::from_document(doc);
    for w in &animations.warnings {
        log::info!("{w}");
    }
    let (index, tau) = resolve_time(&animations, name, m.frame, m.time)?;
    animations.solo(index);
    if m.frame.is_some() || m.every.is_some() {
        // Frames are rendered over one pass: the last frame's time shows the last frame, where a looping
        // clip would already have wrapped to the first.
        animations.clips[index].looping = false;
    }
    let request = SceneRequest::from_args(args);
    match (m.every, &m.out_dir, &args.out) {
        (Some(every), Some(dir), _) => {
            let times = sequence_times(&animations, index, every, options.interpolation);
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
            let bar = indicatif::ProgressBar::new(times.len() as u64);
            bar.set_style(
                indicatif::ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} frames, {eta} left")
                    .map_err(|e| anyhow!("{e}"))?
                    .progress_chars("=> "),
            );
            bar.set_message(format!("rendering '{name}'"));
            render_times(ctx, doc, &animations, &options, &request, &times, |i, image| {
                let path = dir.join(format!("frame_{i:05}.png"));
                write_png_atomically(&path, image.width, image.height, &image.rgba)?;
                bar.inc(1);
                Ok(())
            })?;
            bar.finish_with_message(format!("rendered '{name}'"));
            log::info!("wrote {} frames to {}", times.len(), dir.display());
            Ok(())
        }
        (None, _, Some(out)) => {
            render_times(ctx, doc, &animations, &options, &request, &[tau], |_, image| {
                write_png_atomically(out, image.width, image.height, &image.rgba)
            })?;
            log::info!("wrote {}", out.display());
            Ok(())
        }
        _ => bail!("--motion needs --out (with --frame or --time) or --every K --out-dir DIR"),
    }
}
