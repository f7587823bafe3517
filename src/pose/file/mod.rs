//! Pose files: a humanoid's joint rotations (and its root translation) by H-Anim joint name, in a small
//! versioned JSON format, so a pose can be kept, reused on another figure and handed to other tools.
//!
//! ```json
//! {
//!   "format": "hanim-viewer-pose",
//!   "version": 1,
//!   "name": "reaching",
//!   "file": "JinLOA4.x3d",
//!   "humanoids": [{
//!     "name": "JinLOA4",
//!     "loa": 4,
//!     "root_translation": [0, 0, 0],
//!     "reset_other_joints": true,
//!     "joints": [
//!       { "name": "l_shoulder", "axis_angle": [0, 0, 1, 1.5708], "quaternion": [0, 0, 0.7071, 0.7071] }
//!     ]
//!   }]
//! }
//! ```
//! - A joint's rotation is its *effective* local rotation (`r_eff`, semantics note §1.4), as X3D writes a
//!   joint's `rotation` field: `axis_angle` (unit axis, radians) and/or `quaternion` (x, y, z, w). The
//!   quaternion is exact and wins; where both are given they must agree (within 0.1°).
//! - `root_translation` is the root joint's effective translation; other joints' translations belong to
//!   the skeleton's proportions, not to the pose, and are not applied.
//! - `reset_other_joints` (default true): joints of the humanoid the pose does not list go back to their
//!   file values when it is applied; false leaves them as they are.
//! - Fields this format does not know are ignored, so `hanim-viewer pose FILE --json` (which adds the
//!   clip, the time and each joint's translation and world centre) is itself a pose file.
//!
//! Reading checks everything a later step relies on and says where a problem is
//! (`FILE:LINE:COLUMN: what was expected`).

mod apply;
mod builtin;
mod hanim_pose;

pub use apply::{AppliedPose, apply_to_document, apply_to_humanoid, canonical_joint_name, pose_for_humanoid};
pub use builtin::{BUILTIN_POSES, builtin_pose};
pub use hanim_pose::{from_hanim_pose, hanim_pose_xml};

use std::path::{Path, PathBuf};

use glam::{Quat, Vec3};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::Pose;
use crate::hanim::{Document, Humanoid};

/// The `format` every pose file starts with.
pub const FORMAT: &str = "hanim-viewer-pose";
/// The version this program writes and reads.
pub const VERSION: u32 = 1;

/// A whole pose file: one pose per humanoid of the file it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PoseFile {
    pub format: FormatTag,
    pub version: FormatVersion,
    /// What the pose is called (the library shows it); `None`: the file's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The X3D file the pose was taken from, for the record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    pub humanoids: Vec<HumanoidPose>,
}

/// The pose of one humanoid.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HumanoidPose {
    /// The humanoid's name (its joint names may carry it as a prefix).
    pub name: String,
    /// The humanoid's level of articulation (-1: none claimed).
    #[serde(default = "no_loa")]
    pub loa: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root_translation: Option<[f32; 3]>,
    #[serde(default = "yes")]
    pub reset_other_joints: bool,
    pub joints: Vec<JointPose>,
}

fn no_loa() -> i32 {
    -1
}

fn yes() -> bool {
    true
}

/// One joint's rotation, by name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JointPose {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub axis_angle: Option<AxisAngle>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quaternion: Option<UnitQuaternion>,
}

impl JointPose {
    /// A joint at `rotation`, written both ways.
    pub fn new(name: impl Into<String>, rotation: Quat) -> JointPose {
        JointPose {
            name: name.into(),
            axis_angle: Some(AxisAngle(axis_angle_of(rotation))),
            quaternion: Some(UnitQuaternion(rotation.normalize())),
        }
    }

    /// The rotation: the quaternion where there is one, else the axis and angle.
    pub fn rotation(&self) -> Quat {
        match (&self.quaternion, &self.axis_angle) {
            (Some(q), _) => q.0,
            (None, Some(a)) => a.quat(),
            (None, None) => Quat::IDENTITY,
        }
    }
}

/// `format`: always [`FORMAT`]; anything else is refused where it is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FormatTag;

impl Serialize for FormatTag {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(FORMAT)
    }
}

impl<'de> Deserialize<'de> for FormatTag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        if text == FORMAT {
            Ok(FormatTag)
        } else {
            Err(serde::de::Error::custom(format!("format is not \"{FORMAT}\"")))
        }
    }
}

/// `version`: a version this program reads (1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormatVersion(pub u32);

impl Default for FormatVersion {
    fn default() -> Self {
        FormatVersion(VERSION)
    }
}

impl Serialize for FormatVersion {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(self.0)
    }
}

impl<'de> Deserialize<'de> for FormatVersion {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let version = u32::deserialize(d)?;
        if version == VERSION {
            Ok(FormatVersion(version))
        } else {
            Err(serde::de::Error::custom(format!(
                "pose file version {version} is not one this program reads (expected {VERSION}; a newer program \
                 wrote it?)"
            )))
        }
    }
}

/// An X3D SFRotation: unit axis and angle in radians. Read: four finite numbers, the axis not zero
/// (it is normalised).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AxisAngle(pub [f32; 4]);

impl AxisAngle {
    pub fn quat(&self) -> Quat {
        let [x, y, z, angle] = self.0;
        Quat::from_axis_angle(Vec3::new(x, y, z).normalize(), angle)
    }
}

impl Serialize for AxisAngle {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de> Deserialize<'de> for AxisAngle {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let [x, y, z, angle] = <[f32; 4]>::deserialize(d)?;
        let axis = Vec3::new(x, y, z);
        if !axis.is_finite() || !angle.is_finite() {
            return Err(serde::de::Error::custom(
                "axis_angle must be four finite numbers: AXIS_X, AXIS_Y, AXIS_Z, ANGLE",
            ));
        }
        let Some(unit) = axis.try_normalize() else {
            return Err(serde::de::Error::custom("axis_angle has a zero axis (identity is written 0 0 1 0)"));
        };
        Ok(AxisAngle([unit.x, unit.y, unit.z, angle]))
    }
}

/// A rotation as a quaternion `[x, y, z, w]`. Read: four finite numbers of length 1 (within 1e-3, as
/// rounding to six decimals leaves it); it is normalised.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UnitQuaternion(pub Quat);

impl Serialize for UnitQuaternion {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.to_array().serialize(s)
    }
}

impl<'de> Deserialize<'de> for UnitQuaternion {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let q = Quat::from_array(<[f32; 4]>::deserialize(d)?);
        if !q.is_finite() {
            return Err(serde::de::Error::custom("quaternion must be four finite numbers: X, Y, Z, W"));
        }
        let length = q.length();
        if (length - 1.0).abs() > 1e-3 {
            return Err(serde::de::Error::custom(format!(
                "quaternion has length {length}, expected a unit quaternion [x, y, z, w]"
            )));
        }
        Ok(UnitQuaternion(q.normalize()))
    }
}

/// A rotation as a unit axis and angle (identity: `0 0 1 0`, as X3D writes it).
pub fn axis_angle_of(q: Quat) -> [f32; 4] {
    let (axis, angle) = q.normalize().to_axis_angle();
    if angle.abs() < 1e-9 || !axis.is_finite() { [0.0, 0.0, 1.0, 0.0] } else { [axis.x, axis.y, axis.z, angle] }
}

/// Why a pose file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum PoseFileError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    /// The file could not be read: what it is instead, or its size over the limit.
    #[error(transparent)]
    Input(#[from] crate::input::InputError),
    /// Not JSON, or not a pose file's shape: where and what was expected.
    #[error("{}:{line}:{column}: {message}", path.display())]
    Syntax { path: PathBuf, line: usize, column: usize, message: String },
    /// Well formed but not usable (a joint twice, rotations that disagree).
    #[error("{}: {message}", path.display())]
    Invalid { path: PathBuf, message: String },
}

impl PoseFile {
    /// The poses of every humanoid of `doc`, as `poses` (one per humanoid) hold them.
    pub fn from_poses(doc: &Document, poses: &[Pose], name: Option<String>, file: Option<String>) -> PoseFile {
        let humanoids = doc.humanoids.iter().zip(poses).map(|(h, pose)| HumanoidPose::of(h, pose)).collect();
        PoseFile { format: FormatTag, version: FormatVersion(VERSION), name, file, humanoids }
    }

    /// A pose by what a user types: `builtin:NAME` for a built-in pose, otherwise a pose file's path.
    pub fn open(source: &str) -> Result<PoseFile, PoseFileError> {
        match source.strip_prefix("builtin:") {
            Some(id) => builtin_pose(id).ok_or_else(|| PoseFileError::Invalid {
                path: PathBuf::from(source),
                message: format!(
                    "no built-in pose '{id}' (there are: {})",
                    BUILTIN_POSES.iter().map(|(i, _)| *i).collect::<Vec<_>>().join(", ")
                ),
            }),
            None => PoseFile::read(Path::new(source)),
        }
    }

    /// Reads and checks a pose file (through the program's one door: a regular file within the limit
    /// for pose files, UTF-8).
    pub fn read(path: &Path) -> Result<PoseFile, PoseFileError> {
        let text = crate::input::read_text(path, crate::input::InputKind::PoseFile)?;
        PoseFile::parse(&text, path)
    }

    /// Parses and checks pose file text; `path` names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<PoseFile, PoseFileError> {
        let file: PoseFile = serde_json::from_str(text).map_err(|e| syntax_error(path, text, &e))?;
        file.check().map_err(|message| PoseFileError::Invalid { path: path.to_path_buf(), message })?;
        Ok(file)
    }

    /// What the JSON shape cannot say: at least one humanoid, each joint once, each with a rotation,
    /// both spellings of a rotation agreeing, a finite root translation.
    fn check(&self) -> Result<(), String> {
        if self.humanoids.is_empty() {
            return Err("the pose file has no humanoids (expected at least one in \"humanoids\")".into());
        }
        for (i, h) in self.humanoids.iter().enumerate() {
            let at = format!("humanoids[{i}] ('{}')", h.name);
            if h.root_translation.is_some_and(|t| !t.iter().all(|v| v.is_finite())) {
                return Err(format!("{at}: root_translation must be three finite numbers"));
            }
            let mut seen = std::collections::HashSet::new();
            for (j, joint) in h.joints.iter().enumerate() {
                let at = format!("{at}, joints[{j}] ('{}')", joint.name);
                if joint.name.trim().is_empty() {
                    return Err(format!("{at}: a joint needs a name"));
                }
                if !seen.insert(canonical_joint_name(&joint.name, &h.name)) {
                    return Err(format!("{at}: the joint is listed twice"));
                }
                match (&joint.quaternion, &joint.axis_angle) {
                    (None, None) => return Err(format!("{at}: expected \"quaternion\" or \"axis_angle\"")),
                    (Some(q), Some(a)) => {
                        let apart = q.0.angle_between(a.quat()).to_degrees();
                        if apart > 0.1 {
                            return Err(format!(
                                "{at}: quaternion and axis_angle are {apart:.2}° apart; give one, or both alike"
                            ));
                        }
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// The file as written: pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        // Plain data with string keys: serialising cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// Writes the file atomically (a temporary file beside it, then renamed).
    pub fn write(&self, path: &Path) -> Result<(), PoseFileError> {
        crate::output::write_atomically(path, self.to_json().as_bytes()).map_err(|e| PoseFileError::Io {
            path: path.to_path_buf(),
            source: std::io::Error::other(format!("{e:#}")),
        })
    }

    /// What the library calls it: its `name`, else the file's stem.
    pub fn label(&self, path: Option<&Path>) -> String {
        self.name.clone().filter(|n| !n.trim().is_empty()).unwrap_or_else(|| {
            path.and_then(|p| p.file_stem()).map_or_else(|| "pose".to_string(), |s| s.to_string_lossy().into_owned())
        })
    }
}

impl HumanoidPose {
    /// Every joint of `h` at its effective rotation in `pose`, and the root joint's translation.
    pub fn of(h: &Humanoid, pose: &Pose) -> HumanoidPose {
        let joints =
            h.joints.iter().enumerate().map(|(j, joint)| JointPose::new(&joint.name, pose.effective_rotation(h, j)));
        HumanoidPose {
            name: h.name.clone(),
            loa: h.loa,
            root_translation: root_joint(h).map(|root| pose.effective_translation(h, root).to_array()),
            reset_other_joints: true,
            joints: joints.collect(),
        }
    }
}

/// The skeleton's root: the first joint without a parent.
pub fn root_joint(h: &Humanoid) -> Option<usize> {
    h.joints.iter().position(|j| j.parent.is_none())
}

/// `FILE:LINE:COLUMN: message` from serde_json's error (its message without the position it appends).
/// Whether `text` is a JSON object whose `format` is a pose file's.
fn declares_pose_format(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text)
        .is_ok_and(|v| v.get("format").and_then(serde_json::Value::as_str) == Some(FORMAT))
}

fn syntax_error(path: &Path, text: &str, e: &serde_json::Error) -> PoseFileError {
    let described = e.to_string();
    let message = match described.rfind(" at line ") {
        Some(at) => described[..at].to_string(),
        None => described,
    };
    let message = match e.classify() {
        serde_json::error::Category::Eof => format!("{message} (the file ends early)"),
        serde_json::error::Category::Syntax => format!("{message} (not JSON)"),
        // serde's messages about the shape quote the values they met: said only of a file that declares
        // itself a pose file, so that no other JSON file has its contents printed.
        _ if declares_pose_format(text) => message,
        _ => format!("not a pose file (expected an object with \"format\": \"{FORMAT}\")"),
    };
    PoseFileError::Syntax { path: path.to_path_buf(), line: e.line(), column: e.column(), message }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<PoseFile, String> {
        PoseFile::parse(text, Path::new("p.json")).map_err(|e| e.to_string())
    }

    #[test]
    fn a_minimal_file_reads_and_writes_back() {
        let text = r#"{"format":"hanim-viewer-pose","version":1,
            "humanoids":[{"name":"Jin","joints":[{"name":"l_shoulder","axis_angle":[0,0,2,1.5]}]}]}"#;
        let file = parse(text).unwrap();
        let h = &file.humanoids[0];
        assert_eq!((h.loa, h.reset_other_joints, h.root_translation), (-1, true, None));
        assert!(h.joints[0].rotation().abs_diff_eq(Quat::from_rotation_z(1.5), 1e-6));
        let again = parse(&file.to_json()).unwrap();
        assert_eq!(again, file);
    }

    #[test]
    fn bad_files_say_where_and_what_was_expected() {
        let e = parse("{\"format\":\"hanim-viewer-pose\",\n\"version\":2,\"humanoids\":[]}").unwrap_err();
        assert!(e.starts_with("p.json:2:11: pose file version 2"), "{e}");
        let e = parse(r#"{"format":"x3d","version":1,"humanoids":[]}"#).unwrap_err();
        assert!(
            e.contains("p.json:1:15: not a pose file (expected an object with \"format\": \"hanim-viewer-pose\")"),
            "{e}"
        );
        // Another JSON file's contents are never quoted.
        let e = parse(r#"{"token":"SECRET-1","humanoids":"SECRET-2"}"#).unwrap_err();
        assert!(e.contains("not a pose file") && !e.contains("SECRET"), "{e}");
        let e = parse(r#"{"format":"hanim-viewer-pose","version":"SECRET"}"#).unwrap_err();
        assert!(e.contains("invalid type: string \"SECRET\""), "a pose file's own mistakes are shown: {e}");
        let e = parse("{\"format\":\"hanim-viewer-pose\",\"version\":1,\"humanoids\":[{\"name\":\"a\",\n\"joints\":[{\"name\":\"l_knee\",\"quaternion\":[0,0,0,2]}]}]}")
            .unwrap_err();
        assert!(e.starts_with("p.json:2:") && e.contains("quaternion has length 2"), "{e}");
        let e = parse("{\"format\":\"hanim-viewer-pose\"").unwrap_err();
        assert!(e.contains("ends early"), "{e}");
        let e = parse("<X3D/>").unwrap_err();
        assert!(e.starts_with("p.json:1:1:") && e.contains("not JSON"), "{e}");
        let e = parse(
            r#"{"format":"hanim-viewer-pose","version":1,"humanoids":[{"name":"a","joints":[{"name":"l_knee"}]}]}"#,
        )
        .unwrap_err();
        assert!(e.contains("joints[0] ('l_knee'): expected \"quaternion\" or \"axis_angle\""), "{e}");
        let twice = r#"{"format":"hanim-viewer-pose","version":1,"humanoids":[{"name":"a","joints":[
            {"name":"l_ankle","axis_angle":[0,0,1,0]},{"name":"l_talocrural","axis_angle":[0,0,1,0]}]}]}"#;
        assert!(parse(twice).unwrap_err().contains("listed twice"));
        let apart = r#"{"format":"hanim-viewer-pose","version":1,"humanoids":[{"name":"a","joints":[
            {"name":"l_knee","axis_angle":[1,0,0,1],"quaternion":[0,0,0,1]}]}]}"#;
        assert!(parse(apart).unwrap_err().contains("57.30° apart"));
        assert!(
            parse(r#"{"format":"hanim-viewer-pose","version":1,"humanoids":[]}"#).unwrap_err().contains("no humanoids")
        );
    }
}
