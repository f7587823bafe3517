//! Screenshots of the 3D view: the view's own pixels, or a fresh render at the chosen screenshot size
//! with the last frame's camera; written atomically as PNG.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::anyhow;

use super::Viewer;
use super::ViewportTarget;
use crate::app::screenshot;

impl Viewer {
    /// The 3D view's pixels for a screenshot: the view itself, or a fresh offscreen render at the chosen
    /// screenshot size (same camera, the aspect of the chosen size).
    fn screenshot_pixels(&mut self) -> Option<(u32, u32, Result<Vec<u8>, crate::gpu::GpuError>)> {
        let (target, _) = self.viewport.as_ref()?;
        let size = [target.width(), target.height()];
        match self.ui.screenshot_size {
            Some([w, h]) if [w, h] != size => {
                let camera = self.last_camera?;
                let offscreen = match ViewportTarget::new(&self.gpu, self.renderer.formats(), w, h) {
                    Ok(offscreen) => offscreen,
                    Err(e) => return Some((w, h, Err(e))),
                };
                let mut encoder = self
                    .gpu
                    .device
                    .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("viewer::screenshot") });
                self.encode_3d_view(&mut encoder, &offscreen, &camera);
                self.gpu.queue.submit([encoder.finish()]);
                Some((w, h, offscreen.read_rgba8(&self.gpu)))
            }
            _ => Some((target.width(), target.height(), target.read_rgba8(&self.gpu))),
        }
    }

    pub(super) fn take_screenshots(&mut self) {
        let requests = std::mem::take(&mut self.pending_screenshots);
        if requests.is_empty() {
            return;
        }
        let Some((width, height, pixels)) = self.screenshot_pixels() else { return };
        for request in requests {
            let path = request.unwrap_or_else(|| {
                let folder = self.ui.screenshot_folder.clone().unwrap_or_else(|| PathBuf::from("."));
                screenshot::next_screenshot_path(&folder)
            });
            let result = pixels.as_ref().map_err(|e| anyhow!("{e}")).and_then(|p| {
                crate::output::write_png_atomically(&path, width, height, p).map_err(anyhow::Error::from)
            });
            match result {
                Ok(()) => self.toast(format!("saved {}", std::path::absolute(&path).unwrap_or(path).display())),
                Err(e) => {
                    let message = format!("screenshot {} failed: {e:#}", path.display());
                    log::error!("{message}");
                    if self.script.is_some() {
                        self.exit_failure = Some(anyhow!(message.clone()));
                    }
                    self.toasts.push((message, Instant::now()));
                }
            }
        }
    }
}
