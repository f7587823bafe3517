//! `hanim-viewer catalog INPUTS... --out DIR`: every humanoid of every input file rendered in the
//! standard views (the H-Anim 1.0 text recommends them "for the purpose of creating catalogs of
//! humanoid bodies"), a contact sheet per humanoid and an `index.html` listing them.
//!
//! Outputs, all written to a temporary file and renamed, with names derived from the input paths so
//! that a re-run overwrites exactly its own files and nothing else:
//! `DIR/images/<id>-<view>.png`, `DIR/sheets/<id>.png`, with `--animate` `DIR/previews/<id>-<clip>.gif`
//! (or `.apng`/`.webp`), `DIR/index.html` and `DIR/catalog.json` (the page in parts, for `catalog merge`).
//! A file that cannot be loaded or rendered is reported and skipped; the others go on. `--shard I/N`
//! catalogues a fixed share of the inputs; `catalog merge` joins the shares ([`manifest`]).
//! `--motions DIR --onto FILE` catalogues captures instead of humanoids (`takes`).

mod html;
mod inputs;
pub mod manifest;
mod page;
mod previews;
mod shard;
mod sources;
mod sparse;
mod takes;

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};

pub use inputs::{INPUT_EXTENSIONS, InputFile, find_files, find_inputs};
pub use manifest::{Manifest, entry_order, merge_folders};
pub use page::{contact_sheet, contact_sheet_rows, index_html};
pub use previews::{Preview, PreviewOptions};
pub use shard::Shard;
pub use sources::{CapturePose, MotionFrame, PoseFilePose, PoseSource, Posed, RestPose, SceneAtTime};

use super::animation_out::AnimationOptions;
use super::args::{CaptureArgs, PoseFileArgs, parse_lighting, parse_size};
use crate::gpu::GpuContext;
use crate::gpu::lighting::Lighting;
use crate::hanim::Document;
use crate::hanim::HumanoidIndex;
use crate::inspect::info::{self, HumanoidSummary};
use crate::output::AnimationFormat;
use crate::output::{StagedFolder, write_png_atomically};
use crate::pose::bounds::Aabb;
use crate::pose::{self, Pose};
use crate::render::{DisplayOptions, DocumentDraw, ImageSize, Offscreen, scene_bounds};
use crate::views::{PoseContext, StandardView, ViewSource, figure_bounds, head_joint, placement};
use sparse::draws_little_of_itself;

/// `hanim-viewer catalog` arguments.
#[derive(Debug, Clone, clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct CatalogArgs {
    /// Files and folders (folders are searched recursively for the input extensions).
    #[arg(required_unless_present = "motions", conflicts_with = "motions", value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// The output folder (created when missing).
    #[arg(long, value_name = "DIR", required = true)]
    pub out: Option<PathBuf>,
    /// Put a looping preview of every clip (a turntable for a figure without clips) beside the stills,
    /// and its filmstrip on the contact sheet: FORMAT is gif (default), apng or webp.
    #[arg(long, value_name = "FORMAT", num_args = 0..=1, default_missing_value = "gif", value_parser = parse_preview_format)]
    pub animate: Option<AnimationFormat>,
    /// Previews show at most the first SECONDS of a clip.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub preview_seconds: f64,
    /// A still figure's turntable preview takes SECONDS.
    #[arg(long, value_name = "SECONDS", default_value_t = 4.0)]
    pub turntable_seconds: f64,
    /// Frames in a filmstrip (every k-th frame of the preview, k chosen to fit).
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub strip_frames: u16,
    /// Animation options of the previews (`--anim-fps` defaults to 12 here).
    #[command(flatten)]
    pub animation: AnimationOptions,
    /// Catalogue the motion captures in this folder (ASF/AMC pairs, BVH files, searched recursively)
    /// retargeted onto the humanoid of --onto: one preview and filmstrip per take.
    #[arg(long, value_name = "DIR", requires = "onto", conflicts_with_all = ["motion", "amc", "bvh"])]
    pub motions: Option<PathBuf>,
    /// The humanoid that plays every take of --motions (its first humanoid).
    #[arg(long, value_name = "HUMANOID", requires = "motions")]
    pub onto: Option<PathBuf>,
    /// Catalogue only share I of N (1-based): the inputs at positions I-1, I-1+N, … of the stable input
    /// order, into the same layout; `catalog merge` joins the shares' folders.
    #[arg(long, value_name = "I/N", value_parser = shard::parse_shard)]
    pub shard: Option<Shard>,
    #[command(subcommand)]
    pub action: Option<CatalogAction>,
    /// The views to render, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "front,side,top,inclined,face", value_parser = parse_view)]
    pub views: Vec<StandardView>,
    /// Size of each view image, WIDTHxHEIGHT.
    #[arg(long, default_value = "320x320", value_parser = parse_size)]
    pub size: ImageSize,
    /// Use the GPU adapter whose name contains NAME (e.g. `llvmpipe`).
    #[arg(long, value_name = "NAME")]
    pub adapter: Option<String>,
    /// Pose every humanoid with this HAnimMotion (name or DEF) or interpolator clip (TimeSensor DEF),
    /// playing alone. A humanoid whose file has no such clip (or cannot show the frame asked for) is
    /// catalogued at rest, with the reason on its page entry.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["amc", "bvh"])]
    pub motion: Option<String>,
    /// The frame of the clip: an HAnimMotion's frame number; for an interpolator clip, frame N of the
    /// 30 frames per second that `render --motion --every 1` numbers (N/30 s); for a capture
    /// (`--amc`/`--bvh`), its frame (0 = the first, the default).
    #[arg(long, conflicts_with = "time")]
    pub frame: Option<usize>,
    /// The playback time in seconds from the clip's start (with --play-as-file: of scene time).
    #[arg(long, conflicts_with_all = ["amc", "bvh"])]
    pub time: Option<f64>,
    /// Pose the humanoids as the file plays at --time (seconds of scene time, 0 without it): every
    /// enabled TimeSensor and HAnimMotion at once, ROUTEs reaching joints and displacers, as
    /// `render --play-as-file` does.
    #[arg(long, conflicts_with_all = ["motion", "frame", "amc", "bvh"])]
    pub play_as_file: bool,
    /// Pose the humanoids with a frame of a motion capture (`--amc`/`--asf` or `--bvh`, with `--frame N`).
    #[command(flatten)]
    pub capture: CaptureArgs,
    /// Pose every humanoid with a pose file (not with a clip or capture).
    #[command(flatten)]
    pub pose_file: PoseFileArgs,
    /// `standard`: X3D's lighting equations, black without a Background; `studio`: the viewer's
    /// brighter look (key and ambient light, grey background), for files that are dark as written.
    #[arg(long, default_value = "standard", value_parser = parse_lighting)]
    pub lighting: Lighting,
}

/// `catalog` subcommands.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum CatalogAction {
    /// Join the folders of a sharded catalogue (`catalog … --shard I/N`) into one: their images,
    /// sheets and previews copied, one index.html and catalog.json for all.
    Merge {
        /// The shards' output folders.
        #[arg(required = true, value_name = "DIR")]
        dirs: Vec<PathBuf>,
        /// The merged catalogue's folder (may be one of the shards').
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
}

/// A catalogue's previews play at this rate unless `--anim-fps` says otherwise: smooth enough to read a
/// motion, few enough frames to catalogue thousands of clips.
const PREVIEW_FPS: f64 = 12.0;

impl CatalogArgs {
    /// The previews `--animate` asks for (`None` without it).
    fn preview_options(&self) -> Result<Option<PreviewOptions>> {
        self.animate.map(|format| self.previews_in(format)).transpose()
    }

    /// Previews in `format` (or the `--animate` format) with the command line's settings, checked.
    fn previews_in(&self, format: AnimationFormat) -> Result<PreviewOptions> {
        let options = PreviewOptions {
            format: self.animate.unwrap_or(format),
            fps: self.animation.anim_fps.unwrap_or(PREVIEW_FPS),
            max_seconds: self.preview_seconds,
            turntable_seconds: self.turntable_seconds,
            strip_cells: usize::from(self.strip_frames),
            animation: self.animation.clone(),
        };
        for (name, value) in
            [("--preview-seconds", options.max_seconds), ("--turntable-seconds", options.turntable_seconds)]
        {
            if !(value.is_finite() && value > 0.0) {
                bail!("{name} must be a number of seconds above 0, not {value}");
            }
        }
        Ok(options)
    }
}

fn parse_preview_format(text: &str) -> Result<AnimationFormat, String> {
    match AnimationFormat::from_name(text) {
        Some(f) if !f.needs_ffmpeg() => Ok(f),
        _ => Err(format!("'{text}' is not a preview format (gif, apng, webp)")),
    }
}

fn parse_view(text: &str) -> Result<StandardView, String> {
    StandardView::from_name(text).ok_or_else(|| {
        let names: Vec<&str> = StandardView::ALL.iter().map(|s| s.name()).collect();
        format!("'{text}' is not a standard view ({})", names.join(", "))
    })
}

/// What to catalogue and how.
#[derive(Debug, Clone)]
pub struct CatalogOptions {
    pub out: PathBuf,
    pub views: Vec<StandardView>,
    pub size: ImageSize,
    /// What the page says of the pose ([`PoseSource::describe`]).
    pub pose: String,
    pub lighting: Lighting,
    /// Moving previews (`--animate`).
    pub previews: Option<PreviewOptions>,
    /// This run's share of the inputs (`--shard`).
    pub shard: Option<Shard>,
}

/// One rendered view image.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ViewImage {
    pub view: StandardView,
    /// Relative to the output folder, with `/`.
    pub image: String,
}

/// One humanoid catalogued.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CatalogEntry {
    /// Its place on the page of an unsharded run ([`entry_order`]).
    pub order: usize,
    pub file: String,
    pub id: String,
    pub summary: HumanoidSummary,
    pub images: Vec<ViewImage>,
    /// Requested views that this humanoid cannot have, with the reason.
    pub missing: Vec<(StandardView, String)>,
    /// Relative to the output folder.
    pub sheet: String,
    /// True when the humanoid has no geometry and no joints: its images show only the background.
    pub empty: bool,
    /// True when the skeleton is drawn over a figure that draws little surface of its own.
    pub skeleton_shown: bool,
    /// Why the humanoid is shown at rest instead of the pose asked for (`--motion`).
    pub pose_note: Option<String>,
    /// Moving previews (`--animate`): one per clip, or a turntable.
    pub previews: Vec<Preview>,
}

impl CatalogEntry {
    /// Every file written for it, relative to the output folder.
    pub fn outputs(&self) -> Vec<String> {
        let mut files: Vec<String> = self.images.iter().map(|i| i.image.clone()).collect();
        files.extend(self.previews.iter().map(|p| p.image.clone()));
        files.push(self.sheet.clone());
        files
    }
}

/// An input that failed.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Failure {
    /// Its place on the page of an unsharded run.
    pub order: usize,
    pub file: String,
    pub error: String,
}

/// The whole run.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct CatalogReport {
    pub entries: Vec<CatalogEntry>,
    pub failures: Vec<Failure>,
    pub files: usize,
    pub seconds: f64,
}

/// Renders one humanoid of `doc` in `views`, writes its images and contact sheet, and returns its entry.
/// The file's GPU draw data and what its images share: one [`DocumentDraw`] for every view of every
/// humanoid of the file.
struct FileDraw<'a> {
    doc: &'a Document,
    poses: &'a [Pose],
    draw: DocumentDraw,
    /// Every humanoid at its pose (sizes the skeleton marks).
    bounds: Aabb,
}

#[allow(clippy::too_many_arguments)]
fn catalogue_humanoid(
    ctx: &GpuContext,
    offscreen: &mut Offscreen,
    file: &mut FileDraw,
    input: &InputFile,
    position: usize,
    index: usize,
    pose_note: Option<String>,
    options: &CatalogOptions,
) -> Result<CatalogEntry> {
    let (doc, poses) = (file.doc, file.poses);
    let h = &doc.humanoids[index];
    let id = if doc.humanoids.len() == 1 { input.id.clone() } else { format!("{}--{}", input.id, index + 1) };
    let ImageSize { width, height } = options.size;
    let aspect = width as f32 / height as f32;
    let pose = &poses[index];
    let g = pose::humanoid_from_joint(h, pose);
    let figure = figure_bounds(doc, HumanoidIndex(index), pose)?;
    let ctx_pose = PoseContext {
        doc,
        humanoid: HumanoidIndex(index),
        humanoid_from_joint: &g,
        world_from_humanoid: pose.world_from_humanoid(h),
        figure: &figure,
        aspect,
    };
    let show_skeleton = draws_little_of_itself(doc, index, &g, &figure)?;
    let mut images = Vec::new();
    let mut missing = Vec::new();
    let mut rendered = Vec::new();
    for &view in &options.views {
        if view == StandardView::Face && head_joint(h).is_none() {
            missing.push((view, "no skullbase (or head) joint".to_string()));
            continue;
        }
        let Some(placed) = placement(&ctx_pose, ViewSource::Standard(view)) else {
            missing.push((view, "cannot be placed".to_string()));
            continue;
        };
        // A catalogue shows the body it is about: floors, props and the file's other humanoids would crowd
        // the frame the figure was framed for.
        let display = DisplayOptions {
            show_skeleton,
            skeleton_aid: true,
            show_grid: false,
            show_scene: false,
            only_humanoid: Some(index),
            lighting: options.lighting,
            overlay: crate::pose::skin_inspection::OverlayMode::Off,
            show_joint_axes: false,
            show_sites: false,
        };
        let image = offscreen
            .render(ctx, &mut file.draw, doc, poses, &placed.camera(&figure), &file.bounds, display)
            .with_context(|| format!("humanoid '{}', {} view", h.name, view.name()))?;
        let relative = format!("images/{id}-{}.png", view.name());
        write_png_atomically(&options.out.join(&relative), width, height, &image.rgba)?;
        images.push(ViewImage { view, image: relative });
        rendered.push(image.rgba);
    }
    let mut previews = Vec::new();
    let mut strips = Vec::new();
    if let Some(preview_options) = &options.previews {
        let mut request = crate::render::SceneRequest::new(width, height);
        request.show_skeleton = show_skeleton;
        request.show_scene = false;
        request.only_humanoid = Some(index);
        request.lighting = options.lighting;
        // The stills' renderer and draws serve the previews too.
        let mut renderer = crate::render::LentRenderer {
            offscreen: &mut *offscreen,
            draw: &mut file.draw,
            display: request.display(),
        };
        for made in
            previews::humanoid_previews(ctx, &mut renderer, doc, index, poses, &request, &id, options, preview_options)
                .with_context(|| format!("humanoid '{}', previews", h.name))?
        {
            previews.push(made.preview);
            strips.push(made.strip);
        }
    }
    let sheet = format!("sheets/{id}.png");
    let mut rows: Vec<&[Vec<u8>]> = vec![&rendered];
    rows.extend(strips.iter().map(Vec::as_slice));
    let (sheet_width, sheet_height, sheet_rgba) = contact_sheet_rows(&rows, width, height)?;
    write_png_atomically(&options.out.join(&sheet), sheet_width, sheet_height, &sheet_rgba)?;
    let summary = info::summarize(&input.path, doc)?.humanoids.swap_remove(index);
    let empty = h.joints.is_empty() && h.skin.is_none() && h.segments.is_empty() && h.sites.is_empty();
    Ok(CatalogEntry {
        order: entry_order(position, index),
        file: input.path.display().to_string(),
        id,
        summary,
        images,
        missing,
        sheet,
        empty,
        skeleton_shown: show_skeleton,
        pose_note,
        previews,
    })
}

/// Loads and catalogues one file; every humanoid or nothing (the file then counts as failed).
fn catalogue_file(
    ctx: &GpuContext,
    offscreen: &mut Offscreen,
    input: &InputFile,
    position: usize,
    options: &CatalogOptions,
    poses: &dyn PoseSource,
) -> Result<Vec<CatalogEntry>> {
    let doc = crate::hanim::load(&input.path)?;
    if doc.humanoids.is_empty() {
        bail!("{}: the file has no HAnimHumanoid", input.path.display());
    }
    let Posed { poses, notes, overrides } = poses.poses(&doc)?;
    let shown = &doc;
    let mut draw = DocumentDraw::new(ctx, offscreen, shown, &poses)?;
    if !overrides.is_empty() {
        // The scene at that time as `render --play-as-file` draws it: Shapes placed, coloured and shaped
        // by the events.
        match crate::animation::events::place_scene(shown, &overrides) {
            Ok(placed) => draw.place_scene_shapes(ctx, &placed.shapes),
            Err(e) => log::warn!("{}: scene placement: {e}", input.path.display()),
        }
        draw.apply_appearance(ctx, shown, &overrides);
        draw.apply_geometry(ctx, shown, &overrides);
    }
    let bounds = scene_bounds(shown, &poses)?;
    let mut file = FileDraw { doc: shown, poses: &poses, draw, bounds };
    (0..doc.humanoids.len())
        .map(|i| catalogue_humanoid(ctx, offscreen, &mut file, input, position, i, notes[i].clone(), options))
        .collect()
}

/// The output folders a catalogue writes into.
fn create_folders(options: &CatalogOptions) -> Result<()> {
    let mut dirs = vec![options.out.clone(), options.out.join("images"), options.out.join("sheets")];
    if options.previews.is_some() {
        dirs.push(options.out.join("previews"));
    }
    for dir in dirs {
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    Ok(())
}

/// A progress bar over `len` inputs (drawn only on a terminal).
/// A file the run could not catalogue: logged above the progress bar and listed on the page.
fn skipped(bar: &indicatif::ProgressBar, position: usize, input: &InputFile, e: &anyhow::Error) -> Failure {
    let error = format!("{e:#}");
    bar.suspend(|| log::error!("{}: skipped: {error}", input.path.display()));
    Failure { order: entry_order(position, 0), file: input.path.display().to_string(), error }
}

fn progress(len: usize) -> Result<indicatif::ProgressBar> {
    let bar = indicatif::ProgressBar::new(len as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {wide_msg}")
            .map_err(|e| anyhow!("progress bar template: {e}"))?
            .progress_chars("=> "),
    );
    Ok(bar)
}

/// The inputs of this run's share, each with its position in the stable order of all inputs (after the
/// inputs that failed to be found, which the first share reports).
fn share<T>(files: Vec<T>, failures: &mut Vec<Failure>, shard: Option<Shard>) -> Vec<(usize, T)> {
    let first = failures.len();
    if shard.is_some_and(|s| !s.is_first()) {
        failures.clear();
    }
    files
        .into_iter()
        .enumerate()
        .map(|(i, f)| (first + i, f))
        .filter(|(i, _)| shard.is_none_or(|s| s.takes(i - first)))
        .collect()
}

/// Catalogues `inputs` into `options.out` on `ctx`, showing a progress bar on a terminal. Failed files
/// are in the report; the error return is for what stops the whole run (the output folder cannot be
/// written), and then nothing of the run is left in `options.out`.
pub fn catalogue(
    ctx: &GpuContext,
    inputs: &[PathBuf],
    options: &CatalogOptions,
    poses: &dyn PoseSource,
) -> Result<CatalogReport> {
    let started = Instant::now();
    // Everything is written into a staging folder beside the destination, moved into place once complete.
    let staged = StagedFolder::new(&options.out)?;
    let options = &CatalogOptions { out: staged.path().to_path_buf(), ..options.clone() };
    create_folders(options)?;
    let (files, mut failures) = find_inputs(inputs);
    let files = share(files, &mut failures, options.shard);
    for f in &failures {
        log::error!("{}: {}", f.file, f.error);
    }
    let bar = progress(files.len())?;
    // One renderer and target for the whole run: every file and view is drawn with them.
    let mut offscreen = Offscreen::new(ctx, options.size)?;
    let mut entries = Vec::new();
    for (position, input) in &files {
        bar.set_message(input.path.display().to_string());
        match catalogue_file(ctx, &mut offscreen, input, *position, options, poses) {
            Ok(mut e) => entries.append(&mut e),
            Err(e) => failures.push(skipped(&bar, *position, input, &e)),
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let mut report = CatalogReport { entries, failures, files: files.len(), seconds: 0.0 };
    report.seconds = started.elapsed().as_secs_f64();
    page::manifest(&report, options).write(&options.out)?;
    staged.commit()?;
    Ok(report)
}

/// `hanim-viewer catalog`: exit code 0 when every input was catalogued, 1 when any failed.
pub fn run(args: &CatalogArgs) -> Result<std::process::ExitCode> {
    if let Some(CatalogAction::Merge { dirs, out }) = &args.action {
        let merged = merge_folders(dirs, out)?;
        eprintln!(
            "merged {} share(s): {} {}(s) from {} file(s), {} failed, into {}",
            dirs.len(),
            merged.entries.len(),
            merged.noun,
            merged.files,
            merged.failures.len(),
            out.join("index.html").display()
        );
        return Ok(if merged.failures.is_empty() {
            std::process::ExitCode::SUCCESS
        } else {
            std::process::ExitCode::from(1)
        });
    }
    let out = args.out.clone().ok_or_else(|| anyhow!("--out DIR is required"))?;
    let previews = args.preview_options()?;
    let mut views = Vec::new();
    for v in &args.views {
        if !views.contains(v) {
            views.push(*v);
        }
    }
    // Each view renders the whole document again, so per-shape rendering notes would repeat once per
    // view and bury the progress bar; without an explicit RUST_LOG only errors are shown (the page
    // gives each humanoid's warning count).
    if std::env::var_os("RUST_LOG").is_none() {
        log::set_max_level(log::LevelFilter::Error);
    }
    if let (Some(dir), Some(onto)) = (&args.motions, &args.onto) {
        let options = CatalogOptions {
            out,
            views,
            size: args.size,
            pose: "motion captures".to_string(),
            lighting: args.lighting,
            previews: Some(match previews {
                Some(p) => p,
                None => args.previews_in(AnimationFormat::Gif)?,
            }),
            shard: args.shard,
        };
        let ctx = GpuContext::headless(args.adapter.as_deref())?;
        log::info!("rendering on {}", ctx.summary);
        let fps = args.capture.fps;
        return takes::run(&ctx, dir, onto, args.capture.map.as_deref(), fps, &options);
    }
    // The capture is read (and its frame checked) before any GPU work.
    let capture = CapturePose::from_args(&args.capture, args.frame.unwrap_or(0))?;
    let pose_file = args.pose_file.read()?;
    if pose_file.is_some()
        && (args.motion.is_some()
            || capture.is_some()
            || args.play_as_file
            || args.frame.is_some()
            || args.time.is_some())
    {
        bail!("--pose-file poses the rest pose: it does not combine with --motion, --play-as-file or a capture");
    }
    let ctx = GpuContext::headless(args.adapter.as_deref())?;
    log::info!("rendering on {}", ctx.summary);
    let source: Box<dyn PoseSource> = match (&args.motion, capture, pose_file) {
        (None, None, Some(file)) => Box::new(PoseFilePose {
            source: args.pose_file.pose_file.clone().unwrap_or_default(),
            file,
            respect_limits: !args.pose_file.pose_file_ignore_limits,
        }),
        (None, None, None) if args.play_as_file => Box::new(SceneAtTime { time: args.time.unwrap_or(0.0) }),
        (Some(name), _, _) => Box::new(MotionFrame { name: name.clone(), frame: args.frame, time: args.time }),
        (None, Some(capture), _) => Box::new(capture),
        (None, None, None) => {
            if args.frame.is_some() || args.time.is_some() {
                bail!("--frame needs --motion, --amc or --bvh; --time needs --motion or --play-as-file");
            }
            Box::new(RestPose)
        }
    };
    if args.time.is_some_and(|t| !t.is_finite()) {
        bail!("--time must be a finite number of seconds");
    }
    let options = CatalogOptions {
        out,
        views,
        size: args.size,
        pose: source.describe(),
        lighting: args.lighting,
        previews,
        shard: args.shard,
    };
    let report = catalogue(&ctx, &args.inputs, &options, source.as_ref())?;
    let images: usize = report.entries.iter().map(|e| e.images.len()).sum();
    eprintln!(
        "catalogued {} humanoid(s) from {} file(s): {images} images, {} contact sheets, {} in {:.1} s; {} failed",
        report.entries.len(),
        report.files,
        report.entries.len(),
        options.out.join("index.html").display(),
        report.seconds,
        report.failures.len()
    );
    let previews: usize = report.entries.iter().map(|e| e.previews.len()).sum();
    if options.previews.is_some() {
        eprintln!("{previews} moving preview(s) in {}", options.out.join("previews").display());
    }
    for e in &report.entries {
        if let Some(note) = &e.pose_note {
            eprintln!("at rest: {} ({}): {note}", e.id, e.file);
        }
    }
    for f in &report.failures {
        eprintln!("failed: {}: {}", f.file, f.error);
    }
    Ok(if report.failures.is_empty() { std::process::ExitCode::SUCCESS } else { std::process::ExitCode::from(1) })
}
