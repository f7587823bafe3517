//! Running the real viewer binary under Xvfb with a `--script`, for the end-to-end window tests.

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::harness;

/// Generous: lavapipe on two busy cores draws a frame in ~0.2 s, and a script needs tens of frames.
const TIMEOUT: Duration = Duration::from_secs(180);

fn has_program(name: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {name}"))
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Runs `hanim-viewer [file] --script script --size 900x640` under `xvfb-run -a` (or the current
/// DISPLAY), with the UI state kept in `config_dir`; returns its log. Skips the test when this machine
/// cannot open a window ([`window_works`]); panics when the viewer fails or does not quit in time.
pub fn run_script(test: &str, file: Option<&Path>, script: &Path, config_dir: &Path) -> String {
    run_script_sized(test, file, script, config_dir, "900x640")
}

/// As [`run_script`], with the window's logical size (`WIDTHxHEIGHT`).
pub fn run_script_sized(test: &str, file: Option<&Path>, script: &Path, config_dir: &Path, size: &str) -> String {
    let mut args: Vec<&OsStr> = Vec::new();
    if let Some(file) = file {
        assert!(file.exists(), "{} is missing", file.display());
        args.push(file.as_os_str());
    }
    args.extend([OsStr::new("--size"), OsStr::new(size)]);
    run_with_args(test, &args, script, config_dir)
}

/// Runs `hanim-viewer ARGS... --script script` as [`run_script`] does.
pub fn run_with_args(test: &str, args: &[&OsStr], script: &Path, config_dir: &Path) -> String {
    let mut all = args.to_vec();
    all.extend([OsStr::new("--script"), script.as_os_str()]);
    run_command(test, &all, config_dir, &[]).1
}

/// Runs `hanim-viewer FILE --script script` (900x640) for a script that must fail: returns the log;
/// panics when the viewer succeeds.
#[allow(dead_code)]
pub fn run_script_expecting_failure(test: &str, file: Option<&Path>, script: &Path, config_dir: &Path) -> String {
    let mut args: Vec<&OsStr> = file.map(|f| f.as_os_str()).into_iter().collect();
    args.extend([OsStr::new("--size"), OsStr::new("900x640"), OsStr::new("--script"), script.as_os_str()]);
    let (status, _, log) = run_viewer(test, &args, config_dir, &[]);
    assert!(!status.success(), "{test}: the script should have failed\n{log}");
    log
}

/// Runs `hanim-viewer ARGS...` under `xvfb-run -a` (or the current DISPLAY) with `env` set and the UI
/// state kept in `config_dir`; returns its standard output and log. Skips the test when this machine
/// cannot open a window ([`window_works`]); panics when the viewer fails or does not quit in time.
pub fn run_command(test: &str, args: &[&OsStr], config_dir: &Path, env: &[(&str, &str)]) -> (String, String) {
    let (status, stdout, log) = run_viewer(test, args, config_dir, env);
    if !status.success() {
        panic!("{test}: the viewer exited with {status}\n{log}");
    }
    (stdout, log)
}

/// Whether this machine can open the viewer's window: the viewer is run once per test process, empty,
/// on a script that only quits. When it cannot, every window test is skipped with that run's log (under
/// `CI=true`: fails); when it can, a window test's own failure is always a failure.
pub fn window_works() -> Result<(), String> {
    static PROBE: OnceLock<Result<(), String>> = OnceLock::new();
    PROBE
        .get_or_init(|| {
            let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
            let script = dir.path().join("probe.txt");
            std::fs::write(&script, "wait 2\nquit\n").map_err(|e| e.to_string())?;
            let args = [OsStr::new("--size"), OsStr::new("320x240"), OsStr::new("--script"), script.as_os_str()];
            let (status, _, log) = launch(&args, dir.path(), &[])?;
            if status.success() {
                return Ok(());
            }
            // The whole log once on stderr; the reason the tests are ignored names its last line.
            eprintln!("the viewer could not open a window here ({status}):\n{log}");
            let last = log.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("no output");
            Err(format!("the viewer could not open a window here: {}", last.trim()))
        })
        .clone()
}

/// Runs the viewer with `args` after [`window_works`] said that it can (else the test is skipped); its
/// status, standard output and log.
fn run_viewer(
    test: &str,
    args: &[&OsStr],
    config_dir: &Path,
    env: &[(&str, &str)],
) -> (std::process::ExitStatus, String, String) {
    if let Err(why) = window_works() {
        harness::skip(why);
    }
    launch(args, config_dir, env).unwrap_or_else(|why| panic!("{test}: {why}"))
}

/// Starts `hanim-viewer ARGS...` under `xvfb-run -a` (or the current DISPLAY) and waits for it; `Err`
/// when there is neither. Panics when it does not quit in time.
fn launch(
    args: &[&OsStr],
    config_dir: &Path,
    env: &[(&str, &str)],
) -> Result<(std::process::ExitStatus, String, String), String> {
    let runner: Vec<&str> = if has_program("xvfb-run") {
        vec!["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24"]
    } else if std::env::var_os("DISPLAY").is_some() {
        Vec::new()
    } else {
        return Err("neither xvfb-run (package xvfb) nor DISPLAY is available".to_string());
    };
    let exe = env!("CARGO_BIN_EXE_hanim-viewer");
    let mut command = match runner.split_first() {
        Some((first, args)) => {
            let mut c = Command::new(first);
            c.args(args).arg(exe);
            c
        }
        None => Command::new(exe),
    };
    command
        .args(args)
        .envs(env.iter().copied())
        .env("HANIM_VIEWER_CONFIG_DIR", config_dir)
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().map_err(|e| format!("starting the viewer: {e}"))?;
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > TIMEOUT {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!("the viewer did not quit within {TIMEOUT:?}\n{}", String::from_utf8_lossy(&out.stderr));
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let output = child.wait_with_output().unwrap();
    let log = String::from_utf8_lossy(&output.stderr).into_owned();
    Ok((status, String::from_utf8_lossy(&output.stdout).into_owned(), log))
}

/// An RGBA8 PNG as (width, height, pixels).
pub fn read_rgba(path: &Path) -> (u32, u32, Vec<u8>) {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut reader = png::Decoder::new(std::io::BufReader::new(file)).read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}
