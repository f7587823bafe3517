//! What makes an HAnimMotion wrong, against its definition in X3D 4.0 clause 26.3.4 (field ranges:
//! `frameDuration` (0,∞), `frameIndex`/`startFrame`/`endFrame` [0,∞), `loa` [-1,4]) and the semantics note
//! §4 (channel names, one channel group per joint name, `values` = channels × frames, joint names found
//! in the skeleton, `frameIncrement` 0 holds the clip still).
//!
//! The loader reports each defect as a warning (the motion may still play, clamped or skipping what
//! cannot be used); `check` reports the same defects as errors, with the rule names below.

use crate::x3d::{NodeId, Scene, SourcePos};

use super::model::{Humanoid, Motion};

/// One defect of one motion: the rule it breaks, where (the field's attribute, else the node) and what.
#[derive(Debug, Clone, PartialEq)]
pub struct MotionDefect {
    pub rule: &'static str,
    pub node: NodeId,
    pub pos: SourcePos,
    pub message: String,
}

/// Channel names a `channels` string may use: BVH's position and rotation names and X_ITE's scale names,
/// the axis letter in either case.
pub fn is_channel_name(name: &str) -> bool {
    let Some((axis, kind)) = name.split_at_checked(1) else { return false };
    matches!(axis, "X" | "Y" | "Z" | "x" | "y" | "z")
        && ["position", "rotation", "scale"].iter().any(|k| kind.eq_ignore_ascii_case(k))
}

impl Humanoid {
    /// Finds a motion's joint name in the skeleton: exact name, then its H-Anim 1/2 alias, then the name
    /// without a `<humanoid name>_` or `hanim_` prefix (semantics note §4.1).
    pub fn find_motion_joint(&self, name: &str) -> Option<usize> {
        let name = name.trim();
        if let Some(j) = self.joint_index(name) {
            return Some(j);
        }
        if let Some(j) = crate::names::hanim_alias(name).and_then(|alias| self.joint_index(alias)) {
            return Some(j);
        }
        let humanoid_prefix = format!("{}_", self.name);
        for prefix in [humanoid_prefix.as_str(), "hanim_"] {
            if let Some(stripped) = name.strip_prefix(prefix).filter(|s| !s.is_empty()) {
                return self.find_motion_joint(stripped);
            }
        }
        None
    }
}

/// The names of a comma- or space-separated list field (`joints`, `channels`).
pub fn split_list(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty())
}

/// The channel groups of a `channels` string (names per joint), or what makes it unreadable. Playback
/// (`animation::motion::parse_channels`) reads the names of these groups.
pub fn channel_groups(channels: &str) -> Result<Vec<Vec<&str>>, String> {
    let mut tokens = split_list(channels);
    let mut groups = Vec::new();
    while let Some(count) = tokens.next() {
        let n: usize = count.parse().map_err(|_| {
            format!("channels: expected the channel count of joint group {}, found '{count}'", groups.len() + 1)
        })?;
        let mut group = Vec::with_capacity(n.min(9));
        for i in 0..n {
            group.push(tokens.next().ok_or_else(|| {
                format!(
                    "channels: joint group {} announces {n} channels but the string ends after {i}",
                    groups.len() + 1
                )
            })?);
        }
        groups.push(group);
    }
    Ok(groups)
}

/// Every defect of every motion of `h`, in file order of the motions and fields.
pub fn motion_defects(scene: &Scene, h: &Humanoid) -> Vec<MotionDefect> {
    let mut out = Vec::new();
    for m in &h.motions {
        defects_of(scene, h, m, &mut out);
    }
    out
}

fn defects_of(scene: &Scene, h: &Humanoid, m: &Motion, out: &mut Vec<MotionDefect>) {
    let node = scene.node(m.node);
    let mut push = |rule: &'static str, field: &str, message: String| {
        let pos = scene.pos(node.field(field).map_or(node.loc, |f| f.loc));
        out.push(MotionDefect { rule, node: m.node, pos, message: format!("{}: {message}", scene.describe(m.node)) });
    };

    let (groups, readable) = match channel_groups(&m.channels) {
        Ok(groups) => (groups, true),
        Err(message) => {
            push("motion-channels", "channels", message);
            (Vec::new(), false)
        }
    };
    let unknown: Vec<&str> = groups.iter().flatten().copied().filter(|n| !is_channel_name(n)).collect();
    if !unknown.is_empty() {
        let shown: Vec<&str> = unknown.iter().take(8).copied().collect();
        push(
            "motion-channels",
            "channels",
            format!(
                "{} unknown channel name(s): {} (expected Xposition, Yposition, Zposition, Xrotation, Yrotation, \
                 Zrotation, Xscale, Yscale or Zscale)",
                unknown.len(),
                shown.join(", ")
            ),
        );
    }
    let names: Vec<&str> = split_list(&m.joints).collect();
    // Unreadable channels say nothing about the group count: one finding is enough.
    if readable && !m.channels.trim().is_empty() && names.len() != groups.len() {
        push(
            "motion-channel-count",
            "joints",
            format!(
                "joints names {} joint(s) but channels describes {} joint group(s); each joint needs its count \
                 and channel names",
                names.len(),
                groups.len()
            ),
        );
    }
    let missing: Vec<&str> =
        names.iter().copied().filter(|n| *n != "IGNORED" && h.find_motion_joint(n).is_none()).collect();
    if !missing.is_empty() {
        let shown: Vec<&str> = missing.iter().take(8).copied().collect();
        push(
            "motion-joint",
            "joints",
            format!("{} joint name(s) name no joint of the humanoid: {}", missing.len(), shown.join(", ")),
        );
    }

    let channel_count: usize = groups.iter().map(Vec::len).sum();
    let frame_count = m.values.len().checked_div(channel_count).unwrap_or(0);
    if channel_count > 0 && !m.values.len().is_multiple_of(channel_count) {
        push(
            "motion-values",
            "values",
            format!(
                "values has {} numbers, not a whole number of frames of {channel_count} channels ({frame_count} \
                 frames need {}, {} need {})",
                m.values.len(),
                frame_count * channel_count,
                frame_count + 1,
                (frame_count + 1) * channel_count
            ),
        );
    } else if channel_count == 0 && !m.values.is_empty() {
        push("motion-values", "values", format!("values has {} numbers but there are no channels", m.values.len()));
    }

    if !(m.frame_duration.is_finite() && m.frame_duration > 0.0) {
        push(
            "motion-frame-duration",
            "frameDuration",
            format!("frameDuration must be a positive number of seconds (0,∞), found {}", m.frame_duration),
        );
    }
    if m.frame_increment == 0 {
        push(
            "motion-frame-increment",
            "frameIncrement",
            "frameIncrement is 0: the motion never advances (use enabled='false' to hold it)".into(),
        );
    }
    let last = frame_count.checked_sub(1);
    for (field, value) in [("frameIndex", m.frame_index), ("startFrame", m.start_frame), ("endFrame", m.end_frame)] {
        let beyond = match last {
            // endFrame 0 is the default and means the last frame (§4.4).
            Some(last) => value as i64 > last as i64,
            None => value > 0,
        };
        if value < 0 || beyond {
            let range = match last {
                Some(last) => format!("0..{last} (the motion has {frame_count} frames)"),
                None => "0 (the motion has no frames)".to_string(),
            };
            push("motion-frame-range", field, format!("{field} {value} is outside the clip's frames {range}"));
        }
    }
    if !(-1..=4).contains(&m.loa) {
        push("motion-loa", "loa", format!("loa {} is outside -1..4", m.loa));
    }
    let enabled = m.channels_enabled.len();
    if enabled != 0 && enabled != groups.len() && enabled != channel_count {
        push(
            "motion-channels-enabled",
            "channelsEnabled",
            format!(
                "channelsEnabled has {enabled} entries, neither the {} joint groups nor the {channel_count} channels",
                groups.len()
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channel_names() {
        for name in ["Xposition", "yrotation", "ZROTATION", "Xscale"] {
            assert!(is_channel_name(name), "{name}");
        }
        for name in ["Wrotation", "Xrot", "", "X", "position"] {
            assert!(!is_channel_name(name), "{name}");
        }
    }

    #[test]
    fn channel_strings_split_into_groups() {
        assert_eq!(
            channel_groups("2 Xrotation Yrotation, 1 Zposition").unwrap(),
            vec![vec!["Xrotation", "Yrotation"], vec!["Zposition"]]
        );
        assert!(channel_groups("3 Xrotation").unwrap_err().contains("ends after 1"));
        assert!(channel_groups("x Xrotation").unwrap_err().contains("found 'x'"));
    }
}
