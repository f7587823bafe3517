//! File ▸ Export animation…: the transport's clip (the range chosen in the export window) or a turntable
//! of the pose shown, rendered offscreen on the window's device with the offscreen renderer `render`
//! uses and streamed into the file. The clip keeps the window's camera, lighting, grid and skeleton; the
//! turntable frames the figure for every angle. The window waits while it renders (a toast says when
//! it is written).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};

use super::Viewer;
use crate::gpu::lighting::Lighting;
use crate::output::{AnimationFormat, AnimationSettings, AnimationWriter};
use crate::render::{SceneRequest, ViewRequest, render_times, render_turntable};
use crate::ui::export::ExportWhat;

impl Viewer {
    /// Writes the animation the export window describes into `path`; a toast says how it went (a
    /// scripted run ends with the error).
    pub(super) fn export_animation(&mut self, path: PathBuf) {
        match self.write_animation(&path) {
            Ok(frames) => {
                let shown = std::path::absolute(&path).unwrap_or(path);
                self.toast(format!("exported {} ({frames} frames)", shown.display()));
            }
            Err(e) => {
                let message = format!("export to {} failed: {e:#}", path.display());
                log::error!("{message}");
                if self.script.is_some() {
                    self.exit_failure = Some(anyhow!(message.clone()));
                }
                self.toast(message);
            }
        }
    }

    fn write_animation(&mut self, path: &Path) -> Result<usize> {
        let format = AnimationFormat::from_path(path, true).ok_or_else(|| {
            anyhow!("the file name must end in .gif, .apng, .png, .webp, .mp4 or .webm (the format is chosen by it)")
        })?;
        let scene = self.scene.as_ref().context("no humanoid is loaded")?;
        let export = self.ui.export.clone();
        let [width, height] = export.size;
        let mut request = SceneRequest::new(width, height);
        request.show_skeleton = self.ui.show_skeleton;
        request.show_grid = self.ui.show_grid;
        request.lighting = if self.ui.studio_lighting { Lighting::Studio } else { Lighting::Standard };
        // The pose shown, the user's edits included: clips sample on top of it.
        request.poses = Some(scene.poses());
        let settings = AnimationSettings {
            loops: export.loops,
            colors: export.colors,
            ..AnimationSettings::new(width, height, export.fps)
        };
        match export.what {
            ExportWhat::Clip => {
                let transport = &scene.transport;
                let index = transport.selected.context("the transport has no clip selected")?;
                let mut animations = transport.animations.clone();
                animations.solo(index);
                // One pass over the range: its end shows the clip's end, not its start again.
                animations.clips[index].looping = false;
                let duration = animations.clips[index].duration(transport.options.interpolation);
                let times = export.clip_times(duration);
                request.view = self.last_camera.map_or(ViewRequest::Auto, ViewRequest::Camera);
                let mut writer = AnimationWriter::create(path, format, &settings, times.len())?;
                render_times(&self.gpu, &scene.doc, &animations, &transport.options, &request, &times, |_, image| {
                    writer.push(&image.rgba).map_err(anyhow::Error::from)
                })?;
                writer.finish()?;
                Ok(times.len())
            }
            ExportWhat::Turntable => {
                let frames = export.turntable_frames();
                let mut writer = AnimationWriter::create(path, format, &settings, frames)?;
                render_turntable(&self.gpu, &scene.doc, &request, frames, |_, image| {
                    writer.push(&image.rgba).map_err(anyhow::Error::from)
                })?;
                writer.finish()?;
                Ok(frames)
            }
        }
    }
}
