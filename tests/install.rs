//! What `cargo install` users get besides the window: shell completions and man pages generated from the
//! command line.

use std::path::Path;
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

#[test]
fn completions_are_generated_for_every_shell_and_list_every_subcommand() {
    let names = subcommands();
    assert!(names.len() >= 9 && names.iter().any(|n| n == "completions"), "{names:?}");
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

#[test]
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
        Err(e) => eprintln!("SKIP bash_accepts_the_completion_script: no bash ({e})"),
    }
}

#[test]
fn the_man_page_describes_the_program_and_its_commands() {
    let page = stdout(&run(&["man"]));
    assert!(page.starts_with(".ie") || page.starts_with(".TH"), "roff: {}", &page[..page.len().min(200)]);
    assert!(page.contains(".TH hanim-viewer 1"), "{page}");
    assert!(page.contains("Viewer and checker for X3D H\\-Anim humanoids"));
    for name in subcommands() {
        assert!(page.contains(&name.replace('-', "\\-")), "the page lists {name}");
    }
}

#[test]
fn man_writes_one_page_per_command() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("man1");
    let listed = stdout(&run(&["man", "--out-dir", pages.to_str().unwrap()]));
    let mut names: Vec<String> =
        std::fs::read_dir(&pages).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    let mut expected = vec!["hanim-viewer.1".to_string()];
    expected.extend(subcommands().iter().map(|s| format!("hanim-viewer-{s}.1")));
    expected.extend(["import", "stick", "render", "mapping"].map(|s| format!("hanim-viewer-motion-{s}.1")));
    expected.sort();
    assert_eq!(names, expected, "no other files (no temporary files left)");
    assert_eq!(listed.lines().count(), expected.len(), "{listed}");
    let render = std::fs::read_to_string(pages.join("hanim-viewer-render.1")).unwrap();
    assert!(render.contains(".TH hanim-viewer-render 1") && render.contains("\\-\\-view"), "{render}");
    let import = std::fs::read_to_string(pages.join("hanim-viewer-motion-import.1")).unwrap();
    assert!(import.contains(".TH hanim-viewer-motion-import 1"), "{import}");
}
