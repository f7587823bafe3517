//! `hanim-viewer render`: load a file, pose its humanoids (joint offsets, displacer weights, a frame of a
//! clip or of a retargeted capture), render offscreen and write a PNG atomically — one image, or a
//! numbered sequence with one camera for every frame, or an animation (a clip, a capture or a turntable)
//! written frame by frame into a GIF, APNG, WebP, MP4 or WebM.

use std::path::PathBuf;

use anyhow::{Context, Result, anyhow, bail};

use super::animation_out::{AnimationOptions, AnimationOutput, DEFAULT_MAX_FPS, clip_rate, clip_times};
use super::args::{
    CaptureArgs, PlayAsFileArgs, PlaybackArgs, PoseFileArgs, ReachArgs, parse_displacer_weight, parse_joint_rotation,
    parse_lighting, parse_size,
};
use crate::animation::Animations;
use crate::gpu::GpuContext;
use crate::gpu::lighting::Lighting;
use crate::hanim::Document;
use crate::mocap::session::CaptureSession;
use crate::output::{AnimationFormat, write_png_atomically};
use crate::pose::ik::reach_named;
use crate::pose::skin_inspection::{OverlayChoice, OverlaySet};
use crate::pose::{DisplacerWeight, JointRotation, poses_for};
use crate::render::{
    ImageSize, RenderedImage, SceneRequest, ViewRequest, render_as_file, render_document, render_times,
    render_turntable,
};

/// A turntable's default length and rate.
const TURNTABLE_SECONDS: f64 = 4.0;
const TURNTABLE_FPS: f64 = 25.0;

/// `hanim-viewer render` arguments.
#[derive(Debug, Clone, clap::Args)]
pub struct RenderArgs {
    /// The X3D file to render.
    pub file: PathBuf,
    /// Where to write the PNG (written to a temporary file beside it, then renamed).
    #[arg(long, value_name = "PNG", required_unless_present = "out_dir", conflicts_with = "out_dir")]
    pub out: Option<PathBuf>,
    /// Image size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720", value_parser = parse_size)]
    pub size: ImageSize,
    /// The description or DEF name of a viewpoint in the file (see the `views` command), or a computed
    /// view: `front`, `side`, `top`, `inclined`, `face` (a file viewpoint called so wins; `computed:front`
    /// etc. always means the computed one), or `x3d-default` (X3D's default viewpoint: 0 0 10 looking down
    /// −Z, what browsers show a file without a Viewpoint). Default: the computed front view, framing the
    /// whole humanoid.
    #[arg(long, value_name = "NAME")]
    pub view: Option<String>,
    /// Joint rotation offsets, each JOINT=AXIS_X,AXIS_Y,AXIS_Z,ANGLE (radians), applied in the joint's
    /// frame after its file rotation.
    #[arg(long = "pose", value_name = "JOINT=X,Y,Z,ANGLE", num_args = 1.., value_parser = parse_joint_rotation)]
    pub poses: Vec<JointRotation>,
    /// Displacer weights, each NAME=WEIGHT.
    #[arg(long = "displacer", value_name = "NAME=WEIGHT", num_args = 1.., value_parser = parse_displacer_weight)]
    pub displacers: Vec<DisplacerWeight>,
    /// Draw the skeleton (bones and joints) on top.
    #[arg(long)]
    pub skeleton: bool,
    /// Draw a ground grid on y = 0.
    #[arg(long)]
    pub grid: bool,
    /// Skin inspection, drawn instead of the materials or on top: `heatmap:JOINT` (the joint's weight per
    /// vertex, blue 0 → red 1), `influences` (how many joints weigh each vertex: 1 blue, 2 green, 3
    /// yellow, 4 orange, 5+ magenta, none grey), `unweighted` (no weight magenta, sum below 1 yellow,
    /// above 1 red, grey otherwise); `axes` (each joint's local axes, X red, Y green, Z blue) and `sites`
    /// (a cyan diamond at each Site) go with any of them. Segmented figures colour each segment as 100 %
    /// its joint's.
    #[arg(long = "overlay", value_name = "OVERLAY", num_args = 1.., value_parser = parse_overlay)]
    pub overlays: Vec<OverlayChoice>,
    /// `standard`: X3D's lighting equations, black without a Background; `studio`: the viewer's
    /// brighter look (key and ambient light, grey background).
    #[arg(long, default_value = "standard", value_parser = parse_lighting)]
    pub lighting: Lighting,
    /// Use the GPU adapter whose name contains NAME (e.g. `llvmpipe`).
    #[arg(long, value_name = "NAME")]
    pub adapter: Option<String>,
    /// Pose the humanoids with a motion (`--motion`, `--frame`/`--time`, `--every` + `--out-dir`).
    #[command(flatten)]
    pub motion: MotionRenderArgs,
    /// Write the whole clip (--motion, --amc, --bvh) as an animation into --out. Implied by an --out
    /// ending in .gif, .apng, .webp, .mp4 or .webm; with a .png it writes an animated PNG.
    #[arg(long, conflicts_with_all = ["every", "frame", "time", "play_as_file"])]
    pub animate: bool,
    /// Circle the figure once in SECONDS (default 4) at its pose (--pose, or a clip's --frame/--time) and
    /// write the animation into --out.
    #[arg(long, value_name = "SECONDS", num_args = 0..=1, default_missing_value = "4",
          value_parser = parse_seconds, conflicts_with_all = ["every", "play_as_file", "animate"])]
    pub turntable: Option<f64>,
    #[command(flatten)]
    pub animation: AnimationOptions,
    /// Inverse kinematics on top of the rest pose and `--pose` offsets (not with a motion).
    #[command(flatten)]
    pub reach: ReachArgs,
    /// A pose file applied to the rest pose (not with --pose or a motion; --reach works on top of it).
    #[command(flatten)]
    pub pose_file: PoseFileArgs,
    /// Also write the camera of the still image as JSON: `world_from_camera` (16 numbers, column-major),
    /// `yfov` (the vertical field of view in radians), `near`, `far`, `width`, `height` — what another
    /// renderer needs to draw the same view (tools/gltf/three_render.mjs does).
    #[arg(long, value_name = "JSON", requires = "out", conflicts_with_all = ["every", "animate", "turntable"])]
    pub camera_json: Option<PathBuf>,
}

fn parse_overlay(text: &str) -> Result<OverlayChoice, String> {
    match text.parse::<OverlayChoice>()? {
        OverlayChoice::Heatmap(None) => Err("heatmap needs a joint: heatmap:JOINT".into()),
        OverlayChoice::Off => Err("'off' is for window scripts; leave --overlay out instead".into()),
        choice => Ok(choice),
    }
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 3600.0 => Ok(s),
        _ => Err(format!("'{text}' is not a number of seconds above 0 (at most 3600)")),
    }
}

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
    /// The playback time to render, in seconds from the clip's start (with --play-as-file: of scene
    /// time).
    #[arg(long, requires = "clip", conflicts_with = "every")]
    pub time: Option<f64>,
    /// Render every K-th frame of the motion (an interpolator clip: every K/30 s) into --out-dir.
    #[arg(long, value_name = "K", requires_all = ["clip", "out_dir"], value_parser = clap::value_parser!(u32).range(1..))]
    pub every: Option<u32>,
    /// Folder for the numbered sequence `frame_00000.png`, `frame_00001.png`, ... (created if missing).
    #[arg(long, value_name = "DIR", requires = "every")]
    pub out_dir: Option<PathBuf>,
    #[command(flatten)]
    pub playback: PlaybackArgs,
    #[command(flatten)]
    pub as_file: PlayAsFileArgs,
    /// A motion capture to retarget onto the file's first humanoid and render instead of --motion.
    #[command(flatten)]
    pub capture: CaptureArgs,
}

impl RenderArgs {
    /// What these arguments ask to render: size, view, joint rotations, displacer weights, overlays.
    pub fn scene_request(&self) -> SceneRequest {
        let mut request = SceneRequest::new(self.size.width, self.size.height);
        request.view = self.view.clone().map_or(ViewRequest::Auto, ViewRequest::Named);
        request.joint_rotations = self.poses.clone();
        request.displacer_weights = self.displacers.clone();
        request.show_skeleton = self.skeleton;
        // The whole scene as the file plays it: only what the file draws (no skeleton for a humanoid
        // without geometry), as the peers show it.
        request.skeleton_aid = !self.motion.as_file.play_as_file;
        request.show_grid = self.grid;
        request.lighting = self.lighting;
        // Checked in `run` (two colourings at once); the first colouring wins here.
        request.overlay = OverlaySet::from_choices(&self.overlays).unwrap_or_default();
        request
    }
}

/// `hanim-viewer render`: load, render, write the PNG (or the sequence).
pub fn run(args: &RenderArgs) -> Result<()> {
    // A bad capture or mapping is reported before the humanoid file is read.
    let capture = args.motion.capture.request()?;
    if !args.reach.reaches.is_empty()
        && (args.motion.motion.is_some() || args.motion.as_file.play_as_file || capture.is_some())
    {
        bail!("--reach poses the rest pose (with --pose offsets): it does not combine with a motion or capture");
    }
    OverlaySet::from_choices(&args.overlays).map_err(|e| anyhow!("--overlay: {e}"))?;
    let pose_file = args.pose_file.read()?;
    if pose_file.is_some()
        && (args.motion.motion.is_some()
            || args.motion.as_file.play_as_file
            || capture.is_some()
            || !args.poses.is_empty())
    {
        bail!("--pose-file poses the rest pose: it does not combine with --pose, a motion or a capture");
    }
    let doc = crate::hanim::load(&args.file)?;
    for warning in &doc.warnings {
        log::info!("{warning}");
    }
    let animated = args.animated_format()?;
    if animated.is_some()
        && args.turntable.is_none()
        && capture.is_none()
        && args.motion.motion.is_none()
        && !args.motion.as_file.play_as_file
    {
        bail!("an animated --out needs a clip (--motion, --amc or --bvh) or --turntable");
    }
    let ctx = GpuContext::headless(args.adapter.as_deref())?;
    log::info!("rendering on {}", ctx.summary);
    if let Some(request) = capture {
        // The capture retargeted onto the first humanoid plays alone, as the window plays it.
        let session =
            CaptureSession::load(&doc, crate::hanim::HumanoidIndex::FIRST, &request, args.motion.capture.fps)?;
        let clip = session.clip(&doc)?;
        let name = clip.name().to_string();
        let animations = Animations { clips: vec![clip], ..Animations::default() };
        return render_clip(&ctx, &doc, animations, &name, args);
    }
    if args.motion.as_file.play_as_file {
        return render_whole_scene(&ctx, &doc, args);
    }
    if let Some(name) = &args.motion.motion {
        let animations = Animations::from_document(&doc);
        for w in &animations.warnings {
            log::info!("{w}");
        }
        return render_clip(&ctx, &doc, animations, name, args);
    }
    let out = args.out.as_deref().ok_or_else(|| anyhow!("--out is required without --motion ... --out-dir"))?;
    let mut request = args.scene_request();
    if let Some(file) = &pose_file {
        let mut poses = poses_for(&doc, &request.joint_rotations, &request.displacer_weights)?;
        args.pose_file.apply(file, &doc, &mut poses)?;
        request.poses = Some(poses);
    }
    if let Some(reach) = args.reach.request() {
        let mut poses = match request.poses.take() {
            Some(poses) => poses,
            None => poses_for(&doc, &request.joint_rotations, &request.displacer_weights)?,
        };
        for solve in reach_named(&doc, &mut poses, &reach)? {
            for e in &solve.effectors {
                log::info!(
                    "{}: {} {} steps, {:.3e} from its target",
                    solve.humanoid,
                    e.name,
                    solve.iterations,
                    e.distance
                );
            }
        }
        request.poses = Some(poses);
    }
    if let Some(format) = animated {
        return write_turntable(&ctx, &doc, request, out, format, args);
    }
    let image = render_document(&ctx, &doc, &request)?;
    write_still(out, &image, args)?;
    log::info!("wrote {}", out.display());
    warn_if_nothing_seen(&image, out);
    Ok(())
}

/// A still image into `out`, and its camera into `--camera-json` where asked.
fn write_still(out: &std::path::Path, image: &RenderedImage, args: &RenderArgs) -> Result<()> {
    write_png_atomically(out, image.width, image.height, &image.rgba)?;
    let Some(path) = &args.camera_json else { return Ok(()) };
    let camera = &image.camera;
    let aspect = image.width as f32 / image.height as f32;
    let json = serde_json::json!({
        "world_from_camera": camera.world_from_camera.to_cols_array(),
        "yfov": camera.fov_y(aspect),
        "near": camera.near,
        "far": camera.far,
        "width": image.width,
        "height": image.height,
    });
    let text = serde_json::to_string_pretty(&json)? + "\n";
    crate::output::write_atomically(path, text.as_bytes())?;
    Ok(())
}

/// Says on stderr when `image` shows only its background: the view saw no geometry (an eye view whose
/// camera is inside the head). The PNG is still written — it is what the view sees — and the exit status
/// stays 0; a script that wants to stop on it looks for the warning. Only a one-colour background can be
/// told from geometry this way, so a gradient Background is never reported.
fn warn_if_nothing_seen(image: &crate::render::RenderedImage, out: &std::path::Path) {
    let seen = (0..image.height).any(|y| (0..image.width).any(|x| image.is_foreground(x, y, 2)));
    if !seen {
        eprintln!(
            "warning: {}: the view sees no geometry, only the background (its camera may be inside the figure; try another --view)",
            out.display()
        );
    }
}

/// `render --play-as-file --time T`: the whole scene as the file plays at scene time T (0 without
/// `--time`) into `--out`.
fn render_whole_scene(ctx: &GpuContext, doc: &Document, args: &RenderArgs) -> Result<()> {
    let m = &args.motion;
    if m.frame.is_some() || m.every.is_some() {
        bail!("--play-as-file renders one scene time: use --time SECONDS (not --frame or --every)");
    }
    let out = args.out.as_deref().ok_or_else(|| anyhow!("--play-as-file needs --out"))?;
    if args.animated_format()?.is_some() {
        bail!("--play-as-file renders one scene time into a still image: give --out a .png name");
    }
    let t = m.time.unwrap_or(0.0);
    render_as_file(ctx, doc, &args.scene_request(), &m.playback.options(), &[t], |_, image| {
        write_still(out, &image, args)
    })?;
    log::info!("wrote {} (the scene as the file plays at {t} s)", out.display());
    Ok(())
}

/// `render --motion NAME` (or a capture): the clip `name` of `animations` at `--frame`/`--time` into
/// `--out`, or every K-th frame into `--out-dir`.
fn render_clip(
    ctx: &GpuContext,
    doc: &Document,
    mut animations: Animations,
    name: &str,
    args: &RenderArgs,
) -> Result<()> {
    let m = &args.motion;
    let options = m.playback.options();
    let (index, tau) = animations.resolve(name, m.frame, m.time)?;
    animations.solo(index);
    if m.frame.is_some() || m.every.is_some() {
        // Frames are rendered over one pass: the last frame's time shows the last frame, where a looping
        // clip would already have wrapped to the first.
        animations.clips[index].looping = false;
    }
    let request = args.scene_request();
    if let (Some(format), Some(out)) = (args.animated_format()?, &args.out) {
        if args.turntable.is_some() {
            // The figure at the clip's moment, circled.
            let mut request = request;
            let mut poses = crate::pose::poses_for(doc, &request.joint_rotations, &request.displacer_weights)?;
            animations.apply(doc, tau, &options, &mut poses);
            request.poses = Some(poses);
            return write_turntable(ctx, doc, request, out, format, args);
        }
        let rate = clip_rate(&animations, index);
        let fps = args.animation.anim_fps.unwrap_or(rate.min(DEFAULT_MAX_FPS));
        let times = clip_times(&animations, index, options.interpolation, fps, None);
        let settings = args.animation.settings(request.size.width, request.size.height, fps);
        let label = format!("rendering '{name}'");
        let mut output = AnimationOutput::start(out, format, &settings, times.len(), Some(label.as_str()))?;
        render_times(ctx, doc, &animations, &options, &request, &times, |_, image| output.push(&image))?;
        let path = output.finish()?;
        log::info!("wrote {} ({} frames at {fps} fps)", path.display(), times.len());
        return Ok(());
    }
    match (m.every, &m.out_dir, &args.out) {
        (Some(every), Some(dir), _) => {
            let times = animations.sequence_times(index, every, options.interpolation);
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
                anyhow::Ok(())
            })?;
            bar.finish_with_message(format!("rendered '{name}'"));
            log::info!("wrote {} frames to {}", times.len(), dir.display());
            Ok(())
        }
        (None, _, Some(out)) => {
            render_times(ctx, doc, &animations, &options, &request, &[tau], |_, image| {
                write_still(out, &image, args)?;
                warn_if_nothing_seen(&image, out);
                anyhow::Ok(())
            })?;
            log::info!("wrote {}", out.display());
            Ok(())
        }
        _ => bail!("--motion needs --out (with --frame or --time) or --every K --out-dir DIR"),
    }
}

impl RenderArgs {
    /// The animation format `--out` asks for: by its extension, `.png` only with `--animate` or
    /// `--turntable`; `None` for a still. `--animate`/`--turntable` with a still-only extension is an error.
    fn animated_format(&self) -> Result<Option<AnimationFormat>> {
        let wants = self.animate || self.turntable.is_some();
        let Some(out) = &self.out else {
            if wants {
                bail!("--animate and --turntable write into --out (a .gif, .apng, .png, .webp, .mp4 or .webm)");
            }
            return Ok(None);
        };
        let format = AnimationFormat::from_path(out, wants);
        if wants && format.is_none() {
            bail!(
                "{}: an animation is written as .gif, .apng (or .png), .webp, .mp4 or .webm, chosen by the extension",
                out.display()
            );
        }
        Ok(format)
    }
}

/// `render --turntable`: the figure at `request`'s pose circled once into `out`.
fn write_turntable(
    ctx: &GpuContext,
    doc: &Document,
    request: SceneRequest,
    out: &std::path::Path,
    format: AnimationFormat,
    args: &RenderArgs,
) -> Result<()> {
    let seconds = args.turntable.unwrap_or(TURNTABLE_SECONDS);
    let fps = args.animation.anim_fps.unwrap_or(TURNTABLE_FPS);
    let frames = ((seconds * fps).round() as usize).max(1);
    let settings = args.animation.settings(request.size.width, request.size.height, fps);
    let mut output = AnimationOutput::start(out, format, &settings, frames, Some("turntable"))?;
    render_turntable(ctx, doc, &request, frames, |_, image| output.push(&image))?;
    let path = output.finish()?;
    log::info!("wrote {} ({frames} frames at {fps} fps)", path.display());
    Ok(())
}
