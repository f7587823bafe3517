//! Why a capture cannot be loaded or shown. The parsers' own errors ([`MocapError`], with file, line and
//! column) pass through unchanged; the other messages name the file or the option at fault.

use std::path::PathBuf;

use super::text::MocapError;
use crate::hanim::HanimError;

/// An error of loading a capture, or of building the stick figure or document that shows it.
#[derive(Debug, thiserror::Error)]
pub enum CaptureError {
    /// An ASF, AMC or BVH file that cannot be read.
    #[error(transparent)]
    File(#[from] MocapError),
    /// A document (an X3D file, or the stick figure's generated text) that does not load.
    #[error(transparent)]
    Document(#[from] HanimError),
    #[error("the frame rate must be a positive number of frames per second, not {0}")]
    FrameRate(f64),
    #[error("--fps must be a positive number of frames per second, not {0}")]
    FpsOption(f64),
    #[error("--bvh-unit must be a positive number of metres, not {0}")]
    BvhUnitOption(f64),
    /// An AMC motion given with a BVH skeleton (which holds its own motion).
    #[error("{}: a BVH holds its own motion; {} goes with an .asf skeleton", bvh.display(), amc.display())]
    AmcWithBvh { bvh: PathBuf, amc: PathBuf },
    /// `--amc` given with a BVH.
    #[error("{}: a BVH holds its own motion; --amc goes with an .asf skeleton", .0.display())]
    AmcOptionWithBvh(PathBuf),
    /// `--motion` given for a file that is not an `.asf` skeleton.
    #[error(
        "--motion {}: a motion file goes with an .asf skeleton{}",
        motion.display(),
        file.as_ref().map(|f| format!(", not {}", f.display())).unwrap_or_default()
    )]
    MotionWithoutAsf { motion: PathBuf, file: Option<PathBuf> },
    #[error("building the stick figure")]
    StickFigure(#[source] HanimError),
    #[error("the stick figure has no humanoid")]
    StickFigureWithoutHumanoid,
    #[error("stick figure joint '{0}' is missing")]
    StickFigureJointMissing(String),
}
