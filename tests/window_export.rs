//! End-to-end: the real window under Xvfb exports animations (File ▸ Export animation…, driven by the
//! script's `export-animation` step): JoeKick's KickTimer as a GIF seen through the window's camera, the
//! pose as a WebP turntable. The files are decoded: frame counts, sizes and frames that move.
//!
//! File ▸ Export glTF… (the script's `export-gltf` step) writes JoeKick as a `.glb`, at its rest pose and
//! with the pose shown as rest: the Khronos validator finds no error in either, and each reads back
//! with the humanoid's joints and its clip.
//!
//! Needs `xvfb-run` (package `xvfb`) and a Vulkan adapter (lavapipe). Under `CI=true` a missing display
//! or adapter fails the test; elsewhere it is reported ignored.

mod common;

test_main!(the_window_exports_the_clip_and_a_turntable, the_window_exports_gltf_that_validates_and_reads_back);

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

fn the_window_exports_gltf_that_validates_and_reads_back() {
    use hanim_viewer::animation::Animations;
    use hanim_viewer::hanim;
    use hanim_viewer::pose::{Pose, humanoid_from_joint};

    let file = common::corpus("x3d/JoeKick.x3d");
    let dir = tempfile::tempdir().unwrap();
    let (rest, posed) = (dir.path().join("joe rest.glb"), dir.path().join("posed.gltf"));
    let script = dir.path().join("gltf.txt");
    std::fs::write(
        &script,
        format!(
            "export-gltf {}\nmotion KickTimer 1.5\nexport-gltf --current-pose {}\nquit\n",
            rest.display(),
            posed.display()
        ),
    )
    .unwrap();
    let _log = run_script("window_export", Some(&file), &script, dir.path());
    let original = hanim::load(&file).unwrap();
    let names = |doc: &hanim::Document| doc.humanoids[0].joints.iter().map(|j| j.name.clone()).collect::<Vec<_>>();
    let mut read = Vec::new();
    for written in [&rest, &posed] {
        let doc = hanim::load(written).unwrap_or_else(|e| panic!("{}: {e}", written.display()));
        assert_eq!(names(&doc), names(&original), "{}", written.display());
        assert!(Animations::from_document(&doc).find("KickTimer").is_some(), "{}: no KickTimer", written.display());
        read.push(doc);
    }
    // The posed export's rest is the kick at 1.5 s: its right foot is elsewhere than at the file's rest.
    let foot = |doc: &hanim::Document| {
        let h = &doc.humanoids[0];
        let j = h.joints.iter().position(|j| j.name == "r_talocrural").unwrap();
        humanoid_from_joint(h, &Pose::rest(h))[j].transform_point3(h.joints[j].rest.center)
    };
    assert!(foot(&read[0]).distance(foot(&original)) < 1e-4);
    assert!(foot(&read[1]).distance(foot(&original)) > 0.05, "the pose shown was not written as the rest pose");
    // The Khronos validator, where tools/gltf is installed (.ci/run installs it).
    let validator = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/gltf");
    if !validator.join("node_modules/gltf-validator").is_dir() {
        common::harness::partly("the glTF validator (npm ci --prefix tools/gltf)");
        return;
    }
    let run = std::process::Command::new("node").arg(validator.join("validate.mjs")).arg(&rest).arg(&posed).output();
    let Ok(run) = run else {
        common::harness::partly("node, for the glTF validator");
        return;
    };
    let report = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{report}");
    assert_eq!(report.lines().filter(|l| l.contains("\"errors\":0")).count(), 2, "{report}");
}
