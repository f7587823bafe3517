//! Authored clips: poses keyed at times in the window (or on the command line), played back like any
//! clip. A key holds the effective rotation of every joint that differs from the humanoid's rest pose,
//! and the skeleton root's translation. Between two keys each joint turns along the shortest arc at a
//! constant rate (slerp) and the root moves in a straight line (lerp); before the first key the first is
//! held, after the last the last. A joint one key stores and another does not is at its rest rotation in
//! the other (it "differs from rest" only there).
//!
//! Key times lie on whole frames of the clip's rate ([`AuthoredClip::fps`], 30 by default): a key set at
//! 1.01 s lands on frame 30 (1.0 s). That is what makes the HAnimMotion export exact: its frames sit on
//! the same grid, each frame is the slerp between its two keys, and a slerp between two points of one
//! arc stays on that arc at the same rate, so the exported motion plays exactly this clip — at the keys
//! and between them (docs/keyframes.md).

use glam::{Quat, Vec3};

use super::{Clip, ClipSource, Transport};
use crate::hanim::{Humanoid, HumanoidIndex};
use crate::pose::Pose;

/// Frames per second of a new authored clip's key grid.
pub const DEFAULT_KEY_FPS: f64 = 30.0;

/// Rotations closer than this to the rest rotation (in `1 − |q·r|`) count as "at rest" and are not stored.
const AT_REST: f32 = 1e-9;

/// One key: a time and the pose at it.
#[derive(Debug, Clone, PartialEq)]
pub struct Key {
    /// Seconds from the clip's start (a whole frame of the clip's rate).
    pub time: f64,
    /// `(joint, effective rotation)` of every joint that differs from rest, by joint index.
    pub rotations: Vec<(usize, Quat)>,
    /// The skeleton root's effective translation (`None` for a humanoid without joints).
    pub root_translation: Option<Vec3>,
}

impl Key {
    /// The key of `pose` (base rotations with the user's offsets, as the window shows it) at `time`.
    pub fn of_pose(h: &Humanoid, pose: &Pose, time: f64) -> Key {
        let rotations = (0..h.joints.len())
            .filter_map(|j| {
                let q = pose.effective_rotation(h, j).normalize();
                let rest = h.joints[j].rest.rotation;
                (1.0 - q.dot(rest).abs() > AT_REST).then_some((j, q))
            })
            .collect();
        let root_translation = root_joint(h).map(|r| pose.effective_translation(h, r));
        Key { time, rotations, root_translation }
    }

    /// This key's rotation of `joint`: the stored one, else the rest rotation.
    pub fn rotation(&self, h: &Humanoid, joint: usize) -> Quat {
        match self.rotations.binary_search_by_key(&joint, |(j, _)| *j) {
            Ok(i) => self.rotations[i].1,
            Err(_) => h.joints.get(joint).map_or(Quat::IDENTITY, |j| j.rest.rotation),
        }
    }
}

/// The first skeleton root of `h` (the joint whose translation a key stores).
pub fn root_joint(h: &Humanoid) -> Option<usize> {
    h.joints.iter().position(|j| j.parent.is_none())
}

/// A clip at one time: `(joint, rotation)` of every driven joint, and `(root joint, translation)`.
pub type Sampled = (Vec<(usize, Quat)>, Option<(usize, Vec3)>);

/// Why a key edit was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct KeyError(pub String);

/// A clip made of keys.
#[derive(Debug, Clone, PartialEq)]
pub struct AuthoredClip {
    /// Stays the same through edits, so undo finds the clip again after others were added or removed.
    pub id: u64,
    pub name: String,
    /// The key grid: key times are whole multiples of `1/fps` seconds.
    pub fps: f64,
    /// The root joint whose translation keys store.
    pub root: Option<usize>,
    /// Sorted by time, at most one per frame.
    pub keys: Vec<Key>,
}

impl AuthoredClip {
    pub fn new(id: u64, name: &str, h: &Humanoid) -> AuthoredClip {
        AuthoredClip { id, name: name.to_string(), fps: DEFAULT_KEY_FPS, root: root_joint(h), keys: Vec::new() }
    }

    /// `seconds` on the key grid: the nearest whole frame, not before 0.
    pub fn snap(&self, seconds: f64) -> f64 {
        let fps = if self.fps > 0.0 { self.fps } else { DEFAULT_KEY_FPS };
        ((seconds.max(0.0) * fps).round() / fps).max(0.0)
    }

    /// The key at `seconds` (within half a frame), by index.
    pub fn key_at(&self, seconds: f64) -> Option<usize> {
        let half = 0.5 / self.fps.max(1e-9);
        self.keys.iter().position(|k| (k.time - seconds).abs() < half)
    }

    /// Stores `key` at its time snapped to the grid, replacing a key already there; returns its index.
    pub fn set_key(&mut self, mut key: Key) -> Result<usize, KeyError> {
        if !key.time.is_finite() {
            return Err(KeyError("a key's time must be a finite number of seconds".to_string()));
        }
        key.time = self.snap(key.time);
        if let Some(i) = self.key_at(key.time) {
            self.keys[i] = key;
            return Ok(i);
        }
        let i = self.keys.partition_point(|k| k.time < key.time);
        self.keys.insert(i, key);
        Ok(i)
    }

    /// Moves the key at `from` to `to` (snapped); a key already at `to` is an error, not overwritten.
    /// Returns the key's new time.
    pub fn move_key(&mut self, from: f64, to: f64) -> Result<f64, KeyError> {
        let i = self.key_at(from).ok_or_else(|| self.no_key(from))?;
        if !to.is_finite() {
            return Err(KeyError("a key's time must be a finite number of seconds".to_string()));
        }
        let to = self.snap(to);
        if let Some(other) = self.key_at(to).filter(|&j| j != i) {
            return Err(KeyError(format!("a key is already at {:.3} s (delete it first)", self.keys[other].time)));
        }
        let mut key = self.keys.remove(i);
        key.time = to;
        let at = self.keys.partition_point(|k| k.time < to);
        self.keys.insert(at, key);
        Ok(to)
    }

    /// Deletes the key at `seconds`.
    pub fn delete_key(&mut self, seconds: f64) -> Result<Key, KeyError> {
        let i = self.key_at(seconds).ok_or_else(|| self.no_key(seconds))?;
        Ok(self.keys.remove(i))
    }

    fn no_key(&self, seconds: f64) -> KeyError {
        let times: Vec<String> = self.keys.iter().map(|k| format!("{:.3}", k.time)).collect();
        KeyError(format!(
            "no key at {seconds:.3} s in '{}' (keys at: {} s)",
            self.name,
            if times.is_empty() { "none".to_string() } else { times.join(", ") }
        ))
    }

    /// Seconds from the start to the last key (0 with fewer than two keys at different times).
    pub fn duration(&self) -> f64 {
        self.keys.last().map_or(0.0, |k| k.time)
    }

    /// Every joint some key stores, in joint order: the joints the clip drives.
    pub fn joints(&self) -> Vec<usize> {
        let mut all: Vec<usize> = self.keys.iter().flat_map(|k| k.rotations.iter().map(|(j, _)| *j)).collect();
        all.sort_unstable();
        all.dedup();
        all
    }

    /// The two keys around `tau` and how far between them (`0..=1`); `None` without keys.
    fn bracket(&self, tau: f64) -> Option<(usize, usize, f32)> {
        let last = self.keys.len().checked_sub(1)?;
        let after = self.keys.partition_point(|k| k.time <= tau);
        Some(match after {
            0 => (0, 0, 0.0),
            n if n > last => (last, last, 0.0),
            n => {
                let (a, b) = (&self.keys[n - 1], &self.keys[n]);
                let span = b.time - a.time;
                let t = if span > 0.0 { ((tau - a.time) / span).clamp(0.0, 1.0) } else { 0.0 };
                (n - 1, n, t as f32)
            }
        })
    }

    /// The rotation of each driven joint and the root's translation at `tau` (seconds, clamped to the
    /// keys): slerp and lerp between the keys around it.
    pub fn sample(&self, h: &Humanoid, tau: f64) -> Sampled {
        let Some((a, b, t)) = self.bracket(tau) else { return (Vec::new(), None) };
        let (ka, kb) = (&self.keys[a], &self.keys[b]);
        let rotations = self
            .joints()
            .into_iter()
            .map(|j| {
                let (qa, qb) = (ka.rotation(h, j), kb.rotation(h, j));
                (j, if t > 0.0 { qa.slerp(qb, t).normalize() } else { qa })
            })
            .collect();
        let root = match (self.root, ka.root_translation, kb.root_translation) {
            (Some(r), Some(pa), Some(pb)) => Some((r, pa.lerp(pb, t))),
            (Some(r), Some(p), None) | (Some(r), None, Some(p)) => Some((r, p)),
            _ => None,
        };
        (rotations, root)
    }

    /// The root translation of the first key (where the clip starts), for root modes.
    pub fn first_root_translation(&self) -> Option<Vec3> {
        self.keys.first().and_then(|k| k.root_translation)
    }
}

/// The transport's authored clips at one moment, for undo: each with the humanoid it poses and its place
/// in the clip list, and which clip was selected.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AuthoredSnapshot {
    clips: Vec<(usize, HumanoidIndex, AuthoredClip, bool)>,
    selected: Option<u64>,
    /// Whether each other clip was enabled, in list order (a new authored clip plays alone).
    others_enabled: Vec<bool>,
}

impl Transport {
    /// The selected clip when it is an authored clip of `humanoid`, by index.
    pub fn selected_authored(&self, humanoid: HumanoidIndex) -> Option<usize> {
        let i = self.selected?;
        match &self.animations.clips.get(i)?.source {
            ClipSource::Authored { humanoid: of, .. } if *of == humanoid => Some(i),
            _ => None,
        }
    }

    /// The authored clip at `index`, to edit.
    fn authored_mut(&mut self, index: usize) -> Option<&mut AuthoredClip> {
        match &mut self.animations.clips.get_mut(index)?.source {
            ClipSource::Authored { clip, .. } => Some(clip),
            _ => None,
        }
    }

    /// Stores `pose` of humanoid `humanoid` as a key at the current time (snapped to the grid, and the
    /// clock moved there): into the selected authored clip of that humanoid, else into a new one that is
    /// then played alone and selected. Returns the clip's index.
    pub fn set_key(&mut self, h: &Humanoid, humanoid: HumanoidIndex, pose: &Pose) -> Result<usize, KeyError> {
        let index = match self.selected_authored(humanoid) {
            Some(i) => i,
            None => {
                let id = self.animations.clips.iter().filter_map(authored_id).max().map_or(1, |m| m + 1);
                let name = self.unused_name("keys");
                let clip = Clip {
                    source: ClipSource::Authored { humanoid, clip: AuthoredClip::new(id, &name, h) },
                    enabled: true,
                    looping: false,
                };
                self.put_clip(clip, None)
            }
        };
        let time = self.time;
        let clip = self.authored_mut(index).expect("the clip just selected or made is authored");
        let at = clip.set_key(Key::of_pose(h, pose, time))?;
        self.time = clip.keys[at].time;
        self.animations.solo(index);
        self.selected = Some(index);
        self.playing = false;
        self.engaged = true;
        // The keyed clip plays on its own timeline, not the scene's.
        self.mode = super::PlayMode::OneClip;
        Ok(index)
    }

    /// Moves a key of the selected authored clip; the clock follows it.
    pub fn move_key(&mut self, from: f64, to: f64) -> Result<f64, KeyError> {
        let index = self.selected_authored_any()?;
        let to = self.authored_mut(index).expect("selected_authored_any is authored").move_key(from, to)?;
        self.time = to;
        self.engaged = true;
        Ok(to)
    }

    /// Deletes a key of the selected authored clip.
    pub fn delete_key(&mut self, at: f64) -> Result<(), KeyError> {
        let index = self.selected_authored_any()?;
        self.authored_mut(index).expect("selected_authored_any is authored").delete_key(at)?;
        self.engaged = true;
        Ok(())
    }

    fn selected_authored_any(&self) -> Result<usize, KeyError> {
        self.selected
            .filter(|&i| matches!(self.animations.clips.get(i).map(|c| &c.source), Some(ClipSource::Authored { .. })))
            .ok_or_else(|| KeyError("the selected clip is not an authored clip (set a key first)".to_string()))
    }

    /// `base`, or `base_2`, `base_3`… — the first name no clip has.
    fn unused_name(&self, base: &str) -> String {
        let mut name = base.to_string();
        let mut n = 1;
        while self.animations.find(&name).is_some() {
            n += 1;
            name = format!("{base}_{n}");
        }
        name
    }

    /// The authored clips as they are now.
    pub fn authored_snapshot(&self) -> AuthoredSnapshot {
        let clips = self
            .animations
            .clips
            .iter()
            .enumerate()
            .filter_map(|(i, c)| match &c.source {
                ClipSource::Authored { humanoid, clip } => Some((i, *humanoid, clip.clone(), c.enabled)),
                _ => None,
            })
            .collect();
        let selected = self.selected.and_then(|i| self.animations.clips.get(i)).and_then(authored_id);
        let others_enabled =
            self.animations.clips.iter().filter(|c| authored_id(c).is_none()).map(|c| c.enabled).collect();
        AuthoredSnapshot { clips, selected, others_enabled }
    }

    /// Puts the authored clips back as `snapshot` had them: clips it lacks are removed, its clips are
    /// restored (at their old place where the list still reaches it), the selection follows. The clock
    /// stays.
    pub fn restore_authored(&mut self, snapshot: &AuthoredSnapshot) {
        let selected_other = self
            .selected
            .and_then(|i| self.animations.clips.get(i))
            .filter(|c| !matches!(c.source, ClipSource::Authored { .. }))
            .map(|c| c.name().to_string());
        self.animations.clips.retain(|c| !matches!(c.source, ClipSource::Authored { .. }));
        if self.animations.clips.len() == snapshot.others_enabled.len() {
            for (c, on) in self.animations.clips.iter_mut().zip(&snapshot.others_enabled) {
                c.enabled = *on;
            }
        }
        for (index, humanoid, clip, enabled) in &snapshot.clips {
            let entry = Clip {
                source: ClipSource::Authored { humanoid: *humanoid, clip: clip.clone() },
                enabled: *enabled,
                looping: false,
            };
            let at = (*index).min(self.animations.clips.len());
            self.animations.clips.insert(at, entry);
        }
        self.selected = match (snapshot.selected, selected_other) {
            (Some(id), _) => self.animations.clips.iter().position(|c| authored_id(c) == Some(id)),
            (None, Some(name)) => self.animations.find(&name),
            (None, None) => None,
        }
        .or_else(|| (!self.animations.clips.is_empty()).then_some(0));
        self.playing = false;
        self.engaged = true;
    }
}

fn authored_id(clip: &Clip) -> Option<u64> {
    match &clip.source {
        ClipSource::Authored { clip, .. } => Some(clip.id),
        _ => None,
    }
}

/// Writes authored clip `clip` at `tau` into `pose` (the transport's sampling of an authored clip).
pub(super) fn apply_authored(
    h: &Humanoid,
    clip: &AuthoredClip,
    tau: f64,
    options: &super::SampleOptions,
    pose: &mut Pose,
) {
    let (rotations, root) = clip.sample(h, tau);
    for (j, q) in rotations {
        if let Some(slot) = pose.rotations.get_mut(j) {
            *slot = q;
        }
    }
    if let Some((r, t)) = root {
        let t = super::root_translation(h, r, t, clip.first_root_translation(), options.root_mode);
        if let Some(slot) = pose.translations.get_mut(r) {
            *slot = t;
        }
    }
}

impl Transport {
    /// Sets `pose`'s base to the file's rest values with the enabled authored clips of `humanoid`
    /// applied at the current time: what the next frame would sample, at once (after a key edit).
    pub fn apply_one(&self, h: &Humanoid, humanoid: HumanoidIndex, pose: &mut Pose) {
        let rest = Pose::rest(h);
        pose.rotations = rest.rotations;
        pose.translations = rest.translations;
        for c in self.animations.clips.iter().filter(|c| c.enabled) {
            if let ClipSource::Authored { humanoid: of, clip } = &c.source
                && *of == humanoid
            {
                apply_authored(h, clip, self.time, &self.options, pose);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pose::test_humanoid::HumanoidBuilder;

    fn two_joints() -> Humanoid {
        HumanoidBuilder::new()
            .joint("humanoid_root", None, Vec3::new(0.0, 1.0, 0.0))
            .joint("l_shoulder", Some(0), Vec3::new(0.2, 1.5, 0.0))
            .build()
    }

    fn key(h: &Humanoid, time: f64, angle: f32, lift: f32) -> Key {
        let mut pose = Pose::rest(h);
        pose.rotation_offsets[1] = Quat::from_rotation_z(angle);
        pose.translation_offsets[0] = Vec3::new(0.0, lift, 0.0);
        Key::of_pose(h, &pose, time)
    }

    #[test]
    fn keys_hold_what_differs_from_rest_and_slerp_between() {
        let h = two_joints();
        let rest = Key::of_pose(&h, &Pose::rest(&h), 0.0);
        assert!(rest.rotations.is_empty(), "the rest pose keys no rotation");
        assert_eq!(rest.root_translation, Some(Vec3::ZERO));
        let mut clip = AuthoredClip::new(1, "keys", &h);
        clip.set_key(key(&h, 0.0, 0.0, 0.0)).unwrap();
        clip.set_key(key(&h, 1.01, 1.2, 0.4)).unwrap();
        assert_eq!(clip.keys.iter().map(|k| k.time).collect::<Vec<_>>(), [0.0, 1.0], "snapped to frame 30");
        assert_eq!(clip.joints(), [1]);
        let (turned, root) = clip.sample(&h, 0.25);
        assert!(turned[0].1.abs_diff_eq(Quat::from_rotation_z(0.3), 1e-6), "a quarter of the arc: {:?}", turned[0].1);
        assert_eq!(root.map(|(r, t)| (r, (t.y * 1e5).round())), Some((0, 10000.0)));
        // Before the first key and after the last, the nearest key holds.
        assert!(clip.sample(&h, -1.0).0[0].1.abs_diff_eq(Quat::IDENTITY, 1e-7));
        assert!(clip.sample(&h, 9.0).0[0].1.abs_diff_eq(Quat::from_rotation_z(1.2), 1e-6));
        // Setting a key on an existing frame replaces it.
        clip.set_key(key(&h, 1.0, -0.5, 0.0)).unwrap();
        assert_eq!(clip.keys.len(), 2);
        assert!(clip.keys[1].rotation(&h, 1).abs_diff_eq(Quat::from_rotation_z(-0.5), 1e-6));
    }

    #[test]
    fn keys_move_and_delete_with_clear_errors() {
        let h = two_joints();
        let mut clip = AuthoredClip::new(1, "keys", &h);
        for (t, a) in [(0.0, 0.1), (1.0, 0.2), (2.0, 0.3)] {
            clip.set_key(key(&h, t, a, 0.0)).unwrap();
        }
        assert_eq!(clip.move_key(1.0, 3.01).unwrap(), 3.0);
        assert_eq!(clip.keys.iter().map(|k| k.time).collect::<Vec<_>>(), [0.0, 2.0, 3.0], "kept in time order");
        assert_eq!(clip.duration(), 3.0);
        assert_eq!(clip.move_key(0.0, 2.0).unwrap_err().to_string(), "a key is already at 2.000 s (delete it first)");
        assert_eq!(
            clip.delete_key(1.5).unwrap_err().to_string(),
            "no key at 1.500 s in 'keys' (keys at: 0.000, 2.000, 3.000 s)"
        );
        let gone = clip.delete_key(2.0).unwrap();
        assert!(gone.rotation(&h, 1).abs_diff_eq(Quat::from_rotation_z(0.3), 1e-6));
        assert!(clip.set_key(key(&h, f64::NAN, 0.0, 0.0)).is_err());
    }
}
