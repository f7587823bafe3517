//! ImageTexture images on the GPU: decoded by [`crate::mesh::texture_image`], uploaded once per
//! ImageTexture node (files share one node through USE), with its mipmap chain and a sampler as its
//! TextureProperties or repeatS/repeatT say ([`TextureSampling`]). An
//! image that cannot be had is a warning and the shapes using it draw untextured.

use std::collections::HashMap;

use super::error::CreationScope;
use crate::mesh::TextureRef;
use crate::mesh::texture_image::{DecodedImage, decode_texture};
use crate::mesh::texture_sampling::{Filter, TextureSampling, Wrap};
use crate::x3d::NodeId;

/// One uploaded texture.
pub struct GpuTexture {
    pub view: wgpu::TextureView,
    pub sampler: wgpu::Sampler,
    pub intensity: bool,
    pub has_alpha: bool,
}

/// How a texture's texels are to be read. Colour maps (base, emissive) hold sRGB-encoded colours and are
/// sampled as linear light; data maps (normal, metallic-roughness, occlusion) hold linear values and are
/// sampled as they are (glTF 2.0 3.9.4 and 3.9.5, which X3D 4.0's PhysicalMaterial follows).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TexelEncoding {
    Srgb,
    Linear,
}

/// Uploaded textures by ImageTexture node and encoding, plus the 1×1 white texture untextured shapes bind.
pub struct TextureCache {
    loaded: HashMap<(NodeId, TexelEncoding), Option<GpuTexture>>,
    pub white: GpuTexture,
    /// One line per texture that could not be loaded.
    /// What could not be loaded, with the ImageTexture node it was for.
    pub warnings: Vec<(crate::x3d::NodeId, String)>,
}

fn address_mode(wrap: Wrap) -> wgpu::AddressMode {
    match wrap {
        Wrap::Repeat => wgpu::AddressMode::Repeat,
        Wrap::Clamp => wgpu::AddressMode::ClampToEdge,
        Wrap::Mirror => wgpu::AddressMode::MirrorRepeat,
    }
}

fn filter_mode(filter: Filter) -> wgpu::FilterMode {
    match filter {
        Filter::Nearest => wgpu::FilterMode::Nearest,
        Filter::Linear => wgpu::FilterMode::Linear,
    }
}

fn mipmap_filter_mode(filter: Filter) -> wgpu::MipmapFilterMode {
    match filter {
        Filter::Nearest => wgpu::MipmapFilterMode::Nearest,
        Filter::Linear => wgpu::MipmapFilterMode::Linear,
    }
}

/// The image and, when asked for, its mipmap chain down to 1×1: each level the previous one halved with
/// a triangle filter (the `image` crate's), in the image's own sRGB encoding as browsers build theirs.
fn mip_levels(image: &DecodedImage, mipmaps: bool) -> Vec<(u32, u32, Vec<u8>)> {
    let mut levels = vec![(image.width, image.height, image.rgba.clone())];
    if !mipmaps {
        return levels;
    }
    let Some(mut current) = image::RgbaImage::from_raw(image.width, image.height, image.rgba.clone()) else {
        return levels;
    };
    while current.width() > 1 || current.height() > 1 {
        let (w, h) = ((current.width() / 2).max(1), (current.height() / 2).max(1));
        current = image::imageops::resize(&current, w, h, image::imageops::FilterType::Triangle);
        levels.push((w, h, current.as_raw().clone()));
    }
    levels
}

fn upload(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    image: &DecodedImage,
    sampling: TextureSampling,
    encoding: TexelEncoding,
) -> GpuTexture {
    let levels = mip_levels(image, sampling.mipmaps.is_some());
    let size = wgpu::Extent3d { width: image.width, height: image.height, depth_or_array_layers: 1 };
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("textures::image"),
        size,
        mip_level_count: levels.len() as u32,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: match encoding {
            TexelEncoding::Srgb => wgpu::TextureFormat::Rgba8UnormSrgb,
            TexelEncoding::Linear => wgpu::TextureFormat::Rgba8Unorm,
        },
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    for (level, (width, height, rgba)) in levels.iter().enumerate() {
        queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &texture,
                mip_level: level as u32,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            rgba,
            wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(4 * width), rows_per_image: None },
            wgpu::Extent3d { width: *width, height: *height, depth_or_array_layers: 1 },
        );
    }
    let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
        label: Some("textures::sampler"),
        address_mode_u: address_mode(sampling.wrap[0]),
        address_mode_v: address_mode(sampling.wrap[1]),
        mag_filter: filter_mode(sampling.magnify),
        min_filter: filter_mode(sampling.minify),
        mipmap_filter: mipmap_filter_mode(sampling.mipmaps.unwrap_or(Filter::Nearest)),
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
        Self {
            loaded: HashMap::new(),
            white: upload(device, queue, &white, TextureSampling::default(), TexelEncoding::Srgb),
            warnings: Vec::new(),
        }
    }

    /// Loads `texture` as a colour map once (later calls for the same node return the same result);
    /// `None` with a warning when no url gives an image.
    pub fn load(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, texture: &TextureRef) -> Option<&GpuTexture> {
        self.load_as(device, queue, texture, TexelEncoding::Srgb)
    }

    /// Loads `texture` once per encoding.
    pub fn load_as(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        texture: &TextureRef,
        encoding: TexelEncoding,
    ) -> Option<&GpuTexture> {
        let key = (texture.node, encoding);
        if !self.loaded.contains_key(&key) {
            let uploaded = match decode_texture(texture) {
                Ok((image, path)) => {
                    log::info!("texture {}: {}x{} from {}", texture.node.0, image.width, image.height, path.display());
                    // A texture the GPU cannot hold is drawn without, like one that cannot be read.
                    let scope = CreationScope::push(device, "uploading a texture");
                    let uploaded = upload(device, queue, &image, texture.sampling, encoding);
                    match scope.finish() {
                        Ok(()) => Some(uploaded),
                        Err(e) => {
                            let message = format!("ImageTexture {}: drawn untextured ({e})", path.display());
                            log::warn!("{message}");
                            self.warnings.push((texture.node, message));
                            None
                        }
                    }
                }
                Err(e) => {
                    let message =
                        format!("ImageTexture url {:?}: no image could be read, drawn untextured ({e})", texture.urls);
                    log::warn!("{message}");
                    self.warnings.push((texture.node, message));
                    None
                }
            };
            self.loaded.insert(key, uploaded);
        }
        self.loaded.get(&key).and_then(Option::as_ref)
    }

    /// The texture loaded for `texture` as a colour map (after [`Self::load`]), if it could be read.
    pub fn get(&self, texture: &TextureRef) -> Option<&GpuTexture> {
        self.get_as(texture, TexelEncoding::Srgb)
    }

    /// The texture loaded for `texture` with `encoding` (after [`Self::load_as`]), if it could be read.
    pub fn get_as(&self, texture: &TextureRef, encoding: TexelEncoding) -> Option<&GpuTexture> {
        self.loaded.get(&(texture.node, encoding)).and_then(Option::as_ref)
    }
}
