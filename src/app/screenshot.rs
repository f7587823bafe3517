//! Screenshot file names (the PNG itself is written by [`crate::output::write_png_atomically`]).

use std::path::{Path, PathBuf};

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
