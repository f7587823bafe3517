//! Finding a moment of a clip by what a person types: a clip by name, a frame or a time in it, and the
//! times of a numbered sequence. Shared by the `pose`, `render` and `catalog` commands.

use super::{Animations, ClipSource, Interpolation};

/// Frames per second of a sequence rendered from an interpolator clip (`--every K` steps K/30 s), and of
/// "frame N" of an interpolator clip in a catalogue.
pub const INTERPOLATOR_SEQUENCE_FPS: f64 = 30.0;

/// Why a clip moment could not be found; the message says what the file has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LookupError(String);

impl Animations {
    /// Which clip and time a request names: the index of clip `motion` (HAnimMotion name or DEF,
    /// TimeSensor DEF) and the playback time of `frame` (HAnimMotions only) or `time`; with neither, an
    /// HAnimMotion's own `frameIndex` (§4.4) and 0 s for an interpolator clip.
    pub fn resolve(&self, motion: &str, frame: Option<usize>, time: Option<f64>) -> Result<(usize, f64), LookupError> {
        let fail = |message: String| Err(LookupError(message));
        let Some(index) = self.find(motion) else {
            if let Some(e) = self.rejected.iter().find(|e| e.name == motion || e.def.as_deref() == Some(motion)) {
                return fail(e.to_string());
            }
            let names: Vec<&str> = self.clips.iter().map(|c| c.name()).collect();
            let close = crate::names::close_names(motion, names.iter().copied());
            return fail(if close.is_empty() {
                format!(
                    "no motion or clip named '{motion}' (the file has: {})",
                    if names.is_empty() { "none".to_string() } else { names.join(", ") }
                )
            } else {
                format!("no motion or clip named '{motion}'; close names: {}", close.join(", "))
            });
        };
        let clip = &self.clips[index];
        if let Some(reason) = clip.unsupported() {
            return fail(format!("clip '{motion}' cannot be played: {reason}"));
        }
        let tau = match (frame, &clip.source) {
            (Some(f), ClipSource::Motion { motion: m, .. }) => {
                if f < m.first_frame || f > m.last_frame {
                    return fail(format!(
                        "frame {f} is outside motion '{motion}' (frames {}..={})",
                        m.first_frame, m.last_frame
                    ));
                }
                m.time_of_frame(f as f64)
            }
            (Some(_), ClipSource::Interpolators(_) | ClipSource::Authored { .. }) => {
                return fail(format!("'{motion}' is not an HAnimMotion: give --time in seconds, not --frame"));
            }
            (None, ClipSource::Motion { motion: m, .. }) => match time {
                Some(t) => t,
                // Neither given: the motion's own current frame (frameIndex, §4.4).
                None if m.frame_increment != 0 => m.time_of_frame(m.frame_index as f64).max(0.0),
                None => 0.0,
            },
            (None, ClipSource::Interpolators(_) | ClipSource::Authored { .. }) => time.unwrap_or(0.0),
        };
        if !tau.is_finite() {
            return fail("the time must be a finite number of seconds".to_string());
        }
        Ok((index, tau))
    }

    /// Playback times of a sequence: every `every`-th frame of an HAnimMotion in playing order (the first
    /// frame for `frameIncrement > 0`, the last for `< 0`), or every `every/30` s of an interpolator clip,
    /// over one pass.
    pub fn sequence_times(&self, clip: usize, every: u32, mode: Interpolation) -> Vec<f64> {
        let clip = &self.clips[clip];
        match &clip.source {
            ClipSource::Motion { motion, .. } => {
                let frames: Vec<usize> = if motion.frame_increment < 0 {
                    (motion.first_frame..=motion.last_frame).rev().step_by(every as usize).collect()
                } else {
                    (motion.first_frame..=motion.last_frame).step_by(every as usize).collect()
                };
                frames.into_iter().map(|f| motion.time_of_frame(f as f64)).collect()
            }
            ClipSource::Interpolators(_) | ClipSource::Authored { .. } => {
                let step = f64::from(every) / INTERPOLATOR_SEQUENCE_FPS;
                let count = (clip.duration(mode) / step).floor() as usize + 1;
                (0..count).map(|i| i as f64 * step).collect()
            }
        }
    }
}
