//! Moving catalogues and catalogues in shares: `catalog --animate` writes a preview per clip (a turntable
//! for a figure without clips) and filmstrips on the contact sheets; `catalog --motions DIR --onto`
//! catalogues captures; four shards run side by side with GNU `parallel` (Debian package `parallel`)
//! and `catalog merge` give the unsharded catalogue byte for byte (every image, preview and sheet) and
//! entry for entry (index.html, catalog.json).

mod common;

test_main!(
    four_shards_run_with_parallel_and_merged_equal_one_run,
    a_folder_of_captures_becomes_a_moving_catalogue_on_one_humanoid
);

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_hanim-viewer");

/// Every file under `dir`, relative, sorted.
fn files_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p.strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    out.sort();
    out
}

fn gif_frame_count(path: &Path) -> usize {
    use image::AnimationDecoder;
    let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    image::codecs::gif::GifDecoder::new(file).unwrap().into_frames().count()
}

fn png_size(path: &Path) -> (u32, u32) {
    let reader = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap())).read_info().unwrap();
    (reader.info().width, reader.info().height)
}

/// The catalogue options every run of the shard test uses: small, quick previews.
const QUICK: &[&str] =
    &["--views", "front,side", "--size", "48x48", "--animate", "--anim-fps", "4", "--preview-seconds", "1.5"];

/// Skips the test when GNU parallel is not installed (under CI=true: fails).
fn needs_parallel() {
    if !Command::new("parallel").arg("--version").output().is_ok_and(|o| o.status.success()) {
        common::harness::skip("GNU parallel not found (apt-get install parallel)");
    }
}

/// A folder with a few corpus humanoids: clips (JoeKick's KickTimer, Jin's disabled motion) and still
/// figures (DiamondManLOA1, HAnimModelHandLeft), and one file that fails.
fn inputs(dir: &Path) -> PathBuf {
    let folder = dir.join("inputs");
    std::fs::create_dir_all(&folder).unwrap();
    for name in ["JoeKick.x3d", "DiamondManLOA1.x3d", "HAnimModelHandLeft.x3d", "JohnJoint20.x3d", "JinLOA1.x3d"] {
        std::fs::copy(common::corpus(&format!("x3d/{name}")), folder.join(name)).unwrap();
    }
    std::fs::write(folder.join("broken.x3d"), "<X3D><Scene><HAnimHumanoid name='x'>").unwrap();
    folder
}

fn four_shards_run_with_parallel_and_merged_equal_one_run() {
    common::needs_gpu();
    needs_parallel();
    let dir = tempfile::tempdir().unwrap();
    let folder = inputs(dir.path());
    let whole = dir.path().join("whole");
    let status = Command::new(BIN).arg("catalog").arg(&folder).args(QUICK).arg("--out").arg(&whole).output().unwrap();
    assert_eq!(status.status.code(), Some(1), "broken.x3d fails: {}", String::from_utf8_lossy(&status.stderr));

    // The four shares side by side, as docs/guide/catalogues.md shows.
    let shards = dir.path().join("shards");
    let mut command = Command::new("parallel");
    command.args(["--halt", "never", "--jobs", "4"]).arg(BIN).arg("catalog").arg(&folder).args(QUICK);
    command.arg("--shard").arg("{}/4").arg("--out").arg(shards.join("{}")).args([":::", "1", "2", "3", "4"]);
    let ran = command.output().unwrap();
    // parallel exits with the number of failed jobs: the share with broken.x3d exits 1.
    assert_eq!(ran.status.code(), Some(1), "{}", String::from_utf8_lossy(&ran.stderr));
    let mut sizes = Vec::new();
    for i in 1..=4 {
        let share: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(shards.join(format!("{i}/catalog.json"))).unwrap()).unwrap();
        sizes.push(share["files"].as_u64().unwrap());
    }
    assert_eq!(sizes, [2, 2, 1, 1], "six inputs dealt round-robin");

    let merged = dir.path().join("merged");
    let merge = Command::new(BIN)
        .args(["catalog", "merge"])
        .args((1..=4).map(|i| shards.join(i.to_string())))
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    assert_eq!(merge.status.code(), Some(1), "a failure is listed: {}", String::from_utf8_lossy(&merge.stderr));

    let files = files_under(&whole);
    assert_eq!(files_under(&merged), files);
    for f in &files {
        let (a, b) = (std::fs::read(whole.join(f)).unwrap(), std::fs::read(merged.join(f)).unwrap());
        assert!(a == b, "{f} differs between the unsharded and the merged catalogue");
    }
    // What the shared files hold: previews of the clips, turntables of the still figures.
    for expected in [
        "previews/JoeKick-KickTimer.gif",
        "previews/DiamondManLOA1-turntable.gif",
        "previews/JohnJoint20-turntable.gif",
        "index.html",
        "catalog.json",
    ] {
        assert!(files.contains(&expected.to_string()), "{expected} missing from {files:?}");
    }
    // KickTimer (3.73 s) is previewed for its first 1.5 s at 4 per second: 7 frames (0 to 1.5 s).
    assert_eq!(gif_frame_count(&whole.join("previews/JoeKick-KickTimer.gif")), 7);
    assert_eq!(gif_frame_count(&whole.join("previews/DiamondManLOA1-turntable.gif")), 16);
    // JoeKick's sheet: the two views, then the filmstrip (every 1st of 7 frames, at most 8) under them.
    let gap = 8;
    assert_eq!(png_size(&whole.join("sheets/JoeKick.png")), (7 * 48 + 8 * gap, 2 * 48 + 3 * gap));
    let html = std::fs::read_to_string(whole.join("index.html")).unwrap();
    assert!(html.contains("<img src=\"previews/JoeKick-KickTimer.gif\""), "the page shows the preview");
    assert!(html.contains("KickTimer: the first 1.5 s of 3.73 s."), "and says it is cut short");
    assert!(html.contains("broken.x3d"), "and lists the failure");

    // Shares of different catalogues are not merged.
    let other = dir.path().join("other");
    let made = Command::new(BIN)
        .args(["catalog", "--views", "front", "--size", "48x48", "--shard", "1/4", "--out"])
        .arg(&other)
        .arg(&folder)
        .output()
        .unwrap();
    assert_eq!(made.status.code(), Some(0), "{}", String::from_utf8_lossy(&made.stderr));
    let refused = Command::new(BIN)
        .args(["catalog", "merge"])
        .arg(&other)
        .arg(shards.join("2"))
        .arg("--out")
        .arg(dir.path().join("x"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success() && stderr.contains("settings differ"), "{stderr}");
}

fn a_folder_of_captures_becomes_a_moving_catalogue_on_one_humanoid() {
    common::needs_gpu();
    let dir = tempfile::tempdir().unwrap();
    let takes = dir.path().join("takes");
    std::fs::create_dir_all(takes.join("bvh")).unwrap();
    for name in ["asf/07.asf", "asf/07_05.amc", "asf/131.asf", "asf/131_04.amc"] {
        std::fs::copy(common::corpus(name), takes.join(Path::new(name).file_name().unwrap())).unwrap();
    }
    std::fs::copy(common::corpus("bvh/131_03.bvh"), takes.join("bvh/131_03.bvh")).unwrap();
    // An .amc without its skeleton fails alone.
    std::fs::copy(common::corpus("asf/09_06.amc"), takes.join("09_06.amc")).unwrap();
    let out = dir.path().join("out");
    let jin = common::corpus("x3d/JinLOA1.x3d");
    let run = Command::new(BIN)
        .args(["catalog", "--motions"])
        .arg(&takes)
        .arg("--onto")
        .arg(&jin)
        .args(["--size", "48x64", "--animate", "webp", "--anim-fps", "5", "--preview-seconds", "2", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("09_06.amc") && stderr.contains("no .asf skeleton beside it"), "{stderr}");
    let files = files_under(&out);
    assert_eq!(
        files,
        [
            "catalog.json",
            "index.html",
            "previews/07_05-07_05.webp",
            "previews/131_04-131_04.webp",
            "previews/bvh__131_03-131_03.webp",
            "sheets/07_05.png",
            "sheets/131_04.png",
            "sheets/bvh__131_03.png"
        ]
    );
    // Two seconds at five per second: 11 frames (0 to 2 s), a filmstrip of 6 (every 2nd).
    let bytes = std::fs::read(out.join("previews/07_05-07_05.webp")).unwrap();
    assert_eq!(webp_animation::Decoder::new(&bytes).unwrap().into_iter().count(), 11);
    assert_eq!(png_size(&out.join("sheets/07_05.png")), (6 * 48 + 7 * 8, 64 + 2 * 8));
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    for expected in [
        "<title>Motion capture catalogue</title>",
        "3 take(s) from 4 file(s); 1 failed.",
        "<tr><th>frame rate</th><td>120.00 frames per second</td></tr>",
        "<tr><th>capture joints</th><td>31</td></tr>",
    ] {
        assert!(html.contains(expected), "index.html lacks {expected}");
    }
    let capture =
        hanim_viewer::mocap::load_asf_amc(&takes.join("07.asf"), Some(&takes.join("07_05.amc")), 120.0).unwrap();
    let length = format!("<tr><th>length</th><td>{:.2} s</td></tr>", (capture.clip.frame_count() - 1) as f64 / 120.0);
    assert!(html.contains(&length), "index.html lacks {length}");
    // Jin is LOA1: the spine and hand joints the built-in mapping drives on fuller figures are missing,
    // and the page says so; a mapping that leaves joints out and names a joint Jin lacks gets both notes.
    assert!(html.contains("the humanoid lacking their targets: upperback (vl3), thorax (vt10)"), "{html}");
    let map = dir.path().join("map.txt");
    std::fs::write(&map, "lhumerus\nrhumerus r_no_such_joint\n").unwrap();
    std::fs::remove_file(takes.join("09_06.amc")).unwrap();
    let mapped = dir.path().join("mapped");
    let run = Command::new(BIN)
        .args(["catalog", "--motions"])
        .arg(&takes)
        .arg("--onto")
        .arg(&jin)
        .arg("--map")
        .arg(&map)
        .args(["--size", "32x32", "--preview-seconds", "0.5", "--out"])
        .arg(&mapped)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let html = std::fs::read_to_string(mapped.join("index.html")).unwrap();
    assert!(html.contains("Retargeting: capture joints the mapping leaves out: root, lhipjoint,"), "{html}");
    assert!(html.contains("the humanoid lacking their targets: rhumerus (r_no_such_joint)."), "{html}");
    assert!(html.contains("with the mapping "), "the page names the mapping file");
}
