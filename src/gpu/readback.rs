//! Copies GPU buffers and textures back to the CPU: for tests, `check`, benchmarks and pictures asked for
//! (screenshots, the kept UI picture's check), never as part of an ordinary frame.

use super::context::GpuContext;
use super::error::GpuError;

/// Reads the first `count` elements of `buffer` (which needs COPY_SRC) as `T`.
pub fn read_buffer<T: bytemuck::Pod>(
    ctx: &GpuContext,
    buffer: &wgpu::Buffer,
    count: usize,
) -> Result<Vec<T>, GpuError> {
    let size = (count * size_of::<T>()) as u64;
    if size == 0 {
        return Ok(Vec::new());
    }
    let staging = ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback::staging"),
        size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder =
        ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("readback::copy") });
    encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, size);
    ctx.queue.submit([encoder.finish()]);
    map_and_read(ctx, &staging)
}

/// Maps a MAP_READ buffer that a submitted copy has filled and returns its contents as `T`.
pub fn map_and_read<T: bytemuck::Pod>(ctx: &GpuContext, staging: &wgpu::Buffer) -> Result<Vec<T>, GpuError> {
    let (sender, receiver) = std::sync::mpsc::channel();
    staging.map_async(wgpu::MapMode::Read, .., move |result| {
        let _ = sender.send(result);
    });
    ctx.device
        .poll(wgpu::PollType::Wait { submission_index: None, timeout: None })
        .map_err(|e| GpuError::Readback(e.to_string()))?;
    receiver.recv().map_err(|e| GpuError::Readback(e.to_string()))?.map_err(|e| GpuError::Readback(e.to_string()))?;
    let data = {
        let view = staging.get_mapped_range(..).map_err(|e| GpuError::Readback(e.to_string()))?;
        bytemuck::pod_collect_to_vec(&view)
    };
    staging.unmap();
    ctx.check_health()?;
    Ok(data)
}

/// A texture's pixels (4 bytes each) on their way to the CPU: the kept UI picture's check, pictures of the
/// window.
pub struct TextureCopy {
    staging: wgpu::Buffer,
    width: u32,
    height: u32,
    padded: u32,
}

/// Records a copy of `texture` (4 bytes per pixel) into a buffer the CPU can read after submission.
pub fn copy_texture(gpu: &GpuContext, encoder: &mut wgpu::CommandEncoder, texture: &wgpu::Texture) -> TextureCopy {
    let (width, height) = (texture.width(), texture.height());
    let padded = crate::gpu::target::padded_bytes_per_row(width);
    let staging = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback::texture_copy"),
        size: u64::from(padded) * u64::from(height),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    encoder.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &staging,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded),
                rows_per_image: Some(height),
            },
        },
        wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
    );
    TextureCopy { staging, width, height, padded }
}

impl TextureCopy {
    /// Width and height in pixels.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// The pixels, rows without padding (after the copy's submission; waits for it).
    pub fn read(&self, gpu: &GpuContext) -> Result<Vec<u8>, GpuError> {
        let data = map_and_read::<u8>(gpu, &self.staging)?;
        Ok(crate::gpu::target::strip_row_padding(&data, self.width, self.height, self.padded))
    }
}
