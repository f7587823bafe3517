//! End-to-end: the window's computed views frame the pose the figure has when the user switches to
//! them, and keep that framing until the next switch. JoeKick's right arm is raised straight up after
//! switching to the front view: the kept (rest-pose) framing cuts the hand at the top of the picture;
//! switching views again frames the raised arm with a margin.
//!
//! Needs `xvfb-run` (package `xvfb`) and a Vulkan adapter (lavapipe). Under `CI=true` a missing display
//! or adapter fails the test; elsewhere it skips with a loud message.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(180);

fn in_ci() -> bool {
    std::env::var("CI").as_deref() == Ok("true")
}

fn skip_or_fail(why: &str) {
    if in_ci() {
        panic!("CI=true but the window test cannot run: {why}");
    }
    eprintln!("SKIP window_views: {why} -- this test did not run");
}

fn has_program(name: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {name}"))
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn read_rgba(path: &Path) -> (u32, u32, Vec<u8>) {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut reader = png::Decoder::new(std::io::BufReader::new(file)).read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// Pixels of rows `rows` that differ from the top-left pixel (the background) by more than 24.
fn drawn_in_rows(width: u32, rgba: &[u8], rows: std::ops::Range<u32>) -> usize {
    let background = &rgba[..4];
    rows.flat_map(|y| (0..width).map(move |x| ((y * width + x) * 4) as usize))
        .filter(|&i| rgba[i..i + 3].iter().zip(background).any(|(a, b)| a.abs_diff(*b) > 24))
        .count()
}

#[test]
fn computed_views_frame_the_pose_at_the_moment_of_the_switch() {
    let runner = if has_program("xvfb-run") {
        vec!["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24"]
    } else if std::env::var_os("DISPLAY").is_some() {
        Vec::new()
    } else {
        return skip_or_fail("neither xvfb-run (package xvfb) nor DISPLAY is available");
    };
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/x3d/JoeKick.x3d");
    let dir = tempfile::tempdir().unwrap();
    let shot = |name: &str| dir.path().join(name);
    let script = dir.path().join("views.txt");
    std::fs::write(
        &script,
        format!(
            "limits off\nview front\nrotate r_shoulder 0 0 -170\nscreenshot {}\nview side\nview front\nscreenshot {}\nquit\n",
            shot("kept.png").display(),
            shot("switched.png").display()
        ),
    )
    .unwrap();
    let exe = env!("CARGO_BIN_EXE_hanim-viewer");
    let mut command = match runner.split_first() {
        Some((first, args)) => {
            let mut c = Command::new(first);
            c.args(args).arg(exe);
            c
        }
        None => Command::new(exe),
    };
    // A wide window: the view's height is what limits the framing, as on most screens.
    command
        .arg(&file)
        .arg("--script")
        .arg(&script)
        .arg("--size")
        .arg("1260x560")
        .env("HANIM_VIEWER_CONFIG_DIR", dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("the viewer starts");
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
    let log = String::from_utf8_lossy(&child.wait_with_output().unwrap().stderr).into_owned();
    if !status.success() {
        let lower = log.to_lowercase();
        let environment =
            ["no gpu adapter", "opening the display", "surface", "xvfb"].iter().any(|w| lower.contains(w));
        if environment && !in_ci() {
            return skip_or_fail(&format!("the viewer could not open a window or adapter here:\n{log}"));
        }
        panic!("the viewer exited with {status}\n{log}");
    }
    let (w, h, kept) = read_rgba(&shot("kept.png"));
    let (w2, h2, switched) = read_rgba(&shot("switched.png"));
    assert_eq!((w, h), (w2, h2));
    assert!(w > h, "a wide 3D view: {w}x{h}");
    let margin = h / 50;
    let (cut, clear) = (drawn_in_rows(w, &kept, 0..margin), drawn_in_rows(w, &switched, 0..margin));
    let figure = drawn_in_rows(w, &switched, 0..h / 2);
    eprintln!(
        "{w}x{h}: top {margin} rows: {cut} figure pixels kept framing, {clear} after the switch; {figure} above the middle"
    );
    assert!(cut > 0, "the framing kept from the rest pose cuts the raised hand at the top");
    assert_eq!(clear, 0, "switching frames the raised arm with a margin");
    assert!(figure > 2000, "the figure is drawn ({figure} pixels in the upper half)");
}
