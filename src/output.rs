//! Every file the program writes goes through here: the bytes go to a temporary file in the destination
//! folder, which is synced and then renamed over the destination, so a reader (or a crash) never sees
//! half a file and a failed write leaves the old file untouched.

mod animated;
mod ffmpeg;
mod staged;

pub use animated::{AnimationError, AnimationFormat, AnimationSettings, AnimationWriter, GifPalette};
pub use staged::StagedFolder;

use std::io::Write;
use std::path::{Path, PathBuf};

/// A write that did not happen; the destination is as it was before.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("'{0}' is not a file path")]
    NotAFilePath(PathBuf),
    #[error("{action} {path}: {source}")]
    Io {
        action: &'static str,
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("internal: {len} bytes for a {width}x{height} RGBA image")]
    ImageSize { len: usize, width: u32, height: u32 },
    #[error("encoding the PNG: {0}")]
    Png(#[from] png::EncodingError),
}

type Result<T> = std::result::Result<T, OutputError>;

/// Attaches what was being done, and to which path, to an I/O error.
fn io(action: &'static str, path: impl std::fmt::Display) -> impl FnOnce(std::io::Error) -> OutputError {
    move |source| OutputError::Io { action, path: path.to_string(), source }
}

/// A new temporary file in the folder of `path` (created if needed), named after it (`.NAME.XXXXXX.SUFFIX`)
/// and with an ordinary file's permissions (0666 less the umask, not a temporary file's private 0600), so
/// that renaming it over `path` ([`tempfile::NamedTempFile::persist`]) stays on one file system and gives
/// the file the permissions a plain write would. Dropped without being persisted, it is removed.
pub(crate) fn temp_file_beside(path: &Path, suffix: &str) -> Result<tempfile::NamedTempFile> {
    let file_name = path.file_name().ok_or_else(|| OutputError::NotAFilePath(path.to_path_buf()))?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(io("creating", dir.display()))?;
    let mut builder = tempfile::Builder::new();
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    builder
        .prefix(&format!(".{}.", file_name.to_string_lossy()))
        .suffix(suffix)
        .tempfile_in(&dir)
        .map_err(io("creating a temporary file in", dir.display()))
}

/// Moves a finished temporary file (from [`temp_file_beside`]) over `path`, after syncing it.
pub(crate) fn persist(temp: tempfile::NamedTempFile, path: &Path) -> Result<()> {
    temp.as_file().sync_all().map_err(io("writing", temp.path().display()))?;
    temp.persist(path).map(drop).map_err(|e| OutputError::Io {
        action: "renaming",
        path: format!("{} to {}", e.file.path().display(), path.display()),
        source: e.error,
    })
}

/// Writes `bytes` to `path` atomically (temporary file + rename), creating the folder if needed.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut temp = temp_file_beside(path, ".tmp")?;
    temp.write_all(bytes).map_err(io("writing", temp.path().display()))?;
    persist(temp, path)
}

/// Encodes an RGBA8 image (`width·height·4` bytes, sRGB, rows top to bottom) as PNG.
pub fn encode_png(width: u32, height: u32, rgba: &[u8]) -> Result<Vec<u8>> {
    if rgba.len() != (width as usize) * (height as usize) * 4 {
        return Err(OutputError::ImageSize { len: rgba.len(), width, height });
    }
    let mut bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut bytes, width, height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_source_srgb(png::SrgbRenderingIntent::Perceptual);
        let mut writer = encoder.write_header()?;
        writer.write_image_data(rgba)?;
        writer.finish()?;
    }
    Ok(bytes)
}

/// Writes an RGBA8 image as PNG to `path` atomically.
pub fn write_png_atomically(path: &Path, width: u32, height: u32, rgba: &[u8]) -> Result<()> {
    write_atomically(path, &encode_png(width, height, rgba)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_is_written_atomically_and_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("shot.png");
        let rgba: Vec<u8> = (0..4 * 3 * 2).map(|i| i as u8).collect();
        write_png_atomically(&path, 3, 2, &rgba).unwrap();
        let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (3, 2));
        assert_eq!(&buf[..info.buffer_size()], &rgba[..]);
        // A bad image leaves the previous file as it was and no temporary file behind.
        assert!(write_png_atomically(&path, 4, 4, &rgba).is_err());
        let names: Vec<_> =
            std::fs::read_dir(path.parent().unwrap()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("shot.png")]);
    }

    #[test]
    fn failed_rename_removes_the_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        // The destination is an existing non-empty folder: the rename fails.
        let target = dir.path().join("occupied");
        std::fs::create_dir(&target).unwrap();
        std::fs::write(target.join("x"), b"x").unwrap();
        assert!(write_atomically(&target, b"data").is_err());
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("occupied")]);
    }
}
