//! Animated output of `render`: a clip, a retargeted capture and a turntable written straight into GIF,
//! APNG and WebP (decoded back here: frame counts, sizes, delays, loop counts, frames that move), MP4
//! through a stand-in `ffmpeg` on PATH (the raw frames it is piped) and the message without one, and
//! failed renders that leave nothing behind. Small images: lavapipe renders on the CPU.

mod common;

test_main!(
    a_clip_becomes_a_looping_gif_whose_frames_move,
    apng_and_webp_hold_the_same_frames_with_their_timing_and_loop_count,
    a_turntable_circles_the_figure_and_a_capture_animates,
    videos_are_piped_to_ffmpeg_and_without_it_the_message_says_what_to_do,
    bad_requests_are_refused_before_rendering_and_leave_nothing,
    real_ffmpeg_writes_mp4_and_webm_with_every_frame
);

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use image::AnimationDecoder;

fn viewer(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hanim-viewer")).args(args).output().unwrap()
}

fn ok(output: Output, what: &str) {
    assert!(output.status.success(), "{what}: {}", String::from_utf8_lossy(&output.stderr));
}

/// Every file name in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

/// A decoded frame: RGBA pixels and its delay in milliseconds.
type Frame = (Vec<u8>, u32);

/// Frames of a GIF, and its size.
fn gif_frames(path: &Path) -> ((u32, u32), Vec<Frame>) {
    let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let decoder = image::codecs::gif::GifDecoder::new(file).unwrap();
    let frames = decoder.into_frames().collect_frames().unwrap();
    let size = frames[0].buffer().dimensions();
    let frames = frames
        .into_iter()
        .map(|f| {
            let (n, d) = f.delay().numer_denom_ms();
            (f.into_buffer().into_raw(), n / d)
        })
        .collect();
    (size, frames)
}

/// The NETSCAPE loop count of a GIF (`None`: no extension, it plays once).
fn gif_repeat(path: &Path) -> Option<u16> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(std::fs::File::open(path).unwrap()).unwrap();
    while decoder.read_next_frame().unwrap().is_some() {}
    match decoder.repeat() {
        gif::Repeat::Infinite => Some(0),
        gif::Repeat::Finite(0) => None,
        gif::Repeat::Finite(n) => Some(n),
    }
}

/// Pixels that differ by more than 24 in some channel.
fn changed(a: &[u8], b: &[u8]) -> usize {
    a.chunks_exact(4).zip(b.chunks_exact(4)).filter(|(p, q)| (0..3).any(|c| p[c].abs_diff(q[c]) > 24)).count()
}

fn joe() -> PathBuf {
    common::corpus("x3d/JoeKick.x3d")
}

fn a_clip_becomes_a_looping_gif_whose_frames_move() {
    common::needs_gpu();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("kick.gif");
    let joe = joe();
    ok(
        viewer(&[
            "render",
            joe.to_str().unwrap(),
            "--motion",
            "KickTimer",
            "--size",
            "96x72",
            "--anim-fps",
            "10",
            "--colors",
            "64",
            "--out",
            out.to_str().unwrap(),
        ]),
        "render --motion KickTimer --out kick.gif",
    );
    let ((w, h), frames) = gif_frames(&out);
    assert_eq!((w, h), (96, 72));
    // KickTimer loops over 3.73 s: 37 frames at 10 per second, the 38th would be the first again.
    assert_eq!(frames.len(), 37);
    assert!(frames.iter().all(|(_, delay)| *delay == 100), "10 fps is 100 ms a frame");
    assert_eq!(gif_repeat(&out), Some(0), "loops forever by default");
    // The kick moves the figure: a frame in the middle differs from the first, the clip's start and end
    // (a loop) are alike.
    let middle = changed(&frames[0].0, &frames[18].0);
    assert!(middle > 100, "frame 18 differs from frame 0 in {middle} pixels only");
    // One global palette of at most 64 colours: no frame has more.
    for (i, (rgba, _)) in frames.iter().enumerate() {
        let colours: std::collections::HashSet<&[u8]> = rgba.chunks_exact(4).collect();
        assert!(colours.len() <= 64, "frame {i} has {} colours", colours.len());
    }
    assert_eq!(listing(dir.path()), ["kick.gif"], "no temporary file is left");
}

fn apng_and_webp_hold_the_same_frames_with_their_timing_and_loop_count() {
    common::needs_gpu();
    let dir = tempfile::tempdir().unwrap();
    let joe = joe();
    let render = |name: &str, extra: &[&str]| {
        let out = dir.path().join(name);
        let mut args =
            vec!["render", joe.to_str().unwrap(), "--motion", "KickTimer", "--size", "64x48", "--anim-fps", "5"];
        args.extend(extra);
        args.extend(["--out", out.to_str().unwrap()]);
        ok(viewer(&args), name);
        out
    };
    // `.png` is a still unless asked for an animation; `.apng` always animates.
    let apng = render("kick.png", &["--animate", "--loop", "3"]);
    let file = std::io::BufReader::new(std::fs::File::open(&apng).unwrap());
    let mut reader = png::Decoder::new(file).read_info().unwrap();
    let control = reader.info().animation_control.expect("an animated PNG");
    // 3.73 s at 5 per second: 19 frames (rounded), played three times.
    assert_eq!((control.num_frames, control.num_plays), (19, 3));
    let mut apng_frames = Vec::new();
    for _ in 0..control.num_frames {
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        let fc = reader.info().frame_control.expect("each frame has its control chunk");
        assert_eq!((fc.delay_num, fc.delay_den), (200, 1000), "200 ms a frame");
        apng_frames.push(buf);
    }
    let webp = render("kick.webp", &[]);
    let bytes = std::fs::read(&webp).unwrap();
    let decoder = webp_animation::Decoder::new(&bytes).unwrap();
    let webp_frames: Vec<(i32, Vec<u8>)> = decoder.into_iter().map(|f| (f.timestamp(), f.data().to_vec())).collect();
    assert_eq!(webp_frames.len(), 19);
    // libwebp stamps each frame with its end time.
    let stamps: Vec<i32> = webp_frames.iter().map(|(t, _)| *t).collect();
    assert_eq!(stamps, (1..=19).map(|i| i * 200).collect::<Vec<_>>());
    // Lossless WebP and APNG hold exactly the rendered pixels: the same frames.
    for (i, ((_, w), a)) in webp_frames.iter().zip(&apng_frames).enumerate() {
        assert_eq!(w, a, "frame {i} differs between WebP and APNG");
    }
    assert!(changed(&apng_frames[0], &apng_frames[9]) > 50, "the clip moves");
}

fn a_turntable_circles_the_figure_and_a_capture_animates() {
    common::needs_gpu();
    let dir = tempfile::tempdir().unwrap();
    let jin = common::corpus("x3d/JinLOA1.x3d");
    let turntable = dir.path().join("turn.gif");
    ok(
        viewer(&[
            "render",
            jin.to_str().unwrap(),
            "--turntable",
            "2",
            "--anim-fps",
            "4",
            "--size",
            "64x96",
            "--palette",
            "per-frame",
            "--out",
            turntable.to_str().unwrap(),
        ]),
        "render --turntable 2",
    );
    let ((w, h), frames) = gif_frames(&turntable);
    assert_eq!(((w, h), frames.len()), ((64, 96), 8));
    // A quarter turn shows the side: a different silhouette; the figure is in every frame.
    assert!(changed(&frames[0].0, &frames[2].0) > 100);
    for (i, (rgba, _)) in frames.iter().enumerate() {
        let corner = &rgba[..4];
        let drawn = rgba.chunks_exact(4).filter(|p| (0..3).any(|c| p[c].abs_diff(corner[c]) > 24)).count();
        assert!(drawn > 200, "frame {i} shows {drawn} figure pixels");
        // Nothing of the figure touches the image's border: framed for every angle.
        let border = (0..w).flat_map(|x| [(x, 0), (x, h - 1)]).chain((0..h).flat_map(|y| [(0, y), (w - 1, y)]));
        for (x, y) in border {
            let p = &rgba[((y * w + x) * 4) as usize..][..4];
            assert!((0..3).all(|c| p[c].abs_diff(corner[c]) <= 24), "frame {i}: figure at the border ({x},{y})");
        }
    }
    // A CMU walk retargeted onto Jin, 1/10 of its frames.
    let (amc, asf) = (common::corpus("asf/07_05.amc"), common::corpus("asf/07.asf"));
    let walk = dir.path().join("walk.webp");
    ok(
        viewer(&[
            "render",
            jin.to_str().unwrap(),
            "--amc",
            amc.to_str().unwrap(),
            "--asf",
            asf.to_str().unwrap(),
            "--anim-fps",
            "6",
            "--webp-quality",
            "80",
            "--size",
            "48x64",
            "--out",
            walk.to_str().unwrap(),
        ]),
        "render --amc 07_05.amc --out walk.webp",
    );
    let bytes = std::fs::read(&walk).unwrap();
    let frames: Vec<Vec<u8>> =
        webp_animation::Decoder::new(&bytes).unwrap().into_iter().map(|f| f.data().to_vec()).collect();
    let capture = hanim_viewer::mocap::load_asf_amc(&asf, Some(&amc), 120.0).unwrap();
    let seconds = capture.clip.frame_count() as f64 / 120.0;
    let expected = (seconds * 6.0).round() as usize;
    assert!(frames.len().abs_diff(expected) <= 1, "{} frames for {seconds} s at 6 fps", frames.len());
    assert!(changed(&frames[0], &frames[frames.len() / 2]) > 30, "the walk moves");
}

fn videos_are_piped_to_ffmpeg_and_without_it_the_message_says_what_to_do() {
    common::needs_gpu();
    let dir = tempfile::tempdir().unwrap();
    let joe = joe();
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let video = out.join("kick.mp4");
    let run = |path_var: &Path| {
        Command::new(env!("CARGO_BIN_EXE_hanim-viewer"))
            .args(["render", joe.to_str().unwrap(), "--motion", "KickTimer", "--size", "32x24", "--anim-fps", "4"])
            .arg("--out")
            .arg(&video)
            .env("PATH", path_var)
            .output()
            .unwrap()
    };
    // No ffmpeg on PATH: a clear error, nothing written.
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let failed = run(&empty);
    let stderr = String::from_utf8_lossy(&failed.stderr);
    assert!(!failed.status.success());
    assert!(stderr.contains("needs an `ffmpeg` binary on PATH") && stderr.contains(".gif, .apng or .webp"), "{stderr}");
    assert!(listing(&out).is_empty(), "{:?}", listing(&out));
    // A stand-in ffmpeg that stores what it is piped (raw RGBA at the size and rate it is told) in the
    // output file it is given last: the frames reach it, and its file becomes the video.
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let fake = bin.join("ffmpeg");
    std::fs::write(&fake, "#!/bin/sh\nfor last; do :; done\necho \"$*\" > \"$last.args\"\nexec /bin/cat > \"$last\"\n")
        .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let piped = run(&bin);
    assert!(piped.status.success(), "{}", String::from_utf8_lossy(&piped.stderr));
    let frames = (3.73f64 * 4.0).round() as u64;
    assert_eq!(std::fs::metadata(&video).unwrap().len(), frames * 32 * 24 * 4);
    let names = listing(&out);
    let args_file = names.iter().find(|n| n.ends_with(".args")).expect("the stand-in's argument record");
    let args = std::fs::read_to_string(out.join(args_file)).unwrap();
    for expected in ["-f rawvideo", "-pix_fmt rgba", "-s 32x24", "-r 4", "-i pipe:0", "libx264", "-f mp4"] {
        assert!(args.contains(expected), "ffmpeg was called with {args}");
    }
    // A stand-in that fails: its message is reported and no video appears.
    std::fs::remove_file(&video).unwrap();
    std::fs::write(&fake, "#!/bin/sh\necho 'Unknown encoder libx264' >&2\nexit 1\n").unwrap();
    let broken = run(&bin);
    let stderr = String::from_utf8_lossy(&broken.stderr);
    assert!(!broken.status.success() && stderr.contains("Unknown encoder libx264"), "{stderr}");
    assert!(!out.join("kick.mp4").exists());
}

fn bad_requests_are_refused_before_rendering_and_leave_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let joe = joe();
    let out = dir.path().join("x.gif");
    let jpg = dir.path().join("t.jpg");
    let cases: [(&[&str], &str); 4] = [
        (&["--out", out.to_str().unwrap()], "needs a clip (--motion, --amc or --bvh) or --turntable"),
        (&["--turntable", "--out", jpg.to_str().unwrap()], "written as .gif, .apng"),
        (&["--motion", "KickTimer", "--colors", "1", "--out", out.to_str().unwrap()], "1"),
        (&["--turntable", "-2", "--out", out.to_str().unwrap()], "-2"),
    ];
    for (extra, message) in cases {
        let mut args = vec!["render", joe.to_str().unwrap()];
        args.extend(extra);
        let result = viewer(&args);
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert!(!result.status.success() && stderr.contains(message), "{extra:?}: {stderr}");
    }
    // A view no file has, found only when rendering starts: no animation and no temporary file remain.
    if common::gpu_if_any("the view that is found missing only when rendering starts is not tried").is_some() {
        let result = viewer(&[
            "render",
            joe.to_str().unwrap(),
            "--motion",
            "KickTimer",
            "--view",
            "NoSuchView",
            "--size",
            "32x24",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(!result.status.success());
    }
    assert!(listing(dir.path()).is_empty(), "{:?}", listing(dir.path()));
}

/// With the real `ffmpeg` (Debian's package; `.ci/run` installs it): MP4 (H.264) and WebM (VP9) files
/// that `ffprobe` reads back with every frame at the size and rate asked for.
fn real_ffmpeg_writes_mp4_and_webm_with_every_frame() {
    let has = |program: &str| Command::new(program).arg("-version").output().is_ok_and(|o| o.status.success());
    if !has("ffmpeg") || !has("ffprobe") {
        common::harness::skip("ffmpeg/ffprobe not on PATH (apt-get install ffmpeg)");
    }
    common::needs_gpu();
    let dir = tempfile::tempdir().unwrap();
    let joe = joe();
    for (name, codec) in [("kick.mp4", "h264"), ("kick.webm", "vp9")] {
        let out = dir.path().join(name);
        let args = [
            "render",
            joe.to_str().unwrap(),
            "--motion",
            "KickTimer",
            "--size",
            "96x96",
            "--anim-fps",
            "10",
            "--out",
            out.to_str().unwrap(),
        ];
        ok(viewer(&args), name);
        let probe = Command::new("ffprobe")
            .args(["-v", "error", "-count_frames", "-show_entries"])
            .args(["stream=codec_name,width,height,nb_read_frames,r_frame_rate", "-of", "compact"])
            .arg(&out)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&probe.stdout);
        assert!(text.contains(&format!("codec_name={codec}")), "{name}: {text}");
        assert!(text.contains("width=96|height=96"), "{name}: {text}");
        assert!(text.contains("r_frame_rate=10/1"), "{name}: {text}");
        let frames: u32 = text
            .split('|')
            .find_map(|f| f.trim().strip_prefix("nb_read_frames="))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("{name}: {text}"));
        // KickTimer lasts 3.73 s: 38 frames at 10 per second (37.3 rounded up, first and last included).
        assert!((37..=39).contains(&frames), "{name}: {frames} frames");
    }
}
