//! The transport: which clip the timeline shows, the playback clock, speed and play mode, and the camera's
//! follow of a travelling root.

use glam::Vec3;

use super::{Animations, Clip, ClipSource, PlayMode, SampleOptions};
use crate::hanim::{Document, HumanoidIndex};
use crate::pose::Pose;

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
