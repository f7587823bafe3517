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

use glam::Vec3;

pub use authored::{AuthoredClip, AuthoredSnapshot, Key, KeyError};
pub use interpolator::{Curve, CurveValue, InterpolatorClip, TargetField, Track, find_clips};
pub use lookup::{INTERPOLATOR_SEQUENCE_FPS, LookupError};
pub use motion::{HanimMotion, Interpolation, JointSample, MotionError};
pub use play_mode::PlayMode;
pub use root_mode::RootMode;

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

/// The transport: which clip the timeline shows, the playback clock and speed. The clock only moves
/// when [`advance`](Self::advance) is called with an elapsed time, so playback is reproducible.
#[derive(Debug, Clone)]
pub struct Transport {
    pub animations: Animations,
    /// Playback time in seconds (τ of the semantics note §4.4).
    pub time: f64,
    pub playing: bool,
    /// 0.1 to 4.
    pub speed: f32,
    /// The clip the timeline, stepping and loop toggle act on.
    pub selected: Option<usize>,
    pub options: SampleOptions,
    /// Whether the camera follows the root joint.
    pub follow_root: bool,
    /// Where the followed root was last frame (world), so the camera moves by the root's step.
    pub followed_root: Option<Vec3>,
    /// False until the user plays, steps, scrubs or toggles a clip: the window opens on the file's rest
    /// pose and leaves it alone until then.
    pub engaged: bool,
    /// One clip at a time, or the whole scene as the file says (see [`PlayMode`]).
    pub mode: PlayMode,
    /// Whether the file has scene animation (a TimeSensor), so "as the file says" plays something.
    pub scene_animated: bool,
    /// Displacer weights the user set while paused (humanoid, displacer, weight): they hold over what
    /// the clips say until playing starts again.
    pub held_weights: Vec<(HumanoidIndex, usize, f32)>,
}

pub const MIN_SPEED: f32 = 0.1;
pub const MAX_SPEED: f32 = 4.0;

impl Transport {
    pub fn new(animations: Animations) -> Transport {
        let selected = animations
            .clips
            .iter()
            .position(|c| c.enabled)
            .or_else(|| animations.clips.iter().position(|c| c.unsupported().is_none()));
        // A motion on the timeline starts at its frameIndex (§4.4), the other clips at 0.
        let time = match selected.map(|i| &animations.clips[i].source) {
            Some(ClipSource::Motion { motion, .. }) if motion.frame_increment != 0 => {
                motion.time_of_frame(motion.frame_index as f64).max(0.0)
            }
            _ => 0.0,
        };
        Transport {
            animations,
            time,
            playing: false,
            speed: 1.0,
            selected,
            options: SampleOptions::default(),
            // The camera follows a travelling root, so a walk stays in view (the window; `render`
            // frames each picture itself).
            follow_root: true,
            followed_root: None,
            engaged: false,
            mode: PlayMode::OneClip,
            scene_animated: false,
            held_weights: Vec::new(),
        }
    }

    /// Marks the file as having scene animation; with no humanoid clip to pick, "as the file says" is
    /// then the mode the transport starts in (the scene at time 0, engaged, paused).
    pub fn with_scene_animation(mut self, animated: bool) -> Transport {
        self.scene_animated = animated;
        if animated && self.selected.is_none() {
            self.set_mode(PlayMode::AsFile);
        }
        self
    }

    /// Switches mode; the clock keeps its time, the transport drives the scene from now on.
    pub fn set_mode(&mut self, mode: PlayMode) {
        self.mode = mode;
        self.engaged = true;
    }

    /// The window's transport for `doc`: paused at time 0 with the clips the file enables; what could
    /// not be read is logged.
    pub fn for_window(doc: &Document) -> Transport {
        let animations = Animations::from_document(doc);
        for w in &animations.warnings {
            log::warn!("{w}");
        }
        for e in &animations.rejected {
            log::error!("motion not playable: {e}");
        }
        Transport::new(animations)
    }

    /// Plays clip `name` alone, paused at `seconds` (scripted runs).
    pub fn show(&mut self, name: &str, seconds: f64) -> Result<(), String> {
        let index = self.animations.find(name).ok_or_else(|| {
            let names: Vec<&str> = self.animations.clips.iter().map(|c| c.name()).collect();
            format!("no motion or clip named '{name}' (clips: {})", names.join(", "))
        })?;
        if let Some(reason) = self.animations.clips[index].unsupported() {
            return Err(format!("clip '{name}' cannot be played: {reason}"));
        }
        self.animations.solo(index);
        self.selected = Some(index);
        self.engaged = true;
        self.playing = false;
        self.time = seconds;
        Ok(())
    }

    /// Puts `clip` in the list (over entry `replace` when there is one), plays it alone and selects it;
    /// the clock keeps its time, so a capture retargeted again with another mapping stays at the same
    /// moment. Returns the clip's index.
    pub fn put_clip(&mut self, clip: Clip, replace: Option<usize>) -> usize {
        let index = match replace.filter(|&i| i < self.animations.clips.len()) {
            Some(i) => {
                self.animations.clips[i] = clip;
                i
            }
            None => {
                self.animations.clips.push(clip);
                self.animations.clips.len() - 1
            }
        };
        self.animations.solo(index);
        self.selected = Some(index);
        self.engaged = true;
        index
    }

    /// Takes clip `index` out of the list; the selection moves to the first clip left, stopped.
    pub fn remove_clip(&mut self, index: usize) {
        if index >= self.animations.clips.len() {
            return;
        }
        self.animations.clips.remove(index);
        self.selected = if self.animations.clips.is_empty() { None } else { Some(0) };
        self.playing = false;
        self.time = 0.0;
    }

    pub fn selected_clip(&self) -> Option<&Clip> {
        self.selected.and_then(|i| self.animations.clips.get(i))
    }

    /// True when any clip drives the humanoid.
    pub fn any_enabled(&self) -> bool {
        self.animations.clips.iter().any(|c| c.enabled && c.unsupported().is_none())
    }

    /// Advances the clock by `elapsed` wall seconds × speed while playing; stops when every enabled clip
    /// is a finished non-looping one. Returns whether the time changed.
    pub fn advance(&mut self, elapsed: f64) -> bool {
        if !self.playing || elapsed <= 0.0 {
            return false;
        }
        self.time += elapsed * f64::from(self.speed);
        // The scene clock runs on as long as the user plays (sensors may start at any time).
        if self.mode == PlayMode::AsFile {
            return true;
        }
        let mode = self.options.interpolation;
        let mut active = self.animations.clips.iter().filter(|c| c.enabled && c.unsupported().is_none()).peekable();
        if active.peek().is_none() || active.all(|c| c.finished(self.time, mode)) {
            self.playing = false;
        }
        true
    }

    /// Play or pause, as the Play button: starting a selected clip that is off turns it on (an
    /// HAnimMotion's `enabled` is often false in files), and one that cannot play says why instead of
    /// playing nothing. The message says what was done, for the window to show.
    pub fn toggle_play_saying(&mut self) -> Option<String> {
        if !self.playing
            && self.mode == PlayMode::OneClip
            && let Some(i) = self.selected
            && let Some(clip) = self.animations.clips.get(i)
            && !clip.enabled
        {
            let name = clip.name().to_string();
            if let Some(reason) = clip.unsupported() {
                return Some(format!("'{name}' cannot play: {reason}"));
            }
            self.animations.clips[i].enabled = true;
            self.toggle_play();
            return Some(format!("'{name}' was off (enabled false): turned it on to play it"));
        }
        if !self.playing && self.mode == PlayMode::OneClip && !self.any_enabled() {
            return Some("nothing to play: no clip is on (tick one in Motions)".to_string());
        }
        self.toggle_play();
        None
    }

    pub fn toggle_play(&mut self) {
        self.engaged = true;
        if !self.playing {
            // Play from the start again after a finished non-looping pass.
            let mode = self.options.interpolation;
            if let Some(clip) = self.selected_clip()
                && self.mode == PlayMode::OneClip
                && clip.finished(self.time, mode)
            {
                self.time = 0.0;
            }
        }
        self.playing = !self.playing;
    }

    pub fn stop(&mut self) {
        self.engaged = true;
        self.playing = false;
        self.time = 0.0;
    }

    pub fn set_speed(&mut self, speed: f32) {
        self.speed = speed.clamp(MIN_SPEED, MAX_SPEED);
    }

    /// Moves the clock to `seconds` (the timeline of an interpolator clip).
    pub fn seek_time(&mut self, seconds: f64) {
        self.engaged = true;
        self.time = seconds;
    }

    /// Moves the clock to the frame `frame` of the selected HAnimMotion.
    pub fn seek_frame(&mut self, frame: usize) {
        self.engaged = true;
        if let Some(ClipSource::Motion { motion, .. }) = self.selected_clip().map(|c| &c.source) {
            self.time = motion.time_of_frame(frame as f64);
        }
    }

    /// One frame forward (`direction` 1) or back (−1): the selected HAnimMotion's next/previous frame
    /// (wrapping, §4.4); for an interpolator clip, 1/30 s.
    pub fn step(&mut self, direction: i32) {
        self.engaged = true;
        self.playing = false;
        let mode = self.options.interpolation;
        let clip = match self.mode {
            PlayMode::OneClip => self.selected_clip(),
            PlayMode::AsFile => None,
        };
        let Some(clip) = clip else {
            // The scene clock steps by 1/30 s, as an interpolator clip's timeline does.
            if self.mode == PlayMode::AsFile {
                self.time = (self.time + f64::from(direction.signum()) / 30.0).max(0.0);
            }
            return;
        };
        match &clip.source {
            ClipSource::Motion { motion, .. } => {
                let now = motion.frame_position(self.time, mode, clip.looping).round() as usize;
                let next = motion.step_frame(now, direction);
                self.time = motion.time_of_frame(next as f64);
            }
            ClipSource::Interpolators(_) => {
                self.time = (self.time + f64::from(direction.signum()) / 30.0).max(0.0);
            }
            ClipSource::Authored { clip, .. } => {
                self.time = clip.snap(self.time + f64::from(direction.signum()) / clip.fps);
            }
        }
    }

    /// Sets the base pose of `poses` for the current time (offsets kept).
    pub fn apply(&self, doc: &Document, poses: &mut [Pose]) {
        self.animations.apply(doc, self.time, &self.options, poses)
    }

    /// With [`follow_root`](Self::follow_root) on, where the camera target goes this frame: onto the root
    /// of `humanoid` when following starts (a motion in BVH units may have carried it out of view), then
    /// along with each step the root makes (world), so orbit and zoom stay free. `None` when off.
    pub fn follow(
        &mut self,
        doc: &Document,
        humanoid: HumanoidIndex,
        pose: &Pose,
        world_from_humanoid: glam::Mat4,
        target: Vec3,
    ) -> Option<Vec3> {
        if !self.follow_root {
            self.followed_root = None;
            return None;
        }
        let h = doc.humanoid(humanoid)?;
        let root = h.joints.iter().position(|j| j.parent.is_none())?;
        let g = crate::pose::humanoid_from_joint(h, pose);
        let now = world_from_humanoid.transform_point3(g[root].transform_point3(h.joints[root].rest.center));
        let moved = match self.followed_root {
            Some(before) => target + (now - before),
            None => now,
        };
        self.followed_root = Some(now);
        Some(moved)
    }
}
