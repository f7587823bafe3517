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
    #[error("the GPU ran out of memory in {context}: {message}")]
    OutOfMemory { context: String, message: String },
    #[error("GPU read-back failed: {0}")]
    Readback(String),
    #[error("the GPU device was lost: {0}")]
    DeviceLost(String),
}

/// Out-of-memory and validation error scopes around the creation of GPU objects, so that either kind of
/// failure comes back as an error naming what was being created (the caller keeps going: the window keeps
/// its previous humanoid), not as an uncaught error that breaks later frames.
pub struct CreationScope {
    context: &'static str,
    // Popped in the reverse order of pushing.
    validation: wgpu::ErrorScopeGuard,
    out_of_memory: wgpu::ErrorScopeGuard,
}

impl CreationScope {
    pub fn push(device: &wgpu::Device, context: &'static str) -> CreationScope {
        let out_of_memory = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = device.push_error_scope(wgpu::ErrorFilter::Validation);
        CreationScope { context, validation, out_of_memory }
    }

    /// Pops both scopes: the first error they caught, out of memory first.
    pub fn finish(self) -> Result<(), GpuError> {
        let validation = pollster::block_on(self.validation.pop());
        let out_of_memory = pollster::block_on(self.out_of_memory.pop());
        let context = self.context.to_string();
        match (out_of_memory, validation) {
            (Some(e), _) => Err(GpuError::OutOfMemory { context, message: e.to_string() }),
            (None, Some(e)) => Err(GpuError::Validation { context, message: e.to_string() }),
            (None, None) => Ok(()),
        }
    }
}
