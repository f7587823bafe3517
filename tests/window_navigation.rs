//! Screenshots land in the user's Pictures folder under a name from the file and the view, end to end
//! under Xvfb: `screenshot` without a name (F12, the button over the view) writes
//! `$XDG_PICTURES_DIR/JoeKick-Front-YYYYMMDD-HHMMSS.png`, and without XDG_PICTURES_DIR the folder of
//! `user-dirs.dirs`, else `~/Pictures`; the toast names the path. Nothing is written into the real
//! home: the test sets HOME, XDG_CONFIG_HOME and XDG_PICTURES_DIR.
//!
//! Needs `xvfb-run` (package `xvfb`) and a Vulkan adapter (lavapipe). Under `CI=true` a missing display
//! or adapter fails the test; elsewhere it is reported ignored.

mod common;

test_main!(screenshots_go_to_the_pictures_folder_named_after_file_and_view);

use std::ffi::OsStr;
use std::path::Path;

use common::window::run_command;

fn shot(dir: &Path, script: &Path, env: &[(&str, &str)]) -> String {
    let file = common::corpus("x3d/JoeKick.x3d");
    let args =
        [file.as_os_str(), OsStr::new("--size"), OsStr::new("900x640"), OsStr::new("--script"), script.as_os_str()];
    run_command("window_navigation", &args, dir, env).1
}

fn pngs(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .map(|d| d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    names.sort();
    names
}

fn screenshots_go_to_the_pictures_folder_named_after_file_and_view() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let config = home.join(".config");
    std::fs::create_dir_all(&config).unwrap();
    let pictures = dir.path().join("pictures");
    let script = dir.path().join("shot.txt");
    std::fs::write(&script, "view front\nscreenshot\nquit\n").unwrap();
    let (h, c, p) = (home.to_str().unwrap(), config.to_str().unwrap(), pictures.to_str().unwrap());

    let log = shot(dir.path(), &script, &[("HOME", h), ("XDG_CONFIG_HOME", c), ("XDG_PICTURES_DIR", p)]);
    let names = pngs(&pictures);
    assert_eq!(names.len(), 1, "{names:?}\n{log}");
    let name = &names[0];
    let stamp = name.strip_prefix("JoeKick-Front-").and_then(|s| s.strip_suffix(".png")).unwrap_or_else(|| {
        panic!("{name} is not JoeKick-Front-<time>.png");
    });
    assert!(stamp.len() == 15 && stamp.as_bytes()[8] == b'-', "{stamp} is not YYYYMMDD-HHMMSS");
    assert!(log.contains(&format!("saved {}", pictures.join(name).display())), "the toast names the path:\n{log}");

    // No XDG_PICTURES_DIR: the desktop's user-dirs.dirs says where Pictures is.
    let chosen = home.join("Bilder");
    std::fs::write(config.join("user-dirs.dirs"), "XDG_PICTURES_DIR=\"$HOME/Bilder\"\n").unwrap();
    shot(dir.path(), &script, &[("HOME", h), ("XDG_CONFIG_HOME", c), ("XDG_PICTURES_DIR", "")]);
    assert_eq!(pngs(&chosen).len(), 1, "nothing in {}", chosen.display());

    // Neither: ~/Pictures.
    std::fs::remove_file(config.join("user-dirs.dirs")).unwrap();
    shot(dir.path(), &script, &[("HOME", h), ("XDG_CONFIG_HOME", c), ("XDG_PICTURES_DIR", "")]);
    assert_eq!(pngs(&home.join("Pictures")).len(), 1, "nothing in ~/Pictures");
}
