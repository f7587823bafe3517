//! three.js, the most used glTF renderer on the web, draws the glTF this program writes as this program
//! draws the humanoid: each export is loaded with three's GLTFLoader in headless Chromium, posed at rest
//! and at three times of its first animation by three's AnimationMixer, and drawn at the camera of our own
//! picture (`render --camera-json`); the two silhouettes agree with an IoU within one pixel of at least
//! 0.97 (tests/common/image_compare.rs says how it is measured).
//!
//! Three corpus humanoids run by default (a skinned one with a displacer and an interpolator clip, a
//! segmented one with an HAnimMotion, a skinned one with a texture); `HANIM_THREE_FILES=all` runs every
//! corpus humanoid and prints the table docs/gltf.md gives, `HANIM_THREE_OUT=DIR` keeps the pictures.
//! It needs node, `npm ci --prefix tools/gltf` (three, playwright-core) and Chromium (`CHROMIUM`, default
//! /usr/bin/chromium); without them it is ignored, and fails under CI=true (`.ci/run` installs them).

mod common;

test_main!(three_js_draws_each_export_as_we_draw_the_humanoid);

use std::path::{Path, PathBuf};
use std::process::Command;

use common::image_compare::{RgbPicture, compare};
use hanim_viewer::animation::{Animations, SampleOptions};
use hanim_viewer::gpu::GpuContext;
use hanim_viewer::gpu::lighting::Lighting;
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::output::encode_png;
use hanim_viewer::render::{RenderError, SceneRequest, render_document, render_times};

const DEFAULT_FILES: [&str; 3] =
    ["x3d/JoeSkinTexcoordDisplacerKick.x3d", "x3d/KoreanCharacterMotionAnnexD01Jin.x3d", "x3d/JoeKick.x3d"];
const SIZE: u32 = 320;
const LEAST_IOU: f64 = 0.97;

fn project() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn chromium() -> PathBuf {
    std::env::var_os("CHROMIUM").map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from)
}

/// Every humanoid of the corpus (the validator test's list), or the default three.
fn files() -> Vec<PathBuf> {
    if std::env::var("HANIM_THREE_FILES").as_deref() != Ok("all") {
        return DEFAULT_FILES.iter().map(|f| common::corpus(f)).collect();
    }
    let mut files = Vec::new();
    for folder in ["x3d", "vrml"] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(common::corpus_folder(folder))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "x3d" || e == "x3dv" || e == "wrl"))
            .filter(|p| hanim_viewer::hanim::load(p).is_ok_and(|d| !d.humanoids.is_empty()))
            .collect();
        found.sort();
        files.extend(found);
    }
    files
}

/// The first animation of a GLB (its name and length), read from its JSON chunk.
fn first_animation(glb: &Path) -> Option<(String, f64)> {
    let bytes = std::fs::read(glb).unwrap();
    let length = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let json: serde_json::Value = serde_json::from_slice(&bytes[20..20 + length]).unwrap();
    let animation = json["animations"].as_array()?.first()?;
    let accessors = json["accessors"].as_array().unwrap();
    let samplers = animation["samplers"].as_array().unwrap();
    let end = samplers
        .iter()
        .map(|s| accessors[s["input"].as_u64().unwrap() as usize]["max"][0].as_f64().unwrap())
        .fold(0.0, f64::max);
    Some((animation["name"].as_str().unwrap().to_string(), end))
}

/// One picture to take: ours is rendered now, three's later in one browser run.
struct Shot {
    label: String,
    ours: PathBuf,
    three: PathBuf,
    shot: serde_json::Value,
}

/// Our picture of `doc` at rest or at a time of a clip playing alone, as `render` draws it, and the camera
/// it was taken with (as `render --camera-json` writes it) for three to draw the same view. The studio
/// lighting's ambient light keeps faces the headlight grazes from going black, and the file's Background
/// (which a glTF asset does not carry) is left out: each picture is then a figure on a plain ground.
fn render_ours(
    ctx: &GpuContext,
    doc: &Document,
    stem: &str,
    dir: &Path,
    clip: Option<(&str, f64)>,
    glb: &Path,
) -> Shot {
    let label = clip.map_or_else(|| "rest".to_string(), |(_, t)| format!("{t:.3} s"));
    let tag = clip.map_or_else(|| "rest".to_string(), |(_, t)| format!("t{t:.3}"));
    let ours = dir.join(format!("{stem}.{tag}.hanim-viewer.png"));
    let three = dir.join(format!("{stem}.{tag}.three.png"));
    let mut request = SceneRequest::new(SIZE, SIZE);
    request.lighting = Lighting::Studio;
    let image = match clip {
        None => render_document(ctx, doc, &request).unwrap(),
        Some((name, t)) => {
            let mut animations = Animations::from_document(doc);
            let (index, tau) = animations.resolve(name, None, Some(t)).unwrap();
            animations.solo(index);
            let mut taken = None;
            render_times(ctx, doc, &animations, &SampleOptions::default(), &request, &[tau], |_, image| {
                taken = Some(image);
                Ok::<(), RenderError>(())
            })
            .unwrap();
            taken.unwrap()
        }
    };
    std::fs::write(&ours, encode_png(image.width, image.height, &image.rgba).unwrap()).unwrap();
    let c = &image.camera;
    let camera = serde_json::json!({
        "world_from_camera": c.world_from_camera.to_cols_array(), "yfov": c.fov_y(1.0),
        "near": c.near, "far": c.far, "width": image.width, "height": image.height,
    });
    let shot = serde_json::json!({
        "file": glb, "camera": camera, "out": three,
        "clip": clip.map(|(n, _)| n), "time": clip.map_or(0.0, |(_, t)| t),
    });
    Shot { label, ours, three, shot }
}

fn three_js_draws_each_export_as_we_draw_the_humanoid() {
    let node = Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    let modules = project().join("tools/gltf/node_modules");
    let installed = ["three", "playwright-core"].iter().all(|m| modules.join(m).is_dir());
    if !node {
        common::harness::skip("node is not installed");
    }
    if !installed {
        common::harness::skip("tools/gltf/node_modules lacks three or playwright-core (npm ci --prefix tools/gltf)");
    }
    if !chromium().is_file() {
        common::harness::skip(format!("no Chromium at {} (apt-get install chromium)", chromium().display()));
    }
    let ctx = common::gpu();
    let temp = tempfile::tempdir().unwrap();
    let dir = std::env::var_os("HANIM_THREE_OUT").map_or_else(|| temp.path().to_path_buf(), PathBuf::from);
    std::fs::create_dir_all(&dir).unwrap();
    let bin = env!("CARGO_BIN_EXE_hanim-viewer");
    let mut shots = Vec::new();
    for file in files() {
        let stem = file.file_name().unwrap().to_string_lossy().replace('.', "_");
        let glb = dir.join(format!("{stem}.glb"));
        let run = Command::new(bin).arg("convert").arg(&file).arg("--out").arg(&glb).output().unwrap();
        assert!(run.status.success(), "{}: {}", file.display(), String::from_utf8_lossy(&run.stderr));
        let mut doc = hanim::load(&file).unwrap();
        doc.settings.background = None;
        let mut mine = vec![render_ours(&ctx, &doc, &stem, &dir, None, &glb)];
        if let Some((name, end)) = first_animation(&glb) {
            for fraction in [0.25, 0.5, 0.75] {
                mine.push(render_ours(&ctx, &doc, &stem, &dir, Some((&name, end * fraction)), &glb));
            }
        }
        shots.push((file, mine));
    }
    // `render --camera-json` writes the camera our rest picture was taken with (what tools outside the tests
    // hand three_render.mjs).
    let (first, mine) = &shots[0];
    let written = dir.join("cli.camera.json");
    let run = Command::new(bin)
        .arg("render")
        .arg(first)
        .args(["--size", &format!("{SIZE}x{SIZE}"), "--out"])
        .arg(dir.join("cli.png"))
        .arg("--camera-json")
        .arg(&written)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let cli: serde_json::Value = serde_json::from_slice(&std::fs::read(&written).unwrap()).unwrap();
    let ours = &mine[0].shot["camera"];
    for key in ["yfov", "near", "far", "width", "height"] {
        assert!((cli[key].as_f64().unwrap() - ours[key].as_f64().unwrap()).abs() < 1e-6, "{key}: {cli} vs {ours}");
    }
    for (a, b) in cli["world_from_camera"].as_array().unwrap().iter().zip(ours["world_from_camera"].as_array().unwrap())
    {
        assert!((a.as_f64().unwrap() - b.as_f64().unwrap()).abs() < 1e-6, "{cli} vs {ours}");
    }
    let list: Vec<&serde_json::Value> = shots.iter().flat_map(|(_, s)| s.iter().map(|s| &s.shot)).collect();
    let list_file = dir.join("shots.json");
    std::fs::write(&list_file, serde_json::to_vec_pretty(&list).unwrap()).unwrap();
    let run = Command::new("node")
        .arg(project().join("tools/gltf/three_render.mjs"))
        .arg(&list_file)
        .env("CHROMIUM", chromium())
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "three.js failed:\n{log}\n{}", String::from_utf8_lossy(&run.stderr));
    let mut failures = Vec::new();
    let mut compared = 0;
    eprintln!("| file | rest | 1/4 | 1/2 | 3/4 |");
    eprintln!("|---|---|---|---|---|");
    for (file, mine) in &shots {
        let mut row = format!("| {} |", file.file_name().unwrap().to_string_lossy());
        for shot in mine {
            let ours = RgbPicture::read(&shot.ours).unwrap();
            let three = RgbPicture::read(&shot.three).unwrap();
            let c = compare(&ours, &three).unwrap();
            if c.a_pixels == 0 && c.b_pixels == 0 {
                // A humanoid without geometry (a skeleton and its motions only): nothing to compare.
                row += " nothing drawn |";
                continue;
            }
            compared += 1;
            row += &format!(" {:.4} |", c.iou_1px);
            if c.iou_1px < LEAST_IOU {
                failures.push(format!("{} at {}: {c}", file.display(), shot.label));
            }
        }
        eprintln!("{row}");
    }
    assert!(failures.is_empty(), "three.js draws differently:\n{}", failures.join("\n"));
    // The default files each have a skin or segments and a clip: four pictures each.
    assert!(compared >= 4 * DEFAULT_FILES.len(), "{compared} pictures compared");
}
