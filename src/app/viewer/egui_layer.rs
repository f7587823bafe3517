//! The egui layer of the window: the context, its winit input state and its wgpu renderer, and the pass
//! that paints the panels (with the 3D view as one of their textures) into the surface texture.

use std::time::Instant;

use winit::window::Window;

use super::ui_cache::{self, UiCache};
use crate::gpu::GpuContext;
use crate::gpu::target::PixelRect;

pub struct EguiLayer {
    pub ctx: egui::Context,
    pub state: egui_winit::State,
    pub renderer: egui_wgpu::Renderer,
    /// The format egui's pipeline draws in (the surface's).
    format: wgpu::TextureFormat,
    /// The UI kept as a picture between frames (see `ui_cache`).
    pub cache: Option<UiCache>,
}

/// One frame of egui output, tessellated and ready to paint.
pub struct PaintedUi {
    pub jobs: Vec<egui::ClippedPrimitive>,
    pub textures_delta: egui::TexturesDelta,
    pub pixels_per_point: f32,
    /// When egui wants the next frame (animations, tooltips); `None`: only on input.
    pub next_repaint: Option<Instant>,
}

impl EguiLayer {
    pub fn new(window: &Window, device: &wgpu::Device, surface_format: wgpu::TextureFormat) -> Self {
        let ctx = egui::Context::default();
        let state = state_for(&ctx, window, device);
        let renderer = egui_wgpu::Renderer::new(device, surface_format, egui_wgpu::RendererOptions::default());
        Self { ctx, state, renderer, format: surface_format, cache: None }
    }

    /// The layer on a new device (after a device loss). egui sends its font atlas once; a new context
    /// (with the old one's memory: window places, open headers) sends it again to the new renderer.
    pub fn rebuilt(&self, window: &Window, device: &wgpu::Device, surface_format: wgpu::TextureFormat) -> Self {
        let memory = self.ctx.memory(|m| m.clone());
        let layer = Self::new(window, device, surface_format);
        layer.ctx.memory_mut(|m| *m = memory);
        layer
    }

    /// Runs `build` over this frame's input; platform output (cursor, clipboard) goes to the window.
    pub fn run(&mut self, window: &Window, build: impl FnMut(&mut egui::Ui)) -> PaintedUi {
        let raw_input = self.state.take_egui_input(window);
        let output = self.ctx.run_ui(raw_input, build);
        self.state.handle_platform_output(window, output.platform_output);
        let next_repaint = output
            .viewport_output
            .get(&egui::ViewportId::ROOT)
            .and_then(|v| Instant::now().checked_add(v.repaint_delay));
        let jobs = self.ctx.tessellate(output.shapes, output.pixels_per_point);
        PaintedUi {
            jobs,
            textures_delta: output.textures_delta,
            pixels_per_point: output.pixels_per_point,
            next_repaint,
        }
    }

    /// Uploads the frame's texture changes and buffers (textures must be updated even when the frame is
    /// not presented), then paints the panels into `surface_view` when there is one, cleared first unless
    /// `clear` is false (the 3D view is already drawn there). Returns the extra
    /// command buffers egui's callbacks asked for, to be submitted before `encoder`'s.
    pub fn paint(
        &mut self,
        gpu: &GpuContext,
        encoder: &mut wgpu::CommandEncoder,
        surface_view: Option<&wgpu::TextureView>,
        size_in_pixels: [u32; 2],
        ui: &PaintedUi,
        clear: bool,
    ) -> Vec<wgpu::CommandBuffer> {
        self.upload_textures(gpu, ui);
        self.paint_whole(gpu, encoder, surface_view, size_in_pixels, ui, clear)
    }

    /// Paints the frame's UI through the kept picture (see `ui_cache`): repaints the picture where it
    /// changed, copies it around the 3D view at `view` (already drawn into `surface`), then paints what
    /// lies over the 3D view. Falls back to [`Self::paint`] (over the 3D view, not cleared) when the
    /// picture cannot be used: the surface takes no copies, the switch is off, or egui painted a callback.
    #[allow(clippy::too_many_arguments)]
    pub fn paint_kept(
        &mut self,
        gpu: &GpuContext,
        encoder: &mut wgpu::CommandEncoder,
        surface: &wgpu::Texture,
        surface_view: &wgpu::TextureView,
        size: [u32; 2],
        ui: &PaintedUi,
        view: PixelRect,
        surface_usage: wgpu::TextureUsages,
    ) -> Vec<wgpu::CommandBuffer> {
        let textures_changed = self.upload_textures(gpu, ui);
        if !ui_cache::enabled(surface_usage) {
            return self.paint_whole(gpu, encoder, Some(surface_view), size, ui, false);
        }
        if !self.cache.as_ref().is_some_and(|c| c.fits(self.format, size)) {
            self.cache = Some(UiCache::new(gpu, self.format, size));
        }
        let Some(cache) = self.cache.as_mut() else { return Vec::new() };
        let Some(mut split) = cache.split(&ui.jobs, ui.pixels_per_point, size, view, textures_changed) else {
            return self.paint_whole(gpu, encoder, Some(surface_view), size, ui, false);
        };
        let screen = egui_wgpu::ScreenDescriptor { size_in_pixels: size, pixels_per_point: ui.pixels_per_point };
        log::debug!(
            "UI picture: {} pixels repainted by {} meshes, {} meshes over the 3D view",
            cache.repainted_pixels,
            split.into_picture,
            split.jobs.len() - split.into_picture
        );
        let extra = self.renderer.update_buffers(&gpu.device, &gpu.queue, encoder, &split.jobs, &screen);
        if split.into_picture > 0 {
            split.show(true);
            let mut pass = ui_pass(encoder, cache.view(), wgpu::LoadOp::Load, "egui::picture");
            self.renderer.render(&mut pass, &split.jobs, &screen);
        }
        ui_cache::copy_bands(encoder, cache.texture(), surface, &ui_cache::around(view, size));
        if split.jobs.len() > split.into_picture {
            split.show(false);
            let mut pass = ui_pass(encoder, surface_view, wgpu::LoadOp::Load, "egui::over_view");
            self.renderer.render(&mut pass, &split.jobs, &screen);
        }
        extra
    }

    /// Paints `ui` whole into a new picture and counts the pixels outside `view` where the kept picture
    /// differs from it; `None` when the last frame did not paint through a kept picture. Call after the
    /// frame was submitted (this re-uploads egui's buffers); waits for the GPU.
    pub fn picture_mismatch(
        &mut self,
        gpu: &GpuContext,
        ui: &PaintedUi,
        size: [u32; 2],
        view: PixelRect,
    ) -> Result<Option<u64>, crate::gpu::GpuError> {
        let Some(kept) = self.cache.as_ref().filter(|c| c.is_valid() && c.fits(self.format, size)) else {
            return Ok(None);
        };
        let mut fresh = UiCache::new(gpu, self.format, size);
        let Some(mut split) = fresh.split(&ui.jobs, ui.pixels_per_point, size, view, true) else { return Ok(None) };
        let mut encoder =
            gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("egui::check") });
        let screen = egui_wgpu::ScreenDescriptor { size_in_pixels: size, pixels_per_point: ui.pixels_per_point };
        let extra = self.renderer.update_buffers(&gpu.device, &gpu.queue, &mut encoder, &split.jobs, &screen);
        split.show(true);
        {
            let mut pass = ui_pass(&mut encoder, fresh.view(), wgpu::LoadOp::Load, "egui::check");
            self.renderer.render(&mut pass, &split.jobs, &screen);
        }
        let kept_copy = crate::gpu::readback::copy_texture(gpu, &mut encoder, kept.texture());
        let fresh_copy = crate::gpu::readback::copy_texture(gpu, &mut encoder, fresh.texture());
        gpu.queue.submit(extra.into_iter().chain([encoder.finish()]));
        let (kept_pixels, fresh_pixels) = (kept_copy.read(gpu)?, fresh_copy.read(gpu)?);
        let width = size[0] as usize;
        let differing = ui_cache::around(view, size)
            .iter()
            .flat_map(|band| {
                (band.y..band.y + band.height).flat_map(move |y| (band.x..band.x + band.width).map(move |x| (x, y)))
            })
            .filter(|&(x, y)| {
                let at = (y as usize * width + x as usize) * 4;
                kept_pixels[at..at + 4] != fresh_pixels[at..at + 4]
            })
            .count();
        Ok(Some(differing as u64))
    }

    /// Sends egui's texture changes to its renderer; whether any texture was set (its pixels may show in
    /// meshes that did not change).
    fn upload_textures(&mut self, gpu: &GpuContext, ui: &PaintedUi) -> bool {
        for (id, deltas) in &ui.textures_delta.set {
            for delta in deltas {
                self.renderer.update_texture(&gpu.device, &gpu.queue, *id, delta);
            }
        }
        !ui.textures_delta.set.is_empty()
    }

    /// Paints every mesh of the frame into `surface_view` (the kept picture, if any, is then stale).
    fn paint_whole(
        &mut self,
        gpu: &GpuContext,
        encoder: &mut wgpu::CommandEncoder,
        surface_view: Option<&wgpu::TextureView>,
        size_in_pixels: [u32; 2],
        ui: &PaintedUi,
        clear: bool,
    ) -> Vec<wgpu::CommandBuffer> {
        if let Some(cache) = &mut self.cache {
            cache.invalidate();
        }
        let screen = egui_wgpu::ScreenDescriptor { size_in_pixels, pixels_per_point: ui.pixels_per_point };
        let extra = self.renderer.update_buffers(&gpu.device, &gpu.queue, encoder, &ui.jobs, &screen);
        if let Some(view) = surface_view {
            // Not cleared over a 3D view drawn into the surface before.
            let load = if clear { wgpu::LoadOp::Clear(wgpu::Color::BLACK) } else { wgpu::LoadOp::Load };
            let mut pass = ui_pass(encoder, view, load, "egui::pass");
            self.renderer.render(&mut pass, &ui.jobs, &screen);
        }
        extra
    }

    /// Frees the textures egui let go of this frame (after its commands were submitted).
    pub fn free_textures(&mut self, ui: &PaintedUi) {
        for id in &ui.textures_delta.free {
            self.renderer.free_texture(id);
        }
    }
}

/// A render pass of egui's into `view`.
fn ui_pass(
    encoder: &mut wgpu::CommandEncoder,
    view: &wgpu::TextureView,
    load: wgpu::LoadOp<wgpu::Color>,
    label: &'static str,
) -> wgpu::RenderPass<'static> {
    encoder
        .begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some(label),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load, store: wgpu::StoreOp::Store },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        })
        .forget_lifetime()
}

/// egui's winit state for `ctx` on `window`, with the device's texture size limit.
fn state_for(ctx: &egui::Context, window: &Window, device: &wgpu::Device) -> egui_winit::State {
    egui_winit::State::new(
        ctx.clone(),
        egui::ViewportId::ROOT,
        window,
        Some(window.scale_factor() as f32),
        window.theme(),
        Some(device.limits().max_texture_dimension_2d as usize),
    )
}
