//! Motion capture import: Acclaim ASF/AMC and BVH files, their forward kinematics, a stick-figure
//! H-Anim humanoid for a skeleton on its own, retargeting onto a loaded humanoid, and export as an
//! HAnimMotion node (docs/asf-amc.md, hanim-semantics.md §4).
//!
//! Data flow: text → [`asf`]/[`amc`]/[`bvh`] (parsed files, positions kept for errors) → [`rig`] (one
//! kinematic form in metres: joints at rest, per-frame local rotations) → [`StickFigure`] (an
//! [`Humanoid`](crate::hanim::Humanoid) and a [`Pose`] per frame) or [`retarget`] (a motion for
//! another humanoid) → [`export`] (X3D text; the commands write it atomically). [`session`] keeps a
//! capture retargeted onto the window's humanoid. Errors are typed: [`MocapError`] for a file that does
//! not parse, [`CaptureError`] for loading and showing a capture, and one per module above it.

pub mod amc;
pub mod asf;
pub mod bvh;
mod error;
pub mod export;
pub mod keys_export;
mod load;
pub mod mapping;
pub mod retarget;
pub mod rig;
pub mod session;
pub mod text;

use std::path::{Path, PathBuf};

use glam::Vec3;

pub use error::CaptureError;
pub use load::{CaptureLoadOptions, is_bvh, load_capture};
pub use text::{MocapError, MocapWarning};

use crate::hanim::{self, Document};
use crate::pose::Pose;
use mapping::Mapping;
use rig::{Rig, RigClip};

/// A skeleton and its motion from either format.
#[derive(Debug, Clone)]
pub struct Capture {
    pub rig: Rig,
    pub clip: RigClip,
    /// Parser warnings, each with file:line:column.
    pub warnings: Vec<String>,
}

/// Loads `skeleton.asf` with `motion.amc` (or the ASF alone: one rest frame), at `frame_rate`.
pub fn load_asf_amc(asf_path: &Path, amc_path: Option<&Path>, frame_rate: f64) -> Result<Capture, MocapError> {
    let asf = asf::load_asf(asf_path)?;
    let mut warnings: Vec<String> = asf.warnings.iter().map(|w| format!("{}:{w}", asf_path.display())).collect();
    let rig = rig::rig_from_asf(&asf);
    let clip = match amc_path {
        Some(path) => {
            let amc = amc::load_amc(path, &asf)?;
            warnings.extend(amc.warnings.iter().map(|w| format!("{}:{w}", path.display())));
            rig::clip_from_amc(&asf, &amc, frame_rate)
        }
        None => rest_clip(&rig, 1.0 / frame_rate),
    };
    Ok(Capture { rig, clip, warnings })
}

/// Loads a BVH; `metres_per_unit` `None` guesses the unit from the skeleton's height
/// ([`rig::guess_bvh_metres_per_unit`]). `frame_rate` `None` keeps the file's `Frame Time`.
pub fn load_bvh(path: &Path, metres_per_unit: Option<f64>, frame_rate: Option<f64>) -> Result<Capture, MocapError> {
    let bvh = bvh::load_bvh(path)?;
    let warnings = bvh.warnings.iter().map(|w| format!("{}:{w}", path.display())).collect();
    let s = metres_per_unit.unwrap_or_else(|| rig::guess_bvh_metres_per_unit(&bvh));
    let rig = rig::rig_from_bvh(&bvh, s);
    let mut clip = rig::clip_from_bvh(&bvh, s);
    if let Some(rate) = frame_rate {
        clip.frame_time = 1.0 / rate;
    }
    Ok(Capture { rig, clip, warnings })
}

/// The file extensions of capture skeletons that open as stick figures (lower case).
pub const CAPTURE_EXTENSIONS: [&str; 2] = ["asf", "bvh"];

fn lower_extension(path: &Path) -> Option<String> {
    Some(path.extension()?.to_str()?.to_ascii_lowercase())
}

/// For an `.asf` or `.bvh` path: the stick-figure humanoid of the skeleton (with a BVH's motion as an
/// HAnimMotion) as a loaded document, so that `info` and `check` describe it; `None` for other files.
pub fn stick_document_for(path: &Path) -> Option<Result<Document, CaptureError>> {
    let extension = lower_extension(path)?;
    CAPTURE_EXTENSIONS.contains(&extension.as_str()).then(|| stick_document(path, None, None))
}

/// The stick-figure humanoid of an `.asf` (with `amc` as its motion) or a `.bvh` (with its own motion),
/// the motion as an HAnimMotion named after the motion file. `fps`: frames per second (an AMC's default
/// is CMU's 120; a BVH's, its `Frame Time`).
pub fn stick_document(path: &Path, amc: Option<&Path>, fps: Option<f64>) -> Result<Document, CaptureError> {
    if let Some(rate) = fps
        && !(rate.is_finite() && rate > 0.0)
    {
        return Err(CaptureError::FrameRate(rate));
    }
    let is_bvh = lower_extension(path).as_deref() == Some("bvh");
    if is_bvh && let Some(amc) = amc {
        return Err(CaptureError::AmcWithBvh { bvh: path.to_path_buf(), amc: amc.to_path_buf() });
    }
    let c =
        if is_bvh { load_bvh(path, None, fps)? } else { load_asf_amc(path, amc, fps.unwrap_or(rig::CMU_FRAME_RATE))? };
    for w in &c.warnings {
        log::warn!("{w}");
    }
    let mapping = mapping::default_mapping(c.rig.joints.iter().map(|j| j.name.as_str()));
    let names = export::stick_joint_names(&c.rig, &mapping);
    let track = (c.clip.frame_count() > 1).then(|| {
        let source = amc.unwrap_or(path);
        let stem = source.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let description = format!("{stem} on its own skeleton");
        export::stick_track(&c.rig, &c.clip, &names, &stem, &description)
    });
    let text = export::stick_figure_x3d(&c.rig, &names, None, track.as_ref());
    // Positions in messages refer to the generated text, so it gets a name of its own.
    let name = std::path::PathBuf::from(format!("{} (stick figure)", path.display()));
    Ok(hanim::load_str(&text, &name)?)
}

/// The AMC motion that goes with `asf` when none is named: the first `.amc` in its folder, in name
/// order, whose name starts with the ASF's stem and `_` (CMU numbers a subject's takes so: `07.asf` →
/// `07_05.amc`, `07_12.amc`).
pub fn amc_beside(asf: &Path) -> Option<PathBuf> {
    let stem = asf.file_stem()?.to_str()?;
    let prefix = format!("{stem}_");
    let folder = match asf.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    crate::input::walk::list_folder(folder).ok()?.into_iter().find(|p| {
        lower_extension(p).as_deref() == Some("amc")
            && p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(&prefix))
    })
}

/// How the window opens capture files: the motion named on the command line for its skeleton, and the
/// frame rate.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WindowCapture {
    /// `(skeleton .asf, motion .amc)` from the command line; other skeletons take [`amc_beside`].
    pub motion: Option<(PathBuf, PathBuf)>,
    /// Frames per second (default: 120 for AMC, the file's for BVH).
    pub fps: Option<f64>,
}

impl WindowCapture {
    /// Checks the command line's choice: a motion goes with an `.asf` file.
    pub fn new(file: Option<&Path>, motion: Option<&Path>, fps: Option<f64>) -> Result<WindowCapture, CaptureError> {
        let motion = match (file, motion) {
            (_, None) => None,
            (Some(file), Some(motion)) if lower_extension(file).as_deref() == Some("asf") => {
                Some((file.to_path_buf(), motion.to_path_buf()))
            }
            (file, Some(motion)) => {
                return Err(CaptureError::MotionWithoutAsf {
                    motion: motion.to_path_buf(),
                    file: file.map(Path::to_path_buf),
                });
            }
        };
        Ok(WindowCapture { motion, fps })
    }

    /// Loads `path` for the window: an `.asf` or `.bvh` as its stick figure with the motion in the
    /// transport, anything else through [`hanim::load_with_progress`], reporting to `progress`.
    pub fn load(
        &self,
        path: &Path,
        progress: std::sync::Arc<crate::x3d::LoadProgress>,
    ) -> Result<Document, CaptureError> {
        match lower_extension(path).as_deref() {
            Some("asf") => {
                let amc = match &self.motion {
                    Some((skeleton, amc)) if skeleton == path => Some(amc.clone()),
                    _ => amc_beside(path),
                };
                match &amc {
                    Some(amc) => log::info!("{}: playing {}", path.display(), amc.display()),
                    None => log::info!("{}: no .amc motion beside it; showing the skeleton at rest", path.display()),
                }
                stick_document(path, amc.as_deref(), self.fps)
            }
            Some("bvh") => stick_document(path, None, self.fps),
            _ => Ok(hanim::load_with_progress(path, progress)?),
        }
    }
}

/// A one-frame clip holding the rest pose.
pub fn rest_clip(rig: &Rig, frame_time: f64) -> RigClip {
    RigClip {
        joint_count: rig.joints.len(),
        frame_time,
        rotations: vec![glam::DQuat::IDENTITY; rig.joints.len()],
        translations: vec![glam::DVec3::ZERO; rig.joints.len()],
    }
}

/// A rig shown as an H-Anim humanoid of its own: one joint per rig joint, centred at its rest position,
/// and a [`Pose`] per frame.
#[derive(Debug, Clone)]
pub struct StickFigure {
    pub document: Document,
    /// Humanoid joint index of each rig joint.
    pub joint_of_rig: Vec<usize>,
    pub names: Vec<String>,
    /// The rest lift of [`export::stick_lift`], taken off the root's translation.
    pub lift: Vec3,
}

impl StickFigure {
    /// Builds the humanoid through the X3D loader, so that it is exactly what a saved stick figure
    /// reloads as.
    pub fn new(rig: &Rig, mapping: &Mapping) -> Result<StickFigure, CaptureError> {
        let names = export::stick_joint_names(rig, mapping);
        let text = export::stick_figure_x3d(rig, &names, None, None);
        let document = hanim::load_str(&text, Path::new("stick-figure.x3d")).map_err(CaptureError::StickFigure)?;
        let h = document.humanoids.first().ok_or(CaptureError::StickFigureWithoutHumanoid)?;
        let joint_of_rig = names
            .iter()
            .map(|n| h.joint_index(n).ok_or_else(|| CaptureError::StickFigureJointMissing(n.clone())))
            .collect::<Result<_, _>>()?;
        Ok(StickFigure { document, joint_of_rig, names, lift: export::stick_lift(rig).as_vec3() })
    }

    pub fn humanoid(&self) -> &hanim::Humanoid {
        &self.document.humanoids[0]
    }

    /// The pose of frame `frame` (clamped to the clip; the rest pose for an empty clip or one made for
    /// another rig).
    pub fn pose(&self, clip: &RigClip, frame: usize) -> Pose {
        let h = self.humanoid();
        let mut pose = Pose::rest(h);
        if clip.frame_count() == 0 || clip.joint_count != self.joint_of_rig.len() {
            return pose;
        }
        let frame = frame.min(clip.frame_count() - 1);
        for (r, &j) in self.joint_of_rig.iter().enumerate() {
            pose.rotations[j] = clip.rotation(frame, r).as_quat();
            pose.translations[j] = clip.translation(frame, r).as_vec3();
            if self.humanoid().joints[j].parent.is_none() {
                pose.translations[j] -= self.lift;
            }
        }
        pose
    }

    /// The pose at `seconds` when the clip plays at `frame_rate` frames per second: slerp between the
    /// two nearest frames, clamped at the ends.
    pub fn pose_at(&self, clip: &RigClip, seconds: f64, frame_rate: f64) -> Pose {
        let last = clip.frame_count().saturating_sub(1);
        let position = seconds * frame_rate;
        let u = if position.is_finite() { position.clamp(0.0, last as f64) } else { 0.0 };
        let (a, b) = (u.floor() as usize, (u.floor() as usize + 1).min(last));
        let t = (u - u.floor()) as f32;
        let (pa, pb) = (self.pose(clip, a), self.pose(clip, b));
        let mut pose = pa.clone();
        for j in 0..pose.rotations.len() {
            pose.rotations[j] = pa.rotations[j].slerp(pb.rotations[j], t);
            pose.translations[j] = pa.translations[j].lerp(pb.translations[j], t);
        }
        pose
    }

    /// World joint centres at `pose` (CPU reference).
    pub fn joint_positions(&self, pose: &Pose) -> Vec<Vec3> {
        retarget::joint_world_positions(self.humanoid(), pose)
    }
}
