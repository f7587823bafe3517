//! What `render` and `catalog` share for animated output: the options (`--anim-fps`, `--loop`,
//! `--colors`, `--palette`, `--webp-quality`), the times a clip is sampled at, and streaming rendered
//! images into an [`AnimationWriter`] with a progress bar.

use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow};

use crate::animation::{Animations, ClipSource, INTERPOLATOR_SEQUENCE_FPS, Interpolation};
use crate::output::{AnimationFormat, AnimationSettings, AnimationWriter, GifPalette};
use crate::render::RenderedImage;

/// A GIF shows each frame for a whole number of hundredths of a second and browsers draw delays under
/// 2/100 s as 10/100 s, so an animation plays at no more than this many frames per second by default.
pub const DEFAULT_MAX_FPS: f64 = 30.0;

/// The options of an animated output.
#[derive(Debug, Clone, clap::Args)]
pub struct AnimationOptions {
    /// Frames per second of the animation (default: the clip's own rate up to 30; a turntable 25).
    /// `--fps` is the capture's own rate.
    #[arg(long, value_name = "FPS", value_parser = super::args::parse_fps)]
    pub anim_fps: Option<f64>,
    /// How many times the animation plays: 0 = forever (GIF, APNG, WebP; videos play once).
    #[arg(long = "loop", value_name = "COUNT", default_value_t = 0)]
    pub loop_count: u32,
    /// GIF: colours in a palette (2 to 256).
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u16).range(2..=256))]
    pub colors: u16,
    /// GIF: `global` (one palette from the first frame, no flicker, smaller) or `per-frame`.
    #[arg(long, value_name = "KIND", default_value = "global", value_parser = parse_palette)]
    pub palette: GifPalette,
    /// WebP: lossy at this quality (0–100) instead of lossless.
    #[arg(long, value_name = "Q")]
    pub webp_quality: Option<f32>,
}

impl Default for AnimationOptions {
    fn default() -> Self {
        AnimationOptions { anim_fps: None, loop_count: 0, colors: 256, palette: GifPalette::Global, webp_quality: None }
    }
}

fn parse_palette(text: &str) -> Result<GifPalette, String> {
    GifPalette::from_name(text).ok_or_else(|| format!("'{text}' is not a palette kind (global, per-frame)"))
}

impl AnimationOptions {
    /// The writer's settings for `width × height` frames at `fps`.
    pub fn settings(&self, width: u32, height: u32, fps: f64) -> AnimationSettings {
        AnimationSettings {
            loops: self.loop_count,
            colors: self.colors,
            palette: self.palette,
            webp_quality: self.webp_quality,
            ..AnimationSettings::new(width, height, fps)
        }
    }
}

/// The frames per second clip `index` is made of: an HAnimMotion's 1/frameDuration, interpolators the
/// 30 of `render --every 1`.
pub fn clip_rate(animations: &Animations, index: usize) -> f64 {
    match &animations.clips[index].source {
        ClipSource::Motion { motion, .. } if motion.frame_duration > 0.0 => 1.0 / motion.frame_duration,
        _ => INTERPOLATOR_SEQUENCE_FPS,
    }
}

/// The times one pass of clip `index` is shown at, `fps` apart: a looping clip up to (not including)
/// its end, which is its start again; a clip that plays once up to and including its last moment.
/// At most `max_seconds` of it (`None`: all).
pub fn clip_times(
    animations: &Animations,
    index: usize,
    mode: Interpolation,
    fps: f64,
    max_seconds: Option<f64>,
) -> Vec<f64> {
    let clip = &animations.clips[index];
    let full = clip.duration(mode).max(0.0);
    let duration = max_seconds.map_or(full, |m| full.min(m));
    let steps = duration * fps;
    let count = if clip.looping && duration == full {
        (steps.round() as usize).max(1)
    } else {
        (steps + 1e-9).floor() as usize + 1
    };
    (0..count).map(|i| i as f64 / fps).collect()
}

/// An animation being rendered into a file, with a progress bar on a terminal.
pub struct AnimationOutput {
    writer: AnimationWriter,
    bar: indicatif::ProgressBar,
}

impl std::fmt::Debug for AnimationOutput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.writer.fmt(f)
    }
}

impl AnimationOutput {
    /// Starts `path` (`format`) for `frames` frames; `label` names what is rendered on the bar (`None`:
    /// no bar, as a catalogue shows its own).
    pub fn start(
        path: &Path,
        format: AnimationFormat,
        settings: &AnimationSettings,
        frames: usize,
        label: Option<&str>,
    ) -> Result<AnimationOutput> {
        let writer = AnimationWriter::create(path, format, settings, frames)?;
        let bar = match label {
            Some(label) => {
                let bar = indicatif::ProgressBar::new(frames as u64);
                bar.set_style(
                    indicatif::ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} frames, {eta} left")
                        .map_err(|e| anyhow!("{e}"))?
                        .progress_chars("=> "),
                );
                bar.set_message(label.to_string());
                bar
            }
            None => indicatif::ProgressBar::hidden(),
        };
        Ok(AnimationOutput { writer, bar })
    }

    /// Encodes the next frame.
    pub fn push(&mut self, image: &RenderedImage) -> Result<()> {
        self.writer.push(&image.rgba)?;
        self.bar.inc(1);
        Ok(())
    }

    /// Completes the file (renamed over the destination).
    pub fn finish(self) -> Result<PathBuf> {
        self.bar.finish_and_clear();
        Ok(self.writer.finish()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn palettes_parse() {
        assert_eq!(parse_palette("per-frame"), Ok(GifPalette::PerFrame));
        assert!(parse_palette("octree").unwrap_err().contains("global, per-frame"));
    }
}
