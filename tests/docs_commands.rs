//! The docs are run: every command that README.md and the guide (`docs/guide/*.md`) show in a `console`
//! block runs against the built binary, and every `hanim-viewer …` example in their other code blocks
//! names a command and options that exist, so that a renamed command or option fails here.
//!
//! A `console` block is read as a terminal shows it: `$ hanim-viewer ARGS` is a command (a line ending in
//! `\` goes on to the next), the lines after it up to the next `$` must each appear in its output
//! (standard output and standard error), and `[exit N]` among them is the exit status it must end with
//! (else 0). The commands of one block run in one temporary folder, in order, so that a later command can
//! read what an earlier one wrote; paths under `tests/`, `docs/` and `assets/` are the repository's.
//! Relative links of the docs must name files that exist, and a `#fragment` a heading of that file.

mod common;

test_main!(
    console_commands_in_the_docs_run_as_shown,
    every_command_and_option_the_docs_name_exists,
    links_in_the_docs_lead_somewhere,
    the_library_example_poses_a_joint_and_renders_a_png
);

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_hanim-viewer");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// README.md and the guide's chapters, with their text.
fn docs() -> Vec<(PathBuf, String)> {
    let root = Path::new(ROOT);
    let mut files = vec![root.join("README.md")];
    let mut guide: Vec<PathBuf> = std::fs::read_dir(root.join("docs/guide"))
        .expect("docs/guide")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    guide.sort();
    assert!(guide.len() >= 10, "the guide's chapters: {guide:?}");
    files.extend(guide);
    files.into_iter().map(|p| (p.clone(), std::fs::read_to_string(&p).unwrap())).collect()
}

/// A fenced code block: its info string, its first line's number and its lines.
struct Block {
    lang: String,
    line: usize,
    lines: Vec<String>,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (n, line) in text.lines().enumerate() {
        let fence = line.trim_start().strip_prefix("```");
        match (&mut open, fence) {
            (None, Some(lang)) => open = Some(Block { lang: lang.trim().to_string(), line: n + 2, lines: Vec::new() }),
            (Some(_), Some(_)) => out.push(open.take().unwrap()),
            (Some(block), None) => block.lines.push(line.to_string()),
            (None, None) => {}
        }
    }
    out
}

/// One documented command: where it is, its arguments, where its standard output goes (`> FILE`), what
/// its output must hold, its exit status.
struct Example {
    place: String,
    args: Vec<String>,
    stdout_to: Option<String>,
    expected: Vec<String>,
    status: i32,
}

/// The commands of a `console` block, in order.
fn examples(place: &str, block: &Block) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut lines = block.lines.iter().enumerate();
    while let Some((i, line)) = lines.next() {
        if let Some(command) = line.strip_prefix("$ ") {
            let mut command = command.to_string();
            while let Some(head) = command.strip_suffix('\\') {
                let (_, next) = lines.next().unwrap_or_else(|| panic!("{place}: a command ends in \\"));
                command = format!("{head} {}", next.trim());
            }
            let words = shlex::split(&command).unwrap_or_else(|| panic!("{place}: unbalanced quotes: {command}"));
            assert_eq!(words.first().map(String::as_str), Some("hanim-viewer"), "{place}: {command}");
            let place = format!("{place}:{}", block.line + i);
            let mut args = words[1..].to_vec();
            let stdout_to = match args.iter().position(|w| w == ">") {
                Some(at) => {
                    assert_eq!(at + 2, args.len(), "{place}: `> FILE` ends a command");
                    let file = args.pop();
                    args.pop();
                    file
                }
                None => None,
            };
            out.push(Example { place, args, stdout_to, expected: Vec::new(), status: 0 });
        } else if let Some(example) = out.last_mut() {
            let text = line.trim();
            match text.strip_prefix("[exit ").and_then(|t| t.strip_suffix(']')) {
                Some(code) => example.status = code.parse().expect("[exit N]"),
                None if !text.is_empty() => example.expected.push(text.to_string()),
                None => {}
            }
        } else {
            panic!("{place}: a console block starts with a `$ ` line: {line}");
        }
    }
    out
}

/// A documented argument as the binary gets it: the repository's files by their full path.
fn resolve(arg: &str) -> String {
    if ["tests/", "docs/", "assets/"].iter().any(|p| arg.starts_with(p)) {
        Path::new(ROOT).join(arg).display().to_string()
    } else {
        arg.to_string()
    }
}

fn console_commands_in_the_docs_run_as_shown() {
    let mut ran = 0;
    let mut all: Vec<(String, Vec<Example>)> = Vec::new();
    for (path, text) in docs() {
        let name = path.strip_prefix(ROOT).unwrap().display().to_string();
        for block in blocks(&text).iter().filter(|b| b.lang == "console") {
            all.push((name.clone(), examples(&name, block)));
        }
    }
    // Several show pictures being made: they need an adapter (lavapipe on a machine without a GPU).
    common::needs_gpu();
    for (_, block) in &all {
        let dir = tempfile::tempdir().unwrap();
        for example in block {
            let args: Vec<String> = example.args.iter().map(|a| resolve(a)).collect();
            let output = Command::new(BIN)
                .args(&args)
                .current_dir(dir.path())
                .env_remove("XDG_DATA_HOME")
                .env("HANIM_VIEWER_CONFIG_DIR", dir.path())
                .output()
                .expect("the binary runs");
            if let Some(file) = &example.stdout_to {
                std::fs::write(dir.path().join(file), &output.stdout).unwrap();
            }
            let text =
                format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
            let shown = format!("{}: hanim-viewer {}", example.place, example.args.join(" "));
            assert_eq!(output.status.code(), Some(example.status), "{shown}: exit status\n{text}");
            for line in &example.expected {
                assert!(text.contains(line.as_str()), "{shown}: the output lacks `{line}`:\n{text}");
            }
            assert!(!text.contains("panicked"), "{shown}:\n{text}");
            ran += 1;
        }
    }
    assert!(ran >= 15, "{ran} documented commands ran");
}

/// The options of every command and subcommand, from the command line's own definition: path (e.g.
/// `["motion", "import"]`) → long option names.
fn definition() -> BTreeMap<Vec<String>, Vec<String>> {
    use clap::CommandFactory;
    fn walk(command: &clap::Command, path: Vec<String>, out: &mut BTreeMap<Vec<String>, Vec<String>>) {
        let mut options: Vec<String> =
            command.get_arguments().filter_map(|a| a.get_long()).map(str::to_string).collect();
        options.extend(["help", "version"].map(String::from));
        out.insert(path.clone(), options);
        for sub in command.get_subcommands() {
            let mut p = path.clone();
            p.push(sub.get_name().to_string());
            walk(sub, p, out);
        }
    }
    let mut out = BTreeMap::new();
    walk(&hanim_viewer::cli::Cli::command(), Vec::new(), &mut out);
    out
}

/// Every `hanim-viewer …` command shown in the docs (code blocks and inline code), with its place.
fn shown_commands() -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for (path, text) in docs() {
        let name = path.strip_prefix(ROOT).unwrap().display().to_string();
        for block in blocks(&text) {
            for (i, line) in block.lines.iter().enumerate() {
                let line = line.trim_start().trim_start_matches("$ ");
                // Commands as arguments of other programs (parallel, xvfb-run) count too.
                if let Some(at) = line.find("hanim-viewer ") {
                    let words = line[at..].split_whitespace().map(str::to_string).collect();
                    out.push((format!("{name}:{}", block.line + i), words));
                }
            }
        }
        for (n, line) in text.lines().enumerate() {
            for span in line.split('`').skip(1).step_by(2) {
                if span.starts_with("hanim-viewer ") {
                    out.push((format!("{name}:{}", n + 1), span.split_whitespace().map(str::to_string).collect()));
                }
            }
        }
    }
    out
}

fn every_command_and_option_the_docs_name_exists() {
    let definition = definition();
    let shown = shown_commands();
    assert!(shown.len() >= 60, "{} commands found in the docs", shown.len());
    for (place, words) in &shown {
        // The longest run of words after the program's name that names a (sub)command.
        let mut path: Vec<String> = Vec::new();
        for word in &words[1..] {
            let mut longer = path.clone();
            longer.push(word.clone());
            if definition.contains_key(&longer) {
                path = longer;
            } else {
                break;
            }
        }
        let options = &definition[&path];
        // A shell comment ends the command.
        for word in words[1..].iter().take_while(|w| !w.starts_with('#')) {
            // `--name`, `--name=value`, and `[--name …]` as synopses write them.
            let Some(option) = word.trim_start_matches(['[', '(']).strip_prefix("--") else { continue };
            let option: String = option.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
            if option.is_empty() {
                continue;
            }
            assert!(
                options.contains(&option),
                "{place}: `hanim-viewer {}` has no option --{option} (it has: {})",
                path.join(" "),
                options.join(", ")
            );
        }
    }
}

/// GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_' || *c == ' ')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(text: &str) -> Vec<String> {
    let mut in_code = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            out.push(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

fn links_in_the_docs_lead_somewhere() {
    let mut checked = 0;
    for (path, text) in docs() {
        let name = path.strip_prefix(ROOT).unwrap().display().to_string();
        let folder = path.parent().unwrap();
        for (n, line) in text.lines().enumerate() {
            for (at, _) in line.match_indices("](") {
                let rest = &line[at + 2..];
                let Some(end) = rest.find(')') else { continue };
                let target = &rest[..end];
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                let (file, fragment) = target.split_once('#').unwrap_or((target, ""));
                let file_path = if file.is_empty() { path.clone() } else { folder.join(file) };
                assert!(file_path.exists(), "{name}:{}: {target}: {} does not exist", n + 1, file_path.display());
                if !fragment.is_empty() && file_path.extension().is_some_and(|e| e == "md") {
                    let headings = anchors(&std::fs::read_to_string(&file_path).unwrap());
                    assert!(
                        headings.iter().any(|h| h == fragment),
                        "{name}:{}: no heading #{fragment} in {file}",
                        n + 1
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 50, "{checked} links");
}

/// `examples/pose_and_render.rs`, which `cargo test` builds beside the test binaries, run as the guide's
/// architecture chapter shows it.
fn the_library_example_poses_a_joint_and_renders_a_png() {
    common::needs_gpu();
    let deps = std::env::current_exe().unwrap().parent().unwrap().to_path_buf();
    let example = deps.parent().unwrap().join("examples").join("pose_and_render");
    assert!(example.exists(), "{} (cargo test builds the examples)", example.display());
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("arm.png");
    let run = |joint: &str| {
        Command::new(&example)
            .args([&resolve("tests/corpus/x3d/JoeKick.x3d"), joint, out.to_str().unwrap()])
            .output()
            .expect("the example runs")
    };
    let output = run("l_shoulder");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("l_shoulder turned 90°, 480x480 pixels"), "{stdout}");
    let (width, height, rgba) = common::window::read_rgba(&out);
    assert_eq!((width, height), (480, 480));
    let background = &rgba[..4];
    assert!(rgba.chunks(4).filter(|p| *p != background).count() > 1000, "a figure is drawn");
    // A joint the file does not have is an error, and nothing is written.
    std::fs::remove_file(&out).unwrap();
    let output = run("no_such_joint");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("no joint named 'no_such_joint'"));
    assert!(!out.exists());
}
