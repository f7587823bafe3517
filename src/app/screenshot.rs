//! Screenshot file names and their folder (the PNG itself is written by
//! [`crate::output::write_png_atomically`]).

use std::path::{Path, PathBuf};

/// The user's Pictures folder: `$XDG_PICTURES_DIR` when set to an absolute path, else the desktop's
/// (`XDG_PICTURES_DIR` in `user-dirs.dirs`, through the `directories` crate), else `~/Pictures`. `None`
/// without a home folder.
pub fn pictures_folder() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("XDG_PICTURES_DIR").map(PathBuf::from).filter(|d| d.is_absolute()) {
        return Some(dir);
    }
    let user = directories::UserDirs::new()?;
    Some(user.picture_dir().map_or_else(|| user.home_dir().join("Pictures"), Path::to_path_buf))
}

/// A name's part made of what file systems and shells take without quoting: letters, digits, `-`, `_`
/// (others become `-`).
fn name_part(text: &str) -> String {
    let cleaned: String =
        text.chars().map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { '-' }).collect();
    let trimmed = cleaned.trim_matches('-');
    if trimmed.is_empty() { "view".to_string() } else { trimmed.to_string() }
}

/// `folder/STEM-VIEW-YYYYMMDD-HHMMSS.png` (local time) that does not exist yet, e.g.
/// `JoeKick-front-20261128-113000.png`; a counter follows when one was taken within the same second.
pub fn next_screenshot_path(folder: &Path, file_stem: &str, view: &str) -> PathBuf {
    let stamp = jiff::Zoned::now().strftime("%Y%m%d-%H%M%S").to_string();
    let base = format!("{}-{}-{stamp}", name_part(file_stem), name_part(view));
    let mut n = 0;
    loop {
        let name = if n == 0 { format!("{base}.png") } else { format!("{base}-{n}.png") };
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
    fn names_come_from_the_file_and_the_view() {
        let dir = tempfile::tempdir().unwrap();
        let first = next_screenshot_path(dir.path(), "JoeKick", "hanim_LeftEyeView");
        let name = first.file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with("JoeKick-hanim_LeftEyeView-2") && name.ends_with(".png"), "{name}");
        std::fs::write(&first, b"x").unwrap();
        let second = next_screenshot_path(dir.path(), "JoeKick", "hanim_LeftEyeView");
        assert_ne!(first, second);
        assert_eq!(name_part("left eye / face"), "left-eye---face");
        assert_eq!(name_part("  "), "view");
    }
}
