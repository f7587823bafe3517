//! `hanim-viewer motion keys`: poses given at times become an authored clip, written into a copy of the
//! humanoid file as an HAnimMotion (or TimeSensor + interpolators), as File ▸ Save as X3D… does in the
//! window.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};

use super::args::{parse_fps, parse_joint_rotation, parse_reach};
use crate::animation::{AuthoredClip, Key};
use crate::hanim::Document;
use crate::mocap::keys_export::{KeysExportOptions, export_keys, summary};
use crate::pose::ik::{IkOptions, Reach, ReachRequest, reach_named};
use crate::pose::{JointRotation, Pose, poses_for};

/// A pose on the command line: `rest`, or edits joined by `+`, each `JOINT=X,Y,Z,ANGLE` (a rotation
/// offset about a unit axis, radians, as `--pose`) or `reach:EFFECTOR=X,Y,Z` (an IK reach to world
/// coordinates, as `--reach`); rotations first, then the reaches in order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PoseSpec {
    pub rotations: Vec<JointRotation>,
    pub reaches: Vec<Reach>,
}

pub fn parse_pose_spec(text: &str) -> Result<PoseSpec, String> {
    let mut spec = PoseSpec::default();
    if text.trim() == "rest" {
        return Ok(spec);
    }
    for item in text.split('+').map(str::trim) {
        match item.strip_prefix("reach:") {
            Some(reach) => spec.reaches.push(parse_reach(reach)?),
            None => spec.rotations.push(parse_joint_rotation(item)?),
        }
    }
    Ok(spec)
}

/// `--key T=POSE`.
#[derive(Debug, Clone, PartialEq)]
pub struct KeySpec {
    pub time: f64,
    pub pose: PoseSpec,
}

pub fn parse_key(text: &str) -> Result<KeySpec, String> {
    let expected = || {
        format!(
            "'{text}' is not SECONDS=POSE (POSE: rest, or JOINT=X,Y,Z,ANGLE and reach:EFFECTOR=X,Y,Z joined by +; \
             e.g. 1=reach:l_hand_tip=0.3,1.5,0.2)"
        )
    };
    let (time, pose) = text.split_once('=').ok_or_else(expected)?;
    let time: f64 = time.trim().parse().map_err(|_| expected())?;
    if !(time.is_finite() && time >= 0.0) {
        return Err(format!("'{text}': the key's time must be seconds ≥ 0"));
    }
    Ok(KeySpec { time, pose: parse_pose_spec(pose)? })
}

#[derive(Debug, Clone, clap::Args)]
pub struct KeysArgs {
    /// The X3D (XML) humanoid file.
    pub file: PathBuf,
    /// A key: SECONDS=POSE, POSE being `rest` or edits joined by `+`: JOINT=X,Y,Z,ANGLE (rotation offset,
    /// radians) and reach:EFFECTOR=X,Y,Z (inverse kinematics to world X,Y,Z); repeatable. Times must lie on
    /// a frame at --fps.
    #[arg(long = "key", value_name = "SECONDS=POSE", value_parser = parse_key)]
    pub keys: Vec<KeySpec>,
    /// Write this pose (same form as a key's) as the joints' rest rotations (and the root's translation).
    #[arg(long, value_name = "POSE", value_parser = parse_pose_spec)]
    pub rest_pose: Option<PoseSpec>,
    /// Where to write the X3D copy (temporary file, then rename).
    #[arg(long, value_name = "X3D")]
    pub out: PathBuf,
    /// Frames per second of the HAnimMotion (and the grid key times lie on).
    #[arg(long, default_value_t = 30.0, value_parser = parse_fps)]
    pub fps: f64,
    /// Write TimeSensor + OrientationInterpolator/PositionInterpolator + ROUTEs (X3D 3.3 players) instead
    /// of an HAnimMotion.
    #[arg(long)]
    pub as_interpolators: bool,
    /// The clip's name (the HAnimMotion's name, or the TimeSensor's DEF).
    #[arg(long, default_value = "keys")]
    pub name: String,
    /// The HAnimMotion loops.
    #[arg(long = "loop")]
    pub looping: bool,
    /// Which humanoid of the file (1 = the first).
    #[arg(long, default_value_t = 1)]
    pub humanoid_number: usize,
    /// Let reaches ignore the joints' llimit/ulimit.
    #[arg(long)]
    pub reach_ignore_limits: bool,
}

/// The pose `spec` asks for on humanoid `index` of `doc`, from the rest pose.
fn pose_of(doc: &Document, index: usize, spec: &PoseSpec, ignore_limits: bool) -> Result<Pose> {
    let mut poses = poses_for(doc, &spec.rotations, &[])?;
    if !spec.reaches.is_empty() {
        let request = ReachRequest {
            reaches: spec.reaches.clone(),
            pins: Vec::new(),
            to_root: false,
            options: IkOptions { respect_limits: !ignore_limits, ..IkOptions::default() },
        };
        for outcome in reach_named(doc, &mut poses, &request)? {
            for e in outcome.effectors.iter().filter(|e| e.distance > 1e-3) {
                log::warn!("reach {}: {:.4} from its target (out of reach?)", e.name, e.distance);
            }
        }
    }
    Ok(poses.swap_remove(index))
}

/// The clip `args.keys` make on humanoid `index` of `doc`.
pub fn clip_of(doc: &Document, index: usize, args: &KeysArgs) -> Result<Option<AuthoredClip>> {
    if args.keys.is_empty() {
        return Ok(None);
    }
    let h = &doc.humanoids[index];
    let mut clip = AuthoredClip::new(1, &args.name, h);
    clip.fps = args.fps;
    for key in &args.keys {
        let snapped = clip.snap(key.time);
        if (snapped - key.time).abs() > 1e-9 {
            bail!(
                "--key {}: not on a frame at {} fps (the nearest is {snapped} s; pick another --fps)",
                key.time,
                args.fps
            );
        }
        if clip.key_at(key.time).is_some() {
            bail!("--key {}: two keys at the same time", key.time);
        }
        let pose = pose_of(doc, index, &key.pose, args.reach_ignore_limits)?;
        clip.set_key(Key::of_pose(h, &pose, key.time))?;
    }
    Ok(Some(clip))
}

pub fn run(args: &KeysArgs) -> Result<()> {
    if args.keys.is_empty() && args.rest_pose.is_none() {
        bail!("nothing to write: give --key SECONDS=POSE (repeatable) and/or --rest-pose POSE");
    }
    let original = crate::input::read_text(&args.file, crate::input::InputKind::X3dDocument)?;
    let doc = crate::hanim::load_str(&original, &args.file)?;
    let index = args.humanoid_number.checked_sub(1).context("--humanoid-number counts from 1")?;
    if index >= doc.humanoids.len() {
        bail!(
            "{}: humanoid number {} does not exist (the file has {})",
            args.file.display(),
            args.humanoid_number,
            doc.humanoids.len()
        );
    }
    let clip = clip_of(&doc, index, args)?;
    let rest = match &args.rest_pose {
        Some(spec) => Some(pose_of(&doc, index, spec, args.reach_ignore_limits)?),
        None => None,
    };
    let units = doc.scene.units_of(doc.humanoids[index].node);
    let options =
        KeysExportOptions { fps: args.fps, as_interpolators: args.as_interpolators, looping: args.looping, units };
    let exported =
        export_keys(&original, &args.file, index, &doc.humanoids[index], clip.as_ref(), rest.as_ref(), &options)?;
    crate::output::write_atomically(&args.out, exported.text.as_bytes())?;
    println!("{}", summary(&args.out, clip.as_ref(), &exported, &options));
    Ok(())
}
