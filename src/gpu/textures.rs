//! ImageTexture images on the GPU: decoded by [`crate::mesh::texture_image`], uploaded once per
//! ImageTexture node (files share one node through USE), with a sampler following repeatS/repeatT. An
//! image that cannot be had is a warning and the shapes using it draw untextured.

use std::collections::HashMap;

use super::error::CreationScope;
use crate::mesh::TextureRef;
use crate::mesh::texture_image::{DecodedImage, decode_texture};
use crate::x3d::NodeId;

/// One uploaded texture.
pub struct GpuTexture {
    pub view: wgpu::TextureView,
    pub sampler: wgpu::Sampler,
    pub intensity: bool,
    pub has_alpha: bool,
}

/// Uploaded textures by ImageTexture node, plus the 1×1 white texture untextured shapes bind.
pub struct TextureCache {
    loaded: HashMap<NodeId, Option<GpuTexture>>,
    pub white: GpuTexture,
    /// One line per texture that could not be loaded.
    pub warnings: Vec<String>,
}

fn upload(device: &wgpu::Device, queue: &wgpu::Queue, image: &DecodedImage, repeat: [bool; 2]) -> GpuTexture {
    let size = wgpu::Extent3d { width: image.width, height: image.height, depth_or_array_layers: 1 };
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("textures::image"),
        size,
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8UnormSrgb,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    queue.write_texture(
        wgpu::TexelCopyTextureInfo {
            texture: &texture,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        &image.rgba,
        wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(4 * image.width), rows_per_image: None },
        size,
    );
    let address = |repeat: bool| if repeat { wgpu::AddressMode::Repeat } else { wgpu::AddressMode::ClampToEdge };
    let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
        label: Some("textures::sampler"),
        address_mode_u: address(repeat[0]),
        address_mode_v: address(repeat[1]),
        mag_filter: wgpu::FilterMode::Linear,
        min_filter: wgpu::FilterMode::Linear,
        ..Default::default()
    });
    GpuTexture {
        view: texture.create_view(&wgpu::TextureViewDescriptor::default()),
        sampler,
        intensity: image.intensity,
        has_alpha: image.has_alpha,
    }
}

impl TextureCache {
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        let white = DecodedImage { width: 1, height: 1, rgba: vec![255; 4], intensity: false, has_alpha: false };
        Self { loaded: HashMap::new(), white: upload(device, queue, &white, [true, true]), warnings: Vec::new() }
    }

    /// Loads `texture` once (later calls for the same node return the same result); `None` with a
    /// warning when no url gives an image.
    pub fn load(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, texture: &TextureRef) -> Option<&GpuTexture> {
        if !self.loaded.contains_key(&texture.node) {
            let uploaded = match decode_texture(texture) {
                Ok((image, path)) => {
                    log::info!("texture {}: {}x{} from {}", texture.node.0, image.width, image.height, path.display());
                    // A texture the GPU cannot hold is drawn without, like one that cannot be read.
                    let scope = CreationScope::push(device, "uploading a texture");
                    let uploaded = upload(device, queue, &image, [texture.repeat_s, texture.repeat_t]);
                    match scope.finish() {
                        Ok(()) => Some(uploaded),
                        Err(e) => {
                            let message = format!("ImageTexture {}: drawn untextured ({e})", path.display());
                            log::warn!("{message}");
                            self.warnings.push(message);
                            None
                        }
                    }
                }
                Err(e) => {
                    let message =
                        format!("ImageTexture url {:?}: no image could be read, drawn untextured ({e})", texture.urls);
                    log::warn!("{message}");
                    self.warnings.push(message);
                    None
                }
            };
            self.loaded.insert(texture.node, uploaded);
        }
        self.loaded.get(&texture.node).and_then(Option::as_ref)
    }

    /// The texture loaded for `texture` (after [`Self::load`]), if it could be read.
    pub fn get(&self, texture: &TextureRef) -> Option<&GpuTexture> {
        self.loaded.get(&texture.node).and_then(Option::as_ref)
    }
}
