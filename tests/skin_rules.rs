//! Skins that bend the rules are drawn as the peers that follow the standard draw them
//! (docs/wild.md, "Skins that bend the rules"), each with its `check` finding:
//! - skin Shapes with no skinCoord: drawn as authored, rigid in humanoid space (`HANIM-SKIN-NO-SKINCOORD`);
//! - a humanoid with no joints, only a skin: drawn as authored (`HANIM-NO-JOINTS`);
//! - a skinCoord no joint weights (empty or -1 skinCoordIndex, weights written on the humanoid): drawn in
//!   its bind pose (`HANIM-UNBOUND-SKIN`).
//!
//! The hand-made files of `tests/data/skin_rules/` are a strip whose upper half a 90° elbow turns when
//! the skin is bound (`bound.x3d`). The CPU reference (the oracle) keeps every departing skin at its bind
//! points whatever the pose; on the GPU (lavapipe in CI) each file draws the picture of `static.x3d`, the
//! strip as a plain Shape, and `bound.x3d` does not.

mod common;

test_main!(
    check_names_each_departure_and_not_the_bound_skin,
    the_cpu_reference_keeps_departing_skins_at_their_bind_points,
    on_the_gpu_each_departing_skin_draws_the_static_strip
);

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

use glam::{Quat, Vec3};
use hanim_viewer::gpu::agreement;
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::pose::{Pose, deform_skin};
use hanim_viewer::render::{self as headless, RenderedImage, SceneRequest, ViewRequest};

/// Every departing file, with the code `check` names its problem by.
const CASES: [(&str, &str); 6] = [
    ("no_skincoord", "HANIM-SKIN-NO-SKINCOORD"),
    ("no_joints", "HANIM-NO-JOINTS"),
    ("no_joints_no_skincoord", "HANIM-NO-JOINTS"),
    ("unweighted", "HANIM-UNBOUND-SKIN"),
    ("unweighted_minus_one", "HANIM-UNBOUND-SKIN"),
    ("weights_on_humanoid", "HANIM-UNBOUND-SKIN"),
];

/// The strip's points as the files write them.
const STRIP: [[f32; 3]; 6] =
    [[-0.2, 0.0, 0.0], [0.2, 0.0, 0.0], [-0.2, 1.0, 0.0], [0.2, 1.0, 0.0], [-0.2, 2.0, 0.0], [0.2, 2.0, 0.0]];

fn path(name: &str) -> PathBuf {
    common::test_data(&format!("skin_rules/{name}.x3d"))
}

fn load(name: &str) -> Document {
    hanim::load(&path(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn codes(name: &str) -> BTreeSet<String> {
    let output = Command::new(env!("CARGO_BIN_EXE_hanim-viewer"))
        .args(["check", "--no-gpu", "--json", path(name).to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    let json: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}: {text}"));
    json["findings"].as_array().unwrap().iter().map(|f| f["code"].as_str().unwrap().to_string()).collect()
}

fn check_names_each_departure_and_not_the_bound_skin() {
    let ours = ["HANIM-SKIN-NO-SKINCOORD", "HANIM-NO-JOINTS", "HANIM-UNBOUND-SKIN"];
    for (name, code) in CASES {
        let found = codes(name);
        assert!(found.contains(code), "{name}: {found:?}");
        // (The -1 entries are also the loader's "skipped" warnings, as every out-of-range index is.)
        if name != "unweighted_minus_one" {
            assert!(!found.contains("HANIM-LOADER"), "{name}: a loader warning the code does not state: {found:?}");
        }
        // One name per problem: no joints is not also called an unbound skin.
        let others: Vec<&&str> = ours.iter().filter(|c| **c != code && found.contains(**c)).collect();
        let both = name == "no_joints_no_skincoord" && others == [&"HANIM-SKIN-NO-SKINCOORD"];
        assert!(others.is_empty() || both, "{name}: {found:?}");
    }
    let bound = codes("bound");
    assert!(ours.iter().all(|c| !bound.contains(*c)), "bound: {bound:?}");
}

/// The elbow turned further on top of the file's pose (a pose that moves any bound point).
fn bent(doc: &Document) -> Pose {
    let h = &doc.humanoids[0];
    let mut pose = Pose::rest(h);
    if let Some(j) = h.joint_index("l_elbow") {
        pose.rotations[j] *= Quat::from_rotation_z(0.7);
    }
    pose
}

fn the_cpu_reference_keeps_departing_skins_at_their_bind_points() {
    let strip: Vec<Vec3> = STRIP.iter().map(|p| Vec3::from(*p)).collect();
    for name in ["no_joints", "unweighted", "unweighted_minus_one", "weights_on_humanoid"] {
        let doc = load(name);
        let h = &doc.humanoids[0];
        for pose in [Pose::rest(h), bent(&doc)] {
            let skin = deform_skin(h, &pose).unwrap_or_else(|| panic!("{name}: a skin"));
            assert_eq!(skin.points, strip, "{name}");
        }
    }
    // Without skinCoord the Shapes are kept (none deforms) and drawn rigidly with the humanoid.
    for name in ["no_skincoord", "no_joints_no_skincoord"] {
        let doc = load(name);
        let skin = doc.humanoids[0].skin.as_ref().unwrap_or_else(|| panic!("{name}: the skin Shapes"));
        assert_eq!((skin.coord_node, skin.points.len(), skin.shapes.len()), (None, 0, 1), "{name}");
        assert!(skin.shapes.iter().all(|s| !s.deforms), "{name}");
    }
    // The bound strip does move: its upper points turn about the elbow at (0 1 0).
    let doc = load("bound");
    let points = deform_skin(&doc.humanoids[0], &Pose::rest(&doc.humanoids[0])).unwrap().points;
    assert!(points[4].distance(Vec3::new(-1.0, 0.8, 0.0)) < 1e-5, "{:?}", points[4]);
}

const SIZE: u32 = 96;

fn render(ctx: &hanim_viewer::gpu::GpuContext, name: &str) -> RenderedImage {
    let doc = load(name);
    let mut request = SceneRequest::new(SIZE, SIZE);
    request.view = ViewRequest::Named("Front".into());
    let image = headless::render_document(ctx, &doc, &request).unwrap_or_else(|e| panic!("{name}: {e:#}"));
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/render-tests/skin_rules");
    std::fs::create_dir_all(&dir).unwrap();
    hanim_viewer::output::write_png_atomically(&dir.join(format!("{name}.png")), SIZE, SIZE, &image.rgba).unwrap();
    image
}

/// Pixels whose colour differs by more than a few levels (shading rounding) between two pictures.
fn differing(a: &RenderedImage, b: &RenderedImage) -> usize {
    (0..SIZE * SIZE)
        .filter(|i| {
            let (p, q) = (a.pixel(i % SIZE, i / SIZE), b.pixel(i % SIZE, i / SIZE));
            (0..3).any(|c| p[c].abs_diff(q[c]) > 8)
        })
        .count()
}

fn foreground(image: &RenderedImage) -> usize {
    (0..SIZE * SIZE).filter(|i| image.is_foreground(i % SIZE, i / SIZE, 3)).count()
}

fn on_the_gpu_each_departing_skin_draws_the_static_strip() {
    let ctx = common::gpu();
    let reference = render(&ctx, "static");
    let strip = foreground(&reference);
    assert!(strip > 100, "the static strip drew {strip} pixels");
    for (name, _) in CASES {
        let image = render(&ctx, name);
        let off = differing(&reference, &image);
        eprintln!("{name}: {off} pixels differ from the static strip ({strip} pixels)");
        assert!(off <= strip / 50, "{name}: {off} of {strip} pixels differ from the static strip");
    }
    let bound = render(&ctx, "bound");
    assert!(differing(&reference, &bound) > strip / 5, "the bound strip bends");
    // The skin pass itself agrees with the CPU reference on the bind-pose skins.
    for name in ["no_joints", "unweighted", "unweighted_minus_one"] {
        let doc = load(name);
        let a = agreement::measure(&ctx, &doc.humanoids[0], 3, 7).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(a.max_point_error <= 1e-5, "{name}: {a:?}");
    }
}
