//! The WGSL sources, embedded in the binary; the validation test reads the same tables. WGSL has no
//! include: a pass's module is its file after the files it shares (`frame.wgsl`, the frame uniform of
//! both render passes) and before those it draws on (`physical.wgsl`), joined here.

/// `(file name, text)` of every file in `shaders/`.
pub const SHADER_FILES: &[(&str, &str)] = &[
    ("frame.wgsl", include_str!("../../shaders/frame.wgsl")),
    ("skin_morph.wgsl", include_str!("../../shaders/skin_morph.wgsl")),
    ("humanoid.wgsl", include_str!("../../shaders/humanoid.wgsl")),
    ("physical.wgsl", include_str!("../../shaders/physical.wgsl")),
    ("lines.wgsl", include_str!("../../shaders/lines.wgsl")),
    ("background.wgsl", include_str!("../../shaders/background.wgsl")),
];

/// `(name, complete source)` of every shader module the program creates.
pub const SHADERS: &[(&str, &str)] = &[
    ("skin_morph.wgsl", SKIN_MORPH),
    ("humanoid.wgsl", HUMANOID),
    ("lines.wgsl", LINES),
    ("background.wgsl", BACKGROUND),
];

pub const SKIN_MORPH: &str = include_str!("../../shaders/skin_morph.wgsl");
/// The humanoid render pass (`render_pass.rs`), with PhysicalMaterial lighting (`physical.wgsl`).
pub const HUMANOID: &str = concat!(
    include_str!("../../shaders/frame.wgsl"),
    include_str!("../../shaders/humanoid.wgsl"),
    include_str!("../../shaders/physical.wgsl")
);
/// The overlay lines (`overlay.rs`).
pub const LINES: &str = concat!(include_str!("../../shaders/frame.wgsl"), include_str!("../../shaders/lines.wgsl"));

/// The Background dome, drawn first in the scene pass (`background.rs`).
pub const BACKGROUND: &str = include_str!("../../shaders/background.wgsl");

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
