//! Offscreen render target: a resolved colour texture (`Rgba8UnormSrgb`), its 4× multisampled twin and a
//! multisampled depth buffer, plus the RGBA8 read-back that strips wgpu's row padding.
//!
//! Headless images render into one of these; the window's 3D view is one too (`app::viewport` wraps it
//! with a view egui can sample), so both go through the same passes.

use super::context::GpuContext;
use super::error::{CreationScope, GpuError};
use super::readback;

/// The formats and sample count a pass renders with; pipelines are built for one of these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TargetFormats {
    pub color: wgpu::TextureFormat,
    pub depth: wgpu::TextureFormat,
    pub sample_count: u32,
}

impl TargetFormats {
    /// What headless rendering (and the PNG writer) uses: sRGB RGBA8, 32-bit depth, 4× MSAA (4 samples
    /// are guaranteed for these formats by WebGPU).
    pub const HEADLESS: TargetFormats = TargetFormats {
        color: wgpu::TextureFormat::Rgba8UnormSrgb,
        depth: wgpu::TextureFormat::Depth32Float,
        sample_count: 4,
    };
}

/// The views a scene pass draws into: `color` (multisampled when `resolve` is given), the single-sample
/// `resolve` target, and `depth`. The window fills this from its surface texture, headless from a
/// [`RenderTarget`].
#[derive(Debug, Clone, Copy)]
pub struct FrameViews<'a> {
    pub color: &'a wgpu::TextureView,
    pub resolve: Option<&'a wgpu::TextureView>,
    pub depth: &'a wgpu::TextureView,
    /// The part of the attachments the scene is drawn into (the window's 3D view inside its surface);
    /// `None`: all of them.
    pub region: Option<PixelRect>,
}

/// A rectangle of pixels: `x, y` from the top-left corner, `width × height`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PixelRect {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

/// An offscreen colour + MSAA + depth target of a fixed size.
pub struct RenderTarget {
    pub width: u32,
    pub height: u32,
    pub formats: TargetFormats,
    /// The resolved, single-sample image (RENDER_ATTACHMENT | COPY_SRC | TEXTURE_BINDING).
    pub color: wgpu::Texture,
    pub color_view: wgpu::TextureView,
    /// The multisampled colour attachment (absent when `sample_count == 1`).
    pub msaa_view: Option<wgpu::TextureView>,
    pub depth_view: wgpu::TextureView,
}

impl RenderTarget {
    /// Creates the textures; fails with a clear message for a size the device cannot hold.
    pub fn new(ctx: &GpuContext, width: u32, height: u32, formats: TargetFormats) -> Result<Self, GpuError> {
        let limit = ctx.device.limits().max_texture_dimension_2d;
        if width == 0 || height == 0 || width > limit || height > limit {
            return Err(GpuError::Validation {
                context: "render_target::new".into(),
                message: format!("a {width}x{height} image does not fit this adapter (1 to {limit} pixels per side)"),
            });
        }
        let size = wgpu::Extent3d { width, height, depth_or_array_layers: 1 };
        let scope = CreationScope::push(&ctx.device, "render_target::new");
        let texture = |label: &str, format, sample_count, usage, view_formats: &[wgpu::TextureFormat]| {
            ctx.device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size,
                mip_level_count: 1,
                sample_count,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats,
            })
        };
        let color = texture(
            "render_target::color",
            formats.color,
            1,
            wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::COPY_SRC
                | wgpu::TextureUsages::TEXTURE_BINDING,
            // Also viewable without sRGB decoding, as egui samples its user textures (the window's view).
            &[linear_twin(formats.color)],
        );
        let msaa = (formats.sample_count > 1).then(|| {
            texture(
                "render_target::msaa_color",
                formats.color,
                formats.sample_count,
                wgpu::TextureUsages::RENDER_ATTACHMENT,
                &[],
            )
        });
        let depth = texture(
            "render_target::depth",
            formats.depth,
            formats.sample_count,
            wgpu::TextureUsages::RENDER_ATTACHMENT,
            &[],
        );
        let view = |t: &wgpu::Texture| t.create_view(&wgpu::TextureViewDescriptor::default());
        let target = Self {
            width,
            height,
            formats,
            color_view: view(&color),
            msaa_view: msaa.as_ref().map(view),
            depth_view: view(&depth),
            color,
        };
        scope.finish()?;
        Ok(target)
    }

    /// The views to draw into: the MSAA texture resolving into the colour texture.
    pub fn views(&self) -> FrameViews<'_> {
        match &self.msaa_view {
            Some(msaa) => {
                FrameViews { color: msaa, resolve: Some(&self.color_view), depth: &self.depth_view, region: None }
            }
            None => FrameViews { color: &self.color_view, resolve: None, depth: &self.depth_view, region: None },
        }
    }

    /// Copies the resolved image to the CPU as RGBA (a BGRA target's bytes are swapped): `width·height·4`
    /// bytes, rows top to bottom, no padding.
    /// Submits its own copy, so call it after the frame's commands were submitted.
    pub fn read_rgba8(&self, ctx: &GpuContext) -> Result<Vec<u8>, GpuError> {
        let padded = padded_bytes_per_row(self.width);
        let staging = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("render_target::readback"),
            size: u64::from(padded) * u64::from(self.height),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder =
            ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("render_target::copy") });
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
        let mut rgba = strip_row_padding(&data, self.width, self.height, padded);
        if matches!(self.formats.color, wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb) {
            for pixel in rgba.chunks_exact_mut(4) {
                pixel.swap(0, 2);
            }
        }
        Ok(rgba)
    }
}

/// The same texel layout without sRGB encoding (`Rgba8UnormSrgb` → `Rgba8Unorm`); other formats as they are.
pub fn linear_twin(format: wgpu::TextureFormat) -> wgpu::TextureFormat {
    format.remove_srgb_suffix()
}

/// Bytes per row of an RGBA8 image of `width` pixels, rounded up to wgpu's 256-byte copy alignment.
pub fn padded_bytes_per_row(width: u32) -> u32 {
    (width * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
}

/// Drops the padding at the end of each of `height` rows of `padded` bytes, keeping `width·4` bytes of
/// each. Rows missing from a short `data` are left out.
pub fn strip_row_padding(data: &[u8], width: u32, height: u32, padded: u32) -> Vec<u8> {
    let row = (width * 4) as usize;
    let mut out = Vec::with_capacity(row * height as usize);
    for chunk in data.chunks(padded as usize).take(height as usize) {
        out.extend_from_slice(&chunk[..row.min(chunk.len())]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_padded_to_256_bytes() {
        assert_eq!(padded_bytes_per_row(64), 256);
        assert_eq!(padded_bytes_per_row(65), 512);
        assert_eq!(padded_bytes_per_row(1), 256);
        assert_eq!(padded_bytes_per_row(1280), 5120);
    }

    #[test]
    fn padding_is_stripped_row_by_row() {
        // 3 pixels wide (12 bytes) padded to 256, 2 rows.
        let mut data = vec![0xEEu8; 512];
        for (r, row) in data.chunks_mut(256).enumerate() {
            for (i, b) in row[..12].iter_mut().enumerate() {
                *b = (r * 100 + i) as u8;
            }
        }
        let out = strip_row_padding(&data, 3, 2, 256);
        assert_eq!(out.len(), 24);
        assert_eq!(&out[..12], &(0u8..12).collect::<Vec<_>>()[..]);
        assert_eq!(&out[12..], &(100u8..112).collect::<Vec<_>>()[..]);
    }
}
