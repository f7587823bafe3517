//! ImageTexture files decoded with the `image` crate (PNG, JPEG, GIF) into RGBA8: the `url` list is
//! tried in order, local files only. Plain data, so that the GPU upload and any other user share it.

use std::path::Path;

use super::TextureRef;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::x3d::NodeId;

    fn texture(urls: &[&str], base: &Path) -> TextureRef {
        TextureRef {
            node: NodeId(1),
            urls: urls.iter().map(|u| u.to_string()).collect(),
            base: base.to_path_buf(),
            sampling: Default::default(),
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
