//! Opening files without the system's file picker, and opening folders in the file manager.
//!
//! File ▸ Open asks the desktop's picker (the XDG desktop portal, else `zenity`, through `rfd`). Where
//! neither is there, `rfd` returns nothing and says why only in the log: the window then opens its own
//! file browser (egui, the `egui_file` crate) instead, and says so. `HANIM_VIEWER_FILE_DIALOG=builtin`
//! (or `system`) overrides the guess.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::Viewer;
use super::loading::open_dialog_extensions;

/// An answer from the system picker sooner than this was not a person cancelling it: the picker did
/// not open.
const NOT_SHOWN_WITHIN: Duration = Duration::from_millis(250);

/// Whether a system file picker can be asked: a D-Bus session (for the desktop portal) or `zenity`.
pub(super) fn system_picker_available() -> bool {
    match std::env::var("HANIM_VIEWER_FILE_DIALOG").as_deref() {
        Ok("builtin") => return false,
        Ok("system") => return true,
        _ => {}
    }
    if !cfg!(target_os = "linux") {
        return true;
    }
    let session_bus = std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some_and(|a| !a.is_empty())
        || std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|d| Path::new(&d).join("bus").exists());
    session_bus || on_path("zenity")
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()))
}

impl Viewer {
    /// The system picker for File ▸ Open; when it answers at once with nothing (it could not open), the
    /// built-in browser.
    pub(super) fn open_with_system_picker(&mut self) {
        let mut dialog = rfd::FileDialog::new()
            .set_title("Open an H-Anim humanoid")
            .add_filter("X3D, VRML and motion capture", &open_dialog_extensions())
            .add_filter("All files", &["*"]);
        if let Some(folder) = &self.ui.last_folder {
            dialog = dialog.set_directory(folder);
        }
        let asked = Instant::now();
        match dialog.pick_file() {
            Some(path) => self.start_loading(path),
            None if asked.elapsed() < NOT_SHOWN_WITHIN => {
                self.toast("the system file picker did not open: using the built-in file browser".into());
                self.open_file_browser();
            }
            None => {}
        }
    }

    /// Opens the built-in file browser in the last folder (else the current one).
    pub(super) fn open_file_browser(&mut self) {
        log::info!("file dialog: the built-in file browser (no system file picker)");
        let start = self.ui.last_folder.clone().or_else(|| std::env::current_dir().ok()).unwrap_or_default();
        let extensions = open_dialog_extensions();
        let filter: egui_file::Filter<PathBuf> = Box::new(move |path: &Path| {
            path.extension().is_some_and(|e| extensions.iter().any(|x| e.eq_ignore_ascii_case(x)))
        });
        let mut browser = egui_file::FileDialog::open_file()
            .initial_path(start)
            .title("Open an H-Anim humanoid (built-in file browser)")
            .show_files_filter(filter)
            .show_new_folder(false)
            .show_rename(false);
        browser.open();
        self.file_browser = Some(browser);
    }

    /// Shows the built-in browser while it is open; the file it picked, once.
    pub(super) fn file_browser_ui(browser: &mut Option<egui_file::FileDialog>, ctx: &egui::Context) -> Option<PathBuf> {
        let dialog = browser.as_mut()?;
        dialog.show(ctx);
        let picked = dialog.selected().then(|| dialog.path().map(Path::to_path_buf)).flatten();
        if dialog.state() != egui_file::State::Open {
            *browser = None;
        }
        picked
    }

    /// Opens `folder` in the desktop's file manager; a failure is said in a toast.
    pub(super) fn open_folder(&mut self, folder: &Path) {
        let opener = if cfg!(target_os = "macos") {
            "open"
        } else if cfg!(windows) {
            "explorer"
        } else {
            "xdg-open"
        };
        match std::process::Command::new(opener).arg(folder).spawn() {
            Ok(mut child) => {
                let shown = folder.display().to_string();
                // Waited for on a thread (no zombie); a failure after starting is logged.
                std::thread::spawn(move || match child.wait() {
                    Ok(status) if !status.success() => log::warn!("{opener} {shown} exited with {status}"),
                    Err(e) => log::warn!("{opener} {shown}: {e}"),
                    Ok(_) => {}
                });
            }
            Err(e) => self.toast(format!("could not open {}: {opener}: {e}", folder.display())),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn programs_are_found_on_the_path() {
        assert!(super::on_path("sh"));
        assert!(!super::on_path("surely-no-such-program-here"));
    }
}
