//! Motion capture import: Acclaim ASF/AMC and BVH files, their forward kinematics, a stick-figure
//! H-Anim humanoid for a skeleton on its own, retargeting onto a loaded humanoid, and export as an
//! HAnimMotion node (docs/asf-amc.md, hanim-semantics.md §4).
//!
//! Data flow: text → [`asf`]/[`amc`]/[`bvh`] (parsed files, positions kept for errors) → [`rig`] (one
//! kinematic form in metres: joints at rest, per-frame local rotations) → [`StickFigure`] (an
//! [`hanim::Humanoid`](crate::hanim::Humanoid) and a [`Pose`] per frame) or [`retarget`] (a motion for
//! another humanoid) → [`export`] (X3D text, written atomically).

pub mod amc;
pub mod asf;
pub mod bvh;
pub mod cli;
pub mod export;
pub mod mapping;
pub mod retarget;
pub mod rig;
pub mod text;

use std::path::Path;

use anyhow::{Context, Result};
use glam::Vec3;

pub use text::{MocapError, MocapWarning};

use crate::hanim::{self, Document};
use crate::pose::Pose;
use mapping::Mapping;
use rig::{Clip, Rig};

/// A skeleton and its motion from either format.
#[derive(Debug, Clone)]
pub struct Capture {
    pub rig: Rig,
    pub clip: Clip,
    /// Parser warnings, each with file:line:column.
    pub warnings: Vec<String>,
}

/// Loads `skeleton.asf` with `motion.amc` (or the ASF alone: one rest frame), at `frame_rate`.
pub fn load_asf_amc(asf_path: &Path, amc_path: Option<&Path>, frame_rate: f64) -> Result<Capture> {
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
pub fn load_bvh(path: &Path, metres_per_unit: Option<f64>, frame_rate: Option<f64>) -> Result<Capture> {
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

/// For an `.asf` or `.bvh` path: the stick-figure humanoid of the skeleton (with a BVH's motion as an
/// HAnimMotion) as a loaded document, so that `info` and `check` describe it; `None` for other files.
pub fn stick_document_for(path: &Path) -> Option<Result<Document>> {
    let extension = path.extension()?.to_str()?.to_ascii_lowercase();
    let capture = match extension.as_str() {
        "asf" => load_asf_amc(path, None, rig::CMU_FRAME_RATE),
        "bvh" => load_bvh(path, None, None),
        _ => return None,
    };
    Some(capture.and_then(|c| {
        let mapping = mapping::default_mapping(c.rig.joints.iter().map(|j| j.name.as_str()));
        let names = export::stick_joint_names(&c.rig, &mapping);
        let track = (c.clip.frame_count() > 1).then(|| {
            let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            export::stick_track(&c.rig, &c.clip, &names, &stem, "motion of the file")
        });
        let text = export::stick_figure_x3d(&c.rig, &names, None, track.as_ref());
        // Positions in messages refer to the generated text, so it gets a name of its own.
        let name = std::path::PathBuf::from(format!("{} (stick figure)", path.display()));
        Ok(hanim::load_str(&text, &name)?)
    }))
}

/// A one-frame clip holding the rest pose.
pub fn rest_clip(rig: &Rig, frame_time: f64) -> Clip {
    Clip {
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
    pub fn new(rig: &Rig, mapping: &Mapping) -> Result<StickFigure> {
        let names = export::stick_joint_names(rig, mapping);
        let text = export::stick_figure_x3d(rig, &names, None, None);
        let document = hanim::load_str(&text, Path::new("stick-figure.x3d")).context("building the stick figure")?;
        let h = document.humanoids.first().context("the stick figure has no humanoid")?;
        let joint_of_rig = names
            .iter()
            .map(|n| h.joint_index(n).with_context(|| format!("stick figure joint '{n}' is missing")))
            .collect::<Result<_>>()?;
        Ok(StickFigure { document, joint_of_rig, names, lift: export::stick_lift(rig).as_vec3() })
    }

    pub fn humanoid(&self) -> &hanim::Humanoid {
        &self.document.humanoids[0]
    }

    /// The pose of frame `frame` (clamped to the clip; the rest pose for an empty clip or one made for
    /// another rig).
    pub fn pose(&self, clip: &Clip, frame: usize) -> Pose {
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
    pub fn pose_at(&self, clip: &Clip, seconds: f64, frame_rate: f64) -> Pose {
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
