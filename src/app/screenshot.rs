//! Screenshots: RGBA8 pixels to PNG, written atomically (a temporary file in the same folder, then a
//! rename), so a reader never sees half a file.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// Writes `rgba` (`width·height·4` bytes, sRGB, rows top to bottom) to `path` as PNG.
pub fn write_png_atomic(path: &Path, width: u32, height: u32, rgba: &[u8]) -> Result<()> {
    anyhow::ensure!(rgba.len() == width as usize * height as usize * 4, "image data does not match {width}x{height}");
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&folder).with_context(|| format!("creating {}", folder.display()))?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "screenshot.png".into());
    let temp = folder.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| -> Result<()> {
        let file = std::fs::File::create(&temp).with_context(|| format!("creating {}", temp.display()))?;
        let mut writer = std::io::BufWriter::new(file);
        {
            let mut encoder = png::Encoder::new(&mut writer, width, height);
            encoder.set_color(png::ColorType::Rgba);
            encoder.set_depth(png::BitDepth::Eight);
            encoder.set_source_srgb(png::SrgbRenderingIntent::Perceptual);
            let mut png_writer = encoder.write_header().context("writing the PNG header")?;
            png_writer.write_image_data(rgba).context("writing the PNG data")?;
            png_writer.finish().context("finishing the PNG")?;
        }
        writer.flush().context("flushing the PNG")?;
        writer.into_inner().map_err(|e| e.into_error()).context("flushing the PNG")?.sync_all().ok();
        std::fs::rename(&temp, path).with_context(|| format!("renaming {} to {}", temp.display(), path.display()))?;
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

/// `folder/hanim-YYYYMMDD-HHMMSS.png` style name that does not exist yet (seconds since the epoch, plus a
/// counter when taken within the same second).
pub fn next_screenshot_path(folder: &Path) -> PathBuf {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let mut n = 0;
    loop {
        let name = if n == 0 { format!("hanim-{secs}.png") } else { format!("hanim-{secs}-{n}.png") };
        let path = folder.join(name);
        if !path.exists() {
            return path;
        }
        n += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_is_written_atomically_and_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("shot.png");
        let rgba: Vec<u8> = (0..4 * 3 * 2).map(|i| i as u8).collect();
        write_png_atomic(&path, 3, 2, &rgba).unwrap();
        let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (3, 2));
        assert_eq!(&buf[..info.buffer_size()], &rgba[..]);
        let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary file left behind");
        assert!(write_png_atomic(&path, 4, 4, &rgba).is_err());
    }
}
