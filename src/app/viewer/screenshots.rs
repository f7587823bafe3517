//! Screenshots of the 3D view: the view's own pixels, or a fresh render at the chosen screenshot size
//! with the last frame's camera; written atomically as PNG.

use std::path::PathBuf;

use anyhow::{Context, anyhow};

use super::Viewer;
use super::ViewportTarget;
use super::view3d::ViewLook;
use crate::app::screenshot;

impl Viewer {
    /// How screenshots look: without the helper overlays unless the user keeps them, on a transparent
    /// background if asked.
    fn screenshot_look(&self) -> ViewLook {
        ViewLook { overlays: self.ui.screenshot_overlays, transparent: self.ui.screenshot_transparent }
    }

    /// The 3D view's pixels for a screenshot: the view itself when it was drawn as the screenshot asks,
    /// else a fresh offscreen render at the chosen screenshot size with the last frame's camera.
    fn screenshot_pixels(&mut self) -> Option<(u32, u32, Result<Vec<u8>, crate::gpu::GpuError>)> {
        let size = self.view_size()?;
        let wanted = self.ui.screenshot_size.map(|[w, h]| (w, h)).unwrap_or(size);
        let look = self.screenshot_look();
        // The view's own target holds the last frame; a view drawn into the surface has none (the surface
        // also holds the UI), so it is drawn again offscreen with the last frame's camera.
        if wanted == size
            && look == ViewLook::WINDOW
            && self.direct.is_none()
            && let Some((target, _)) = &self.viewport
        {
            return Some((size.0, size.1, target.read_rgba8(&self.gpu)));
        }
        let (w, h) = wanted;
        let camera = self.last_camera?;
        Some((w, h, self.render_offscreen(w, h, &camera, look)))
    }

    /// The 3D view drawn offscreen at `w × h` with `camera`, read back as RGBA8.
    pub(super) fn render_offscreen(
        &mut self,
        w: u32,
        h: u32,
        camera: &crate::views::Camera,
        look: ViewLook,
    ) -> Result<Vec<u8>, crate::gpu::GpuError> {
        let offscreen = ViewportTarget::new(&self.gpu, self.renderer.formats(), w, h)?;
        let mut encoder = self
            .gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("viewer::screenshot") });
        self.encode_3d_view(&mut encoder, offscreen.views(), (w, h), camera, None, look);
        self.gpu.queue.submit([encoder.finish()]);
        offscreen.read_rgba8(&self.gpu)
    }

    /// Where an unnamed screenshot goes: the chosen folder, else the user's Pictures folder, else the
    /// current one; named after the file and the view (`JoeKick-front-20261128-113000.png`).
    fn new_screenshot_path(&self) -> PathBuf {
        let folder = self
            .ui
            .screenshot_folder
            .clone()
            .or_else(screenshot::pictures_folder)
            .unwrap_or_else(|| PathBuf::from("."));
        let scene = self.scene.as_ref();
        let stem = scene.and_then(|s| s.path.file_stem()).map_or_else(|| "hanim".into(), |s| s.to_string_lossy());
        let view = match (self.camera.fixed_view(), scene) {
            (Some(i), Some(s)) => s.summary.views.get(i).map_or("view", |v| v.label.as_str()),
            _ => "view",
        };
        screenshot::next_screenshot_path(&folder, &stem, view)
    }

    /// Once a viewpoint is reached (its transition over), whether it sees any geometry: a small
    /// offscreen drawing on a transparent background with no overlays must cover some pixel. An eye
    /// view inside the head sees nothing; the window then says so over the view and in the log.
    pub(super) fn check_view_sees_something(&mut self) {
        let fixed = self.camera.fixed_view();
        if fixed.is_none() || self.scene.is_none() {
            self.view_empty = None;
            self.view_checked = None;
            return;
        }
        if self.camera.in_transition() || fixed == self.view_checked {
            return;
        }
        let Some(camera) = self.last_camera else { return };
        self.view_checked = fixed;
        let look = ViewLook { overlays: false, transparent: true };
        let (w, h) = (96, 64);
        let covered = match self.render_offscreen(w, h, &camera, look) {
            Ok(rgba) => rgba.chunks_exact(4).any(|p| p[3] > 0),
            Err(e) => {
                log::warn!("could not check what the view sees: {e}");
                true
            }
        };
        self.view_empty = (!covered).then(|| {
            let label = fixed
                .and_then(|i| self.scene.as_ref().and_then(|s| s.summary.views.get(i)))
                .map_or("this view", |v| v.label.as_str());
            let message = format!(
                "The view \"{label}\" sees no geometry (its camera may be inside the figure).\nPress F to fit the humanoid, or pick another view."
            );
            log::warn!("{}", message.replace('\n', " "));
            message
        });
    }

    pub(super) fn take_screenshots(&mut self) {
        let requests = std::mem::take(&mut self.pending_screenshots);
        if requests.is_empty() {
            return;
        }
        let Some((width, height, pixels)) = self.screenshot_pixels() else { return };
        for request in requests {
            let path = request.unwrap_or_else(|| self.new_screenshot_path());
            let result = pixels.as_ref().map_err(|e| anyhow!("{e}")).and_then(|p| {
                if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty()) {
                    std::fs::create_dir_all(folder).with_context(|| format!("creating {}", folder.display()))?;
                }
                crate::output::write_png_atomically(&path, width, height, p).map_err(anyhow::Error::from)
            });
            match result {
                Ok(()) => {
                    let path = std::path::absolute(&path).unwrap_or(path);
                    let message = format!("saved {}", path.display());
                    match path.parent() {
                        Some(folder) => self.toast_with_folder(message, folder.to_path_buf()),
                        None => self.toast(message),
                    }
                }
                Err(e) => {
                    let message = format!("screenshot {} failed: {e:#}", path.display());
                    log::error!("{message}");
                    if self.script.is_some() {
                        self.exit_failure = Some(anyhow!(message.clone()));
                    }
                    self.toast(message);
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
