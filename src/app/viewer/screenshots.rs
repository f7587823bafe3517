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
        let size = self.view_size()?;
        let wanted = self.ui.screenshot_size.map(|[w, h]| (w, h)).unwrap_or(size);
        // The view's own target holds the last frame; a view drawn into the surface has none (the surface
        // also holds the UI), so it is drawn again offscreen with the last frame's camera.
        if wanted == size
            && self.direct.is_none()
            && let Some((target, _)) = &self.viewport
        {
            return Some((size.0, size.1, target.read_rgba8(&self.gpu)));
        }
        let (w, h) = wanted;
        let camera = self.last_camera?;
        let offscreen = match ViewportTarget::new(&self.gpu, self.renderer.formats(), w, h) {
            Ok(offscreen) => offscreen,
            Err(e) => return Some((w, h, Err(e))),
        };
        let mut encoder = self
            .gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("viewer::screenshot") });
        self.encode_3d_view(&mut encoder, offscreen.views(), (w, h), &camera, None);
        self.gpu.queue.submit([encoder.finish()]);
        Some((w, h, offscreen.read_rgba8(&self.gpu)))
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

/// A copy of the surface texture on its way to the CPU, for `window-screenshot`.
pub(super) struct WindowCopy {
    pixels: crate::gpu::readback::TextureCopy,
    bgra: bool,
}

impl Viewer {
    /// Records a copy of `texture` (this frame's surface texture, UI painted) when a picture of the window
    /// was asked for; `None` otherwise, or when the surface cannot be copied (the script then fails).
    pub(super) fn copy_window(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        texture: &wgpu::Texture,
    ) -> Option<WindowCopy> {
        if self.pending_window_shots.is_empty() {
            return None;
        }
        if !self.surface.config.usage.contains(wgpu::TextureUsages::COPY_SRC) {
            self.pending_window_shots.clear();
            self.fail("window-screenshot: this window's surface cannot be copied".into());
            return None;
        }
        let pixels = crate::gpu::readback::copy_texture(&self.gpu, encoder, texture);
        let bgra = matches!(texture.format(), wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb);
        Some(WindowCopy { pixels, bgra })
    }

    /// Writes the pictures of the window asked for from `copy` (after its frame was submitted).
    pub(super) fn write_window_shots(&mut self, copy: WindowCopy) {
        let (width, height) = copy.pixels.size();
        let pixels = copy.pixels.read(&self.gpu).map(|mut rgba| {
            for pixel in rgba.chunks_exact_mut(4) {
                if copy.bgra {
                    pixel.swap(0, 2);
                }
                // The window is opaque whatever alpha the UI left in the surface.
                pixel[3] = 255;
            }
            rgba
        });
        for path in std::mem::take(&mut self.pending_window_shots) {
            let result = pixels.as_ref().map_err(|e| anyhow!("{e}")).and_then(|p| {
                crate::output::write_png_atomically(&path, width, height, p).map_err(anyhow::Error::from)
            });
            match result {
                Ok(()) => log::info!("saved the window as {}", path.display()),
                Err(e) => self.fail(format!("window-screenshot {} failed: {e:#}", path.display())),
            }
        }
    }
}
