//! Loading a capture from its files, with the options a person can give: the frame rate (AMC files store
//! none) and the BVH length unit.

use std::path::Path;

use super::Capture;
use super::error::CaptureError;
use super::rig::CMU_FRAME_RATE;

/// How to read a capture's files.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct CaptureLoadOptions {
    /// Frames per second of an AMC (default CMU's 120); for a BVH, overrides its Frame Time.
    pub fps: Option<f64>,
    /// Metres per BVH length unit (default: guessed from the skeleton's height).
    pub bvh_unit: Option<f64>,
}

/// Whether `path` names a BVH file (by extension).
pub fn is_bvh(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("bvh"))
}

/// Loads an ASF (+ optional AMC) or a BVH; parser warnings are logged.
pub fn load_capture(
    skeleton: &Path,
    amc: Option<&Path>,
    options: &CaptureLoadOptions,
) -> Result<Capture, CaptureError> {
    if let Some(fps) = options.fps
        && !(fps.is_finite() && fps > 0.0)
    {
        return Err(CaptureError::FpsOption(fps));
    }
    if let Some(unit) = options.bvh_unit
        && !(unit.is_finite() && unit > 0.0)
    {
        return Err(CaptureError::BvhUnitOption(unit));
    }
    let capture = if is_bvh(skeleton) {
        if amc.is_some() {
            return Err(CaptureError::AmcOptionWithBvh(skeleton.to_path_buf()));
        }
        super::load_bvh(skeleton, options.bvh_unit, options.fps)?
    } else {
        super::load_asf_amc(skeleton, amc, options.fps.unwrap_or(CMU_FRAME_RATE))?
    };
    for w in &capture.warnings {
        log::warn!("{w}");
    }
    Ok(capture)
}
