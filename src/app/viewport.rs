//! The window's 3D view: an offscreen colour + MSAA + depth target the scene passes draw into
//! ([`FrameViews`], the same passes headless uses), shown by egui as a native texture and read back for
//! screenshots. The colour texture is `Rgba8UnormSrgb` (the passes' format) and also viewable as
//! `Rgba8Unorm`, the gamma-space format egui samples user textures in.

use crate::gpu::target::{FrameViews, TargetFormats, padded_bytes_per_row, strip_row_padding};
use crate::gpu::{GpuContext, GpuError, readback};

pub struct ViewportTarget {
    pub formats: TargetFormats,
    pub width: u32,
    pub height: u32,
    color: wgpu::Texture,
    color_view: wgpu::TextureView,
    /// The same texels as `Rgba8Unorm`, for egui.
    egui_view: wgpu::TextureView,
    msaa_view: Option<wgpu::TextureView>,
    depth_view: wgpu::TextureView,
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

    pub fn new(device: &wgpu::Device, formats: TargetFormats, width: u32, height: u32) -> Self {
        let limit = device.limits().max_texture_dimension_2d;
        let (width, height) = (width.clamp(1, limit), height.clamp(1, limit));
        let size = wgpu::Extent3d { width, height, depth_or_array_layers: 1 };
        let texture = |label: &str, format, samples, usage, view_formats: &[wgpu::TextureFormat]| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size,
                mip_level_count: 1,
                sample_count: samples,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats,
            })
        };
        let color = texture(
            "viewport::color",
            formats.color,
            1,
            wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::TEXTURE_BINDING
                | wgpu::TextureUsages::COPY_SRC,
            &[wgpu::TextureFormat::Rgba8Unorm],
        );
        let msaa = (formats.sample_count > 1).then(|| {
            texture("viewport::msaa", formats.color, formats.sample_count, wgpu::TextureUsages::RENDER_ATTACHMENT, &[])
        });
        let depth = texture(
            "viewport::depth",
            formats.depth,
            formats.sample_count,
            wgpu::TextureUsages::RENDER_ATTACHMENT,
            &[],
        );
        let view = |t: &wgpu::Texture| t.create_view(&wgpu::TextureViewDescriptor::default());
        let egui_view = color.create_view(&wgpu::TextureViewDescriptor {
            label: Some("viewport::egui_view"),
            format: Some(wgpu::TextureFormat::Rgba8Unorm),
            ..Default::default()
        });
        Self {
            formats,
            width,
            height,
            color_view: view(&color),
            egui_view,
            msaa_view: msaa.as_ref().map(view),
            depth_view: view(&depth),
            color,
        }
    }

    pub fn views(&self) -> FrameViews<'_> {
        match &self.msaa_view {
            Some(msaa) => FrameViews { color: msaa, resolve: Some(&self.color_view), depth: &self.depth_view },
            None => FrameViews { color: &self.color_view, resolve: None, depth: &self.depth_view },
        }
    }

    pub fn egui_view(&self) -> &wgpu::TextureView {
        &self.egui_view
    }

    /// RGBA8 (sRGB-encoded) pixels of the last frame, rows top to bottom. Call after the frame was submitted.
    pub fn read_rgba8(&self, ctx: &GpuContext) -> Result<Vec<u8>, GpuError> {
        let padded = padded_bytes_per_row(self.width);
        let staging = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("viewport::readback"),
            size: u64::from(padded) * u64::from(self.height),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder =
            ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("viewport::copy") });
        encoder.copy_texture_to_buffer(
            self.color.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &staging,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(padded),
                    rows_per_image: Some(self.height),
                },
            },
            wgpu::Extent3d { width: self.width, height: self.height, depth_or_array_layers: 1 },
        );
        ctx.queue.submit([encoder.finish()]);
        let data: Vec<u8> = readback::map_and_read(ctx, &staging)?;
        Ok(strip_row_padding(&data, self.width, self.height, padded))
    }
}
