//! `catalog --motions DIR --onto HUMANOID.x3d [--map FILE]`: every capture in a folder (ASF/AMC pairs,
//! BVH files) retargeted onto one humanoid, as the window and `render --amc/--bvh` retarget it: one
//! moving preview and one filmstrip per take, with the take's length, frame rate, joints and the
//! retargeting's notes on the page.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};

use super::manifest::{Link, Manifest, PageEntry, Row, Source};
use super::page::{page_failure, preview_figures};
use super::previews::{Preview, clip_preview};
use super::{CatalogOptions, InputFile, entry_order, find_files, progress, share, skipped};
use crate::animation::Animations;
use crate::gpu::GpuContext;
use crate::hanim::{Document, HumanoidIndex};
use crate::mocap::mapping::{Mapping, load_mapping};
use crate::mocap::session::{CaptureRequest, CaptureSession, MappingOrigin, capture_pair};
use crate::output::{StagedFolder, write_png_atomically};
use crate::pose::Pose;
use crate::render::{DocumentDraw, LentRenderer, Offscreen, SceneRequest};

/// The motion files a folder is searched for; an `.amc` plays on the `.asf` beside it.
pub const CAPTURE_EXTENSIONS: &[&str] = &["amc", "bvh"];

/// One take catalogued.
struct Take {
    order: usize,
    id: String,
    name: String,
    skeleton: String,
    motion: String,
    frames: usize,
    fps: f64,
    source_joints: usize,
    driving: usize,
    driven: usize,
    notes: Vec<String>,
    warnings: usize,
    preview: Preview,
    sheet: String,
}

/// Catalogues the takes under `dir` onto the first humanoid of `onto` into `options.out` (all of it, or
/// nothing when the run stops with an error).
pub fn run(
    ctx: &GpuContext,
    dir: &Path,
    onto: &Path,
    map: Option<&Path>,
    fps: Option<f64>,
    options: &CatalogOptions,
) -> Result<ExitCode> {
    let started = std::time::Instant::now();
    let previews = options.previews.as_ref().context("internal: a motion catalogue makes previews")?;
    let mapping =
        map.map(|file| load_mapping(file).map(|m| (m, MappingOrigin::File(file.to_path_buf())))).transpose()?;
    let doc = crate::hanim::load(onto)?;
    let Some(humanoid) = doc.humanoids.first() else { bail!("{}: the file has no HAnimHumanoid", onto.display()) };
    if !dir.is_dir() {
        bail!("{}: not a folder of motion captures", dir.display());
    }
    // Everything is written into a staging folder beside the destination, moved into place once complete.
    let destination = options.out.clone();
    let staged = StagedFolder::new(&destination)?;
    let options = &CatalogOptions { out: staged.path().to_path_buf(), ..options.clone() };
    for sub in ["previews", "sheets"] {
        let path = options.out.join(sub);
        std::fs::create_dir_all(&path).with_context(|| format!("creating {}", path.display()))?;
    }
    // One target and one set of the humanoid's draws for every take.
    let mut offscreen = Offscreen::new(ctx, options.size)?;
    let rest: Vec<Pose> = doc.humanoids.iter().map(Pose::rest).collect();
    let mut draw = DocumentDraw::new(ctx, &offscreen, &doc, &rest)?;
    let (files, mut failures) = find_files(&[dir.to_path_buf()], CAPTURE_EXTENSIONS);
    let files = share(files, &mut failures, options.shard);
    let bar = progress(files.len())?;
    let mut takes = Vec::new();
    for (position, input) in &files {
        bar.set_message(input.path.display().to_string());
        let display = take_request(options).display();
        let mut renderer = LentRenderer { offscreen: &mut offscreen, draw: &mut draw, display };
        match catalogue_take(ctx, &mut renderer, &doc, input, *position, mapping.as_ref(), fps, options, previews) {
            Ok(take) => takes.push(take),
            Err(e) => failures.push(skipped(&bar, *position, input, &e)),
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let name = if humanoid.name.is_empty() { "(unnamed humanoid)" } else { &humanoid.name };
    let map_text = map.map_or("the built-in bone mapping".to_string(), |m| format!("the mapping {}", m.display()));
    let settings = format!(
        "Retargeted onto {name} ({}) with {map_text}; {}x{} pixels. {}",
        onto.display(),
        options.size.width,
        options.size.height,
        previews.describe_clips()
    );
    let manifest = Manifest {
        title: "Motion capture catalogue".to_string(),
        noun: "take".to_string(),
        settings,
        files: files.len(),
        entries: takes.iter().map(|t| page_entry(t, options)).collect(),
        failures: failures.iter().map(page_failure).collect(),
    };
    manifest.write(&options.out)?;
    staged.commit()?;
    eprintln!(
        "catalogued {} take(s) from {} file(s) onto '{name}': {} previews, {} filmstrips, {} in {:.1} s; {} failed",
        takes.len(),
        files.len(),
        takes.len(),
        takes.len(),
        destination.join("index.html").display(),
        started.elapsed().as_secs_f64(),
        failures.len()
    );
    for f in &failures {
        eprintln!("failed: {}: {}", f.file, f.error);
    }
    Ok(if failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// One take: loaded, retargeted, its preview and filmstrip written.
#[allow(clippy::too_many_arguments)]
fn catalogue_take(
    ctx: &GpuContext,
    renderer: &mut LentRenderer,
    doc: &Document,
    input: &InputFile,
    position: usize,
    mapping: Option<&(Mapping, MappingOrigin)>,
    fps: Option<f64>,
    options: &CatalogOptions,
    previews: &super::PreviewOptions,
) -> Result<Take> {
    let (skeleton, amc) = capture_pair(&input.path)?;
    let request = CaptureRequest { skeleton: skeleton.clone(), amc: amc.clone(), mapping: mapping.cloned() };
    let session = CaptureSession::load(doc, HumanoidIndex::FIRST, &request, fps)?;
    let clip = session.clip(doc)?;
    let animations = Animations { clips: vec![clip], ..Animations::default() };
    let scene = take_request(options);
    let made = clip_preview(ctx, renderer, doc, &animations, 0, &scene, &input.id, options, previews)?;
    let sheet = format!("sheets/{}.png", input.id);
    let (w, h, rgba) = super::contact_sheet(&made.strip, options.size.width, options.size.height)?;
    write_png_atomically(&options.out.join(&sheet), w, h, &rgba)?;
    let mut notes = Vec::new();
    let unmapped: Vec<&str> =
        session.statuses.iter().filter(|s| s.listed.is_none()).map(|s| s.source.as_str()).collect();
    if !unmapped.is_empty() {
        notes.push(format!("capture joints the mapping leaves out: {}", unmapped.join(", ")));
    }
    // Mappings list alternatives (`root → HumanoidRoot humanoid_root`): only a joint whose every target
    // is missing drives nothing.
    let lacking: Vec<String> = session
        .statuses
        .iter()
        .filter(|s| s.driven.is_empty() && s.listed.as_ref().is_some_and(|l| !l.is_empty()))
        .map(|s| format!("{} ({})", s.source, s.missing.join(" ")))
        .collect();
    if !lacking.is_empty() {
        notes.push(format!(
            "capture joints that drive nothing, the humanoid lacking their targets: {}",
            lacking.join(", ")
        ));
    }
    let (driving, driven) = session.coverage();
    let clip = &session.capture.clip;
    Ok(Take {
        order: entry_order(position, 0),
        id: input.id.clone(),
        name: session.name.clone(),
        skeleton: skeleton.display().to_string(),
        motion: amc.unwrap_or(skeleton).display().to_string(),
        frames: clip.frame_count(),
        fps: 1.0 / clip.frame_time,
        source_joints: session.capture.rig.joints.len(),
        driving,
        driven,
        notes,
        warnings: session.capture.warnings.len(),
        preview: made.preview,
        sheet,
    })
}

/// How every take is drawn: the humanoid alone, without the file's other Shapes.
fn take_request(options: &CatalogOptions) -> SceneRequest {
    let mut scene = SceneRequest::new(options.size.width, options.size.height);
    scene.show_scene = false;
    scene.only_humanoid = Some(0);
    scene.lighting = options.lighting;
    scene
}

/// The take's part of the page.
fn page_entry(t: &Take, options: &CatalogOptions) -> PageEntry {
    let mut sources = vec![Source { label: "Motion".into(), path: t.motion.clone() }];
    if t.skeleton != t.motion {
        sources.push(Source { label: "Skeleton".into(), path: t.skeleton.clone() });
    }
    let (previews, mut later_notes) = preview_figures(std::slice::from_ref(&t.preview), &t.name, options.size);
    later_notes.extend(t.notes.iter().map(|note| format!("Retargeting: {note}.")));
    let mut table = Vec::new();
    let mut row = |key: &str, value: String| table.push(Row { key: key.to_string(), value });
    // From the first frame to the last, as the clip plays.
    row("length", format!("{:.2} s", t.frames.saturating_sub(1) as f64 / t.fps));
    row("frames", t.frames.to_string());
    row("frame rate", format!("{:.2} frames per second", t.fps));
    row("capture joints", t.source_joints.to_string());
    row("retargeting", format!("{} capture joints drive {} humanoid joints", t.driving, t.driven));
    row("warnings", t.warnings.to_string());
    PageEntry {
        order: t.order,
        id: t.id.clone(),
        name: t.name.clone(),
        sources,
        notes: Vec::new(),
        images: Vec::new(),
        previews,
        later_notes,
        link: Link { label: "Filmstrip".into(), href: t.sheet.clone() },
        table,
        outputs: vec![t.preview.image.clone(), t.sheet.clone()],
    }
}
