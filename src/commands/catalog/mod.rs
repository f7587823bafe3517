//! `hanim-viewer catalog INPUTS... --out DIR`: every humanoid of every input file rendered in the
//! standard views (the H-Anim 1.0 text recommends them "for the purpose of creating catalogs of
//! humanoid bodies"), a contact sheet per humanoid and an `index.html` listing them.
//!
//! Outputs, all written to a temporary file and renamed, with names derived from the input paths so
//! that a re-run overwrites exactly its own files and nothing else:
//! `DIR/images/<id>-<view>.png`, `DIR/sheets/<id>.png`, `DIR/index.html`.
//! A file that cannot be loaded or rendered is reported and skipped; the others go on.

mod inputs;
mod page;
mod sources;

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};

pub use inputs::{INPUT_EXTENSIONS, InputFile, find_inputs};
pub use page::{contact_sheet, index_html};
pub use sources::{CapturePose, MotionFrame, PoseSource, Posed, RestPose, SceneAtTime};

use super::args::{CaptureArgs, parse_lighting, parse_size};
use crate::gpu::GpuContext;
use crate::gpu::lighting::Lighting;
use crate::hanim::Document;
use crate::hanim::HumanoidIndex;
use crate::inspect::info::{self, HumanoidSummary};
use crate::output::{write_atomically as write_file_atomically, write_png_atomically};
use crate::pose::bounds::Aabb;
use crate::pose::{self, Pose};
use crate::render::{DisplayOptions, DocumentDraw, ImageSize, Offscreen, scene_bounds};
use crate::views::{PoseContext, StandardView, ViewSource, figure_bounds, head_joint, placement};

/// `hanim-viewer catalog` arguments.
#[derive(Debug, Clone, clap::Args)]
pub struct CatalogArgs {
    /// Files and folders (folders are searched recursively for the input extensions).
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// The output folder (created when missing).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
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
    /// `standard`: X3D's lighting equations, black without a Background; `studio`: the viewer's
    /// brighter look (key and ambient light, grey background), for files that are dark as written.
    #[arg(long, default_value = "standard", value_parser = parse_lighting)]
    pub lighting: Lighting,
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
}

/// An input that failed.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Failure {
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

/// Below this drawn surface per squared figure height, a figure is mostly lines and points (LineSet
/// skeletons, Sphere markers, small diamonds): the catalogue draws its skeleton over it. A body's skin is
/// about 0.6 height².
const SPARSE_SURFACE: f32 = 0.05;
/// Drawn geometry spanning less than this share of the figure box means that the box is mostly made of
/// joint centres nothing draws (a skeleton template with one marker): its skeleton is drawn too.
const SPARSE_EXTENT: f32 = 0.5;

/// True when humanoid `index` (joint matrices `g`) draws little of its figure box `figure` itself — no
/// skin, and rigid triangles adding up to less than [`SPARSE_SURFACE`] times the box's size squared, or
/// spanning less than [`SPARSE_EXTENT`] of it — so that its skeleton should be shown.
fn draws_little_of_itself(
    doc: &Document,
    index: usize,
    g: &[glam::Mat4],
    figure: &crate::pose::bounds::Aabb,
) -> Result<bool> {
    let h = &doc.humanoids[index];
    let skin = crate::mesh::skin_mesh_from_humanoid(&doc.scene, h)?;
    if h.skin.is_some() && skin.parts.iter().any(|p| !p.indices.is_empty()) {
        return Ok(false);
    }
    let world_from_humanoid = h.world_from_humanoid();
    let mut area = 0.0f32;
    let mut extent = crate::pose::bounds::Aabb::default();
    let mut notes = Vec::new();
    for shape in crate::mesh::rigid_shapes(&doc.scene, h)? {
        let Some((mesh, points)) = crate::mesh::render_mesh_from_rigid_shape(&doc.scene, h, &shape, &mut notes)? else {
            continue;
        };
        let m = world_from_humanoid * shape.joint.and_then(|j| g.get(j)).copied().unwrap_or(glam::Mat4::IDENTITY);
        let corner = |i: u32| {
            let point = mesh.source_point.get(i as usize).copied().unwrap_or(0) as usize;
            m.transform_point3(points.get(point).copied().unwrap_or_default())
        };
        for t in mesh.indices.chunks_exact(3) {
            let (a, b, c) = (corner(t[0]), corner(t[1]), corner(t[2]));
            area += (b - a).cross(c - a).length() * 0.5;
            for p in [a, b, c] {
                extent.add(p);
            }
        }
    }
    let size = figure.size().max_element();
    Ok(area < SPARSE_SURFACE * size * size || extent.size().max_element() < SPARSE_EXTENT * size)
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
            show_grid: false,
            show_scene: false,
            only_humanoid: Some(index),
            lighting: options.lighting,
        };
        let image = offscreen
            .render(ctx, &mut file.draw, doc, poses, &placed.camera(&figure), &file.bounds, display)
            .with_context(|| format!("humanoid '{}', {} view", h.name, view.name()))?;
        let relative = format!("images/{id}-{}.png", view.name());
        write_png_atomically(&options.out.join(&relative), width, height, &image.rgba)?;
        images.push(ViewImage { view, image: relative });
        rendered.push(image.rgba);
    }
    let sheet = format!("sheets/{id}.png");
    let (sheet_width, sheet_height, sheet_rgba) = contact_sheet(&rendered, width, height)?;
    write_png_atomically(&options.out.join(&sheet), sheet_width, sheet_height, &sheet_rgba)?;
    let summary = info::summarize(&input.path, doc)?.humanoids.swap_remove(index);
    let empty = h.joints.is_empty() && h.skin.is_none() && h.segments.is_empty() && h.sites.is_empty();
    Ok(CatalogEntry {
        file: input.path.display().to_string(),
        id,
        summary,
        images,
        missing,
        sheet,
        empty,
        skeleton_shown: show_skeleton,
        pose_note,
    })
}

/// Loads and catalogues one file; every humanoid or nothing (the file then counts as failed).
fn catalogue_file(
    ctx: &GpuContext,
    offscreen: &mut Offscreen,
    input: &InputFile,
    options: &CatalogOptions,
    poses: &dyn PoseSource,
) -> Result<Vec<CatalogEntry>> {
    let doc = crate::hanim::load(&input.path)?;
    if doc.humanoids.is_empty() {
        bail!("{}: the file has no HAnimHumanoid", input.path.display());
    }
    let Posed { poses, notes } = poses.poses(&doc)?;
    let shown = &doc;
    let draw = DocumentDraw::new(ctx, offscreen, shown, &poses)?;
    let bounds = scene_bounds(shown, &poses)?;
    let mut file = FileDraw { doc: shown, poses: &poses, draw, bounds };
    (0..doc.humanoids.len())
        .map(|i| catalogue_humanoid(ctx, offscreen, &mut file, input, i, notes[i].clone(), options))
        .collect()
}

/// Catalogues `inputs` into `options.out` on `ctx`, showing a progress bar on a terminal. Failed files
/// are in the report; the error return is for what stops the whole run (the output folder cannot be
/// written).
pub fn catalogue(
    ctx: &GpuContext,
    inputs: &[PathBuf],
    options: &CatalogOptions,
    poses: &dyn PoseSource,
) -> Result<CatalogReport> {
    let started = Instant::now();
    for dir in [options.out.clone(), options.out.join("images"), options.out.join("sheets")] {
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let (files, mut failures) = find_inputs(inputs);
    for f in &failures {
        log::error!("{}: {}", f.file, f.error);
    }
    let bar = indicatif::ProgressBar::new(files.len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {wide_msg}")
            .map_err(|e| anyhow!("progress bar template: {e}"))?
            .progress_chars("=> "),
    );
    // One renderer and target for the whole run: every file and view is drawn with them.
    let mut offscreen = Offscreen::new(ctx, options.size)?;
    let mut entries = Vec::new();
    for input in &files {
        bar.set_message(input.path.display().to_string());
        match catalogue_file(ctx, &mut offscreen, input, options, poses) {
            Ok(mut e) => entries.append(&mut e),
            Err(e) => {
                let error = format!("{e:#}");
                bar.suspend(|| log::error!("{}: skipped: {error}", input.path.display()));
                failures.push(Failure { file: input.path.display().to_string(), error });
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let mut report = CatalogReport { entries, failures, files: files.len(), seconds: 0.0 };
    report.seconds = started.elapsed().as_secs_f64();
    let html = index_html(&report, options);
    write_file_atomically(&options.out.join("index.html"), html.as_bytes())?;
    Ok(report)
}

/// `hanim-viewer catalog`: exit code 0 when every input was catalogued, 1 when any failed.
pub fn run(args: &CatalogArgs) -> Result<std::process::ExitCode> {
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
    // The capture is read (and its frame checked) before any GPU work.
    let capture = CapturePose::from_args(&args.capture, args.frame.unwrap_or(0))?;
    let ctx = GpuContext::headless(args.adapter.as_deref())?;
    log::info!("rendering on {}", ctx.summary);
    let source: Box<dyn PoseSource> = match (&args.motion, capture) {
        (None, None) if args.play_as_file => Box::new(SceneAtTime { time: args.time.unwrap_or(0.0) }),
        (Some(name), _) => Box::new(MotionFrame { name: name.clone(), frame: args.frame, time: args.time }),
        (None, Some(capture)) => Box::new(capture),
        (None, None) => {
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
        out: args.out.clone(),
        views,
        size: args.size,
        pose: source.describe(),
        lighting: args.lighting,
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
