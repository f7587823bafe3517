//! ImageTexture images on the GPU: decoded with the `image` crate (PNG, JPEG, GIF), uploaded once per
//! ImageTexture node (files share one node through USE), with a sampler following repeatS/repeatT.
//! The `url` list is tried in order, local files only; an image that cannot be had is a warning and the
//! shapes using it draw untextured.

use std::collections::HashMap;
use std::path::Path;

use super::error::CreationScope;
use crate::mesh::TextureRef;
use crate::x3d::NodeId;

/// Largest texture side uploaded; bigger images are scaled down (the adapter's limit may be lower).
const MAX_TEXTURE_SIDE: u32 = 4096;

/// A decoded image, RGBA8 in sRGB, rows top to bottom.
#[derive(Debug, Clone, PartialEq)]
pub struct DecodedImage {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
    /// One- or two-channel (intensity) images modulate the material colour; colour images replace it
    /// (X3D lighting, ISO/IEC 19775-1, 17.2.2.4).
    pub intensity: bool,
    /// Some pixel is not fully opaque: shapes using it are drawn blended.
    pub has_alpha: bool,
}

/// Decodes the first readable image of `texture`'s url list; the error lists what was tried.
pub fn decode_texture(texture: &TextureRef) -> Result<(DecodedImage, std::path::PathBuf), String> {
    let candidates = texture.local_candidates();
    let mut tried = Vec::new();
    for path in &candidates {
        match decode_file(path) {
            Ok(image) => return Ok((image, path.clone())),
            Err(e) => tried.push(format!("{}: {e}", path.display())),
        }
    }
    let remote = texture.urls.len() - candidates.len();
    let remote_note = if remote > 0 { format!(" ({remote} remote URL(s) not fetched)") } else { String::new() };
    if tried.is_empty() {
        Err(format!("no local url to read{remote_note}"))
    } else {
        Err(format!("{}{remote_note}", tried.join("; ")))
    }
}

fn decode_file(path: &Path) -> Result<DecodedImage, String> {
    let reader = image::ImageReader::open(path).map_err(|e| e.to_string())?;
    let reader = reader.with_guessed_format().map_err(|e| e.to_string())?;
    let mut image = reader.decode().map_err(|e| e.to_string())?;
    if image.width() > MAX_TEXTURE_SIDE || image.height() > MAX_TEXTURE_SIDE {
        image = image.resize(MAX_TEXTURE_SIDE, MAX_TEXTURE_SIDE, image::imageops::FilterType::Triangle);
    }
    let intensity = matches!(image.color().channel_count(), 1 | 2);
    let rgba = image.to_rgba8();
    let has_alpha = rgba.pixels().any(|p| p.0[3] < 255);
    Ok(DecodedImage { width: rgba.width(), height: rgba.height(), rgba: rgba.into_raw(), intensity, has_alpha })
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn texture(urls: &[&str], base: &Path) -> TextureRef {
        TextureRef {
            node: NodeId(1),
            urls: urls.iter().map(|u| u.to_string()).collect(),
            base: base.to_path_buf(),
            repeat_s: true,
            repeat_t: true,
        }
    }

    #[test]
    fn urls_are_tried_in_order_and_png_jpeg_decode() {
        let dir = tempfile::tempdir().unwrap();
        let mut img = image::RgbImage::new(4, 2);
        img.put_pixel(0, 0, image::Rgb([255, 0, 0]));
        img.save(dir.path().join("a.png")).unwrap();
        image::GrayImage::from_pixel(3, 3, image::Luma([128])).save(dir.path().join("g.jpg")).unwrap();
        let (first, path) = decode_texture(&texture(&["missing.png", "a.png", "g.jpg"], dir.path())).unwrap();
        assert_eq!(path, dir.path().join("a.png"));
        assert_eq!((first.width, first.height, &first.rgba[..4]), (4, 2, &[255u8, 0, 0, 255][..]));
        assert!(!first.intensity && !first.has_alpha);
        let (grey, _) = decode_texture(&texture(&["g.jpg"], dir.path())).unwrap();
        assert!(grey.intensity, "a one-channel JPEG modulates");
        let err = decode_texture(&texture(&["nope.png", "https://example.org/x.png"], dir.path())).unwrap_err();
        assert!(err.contains("nope.png") && err.contains("1 remote URL(s) not fetched"), "{err}");
    }
}
