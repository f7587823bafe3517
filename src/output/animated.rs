//! Animated images and videos written one frame at a time: GIF (the `gif` crate with a `color_quant`
//! palette), APNG (the `png` crate), animated WebP (libwebp through `webp-animation`), and MP4/WebM by
//! piping raw frames to an `ffmpeg` found on PATH ([`super::ffmpeg`]).
//!
//! Memory stays bounded however long the clip: GIF and APNG frames are compressed into the temporary
//! file as they arrive; libwebp keeps each frame only in its encoded form until the end; ffmpeg reads
//! them from its pipe. The destination appears only when [`AnimationWriter::finish`] succeeds (temporary
//! file beside it, renamed); a writer dropped unfinished removes its temporary file.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::ffmpeg::FfmpegPipe;

/// The container an animation is written in, chosen by the output's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnimationFormat {
    Gif,
    /// Animated PNG (`.apng`, or `.png` where the command asks for an animation).
    Apng,
    Webp,
    /// H.264 in MP4, through ffmpeg.
    Mp4,
    /// VP9 in WebM, through ffmpeg.
    Webm,
}

impl AnimationFormat {
    /// Every format with the extension that selects it.
    pub const ALL: [(AnimationFormat, &'static str); 5] = [
        (AnimationFormat::Gif, "gif"),
        (AnimationFormat::Apng, "apng"),
        (AnimationFormat::Webp, "webp"),
        (AnimationFormat::Mp4, "mp4"),
        (AnimationFormat::Webm, "webm"),
    ];

    /// The format an output path's extension names (case-insensitive); `.png` is APNG only when
    /// `png_is_animated` (a `.png` is otherwise a still).
    pub fn from_path(path: &Path, png_is_animated: bool) -> Option<AnimationFormat> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        if extension == "png" && png_is_animated {
            return Some(AnimationFormat::Apng);
        }
        Self::from_name(&extension)
    }

    /// The format named `gif`, `apng`, `webp`, `mp4` or `webm`.
    pub fn from_name(name: &str) -> Option<AnimationFormat> {
        Self::ALL.iter().find(|(_, n)| n.eq_ignore_ascii_case(name)).map(|(f, _)| *f)
    }

    pub fn extension(self) -> &'static str {
        Self::ALL.iter().find(|(f, _)| *f == self).map_or("gif", |(_, n)| n)
    }

    /// True for the formats that need an `ffmpeg` binary.
    pub fn needs_ffmpeg(self) -> bool {
        matches!(self, AnimationFormat::Mp4 | AnimationFormat::Webm)
    }
}

/// How a GIF's colours are chosen (GIF holds at most 256 colours per frame).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GifPalette {
    /// One palette learnt from the first frame for the whole animation: smaller files, no colour
    /// flicker between frames; colours that appear only later are approximated.
    #[default]
    Global,
    /// A palette per frame: each frame's own colours, at a palette's bytes per frame.
    PerFrame,
}

impl GifPalette {
    pub fn from_name(name: &str) -> Option<GifPalette> {
        match name {
            "global" => Some(GifPalette::Global),
            "per-frame" => Some(GifPalette::PerFrame),
            _ => None,
        }
    }
}

/// What every animation is written with.
#[derive(Debug, Clone, PartialEq)]
pub struct AnimationSettings {
    pub width: u32,
    pub height: u32,
    /// Frames per second of the output.
    pub fps: f64,
    /// How many times it plays: 0 = forever (GIF, APNG, WebP; videos play once).
    pub loops: u32,
    /// GIF: colours per palette, 2 to 256.
    pub colors: u16,
    pub palette: GifPalette,
    /// WebP: lossless (the default, exact pixels) or lossy at this quality (0–100).
    pub webp_quality: Option<f32>,
}

impl AnimationSettings {
    pub fn new(width: u32, height: u32, fps: f64) -> AnimationSettings {
        AnimationSettings { width, height, fps, loops: 0, colors: 256, palette: GifPalette::Global, webp_quality: None }
    }

    /// Each frame's display time in milliseconds (rounded; at least 1).
    pub fn frame_milliseconds(&self) -> u32 {
        ((1000.0 / self.fps).round() as u32).max(1)
    }
}

/// Why an animation could not be written; the destination is untouched.
#[derive(Debug, thiserror::Error)]
pub enum AnimationError {
    #[error("{path}: {action}: {source}")]
    Io {
        action: &'static str,
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{0}")]
    Settings(String),
    #[error("encoding the GIF: {0}")]
    Gif(#[from] gif::EncodingError),
    #[error("encoding the APNG: {0}")]
    Png(#[from] png::EncodingError),
    #[error("encoding the WebP: {0:?}")]
    Webp(webp_animation::Error),
    #[error(
        "writing {path} needs an `ffmpeg` binary on PATH, and none was found: install ffmpeg (e.g. `apt-get install \
         ffmpeg`) or write .gif, .apng or .webp instead"
    )]
    NoFfmpeg { path: String },
    #[error("ffmpeg failed writing {path} ({status}): {stderr}")]
    Ffmpeg { path: String, status: String, stderr: String },
    #[error("internal: frame {index} has {len} bytes, expected {expected} ({width}x{height} RGBA)")]
    FrameSize { index: usize, len: usize, expected: usize, width: u32, height: u32 },
    #[error("internal: {written} frames written, {expected} announced")]
    FrameCount { written: usize, expected: usize },
    #[error(transparent)]
    Output(#[from] super::OutputError),
}

pub(super) fn io_error(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> AnimationError + use<> {
    let path = path.display().to_string();
    move |source| AnimationError::Io { action, path, source }
}

/// The encoder state of one format.
enum Encoder {
    /// The GIF encoder starts at the first frame, whose colours make the global palette.
    Gif {
        file: Option<BufWriter<File>>,
        encoder: Option<(gif::Encoder<BufWriter<File>>, color_quant::NeuQuant)>,
    },
    Apng(png::Writer<BufWriter<File>>),
    Webp(Box<webp_animation::Encoder>),
    Ffmpeg(FfmpegPipe),
}

/// An animation being written: frames go in one at a time ([`push`](Self::push)), the file appears at
/// [`finish`](Self::finish).
pub struct AnimationWriter {
    encoder: Encoder,
    /// The temporary file beside the destination (the encoders write into it or, for ffmpeg, its path).
    temp: tempfile::NamedTempFile,
    destination: PathBuf,
    settings: AnimationSettings,
    frames: usize,
    expected: usize,
}

impl std::fmt::Debug for AnimationWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnimationWriter")
            .field("destination", &self.destination)
            .field("frames", &self.frames)
            .field("expected", &self.expected)
            .finish()
    }
}

impl AnimationWriter {
    /// Starts writing `frame_count` frames of `settings` to `path` in `format`. APNG announces its frame
    /// count up front, so exactly that many must be pushed.
    pub fn create(
        path: &Path,
        format: AnimationFormat,
        settings: &AnimationSettings,
        frame_count: usize,
    ) -> Result<AnimationWriter, AnimationError> {
        check_settings(format, settings, frame_count)?;
        let temp = super::temp_file_beside(path, &format!(".{}", format.extension()))?;
        let file = || temp.reopen().map(BufWriter::new).map_err(io_error("opening", temp.path()));
        let (width, height) = (settings.width, settings.height);
        let encoder = match format {
            AnimationFormat::Gif => Encoder::Gif { file: Some(file()?), encoder: None },
            AnimationFormat::Apng => {
                let mut encoder = png::Encoder::new(file()?, width, height);
                encoder.set_color(png::ColorType::Rgba);
                encoder.set_depth(png::BitDepth::Eight);
                encoder.set_source_srgb(png::SrgbRenderingIntent::Perceptual);
                encoder.set_animated(frame_count as u32, settings.loops)?;
                encoder.set_frame_delay(settings.frame_milliseconds().min(u32::from(u16::MAX)) as u16, 1000)?;
                Encoder::Apng(encoder.write_header()?)
            }
            AnimationFormat::Webp => {
                let encoding_config = settings.webp_quality.map_or(
                    webp_animation::EncodingConfig {
                        encoding_type: webp_animation::EncodingType::Lossless,
                        quality: 75.0,
                        method: 4,
                    },
                    webp_animation::EncodingConfig::new_lossy,
                );
                let options = webp_animation::EncoderOptions {
                    anim_params: webp_animation::AnimParams { loop_count: settings.loops as i32 },
                    encoding_config: Some(encoding_config),
                    ..Default::default()
                };
                let encoder = webp_animation::Encoder::new_with_options((width, height), options)
                    .map_err(AnimationError::Webp)?;
                Encoder::Webp(Box::new(encoder))
            }
            AnimationFormat::Mp4 | AnimationFormat::Webm => {
                Encoder::Ffmpeg(FfmpegPipe::start(format, settings, temp.path(), path)?)
            }
        };
        Ok(AnimationWriter {
            encoder,
            temp,
            destination: path.to_path_buf(),
            settings: settings.clone(),
            frames: 0,
            expected: frame_count,
        })
    }

    /// Adds the next frame: RGBA8, sRGB, rows top to bottom, `width·height·4` bytes.
    pub fn push(&mut self, rgba: &[u8]) -> Result<(), AnimationError> {
        let AnimationSettings { width, height, .. } = self.settings;
        let expected = width as usize * height as usize * 4;
        if rgba.len() != expected {
            return Err(AnimationError::FrameSize { index: self.frames, len: rgba.len(), expected, width, height });
        }
        if self.frames >= self.expected {
            return Err(AnimationError::FrameCount { written: self.frames + 1, expected: self.expected });
        }
        let delay_ms = self.settings.frame_milliseconds();
        match &mut self.encoder {
            Encoder::Gif { file, encoder } => {
                if encoder.is_none() {
                    let out = file.take().ok_or_else(|| AnimationError::Settings("internal: GIF file gone".into()))?;
                    *encoder = Some(start_gif(out, rgba, &self.settings)?);
                }
                if let Some((encoder, global)) = encoder {
                    encoder.write_frame(&gif_frame(rgba, &self.settings, global))?;
                }
            }
            Encoder::Apng(writer) => writer.write_image_data(rgba)?,
            Encoder::Webp(encoder) => {
                let timestamp = (self.frames as u64 * u64::from(delay_ms)).min(i32::MAX as u64) as i32;
                encoder.add_frame(rgba, timestamp).map_err(AnimationError::Webp)?;
            }
            Encoder::Ffmpeg(pipe) => pipe.push(rgba)?,
        }
        self.frames += 1;
        Ok(())
    }

    /// Frames pushed so far.
    pub fn frames(&self) -> usize {
        self.frames
    }

    /// Completes the file and renames it over the destination.
    pub fn finish(self) -> Result<PathBuf, AnimationError> {
        if self.frames != self.expected {
            return Err(AnimationError::FrameCount { written: self.frames, expected: self.expected });
        }
        let temp_path = self.temp.path().to_path_buf();
        match self.encoder {
            Encoder::Gif { encoder, .. } => {
                if let Some((encoder, _)) = encoder {
                    let mut out = encoder.into_inner()?;
                    out.flush().map_err(io_error("writing", &temp_path))?;
                }
            }
            Encoder::Apng(writer) => writer.finish()?,
            Encoder::Webp(encoder) => {
                let end = (self.frames as u64 * u64::from(self.settings.frame_milliseconds())).min(i32::MAX as u64);
                let data = encoder.finalize(end as i32).map_err(AnimationError::Webp)?;
                let mut out = self.temp.reopen().map_err(io_error("opening", &temp_path))?;
                out.write_all(&data).map_err(io_error("writing", &temp_path))?;
            }
            Encoder::Ffmpeg(pipe) => pipe.finish()?,
        }
        super::persist(self.temp, &self.destination)?;
        Ok(self.destination)
    }
}

fn check_settings(format: AnimationFormat, s: &AnimationSettings, frame_count: usize) -> Result<(), AnimationError> {
    if frame_count == 0 {
        return Err(AnimationError::Settings("an animation needs at least one frame".into()));
    }
    if !(s.fps.is_finite() && s.fps > 0.0 && s.fps <= 1000.0) {
        return Err(AnimationError::Settings(format!(
            "frames per second must be above 0 and at most 1000, not {}",
            s.fps
        )));
    }
    if s.width == 0 || s.height == 0 {
        return Err(AnimationError::Settings("the image size must be at least 1x1".into()));
    }
    if format == AnimationFormat::Gif && (s.width > u32::from(u16::MAX) || s.height > u32::from(u16::MAX)) {
        return Err(AnimationError::Settings(format!(
            "GIF images are at most 65535x65535, not {}x{}",
            s.width, s.height
        )));
    }
    if !(2..=256).contains(&s.colors) {
        return Err(AnimationError::Settings(format!("a GIF palette has 2 to 256 colours, not {}", s.colors)));
    }
    if let Some(q) = s.webp_quality
        && !(0.0..=100.0).contains(&q)
    {
        return Err(AnimationError::Settings(format!("WebP quality is 0 to 100, not {q}")));
    }
    Ok(())
}

/// NeuQuant's sampling factor: 1 looks at every pixel (best, slowest), 30 at every 30th. 10 is the
/// quantiser's own recommendation.
const GIF_SAMPLE_FACTOR: i32 = 10;

/// The GIF encoder for `out`: the logical screen, the global palette learnt from `first` (the first
/// frame) and the loop count.
fn start_gif(
    out: BufWriter<File>,
    first: &[u8],
    settings: &AnimationSettings,
) -> Result<(gif::Encoder<BufWriter<File>>, color_quant::NeuQuant), AnimationError> {
    let global = color_quant::NeuQuant::new(GIF_SAMPLE_FACTOR, usize::from(settings.colors), first);
    let palette = match settings.palette {
        GifPalette::Global => global.color_map_rgb(),
        GifPalette::PerFrame => Vec::new(),
    };
    let mut encoder = gif::Encoder::new(out, settings.width as u16, settings.height as u16, &palette)?;
    // The NETSCAPE loop count is the number of repeats after the first play; one play needs no
    // extension at all.
    match settings.loops {
        0 => encoder.set_repeat(gif::Repeat::Infinite)?,
        1 => {}
        n => encoder.set_repeat(gif::Repeat::Finite((n - 1).min(u32::from(u16::MAX)) as u16))?,
    }
    Ok((encoder, global))
}

/// One GIF frame of `rgba`: its pixels mapped to the global palette, or to a palette of its own.
fn gif_frame(rgba: &[u8], settings: &AnimationSettings, global: &color_quant::NeuQuant) -> gif::Frame<'static> {
    let (width, height) = (settings.width as u16, settings.height as u16);
    let mut frame = match settings.palette {
        GifPalette::Global => {
            let indices: Vec<u8> = rgba.chunks_exact(4).map(|p| global.index_of(p) as u8).collect();
            gif::Frame::from_indexed_pixels(width, height, indices, None)
        }
        GifPalette::PerFrame => {
            let own = color_quant::NeuQuant::new(GIF_SAMPLE_FACTOR, usize::from(settings.colors), rgba);
            let indices: Vec<u8> = rgba.chunks_exact(4).map(|p| own.index_of(p) as u8).collect();
            gif::Frame::from_palette_pixels(width, height, indices, own.color_map_rgb(), None)
        }
    };
    // GIF delays are in hundredths of a second.
    frame.delay = ((f64::from(settings.frame_milliseconds()) / 10.0).round() as u16).max(1);
    frame
}
