//! Surface policy (as egui-wgpu's): what to do with each `CurrentSurfaceTexture` state.

/// What a frame does when the surface does not hand out a texture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SurfaceAction {
    /// Draw into the texture (a suboptimal one is still drawn, and the surface reconfigured after).
    Draw { reconfigure_after: bool },
    /// Reconfigure and try again next frame (`Outdated`: resized, scale changed).
    Reconfigure,
    /// Create a new surface from the instance (`Lost`).
    Recreate,
    /// Skip this frame (`Occluded`, `Timeout`, validation).
    Skip,
}

pub fn action_for(state: &wgpu::CurrentSurfaceTexture) -> SurfaceAction {
    match state {
        wgpu::CurrentSurfaceTexture::Success(_) => SurfaceAction::Draw { reconfigure_after: false },
        wgpu::CurrentSurfaceTexture::Suboptimal(_) => SurfaceAction::Draw { reconfigure_after: true },
        wgpu::CurrentSurfaceTexture::Outdated => SurfaceAction::Reconfigure,
        wgpu::CurrentSurfaceTexture::Lost => SurfaceAction::Recreate,
        _ => SurfaceAction::Skip,
    }
}

/// The surface format egui draws best into: a non-sRGB 8-bit format when offered (egui blends in gamma
/// space), else the first one.
pub fn pick_format(formats: &[wgpu::TextureFormat]) -> Option<wgpu::TextureFormat> {
    formats
        .iter()
        .copied()
        .find(|f| matches!(f, wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Rgba8Unorm))
        .or_else(|| formats.first().copied())
}
