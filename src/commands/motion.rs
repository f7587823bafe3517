//! `hanim-viewer motion …`: import a capture onto a humanoid, write a capture's stick figure, render one
//! of its frames, print the default joint mapping; `motion keys` (in [`super::motion_keys`]) writes keyed
//! poses as a motion.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::args::parse_size;
use crate::mocap::mapping::{self, Mapping};
use crate::mocap::{Capture, CaptureLoadOptions, StickFigure, export, load_capture as load_capture_with, retarget};
use crate::pose::JointRotation;
use crate::render::{ImageSize, RenderedImage, SceneRequest, ViewRequest, render_document};

#[derive(Debug, Clone, clap::Args)]
pub struct MotionArgs {
    #[command(subcommand)]
    pub command: MotionCommand,
}

/// Options shared by the commands that read a capture.
#[derive(Debug, Clone, clap::Args)]
pub struct CaptureOptions {
    /// Frames per second of an AMC (AMC files store none; CMU captured at 120). For a BVH, overrides its
    /// Frame Time.
    #[arg(long, value_name = "FPS")]
    pub fps: Option<f64>,
    /// Metres per BVH length unit (default: guessed from the skeleton's height; ASF files state theirs).
    #[arg(long, value_name = "METRES")]
    pub bvh_unit: Option<f64>,
}

#[derive(Debug, Clone, clap::Subcommand)]
pub enum MotionCommand {
    /// Retarget an AMC (with --asf) or BVH motion onto the humanoid and write a copy of the humanoid file
    /// with the motion added as an HAnimMotion node.
    Import {
        /// The X3D (XML) humanoid file.
        humanoid: PathBuf,
        /// The motion: an .amc (needs --asf) or a .bvh.
        motion: PathBuf,
        /// The ASF skeleton of an AMC motion.
        #[arg(long, value_name = "ASF")]
        asf: Option<PathBuf>,
        /// Where to write the X3D copy (temporary file, then rename).
        #[arg(long, value_name = "X3D")]
        out: PathBuf,
        /// Joint mapping file (lines `SOURCE TARGET…`; default: the built-in table for the source's names).
        #[arg(long, value_name = "FILE")]
        map: Option<PathBuf>,
        /// Which humanoid of the file (1 = the first).
        #[arg(long, default_value_t = 1)]
        humanoid_number: usize,
        /// The motion's name (default: the motion file's stem).
        #[arg(long)]
        name: Option<String>,
        #[command(flatten)]
        capture: CaptureOptions,
    },
    /// Write a capture's skeleton as an H-Anim stick-figure humanoid with its motion as an HAnimMotion.
    Stick {
        /// An .asf or .bvh file.
        skeleton: PathBuf,
        /// The .amc motion of an ASF (default: the rest pose only).
        #[arg(long, value_name = "AMC")]
        amc: Option<PathBuf>,
        #[arg(long, value_name = "X3D")]
        out: PathBuf,
        #[command(flatten)]
        capture: CaptureOptions,
    },
    /// Render one frame of a capture's stick figure offscreen to a PNG.
    Render {
        /// An .asf or .bvh file.
        skeleton: PathBuf,
        #[arg(long, value_name = "AMC")]
        amc: Option<PathBuf>,
        #[arg(long, value_name = "PNG")]
        out: PathBuf,
        /// The frame (0 = the first).
        #[arg(long, default_value_t = 0)]
        frame: usize,
        #[arg(long, default_value = "640x480", value_parser = parse_size)]
        size: ImageSize,
        /// `front`, `side`, `top` or `inclined`.
        #[arg(long, default_value = "front")]
        view: String,
        /// Render this X3D humanoid with the motion retargeted onto it instead of the stick figure (joint
        /// rotations only: the humanoid stays at its rest root position).
        #[arg(long, value_name = "X3D")]
        onto: Option<PathBuf>,
        /// Joint mapping file (default: the built-in table for the source's names).
        #[arg(long, value_name = "FILE")]
        map: Option<PathBuf>,
        /// Use the GPU adapter whose name contains NAME.
        #[arg(long, value_name = "NAME")]
        adapter: Option<String>,
        #[command(flatten)]
        capture: CaptureOptions,
    },
    /// Poses at times (rest, joint rotations, IK reaches) as an authored clip, written into a copy of the
    /// humanoid file as an HAnimMotion sampled at --fps (or TimeSensor + interpolators), optionally with a
    /// pose as the new rest pose.
    Keys(super::motion_keys::KeysArgs),
    /// Print the joint mapping that would be used for a skeleton (edit it and pass it with --map).
    Mapping {
        /// An .asf or .bvh file.
        skeleton: PathBuf,
    },
}

/// Loads an ASF (+ optional AMC) or a BVH with the command line's options.
pub fn load_capture(skeleton: &Path, amc: Option<&Path>, options: &CaptureOptions) -> Result<Capture> {
    Ok(load_capture_with(skeleton, amc, &CaptureLoadOptions { fps: options.fps, bvh_unit: options.bvh_unit })?)
}

fn mapping_for(capture: &Capture, file: Option<&Path>) -> Result<Mapping> {
    Ok(match file {
        Some(path) => mapping::load_mapping(path)?,
        None => mapping::default_mapping(capture.rig.joints.iter().map(|j| j.name.as_str())),
    })
}

fn stem(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "motion".into())
}

pub fn run(args: &MotionArgs) -> Result<()> {
    match &args.command {
        MotionCommand::Import { humanoid, motion, asf, out, map, humanoid_number, name, capture } => {
            let capture = match (asf, crate::mocap::is_bvh(motion)) {
                (Some(_), true) => bail!("{}: a BVH motion carries its own skeleton; drop --asf", motion.display()),
                (None, false) => {
                    bail!("{}: an AMC motion needs its skeleton: add --asf SKELETON.asf", motion.display())
                }
                (Some(asf), false) => load_capture(asf, Some(motion), capture)?,
                (None, true) => load_capture(motion, None, capture)?,
            };
            if capture.clip.frame_count() == 0 {
                bail!("{}: the motion has no frames to import", motion.display());
            }
            let mapping = mapping_for(&capture, map.as_deref())?;
            let original = crate::input::read_text(humanoid, crate::input::InputKind::X3dDocument)?;
            let name = name.clone().unwrap_or_else(|| stem(motion));
            let Imported { text, result, track } =
                import_into(&original, humanoid, *humanoid_number, &capture, &mapping, &name, motion)?;
            crate::output::write_atomically(out, text.as_bytes())?;
            let mut stdout = std::io::stdout().lock();
            writeln!(
                stdout,
                "{}: motion '{name}': {} frames × {} joints ({} channels), {:.4} s per frame, root scale {:.4}",
                out.display(),
                track.frame_count(),
                track.joints.len(),
                track.joints.len() * 3 + 3,
                track.frame_duration,
                result.scale
            )?;
            for (source, targets) in &result.pairs {
                writeln!(stdout, "  {source} → {}", targets.join(" "))?;
            }
            Ok(())
        }
        MotionCommand::Stick { skeleton, amc, out, capture } => {
            let capture = load_capture(skeleton, amc.as_deref(), capture)?;
            let mapping = mapping_for(&capture, None)?;
            let names = export::stick_joint_names(&capture.rig, &mapping);
            let motion_name = stem(amc.as_deref().unwrap_or(skeleton));
            let track = export::stick_track(
                &capture.rig,
                &capture.clip,
                &names,
                &motion_name,
                &format!("{motion_name} on its own skeleton"),
            );
            let text = export::stick_figure_x3d(&capture.rig, &names, None, Some(&track));
            crate::output::write_atomically(out, text.as_bytes())?;
            println!("{}: {} joints, {} frames", out.display(), capture.rig.joints.len(), capture.clip.frame_count());
            Ok(())
        }
        MotionCommand::Render { skeleton, amc, out, frame, size, view, onto, map, adapter, capture } => {
            let capture = load_capture(skeleton, amc.as_deref(), capture)?;
            let frames = capture.clip.frame_count();
            if *frame >= frames {
                bail!("--frame {frame}: the motion has {frames} frames (0 to {})", frames.saturating_sub(1));
            }
            let mapping = mapping_for(&capture, map.as_deref())?;
            let image = match onto {
                Some(humanoid) => {
                    render_retargeted(&capture, &mapping, humanoid, *frame, *size, view, adapter.as_deref())?
                }
                None => render_frame(&capture, &mapping, *frame, *size, view, adapter.as_deref())?,
            };
            crate::output::write_png_atomically(out, image.width, image.height, &image.rgba)?;
            println!("{}: frame {frame} of {frames}, {}x{}", out.display(), image.width, image.height);
            Ok(())
        }
        MotionCommand::Keys(keys) => super::motion_keys::run(keys),
        MotionCommand::Mapping { skeleton } => {
            let capture = load_capture(skeleton, None, &CaptureOptions { fps: None, bvh_unit: None })?;
            print!("{}", mapping_for(&capture, None)?.to_text());
            Ok(())
        }
    }
}

/// A humanoid file's text with a retargeted motion added, and what went into it.
pub struct Imported {
    pub text: String,
    pub result: retarget::Retargeted,
    pub track: export::MotionTrack,
}

/// Retargets `capture` onto humanoid number `humanoid_number` (from 1) of the X3D text `original` (read
/// from `path`) and inserts it as the HAnimMotion `name`; `motion_file` names the source in the
/// description.
pub fn import_into(
    original: &str,
    path: &Path,
    humanoid_number: usize,
    capture: &Capture,
    mapping: &Mapping,
    name: &str,
    motion_file: &Path,
) -> Result<Imported> {
    let doc = crate::hanim::load_str(original, path)?;
    let index = humanoid_number.checked_sub(1).context("--humanoid-number counts from 1")?;
    let Some(h) = doc.humanoids.get(index) else {
        bail!(
            "{}: humanoid number {humanoid_number} does not exist (the file has {})",
            path.display(),
            doc.humanoids.len()
        );
    };
    let result = retarget::retarget(&capture.rig, &capture.clip, h, mapping)?;
    for note in &result.notes {
        log::warn!("{note}");
    }
    let description = format!(
        "{name} retargeted from {}",
        motion_file.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default()
    );
    let track = export::MotionTrack::retargeted(&result, h, name, description);
    let text = export::insert_motion(original, path, index, &track.to_xml(&track.def_name(original), "      "))?;
    Ok(Imported { text, result, track })
}

/// Renders frame `frame` of the capture's stick figure with the skeleton overlay and the ground grid.
pub fn render_frame(
    capture: &Capture,
    mapping: &Mapping,
    frame: usize,
    size: ImageSize,
    view: &str,
    adapter: Option<&str>,
) -> Result<RenderedImage> {
    let doc = posed_stick_document(capture, mapping, frame)?;
    let ctx = crate::gpu::GpuContext::headless(adapter).map_err(|e| anyhow::anyhow!(e))?;
    let mut request = SceneRequest::new(size.width, size.height);
    request.view = ViewRequest::Named(view.to_string());
    request.show_skeleton = true;
    request.show_grid = true;
    Ok(render_document(&ctx, &doc, &request)?)
}

/// The stick figure with frame `frame` as its rest pose (what `motion render` draws).
pub fn posed_stick_document(capture: &Capture, mapping: &Mapping, frame: usize) -> Result<crate::hanim::Document> {
    let names = export::stick_joint_names(&capture.rig, mapping);
    let text = export::stick_figure_x3d(&capture.rig, &names, Some((&capture.clip, frame)), None);
    Ok(crate::hanim::load_str(&text, Path::new("stick-figure.x3d"))?)
}

/// Renders the humanoid of `humanoid_file` at frame `frame` of the capture retargeted onto it: each
/// joint's rotation is passed as the offset `Δ = r_rest⁻¹·r` that the render command applies after the
/// file rotation (the root translation is not applied).
pub fn render_retargeted(
    capture: &Capture,
    mapping: &Mapping,
    humanoid_file: &Path,
    frame: usize,
    size: ImageSize,
    view: &str,
    adapter: Option<&str>,
) -> Result<RenderedImage> {
    let doc = crate::hanim::load(humanoid_file)?;
    let h = doc.humanoids.first().with_context(|| format!("{}: no HAnimHumanoid", humanoid_file.display()))?;
    let result = retarget::retarget(&capture.rig, &capture.clip, h, mapping)?;
    let pose = result.pose(h, frame);
    let mut request = SceneRequest::new(size.width, size.height);
    request.view = ViewRequest::Named(view.to_string());
    request.show_grid = true;
    // Humanoids whose skin carries no weights do not deform: the skeleton shows the pose anyway.
    request.show_skeleton = true;
    for &j in &result.joints {
        let offset = h.joints[j].rest.rotation.inverse() * pose.rotations[j];
        let (axis, angle) = offset.to_axis_angle();
        if angle.abs() > 1e-7 {
            // Match by DEF when there is one: names may repeat across humanoids, DEFs may not.
            let joint = h.joints[j].def.clone().unwrap_or_else(|| h.joints[j].name.clone());
            request.joint_rotations.push(JointRotation { joint, axis, angle });
        }
    }
    let ctx = crate::gpu::GpuContext::headless(adapter).map_err(|e| anyhow::anyhow!(e))?;
    Ok(render_document(&ctx, &doc, &request)?)
}

/// The stick figure of a capture (re-exported for the viewer and tests).
pub fn stick_figure(capture: &Capture) -> Result<StickFigure> {
    Ok(StickFigure::new(&capture.rig, &mapping::default_mapping(capture.rig.joints.iter().map(|j| j.name.as_str())))?)
}
