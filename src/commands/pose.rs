//! `hanim-viewer pose`: every joint's effective local rotation, translation and world centre, at rest or
//! at a time or frame of one clip, as text or JSON, so poses can be inspected and scripted.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{Result, anyhow, bail};
use glam::{Quat, Vec3};

use super::{Animations, ClipSource, EulerOrder, Interpolation, RootMode, SampleOptions, with_overrides};
use crate::hanim::Document;
use crate::pose::{self, Pose};

/// `hanim-viewer pose` arguments.
#[derive(Debug, Clone, clap::Args)]
pub struct PoseArgs {
    /// The X3D file.
    pub file: PathBuf,
    /// An HAnimMotion (name or DEF) or an interpolator clip (its TimeSensor's DEF) to sample; it plays
    /// alone. Without it: the file's rest pose.
    #[arg(long, value_name = "NAME")]
    pub motion: Option<String>,
    /// Frame number of the HAnimMotion.
    #[arg(long, requires = "motion", conflicts_with = "time")]
    pub frame: Option<usize>,
    /// Playback time in seconds from the clip's start.
    #[arg(long, requires = "motion")]
    pub time: Option<f64>,
    #[command(flatten)]
    pub playback: PlaybackArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// List the file's clips (HAnimMotions and interpolator clips) instead of a pose.
    #[arg(long, conflicts_with_all = ["motion", "frame", "time"])]
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
                ClipSource::Motion { .. } => Vec::new(),
            },
            tracks: match &c.source {
                ClipSource::Interpolators(i) => i.tracks.len(),
                ClipSource::Motion { motion, .. } => motion.groups.iter().filter(|g| g.joint.is_some()).count(),
            },
            unsupported: c.unsupported().map(str::to_string),
        })
        .collect()
}

fn clips_text(clips: &[ClipReport], rejected: &[super::MotionError]) -> String {
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

pub fn parse_root_mode(text: &str) -> Result<RootMode, String> {
    RootMode::from_name(text).ok_or_else(|| format!("'{text}' is not as-given, relative or in-place"))
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
    pub joints: Vec<JointReport>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PoseReport {
    pub file: String,
    pub motion: Option<String>,
    /// Playback time in seconds.
    pub time: f64,
    /// Frame position of an HAnimMotion (fractional between frames).
    pub frame: Option<f64>,
    pub humanoids: Vec<HumanoidReport>,
}

/// A rotation as a unit axis and angle (identity: `0 0 1 0`, as X3D writes it).
pub fn axis_angle(q: Quat) -> [f32; 4] {
    let (axis, angle) = q.normalize().to_axis_angle();
    if angle.abs() < 1e-9 || !axis.is_finite() { [0.0, 0.0, 1.0, 0.0] } else { [axis.x, axis.y, axis.z, angle] }
}

/// Which clip and time a request names: the clip index in `animations` and the playback time.
pub fn resolve_time(
    animations: &Animations,
    motion: &str,
    frame: Option<usize>,
    time: Option<f64>,
) -> Result<(usize, f64)> {
    let Some(index) = animations.find(motion) else {
        if let Some(e) = animations.rejected.iter().find(|e| e.name == motion || e.def.as_deref() == Some(motion)) {
            bail!("{e}");
        }
        let names: Vec<&str> = animations.clips.iter().map(|c| c.name()).collect();
        let close = crate::headless::close_names(motion, names.iter().copied());
        return Err(if close.is_empty() {
            anyhow!(
                "no motion or clip named '{motion}' (the file has: {})",
                if names.is_empty() { "none".to_string() } else { names.join(", ") }
            )
        } else {
            anyhow!("no motion or clip named '{motion}'; close names: {}", close.join(", "))
        });
    };
    let clip = &animations.clips[index];
    if let Some(reason) = clip.unsupported() {
        bail!("clip '{motion}' cannot be played: {reason}");
    }
    let tau = match (frame, &clip.source) {
        (Some(f), ClipSource::Motion { motion: m, .. }) => {
            if f < m.first_frame || f > m.last_frame {
                bail!("frame {f} is outside motion '{motion}' (frames {}..={})", m.first_frame, m.last_frame);
            }
            m.time_of_frame(f as f64)
        }
        (Some(_), ClipSource::Interpolators(_)) => {
            bail!("'{motion}' is an interpolator clip: give --time in seconds, not --frame")
        }
        (None, ClipSource::Motion { motion: m, .. }) => match time {
            Some(t) => t,
            // Neither given: the motion's own current frame (frameIndex, §4.4).
            None if m.frame_increment != 0 => m.time_of_frame(m.frame_index as f64).max(0.0),
            None => 0.0,
        },
        (None, ClipSource::Interpolators(_)) => time.unwrap_or(0.0),
    };
    if !tau.is_finite() {
        bail!("the time must be a finite number of seconds");
    }
    Ok((index, tau))
}

/// The report for `doc` at the poses given.
pub fn report(doc: &Document, poses: &[Pose], overridden: Option<&Document>) -> Vec<HumanoidReport> {
    let shown = overridden.unwrap_or(doc);
    shown
        .humanoids
        .iter()
        .zip(poses)
        .map(|(h, pose)| {
            let world = pose::world_from_joint(h, &pose::humanoid_from_joint(h, pose));
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
            HumanoidReport { name: h.name.clone(), joints }
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
        _ => {
            let _ = writeln!(out, "rest pose");
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

/// How clips are sampled, as `pose` and `render --motion` take it on the command line.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PlaybackArgs {
    /// Show raw frames instead of slerping between them.
    #[arg(long)]
    pub stepped: bool,
    /// Root translation: `as-given` (default), `relative` (to the first frame) or `in-place`.
    #[arg(long, value_name = "MODE", default_value = "as-given", value_parser = parse_root_mode)]
    pub root_mode: RootMode,
    /// Multiply Euler channels as X_ITE does (`Rx·Ry·Rz` whatever the listed order) instead of in the
    /// listed order.
    #[arg(long)]
    pub xite_euler: bool,
}

impl PlaybackArgs {
    pub fn options(&self) -> SampleOptions {
        SampleOptions {
            interpolation: if self.stepped { Interpolation::Stepped } else { Interpolation::Smooth },
            root_mode: self.root_mode,
            euler_order: if self.xite_euler { EulerOrder::Xyz } else { EulerOrder::Listed },
        }
    }
}

/// Builds the report `args` asks for.
pub fn build_report(doc: &Document, args: &PoseArgs) -> Result<PoseReport> {
    let options = args.playback.options();
    let mut animations = Animations::from_document(doc);
    let (poses, overrides, tau, frame) = match &args.motion {
        None => (doc.humanoids.iter().map(Pose::rest).collect(), Vec::new(), 0.0, None),
        Some(name) => {
            let (index, tau) = resolve_time(&animations, name, args.frame, args.time)?;
            animations.solo(index);
            let frame = animations.clips[index].frame_position(tau, options.interpolation);
            let (poses, overrides) = animations.sample(doc, tau, &options);
            (poses, overrides, tau, frame)
        }
    };
    let overridden = with_overrides(doc, &overrides);
    Ok(PoseReport {
        file: args.file.display().to_string(),
        motion: args.motion.clone(),
        time: tau,
        frame,
        humanoids: report(doc, &poses, overridden.as_ref()),
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

/// Joint centre in world coordinates (for callers that only need one joint).
pub fn global_center(doc: &Document, humanoid: usize, pose: &Pose, joint: usize) -> Option<Vec3> {
    let h = doc.humanoids.get(humanoid)?;
    let world = pose::world_from_joint(h, &pose::humanoid_from_joint(h, pose));
    Some(world.get(joint)?.transform_point3(h.joints.get(joint)?.rest.center))
}
