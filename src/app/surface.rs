//! The window's surface: the window and its wgpu surface ([`WindowSurface`]), and the policy (as egui-wgpu's)
//! for each `CurrentSurfaceTexture` state.

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

/// The window and the surface it presents through, with the configuration both share.
pub struct WindowSurface {
    pub window: std::sync::Arc<winit::window::Window>,
    pub surface: wgpu::Surface<'static>,
    pub config: wgpu::SurfaceConfiguration,
    /// The window is minimised (zero size): nothing is drawn.
    pub minimized: bool,
    /// The surface asked to be reconfigured after this frame (a suboptimal texture was drawn).
    pub reconfigure: bool,
}

impl WindowSurface {
    /// Configures `surface` for `window` on `gpu`'s device, in the format egui draws best into.
    pub fn new(
        window: std::sync::Arc<winit::window::Window>,
        surface: wgpu::Surface<'static>,
        gpu: &crate::gpu::GpuContext,
    ) -> anyhow::Result<Self> {
        let (format, caps) = surface_format(&surface, gpu)?;
        let size = window.inner_size();
        // Copyable where the surface allows it, for pictures of the whole window (`window-screenshot`);
        // a copy destination for the UI's kept picture (`viewer::ui_cache`).
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT
            | (caps.usages & (wgpu::TextureUsages::COPY_SRC | wgpu::TextureUsages::COPY_DST));
        let config = wgpu::SurfaceConfiguration {
            usage,
            format,
            width: size.width.max(1),
            height: size.height.max(1),
            present_mode: wgpu::PresentMode::AutoVsync,
            desired_maximum_frame_latency: 2,
            alpha_mode: caps.alpha_modes.first().copied().unwrap_or(wgpu::CompositeAlphaMode::Auto),
            view_formats: direct_view_format(gpu, format).into_iter().collect(),
            color_space: wgpu::SurfaceColorSpace::Auto,
        };
        surface.configure(&gpu.device, &config);
        Ok(Self { window, surface, config, minimized: false, reconfigure: false })
    }

    pub fn format(&self) -> wgpu::TextureFormat {
        self.config.format
    }

    /// The sRGB view of the surface's textures the 3D view is drawn through, when the surface has one
    /// (see [`direct_view_format`]).
    pub fn srgb_view_format(&self) -> Option<wgpu::TextureFormat> {
        self.config.view_formats.first().copied()
    }

    /// Follows a window resize (a zero size minimises: nothing is drawn until it comes back).
    pub fn resize(&mut self, device: &wgpu::Device, size: winit::dpi::PhysicalSize<u32>) {
        self.minimized = size.width == 0 || size.height == 0;
        if !self.minimized {
            self.config.width = size.width;
            self.config.height = size.height;
            self.surface.configure(device, &self.config);
        }
    }

    /// Moves the surface to a new device (after a device loss), in the format that device presents in.
    pub fn reconfigure_for(&mut self, gpu: &crate::gpu::GpuContext) -> anyhow::Result<()> {
        let (format, _) = surface_format(&self.surface, gpu)?;
        self.config.format = format;
        self.config.view_formats = direct_view_format(gpu, format).into_iter().collect();
        self.surface.configure(&gpu.device, &self.config);
        Ok(())
    }

    /// The texture to draw this frame into, or `None` when the frame is skipped (the surface is then
    /// reconfigured or recreated as its state asks).
    pub fn acquire(&mut self, gpu: &crate::gpu::GpuContext) -> Option<wgpu::SurfaceTexture> {
        let state = self.surface.get_current_texture();
        match action_for(&state) {
            SurfaceAction::Draw { reconfigure_after } => {
                self.reconfigure |= reconfigure_after;
                match state {
                    wgpu::CurrentSurfaceTexture::Success(f) | wgpu::CurrentSurfaceTexture::Suboptimal(f) => Some(f),
                    _ => None,
                }
            }
            SurfaceAction::Reconfigure => {
                self.surface.configure(&gpu.device, &self.config);
                None
            }
            SurfaceAction::Recreate => {
                self.recreate(gpu);
                None
            }
            SurfaceAction::Skip => None,
        }
    }

    /// Reconfigures after a frame that drew into a suboptimal texture.
    pub fn end_frame(&mut self, device: &wgpu::Device) {
        if self.reconfigure {
            self.reconfigure = false;
            self.surface.configure(device, &self.config);
        }
    }

    /// A new surface from the instance (the old one was lost).
    fn recreate(&mut self, gpu: &crate::gpu::GpuContext) {
        match gpu.instance.create_surface(std::sync::Arc::clone(&self.window)) {
            Ok(surface) => {
                self.surface = surface;
                self.surface.configure(&gpu.device, &self.config);
            }
            Err(e) => log::error!("could not recreate the window surface: {e}"),
        }
    }
}

/// The sRGB twin of the surface's `format` (egui draws through the plain view, the 3D view through this
/// one, straight into the surface), when the adapter can view surface textures in another format and the
/// format has a twin; `HANIM_VIEWER_DIRECT=0` turns it off (the 3D view then goes through its own texture).
pub fn direct_view_format(gpu: &crate::gpu::GpuContext, format: wgpu::TextureFormat) -> Option<wgpu::TextureFormat> {
    let off = std::env::var("HANIM_VIEWER_DIRECT").is_ok_and(|v| v.trim() == "0");
    let supported = gpu.adapter.get_downlevel_capabilities().flags.contains(wgpu::DownlevelFlags::SURFACE_VIEW_FORMATS);
    let srgb = format.add_srgb_suffix();
    (!off && supported && srgb != format).then_some(srgb)
}

/// The surface format the window presents in on `gpu`'s adapter, and the surface's capabilities there.
fn surface_format(
    surface: &wgpu::Surface,
    gpu: &crate::gpu::GpuContext,
) -> anyhow::Result<(wgpu::TextureFormat, wgpu::SurfaceCapabilities)> {
    let caps = surface.get_capabilities(&gpu.adapter);
    let format = pick_format(&caps.formats)
        .ok_or_else(|| anyhow::anyhow!("the adapter {} cannot present to this window", gpu.summary.name))?;
    Ok((format, caps))
}
