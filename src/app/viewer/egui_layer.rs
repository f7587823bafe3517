//! The egui layer of the window: the context, its winit input state and its wgpu renderer, and the pass
//! that paints the panels (with the 3D view as one of their textures) into the surface texture.

use std::time::Instant;

use winit::window::Window;

use crate::gpu::GpuContext;

pub struct EguiLayer {
    pub ctx: egui::Context,
    pub state: egui_winit::State,
    pub renderer: egui_wgpu::Renderer,
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
        Self { ctx, state, renderer }
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
        for (id, deltas) in &ui.textures_delta.set {
            for delta in deltas {
                self.renderer.update_texture(&gpu.device, &gpu.queue, *id, delta);
            }
        }
        let screen = egui_wgpu::ScreenDescriptor { size_in_pixels, pixels_per_point: ui.pixels_per_point };
        let extra = self.renderer.update_buffers(&gpu.device, &gpu.queue, encoder, &ui.jobs, &screen);
        if let Some(view) = surface_view {
            let mut pass = encoder
                .begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("egui::pass"),
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            // Not cleared over a 3D view drawn into the surface before.
                            load: if clear { wgpu::LoadOp::Clear(wgpu::Color::BLACK) } else { wgpu::LoadOp::Load },
                            store: wgpu::StoreOp::Store,
                        },
                    })],
                    depth_stencil_attachment: None,
                    timestamp_writes: None,
                    occlusion_query_set: None,
                    multiview_mask: None,
                })
                .forget_lifetime();
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
