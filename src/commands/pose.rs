//! `hanim-viewer pose`: every joint's effective local rotation, translation and world centre, at rest or
//! at a time or frame of one clip, as text or JSON, so poses can be inspected and scripted.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::Result;
use glam::Quat;

use super::args::{PlayAsFileArgs, PlaybackArgs, PoseFileArgs, ReachArgs};
use crate::animation::{Animations, ClipSource, Interpolation, MotionError};
use crate::hanim::Document;
use crate::pose::ik::{ReachOutcome, reach_named};
use crate::pose::{self, Pose};

/// `hanim-viewer pose` arguments.
#[derive(Debug, Clone, clap::Args)]
pub struct PoseArgs {
    /// The X3D file.
    pub file: PathBuf,
    /// An HAnimMotion (name or DEF) or an interpolator clip (its TimeSensor's DEF) to sample; it plays
    /// alone. Without it: the file's rest pose.
    #[arg(long, value_name = "NAME", group = "clip")]
    pub motion: Option<String>,
    /// Frame number of the HAnimMotion.
    #[arg(long, requires = "motion", conflicts_with = "time")]
    pub frame: Option<usize>,
    /// Playback time in seconds from the clip's start (with --play-as-file: of scene time).
    #[arg(long, requires = "clip")]
    pub time: Option<f64>,
    #[command(flatten)]
    pub playback: PlaybackArgs,
    #[command(flatten)]
    pub as_file: PlayAsFileArgs,
    #[command(flatten)]
    pub reach: ReachArgs,
    /// A pose file applied to the rest pose (not with a clip; --reach works on top of it).
    #[command(flatten)]
    pub pose_file: PoseFileArgs,
    /// Print JSON instead of text (a pose file: `--pose-file` and the window's Load pose… read it).
    #[arg(long)]
    pub json: bool,
    /// List the file's clips (HAnimMotions and interpolator clips) instead of a pose.
    #[arg(long, conflicts_with_all = ["motion", "frame", "time", "play_as_file"])]
    pub list: bool,
}

/// One clip of `--list`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ClipReport {
    pub name: String,
    pub kind: String,
    /// Seconds of one pass (slerped frames for HAnimMotions).
    pub duration: f64,
    pub frames: Option<usize>,
    pub enabled: bool,
    pub looping: bool,
    pub started_by: Vec<String>,
    pub tracks: usize,
    pub unsupported: Option<String>,
}

pub fn clip_reports(animations: &Animations) -> Vec<ClipReport> {
    animations
        .clips
        .iter()
        .map(|c| ClipReport {
            name: c.name().to_string(),
            kind: c.kind().to_string(),
            duration: c.duration(Interpolation::Smooth),
            frames: c.frame_count(),
            enabled: c.enabled,
            looping: c.looping,
            started_by: match &c.source {
                ClipSource::Interpolators(i) => i.started_by.clone(),
                ClipSource::Motion { .. } | ClipSource::Authored { .. } => Vec::new(),
            },
            tracks: match &c.source {
                ClipSource::Interpolators(i) => i.tracks.len(),
                ClipSource::Motion { motion, .. } => motion.groups.iter().filter(|g| g.joint.is_some()).count(),
                ClipSource::Authored { clip, .. } => clip.joints().len(),
            },
            unsupported: c.unsupported().map(str::to_string),
        })
        .collect()
}

fn clips_text(clips: &[ClipReport], rejected: &[MotionError]) -> String {
    let mut out = String::new();
    for c in clips {
        let frames = c.frames.map(|f| format!(", {f} frames")).unwrap_or_default();
        let _ = write!(
            out,
            "{} ({}): {:.3} s{frames}, {} tracks, {}{}",
            c.name,
            c.kind,
            c.duration,
            c.tracks,
            if c.enabled { "enabled" } else { "disabled" },
            if c.looping { ", loop" } else { "" }
        );
        if !c.started_by.is_empty() {
            let _ = write!(out, ", started by {}", c.started_by.join(", "));
        }
        if let Some(reason) = &c.unsupported {
            let _ = write!(out, ", UNSUPPORTED: {reason}");
        }
        out.push('\n');
    }
    for e in rejected {
        let _ = writeln!(out, "rejected: {e}");
    }
    if clips.is_empty() && rejected.is_empty() {
        out.push_str("no motions or interpolator clips\n");
    }
    out
}

/// One joint of the report.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct JointReport {
    pub name: String,
    /// Unit axis and angle in radians.
    pub axis_angle: [f32; 4],
    /// x, y, z, w.
    pub quaternion: [f32; 4],
    pub translation: [f32; 3],
    /// The joint's centre in world coordinates at this pose.
    pub global_center: [f32; 3],
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct HumanoidReport {
    pub name: String,
    /// The humanoid's level of articulation (-1: none claimed).
    pub loa: i32,
    /// The root joint's effective translation (what a pose file applies of translations).
    pub root_translation: Option<[f32; 3]>,
    pub joints: Vec<JointReport>,
}

/// The JSON report is a pose file (`crate::pose::file`): `format`, `version`, and per humanoid its name,
/// LOA, root translation and joints with `axis_angle` and `quaternion`; the other fields are extra.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PoseReport {
    pub format: pose::file::FormatTag,
    pub version: pose::file::FormatVersion,
    pub file: String,
    pub motion: Option<String>,
    /// True for the whole scene as the file plays (`--play-as-file`).
    pub as_file: bool,
    /// Playback time in seconds.
    pub time: f64,
    /// Frame position of an HAnimMotion (fractional between frames).
    pub frame: Option<f64>,
    /// The `--reach` solves, one per humanoid that reached (on top of the pose above them).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reach: Vec<ReachOutcome>,
    pub humanoids: Vec<HumanoidReport>,
}

/// A rotation as a unit axis and angle (identity: `0 0 1 0`, as X3D writes it).
pub fn axis_angle(q: Quat) -> [f32; 4] {
    pose::file::axis_angle_of(q)
}

/// The report for `doc` at the poses given.
pub fn report(doc: &Document, poses: &[Pose]) -> Vec<HumanoidReport> {
    doc.humanoids
        .iter()
        .zip(poses)
        .map(|(h, pose)| {
            let world = pose::world_from_joint(h, pose, &pose::humanoid_from_joint(h, pose));
            let joints = h
                .joints
                .iter()
                .enumerate()
                .map(|(j, joint)| {
                    let q = pose.effective_rotation(h, j);
                    let centre = world[j].transform_point3(joint.rest.center);
                    JointReport {
                        name: joint.name.clone(),
                        axis_angle: axis_angle(q),
                        quaternion: q.to_array(),
                        translation: pose.effective_translation(h, j).to_array(),
                        global_center: centre.to_array(),
                    }
                })
                .collect();
            let root_translation = pose::file::root_joint(h).map(|root| pose.effective_translation(h, root).to_array());
            HumanoidReport { name: h.name.clone(), loa: h.loa, root_translation, joints }
        })
        .collect()
}

fn fmt3(v: [f32; 3]) -> String {
    format!("{:.6} {:.6} {:.6}", v[0], v[1], v[2])
}

pub fn render_text(r: &PoseReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", r.file);
    match (&r.motion, r.frame) {
        (Some(m), Some(f)) => {
            let _ = writeln!(out, "motion '{m}' at {:.4} s (frame {f:.3})", r.time);
        }
        (Some(m), None) => {
            let _ = writeln!(out, "clip '{m}' at {:.4} s", r.time);
        }
        _ if r.as_file => {
            let _ = writeln!(out, "as the file plays at {:.4} s", r.time);
        }
        _ => {
            let _ = writeln!(out, "rest pose");
        }
    }
    for solve in &r.reach {
        let _ = writeln!(
            out,
            "reach on '{}': {} steps, {:.3} ms, {}",
            solve.humanoid,
            solve.iterations,
            solve.milliseconds,
            if solve.converged { "converged" } else { "not converged (target out of reach?)" }
        );
        for e in &solve.effectors {
            let what = if e.pinned { "pinned" } else { "reach" };
            let _ = writeln!(
                out,
                "  {what} {:<20} chain from {:<16} target {}  reached {}  distance {:.3e}",
                e.name,
                e.chain_root,
                fmt3(e.target),
                fmt3(e.reached),
                e.distance
            );
        }
        if !solve.at_limit.is_empty() {
            let _ = writeln!(out, "  at a limit: {}", solve.at_limit.join(", "));
        }
    }
    for h in &r.humanoids {
        let _ = writeln!(out, "humanoid '{}': {} joints", h.name, h.joints.len());
        for j in &h.joints {
            let [x, y, z, a] = j.axis_angle;
            let [qx, qy, qz, qw] = j.quaternion;
            let _ = writeln!(
                out,
                "  {:<24} rotation {x:.6} {y:.6} {z:.6} {a:.6} ({:.3}°)  quat {qx:.6} {qy:.6} {qz:.6} {qw:.6}  \
                 translation {}  centre {}",
                j.name,
                a.to_degrees(),
                fmt3(j.translation),
                fmt3(j.global_center)
            );
        }
    }
    out
}

/// Builds the report `args` asks for.
pub fn build_report(doc: &Document, args: &PoseArgs) -> Result<PoseReport> {
    let options = args.playback.options();
    let mut animations = Animations::from_document(doc);
    let as_file = args.as_file.play_as_file;
    let (mut poses, tau, frame) = match &args.motion {
        None if as_file => {
            let t = args.time.unwrap_or(0.0);
            let mut poses: Vec<Pose> = doc.humanoids.iter().map(Pose::rest).collect();
            let playback = crate::animation::events::FilePlayback::new(doc);
            for w in playback.warnings() {
                log::info!("{w}");
            }
            playback.apply(doc, t, &options, &mut poses);
            (poses, t, None)
        }
        None => (doc.humanoids.iter().map(Pose::rest).collect(), 0.0, None),
        Some(name) => {
            let (index, tau) = animations.resolve(name, args.frame, args.time)?;
            animations.solo(index);
            let frame = animations.clips[index].frame_position(tau, options.interpolation);
            (animations.sample(doc, tau, &options), tau, frame)
        }
    };
    if let Some(file) = args.pose_file.read()? {
        if args.motion.is_some() || as_file {
            anyhow::bail!("--pose-file poses the rest pose: it does not combine with --motion or --play-as-file");
        }
        args.pose_file.apply(&file, doc, &mut poses)?;
    }
    let reach = match args.reach.request() {
        Some(request) => reach_named(doc, &mut poses, &request)?,
        None => Vec::new(),
    };
    Ok(PoseReport {
        format: pose::file::FormatTag,
        version: pose::file::FormatVersion::default(),
        file: args.file.display().to_string(),
        motion: args.motion.clone(),
        as_file,
        time: tau,
        frame,
        reach,
        humanoids: report(doc, &poses),
    })
}

/// `hanim-viewer pose`.
pub fn run(args: &PoseArgs) -> Result<()> {
    let doc = crate::hanim::load(&args.file)?;
    if args.list {
        let animations = Animations::from_document(&doc);
        for w in &animations.warnings {
            log::warn!("{w}");
        }
        let clips = clip_reports(&animations);
        let text = if args.json {
            let rejected: Vec<String> = animations.rejected.iter().map(|e| e.to_string()).collect();
            serde_json::to_string_pretty(&serde_json::json!({ "clips": clips, "rejected": rejected }))? + "\n"
        } else {
            clips_text(&clips, &animations.rejected)
        };
        use std::io::Write;
        std::io::stdout().lock().write_all(text.as_bytes())?;
        return Ok(());
    }
    let r = build_report(&doc, args)?;
    let text = if args.json { serde_json::to_string_pretty(&r)? + "\n" } else { render_text(&r) };
    use std::io::Write;
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
}
