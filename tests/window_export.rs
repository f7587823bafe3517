//! End-to-end: the real window under Xvfb exports animations (File ▸ Export animation…, driven by the
//! script's `export-animation` step): JoeKick's KickTimer as a GIF seen through the window's camera, the
//! pose as a WebP turntable. The files are decoded: frame counts, sizes and frames that move.
//!
//! Needs `xvfb-run` (package `xvfb`) and a Vulkan adapter (lavapipe). Under `CI=true` a missing display
//! or adapter fails the test; elsewhere it is reported ignored.

mod common;

test_main!(the_window_exports_the_clip_and_a_turntable);

use common::window::run_script;
use image::AnimationDecoder;

fn changed_pixels(a: &[u8], b: &[u8]) -> usize {
    a.chunks(4).zip(b.chunks(4)).filter(|(p, q)| p.iter().zip(q.iter()).any(|(u, v)| u.abs_diff(*v) > 24)).count()
}

fn the_window_exports_the_clip_and_a_turntable() {
    let file = common::corpus("x3d/JoeKick.x3d");
    let dir = tempfile::tempdir().unwrap();
    let (gif, webp, bad) = (dir.path().join("kick.gif"), dir.path().join("turn.webp"), dir.path().join("x.txt"));
    let script = dir.path().join("export.txt");
    std::fs::write(
        &script,
        format!(
            "view front\nmotion KickTimer 0\nexport-animation clip 96 64 4 {}\nexport-animation turntable 64 64 2 {}\nquit\n",
            gif.display(),
            webp.display()
        ),
    )
    .unwrap();
    let _log = run_script("window_export", Some(&file), &script, dir.path());
    // KickTimer is 3.73 s: at 4 per second 0, 0.25, …, 3.5 s, its start to its end.
    let reader = std::io::BufReader::new(std::fs::File::open(&gif).unwrap());
    let frames = image::codecs::gif::GifDecoder::new(reader).unwrap().into_frames().collect_frames().unwrap();
    assert_eq!(frames.len(), 15);
    assert_eq!(frames[0].buffer().dimensions(), (96, 64));
    let (first, kick) = (frames[0].buffer().as_raw(), frames[6].buffer().as_raw());
    assert!(changed_pixels(first, kick) > 40, "the kick moves the figure");
    // The default turntable turns once in 4 s: 8 frames at 2 per second.
    let bytes = std::fs::read(&webp).unwrap();
    let turn: Vec<Vec<u8>> =
        webp_animation::Decoder::new(&bytes).unwrap().into_iter().map(|f| f.data().to_vec()).collect();
    assert_eq!(turn.len(), 8);
    assert!(changed_pixels(&turn[0], &turn[2]) > 40, "a quarter turn shows another side");

    // A name with no animation extension: the scripted run ends with the error, and nothing is written.
    std::fs::write(&script, format!("export-animation turntable 32 32 2 {}\nquit\n", bad.display())).unwrap();
    common::window::run_script_expecting_failure("window_export", Some(&file), &script, dir.path());
    assert!(!bad.exists());
}
