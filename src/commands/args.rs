//! Argument types more than one command takes, each parsed in one place: image and window sizes,
//! `--pose` joint rotations and `--displacer` weights, `--reach` inverse kinematics, the lighting model, how clips are sampled, and a
//! motion capture to retarget.

use std::path::PathBuf;

use anyhow::Result;
use glam::Vec3;

use crate::animation::{Interpolation, RootMode, SampleOptions};
use crate::gpu::lighting::Lighting;
use crate::mocap::session::CaptureRequest;
use crate::pose::ik::{IkOptions, Reach, ReachRequest};
use crate::pose::{DisplacerWeight, JointRotation};
use crate::render::ImageSize;

/// Largest image side accepted on the command line (the adapter may allow less).
const MAX_IMAGE_SIDE: u32 = 16384;
/// Smallest window side: below it the panels leave no room for the 3D view.
const MIN_WINDOW_SIDE: u32 = 64;

/// `WIDTHxHEIGHT` (or `WIDTHXHEIGHT`), each side from 1 to 16384.
pub fn parse_size(text: &str) -> Result<ImageSize, String> {
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(|| format!("'{text}' is not WIDTHxHEIGHT (e.g. 1280x720)"))?;
    let side = |s: &str| -> Result<u32, String> {
        match s.trim().parse::<u32>() {
            Ok(v) if (1..=MAX_IMAGE_SIDE).contains(&v) => Ok(v),
            _ => Err(format!("'{text}': each side must be a whole number from 1 to {MAX_IMAGE_SIDE}")),
        }
    };
    Ok(ImageSize { width: side(w)?, height: side(h)? })
}

/// The window's `--size`: [`parse_size`] with sides of at least 64 logical pixels.
pub fn parse_window_size(text: &str) -> Result<(u32, u32), String> {
    let size = parse_size(text)?;
    if size.width < MIN_WINDOW_SIDE || size.height < MIN_WINDOW_SIDE {
        return Err(format!("'{text}' is not WIDTHxHEIGHT with sides from {MIN_WINDOW_SIDE} to {MAX_IMAGE_SIDE}"));
    }
    Ok((size.width, size.height))
}

/// `--pose JOINT=X,Y,Z,ANGLE`: a rotation offset about a unit axis, angle in radians.
pub fn parse_joint_rotation(text: &str) -> Result<JointRotation, String> {
    let expected = || format!("'{text}' is not JOINT=AXIS_X,AXIS_Y,AXIS_Z,ANGLE (e.g. l_shoulder=0,0,1,1.57)");
    let (joint, values) = text.split_once('=').ok_or_else(expected)?;
    let numbers: Vec<f32> =
        values.split(',').map(|v| v.trim().parse::<f32>().map_err(|_| expected())).collect::<Result<_, _>>()?;
    let [x, y, z, angle] = numbers[..] else { return Err(expected()) };
    let axis = Vec3::new(x, y, z);
    if joint.trim().is_empty() || !axis.is_finite() || !angle.is_finite() {
        return Err(expected());
    }
    let axis = axis.normalize_or_zero();
    if axis == Vec3::ZERO {
        return Err(format!("'{text}': the rotation axis must not be zero"));
    }
    Ok(JointRotation { joint: joint.trim().to_string(), axis, angle })
}

/// `--displacer NAME=WEIGHT`.
pub fn parse_displacer_weight(text: &str) -> Result<DisplacerWeight, String> {
    let expected = || format!("'{text}' is not NAME=WEIGHT (e.g. l_eyebrow_raiser_action=0.8)");
    let (name, weight) = text.split_once('=').ok_or_else(expected)?;
    let weight: f32 = weight.trim().parse().map_err(|_| expected())?;
    if name.trim().is_empty() || !weight.is_finite() {
        return Err(expected());
    }
    Ok(DisplacerWeight { name: name.trim().to_string(), weight })
}

/// `--fps`: a positive, finite number of frames per second.
pub fn parse_fps(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("'{text}' is not a positive number of frames per second (CMU captures: 120)")),
    }
}

/// `--lighting standard|studio` (`render`, `catalog`).
pub fn parse_lighting(text: &str) -> Result<Lighting, String> {
    Lighting::from_name(text).ok_or_else(|| format!("'{text}' is not standard or studio"))
}

pub fn parse_root_mode(text: &str) -> Result<RootMode, String> {
    RootMode::from_name(text).ok_or_else(|| format!("'{text}' is not as-given, relative or in-place"))
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
}

impl PlaybackArgs {
    pub fn options(&self) -> SampleOptions {
        SampleOptions {
            interpolation: if self.stepped { Interpolation::Stepped } else { Interpolation::Smooth },
            root_mode: self.root_mode,
        }
    }
}

/// `--play-as-file` (`render`, `pose`): the whole scene "as the file says" at `--time`, every enabled
/// TimeSensor and HAnimMotion running at once on the scene clock (X3D's time model), where `--motion`
/// plays one clip alone. It is in the group `clip`, so it excludes `--motion` and the captures.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PlayAsFileArgs {
    /// Play the whole scene as the file says at --time (seconds of scene time): every enabled
    /// TimeSensor and HAnimMotion at once, with scene Transforms, Viewpoints and other fields moved by
    /// their ROUTEs (Scripts are not run). Only what the file draws is drawn: a humanoid without any
    /// geometry shows nothing (elsewhere its skeleton is drawn for it).
    #[arg(long, group = "clip")]
    pub play_as_file: bool,
}

/// A motion capture to retarget onto a humanoid (`render`, `catalog` and the window): `--amc` with
/// `--asf`, or `--bvh`, with `--map` and `--fps`. The capture options are in the group `clip`, so they
/// exclude one another and, in `render`, `--motion`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct CaptureArgs {
    /// Retarget this AMC motion (its skeleton in --asf) onto the humanoid.
    #[arg(long, value_name = "AMC", group = "clip", requires = "asf")]
    pub amc: Option<PathBuf>,
    /// The ASF skeleton of --amc.
    #[arg(long, value_name = "ASF", requires = "amc")]
    pub asf: Option<PathBuf>,
    /// Retarget this BVH motion onto the humanoid.
    #[arg(long, value_name = "BVH", group = "clip")]
    pub bvh: Option<PathBuf>,
    /// Frames per second of the capture (AMC default: CMU's 120; BVH: its Frame Time); for an .asf or .bvh
    /// opened in the window, of its own motion.
    #[arg(long, value_name = "FPS", value_parser = parse_fps)]
    pub fps: Option<f64>,
    /// The bone mapping for the capture (text file, `SOURCE TARGET…` per line; default: the built-in CMU
    /// table that fits the capture).
    #[arg(long, value_name = "FILE")]
    pub map: Option<PathBuf>,
}

impl CaptureArgs {
    /// The capture these arguments name, with its mapping read; `None` without `--amc`/`--bvh` (a
    /// `--map` alone is an error).
    pub fn request(&self) -> Result<Option<CaptureRequest>> {
        Ok(CaptureRequest::from_args(
            self.asf.as_deref(),
            self.amc.as_deref(),
            self.bvh.as_deref(),
            self.map.as_deref(),
        )?)
    }

    /// The motion file (the .amc or the .bvh), for messages and names.
    pub fn motion_file(&self) -> Option<&std::path::Path> {
        self.amc.as_deref().or(self.bvh.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reaches_parse_with_and_without_an_orientation() {
        assert_eq!(parse_reach("l_hand_tip=0.2,1.1,0.3").unwrap().orientation, None);
        let turned = parse_reach("l_hand_tip=0.2,1.1,0.3@0,0,2,1.5").unwrap();
        assert_eq!(turned.target, glam::Vec3::new(0.2, 1.1, 0.3));
        assert!(turned.orientation.unwrap().angle_between(glam::Quat::from_rotation_z(1.5)) < 1e-6);
        for bad in ["x=1,2,3@0,0,0,1", "x=1,2,3@0,0,1", "x=1,2,3@a,0,1,1", "x=1,2@0,0,1,1"] {
            assert!(parse_reach(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn arguments_parse_and_reject_bad_input() {
        assert_eq!(parse_size("256x128"), Ok(ImageSize { width: 256, height: 128 }));
        assert!(parse_size("0x10").is_err() && parse_size("12").is_err() && parse_size("axb").is_err());
        assert_eq!(parse_window_size("640x480"), Ok((640, 480)));
        assert!(parse_window_size("32x480").is_err());
        let r = parse_joint_rotation("l_shoulder=0,0,2,1.5").unwrap();
        assert_eq!((r.joint.as_str(), r.axis, r.angle), ("l_shoulder", Vec3::Z, 1.5));
        assert!(parse_joint_rotation("l_shoulder=0,0,0,1").unwrap_err().contains("axis"));
        assert!(parse_joint_rotation("l_shoulder=0,0,1").is_err());
        assert!(parse_joint_rotation("l_shoulder").is_err());
        assert_eq!(parse_displacer_weight("smile=0.5").unwrap().weight, 0.5);
        assert!(parse_displacer_weight("smile=x").is_err());
        assert!(parse_fps("120").is_ok() && parse_fps("0").is_err() && parse_fps("nan").is_err());
    }
}

/// `--reach EFFECTOR=X,Y,Z[@AX,AY,AZ,ANGLE]`: a Site or joint moved to a world position, and with `@`
/// its frame turned to a world orientation (an axis and an angle in radians, as X3D writes rotations).
pub fn parse_reach(text: &str) -> Result<Reach, String> {
    let expected = || {
        format!(
            "'{text}' is not EFFECTOR=X,Y,Z[@AX,AY,AZ,ANGLE] (a Site or joint name, a world position and \
             optionally a world orientation, e.g. l_hand_tip=0.2,1.1,0.3 or l_hand_tip=0.2,1.1,0.3@0,0,1,1.57)"
        )
    };
    let numbers = |values: &str| -> Result<Vec<f32>, String> {
        values.split(',').map(|v| v.trim().parse::<f32>().map_err(|_| expected())).collect()
    };
    let (name, values) = text.split_once('=').ok_or_else(expected)?;
    let (position, orientation) = match values.split_once('@') {
        Some((p, o)) => (p, Some(o)),
        None => (values, None),
    };
    let [x, y, z] = numbers(position)?[..] else { return Err(expected()) };
    let target = Vec3::new(x, y, z);
    let orientation = match orientation.map(numbers).transpose()?.as_deref() {
        None => None,
        Some(&[ax, ay, az, angle]) => {
            let axis = Vec3::new(ax, ay, az);
            if !axis.is_finite() || !angle.is_finite() || axis.length_squared() < 1e-12 {
                return Err(expected());
            }
            Some(glam::Quat::from_axis_angle(axis.normalize(), angle))
        }
        Some(_) => return Err(expected()),
    };
    if name.trim().is_empty() || !target.is_finite() {
        return Err(expected());
    }
    Ok(Reach { effector: name.trim().to_string(), target, orientation })
}

/// Inverse kinematics on named effectors (`pose`, `render`): `--reach`, `--pin`, `--reach-to-root`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ReachArgs {
    /// Move an effector (a Site such as l_hand_tip, or a joint's centre) to world coordinates X,Y,Z by
    /// inverse kinematics along its default chain (hand → shoulder, foot → hip, head → lower spine),
    /// within the joints' limits and scaled by their stiffness; `@AX,AY,AZ,ANGLE` also turns its frame to
    /// that world orientation (axis, angle in radians); repeatable.
    #[arg(long = "reach", value_name = "EFFECTOR=X,Y,Z[@AX,AY,AZ,ANGLE]", value_parser = parse_reach)]
    pub reaches: Vec<Reach>,
    /// Keep an effector (Site or joint) where it is while the others reach; repeatable.
    #[arg(long = "pin", value_name = "EFFECTOR", requires = "reaches")]
    pub pins: Vec<String>,
    /// Run every reach and pin chain to the skeleton's root (the spine and pelvis turn too).
    #[arg(long, requires = "reaches")]
    pub reach_to_root: bool,
    /// Let the reach solve ignore the joints' llimit/ulimit.
    #[arg(long, requires = "reaches")]
    pub reach_ignore_limits: bool,
}

impl ReachArgs {
    /// The solve these arguments ask for; `None` without `--reach`.
    pub fn request(&self) -> Option<ReachRequest> {
        (!self.reaches.is_empty()).then(|| ReachRequest {
            reaches: self.reaches.clone(),
            pins: self.pins.clone(),
            to_root: self.reach_to_root,
            options: IkOptions { respect_limits: !self.reach_ignore_limits, ..IkOptions::default() },
        })
    }
}

/// `--pose-file FILE` (`render`, `pose`, `catalog`): a pose file applied by joint name, or a built-in
/// pose as `builtin:NAME`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PoseFileArgs {
    /// Pose the humanoids with this pose file (what `pose --json` prints or the window saves) or a
    /// built-in pose (`builtin:t-pose`, `builtin:a-pose`, `builtin:relaxed`, `builtin:sitting`,
    /// `builtin:walking-contact`, `builtin:waving`): joints matched by H-Anim name (1.x names and
    /// prefixes too), kept within their limits; joints a humanoid lacks are listed and skipped.
    #[arg(long, value_name = "FILE")]
    pub pose_file: Option<String>,
    /// Apply the pose file's rotations beyond the joints' llimit/ulimit.
    #[arg(long, requires = "pose_file")]
    pub pose_file_ignore_limits: bool,
}

impl PoseFileArgs {
    /// The pose file asked for, read and checked; `None` without `--pose-file`.
    pub fn read(&self) -> Result<Option<crate::pose::file::PoseFile>> {
        Ok(match &self.pose_file {
            Some(source) => Some(crate::pose::file::PoseFile::open(source)?),
            None => None,
        })
    }

    /// Applies `file` to every humanoid of `doc` it has a pose for; says on stderr what each humanoid
    /// lacks. A file that drives no joint of any humanoid is an error.
    pub fn apply(
        &self,
        file: &crate::pose::file::PoseFile,
        doc: &crate::hanim::Document,
        poses: &mut [crate::pose::Pose],
    ) -> Result<()> {
        let source = self.pose_file.as_deref().unwrap_or("pose file");
        let applied = crate::pose::file::apply_to_document(doc, file, poses, !self.pose_file_ignore_limits);
        for a in &applied {
            eprintln!("{}", a.summary(source));
        }
        if applied.iter().all(|a| a.driven.is_empty()) {
            anyhow::bail!("{source}: no joint of the pose is in {}", doc.scene.main_path().display());
        }
        Ok(())
    }
}
