//! The pose each humanoid is catalogued in: the rest pose, a frame of a clip of its file, or a frame of a
//! motion capture retargeted onto it.

use anyhow::{Result, bail};

use super::super::args::CaptureArgs;
use crate::animation::events::{FilePlayback, Overrides};
use crate::animation::{Animations, ClipSource, INTERPOLATOR_SEQUENCE_FPS, SampleOptions};
use crate::hanim::Document;
use crate::hanim::HumanoidIndex;
use crate::mocap::mapping::{Mapping, default_mapping};
use crate::mocap::retarget::retarget;
use crate::mocap::{Capture, CaptureLoadOptions, load_capture};
use crate::pose::Pose;

/// Every humanoid of one document posed for the catalogue.
#[derive(Debug, Clone)]
pub struct Posed {
    /// One per humanoid.
    pub poses: Vec<Pose>,
    /// One per humanoid: why it is shown at rest instead of the pose asked for (`None`: as asked).
    pub notes: Vec<Option<String>>,
    /// The field values the file's events set at that time ([`SceneAtTime`]; empty for the other
    /// sources): the scene's Shapes are placed, coloured and shaped by them as `render --play-as-file`
    /// draws them.
    pub overrides: Overrides,
}

impl Posed {
    /// Every humanoid at rest, each with `note`.
    pub(super) fn rest(doc: &Document, note: Option<String>) -> Posed {
        let poses = doc.humanoids.iter().map(Pose::rest).collect();
        Posed { poses, notes: vec![note; doc.humanoids.len()], overrides: Overrides::default() }
    }
}

/// The pose each humanoid is catalogued in: the rest pose ([`RestPose`]) or a frame of a clip
/// ([`MotionFrame`]).
pub trait PoseSource {
    /// The poses of every humanoid of `doc`.
    fn poses(&self, doc: &Document) -> Result<Posed>;
    /// What the page says of the pose ("rest pose", "frame 10 of motion 'walk'").
    fn describe(&self) -> String;
}

/// The file's own values (§1.4 "Reset all").
pub struct RestPose;

impl PoseSource for RestPose {
    fn poses(&self, doc: &Document) -> Result<Posed> {
        Ok(Posed::rest(doc, None))
    }

    fn describe(&self) -> String {
        "rest pose".to_string()
    }
}

/// One moment of the clip `name`, resolved in each file as `render --motion` resolves it
/// ([`Animations::resolve`]): an HAnimMotion by name or DEF, an interpolator clip by its TimeSensor's DEF. The
/// clip plays alone, with the default sampling options (slerped, root as given). A frame of an
/// interpolator clip is `frame / 30` s ([`INTERPOLATOR_SEQUENCE_FPS`]). Files without the clip, or whose
/// clip cannot show that moment, are catalogued at rest with the reason as a note: a catalogue of many
/// files rarely has one clip name in all of them, and a figure at rest is still worth listing.
pub struct MotionFrame {
    pub name: String,
    pub frame: Option<usize>,
    pub time: Option<f64>,
}

impl PoseSource for MotionFrame {
    fn poses(&self, doc: &Document) -> Result<Posed> {
        let mut animations = Animations::from_document(doc);
        let (frame, time) = match (animations.find(&self.name).map(|i| &animations.clips[i].source), self.frame) {
            (Some(ClipSource::Interpolators(_)), Some(f)) => (None, Some(f as f64 / INTERPOLATOR_SEQUENCE_FPS)),
            _ => (self.frame, self.time),
        };
        let (index, tau) = match animations.resolve(&self.name, frame, time) {
            Ok(found) => found,
            Err(e) => return Ok(Posed::rest(doc, Some(format!("{e:#}")))),
        };
        animations.solo(index);
        let driven: Vec<bool> = (0..doc.humanoids.len())
            .map(|h| match &animations.clips[index].source {
                ClipSource::Motion { humanoid, .. } | ClipSource::Authored { humanoid, .. } => {
                    *humanoid == HumanoidIndex(h)
                }
                ClipSource::Interpolators(c) => c.tracks.iter().any(|t| t.humanoid == HumanoidIndex(h)),
            })
            .collect();
        let poses = animations.sample(doc, tau, &SampleOptions::default());
        let notes = driven
            .iter()
            .map(|&d| (!d).then(|| format!("clip '{}' does not drive this humanoid", self.name)))
            .collect();
        Ok(Posed { poses, notes, overrides: Overrides::default() })
    }

    fn describe(&self) -> String {
        match (self.frame, self.time) {
            (Some(f), _) => format!("frame {f} of clip '{}'", self.name),
            (None, Some(t)) => format!("{t} s into clip '{}'", self.name),
            (None, None) => format!("clip '{}' at its start (an HAnimMotion at its frameIndex)", self.name),
        }
    }
}

/// The whole scene as the file plays at scene time `time` (`--play-as-file --time T`): every enabled
/// TimeSensor and HAnimMotion at once, ROUTEs reaching joints, displacers and humanoids
/// ([`FilePlayback`]), as `render --play-as-file` poses them. Humanoids nothing drives stay as authored.
pub struct SceneAtTime {
    /// Seconds of scene time.
    pub time: f64,
}

impl PoseSource for SceneAtTime {
    fn poses(&self, doc: &Document) -> Result<Posed> {
        let playback = FilePlayback::new(doc);
        for w in playback.warnings() {
            log::info!("{w}");
        }
        let mut poses: Vec<Pose> = doc.humanoids.iter().map(Pose::rest).collect();
        let overrides = playback.apply(doc, self.time, &SampleOptions::default(), &mut poses);
        Ok(Posed { poses, notes: vec![None; doc.humanoids.len()], overrides })
    }

    fn describe(&self) -> String {
        format!("the scene as the file plays at {} s", self.time)
    }
}

/// One frame of a motion capture retargeted onto each humanoid (`--amc`/`--asf` or `--bvh` with
/// `--frame N`), with the mapping the window and `render` would use.
pub struct CapturePose {
    pub capture: Capture,
    pub mapping: Mapping,
    /// The capture's frame (0 = the first).
    pub frame: usize,
}

impl CapturePose {
    /// `None` without `--amc`/`--bvh`. The capture is read once here, so that a bad file or a frame it
    /// does not have is reported before any GPU work.
    pub fn from_args(args: &CaptureArgs, frame: usize) -> Result<Option<CapturePose>> {
        let Some(request) = args.request()? else { return Ok(None) };
        let options = CaptureLoadOptions { fps: args.fps, bvh_unit: None };
        let capture = load_capture(&request.skeleton, request.amc.as_deref(), &options)?;
        let frames = capture.clip.frame_count();
        if frame >= frames {
            bail!("--frame {frame}: the motion has {frames} frames (0 to {})", frames.saturating_sub(1));
        }
        let mapping = match request.mapping {
            Some((mapping, _)) => mapping,
            None => default_mapping(capture.rig.joints.iter().map(|j| j.name.as_str())),
        };
        Ok(Some(CapturePose { capture, mapping, frame }))
    }
}

impl PoseSource for CapturePose {
    fn poses(&self, doc: &Document) -> Result<Posed> {
        let mut poses = Vec::with_capacity(doc.humanoids.len());
        let mut notes = Vec::with_capacity(doc.humanoids.len());
        for h in &doc.humanoids {
            if h.joints.is_empty() {
                // Nothing to drive: the humanoid is catalogued as authored.
                poses.push(Pose::rest(h));
                notes.push(Some("no joints to drive".to_string()));
                continue;
            }
            let result = retarget(&self.capture.rig, &self.capture.clip, h, &self.mapping)?;
            poses.push(result.pose(h, self.frame));
            notes.push(None);
        }
        Ok(Posed { poses, notes, overrides: Overrides::default() })
    }

    fn describe(&self) -> String {
        format!("frame {} of the motion capture of '{}'", self.frame, self.capture.rig.name)
    }
}

/// A pose file (or a built-in pose) applied to each humanoid by joint name (`--pose-file`), as
/// `render --pose-file` applies it; a humanoid the pose drives no joint of is catalogued at rest with a
/// note (the page says it is shown at rest), and the joints a humanoid lacks are logged.
pub struct PoseFilePose {
    pub source: String,
    pub file: crate::pose::file::PoseFile,
    pub respect_limits: bool,
}

impl PoseSource for PoseFilePose {
    fn poses(&self, doc: &Document) -> Result<Posed> {
        let mut poses: Vec<Pose> = doc.humanoids.iter().map(Pose::rest).collect();
        let mut notes = vec![Some(format!("'{}' has no pose for this humanoid", self.source)); doc.humanoids.len()];
        for (index, h) in doc.humanoids.iter().enumerate() {
            let Some(hp) = crate::pose::file::pose_for_humanoid(&self.file, index, &h.name) else { continue };
            let applied = crate::pose::file::apply_to_humanoid(h, hp, &mut poses[index], self.respect_limits);
            log::info!("{}", applied.summary(&self.source));
            notes[index] = if applied.driven.is_empty() {
                poses[index] = Pose::rest(h);
                Some(format!("'{}' names no joint of this humanoid", self.source))
            } else {
                None
            };
        }
        Ok(Posed { poses, notes, overrides: Overrides::default() })
    }

    fn describe(&self) -> String {
        format!("pose '{}' ({})", self.file.label(Some(std::path::Path::new(&self.source))), self.source)
    }
}
