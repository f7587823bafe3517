//! Writing an authored clip (keys set in the window or by `motion keys`) into a copy of its humanoid
//! file: the rest of the file byte for byte, plus either
//!
//! - an HAnimMotion sampled at a frame rate (default 30 fps): frame `f` is the clip at `f/fps` s. Key
//!   times lie on the clip's own frame grid, so at the same rate every key is a frame, and since a slerp
//!   between two points of one arc stays on that arc at the same rate, the motion plays the clip exactly
//!   at every time (docs/keyframes.md); or
//! - for X3D 3.3 players, a TimeSensor, one OrientationInterpolator per driven joint and a
//!   PositionInterpolator for the root, routed to the joints: the keys themselves (an
//!   OrientationInterpolator slerps between its key values), with the last key held for one frame
//!   before the loop starts again (a TimeSensor that does not loop never starts when its startTime is
//!   in the past, as 0 is once the file has loaded).
//!
//! Optionally a pose is written as the joints' rest values: each HAnimJoint start tag whose rotation
//! differs gets its `rotation` attribute edited in place (and the root its `translation`), nothing else.

use std::fmt::Write as _;
use std::path::Path;

use glam::{Quat, Vec3};
use quick_xml::escape::escape;
use quick_xml::events::Event;

use super::export::{InsertMotionError, MotionTrack, TrackJoint, insert_motion};
use crate::animation::AuthoredClip;
use crate::animation::authored::root_joint;
use crate::hanim::Humanoid;
use crate::pose::Pose;

/// How the clip is written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KeysExportOptions {
    /// Frames per second of the HAnimMotion.
    pub fps: f64,
    /// TimeSensor + interpolators + ROUTEs instead of an HAnimMotion.
    pub as_interpolators: bool,
    /// The HAnimMotion's `loop` (the interpolators' TimeSensor always loops, see the module notes).
    pub looping: bool,
    /// The file's `UNIT` conversion factors at the humanoid (metres and radians per file unit): the
    /// joint fields and interpolator values are written in file units, as the file reads them.
    pub units: crate::x3d::Units,
}

impl Default for KeysExportOptions {
    fn default() -> Self {
        KeysExportOptions {
            fps: crate::animation::authored::DEFAULT_KEY_FPS,
            as_interpolators: false,
            looping: false,
            units: crate::x3d::Units::default(),
        }
    }
}

/// Why an export failed.
#[derive(Debug, thiserror::Error)]
pub enum KeysExportError {
    #[error(transparent)]
    Insert(#[from] InsertMotionError),
    #[error("{}: joint '{joint}' of humanoid {number} has no HAnimJoint element to edit (only X3D XML files with HAnimJoint elements can be written)", path.display())]
    NoJointElement { path: std::path::PathBuf, joint: String, number: usize },
    #[error("the clip '{0}' has no keys")]
    NoKeys(String),
    #[error("the frame rate must be a positive number of frames per second, not {0}")]
    BadFps(f64),
}

/// The keys that do not fall on a frame at `fps` (the motion reaches them only approximately).
pub fn off_grid_keys(clip: &AuthoredClip, fps: f64) -> Vec<f64> {
    clip.keys.iter().map(|k| k.time).filter(|t| ((t * fps) - (t * fps).round()).abs() > 1e-6).collect()
}

/// The clip as an HAnimMotion track sampled at `fps`: the root (with its position) and every joint a key
/// turns, from frame 0 at 0 s to the last key.
pub fn sampled_track(h: &Humanoid, clip: &AuthoredClip, fps: f64, looping: bool) -> MotionTrack {
    let mut joints = clip.joints();
    let root = clip.root.filter(|&r| r < h.joints.len());
    if let Some(r) = root
        && !joints.contains(&r)
    {
        joints.insert(0, r);
    }
    let frames = (clip.duration() * fps).round() as usize + 1;
    let mut rotations = Vec::with_capacity(frames * joints.len());
    let mut positions = Vec::with_capacity(frames * joints.len());
    for f in 0..frames {
        let (turned, root_at) = clip.sample(h, f as f64 / fps);
        for &j in &joints {
            let q = turned.iter().find(|(k, _)| *k == j).map_or(h.joints[j].rest.rotation, |(_, q)| *q);
            rotations.push(q.as_dquat());
            let t = match root_at {
                Some((r, t)) if r == j => t,
                _ => h.joints[j].rest.translation,
            };
            positions.push(t.as_dvec3());
        }
    }
    MotionTrack {
        name: clip.name.clone(),
        description: format!("{} keys, sampled at {fps} fps", clip.keys.len()),
        joints: joints
            .iter()
            .map(|&j| TrackJoint { name: h.joints[j].name.clone(), position: Some(j) == root })
            .collect(),
        rotations,
        positions,
        frame_duration: 1.0 / fps,
        looping,
    }
}

/// The text of one `rotation` value, its angle in file units.
fn rotation_text(q: Quat, units: &crate::x3d::Units) -> String {
    let (axis, angle) = q.normalize().to_axis_angle();
    if angle.abs() < 1e-9 || !axis.is_finite() {
        "0 0 1 0".to_string()
    } else {
        format!("{} {} {} {}", axis.x, axis.y, axis.z, angle / units.angle as f32)
    }
}

/// A length-valued vector in file units.
fn vec_text(v: Vec3, units: &crate::x3d::Units) -> String {
    let v = v / units.length as f32;
    format!("{} {} {}", v.x, v.y, v.z)
}

/// A DEF not used in `document`: `base`, else `base_2`, `base_3`…
fn unused_def(document: &str, taken: &[String], base: &str) -> String {
    let safe = base.replace(|c: char| !c.is_ascii_alphanumeric() && c != '_', "_");
    let safe = if safe.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') { safe } else { format!("_{safe}") };
    let used = |d: &str| {
        taken.iter().any(|t| t == d)
            || document.contains(&format!("DEF='{d}'"))
            || document.contains(&format!("DEF=\"{d}\""))
    };
    let mut def = safe.clone();
    let mut n = 1;
    while used(&def) {
        n += 1;
        def = format!("{safe}_{n}");
    }
    def
}

/// One HAnimJoint start tag inside the humanoid: where it is and its attributes' value ranges.
struct JointTag {
    end: usize,
    /// `(name, value start, value end)` in the document.
    attributes: Vec<(String, usize, usize)>,
}

impl JointTag {
    fn value<'a>(&self, text: &'a str, name: &str) -> Option<&'a str> {
        self.attributes.iter().find(|(n, ..)| n == name).map(|(_, a, b)| &text[*a..*b])
    }
}

/// The attributes of the tag `text[start..end]` with their value ranges (absolute offsets).
fn tag_attributes(text: &str, start: usize, end: usize) -> Vec<(String, usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = start + 1;
    // Skip the element name.
    while i < end && !bytes[i].is_ascii_whitespace() && bytes[i] != b'>' && bytes[i] != b'/' {
        i += 1;
    }
    loop {
        while i < end && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let name_start = i;
        while i < end && bytes[i] != b'=' && !bytes[i].is_ascii_whitespace() && bytes[i] != b'>' && bytes[i] != b'/' {
            i += 1;
        }
        if i == name_start {
            return out;
        }
        let name = text[name_start..i].to_string();
        while i < end && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= end || bytes[i] != b'=' {
            return out;
        }
        i += 1;
        while i < end && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= end || (bytes[i] != b'\'' && bytes[i] != b'"') {
            return out;
        }
        let quote = bytes[i];
        let value_start = i + 1;
        let Some(len) = text[value_start..end].bytes().position(|b| b == quote) else { return out };
        out.push((name, value_start, value_start + len));
        i = value_start + len + 1;
    }
}

/// Where humanoid number `index` (document order, USE skipped) of the XML `text` lies (start of its
/// start tag, end of its end tag), and its HAnimJoint start tags (USE skipped).
fn humanoid_tags(text: &str, path: &Path, index: usize) -> Result<(usize, usize, Vec<JointTag>), InsertMotionError> {
    let mut reader = quick_xml::Reader::from_str(text);
    let (mut seen, mut depth) = (0usize, 0usize);
    let mut inside: Option<(usize, usize)> = None;
    let mut joints = Vec::new();
    loop {
        let before = reader.buffer_position() as usize;
        let event = reader.read_event().map_err(|e| {
            let offset = reader.error_position() as usize;
            let head = &text[..offset.min(text.len())];
            let line = head.matches('\n').count() + 1;
            let column = head.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            InsertMotionError::Xml { path: path.to_path_buf(), line, column, error: e }
        })?;
        let after = reader.buffer_position() as usize;
        let is_use = |e: &quick_xml::events::BytesStart| e.attributes().flatten().any(|a| a.key.as_ref() == "USE");
        match &event {
            Event::Start(e) | Event::Empty(e) => {
                let empty = matches!(event, Event::Empty(_));
                let name = e.local_name();
                if inside.is_some() && name.as_ref() == "HAnimJoint" && !is_use(e) {
                    joints.push(JointTag { end: after, attributes: tag_attributes(text, before, after) });
                }
                if name.as_ref() == "HAnimHumanoid" && inside.is_none() && !is_use(e) {
                    if seen == index {
                        if empty {
                            return Ok((before, after, joints));
                        }
                        inside = Some((before, depth + 1));
                    }
                    seen += 1;
                }
                if !empty {
                    depth += 1;
                }
            }
            Event::End(e) => {
                if let Some((start, d)) = inside
                    && d == depth
                    && e.local_name().as_ref() == "HAnimHumanoid"
                {
                    return Ok((start, after, joints));
                }
                depth = depth.saturating_sub(1);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if seen == 0 {
        return Err(InsertMotionError::NoHumanoid(path.to_path_buf()));
    }
    Err(InsertMotionError::NoSuchHumanoid { path: path.to_path_buf(), number: index + 1, count: seen })
}

/// Text splices `(start, end, replacement)` applied from the back, so offsets stay valid.
fn splice(text: &str, mut edits: Vec<(usize, usize, String)>) -> String {
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_string();
    for (start, end, with) in edits {
        out.replace_range(start..end, &with);
    }
    out
}

/// The edit that sets attribute `name` of `tag` to `value` (replacing its value, or adding it before
/// the tag's end).
fn set_attribute(text: &str, tag: &JointTag, name: &str, value: &str) -> (usize, usize, String) {
    match tag.attributes.iter().find(|(n, ..)| n == name) {
        Some((_, a, b)) => (*a, *b, escape(value).into_owned()),
        None => {
            let close = if text[..tag.end].ends_with("/>") { tag.end - 2 } else { tag.end - 1 };
            (close, close, format!(" {name}='{}'", escape(value)))
        }
    }
}

/// The joint tag of joint `j` (matched by `name`, else DEF, as the model names joints).
fn find_tag<'a>(text: &str, tags: &'a [JointTag], h: &Humanoid, j: usize) -> Option<&'a JointTag> {
    let joint = &h.joints[j];
    tags.iter().find(|t| match t.value(text, "name") {
        Some(name) => name == joint.name,
        None => t.value(text, "DEF") == Some(joint.name.as_str()) || t.value(text, "DEF") == joint.def.as_deref(),
    })
}

/// What an export wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct Exported {
    pub text: String,
    /// Frames of the HAnimMotion (0 for interpolators or no clip).
    pub frames: usize,
    /// Joints the clip drives.
    pub joints: usize,
    /// Joints whose rest values were rewritten.
    pub rest_joints: usize,
    /// Keys off the export's frame grid (see [`off_grid_keys`]).
    pub off_grid: Vec<f64>,
}

/// A copy of the X3D XML `original` (read from `path`) with `clip` added to humanoid number `index`
/// (from 0; `h` is that humanoid as loaded) and, with `rest`, that pose written as the joints' rest
/// values.
pub fn export_keys(
    original: &str,
    path: &Path,
    index: usize,
    h: &Humanoid,
    clip: Option<&AuthoredClip>,
    rest: Option<&Pose>,
    options: &KeysExportOptions,
) -> Result<Exported, KeysExportError> {
    if !(options.fps.is_finite() && options.fps > 0.0) {
        return Err(KeysExportError::BadFps(options.fps));
    }
    if let Some(c) = clip.filter(|c| c.keys.is_empty()) {
        return Err(KeysExportError::NoKeys(c.name.clone()));
    }
    let (_, humanoid_end, tags) = humanoid_tags(original, path, index)?;
    let tag_of = |j: usize| {
        find_tag(original, &tags, h, j).ok_or_else(|| KeysExportError::NoJointElement {
            path: path.to_path_buf(),
            joint: h.joints[j].name.clone(),
            number: index + 1,
        })
    };
    let mut edits = Vec::new();
    let mut rest_joints = 0;
    if let Some(pose) = rest {
        for j in 0..h.joints.len() {
            let (q, file) = (pose.effective_rotation(h, j).normalize(), h.joints[j].rest.rotation);
            let turned = 1.0 - q.dot(file).abs() > 1e-9;
            let moved = root_joint(h) == Some(j)
                && pose.effective_translation(h, j).distance(h.joints[j].rest.translation) > 1e-7;
            if !(turned || moved) {
                continue;
            }
            let tag = tag_of(j)?;
            if turned {
                edits.push(set_attribute(original, tag, "rotation", &rotation_text(q, &options.units)));
            }
            if moved {
                edits.push(set_attribute(
                    original,
                    tag,
                    "translation",
                    &vec_text(pose.effective_translation(h, j), &options.units),
                ));
            }
            rest_joints += 1;
        }
    }
    let Some(clip) = clip else {
        let text = splice(original, edits);
        return Ok(Exported { text, frames: 0, joints: 0, rest_joints, off_grid: Vec::new() });
    };
    let off_grid = if options.as_interpolators { Vec::new() } else { off_grid_keys(clip, options.fps) };
    if options.as_interpolators {
        let mut taken = Vec::new();
        let mut targets: Vec<(usize, String)> = Vec::new();
        for j in clip.joints().into_iter().chain(clip.root.filter(|_| clip.keys[0].root_translation.is_some())) {
            if let Some((_, def)) = targets.iter().find(|(k, _)| *k == j) {
                let def: String = def.clone();
                targets.push((j, def));
                continue;
            }
            let tag = tag_of(j)?;
            let def = match tag.value(original, "DEF") {
                Some(def) => def.to_string(),
                None => {
                    let def = unused_def(original, &taken, &format!("{}_{}", clip.name, h.joints[j].name));
                    edits.push(set_attribute(original, tag, "DEF", &def));
                    def
                }
            };
            taken.push(def.clone());
            targets.push((j, def));
        }
        let xml = interpolators_xml(original, &mut taken, h, clip, &targets, options);
        edits.push((humanoid_end, humanoid_end, xml));
        let joints = clip.joints().len();
        return Ok(Exported { text: splice(original, edits), frames: 0, joints, rest_joints, off_grid });
    }
    let track = sampled_track(h, clip, options.fps, options.looping);
    let edited = splice(original, edits);
    let text = insert_motion(&edited, path, index, &track.to_xml(&track.def_name(&edited), "      "))?;
    Ok(Exported { text, frames: track.frame_count(), joints: clip.joints().len(), rest_joints, off_grid })
}

/// The TimeSensor, interpolators and ROUTEs of `clip` for the joints `targets` (index, DEF), written
/// after the humanoid. The root's (last) target gets a PositionInterpolator when it is the root and keys
/// hold its translation, and an OrientationInterpolator when keys turn it.
fn interpolators_xml(
    document: &str,
    taken: &mut Vec<String>,
    h: &Humanoid,
    clip: &AuthoredClip,
    targets: &[(usize, String)],
    options: &KeysExportOptions,
) -> String {
    let (fps, units) = (options.fps, &options.units);
    // One frame's hold after the last key (see the module notes); a single key is held for a second.
    let hold = 1.0 / fps;
    let cycle = if clip.duration() > 0.0 { clip.duration() + hold } else { 1.0 };
    let mut fractions: Vec<f64> = clip.keys.iter().map(|k| k.time / cycle).collect();
    fractions.push(1.0);
    let key_text = fractions.iter().map(|f| format!("{}", *f as f32)).collect::<Vec<_>>().join(" ");
    let clock = unused_def(document, taken, &clip.name);
    taken.push(clock.clone());
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n<TimeSensor DEF='{clock}' cycleInterval='{cycle}' loop='true' description='{} keys'/>",
        clip.keys.len()
    );
    let mut routes = String::new();
    let driven = clip.joints();
    let mut seen_rotation = std::collections::HashSet::new();
    for (j, def) in targets {
        let (kind, field, values): (&str, &str, Vec<String>) = if driven.contains(j) && seen_rotation.insert(*j) {
            let mut v: Vec<String> = clip.keys.iter().map(|k| rotation_text(k.rotation(h, *j), units)).collect();
            v.push(v.last().cloned().unwrap_or_default());
            ("OrientationInterpolator", "rotation", v)
        } else {
            let mut v: Vec<String> = clip
                .keys
                .iter()
                .map(|k| vec_text(k.root_translation.unwrap_or(h.joints[*j].rest.translation), units))
                .collect();
            v.push(v.last().cloned().unwrap_or_default());
            ("PositionInterpolator", "translation", v)
        };
        let name = unused_def(document, taken, &format!("{clock}_{}_{field}", h.joints[*j].name));
        taken.push(name.clone());
        let _ = writeln!(out, "<{kind} DEF='{name}' key='{key_text}' keyValue='{}'/>", values.join(", "));
        let _ = writeln!(
            routes,
            "<ROUTE fromNode='{clock}' fromField='fraction_changed' toNode='{name}' toField='set_fraction'/>\n\
             <ROUTE fromNode='{name}' fromField='value_changed' toNode='{}' toField='set_{field}'/>",
            escape(def)
        );
    }
    out + &routes
}

/// One line saying what was written (the window's toast says the same).
pub fn summary(out: &Path, clip: Option<&AuthoredClip>, exported: &Exported, options: &KeysExportOptions) -> String {
    let mut text = format!("{}:", out.display());
    if let Some(clip) = clip {
        text += &if options.as_interpolators {
            format!(
                " clip '{}': {} keys, {} joints as TimeSensor + interpolators",
                clip.name,
                clip.keys.len(),
                exported.joints
            )
        } else {
            format!(
                " HAnimMotion '{}': {} keys, {} joints, {} frames at {} fps",
                clip.name,
                clip.keys.len(),
                exported.joints,
                exported.frames,
                options.fps
            )
        };
    }
    if exported.rest_joints > 0 {
        text += &format!(" rest pose: {} joints rewritten", exported.rest_joints);
    }
    for t in &exported.off_grid {
        text +=
            &format!("\nwarning: the key at {t} s is not on a frame at {} fps: the motion passes near it", options.fps);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_are_found_with_their_value_ranges() {
        let text = "<HAnimJoint DEF='a' name=\"l_hip\"  center='0 1 0'/>";
        let attrs = tag_attributes(text, 0, text.len());
        let names: Vec<&str> = attrs.iter().map(|(n, ..)| n.as_str()).collect();
        assert_eq!(names, ["DEF", "name", "center"]);
        assert_eq!(&text[attrs[1].1..attrs[1].2], "l_hip");
        let tag = JointTag { end: text.len(), attributes: attrs };
        let (a, b, with) = set_attribute(text, &tag, "rotation", "0 0 1 1");
        assert_eq!(
            splice(text, vec![(a, b, with)]),
            "<HAnimJoint DEF='a' name=\"l_hip\"  center='0 1 0' rotation='0 0 1 1'/>"
        );
        let (a, b, with) = set_attribute(text, &tag, "center", "2 2 2");
        assert_eq!(splice(text, vec![(a, b, with)]), "<HAnimJoint DEF='a' name=\"l_hip\"  center='2 2 2'/>");
    }
}
