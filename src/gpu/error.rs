//! GPU errors, reported with what was being done; never a wgpu validation panic.

#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    #[error("no GPU adapter found{0}")]
    NoAdapter(String),
    #[error("the GPU device could not be created on '{adapter}': {source}")]
    RequestDevice { adapter: String, source: wgpu::RequestDeviceError },
    #[error("{what} needs {needed} bytes in one buffer; this adapter allows {limit} (max_storage_buffer_binding_size)")]
    TooLarge { what: String, needed: u64, limit: u64 },
    #[error("GPU validation error in {context}: {message}")]
    Validation { context: String, message: String },
    #[error("GPU read-back failed: {0}")]
    Readback(String),
    #[error("the GPU device was lost: {0}")]
    DeviceLost(String),
}
