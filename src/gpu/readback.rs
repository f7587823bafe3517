//! Copies GPU buffers back to the CPU: for tests, `check` and benchmarks, never in the frame loop.

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
