//! Motion playback: HAnimMotion channel data ([`motion`]) and TimeSensor/interpolator clips
//! ([`interpolator`]) become clips of one transport, sampled into [`Pose`]s at a playback time that never
//! reads the wall clock (the window advances it; tests and the command line set it).
//!
//! # Combining clips
//! Every enabled clip is sampled at the same playback time and written in list order: the humanoid's
//! `motions` in file order, then interpolator clips in TimeSensor order. Per joint and per kind
//! (rotation, translation, displacer weight), the last enabled clip that drives it wins; what no clip
//! drives keeps the file's rest value. This is the semantics note's §4.5 rule for several motions,
//! extended to interpolator clips. A user's joint edit (`Pose::rotation_offsets` /
//! `translation_offsets`) is never touched, so it applies on top of the motion (§1.4).
//!
//! # Root motion
//! Translations written to a skeleton root joint (the `humanoid_root` of every file in the corpus)
//! follow [`RootMode`].

pub mod authored;
mod drivers;
pub mod events;
pub mod interpolator;
pub mod limit_report;
mod lookup;
pub mod motion;
mod play_mode;
mod root_mode;
mod transport;

use glam::Vec3;

pub use authored::{AuthoredClip, AuthoredSnapshot, Key, KeyError};
pub use interpolator::{Curve, CurveValue, InterpolatorClip, TargetField, Track, find_clips};
pub use lookup::{INTERPOLATOR_SEQUENCE_FPS, LookupError};
pub use motion::{HanimMotion, Interpolation, JointSample, MotionError};
pub use play_mode::PlayMode;
pub use root_mode::RootMode;
pub use transport::{MAX_SPEED, MIN_SPEED, Transport};

use crate::hanim::Document;
use crate::hanim::HumanoidIndex;
use crate::pose::Pose;
use crate::x3d::Warning;

/// Where a clip's data comes from.
#[derive(Debug, Clone)]
pub enum ClipSource {
    /// An HAnimMotion of humanoid `humanoid`.
    Motion {
        humanoid: HumanoidIndex,
        motion: HanimMotion,
    },
    Interpolators(InterpolatorClip),
    /// Keys set in the window or on the command line ([`authored`]).
    Authored {
        humanoid: HumanoidIndex,
        clip: AuthoredClip,
    },
}

/// One entry of the transport's list.
#[derive(Debug, Clone)]
pub struct Clip {
    pub source: ClipSource,
    /// Whether it drives the humanoid now (starts as the file says).
    pub enabled: bool,
    /// Loop flag (starts as the file says; the transport's loop toggle changes it).
    pub looping: bool,
}

impl Clip {
    /// The name users pick it by: the motion's name (else DEF), or the TimeSensor's DEF.
    pub fn name(&self) -> &str {
        match &self.source {
            ClipSource::Motion { motion, .. } if !motion.name.is_empty() => &motion.name,
            ClipSource::Motion { motion, .. } => motion.def.as_deref().unwrap_or(""),
            ClipSource::Interpolators(c) => &c.name,
            ClipSource::Authored { clip, .. } => &clip.name,
        }
    }

    /// True when `wanted` is its name or DEF.
    pub fn is_named(&self, wanted: &str) -> bool {
        self.name() == wanted
            || matches!(&self.source, ClipSource::Motion { motion, .. } if motion.def.as_deref() == Some(wanted))
    }

    pub fn kind(&self) -> &'static str {
        match &self.source {
            ClipSource::Motion { .. } => "HAnimMotion",
            ClipSource::Interpolators(_) => "interpolators",
            ClipSource::Authored { .. } => "keys",
        }
    }

    /// Why it cannot play, if it cannot.
    pub fn unsupported(&self) -> Option<&str> {
        match &self.source {
            ClipSource::Interpolators(c) => c.unsupported.as_deref(),
            ClipSource::Motion { .. } | ClipSource::Authored { .. } => None,
        }
    }

    /// Seconds of one pass.
    pub fn duration(&self, mode: Interpolation) -> f64 {
        match &self.source {
            ClipSource::Motion { motion, .. } => motion.duration(mode),
            ClipSource::Interpolators(c) => c.cycle_interval,
            ClipSource::Authored { clip, .. } => clip.duration(),
        }
    }

    /// Frames, for HAnimMotions.
    pub fn frame_count(&self) -> Option<usize> {
        match &self.source {
            ClipSource::Motion { motion, .. } => Some(motion.frame_count),
            ClipSource::Interpolators(_) | ClipSource::Authored { .. } => None,
        }
    }

    /// The frame shown at `tau` (HAnimMotions), as a fractional frame position.
    pub fn frame_position(&self, tau: f64, mode: Interpolation) -> Option<f64> {
        match &self.source {
            ClipSource::Motion { motion, .. } => Some(motion.frame_position(tau, mode, self.looping)),
            ClipSource::Interpolators(_) | ClipSource::Authored { .. } => None,
        }
    }

    /// Whether a non-looping clip has played to its end at `tau`.
    pub fn finished(&self, tau: f64, mode: Interpolation) -> bool {
        !self.looping
            && match &self.source {
                ClipSource::Motion { motion, .. } => motion.finished(tau, mode),
                ClipSource::Interpolators(c) => tau >= c.cycle_interval,
                ClipSource::Authored { clip, .. } => tau >= clip.duration(),
            }
    }
}

/// Sampling options shared by every clip.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SampleOptions {
    pub interpolation: Interpolation,
    pub root_mode: RootMode,
}

/// Every clip of a document, and what reading them reported.
#[derive(Debug, Clone, Default)]
pub struct Animations {
    pub clips: Vec<Clip>,
    /// HAnimMotions that cannot be played (e.g. `values` not channels × frames), left out of `clips`.
    pub rejected: Vec<MotionError>,
    pub warnings: Vec<Warning>,
}

impl Animations {
    /// Reads every HAnimMotion of every humanoid and every interpolator clip of `doc`. A motion that
    /// fails its checks goes to [`rejected`](Self::rejected); use [`from_document_strict`] to fail instead.
    ///
    /// [`from_document_strict`]: Self::from_document_strict
    pub fn from_document(doc: &Document) -> Animations {
        let mut out = Animations::default();
        for (hi, h) in doc.humanoids.iter().enumerate() {
            for index in 0..h.motions.len() {
                match HanimMotion::from_model(&doc.scene, h, index) {
                    Ok(motion) => {
                        out.warnings.extend(motion.warnings.iter().cloned());
                        out.clips.push(Clip {
                            enabled: motion.enabled,
                            looping: motion.looping,
                            source: ClipSource::Motion { humanoid: HumanoidIndex(hi), motion },
                        });
                    }
                    Err(e) => out.rejected.push(e),
                }
            }
        }
        for clip in find_clips(doc, &mut out.warnings) {
            out.clips.push(Clip {
                enabled: clip.plays_at_load(),
                looping: clip.looping,
                source: ClipSource::Interpolators(clip),
            });
        }
        out
    }

    /// As [`from_document`](Self::from_document), but the first rejected motion is an error.
    pub fn from_document_strict(doc: &Document) -> Result<Animations, MotionError> {
        let mut all = Self::from_document(doc);
        if all.rejected.is_empty() { Ok(all) } else { Err(all.rejected.swap_remove(0)) }
    }

    /// The clip named `wanted` (motion name or DEF, TimeSensor DEF).
    pub fn find(&self, wanted: &str) -> Option<usize> {
        self.clips.iter().position(|c| c.is_named(wanted))
    }

    /// Enables clip `index` alone.
    pub fn solo(&mut self, index: usize) {
        for (i, clip) in self.clips.iter_mut().enumerate() {
            clip.enabled = i == index;
        }
    }

    /// Writes every enabled clip at playback time `tau` into `poses` (one per humanoid): first the base
    /// rotations and translations go back to the file's values, then each enabled clip writes what it
    /// drives (joints, displacer weights and the humanoid's own transform fields), in list order. Offsets are
    /// left alone.
    pub fn apply(&self, doc: &Document, tau: f64, options: &SampleOptions, poses: &mut [Pose]) {
        for (h, pose) in doc.humanoids.iter().zip(poses.iter_mut()) {
            let rest = Pose::rest(h);
            pose.rotations = rest.rotations;
            pose.translations = rest.translations;
            pose.humanoid = rest.humanoid;
            // Displacer weights are also the user's edits (a pose holds no weight offset): only those a
            // clip drives are overwritten below.
        }
        for clip in self.clips.iter().filter(|c| c.enabled && c.unsupported().is_none()) {
            match &clip.source {
                ClipSource::Motion { humanoid, motion } => {
                    let (Some(h), Some(pose)) = (doc.humanoid(*humanoid), poses.get_mut(humanoid.0)) else {
                        continue;
                    };
                    let u = motion.frame_position(tau, options.interpolation, clip.looping);
                    let first = if options.root_mode == RootMode::AsGiven {
                        Vec::new()
                    } else {
                        motion.sample(motion.frame_position(0.0, options.interpolation, false), options.interpolation)
                    };
                    for s in motion.sample(u, options.interpolation) {
                        if let Some(r) = s.rotation
                            && let Some(slot) = pose.rotations.get_mut(s.joint)
                        {
                            *slot = r;
                        }
                        if let Some(t) = s.translation {
                            let start = first.iter().find(|f| f.joint == s.joint).and_then(|f| f.translation);
                            let t = root_translation(h, s.joint, t, start, options.root_mode);
                            if let Some(slot) = pose.translations.get_mut(s.joint) {
                                *slot = t;
                            }
                        }
                    }
                }
                ClipSource::Authored { humanoid, clip: keys } => {
                    let duration = keys.duration();
                    let tau = if clip.looping && duration > 0.0 { tau.rem_euclid(duration) } else { tau };
                    if let (Some(h), Some(pose)) = (doc.humanoid(*humanoid), poses.get_mut(humanoid.0)) {
                        authored::apply_authored(h, keys, tau, options, pose);
                    }
                }
                ClipSource::Interpolators(c) => {
                    let fraction = c.fraction(tau, clip.looping);
                    for track in &c.tracks {
                        let (Some(h), Some(pose)) = (doc.humanoid(track.humanoid), poses.get_mut(track.humanoid.0))
                        else {
                            continue;
                        };
                        let Some(value) = track.evaluate(fraction) else { continue };
                        match (track.target, value) {
                            (TargetField::JointRotation(j), CurveValue::Rotation(r)) => {
                                if let Some(slot) = pose.rotations.get_mut(j) {
                                    *slot = r;
                                }
                            }
                            (TargetField::JointTranslation(j), CurveValue::Translation(t)) => {
                                let start = match (options.root_mode, track.evaluate(0.0)) {
                                    (RootMode::AsGiven, _) => None,
                                    (_, Some(CurveValue::Translation(first))) => Some(first),
                                    _ => None,
                                };
                                let t = root_translation(h, j, t, start, options.root_mode);
                                if let Some(slot) = pose.translations.get_mut(j) {
                                    *slot = t;
                                }
                            }
                            (TargetField::DisplacerWeight(d), CurveValue::Scalar(w)) => {
                                if let Some(slot) = pose.displacer_weights.get_mut(d) {
                                    *slot = w;
                                }
                            }
                            (TargetField::HumanoidRotation, CurveValue::Rotation(r)) => {
                                pose.humanoid.rotation = Some(r)
                            }
                            (TargetField::HumanoidTranslation, CurveValue::Translation(t)) => {
                                pose.humanoid.translation = Some(t)
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
    }

    /// Fresh poses (file values, no offsets) with every enabled clip applied at `tau`.
    pub fn sample(&self, doc: &Document, tau: f64, options: &SampleOptions) -> Vec<Pose> {
        let mut poses: Vec<Pose> = doc.humanoids.iter().map(Pose::rest).collect();
        self.apply(doc, tau, options, &mut poses);
        poses
    }
}

/// A root joint's translation under `mode`; other joints take `value` as given.
fn root_translation(
    h: &crate::hanim::Humanoid,
    joint: usize,
    value: Vec3,
    first: Option<Vec3>,
    mode: RootMode,
) -> Vec3 {
    let is_root = h.joints.get(joint).is_some_and(|j| j.parent.is_none());
    let (Some(first), true) = (first, is_root) else { return value };
    let rest = h.joints[joint].rest.translation;
    let delta = value - first;
    match mode {
        RootMode::AsGiven => value,
        RootMode::RelativeToFirst => rest + delta,
        RootMode::InPlace => rest + Vec3::new(0.0, delta.y, 0.0),
    }
}
