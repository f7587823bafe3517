//! Writing motions as X3D: an HAnimMotion node (hanim-semantics.md §4), the stick-figure humanoid of a
//! rig, and a humanoid file's text with a motion added. Writing the files (atomically) is the commands'
//! job.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use glam::{DQuat, DVec3, EulerRot};
use quick_xml::escape::escape;
use quick_xml::events::Event;

use super::mapping::Mapping;
use super::retarget::Retargeted;
use super::rig::{Rig, RigClip};
use crate::hanim::{Humanoid, Motion};
use crate::x3d::NodeId;

/// The channels of one joint group.
#[derive(Debug, Clone, PartialEq)]
pub struct TrackJoint {
    pub name: String,
    /// Writes `Xposition Yposition Zposition` before the rotations.
    pub position: bool,
}

/// A motion in H-Anim terms: per frame, each joint's rotation (and position where it has one).
#[derive(Debug, Clone, PartialEq)]
pub struct MotionTrack {
    pub name: String,
    pub description: String,
    pub joints: Vec<TrackJoint>,
    /// `frames × joints` rotations.
    pub rotations: Vec<DQuat>,
    /// `frames × joints` positions (read only for joints with `position`).
    pub positions: Vec<DVec3>,
    pub frame_duration: f64,
    pub looping: bool,
}

/// The rotation channels written per joint: BVH's `Zrotation Yrotation Xrotation`, whose listed order is
/// the product order `R = Rz·Ry·Rx` (hanim-semantics.md §4.3).
pub const ROTATION_CHANNELS: &str = "Zrotation Yrotation Xrotation";

/// `(z, y, x)` in degrees with `q = Rz(z)·Ry(y)·Rx(x)`.
pub fn zyx_degrees(q: DQuat) -> [f64; 3] {
    let (z, y, x) = q.to_euler(EulerRot::ZYX);
    [z.to_degrees(), y.to_degrees(), x.to_degrees()]
}

impl MotionTrack {
    /// The track of a retargeted motion on `h`: the root with positions, the other driven joints with
    /// rotations only; it loops, as captures are usually played over and over.
    pub fn retargeted(result: &Retargeted, h: &Humanoid, name: &str, description: String) -> MotionTrack {
        let n = result.joints.len();
        let mut positions = vec![DVec3::ZERO; result.rotations.len()];
        for (f, t) in result.root_translation.iter().enumerate() {
            positions[f * n] = *t;
        }
        MotionTrack {
            name: name.to_string(),
            description,
            joints: result
                .joints
                .iter()
                .enumerate()
                .map(|(k, &j)| TrackJoint { name: h.joints[j].name.clone(), position: k == 0 })
                .collect(),
            rotations: result.rotations.clone(),
            positions,
            frame_duration: result.frame_time,
            looping: true,
        }
    }

    /// The track as the model's HAnimMotion, exactly as [`to_xml`](Self::to_xml) reloads (values
    /// rounded to `f32`), so the window plays what an export would hold. `node` is where messages about
    /// it point (the humanoid it was made for).
    pub fn to_model(&self, node: NodeId) -> Motion {
        let values = self.values();
        let channel_count = values.len().checked_div(self.frame_count()).unwrap_or(0);
        Motion {
            name: self.name.clone(),
            def: None,
            node,
            description: self.description.clone(),
            joints: self.joints.iter().map(|j| j.name.as_str()).collect::<Vec<_>>().join(" "),
            channels: self.channels(),
            values,
            frame_duration: self.frame_duration,
            frame_increment: 1,
            start_frame: 0,
            end_frame: self.frame_count().saturating_sub(1) as i32,
            frame_index: 0,
            looping: self.looping,
            enabled: true,
            channels_enabled: Vec::new(),
            loa: -1,
            channel_count,
            frame_count: self.frame_count(),
        }
    }

    pub fn frame_count(&self) -> usize {
        self.rotations.len().checked_div(self.joints.len()).unwrap_or(0)
    }

    /// The `channels` string: a count and the channel names per joint.
    pub fn channels(&self) -> String {
        let groups: Vec<String> = self
            .joints
            .iter()
            .map(|j| {
                if j.position {
                    format!("6 Xposition Yposition Zposition {ROTATION_CHANNELS}")
                } else {
                    format!("3 {ROTATION_CHANNELS}")
                }
            })
            .collect();
        groups.join(" ")
    }

    /// The `values` field, frame-major, as `f32` (what X3D MFFloat holds).
    pub fn values(&self) -> Vec<f32> {
        let n = self.joints.len();
        let mut out = Vec::with_capacity(self.rotations.len() * 3 + self.frame_count() * 3);
        for f in 0..self.frame_count() {
            for (k, joint) in self.joints.iter().enumerate() {
                if joint.position {
                    out.extend(self.positions[f * n + k].to_array().map(|v| v as f32));
                }
                out.extend(zyx_degrees(self.rotations[f * n + k]).map(|v| v as f32));
            }
        }
        out
    }

    /// A DEF name for the motion: `<name>_Motion`, with a number added while `document` already uses it.
    pub fn def_name(&self, document: &str) -> String {
        let safe = self.name.replace(|c: char| !c.is_ascii_alphanumeric() && c != '_', "_");
        // An XML ID cannot start with a digit (CMU names such as 07_05 do).
        let base = if safe.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            format!("{safe}_Motion")
        } else {
            format!("Motion_{safe}")
        };
        let taken =
            |def: &str| document.contains(&format!("DEF='{def}'")) || document.contains(&format!("DEF=\"{def}\""));
        let mut def = base.clone();
        let mut n = 1;
        while taken(&def) {
            n += 1;
            def = format!("{base}_{n}");
        }
        def
    }

    /// The HAnimMotion element (with `containerField='motions'` and DEF `def`), indented by `indent`.
    pub fn to_xml(&self, def: &str, indent: &str) -> String {
        let frames = self.frame_count();
        let names: Vec<&str> = self.joints.iter().map(|j| j.name.as_str()).collect();
        let mut values = String::new();
        let per_frame = self.values();
        let per_row = per_frame.len().checked_div(frames).unwrap_or(0);
        for (i, v) in per_frame.iter().enumerate() {
            if i > 0 {
                values.push(if per_row > 0 && i % per_row == 0 { '\n' } else { ' ' });
            }
            // `{}` on f32 prints the shortest text that reads back to the same f32.
            let _ = write!(values, "{v}");
        }
        format!(
            "{indent}<HAnimMotion containerField='motions' DEF='{def}' name='{name}' description='{description}' enabled='true' loop='{looping}' frameDuration='{duration}' frameIncrement='1' startFrame='0' endFrame='{end}'\n{indent}  joints='{joints}'\n{indent}  channels='{channels}'\n{indent}  values='{values}'/>\n",
            def = escape(def),
            name = escape(&self.name),
            description = escape(&self.description),
            looping = self.looping,
            duration = self.frame_duration,
            end = frames.saturating_sub(1),
            joints = escape(names.join(" ")),
            channels = self.channels(),
        )
    }
}

/// The H-Anim names of a rig's joints: the first target of the mapping where it is unused so far, else
/// the source name (so that every name is unique).
pub fn stick_joint_names(rig: &Rig, mapping: &Mapping) -> Vec<String> {
    let mut used = std::collections::HashSet::new();
    let source_names: std::collections::HashSet<&str> = rig.joints.iter().map(|j| j.name.as_str()).collect();
    rig.joints
        .iter()
        .map(|j| {
            let wanted = if j.parent.is_none() {
                Some("humanoid_root".to_string())
            } else {
                mapping.targets_of(&j.name).and_then(|t| t.first()).cloned()
            };
            let name = match wanted {
                Some(w) if !used.contains(&w) && !source_names.contains(w.as_str()) => w,
                _ => j.name.clone(),
            };
            let name = if used.contains(&name) { format!("{}_{}", name, used.len()) } else { name };
            used.insert(name.clone());
            name
        })
        .collect()
}

/// The motion of a stick figure: the clip's own rotations, the root's position on every frame and the
/// position of any other joint the clip translates.
pub fn stick_track(rig: &Rig, clip: &RigClip, names: &[String], name: &str, description: &str) -> MotionTrack {
    let n = rig.joints.len();
    let moved: Vec<bool> = (0..n)
        .map(|j| {
            rig.joints[j].parent.is_none() || clip.translations.iter().skip(j).step_by(n).any(|t| t.length() > 1e-9)
        })
        .collect();
    // The stick figure stands on y = 0 at rest (its centres are lifted), so the root's motion is lowered
    // by the same amount and the figure moves exactly as the capture.
    let lift = stick_lift(rig);
    let mut positions = clip.translations.clone();
    for (i, p) in positions.iter_mut().enumerate() {
        if rig.joints[i % n].parent.is_none() {
            *p -= lift;
        }
    }
    MotionTrack {
        name: name.to_string(),
        description: description.to_string(),
        joints: names.iter().zip(&moved).map(|(n, m)| TrackJoint { name: n.clone(), position: *m }).collect(),
        rotations: clip.rotations.clone(),
        positions,
        frame_duration: clip.frame_time,
        looping: true,
    }
}

/// How far the stick figure's centres are raised so that its lowest rest point (joint or tip) is at y = 0
/// (docs/asf-amc.md §5); root translations are lowered by as much.
pub fn stick_lift(rig: &Rig) -> DVec3 {
    let lowest = rig
        .joints
        .iter()
        .flat_map(|j| std::iter::once(j.rest.y).chain(j.tip.map(|t| t.y)))
        .fold(f64::INFINITY, f64::min);
    if lowest.is_finite() { DVec3::new(0.0, -lowest, 0.0) } else { DVec3::ZERO }
}

fn fmt_vec(v: DVec3) -> String {
    format!("{} {} {}", v.x as f32, v.y as f32, v.z as f32)
}

/// An X3D 4.0 document holding the rig as an H-Anim humanoid: joints centred at the rest positions,
/// one segment per joint with lines to its children (and its tip), a site at each tip. With `posed`, the
/// joints' rotation and translation fields hold that frame (so its rest pose *is* the frame); with
/// `track`, an HAnimMotion is added.
pub fn stick_figure_x3d(
    rig: &Rig,
    names: &[String],
    posed: Option<(&RigClip, usize)>,
    track: Option<&MotionTrack>,
) -> String {
    let lift = stick_lift(rig);
    let lifted = Rig {
        name: rig.name.clone(),
        joints: rig
            .joints
            .iter()
            .map(|j| super::rig::RigJoint { rest: j.rest + lift, tip: j.tip.map(|t| t + lift), ..j.clone() })
            .collect(),
        metres_per_unit: rig.metres_per_unit,
    };
    let rig = &lifted;
    let humanoid_name = if rig.name.is_empty() { "mocap".to_string() } else { rig.name.clone() };
    let mut out = String::new();
    out.push_str("<?xml version='1.0' encoding='UTF-8'?>\n<!DOCTYPE X3D PUBLIC 'ISO//Web3D//DTD X3D 4.0//EN' 'https://www.web3d.org/specifications/x3d-4.0.dtd'>\n");
    out.push_str("<X3D profile='Immersive' version='4.0'>\n  <head>\n    <component level='1' name='HAnim'/>\n");
    let _ = writeln!(
        out,
        "    <meta name='description' content='Stick figure of motion-capture skeleton {}'/>",
        escape(&humanoid_name)
    );
    out.push_str("  </head>\n  <Scene>\n");
    let _ = writeln!(
        out,
        "    <HAnimHumanoid DEF='Stick_Humanoid' name='{}' version='2.0' loa='-1' skeletalConfiguration='BASIC'>",
        escape(&humanoid_name)
    );
    let joint_uses = write_stick_joints(&mut out, rig, names, posed, lift);
    for def in &joint_uses {
        let _ = writeln!(out, "      <HAnimJoint containerField='joints' USE='{def}'/>");
    }
    if let Some(track) = track {
        out.push_str(&track.to_xml(&track.def_name(""), "      "));
    }
    out.push_str("    </HAnimHumanoid>\n  </Scene>\n</X3D>\n");
    out
}

/// The joint tree of a (lifted) stick figure, depth-first with an explicit stack; returns the joints'
/// DEF names in the order written, for the humanoid's `joints` field.
fn write_stick_joints(
    out: &mut String,
    rig: &Rig,
    names: &[String],
    posed: Option<(&RigClip, usize)>,
    lift: DVec3,
) -> Vec<String> {
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); rig.joints.len()];
    for (j, joint) in rig.joints.iter().enumerate() {
        if let Some(p) = joint.parent {
            children[p].push(j);
        }
    }
    // (joint, closing?) pairs.
    let mut stack: Vec<(usize, bool)> =
        rig.joints.iter().enumerate().filter(|(_, j)| j.parent.is_none()).map(|(i, _)| (i, false)).rev().collect();
    let mut depth = 3usize;
    let mut joint_uses = Vec::new();
    while let Some((j, closing)) = stack.pop() {
        if closing {
            depth -= 1;
            let _ = writeln!(out, "{}</HAnimJoint>", "  ".repeat(depth));
            continue;
        }
        let pad = "  ".repeat(depth);
        let joint = &rig.joints[j];
        let name = escape(&names[j]);
        // The index keeps DEFs unique even where two names differ only in characters DEF cannot hold.
        let def = format!("Stick_{j}_{}", names[j].replace(|c: char| !c.is_ascii_alphanumeric() && c != '_', "_"));
        let field = if joint.parent.is_none() { "skeleton" } else { "children" };
        let mut extra = String::new();
        if let Some((lower, upper)) = joint.limits {
            let _ = write!(extra, " llimit='{}' ulimit='{}'", fmt_vec(lower), fmt_vec(upper));
        }
        if let Some((clip, frame)) = posed {
            let (axis, angle) = clip.rotation(frame, j).to_axis_angle();
            let _ = write!(extra, " rotation='{} {}'", fmt_vec(axis), angle as f32);
            let t = clip.translation(frame, j) - if joint.parent.is_none() { lift } else { DVec3::ZERO };
            if t != DVec3::ZERO {
                let _ = write!(extra, " translation='{}'", fmt_vec(t));
            }
        }
        let _ = writeln!(
            out,
            "{pad}<HAnimJoint containerField='{field}' DEF='{def}' name='{name}' center='{}' description='{}'{extra}>",
            fmt_vec(joint.rest),
            escape(&joint.name)
        );
        joint_uses.push(def);
        write_stick_segment(out, rig, j, &children[j], &name, &pad);
        stack.push((j, true));
        stack.extend(children[j].iter().rev().map(|&c| (c, false)));
        depth += 1;
    }
    joint_uses
}

/// The segment of joint `j`: lines from its centre to each child's centre and to its tip, and a site at
/// the tip; nothing when there is no line to draw. `name` is the joint's name, escaped.
fn write_stick_segment(out: &mut String, rig: &Rig, j: usize, children: &[usize], name: &str, pad: &str) {
    let joint = &rig.joints[j];
    let mut ends: Vec<DVec3> = children.iter().map(|&c| rig.joints[c].rest).collect();
    ends.extend(joint.tip);
    ends.retain(|e| (*e - joint.rest).length() > 1e-9);
    if ends.is_empty() {
        return;
    }
    let mut points = fmt_vec(joint.rest);
    let mut index = String::new();
    for (k, e) in ends.iter().enumerate() {
        points.push_str(", ");
        points.push_str(&fmt_vec(*e));
        let _ = write!(index, "0 {} -1 ", k + 1);
    }
    let _ = writeln!(out, "{pad}  <HAnimSegment containerField='children' name='{name}_segment'>");
    let _ = writeln!(
        out,
        "{pad}    <Shape><Appearance><Material emissiveColor='1 0.85 0.2'/></Appearance><IndexedLineSet coordIndex='{}'><Coordinate point='{points}'/></IndexedLineSet></Shape>",
        index.trim_end()
    );
    if let Some(tip) = joint.tip {
        let _ = writeln!(
            out,
            "{pad}    <HAnimSite containerField='children' name='{name}_tip_pt' translation='{}'/>",
            fmt_vec(tip)
        );
    }
    let _ = writeln!(out, "{pad}  </HAnimSegment>");
}

/// Why a motion cannot be added to a humanoid file.
#[derive(Debug, thiserror::Error)]
pub enum InsertMotionError {
    /// The file is not well-formed XML (the quick-xml error is part of the message).
    #[error("{}:{line}:{column}: cannot read the X3D XML: {error}", path.display())]
    Xml { path: PathBuf, line: usize, column: usize, error: quick_xml::Error },
    #[error("{}: no HAnimHumanoid element (only X3D XML files are supported)", .0.display())]
    NoHumanoid(PathBuf),
    /// `number` counts from 1.
    #[error("{}: humanoid number {number} does not exist (the file has {count})", path.display())]
    NoSuchHumanoid { path: PathBuf, number: usize, count: usize },
}

/// Inserts `motion_xml` as the last child of the `index`-th HAnimHumanoid element (document order,
/// USE references skipped) of the XML text `original`, and raises `<X3D version>` to 4.0 (HAnimMotion
/// is an X3D 4.0 node). Returns the new text.
pub fn insert_motion(original: &str, path: &Path, index: usize, motion_xml: &str) -> Result<String, InsertMotionError> {
    let mut reader = quick_xml::Reader::from_str(original);
    let mut seen = 0usize;
    // (start of element, depth of humanoid) once the wanted humanoid opens.
    let mut inside: Option<usize> = None;
    let mut depth = 0usize;
    let mut version_edit: Option<(usize, usize)> = None;
    loop {
        let before = reader.buffer_position() as usize;
        let event = reader.read_event().map_err(|e| {
            let (line, column) = line_column(original, reader.error_position() as usize);
            InsertMotionError::Xml { path: path.to_path_buf(), line, column, error: e }
        })?;
        let after = reader.buffer_position() as usize;
        match event {
            Event::Start(e) => {
                depth += 1;
                let name = e.local_name();
                if name.as_ref() == "X3D" {
                    version_edit = Some((before, after));
                }
                if name.as_ref() == "HAnimHumanoid" && inside.is_none() {
                    if seen == index {
                        inside = Some(depth);
                    }
                    seen += 1;
                }
            }
            Event::Empty(e)
                if e.local_name().as_ref() == "HAnimHumanoid"
                    && inside.is_none()
                    && !e.attributes().flatten().any(|a| a.key.as_ref() == "USE") =>
            {
                if seen == index {
                    // `<HAnimHumanoid …/>` → `<HAnimHumanoid …>` motion `</HAnimHumanoid>`.
                    let tag = &original[before..after];
                    let open = tag.trim_end_matches('>').trim_end().trim_end_matches('/');
                    let text =
                        format!("{}{open}>\n{motion_xml}</HAnimHumanoid>{}", &original[..before], &original[after..]);
                    return Ok(raise_version(&text, version_edit));
                }
                seen += 1;
            }
            Event::End(e) => {
                if inside == Some(depth) && e.local_name().as_ref() == "HAnimHumanoid" {
                    let text = format!("{}{motion_xml}{}", &original[..before], &original[before..]);
                    return Ok(raise_version(&text, version_edit));
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

/// Sets `version='4.0'` in the X3D start tag at `range` when it says less (the range lies before any
/// insertion, so its offsets are still valid).
fn raise_version(text: &str, range: Option<(usize, usize)>) -> String {
    let Some((start, end)) = range else { return text.to_string() };
    let tag = &text[start..end];
    let Some(at) = tag.find("version=") else { return text.to_string() };
    let quote_at = at + "version=".len();
    let Some(quote) = tag[quote_at..].chars().next().filter(|c| *c == '\'' || *c == '"') else {
        return text.to_string();
    };
    let Some(len) = tag[quote_at + 1..].find(quote) else { return text.to_string() };
    let value = &tag[quote_at + 1..quote_at + 1 + len];
    if value.parse::<f32>().is_ok_and(|v| v >= 4.0) {
        return text.to_string();
    }
    let new_tag = format!("{}{quote}4.0{quote}{}", &tag[..quote_at], &tag[quote_at + 2 + len..]);
    format!("{}{new_tag}{}", &text[..start], &text[end..])
}

fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zyx_degrees_rebuild_the_rotation_in_listed_order() {
        let q = (DQuat::from_rotation_z(0.3) * DQuat::from_rotation_y(-0.7) * DQuat::from_rotation_x(1.1)).normalize();
        let [z, y, x] = zyx_degrees(q);
        assert!(
            (z - 0.3f64.to_degrees()).abs() < 1e-9
                && (y + 0.7f64.to_degrees()).abs() < 1e-9
                && (x - 1.1f64.to_degrees()).abs() < 1e-9
        );
    }

    #[test]
    fn a_motion_goes_before_the_humanoid_end_tag_and_the_version_is_raised() {
        let text = "<X3D version='3.3'><Scene><HAnimHumanoid name='a'><HAnimJoint/></HAnimHumanoid></Scene></X3D>";
        let out = insert_motion(text, Path::new("a.x3d"), 0, "<M/>").unwrap();
        assert_eq!(
            out,
            "<X3D version='4.0'><Scene><HAnimHumanoid name='a'><HAnimJoint/><M/></HAnimHumanoid></Scene></X3D>"
        );
        let empty = "<X3D version=\"4.0\"><HAnimHumanoid USE='x'/><HAnimHumanoid name='b'/></X3D>";
        let out = insert_motion(empty, Path::new("b.x3d"), 0, "<M/>\n").unwrap();
        assert_eq!(
            out,
            "<X3D version=\"4.0\"><HAnimHumanoid USE='x'/><HAnimHumanoid name='b'>\n<M/>\n</HAnimHumanoid></X3D>"
        );
        let e = insert_motion(text, Path::new("a.x3d"), 1, "").unwrap_err();
        assert_eq!(e.to_string(), "a.x3d: humanoid number 2 does not exist (the file has 1)");
    }
}
