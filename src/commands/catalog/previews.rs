//! Moving previews in a catalogue (`--animate`): each clip that drives a humanoid as a looping
//! animation beside its stills, a turntable for a figure without clips, and a filmstrip (every k-th
//! frame in one row) for the contact sheet. Frames are streamed into the encoder; only the filmstrip's
//! few frames are kept.

use anyhow::{Context, Result};

use super::super::animation_out::{AnimationOptions, AnimationOutput, clip_times};
use super::CatalogOptions;
use crate::animation::{Animations, ClipSource, SampleOptions};
use crate::gpu::GpuContext;
use crate::hanim::{Document, HumanoidIndex};
use crate::output::AnimationFormat;
use crate::pose::Pose;
use crate::render::{PoseRenderer, SceneRequest, render_times_with, render_turntable_with};

/// How the previews are made.
#[derive(Debug, Clone)]
pub struct PreviewOptions {
    pub format: AnimationFormat,
    /// Frames per second of every preview.
    pub fps: f64,
    /// Longer clips are previewed for this long (their first seconds).
    pub max_seconds: f64,
    /// A still figure's turntable takes this long.
    pub turntable_seconds: f64,
    /// Frames in a filmstrip (at most).
    pub strip_cells: usize,
    pub animation: AnimationOptions,
}

impl PreviewOptions {
    /// What a page of captures says of the previews (no turntables there).
    pub fn describe_clips(&self) -> String {
        format!(
            "Previews: {} at {} frames per second (at most the first {} s of a take), filmstrips of up to {} frames.",
            self.format.extension().to_uppercase(),
            self.fps,
            self.max_seconds,
            self.strip_cells
        )
    }

    /// What the page says of the previews.
    pub fn describe(&self) -> String {
        format!(
            "Previews: {} at {} frames per second (at most the first {} s of a clip; a figure without clips turns \
             once in {} s), filmstrips of up to {} frames.",
            self.format.extension().to_uppercase(),
            self.fps,
            self.max_seconds,
            self.turntable_seconds,
            self.strip_cells
        )
    }
}

/// One moving preview written.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Preview {
    /// The clip's name, or "turntable".
    pub label: String,
    /// Relative to the output folder.
    pub image: String,
    pub frames: usize,
    pub fps: f64,
    /// Seconds shown (at most the clip's length).
    pub seconds: f64,
    /// The clip's whole length in seconds (`None` for a turntable).
    pub clip_seconds: Option<f64>,
    /// Anything a reader should know (cut short).
    pub note: Option<String>,
}

impl Preview {
    pub fn caption(&self) -> String {
        match self.clip_seconds {
            Some(_) => format!("{}: {:.2} s, {} frames at {} fps", self.label, self.seconds, self.frames, self.fps),
            None => format!("turntable: {:.1} s, {} frames", self.seconds, self.frames),
        }
    }
}

/// A preview and the frames of its filmstrip.
pub struct Rendered {
    pub preview: Preview,
    pub strip: Vec<Vec<u8>>,
}

/// The filmstrip's frames: every k-th of `frames`, k chosen so that at most `cells` are kept.
pub fn strip_step(frames: usize, cells: usize) -> usize {
    frames.div_ceil(cells.max(1)).max(1)
}

/// Safe in a file name.
fn slug(text: &str) -> String {
    let s: String =
        text.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_') { c } else { '_' }).collect();
    if s.is_empty() { "clip".to_string() } else { s }
}

/// Renders `animations`' clip `index` (already chosen to drive humanoid `humanoid`, playing alone) into
/// `previews/<id>-<clip>.<ext>` and returns it with its filmstrip.
#[allow(clippy::too_many_arguments)]
pub fn clip_preview(
    ctx: &GpuContext,
    renderer: &mut impl PoseRenderer,
    doc: &Document,
    animations: &Animations,
    index: usize,
    request: &SceneRequest,
    id: &str,
    options: &CatalogOptions,
    previews: &PreviewOptions,
) -> Result<Rendered> {
    let clip = &animations.clips[index];
    let sampling = SampleOptions::default();
    let full = clip.duration(sampling.interpolation);
    let times = clip_times(animations, index, sampling.interpolation, previews.fps, Some(previews.max_seconds));
    let label = clip.name().to_string();
    let image = format!("previews/{id}-{}.{}", slug(&label), previews.format.extension());
    let step = strip_step(times.len(), previews.strip_cells);
    let (width, height) = (options.size.width, options.size.height);
    let settings = previews.animation.settings(width, height, previews.fps);
    let mut output = AnimationOutput::start(&options.out.join(&image), previews.format, &settings, times.len(), None)?;
    let mut strip = Vec::new();
    render_times_with(ctx, renderer, doc, animations, &sampling, request, &times, |i, rendered| {
        output.push(&rendered)?;
        if i % step == 0 {
            strip.push(rendered.rgba);
        }
        anyhow::Ok(())
    })
    .with_context(|| format!("clip '{label}'"))?;
    output.finish()?;
    let seconds = full.min(previews.max_seconds);
    let note = (full > previews.max_seconds).then(|| format!("the first {} s of {full:.2} s", previews.max_seconds));
    let preview =
        Preview { label, image, frames: times.len(), fps: previews.fps, seconds, clip_seconds: Some(full), note };
    Ok(Rendered { preview, strip })
}

/// The clips of `animations` that can play and drive humanoid `humanoid`, in file order.
pub fn clips_driving(animations: &Animations, humanoid: usize) -> Vec<usize> {
    (0..animations.clips.len())
        .filter(|&i| {
            let clip = &animations.clips[i];
            clip.unsupported().is_none()
                && match &clip.source {
                    ClipSource::Motion { humanoid: h, .. } => *h == HumanoidIndex(humanoid),
                    ClipSource::Interpolators(c) => c.tracks.iter().any(|t| t.humanoid == HumanoidIndex(humanoid)),
                    ClipSource::Authored { humanoid: h, .. } => *h == HumanoidIndex(humanoid),
                }
        })
        .collect()
}

/// Every preview of humanoid `humanoid` of `doc`: one per clip driving it, or a turntable at `poses`
/// when none does.
#[allow(clippy::too_many_arguments)]
pub fn humanoid_previews(
    ctx: &GpuContext,
    renderer: &mut impl PoseRenderer,
    doc: &Document,
    humanoid: usize,
    poses: &[Pose],
    request: &SceneRequest,
    id: &str,
    options: &CatalogOptions,
    previews: &PreviewOptions,
) -> Result<Vec<Rendered>> {
    let all = Animations::from_document(doc);
    let clips = clips_driving(&all, humanoid);
    if clips.is_empty() {
        return Ok(vec![turntable_preview(ctx, renderer, doc, poses, request, id, options, previews)?]);
    }
    clips
        .into_iter()
        .map(|index| {
            let mut animations = all.clone();
            animations.solo(index);
            clip_preview(ctx, renderer, doc, &animations, index, request, id, options, previews)
        })
        .collect()
}

/// The figure at `poses` circled once.
#[allow(clippy::too_many_arguments)]
fn turntable_preview(
    ctx: &GpuContext,
    renderer: &mut impl PoseRenderer,
    doc: &Document,
    poses: &[Pose],
    request: &SceneRequest,
    id: &str,
    options: &CatalogOptions,
    previews: &PreviewOptions,
) -> Result<Rendered> {
    let frames = ((previews.turntable_seconds * previews.fps).round() as usize).max(1);
    let image = format!("previews/{id}-turntable.{}", previews.format.extension());
    let (width, height) = (options.size.width, options.size.height);
    let settings = previews.animation.settings(width, height, previews.fps);
    let mut output = AnimationOutput::start(&options.out.join(&image), previews.format, &settings, frames, None)?;
    let step = strip_step(frames, previews.strip_cells);
    let mut strip = Vec::new();
    let request = SceneRequest { poses: Some(poses.to_vec()), ..request.clone() };
    render_turntable_with(ctx, renderer, doc, &request, frames, |i, rendered| {
        output.push(&rendered)?;
        if i % step == 0 {
            strip.push(rendered.rgba);
        }
        anyhow::Ok(())
    })
    .context("turntable")?;
    output.finish()?;
    let preview = Preview {
        label: "turntable".to_string(),
        image,
        frames,
        fps: previews.fps,
        seconds: frames as f64 / previews.fps,
        clip_seconds: None,
        note: None,
    };
    Ok(Rendered { preview, strip })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filmstrips_keep_at_most_the_cells_asked_for() {
        assert_eq!(strip_step(40, 8), 5);
        assert_eq!(strip_step(41, 8), 6);
        assert_eq!((0..41).step_by(strip_step(41, 8)).count(), 7);
        assert_eq!(strip_step(3, 8), 1);
        assert_eq!(strip_step(0, 8), 1);
        assert_eq!(slug("Walk Time/1"), "Walk_Time_1");
    }
}
