//! `hanim-viewer catalog INPUTS... --out DIR`: every humanoid of every input file rendered in the
//! standard views (the H-Anim 1.0 text recommends them "for the purpose of creating catalogs of
//! humanoid bodies"), a contact sheet per humanoid and an `index.html` listing them.
//!
//! Outputs, all written to a temporary file and renamed, with names derived from the input paths so
//! that a re-run overwrites exactly its own files and nothing else:
//! `DIR/images/<id>-<view>.png`, `DIR/sheets/<id>.png`, `DIR/index.html`.
//! A file that cannot be loaded or rendered is reported and skipped; the others go on.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};

use super::{PoseContext, StandardView, ViewSource, figure_bounds, head_joint, placement};
use crate::animation::pose_command::resolve_time;
use crate::animation::sequence::INTERPOLATOR_SEQUENCE_FPS;
use crate::animation::{Animations, ClipSource, SampleOptions, with_overrides};
use crate::gpu::GpuContext;
use crate::hanim::Document;
use crate::headless::{self, ImageSize, SceneRequest, ViewRequest};
use crate::inspect::info::{self, HumanoidSummary};
use crate::output::{write_atomically as write_file_atomically, write_png_atomically};
use crate::pose::{self, Pose};

/// File extensions searched for in folders (lower case, without the dot): every encoding the loader
/// reads (XML, ClassicVRML, VRML97 and their gzip forms).
pub const INPUT_EXTENSIONS: &[&str] = crate::x3d::SUPPORTED_EXTENSIONS;

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
    #[arg(long, default_value = "320x320", value_parser = headless::parse_size)]
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
    /// The playback time in seconds from the clip's start.
    #[arg(long, requires = "motion")]
    pub time: Option<f64>,
    /// Pose the humanoids with a frame of a motion capture (`--amc`/`--asf` or `--bvh`, with `--frame N`).
    #[command(flatten)]
    pub capture: crate::mocap::cli::CatalogCaptureArgs,
}

fn parse_view(text: &str) -> Result<StandardView, String> {
    StandardView::from_name(text).ok_or_else(|| {
        let names: Vec<&str> = StandardView::ALL.iter().map(|s| s.name()).collect();
        format!("'{text}' is not a standard view ({})", names.join(", "))
    })
}

/// Every humanoid of one document posed for the catalogue.
#[derive(Debug, Clone)]
pub struct Posed {
    /// One per humanoid.
    pub poses: Vec<Pose>,
    /// The document with the humanoid transform fields a clip sets; `None`: the file's own.
    pub document: Option<Document>,
    /// One per humanoid: why it is shown at rest instead of the pose asked for (`None`: as asked).
    pub notes: Vec<Option<String>>,
}

impl Posed {
    /// Every humanoid at rest, each with `note`.
    fn rest(doc: &Document, note: Option<String>) -> Posed {
        Posed {
            poses: doc.humanoids.iter().map(Pose::rest).collect(),
            document: None,
            notes: vec![note; doc.humanoids.len()],
        }
    }
}

/// The pose each humanoid is catalogued in: the rest pose ([`RestPose`]) or a frame of a clip
/// ([`MotionFrame`]).
pub trait PoseSource {
    /// The poses of every humanoid of `doc`.
    fn poses(&self, doc: &Document) -> Result<Posed>;
    /// What the page says of the pose ("rest pose", "frame 10 of motion 'walk'").
    fn describe(&self) -> String;
}

/// The file's own values (§1.4 "Reset all").
pub struct RestPose;

impl PoseSource for RestPose {
    fn poses(&self, doc: &Document) -> Result<Posed> {
        Ok(Posed::rest(doc, None))
    }

    fn describe(&self) -> String {
        "rest pose".to_string()
    }
}

/// One moment of the clip `name`, resolved in each file as `render --motion` resolves it
/// ([`resolve_time`]): an HAnimMotion by name or DEF, an interpolator clip by its TimeSensor's DEF. The
/// clip plays alone, with the default sampling options (slerped, root as given). A frame of an
/// interpolator clip is `frame / 30` s ([`INTERPOLATOR_SEQUENCE_FPS`]). Files without the clip, or whose
/// clip cannot show that moment, are catalogued at rest with the reason as a note: a catalogue of many
/// files rarely has one clip name in all of them, and a figure at rest is still worth listing.
pub struct MotionFrame {
    pub name: String,
    pub frame: Option<usize>,
    pub time: Option<f64>,
}

impl PoseSource for MotionFrame {
    fn poses(&self, doc: &Document) -> Result<Posed> {
        let mut animations = Animations::from_document(doc);
        let (frame, time) = match (animations.find(&self.name).map(|i| &animations.clips[i].source), self.frame) {
            (Some(ClipSource::Interpolators(_)), Some(f)) => (None, Some(f as f64 / INTERPOLATOR_SEQUENCE_FPS)),
            _ => (self.frame, self.time),
        };
        let (index, tau) = match resolve_time(&animations, &self.name, frame, time) {
            Ok(found) => found,
            Err(e) => return Ok(Posed::rest(doc, Some(format!("{e:#}")))),
        };
        animations.solo(index);
        let driven: Vec<bool> = (0..doc.humanoids.len())
            .map(|h| match &animations.clips[index].source {
                ClipSource::Motion { humanoid, .. } => *humanoid == h,
                ClipSource::Interpolators(c) => c.tracks.iter().any(|t| t.humanoid == h),
            })
            .collect();
        let (poses, overrides) = animations.sample(doc, tau, &SampleOptions::default());
        let notes = driven
            .iter()
            .map(|&d| (!d).then(|| format!("clip '{}' does not drive this humanoid", self.name)))
            .collect();
        Ok(Posed { poses, document: with_overrides(doc, &overrides), notes })
    }

    fn describe(&self) -> String {
        match (self.frame, self.time) {
            (Some(f), _) => format!("frame {f} of clip '{}'", self.name),
            (None, Some(t)) => format!("{t} s into clip '{}'", self.name),
            (None, None) => format!("clip '{}' at its start (an HAnimMotion at its frameIndex)", self.name),
        }
    }
}

/// What to catalogue and how.
#[derive(Debug, Clone)]
pub struct CatalogOptions {
    pub out: PathBuf,
    pub views: Vec<StandardView>,
    pub size: ImageSize,
    /// What the page says of the pose ([`PoseSource::describe`]).
    pub pose: String,
}

/// One input file found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputFile {
    pub path: PathBuf,
    /// Identifier for output names: the path relative to the folder it was found in (the file name
    /// for a file given directly), without extension, made safe for file names.
    pub id: String,
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

fn has_input_extension(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| INPUT_EXTENSIONS.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// Characters safe in a file name on every platform; others become `_`, folders `__`.
fn slug(relative: &Path) -> String {
    let mut parts = Vec::new();
    for component in relative.with_extension("").components() {
        let text = component.as_os_str().to_string_lossy();
        parts.push(
            text.chars()
                .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_') { c } else { '_' })
                .collect::<String>(),
        );
    }
    let joined = parts.join("__");
    if joined.is_empty() { "input".to_string() } else { joined }
}

/// The input files, in a stable order (each folder's files sorted by path), each once; a path that
/// does not exist is a failure, not an error.
pub fn find_inputs(inputs: &[PathBuf]) -> (Vec<InputFile>, Vec<Failure>) {
    let mut files = Vec::new();
    let mut failures = Vec::new();
    let mut seen = HashSet::new();
    let mut ids = HashSet::new();
    let mut add = |path: PathBuf, relative: &Path, files: &mut Vec<InputFile>| {
        let key = path.canonicalize().unwrap_or_else(|_| path.clone());
        if !seen.insert(key) {
            return;
        }
        let base = slug(relative);
        let mut id = base.clone();
        let mut n = 2;
        while !ids.insert(id.clone()) {
            id = format!("{base}-{n}");
            n += 1;
        }
        files.push(InputFile { path, id });
    };
    for input in inputs {
        if input.is_dir() {
            let mut found = Vec::new();
            let mut stack = vec![input.clone()];
            while let Some(dir) = stack.pop() {
                let entries = match std::fs::read_dir(&dir) {
                    Ok(e) => e,
                    Err(e) => {
                        failures.push(Failure { file: dir.display().to_string(), error: format!("cannot read: {e}") });
                        continue;
                    }
                };
                for entry in entries.flatten() {
                    let path = entry.path();
                    if path.is_dir() {
                        stack.push(path);
                    } else if has_input_extension(&path) {
                        found.push(path);
                    }
                }
            }
            found.sort();
            for path in found {
                let relative = path.strip_prefix(input).map(Path::to_path_buf).unwrap_or_else(|_| path.clone());
                add(path, &relative, &mut files);
            }
        } else if input.is_file() {
            let name = input.file_name().map(PathBuf::from).unwrap_or_else(|| input.clone());
            add(input.clone(), &name, &mut files);
        } else {
            failures.push(Failure { file: input.display().to_string(), error: "no such file or folder".to_string() });
        }
    }
    (files, failures)
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
fn catalogue_humanoid(
    ctx: &GpuContext,
    doc: &Document,
    input: &InputFile,
    index: usize,
    poses: &[Pose],
    pose_note: Option<String>,
    options: &CatalogOptions,
) -> Result<CatalogEntry> {
    let h = &doc.humanoids[index];
    let id = if doc.humanoids.len() == 1 { input.id.clone() } else { format!("{}--{}", input.id, index + 1) };
    let ImageSize { width, height } = options.size;
    let aspect = width as f32 / height as f32;
    let pose = &poses[index];
    let g = pose::humanoid_from_joint(h, pose);
    let figure = figure_bounds(doc, index, pose)?;
    let ctx_pose = PoseContext { doc, humanoid: index, humanoid_from_joint: &g, figure: &figure, aspect };
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
        let mut request = SceneRequest::new(width, height);
        request.view = ViewRequest::Camera(placed.camera(&figure));
        request.poses = Some(poses.to_vec());
        request.show_skeleton = show_skeleton;
        // A catalogue shows the body it is about: floors, props and the file's other humanoids would crowd
        // the frame the figure was framed for.
        request.show_scene = false;
        request.only_humanoid = Some(index);
        let image = headless::render_document(ctx, doc, &request)
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

/// Gap between cells of a contact sheet, in pixels.
const SHEET_GAP: u32 = 8;
/// Contact sheet background (sRGB).
const SHEET_BACKGROUND: [u8; 4] = [32, 32, 32, 255];

/// The images side by side in one row with a gap around each; one empty cell when there are none.
pub fn contact_sheet(images: &[Vec<u8>], width: u32, height: u32) -> Result<(u32, u32, Vec<u8>)> {
    let cells = images.len().max(1) as u32;
    let sheet_width = cells * width + (cells + 1) * SHEET_GAP;
    let sheet_height = height + 2 * SHEET_GAP;
    let mut sheet = image::RgbaImage::from_pixel(sheet_width, sheet_height, image::Rgba(SHEET_BACKGROUND));
    for (i, rgba) in images.iter().enumerate() {
        let cell = image::RgbaImage::from_raw(width, height, rgba.clone())
            .ok_or_else(|| anyhow!("internal: a view image is not {width}x{height} RGBA"))?;
        let x = SHEET_GAP + i as u32 * (width + SHEET_GAP);
        image::imageops::replace(&mut sheet, &cell, i64::from(x), i64::from(SHEET_GAP));
    }
    Ok((sheet_width, sheet_height, sheet.into_raw()))
}

/// Loads and catalogues one file; every humanoid or nothing (the file then counts as failed).
fn catalogue_file(
    ctx: &GpuContext,
    input: &InputFile,
    options: &CatalogOptions,
    poses: &dyn PoseSource,
) -> Result<Vec<CatalogEntry>> {
    let doc = crate::hanim::load(&input.path)?;
    if doc.humanoids.is_empty() {
        bail!("{}: the file has no HAnimHumanoid", input.path.display());
    }
    let Posed { poses, document, notes } = poses.poses(&doc)?;
    // A copy when the clip sets humanoid transform fields: bounds, cameras and drawing all follow them.
    let shown = document.as_ref().unwrap_or(&doc);
    (0..doc.humanoids.len())
        .map(|i| catalogue_humanoid(ctx, shown, input, i, &poses, notes[i].clone(), options))
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
    let mut entries = Vec::new();
    for input in &files {
        bar.set_message(input.path.display().to_string());
        match catalogue_file(ctx, input, options, poses) {
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

/// HTML text with `& < > " '` escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// A well-formed (XHTML-compatible) HTML page: each humanoid with its thumbnails, name, info fields,
/// LOA and counts, then the failed files. No run-dependent text (times, dates), so that re-running on
/// the same inputs gives the same page.
pub fn index_html(report: &CatalogReport, options: &CatalogOptions) -> String {
    let thumb = 160.min(options.size.width);
    let thumb_height = (thumb as f32 * options.size.height as f32 / options.size.width as f32).round() as u32;
    let mut out = String::new();
    let _ = writeln!(out, "<!DOCTYPE html>");
    let _ = writeln!(out, "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">");
    let _ = writeln!(out, "<head>\n<meta charset=\"utf-8\"/>\n<title>H-Anim humanoid catalogue</title>");
    let _ = writeln!(
        out,
        "<style>\nbody {{ font-family: sans-serif; margin: 1em 2em; background: #fafafa; }}\n\
         section {{ border-top: 1px solid #ccc; padding: 0.5em 0; }}\n\
         figure {{ display: inline-block; margin: 0 0.5em 0.5em 0; text-align: center; }}\n\
         figcaption {{ font-size: 0.85em; color: #444; }}\n\
         table {{ border-collapse: collapse; font-size: 0.9em; }}\n\
         td, th {{ text-align: left; padding: 0.1em 0.8em 0.1em 0; vertical-align: top; }}\n\
         .note {{ color: #a40; }}\n</style>\n</head>\n<body>"
    );
    let _ = writeln!(out, "<h1>H-Anim humanoid catalogue</h1>");
    let views: Vec<&str> = options.views.iter().map(|v| v.name()).collect();
    let _ = writeln!(
        out,
        "<p>{} humanoid(s) from {} file(s); {} failed. Views: {}; {}x{} pixels each, {}.</p>",
        report.entries.len(),
        report.files,
        report.failures.len(),
        escape(&views.join(", ")),
        options.size.width,
        options.size.height,
        escape(&options.pose)
    );
    if !report.entries.is_empty() {
        let _ = writeln!(out, "<ul>");
        for e in &report.entries {
            let _ = writeln!(
                out,
                "<li><a href=\"#{}\">{}</a> ({})</li>",
                escape(&e.id),
                escape(&e.summary.name),
                escape(&e.id)
            );
        }
        let _ = writeln!(out, "</ul>");
    }
    for e in &report.entries {
        let s = &e.summary;
        let _ = writeln!(out, "<section id=\"{}\">", escape(&e.id));
        let name = if s.name.is_empty() { "(unnamed humanoid)" } else { &s.name };
        let _ = writeln!(out, "<h2>{}</h2>", escape(name));
        let _ = writeln!(out, "<p>File: <code>{}</code></p>", escape(&e.file));
        if e.empty {
            let _ = writeln!(
                out,
                "<p class=\"note\">This humanoid has no joints and no geometry: its images are empty.</p>"
            );
        }
        if let Some(note) = &e.pose_note {
            let _ = writeln!(out, "<p class=\"note\">Shown at rest: {}.</p>", escape(note));
        }
        if e.skeleton_shown {
            let _ = writeln!(
                out,
                "<p class=\"note\">Skeleton drawn: the figure's own geometry is mostly lines and points.</p>"
            );
        }
        let _ = writeln!(out, "<div>");
        for image in &e.images {
            let src = escape(&image.image);
            let _ = writeln!(
                out,
                "<figure><a href=\"{src}\"><img src=\"{src}\" width=\"{thumb}\" height=\"{thumb_height}\" alt=\"{} {}\"/></a>\
                 <figcaption>{}</figcaption></figure>",
                escape(name),
                image.view.name(),
                image.view.label()
            );
        }
        let _ = writeln!(out, "</div>");
        for (view, why) in &e.missing {
            let _ = writeln!(out, "<p class=\"note\">No {} view: {}.</p>", view.name(), escape(why));
        }
        let _ = writeln!(out, "<p><a href=\"{}\">Contact sheet</a></p>", escape(&e.sheet));
        let _ = writeln!(out, "<table>");
        let mut row = |key: &str, value: &str| {
            let _ = writeln!(out, "<tr><th>{}</th><td>{}</td></tr>", escape(key), escape(value));
        };
        let loa = if s.loa < 0 { "not stated (-1)".to_string() } else { s.loa.to_string() };
        row("LOA", &loa);
        row("version", &s.version);
        if !s.description.is_empty() {
            row("description", &s.description);
        }
        for entry in &s.info {
            row(&entry.key, &entry.value);
        }
        let c = &s.counts;
        row("joints", &c.joints.to_string());
        row("segments", &c.segments.to_string());
        row("sites", &format!("{} ({} viewpoint sites)", c.sites, c.viewpoint_sites));
        row("displacers", &format!("{} on joints, {} on segments", c.displacers_on_joints, c.displacers_on_segments));
        row("skin", &format!("{} points, {} weighted joints", c.skin_points, c.skinned_joints));
        row("motions", &c.motions.to_string());
        if let Some(b) = &s.rest_bbox {
            row("size at rest (m)", &format!("{:.3} x {:.3} x {:.3}", b.size[0], b.size[1], b.size[2]));
        }
        row("warnings", &s.warning_count.to_string());
        let _ = writeln!(out, "</table>\n</section>");
    }
    if !report.failures.is_empty() {
        let _ = writeln!(out, "<section id=\"failures\">\n<h2>Files that failed</h2>\n<ul>");
        for f in &report.failures {
            let _ = writeln!(out, "<li><code>{}</code>: {}</li>", escape(&f.file), escape(&f.error));
        }
        let _ = writeln!(out, "</ul>\n</section>");
    }
    let _ = writeln!(out, "</body>\n</html>");
    out
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
    let capture = crate::mocap::cli::CapturePose::from_args(&args.capture, args.frame.unwrap_or(0))?;
    let ctx = GpuContext::headless(args.adapter.as_deref())?;
    log::info!("rendering on {}", ctx.summary);
    let source: Box<dyn PoseSource> = match (&args.motion, capture) {
        (Some(name), _) => Box::new(MotionFrame { name: name.clone(), frame: args.frame, time: args.time }),
        (None, Some(capture)) => Box::new(capture),
        (None, None) => {
            if args.frame.is_some() || args.time.is_some() {
                bail!("--frame and --time need --motion, --amc or --bvh");
            }
            Box::new(RestPose)
        }
    };
    if args.time.is_some_and(|t| !t.is_finite()) {
        bail!("--time must be a finite number of seconds");
    }
    let options = CatalogOptions { out: args.out.clone(), views, size: args.size, pose: source.describe() };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_safe_and_keep_folders_apart() {
        assert_eq!(slug(Path::new("JoeKick.x3d")), "JoeKick");
        assert_eq!(slug(Path::new("a b/c&d.x3d")), "a_b__c_d");
        assert_eq!(slug(Path::new("")), "input");
    }

    #[test]
    fn inputs_are_found_recursively_once_each_in_a_stable_order() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("sub/deeper")).unwrap();
        for name in [
            "b.x3d",
            "a.X3D",
            "sub/deeper/c.x3d",
            "sub/notes.txt",
            "sub/b.x3d",
            "sub/d.wrl",
            "sub/e.x3dv",
            "sub/f.wrz",
            "sub/g.x3dz",
            "sub/h.wrl.gz",
        ] {
            std::fs::write(root.join(name), "").unwrap();
        }
        let (files, failures) = find_inputs(&[root.to_path_buf(), root.join("b.x3d"), root.join("missing.x3d")]);
        let ids: Vec<&str> = files.iter().map(|f| f.id.as_str()).collect();
        // Every encoding the loader reads is found; `h.wrl.gz` keeps its inner extension in its id.
        assert_eq!(ids, ["a", "b", "sub__b", "sub__d", "sub__deeper__c", "sub__e", "sub__f", "sub__g", "sub__h.wrl"]);
        assert_eq!(failures.len(), 1);
        assert!(failures[0].file.ends_with("missing.x3d"), "{failures:?}");
    }

    #[test]
    fn contact_sheet_places_cells_in_a_row() {
        let red = [255u8, 0, 0, 255].repeat(4);
        let blue = [0u8, 0, 255, 255].repeat(4);
        let (w, h, rgba) = contact_sheet(&[red, blue], 2, 2).unwrap();
        assert_eq!((w, h), (2 * 2 + 3 * SHEET_GAP, 2 + 2 * SHEET_GAP));
        let pixel = |x: u32, y: u32| &rgba[((y * w + x) * 4) as usize..((y * w + x) * 4 + 4) as usize];
        assert_eq!(pixel(SHEET_GAP, SHEET_GAP), [255, 0, 0, 255]);
        assert_eq!(pixel(2 * SHEET_GAP + 2, SHEET_GAP + 1), [0, 0, 255, 255]);
        assert_eq!(pixel(0, 0), SHEET_BACKGROUND);
    }

    #[test]
    fn html_text_is_escaped() {
        assert_eq!(escape("<a href='x'>&\"</a>"), "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;");
    }
}
