//! A capture applied to a humanoid in the window: the capture, the mapping the user edits, and the
//! clip the retargeted motion plays as in the transport. Changing the mapping retargets again; the clip
//! is the same HAnimMotion an export (`motion import`) would write, rounded to `f32` as X3D holds it.

use std::path::{Path, PathBuf};

use super::export::MotionTrack;
use super::mapping::{self, Mapping};
use super::retarget::{self, RetargetError, Retargeted};
use super::text::MocapError;
use super::{Capture, CaptureError, amc_beside};
use super::{CaptureLoadOptions, load_capture};
use crate::animation::{Clip, ClipSource, HanimMotion, MotionError};
use crate::hanim::Document;
use crate::hanim::HumanoidIndex;

/// Why a capture cannot be picked, loaded or applied to a humanoid.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error(transparent)]
    Capture(#[from] CaptureError),
    /// A mapping file that cannot be read.
    #[error(transparent)]
    Mapping(#[from] MocapError),
    #[error(transparent)]
    Retarget(#[from] RetargetError),
    /// An `.asf` picked with no `.amc` beside it.
    #[error(
        "{}: no .amc motion beside it (expected a file named like {}_NN.amc)",
        .0.display(),
        .0.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
    )]
    NoAmcBeside(PathBuf),
    /// The folder of an `.amc` cannot be listed to find its skeleton.
    #[error("looking for the skeleton of {} in {}: the folder {reason}", path.display(), folder.display())]
    ReadFolder { path: PathBuf, folder: PathBuf, reason: String },
    /// An `.amc` picked with no `.asf` beside it whose stem starts its name.
    #[error("{}: no .asf skeleton beside it whose name starts the motion's (e.g. 07.asf for 07_05.amc)", .0.display())]
    NoAsfBeside(PathBuf),
    #[error("{}: expected a motion capture file (.amc with its .asf, or .bvh)", .0.display())]
    NotACapture(PathBuf),
    #[error("--map goes with a capture: --amc and --asf, or --bvh")]
    MapWithoutCapture,
    #[error("--amc needs --asf, and neither goes with --bvh")]
    CaptureFiles,
    /// The motion file whose motion has no frames.
    #[error("{}: the motion has no frames", .0.display())]
    NoFrames(PathBuf),
    #[error("no humanoid to retarget the capture onto")]
    NoHumanoid,
    #[error("the humanoid is gone")]
    HumanoidGone,
    /// The retargeted motion fails the checks the transport makes (its message is part of this one).
    #[error("the retargeted motion does not play: {0}")]
    DoesNotPlay(MotionError),
}

/// Where the mapping in use came from.
#[derive(Debug, Clone, PartialEq)]
pub enum MappingOrigin {
    /// The built-in table that names the most of the capture's bones.
    BuiltIn,
    File(PathBuf),
    /// Changed in the panel since it was loaded.
    Edited,
}

impl std::fmt::Display for MappingOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MappingOrigin::BuiltIn => f.write_str("built-in"),
            MappingOrigin::File(path) => write!(f, "{}", path.display()),
            MappingOrigin::Edited => f.write_str("edited"),
        }
    }
}

/// What one source joint does on the humanoid with the current mapping.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceStatus {
    pub source: String,
    /// The targets listed for it (`None`: the mapping does not list it).
    pub listed: Option<Vec<String>>,
    /// Humanoid joints it drives.
    pub driven: Vec<String>,
    /// Listed targets the humanoid does not have.
    pub missing: Vec<String>,
}

/// A capture retargeted onto humanoid `humanoid` of a document.
#[derive(Debug, Clone)]
pub struct CaptureSession {
    pub capture: Capture,
    /// The skeleton file (.asf or .bvh).
    pub skeleton: PathBuf,
    /// The motion file (.amc, or the .bvh again).
    pub motion_file: PathBuf,
    /// The clip's name in the transport (the motion file's stem).
    pub name: String,
    pub mapping: Mapping,
    pub origin: MappingOrigin,
    pub humanoid: HumanoidIndex,
    /// The last retargeting.
    pub result: Retargeted,
    pub statuses: Vec<SourceStatus>,
}

/// For a capture file the user picked: `(skeleton, motion)`. An `.amc` finds its `.asf` beside it (the
/// longest stem that starts its name and is followed by `_`, so `07_05.amc` takes `07.asf`); an `.asf`
/// takes the first `.amc` beside it ([`amc_beside`]); a `.bvh` is both.
pub fn capture_pair(path: &Path) -> Result<(PathBuf, Option<PathBuf>), SessionError> {
    let extension = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("bvh") => Ok((path.to_path_buf(), None)),
        Some("asf") => match amc_beside(path) {
            Some(amc) => Ok((path.to_path_buf(), Some(amc))),
            None => Err(SessionError::NoAmcBeside(path.to_path_buf())),
        },
        Some("amc") => {
            let folder = match path.parent() {
                Some(p) if !p.as_os_str().is_empty() => p,
                _ => Path::new("."),
            };
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            let skeleton = crate::input::walk::list_folder(folder)
                .map_err(|failure| SessionError::ReadFolder {
                    path: path.to_path_buf(),
                    folder: folder.to_path_buf(),
                    reason: crate::input::walk::reason_of(&failure),
                })?
                .into_iter()
                .filter(|p| p.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("asf")))
                .filter(|p| {
                    p.file_stem().and_then(|s| s.to_str()).is_some_and(|stem| name.starts_with(&format!("{stem}_")))
                })
                .max_by_key(|p| p.file_stem().map_or(0, |s| s.len()));
            match skeleton {
                Some(asf) => Ok((asf, Some(path.to_path_buf()))),
                None => Err(SessionError::NoAsfBeside(path.to_path_buf())),
            }
        }
        _ => Err(SessionError::NotACapture(path.to_path_buf())),
    }
}

/// A capture to retarget: its files and the mapping to use. The window keeps it, so that the capture
/// follows onto the next humanoid opened.
#[derive(Debug, Clone, PartialEq)]
pub struct CaptureRequest {
    /// The .asf or .bvh.
    pub skeleton: PathBuf,
    pub amc: Option<PathBuf>,
    /// `None`: the built-in mapping.
    pub mapping: Option<(Mapping, MappingOrigin)>,
}

impl CaptureRequest {
    /// For a file the user picked ([`capture_pair`]), with `mapping_file` or the built-in mapping.
    pub fn for_file(path: &Path, mapping_file: Option<&Path>) -> Result<CaptureRequest, SessionError> {
        let (skeleton, amc) = capture_pair(path)?;
        let mapping = match mapping_file {
            Some(file) => Some((mapping::load_mapping(file)?, MappingOrigin::File(file.to_path_buf()))),
            None => None,
        };
        Ok(CaptureRequest { skeleton, amc, mapping })
    }

    /// From the window's command line: `--asf` with `--amc`, or `--bvh`, and `--map`. `None` without a
    /// capture; a mapping without one is an error.
    pub fn from_args(
        asf: Option<&Path>,
        amc: Option<&Path>,
        bvh: Option<&Path>,
        map: Option<&Path>,
    ) -> Result<Option<CaptureRequest>, SessionError> {
        let (skeleton, amc) = match (asf, amc, bvh) {
            (Some(asf), Some(amc), None) => (asf.to_path_buf(), Some(amc.to_path_buf())),
            (None, None, Some(bvh)) => (bvh.to_path_buf(), None),
            (None, None, None) if map.is_some() => return Err(SessionError::MapWithoutCapture),
            (None, None, None) => return Ok(None),
            _ => return Err(SessionError::CaptureFiles),
        };
        let mapping = match map {
            Some(file) => Some((mapping::load_mapping(file)?, MappingOrigin::File(file.to_path_buf()))),
            None => None,
        };
        Ok(Some(CaptureRequest { skeleton, amc, mapping }))
    }

    /// Reads the capture files once, so that a bad one named on the command line is reported before the
    /// window opens.
    pub fn check(&self, fps: Option<f64>) -> Result<(), SessionError> {
        let capture = load_capture(&self.skeleton, self.amc.as_deref(), &CaptureLoadOptions { fps, bvh_unit: None })?;
        if capture.clip.frame_count() == 0 {
            return Err(SessionError::NoFrames(self.amc.as_deref().unwrap_or(&self.skeleton).to_path_buf()));
        }
        Ok(())
    }

    /// The request that applies `session` again (same files, same mapping).
    pub fn of(session: &CaptureSession) -> CaptureRequest {
        CaptureRequest {
            skeleton: session.skeleton.clone(),
            amc: (session.motion_file != session.skeleton).then(|| session.motion_file.clone()),
            mapping: Some((session.mapping.clone(), session.origin.clone())),
        }
    }
}

impl CaptureSession {
    /// Loads the capture (`skeleton` with `amc`, or a `.bvh`) and retargets it onto humanoid `humanoid`
    /// of `doc` with `mapping` (`None`: the built-in mapping that names the most of its joints).
    pub fn load(
        doc: &Document,
        humanoid: HumanoidIndex,
        request: &CaptureRequest,
        fps: Option<f64>,
    ) -> Result<CaptureSession, SessionError> {
        let (skeleton, amc) = (request.skeleton.as_path(), request.amc.as_deref());
        let capture = load_capture(skeleton, amc, &CaptureLoadOptions { fps, bvh_unit: None })?;
        let motion_file = amc.unwrap_or(skeleton).to_path_buf();
        if capture.clip.frame_count() == 0 {
            return Err(SessionError::NoFrames(motion_file));
        }
        let (mapping, origin) = match &request.mapping {
            Some((mapping, origin)) => (mapping.clone(), origin.clone()),
            None => {
                (mapping::default_mapping(capture.rig.joints.iter().map(|j| j.name.as_str())), MappingOrigin::BuiltIn)
            }
        };
        let name = motion_file.file_stem().map_or_else(|| "capture".to_string(), |s| s.to_string_lossy().into_owned());
        let h = doc.humanoid(humanoid).ok_or(SessionError::NoHumanoid)?;
        let result = retarget::retarget(&capture.rig, &capture.clip, h, &mapping)?;
        let mut session = CaptureSession {
            capture,
            skeleton: skeleton.to_path_buf(),
            motion_file,
            name,
            mapping,
            origin,
            humanoid,
            result,
            statuses: Vec::new(),
        };
        session.statuses = session.source_statuses(doc);
        Ok(session)
    }

    /// The capture's joint names, root first, in skeleton order.
    pub fn source_names(&self) -> impl Iterator<Item = &str> + Clone {
        self.capture.rig.joints.iter().map(|j| j.name.as_str())
    }

    /// Retargets with `mapping`; on failure the session keeps its previous mapping and motion.
    pub fn set_mapping(&mut self, doc: &Document, mapping: Mapping, origin: MappingOrigin) -> Result<(), SessionError> {
        let h = doc.humanoid(self.humanoid).ok_or(SessionError::HumanoidGone)?;
        self.result = retarget::retarget(&self.capture.rig, &self.capture.clip, h, &mapping)?;
        self.mapping = mapping;
        self.origin = origin;
        self.statuses = self.source_statuses(doc);
        Ok(())
    }

    fn source_statuses(&self, doc: &Document) -> Vec<SourceStatus> {
        let h = &doc.humanoids[self.humanoid];
        self.source_names()
            .map(|source| {
                let listed = self.mapping.targets_of(source).map(<[String]>::to_vec);
                let driven = self
                    .result
                    .pairs
                    .iter()
                    .find(|(s, _)| s == source)
                    .map(|(_, targets)| targets.clone())
                    .unwrap_or_default();
                let missing =
                    listed.iter().flatten().filter(|t| retarget::find_joint(h, t).is_none()).cloned().collect();
                SourceStatus { source: source.to_string(), listed, driven, missing }
            })
            .collect()
    }

    /// The retargeted motion as the HAnimMotion a `motion import` of it would hold.
    pub fn track(&self, doc: &Document) -> MotionTrack {
        let h = &doc.humanoids[self.humanoid];
        let description = format!(
            "{} retargeted from {} (mapping: {})",
            self.name,
            self.motion_file.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default(),
            self.origin
        );
        MotionTrack::retargeted(&self.result, h, &self.name, description)
    }

    /// The transport clip of the retargeted motion (enabled, looping).
    pub fn clip(&self, doc: &Document) -> Result<Clip, SessionError> {
        let h = &doc.humanoids[self.humanoid];
        let model = self.track(doc).to_model(h.node);
        let motion =
            HanimMotion::from_motion(&doc.scene, h, &model, h.motions.len()).map_err(SessionError::DoesNotPlay)?;
        Ok(Clip {
            enabled: true,
            looping: motion.looping,
            source: ClipSource::Motion { humanoid: self.humanoid, motion },
        })
    }

    /// How many of the capture's joints drive at least one humanoid joint, and how many humanoid joints
    /// they drive.
    pub fn coverage(&self) -> (usize, usize) {
        let sources = self.statuses.iter().filter(|s| !s.driven.is_empty()).count();
        (sources, self.statuses.iter().map(|s| s.driven.len()).sum())
    }
}
