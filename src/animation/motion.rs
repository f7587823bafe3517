//! HAnimMotion: the channel string read as the semantics note §4 says, checked against the skeleton and
//! the `values` array, and sampled at a frame position.
//!
//! `value(frame f, group j, channel c) = values[f·C + off_j + c]` with `C` the total channel count and
//! `off_j` the channels of the groups before `j` (§4.1). Rotation values are degrees, multiplied in the
//! listed order (`R = R_a·R_b·R_c`, §4.3); position values are used as given (§4.2) and replace the
//! joint's translation; rotation values replace its rotation.

use glam::{Quat, Vec3};

use crate::hanim::motion_rules::{channel_groups, split_list};
use crate::hanim::{Humanoid, Motion};
use crate::x3d::{Scene, SourcePos, Warning};

/// One axis of one channel kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    Position(Axis),
    Rotation(Axis),
    /// Accepted as X_ITE does, but not applied: a pose has no per-joint scale (§1.4).
    Scale(Axis),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    X,
    Y,
    Z,
}

impl Axis {
    fn index(self) -> usize {
        match self {
            Axis::X => 0,
            Axis::Y => 1,
            Axis::Z => 2,
        }
    }

    fn unit(self) -> Vec3 {
        match self {
            Axis::X => Vec3::X,
            Axis::Y => Vec3::Y,
            Axis::Z => Vec3::Z,
        }
    }
}

impl Channel {
    /// BVH channel names (`Xposition` … `Zrotation`, and X_ITE's `Xscale` …).
    pub fn from_name(name: &str) -> Option<Channel> {
        let (axis, kind) = name.split_at_checked(1)?;
        let axis = match axis {
            "X" | "x" => Axis::X,
            "Y" | "y" => Axis::Y,
            "Z" | "z" => Axis::Z,
            _ => return None,
        };
        match kind.to_ascii_lowercase().as_str() {
            "position" => Some(Channel::Position(axis)),
            "rotation" => Some(Channel::Rotation(axis)),
            "scale" => Some(Channel::Scale(axis)),
            _ => None,
        }
    }
}

/// The channels of one entry of `joints`.
#[derive(Debug, Clone, PartialEq)]
pub struct ChannelGroup {
    /// The name as written in `joints`.
    pub joint_name: String,
    /// The joint it drives; `None` for `IGNORED` or a name missing from the skeleton (warned).
    pub joint: Option<usize>,
    pub channels: Vec<Channel>,
    /// `off_j`: index of this group's first channel in a frame.
    pub offset: usize,
    /// One flag per channel (`channelsEnabled`, read per joint or per channel, §4.5).
    pub enabled: Vec<bool>,
    /// The joint's file translation, for position axes the group does not carry.
    rest_translation: Vec3,
}

impl ChannelGroup {
    fn drives(&self, kind: fn(&Channel) -> bool) -> bool {
        self.joint.is_some() && self.channels.iter().zip(&self.enabled).any(|(c, on)| *on && kind(c))
    }

    /// Whether any enabled rotation channel targets a joint.
    pub fn drives_rotation(&self) -> bool {
        self.drives(|c| matches!(c, Channel::Rotation(_)))
    }

    pub fn drives_translation(&self) -> bool {
        self.drives(|c| matches!(c, Channel::Position(_)))
    }
}

/// Between frames: slerp/lerp (default) or the raw frames held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Interpolation {
    #[default]
    Smooth,
    Stepped,
}

/// A motion that cannot be played, with the file position of the offending field.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{pos}: {message}")]
pub struct MotionError {
    pub pos: SourcePos,
    pub message: String,
    /// The motion's `name` and DEF, so a request by either finds the error.
    pub name: String,
    pub def: Option<String>,
}

/// An HAnimMotion ready to sample.
#[derive(Debug, Clone)]
pub struct HanimMotion {
    pub name: String,
    pub def: Option<String>,
    pub description: String,
    /// Index of the motion in the humanoid's `motions` field.
    pub index: usize,
    pub groups: Vec<ChannelGroup>,
    /// `C`: channels per frame.
    pub channel_count: usize,
    pub frame_count: usize,
    pub values: Vec<f32>,
    /// Seconds per frame.
    pub frame_duration: f64,
    /// Frames advanced per frame duration; the sign is the direction, 0 holds `frame_index`.
    pub frame_increment: i32,
    /// `min(startFrame, endFrame)` after `endFrame = 0` or past the end became the last frame (§4.4).
    pub first_frame: usize,
    /// `max(startFrame, endFrame)`, same rule.
    pub last_frame: usize,
    pub frame_index: usize,
    pub looping: bool,
    /// `enabled` and the humanoid's `motionsEnabled` entry (missing entries mean enabled).
    pub enabled: bool,
    pub loa: i32,
    pub warnings: Vec<Warning>,
}

/// What one group contributes at one sample.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointSample {
    pub joint: usize,
    pub rotation: Option<Quat>,
    pub translation: Option<Vec3>,
}

/// Finds a motion's joint name in the skeleton (see [`Humanoid::find_motion_joint`]).
pub fn find_joint(h: &Humanoid, name: &str) -> Option<usize> {
    h.find_motion_joint(name)
}

/// Reads a `channels` string: per joint a count then that many channel names.
pub fn parse_channels(text: &str) -> Result<Vec<Vec<Channel>>, String> {
    let groups = channel_groups(text)?;
    groups
        .iter()
        .enumerate()
        .map(|(g, names)| {
            names
                .iter()
                .map(|&name| {
                    Channel::from_name(name).ok_or_else(|| {
                        format!(
                            "channels: unknown channel name '{name}' in joint group {} (expected Xposition, \
                             Yposition, Zposition, Xrotation, Yrotation, Zrotation or Xscale, Yscale, Zscale)",
                            g + 1
                        )
                    })
                })
                .collect()
        })
        .collect()
}

impl HanimMotion {
    /// Checks `motion` (the `index`-th of `h.motions`) against its channels and `h`'s skeleton.
    pub fn from_model(scene: &Scene, h: &Humanoid, index: usize) -> Result<HanimMotion, MotionError> {
        Self::from_motion(scene, h, &h.motions[index], index)
    }

    /// Checks `m`, a motion for `h` that need not be in the file (an imported capture), against its
    /// channels and `h`'s skeleton; `index` is its place among the motions. Messages point at `m.node`.
    pub fn from_motion(scene: &Scene, h: &Humanoid, m: &Motion, index: usize) -> Result<HanimMotion, MotionError> {
        let node = scene.node(m.node);
        let pos_of = |field: &str| scene.pos(node.field(field).map_or(node.loc, |f| f.loc));
        let error = |field: &str, message: String| MotionError {
            pos: pos_of(field),
            message: format!("{}: {message}", scene.describe(m.node)),
            name: m.name.clone(),
            def: m.def.clone(),
        };
        let mut warnings = Vec::new();
        let mut warn = |field: &str, message: String| {
            warnings.push(Warning { pos: pos_of(field), message: format!("{}: {message}", scene.describe(m.node)) })
        };

        let channel_groups = parse_channels(&m.channels).map_err(|e| error("channels", e))?;
        let names: Vec<&str> = split_list(&m.joints).collect();
        if names.len() != channel_groups.len() {
            return Err(error(
                "joints",
                format!(
                    "joints names {} joint groups but channels describes {} (each joint needs its count and \
                     channel names)",
                    names.len(),
                    channel_groups.len()
                ),
            ));
        }
        let channel_count: usize = channel_groups.iter().map(Vec::len).sum();
        let frame_count = m.values.len().checked_div(channel_count).unwrap_or(0);
        if (channel_count == 0 && !m.values.is_empty()) || frame_count * channel_count != m.values.len() {
            let expected = if channel_count == 0 {
                "0 (no channels)".to_string()
            } else {
                format!(
                    "{channel_count} channels × frames, i.e. {} or {} for {} or {} frames",
                    frame_count * channel_count,
                    (frame_count + 1) * channel_count,
                    frame_count,
                    frame_count + 1
                )
            };
            return Err(error("values", format!("values has {} numbers; expected {expected}", m.values.len())));
        }

        // channelsEnabled: per joint when its length is the group count, per channel when it is C (§4.5).
        let per_channel = !m.channels_enabled.is_empty()
            && m.channels_enabled.len() == channel_count
            && channel_count != channel_groups.len();
        if !m.channels_enabled.is_empty() && !per_channel && m.channels_enabled.len() != channel_groups.len() {
            warn(
                "channelsEnabled",
                format!(
                    "channelsEnabled has {} entries, neither the {} joint groups nor the {channel_count} channels; \
                     read per joint group (missing ones enabled)",
                    m.channels_enabled.len(),
                    channel_groups.len()
                ),
            );
        }

        let mut groups = Vec::with_capacity(channel_groups.len());
        let mut offset = 0;
        for (g, (name, channels)) in names.iter().zip(channel_groups).enumerate() {
            let joint = if *name == "IGNORED" {
                None
            } else {
                let found = find_joint(h, name);
                if found.is_none() {
                    warn(
                        "joints",
                        format!("joint '{name}' (group {}) is not in the skeleton; its channels are skipped", g + 1),
                    );
                }
                found
            };
            let enabled = (0..channels.len())
                .map(|c| {
                    let i = if per_channel { offset + c } else { g };
                    m.channels_enabled.get(i).copied().unwrap_or(true)
                })
                .collect();
            if joint.is_some() && channels.iter().any(|c| matches!(c, Channel::Scale(_))) {
                warn("channels", format!("scale channels of joint '{name}' are read but not applied"));
            }
            let rest_translation = joint.map_or(Vec3::ZERO, |j| h.joints[j].rest.translation);
            let n = channels.len();
            groups.push(ChannelGroup {
                joint_name: name.to_string(),
                joint,
                channels,
                offset,
                enabled,
                rest_translation,
            });
            offset += n;
        }

        // §4.4: endFrame 0 or past the end means the last frame; the range is min..max of the two.
        let last = frame_count.saturating_sub(1);
        let clamp = |f: i32| (f.max(0) as usize).min(last);
        let end = if m.end_frame <= 0 || m.end_frame as usize >= frame_count { last } else { m.end_frame as usize };
        let start = clamp(m.start_frame);
        let enabled = m.enabled && h.motions_enabled.get(index).copied().unwrap_or(true);
        if !(m.frame_duration.is_finite() && m.frame_duration > 0.0) {
            return Err(error(
                "frameDuration",
                format!("frameDuration must be a positive number of seconds, found {}", m.frame_duration),
            ));
        }
        // A motion without name or DEF still needs a name to be picked by.
        let name = if m.name.is_empty() { format!("HAnimMotion #{}", index + 1) } else { m.name.clone() };
        Ok(HanimMotion {
            name,
            def: m.def.clone(),
            description: m.description.clone(),
            index,
            groups,
            channel_count,
            frame_count,
            values: m.values.clone(),
            frame_duration: m.frame_duration,
            frame_increment: m.frame_increment,
            first_frame: start.min(end),
            last_frame: start.max(end),
            frame_index: clamp(m.frame_index),
            looping: m.looping,
            enabled,
            loa: m.loa,
            warnings,
        })
    }

    /// Frames the playback range covers in `mode`: `e − s` spans between frames when interpolating,
    /// `e − s + 1` held frames when stepping (§4.4).
    pub fn span(&self, mode: Interpolation) -> f64 {
        let frames = (self.last_frame - self.first_frame) as f64;
        match mode {
            Interpolation::Smooth => frames,
            Interpolation::Stepped => frames + 1.0,
        }
    }

    /// Seconds one pass over the range takes at `|frameIncrement|` frames per frame duration.
    pub fn duration(&self, mode: Interpolation) -> f64 {
        let step = self.frame_increment.unsigned_abs().max(1) as f64;
        self.span(mode) * self.frame_duration / step
    }

    /// The frame position `u` at playback time `tau` seconds (§4.4): `u = u₀ + k·τ/d`, `u₀` the first
    /// frame for `k > 0` and the last for `k < 0`; wrapped into the range when looping, else clamped.
    /// `k = 0` holds `frameIndex`.
    pub fn frame_position(&self, tau: f64, mode: Interpolation, looping: bool) -> f64 {
        let (s, e) = (self.first_frame as f64, self.last_frame as f64);
        let k = f64::from(self.frame_increment);
        if k == 0.0 || self.frame_count == 0 {
            return self.frame_index as f64;
        }
        let u0 = if k > 0.0 { s } else { e };
        let u = u0 + k * tau / self.frame_duration;
        let span = self.span(mode);
        if span <= 0.0 {
            return s;
        }
        if looping {
            // Forwards the range is [s, e) and wraps to s; backwards it is (s, e] and wraps to e.
            if k > 0.0 { s + (u - s).rem_euclid(span) } else { e - (e - u).rem_euclid(span) }
        } else {
            let end = match mode {
                Interpolation::Smooth => e,
                // The last frame is shown for its whole duration, up to (but excluding) e + 1.
                Interpolation::Stepped => e + 1.0 - 1e-9,
            };
            u.clamp(s, end)
        }
    }

    /// Whether a non-looping pass is over at `tau`.
    pub fn finished(&self, tau: f64, mode: Interpolation) -> bool {
        self.frame_increment != 0 && tau >= self.duration(mode)
    }

    /// Playback time at which the frame position is `frame` (inverse of [`frame_position`] within one pass).
    ///
    /// [`frame_position`]: Self::frame_position
    pub fn time_of_frame(&self, frame: f64) -> f64 {
        let k = f64::from(self.frame_increment);
        if k == 0.0 {
            return 0.0;
        }
        let u0 = if k > 0.0 { self.first_frame as f64 } else { self.last_frame as f64 };
        (frame - u0) * self.frame_duration / k
    }

    /// The next (`direction` > 0: `frame + frameIncrement`) or previous (`frame − frameIncrement`) frame,
    /// wrapping at the range ends (§4.4: next/previous always wrap); a zero increment steps by 1.
    pub fn step_frame(&self, frame: usize, direction: i32) -> usize {
        let count = (self.last_frame - self.first_frame + 1) as i64;
        let increment = if self.frame_increment == 0 { 1 } else { i64::from(self.frame_increment) };
        let step = increment * i64::from(direction.signum());
        let from = frame.clamp(self.first_frame, self.last_frame) as i64 - self.first_frame as i64;
        self.first_frame + (from + step).rem_euclid(count) as usize
    }

    fn value(&self, frame: usize, group: &ChannelGroup, channel: usize) -> f32 {
        self.values.get(frame * self.channel_count + group.offset + channel).copied().unwrap_or(0.0)
    }

    /// Rotation and translation of one group at one whole frame; `None` for kinds it does not drive.
    /// Euler channels multiply in the order they are listed (BVH, ISO/IEC 19774-2): `R = R_a·R_b·R_c`,
    /// as X_ITE 15 does too (docs/fidelity.md, "HAnimMotion Euler channels").
    pub fn frame_values(&self, frame: usize, group: &ChannelGroup) -> (Option<Quat>, Option<Vec3>) {
        let mut rotation: Option<Quat> = None;
        let mut translation: Option<Vec3> = None;
        for (c, channel) in group.channels.iter().enumerate() {
            if !group.enabled[c] {
                continue;
            }
            let v = self.value(frame, group, c);
            match channel {
                Channel::Rotation(axis) => {
                    let r = Quat::from_axis_angle(axis.unit(), v.to_radians());
                    rotation = Some(rotation.unwrap_or(Quat::IDENTITY) * r);
                }
                Channel::Position(axis) => {
                    let t = translation.get_or_insert(group.rest_translation);
                    t[axis.index()] = v;
                }
                Channel::Scale(_) => {}
            }
        }
        (rotation.map(Quat::normalize), translation)
    }

    /// Every driven joint at frame position `u`: slerp/lerp between `⌊u⌋` and `⌊u⌋+1` (smooth), or frame
    /// `⌊u⌋` (stepped).
    pub fn sample(&self, u: f64, mode: Interpolation) -> Vec<JointSample> {
        if self.frame_count == 0 {
            return Vec::new();
        }
        let last = self.frame_count - 1;
        let u = u.clamp(0.0, last as f64);
        let f0 = (u.floor() as usize).min(last);
        let (f1, t) = match mode {
            Interpolation::Smooth if f0 < last => (f0 + 1, (u - f0 as f64) as f32),
            _ => (f0, 0.0),
        };
        let mut out = Vec::with_capacity(self.groups.len());
        for group in &self.groups {
            let Some(joint) = group.joint else { continue };
            let (r0, p0) = self.frame_values(f0, group);
            let (rotation, translation) = if t > 0.0 {
                let (r1, p1) = self.frame_values(f1, group);
                (r0.zip(r1).map(|(a, b)| a.slerp(b, t)), p0.zip(p1).map(|(a, b)| a.lerp(b, t)))
            } else {
                (r0, p0)
            };
            if rotation.is_some() || translation.is_some() {
                out.push(JointSample { joint, rotation, translation });
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channel_strings_parse_per_group_in_the_listed_order() {
        let groups = parse_channels(
            "6 Xposition Yposition Zposition Zrotation Xrotation Yrotation, 3 Zrotation Xrotation Yrotation",
        )
        .unwrap();
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0][3], Channel::Rotation(Axis::Z));
        assert_eq!(groups[1], vec![Channel::Rotation(Axis::Z), Channel::Rotation(Axis::X), Channel::Rotation(Axis::Y)]);
        assert!(parse_channels("3 Xrotation Yrotation").unwrap_err().contains("ends after 2"));
        assert!(parse_channels("1 Wrotation").unwrap_err().contains("unknown channel name 'Wrotation'"));
        assert!(parse_channels("Xrotation").unwrap_err().contains("channel count"));
        assert!(parse_channels("").unwrap().is_empty());
    }
}
