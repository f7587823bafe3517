//! What `cargo install` users get besides the window: `--version` with the git commit, shell completions
//! and man pages generated from the command line, and the Linux desktop integration written under a
//! temporary `XDG_DATA_HOME` (and removed again).

mod common;

test_main!(
    version_names_the_git_commit,
    completions_are_generated_for_every_shell_and_list_every_subcommand,
    bash_accepts_the_completion_script,
    the_man_page_describes_the_program_and_its_commands,
    man_writes_one_page_per_command,
    install_desktop_writes_the_entry_icon_and_types_under_xdg_data_home_and_uninstall_removes_them,
    user_install_defaults_to_home_local_share,
    exec_paths_are_quoted_as_the_desktop_entry_specification_says
);

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_hanim-viewer");

fn run_in(dir: &Path, args: &[&str], env: &[(&str, &Path)]) -> Output {
    let mut cmd = Command::new(BIN);
    cmd.args(args).current_dir(dir).env_remove("XDG_DATA_HOME");
    for (key, value) in env {
        cmd.env(key, value);
    }
    cmd.output().expect("the binary runs")
}

/// Runs the binary from an empty folder: nothing beside it or in the working folder is needed.
fn run(args: &[&str]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let out = run_in(dir.path(), args, &[]);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// Every subcommand name, from the command line's own definition.
fn subcommands() -> Vec<String> {
    use clap::CommandFactory;
    hanim_viewer::cli::Cli::command().get_subcommands().map(|s| s.get_name().to_string()).collect()
}

fn version_names_the_git_commit() {
    let text = stdout(&run(&["--version"]));
    let commit = hanim_viewer::GIT_COMMIT;
    assert_eq!(text.trim(), format!("hanim-viewer {} (commit {commit})", env!("CARGO_PKG_VERSION")));
    // Built in a git checkout with git installed (as here, when git runs): a commit of this repository
    // (not necessarily HEAD: a commit made since the build would be newer).
    let git = |args: &[&str]| Command::new("git").args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().ok();
    match git(&["rev-parse", "--is-inside-work-tree"]) {
        Some(out) if out.status.success() => {
            assert_ne!(commit, "unknown");
            let verify = git(&["rev-parse", "--verify", "--quiet", &format!("{commit}^{{commit}}")]).unwrap();
            assert!(verify.status.success(), "{commit} is not a commit of this repository");
        }
        _ => common::harness::skip(format!("no git, or no git checkout here: commit '{commit}' not checked")),
    }
}

fn completions_are_generated_for_every_shell_and_list_every_subcommand() {
    let names = subcommands();
    assert!(names.len() >= 11 && names.iter().any(|n| n == "install-desktop"), "{names:?}");
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = stdout(&run(&["completions", shell]));
        assert!(script.contains("hanim-viewer"), "{shell}");
        for name in &names {
            assert!(script.contains(name.as_str()), "{shell} completion lacks {name}");
        }
        // Options of a subcommand are completed too.
        assert!(script.contains("out-dir"), "{shell}: catalog's --out-dir");
    }
    // bash: the script defines the completion function and registers it for the program.
    let bash = stdout(&run(&["completions", "bash"]));
    assert!(bash.contains("complete -F _hanim-viewer") || bash.contains("complete -F _hanim__viewer"), "{bash}");
    // An unknown shell is a usage error that lists the shells.
    let dir = tempfile::tempdir().unwrap();
    let out = run_in(dir.path(), &["completions", "tcsh"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bash"));
}

fn bash_accepts_the_completion_script() {
    // When bash is there, the script parses and registers a completion for hanim-viewer.
    let script = stdout(&run(&["completions", "bash"]));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hanim-viewer.bash");
    std::fs::write(&file, script).unwrap();
    let probe = format!("source {} && complete -p hanim-viewer", file.display());
    match Command::new("bash").args(["--norc", "-c", &probe]).output() {
        Ok(out) => {
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            assert!(String::from_utf8_lossy(&out.stdout).contains("hanim-viewer"));
        }
        Err(e) => common::harness::skip(format!("no bash ({e})")),
    }
}

fn the_man_page_describes_the_program_and_its_commands() {
    let page = stdout(&run(&["man"]));
    assert!(page.starts_with(".ie") || page.starts_with(".TH"), "roff: {}", &page[..page.len().min(200)]);
    assert!(page.contains(".TH hanim-viewer 1"), "{page}");
    assert!(page.contains(hanim_viewer::GIT_COMMIT), "the version line names the commit");
    assert!(page.contains("Viewer and checker for X3D H\\-Anim humanoids"));
    for name in subcommands() {
        assert!(page.contains(&name.replace('-', "\\-")), "the page lists {name}");
    }
}

fn man_writes_one_page_per_command() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("man1");
    let listed = stdout(&run(&["man", "--out-dir", pages.to_str().unwrap()]));
    let mut names: Vec<String> =
        std::fs::read_dir(&pages).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    let mut expected = vec!["hanim-viewer.1".to_string()];
    expected.extend(subcommands().iter().map(|s| format!("hanim-viewer-{s}.1")));
    expected.extend(["import", "stick", "render", "keys", "mapping"].map(|s| format!("hanim-viewer-motion-{s}.1")));
    expected.push("hanim-viewer-catalog-merge.1".to_string());
    expected.sort();
    assert_eq!(names, expected, "no other files (no temporary files left)");
    assert_eq!(listed.lines().count(), expected.len(), "{listed}");
    let render = std::fs::read_to_string(pages.join("hanim-viewer-render.1")).unwrap();
    assert!(render.contains(".TH hanim-viewer-render 1") && render.contains("\\-\\-view"), "{render}");
    let import = std::fs::read_to_string(pages.join("hanim-viewer-motion-import.1")).unwrap();
    assert!(import.contains(".TH hanim-viewer-motion-import 1"), "{import}");
}

/// The four files install-desktop writes, relative to the data folder.
const INSTALLED: [&str; 4] = [
    "applications/hanim-viewer.desktop",
    "mime/packages/hanim-viewer.xml",
    "icons/hicolor/scalable/apps/hanim-viewer.svg",
    "icons/hicolor/256x256/apps/hanim-viewer.png",
];

/// `key=value` lines of the `[Desktop Entry]` group.
fn desktop_keys(text: &str) -> Vec<(String, String)> {
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("[Desktop Entry]"));
    lines
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (k, v) = l.split_once('=').unwrap_or_else(|| panic!("not key=value: {l}"));
            (k.to_string(), v.to_string())
        })
        .collect()
}

/// `(type, globs)` of every mime-type the package declares, read with an XML parser.
fn mime_types(xml: &str) -> Vec<(String, Vec<String>)> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut types: Vec<(String, Vec<String>)> = Vec::new();
    let attr = |e: &quick_xml::events::BytesStart, name: &str| {
        e.attributes().map(|a| a.unwrap()).find(|a| a.key.as_ref() == name).map(|a| a.value.to_string())
    };
    loop {
        match reader.read_event().unwrap() {
            Event::Start(e) if e.name().as_ref() == "mime-type" => types.push((attr(&e, "type").unwrap(), Vec::new())),
            Event::Empty(e) if e.name().as_ref() == "glob" => {
                types.last_mut().unwrap().1.push(attr(&e, "pattern").unwrap())
            }
            Event::Eof => break,
            _ => {}
        }
    }
    types
}

fn install_desktop_writes_the_entry_icon_and_types_under_xdg_data_home_and_uninstall_removes_them() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let work = dir.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    let out = run_in(&work, &["install-desktop", "--user"], &[("XDG_DATA_HOME", &data)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report = stdout(&out);
    for file in INSTALLED {
        let path = data.join(file);
        assert!(path.is_file(), "{file} missing");
        assert!(report.contains(&format!("wrote {}", path.display())), "{report}");
    }

    // The entry: an application running this very binary (absolute path) on one file, with its icon and
    // every type the viewer opens.
    let entry = std::fs::read_to_string(data.join(INSTALLED[0])).unwrap();
    let keys = desktop_keys(&entry);
    let get =
        |k: &str| keys.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str()).unwrap_or_else(|| panic!("no {k}"));
    assert_eq!(get("Type"), "Application");
    assert_eq!(get("Icon"), "hanim-viewer");
    assert_eq!(get("Terminal"), "false");
    let exe = PathBuf::from(BIN).canonicalize().unwrap();
    assert_eq!(get("Exec"), format!("{} %f", exe.display()), "(the test binary's path has no characters to quote)");
    let entry_types: Vec<&str> = get("MimeType").trim_end_matches(';').split(';').collect();

    // The MIME package: every extension the viewer reads has a type, and the entry opens all but .amc.
    let xml = std::fs::read_to_string(data.join(INSTALLED[1])).unwrap();
    let declared = mime_types(&xml);
    for ext in ["x3d", "x3dv", "x3dz", "x3dvz", "wrl", "wrz", "bvh", "asf", "amc"] {
        let glob = format!("*.{ext}");
        let (mime, _) =
            declared.iter().find(|(_, globs)| globs.contains(&glob)).unwrap_or_else(|| panic!("no type for {glob}"));
        assert_eq!(entry_types.contains(&mime.as_str()), ext != "amc", "{mime} in the entry's MimeType");
    }
    assert!(entry_types.iter().all(|t| declared.iter().any(|(d, _)| d == t)), "{entry_types:?}");

    // The icons: the embedded files, byte for byte; the PNG is 256x256.
    let png = std::fs::read(data.join(INSTALLED[3])).unwrap();
    assert_eq!(
        png,
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/icons/hanim-viewer.png")).unwrap()
    );
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let info = decoder.read_info().unwrap().info().clone();
    assert_eq!((info.width, info.height), (256, 256));
    let svg = std::fs::read_to_string(data.join(INSTALLED[2])).unwrap();
    assert!(svg.contains("<svg") && svg.contains("viewBox=\"0 0 256 256\""));

    // Where shared-mime-info is installed, its database compiler accepts the package: the types exist
    // and .x3d files are recognised by name.
    if report.contains("ran update-mime-database") {
        assert!(data.join("mime/model/x3d+xml.xml").is_file(), "{report}");
        let globs = std::fs::read_to_string(data.join("mime/globs2")).unwrap();
        assert!(globs.contains("model/x3d+xml:*.x3d") && globs.contains("application/x-bvh:*.bvh"), "{globs}");
    } else {
        // `.ci/run` installs shared-mime-info: under CI its absence is a failure.
        common::harness::partly("update-mime-database (shared-mime-info): the MIME package was not compiled");
    }

    // No temporary files beside the written ones.
    for file in INSTALLED {
        let folder = data.join(file).parent().unwrap().to_path_buf();
        for entry in std::fs::read_dir(&folder).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            assert!(!name.ends_with(".tmp"), "{name} left in {}", folder.display());
        }
    }

    // Installing again replaces the files; uninstalling removes exactly them, twice is harmless.
    let out = run_in(&work, &["install-desktop", "--user"], &[("XDG_DATA_HOME", &data)]);
    assert!(out.status.success());
    let out = run_in(&work, &["uninstall-desktop", "--user"], &[("XDG_DATA_HOME", &data)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for file in INSTALLED {
        assert!(!data.join(file).exists(), "{file} still there");
        assert!(stdout(&out).contains(&format!("removed {}", data.join(file).display())));
    }
    let out = run_in(&work, &["uninstall-desktop", "--user"], &[("XDG_DATA_HOME", &data)]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("nothing to remove"), "{}", stdout(&out));
}

fn user_install_defaults_to_home_local_share() {
    let home = tempfile::tempdir().unwrap();
    let out = run_in(home.path(), &["install-desktop", "--user"], &[("HOME", home.path())]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(home.path().join(".local/share/applications/hanim-viewer.desktop").is_file());
    // A relative XDG_DATA_HOME is ignored, as the XDG rules say: the files go to ~/.local/share again,
    // not into the working folder.
    let relative = Path::new("relative-data");
    let out =
        run_in(home.path(), &["install-desktop", "--user"], &[("HOME", home.path()), ("XDG_DATA_HOME", relative)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!home.path().join("relative-data").exists());
    assert!(stdout(&out).contains(&home.path().join(".local/share/applications").display().to_string()));
    assert_eq!(
        hanim_viewer::commands::desktop::data_dir(false).unwrap(),
        PathBuf::from("/usr/local/share"),
        "without --user: system-wide"
    );
    let out = run_in(home.path(), &["uninstall-desktop", "--user"], &[("HOME", home.path())]);
    assert!(out.status.success());
    assert!(!home.path().join(".local/share/applications/hanim-viewer.desktop").exists());
}

fn exec_paths_are_quoted_as_the_desktop_entry_specification_says() {
    use hanim_viewer::commands::desktop::exec_argument;
    assert_eq!(exec_argument("/usr/local/bin/hanim-viewer"), "/usr/local/bin/hanim-viewer");
    assert_eq!(exec_argument("/home/a b/bin/hanim-viewer"), "\"/home/a b/bin/hanim-viewer\"");
    // `$` is escaped inside the quotes, then the backslash is doubled for the string value; `%` doubled.
    assert_eq!(exec_argument("/opt/x$y/100%"), "\"/opt/x\\\\$y/100%%\"");
    assert_eq!(exec_argument("/opt/q\"t"), "\"/opt/q\\\\\"t\"");
}
