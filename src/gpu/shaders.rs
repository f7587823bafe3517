//! The WGSL sources, embedded in the binary; the validation test reads the same table.

/// `(file name, source)` of every shader in `shaders/`.
pub const SHADERS: &[(&str, &str)] =
    &[("skin_morph.wgsl", SKIN_MORPH), ("humanoid.wgsl", HUMANOID), ("lines.wgsl", LINES)];

pub const SKIN_MORPH: &str = include_str!("../../shaders/skin_morph.wgsl");
/// The humanoid render pass (`render_pass.rs`).
pub const HUMANOID: &str = include_str!("../../shaders/humanoid.wgsl");
/// The overlay lines (`overlay.rs`).
pub const LINES: &str = include_str!("../../shaders/lines.wgsl");

/// Creates a shader module inside a validation error scope, so a broken shader is an error, not a panic.
pub fn create_module(device: &wgpu::Device, label: &str, source: &str) -> Result<wgpu::ShaderModule, super::GpuError> {
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    match pollster::block_on(scope.pop()) {
        Some(error) => Err(super::GpuError::Validation { context: label.to_string(), message: error.to_string() }),
        None => Ok(module),
    }
}
