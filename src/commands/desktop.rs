//! `install-desktop [--user]` and `uninstall-desktop [--user]`: Linux desktop integration. A `.desktop`
//! entry (so the viewer is in the application menu and "Open with"), its icon (SVG and a 256x256 PNG) and
//! shared-mime-info types for the files it reads (`.x3d`, `.x3dv`, `.x3dz`, `.x3dvz`, `.wrl`, `.wrz`, `.bvh`,
//! `.asf`, `.amc`), all embedded in the binary and written under the XDG data folder: `$XDG_DATA_HOME`
//! (default `~/.local/share`) with `--user`, `/usr/local/share` without. Every file is written atomically;
//! then the desktop's caches are refreshed with `update-mime-database`, `update-desktop-database` and
//! `gtk-update-icon-cache` where those programs exist.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use clap::Args;

/// The desktop entry as shipped; `Exec=hanim-viewer %f` is rewritten to this binary's path on install.
pub const DESKTOP_ENTRY: &str = include_str!("../../assets/desktop/hanim-viewer.desktop");
/// The shared-mime-info package declaring the file types.
pub const MIME_PACKAGE: &str = include_str!("../../assets/desktop/hanim-viewer.xml");
/// The application icon, scalable.
pub const ICON_SVG: &str = include_str!("../../assets/icons/hanim-viewer.svg");
/// The application icon, 256x256 PNG (also for the window's icon).
pub const ICON_PNG: &[u8] = include_bytes!("../../assets/icons/hanim-viewer.png");

/// Where each file goes, relative to the XDG data folder.
pub const DESKTOP_ENTRY_PATH: &str = "applications/hanim-viewer.desktop";
pub const MIME_PACKAGE_PATH: &str = "mime/packages/hanim-viewer.xml";
pub const ICON_SVG_PATH: &str = "icons/hicolor/scalable/apps/hanim-viewer.svg";
pub const ICON_PNG_PATH: &str = "icons/hicolor/256x256/apps/hanim-viewer.png";

/// The data folder without `--user`.
pub const SYSTEM_DATA_DIR: &str = "/usr/local/share";

#[derive(Debug, Args)]
pub struct DesktopArgs {
    /// For the current user only: under `$XDG_DATA_HOME` (default `~/.local/share`) instead of
    /// `/usr/local/share` (which needs the rights to write there).
    #[arg(long)]
    pub user: bool,
}

/// The XDG data folder: `$XDG_DATA_HOME` when set to an absolute path (the XDG rule: relative values are
/// ignored), else `$HOME/.local/share`; `/usr/local/share` for a system-wide install.
pub fn data_dir(user: bool) -> Result<PathBuf> {
    if !user {
        return Ok(PathBuf::from(SYSTEM_DATA_DIR));
    }
    use etcetera::BaseStrategy as _;
    // etcetera ignores a relative `$XDG_DATA_HOME`; a relative `$HOME` is refused here.
    let dir = etcetera::base_strategy::Xdg::new().map(|xdg| xdg.data_dir()).ok().filter(|d| d.is_absolute());
    match dir {
        Some(dir) => Ok(dir),
        None => bail!("--user needs XDG_DATA_HOME or HOME to be set to an absolute path"),
    }
}

/// `path` as one argument of a desktop entry's `Exec` key: bare when it has only safe characters, else
/// double-quoted with `"`, `` ` ``, `$` and `\` escaped; then `\` doubled and `%` doubled as the key's
/// string value requires (Desktop Entry Specification, "The Exec key").
pub fn exec_argument(path: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "/._+-,:@".contains(c);
    let quoted = if !path.is_empty() && path.chars().all(safe) {
        path.to_string()
    } else {
        let mut q = String::from("\"");
        for c in path.chars() {
            if matches!(c, '"' | '`' | '$' | '\\') {
                q.push('\\');
            }
            q.push(c);
        }
        q.push('"');
        q
    };
    quoted.replace('\\', "\\\\").replace('%', "%%")
}

/// The desktop entry with `Exec` running `exe` (an absolute path, so that the entry works whether or not
/// the binary's folder is on the desktop session's `PATH`).
pub fn desktop_entry(exe: &Path) -> String {
    let exec = format!("Exec={} %f", exec_argument(&exe.to_string_lossy()));
    DESKTOP_ENTRY.lines().map(|l| format!("{}\n", if l.starts_with("Exec=") { exec.as_str() } else { l })).collect()
}

/// Every file install-desktop writes: `(path relative to the data folder, bytes)`.
pub fn files(exe: &Path) -> Vec<(&'static str, Vec<u8>)> {
    vec![
        (DESKTOP_ENTRY_PATH, desktop_entry(exe).into_bytes()),
        (MIME_PACKAGE_PATH, MIME_PACKAGE.as_bytes().to_vec()),
        (ICON_SVG_PATH, ICON_SVG.as_bytes().to_vec()),
        (ICON_PNG_PATH, ICON_PNG.to_vec()),
    ]
}

fn this_binary() -> Result<PathBuf> {
    let exe = std::env::current_exe().context("finding this program's path")?;
    Ok(exe.canonicalize().unwrap_or(exe))
}

/// Writes the files under `data`; the paths written.
pub fn install(data: &Path, exe: &Path) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for (relative, bytes) in files(exe) {
        let path = data.join(relative);
        crate::output::write_atomically(&path, &bytes)?;
        written.push(path);
    }
    Ok(written)
}

/// Removes the files from `data` (folders stay); the paths that were there and are gone.
pub fn uninstall(data: &Path) -> Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    for relative in [DESKTOP_ENTRY_PATH, MIME_PACKAGE_PATH, ICON_SVG_PATH, ICON_PNG_PATH] {
        let path = data.join(relative);
        match std::fs::remove_file(&path) {
            Ok(()) => removed.push(path),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e).with_context(|| format!("removing {}", path.display())),
        }
    }
    Ok(removed)
}

/// Runs the cache tools that exist over `data`; one line per tool saying what happened. A tool that fails
/// is reported, not an error: the files are in place, and desktops rescan them at login.
pub fn refresh_caches(data: &Path) -> Vec<String> {
    let mime = data.join("mime");
    let applications = data.join("applications");
    let icons = data.join("icons/hicolor");
    let tools: [(&str, Vec<&std::ffi::OsStr>, &Path); 3] = [
        ("update-mime-database", vec![mime.as_os_str()], &mime),
        ("update-desktop-database", vec![applications.as_os_str()], &applications),
        ("gtk-update-icon-cache", vec!["-f".as_ref(), "-t".as_ref(), icons.as_os_str()], &icons),
    ];
    let mut lines = Vec::new();
    for (tool, args, folder) in tools {
        if !folder.is_dir() {
            continue;
        }
        match Command::new(tool).args(&args).output() {
            Ok(out) if out.status.success() => lines.push(format!("ran {tool} {}", folder.display())),
            Ok(out) => lines.push(format!(
                "{tool} {} failed ({}): {}",
                folder.display(),
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            )),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => lines.push(format!("{tool} not found: skipped")),
            Err(e) => lines.push(format!("{tool} could not run: {e}")),
        }
    }
    lines
}

pub fn run_install(args: &DesktopArgs) -> Result<()> {
    let data = data_dir(args.user)?;
    let exe = this_binary()?;
    let written =
        install(&data, &exe).with_context(|| format!("installing the desktop entry under {}", data.display()))?;
    let mut text = String::new();
    for path in &written {
        text += &format!("wrote {}\n", path.display());
    }
    for line in refresh_caches(&data) {
        text += &format!("{line}\n");
    }
    text += &format!("the desktop entry runs {}\n", exe.display());
    super::print(&text)
}

pub fn run_uninstall(args: &DesktopArgs) -> Result<()> {
    let data = data_dir(args.user)?;
    let removed = uninstall(&data).with_context(|| format!("removing the desktop entry from {}", data.display()))?;
    let mut text = String::new();
    if removed.is_empty() {
        text += &format!("nothing to remove under {}\n", data.display());
    }
    for path in &removed {
        text += &format!("removed {}\n", path.display());
    }
    for line in refresh_caches(&data) {
        text += &format!("{line}\n");
    }
    super::print(&text)
}
