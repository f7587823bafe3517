//! The window's 3D view: a [`RenderTarget`] the scene passes draw into (the same passes headless uses),
//! shown by egui as a native texture and read back for screenshots. The colour texture is
//! `Rgba8UnormSrgb` (the passes' format), shown to egui through an `Rgba8Unorm` view, the gamma-space
//! format egui samples user textures in.

use crate::gpu::target::{FrameViews, PixelRect, RenderTarget, TargetFormats, linear_twin};
use crate::gpu::{GpuContext, GpuError};

pub struct ViewportTarget {
    target: RenderTarget,
    /// The same texels without sRGB decoding, for egui.
    egui_view: wgpu::TextureView,
}

impl ViewportTarget {
    /// The window's formats: headless's, with 4× MSAA on hardware and none on a CPU adapter (lavapipe
    /// spends most of a frame on the extra samples); `HANIM_VIEWER_MSAA=1|4` overrides.
    pub fn formats_for(adapter: &wgpu::AdapterInfo) -> TargetFormats {
        let default = if adapter.device_type == wgpu::DeviceType::Cpu { 1 } else { 4 };
        let sample_count = match std::env::var("HANIM_VIEWER_MSAA").ok().and_then(|v| v.trim().parse::<u32>().ok()) {
            Some(n @ (1 | 4)) => n,
            _ => default,
        };
        TargetFormats { sample_count, ..TargetFormats::HEADLESS }
    }

    /// A target of `width × height` pixels; an error for a size the adapter cannot hold.
    pub fn new(ctx: &GpuContext, formats: TargetFormats, width: u32, height: u32) -> Result<Self, GpuError> {
        let target = RenderTarget::new(ctx, width, height, formats)?;
        let egui_view = target.color.create_view(&wgpu::TextureViewDescriptor {
            label: Some("viewport::egui_view"),
            format: Some(linear_twin(formats.color)),
            ..Default::default()
        });
        Ok(Self { target, egui_view })
    }

    pub fn width(&self) -> u32 {
        self.target.width
    }

    pub fn height(&self) -> u32 {
        self.target.height
    }

    pub fn views(&self) -> FrameViews<'_> {
        self.target.views()
    }

    pub fn egui_view(&self) -> &wgpu::TextureView {
        &self.egui_view
    }

    /// RGBA8 (sRGB-encoded) pixels of the last frame, rows top to bottom. Call after the frame was submitted.
    pub fn read_rgba8(&self, ctx: &GpuContext) -> Result<Vec<u8>, GpuError> {
        self.target.read_rgba8(ctx)
    }
}

/// The attachments the 3D view needs besides the surface texture when it is drawn straight into the
/// surface: depth and, with MSAA, the multisampled colour that resolves into the surface — each the size
/// of the surface (attachments of a pass share one size).
pub struct SurfaceAttachments {
    pub width: u32,
    pub height: u32,
    depth: wgpu::TextureView,
    msaa: Option<wgpu::TextureView>,
}

impl SurfaceAttachments {
    pub fn new(ctx: &GpuContext, formats: TargetFormats, width: u32, height: u32) -> Result<Self, GpuError> {
        let scope = crate::gpu::error::CreationScope::push(&ctx.device, "viewport::surface_attachments");
        let texture = |label: &str, format| {
            ctx.device
                .create_texture(&wgpu::TextureDescriptor {
                    label: Some(label),
                    size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
                    mip_level_count: 1,
                    sample_count: formats.sample_count,
                    dimension: wgpu::TextureDimension::D2,
                    format,
                    usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                    view_formats: &[],
                })
                .create_view(&wgpu::TextureViewDescriptor::default())
        };
        let depth = texture("viewport::surface_depth", formats.depth);
        let msaa = (formats.sample_count > 1).then(|| texture("viewport::surface_msaa", formats.color));
        scope.finish()?;
        Ok(Self { width, height, depth, msaa })
    }

    /// The views of a pass drawing into `region` of `surface` (an sRGB view of the surface texture).
    pub fn views<'a>(&'a self, surface: &'a wgpu::TextureView, region: PixelRect) -> FrameViews<'a> {
        match &self.msaa {
            Some(msaa) => FrameViews { color: msaa, resolve: Some(surface), depth: &self.depth, region: Some(region) },
            None => FrameViews { color: surface, resolve: None, depth: &self.depth, region: Some(region) },
        }
    }
}
