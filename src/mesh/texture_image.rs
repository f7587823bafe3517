//! ImageTexture files decoded with the `image` crate (PNG, JPEG, GIF) into RGBA8: the `url` list is
//! tried in order, local files only. Plain data, so that the GPU upload and any other user share it.

use std::path::Path;

use super::TextureRef;
use crate::x3d::reference::{ReferenceFailure, local_target, read_referenced_file};

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

/// Decodes the first readable image of `texture`'s url list; the error names each url tried and why it
/// failed (the reason's kind only: no byte of a file that is not an image is ever quoted).
pub fn decode_texture(texture: &TextureRef) -> Result<(DecodedImage, std::path::PathBuf), String> {
    let limit = crate::x3d::LoadOptions::default().max_reference_bytes;
    let mut tried = Vec::new();
    let mut remote = 0;
    for url in texture.urls.iter().filter(|u| !u.trim().is_empty()) {
        if let Some(bytes) = data_url_bytes(url) {
            // An image written into the url itself (what glTF imports give embedded images).
            match decode_bytes(bytes) {
                Ok(image) => return Ok((image, texture.base.join("data-url"))),
                Err(reason) => tried.push(format!("a data: url: {reason}")),
            }
            continue;
        }
        match local_target(&texture.base, url) {
            Ok((path, _)) => match decode_file(&path, limit) {
                Ok(image) => return Ok((image, path)),
                Err(reason) => tried.push(format!("'{url}': {reason}")),
            },
            Err(ReferenceFailure::Remote) => remote += 1,
            Err(reason) => tried.push(format!("'{url}': {reason}")),
        }
    }
    let remote_note = if remote > 0 { format!(" ({remote} remote URL(s) not fetched)") } else { String::new() };
    if tried.is_empty() {
        Err(format!("no local url to read{remote_note}"))
    } else {
        Err(format!("{}{remote_note}", tried.join("; ")))
    }
}

/// The image in the regular file at `path` (at most `limit` bytes, see `x3d::reference`).
fn decode_file(path: &Path, limit: u64) -> Result<DecodedImage, String> {
    let bytes = read_referenced_file(path, limit).map_err(|e| e.to_string())?;
    decode_bytes(bytes)
}

/// The bytes of a base64 `data:` url (RFC 2397), or `None` for any other url or a malformed one.
pub fn data_url_bytes(url: &str) -> Option<Vec<u8>> {
    use base64::Engine as _;
    let rest = url.trim().strip_prefix("data:")?;
    let (header, payload) = rest.split_once(',')?;
    if !header.ends_with(";base64") {
        return None;
    }
    base64::engine::general_purpose::STANDARD.decode(payload.trim()).ok()
}

fn decode_bytes(bytes: Vec<u8>) -> Result<DecodedImage, String> {
    let reader = image::ImageReader::new(std::io::Cursor::new(bytes));
    let reader = reader.with_guessed_format().map_err(|_| "cannot be read".to_string())?;
    let format = reader.format();
    let mut image = reader.decode().map_err(|e| describe_image_error(&e, format))?;
    if image.width() > MAX_TEXTURE_SIDE || image.height() > MAX_TEXTURE_SIDE {
        image = image.resize(MAX_TEXTURE_SIDE, MAX_TEXTURE_SIDE, image::imageops::FilterType::Triangle);
    }
    let intensity = matches!(image.color().channel_count(), 1 | 2);
    let rgba = image.to_rgba8();
    let has_alpha = rgba.pixels().any(|p| p.0[3] < 255);
    Ok(DecodedImage { width: rgba.width(), height: rgba.height(), rgba: rgba.into_raw(), intensity, has_alpha })
}

/// A decoding failure by its kind: decoders' own messages can quote bytes of the file (a JPEG's bad
/// marker), and a url may name a file that is no image at all.
fn describe_image_error(error: &image::ImageError, format: Option<image::ImageFormat>) -> String {
    let format = format.map(|f| format!("{f:?}")).unwrap_or_else(|| "unknown".into());
    match error {
        image::ImageError::Unsupported(_) => {
            format!("not an image in a format that is read (PNG, JPEG, GIF; found {format})")
        }
        image::ImageError::Limits(_) => "an image too large to decode".into(),
        _ => format!("not a readable image (format {format})"),
    }
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
        assert!(err.contains("'nope.png': not found") && err.contains("1 remote URL(s) not fetched"), "{err}");
        // Files that are not images fail by kind; nothing of them is quoted.
        std::fs::write(dir.path().join("secret.png"), b"TOP-SECRET-CONTENT").unwrap();
        let err = decode_texture(&texture(&["secret.png", "."], dir.path())).unwrap_err();
        assert!(err.contains("'secret.png': not an image") && err.contains("'.': not a regular file"), "{err}");
        assert!(!err.contains("TOP-SECRET"), "{err}");
    }
}
