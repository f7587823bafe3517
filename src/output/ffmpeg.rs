//! MP4 and WebM through an `ffmpeg` binary on PATH: raw RGBA frames piped to its standard input, the
//! video written to the animation's temporary file. No video codec is linked into the program; without
//! ffmpeg the error says so and names the formats that need nothing.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};

use super::animated::{AnimationError, AnimationFormat, AnimationSettings};

/// A running ffmpeg reading frames from a pipe.
pub(super) struct FfmpegPipe {
    child: Child,
    stdin: Option<ChildStdin>,
    /// The destination, for messages.
    destination: String,
}

impl FfmpegPipe {
    /// Starts `ffmpeg` writing `format` to `temp` (the destination's temporary file, overwritten).
    pub(super) fn start(
        format: AnimationFormat,
        settings: &AnimationSettings,
        temp: &Path,
        destination: &Path,
    ) -> Result<FfmpegPipe, AnimationError> {
        let size = format!("{}x{}", settings.width, settings.height);
        let rate = format!("{}", settings.fps);
        let mut command = Command::new("ffmpeg");
        command.args(["-hide_banner", "-loglevel", "error", "-nostdin", "-y"]);
        command.args(["-f", "rawvideo", "-pix_fmt", "rgba", "-s", &size, "-r", &rate, "-i", "pipe:0"]);
        // yuv420p (what players expect) needs even sides: odd ones are padded by a pixel.
        command.args(["-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-pix_fmt", "yuv420p"]);
        match format {
            AnimationFormat::Webm => command.args(["-c:v", "libvpx-vp9", "-b:v", "0", "-crf", "32", "-f", "webm"]),
            _ => command.args(["-c:v", "libx264", "-crf", "20", "-movflags", "+faststart", "-f", "mp4"]),
        };
        command.arg(temp);
        command.stdin(Stdio::piped()).stdout(Stdio::null()).stderr(Stdio::piped());
        let mut child = command.spawn().map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => AnimationError::NoFfmpeg { path: destination.display().to_string() },
            _ => {
                AnimationError::Io { action: "starting ffmpeg for", path: destination.display().to_string(), source: e }
            }
        })?;
        let stdin = child.stdin.take();
        Ok(FfmpegPipe { child, stdin, destination: destination.display().to_string() })
    }

    /// Sends one frame.
    pub(super) fn push(&mut self, rgba: &[u8]) -> Result<(), AnimationError> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(AnimationError::Settings("internal: ffmpeg's input is closed".into()));
        };
        if let Err(e) = stdin.write_all(rgba) {
            // A closed pipe means ffmpeg stopped: its own message says why.
            self.stdin = None;
            return Err(self.failure().unwrap_or(AnimationError::Io {
                action: "piping frames to ffmpeg for",
                path: self.destination.clone(),
                source: e,
            }));
        }
        Ok(())
    }

    /// Closes the pipe and waits for ffmpeg to write the file.
    pub(super) fn finish(mut self) -> Result<(), AnimationError> {
        drop(self.stdin.take());
        match self.failure() {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    /// Waits for ffmpeg; its error when it failed.
    fn failure(&mut self) -> Option<AnimationError> {
        let status = match self.child.wait() {
            Ok(status) => status,
            Err(source) => {
                return Some(AnimationError::Io {
                    action: "waiting for ffmpeg for",
                    path: self.destination.clone(),
                    source,
                });
            }
        };
        if status.success() {
            return None;
        }
        let mut stderr = String::new();
        if let Some(mut pipe) = self.child.stderr.take() {
            let _ = pipe.read_to_string(&mut stderr);
        }
        // ffmpeg's last lines say what went wrong; the start is its banner and stream listing.
        let tail: Vec<&str> = stderr.lines().rev().take(6).collect();
        let stderr = tail.into_iter().rev().collect::<Vec<_>>().join(" / ");
        Some(AnimationError::Ffmpeg { path: self.destination.clone(), status: status.to_string(), stderr })
    }
}

impl Drop for FfmpegPipe {
    fn drop(&mut self) {
        // An unfinished video: stop ffmpeg rather than leave it waiting on its input.
        if self.stdin.take().is_some() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
