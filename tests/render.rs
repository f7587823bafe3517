//! Headless rendering on a real adapter (lavapipe in CI): corpus humanoids drawn from the GPU skin land
//! inside their projected bounding box on a clean background, a joint rotation changes only the side of
//! the image it should, and the `render` command writes its PNG atomically. Small images: lavapipe is
//! slow. Without an adapter the GPU tests skip loudly, except under `CI=true`, where they fail.

mod common;

use std::path::Path;

use glam::Vec3;
use hanim_viewer::gpu::GpuContext;
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::headless::{
    self, ImageSize, JointRotation, RenderArgs, RenderedImage, SceneRequest, ViewRequest, poses_for,
};

const SIZE: u32 = 256;

/// Colour distance (per channel) above which a pixel counts as foreground: the background is cleared
/// exactly, so only sRGB rounding (±1) separates it from its nominal value.
const BACKGROUND_TOLERANCE: u8 = 3;

/// Anti-aliased edges and rounding may put coverage up to this many pixels outside the projected box.
const EDGE_PIXELS: f32 = 2.0;

fn load(name: &str) -> Document {
    let path = common::corpus(&format!("x3d/{name}"));
    hanim::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn render(ctx: &GpuContext, doc: &Document, request: &SceneRequest) -> RenderedImage {
    headless::render_document(ctx, doc, request).unwrap_or_else(|e| panic!("render failed: {e:#}"))
}

fn is_foreground(image: &RenderedImage, x: u32, y: u32) -> bool {
    let background = image.background_rgba8();
    let pixel = image.pixel(x, y);
    (0..3).any(|c| pixel[c].abs_diff(background[c]) > BACKGROUND_TOLERANCE)
}

/// Where the image should be written for a person to look at (`target/render-tests/`).
fn save(image: &RenderedImage, name: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/render-tests");
    std::fs::create_dir_all(&dir).unwrap();
    headless::write_png_atomically(&dir.join(name), image.width, image.height, &image.rgba).unwrap();
}

/// The pixel rectangle (min x, min y, max x, max y) covered by the image's bounding box.
fn projected_box(image: &RenderedImage) -> (f32, f32, f32, f32) {
    let b = image.bounds;
    let mut rect = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for i in 0..8 {
        let corner = Vec3::new(
            if i & 1 == 0 { b.min.x } else { b.max.x },
            if i & 2 == 0 { b.min.y } else { b.max.y },
            if i & 4 == 0 { b.min.z } else { b.max.z },
        );
        let (x, y) = image.camera.project_to_pixel(corner, image.width, image.height).expect("box in front");
        rect = (rect.0.min(x), rect.1.min(y), rect.2.max(x), rect.3.max(y));
    }
    rect
}

/// Foreground pixels exist, all of them lie inside the projected bounding box, and everything outside
/// it is background. Returns the foreground pixel count.
fn assert_inside_projected_box(image: &RenderedImage, what: &str) -> usize {
    let (x0, y0, x1, y1) = projected_box(image);
    assert!(x0 >= 0.0 && y0 >= 0.0 && x1 <= image.width as f32 && y1 <= image.height as f32, "{what}: box off-image");
    let mut inside = 0usize;
    let mut outside = Vec::new();
    for y in 0..image.height {
        for x in 0..image.width {
            if !is_foreground(image, x, y) {
                continue;
            }
            let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
            let in_box =
                cx >= x0 - EDGE_PIXELS && cx <= x1 + EDGE_PIXELS && cy >= y0 - EDGE_PIXELS && cy <= y1 + EDGE_PIXELS;
            if in_box {
                inside += 1;
            } else {
                outside.push((x, y));
            }
        }
    }
    assert!(
        outside.is_empty(),
        "{what}: {} foreground pixels outside the box, e.g. {:?}",
        outside.len(),
        &outside[..5.min(outside.len())]
    );
    let box_area = (x1 - x0) * (y1 - y0);
    assert!(inside as f32 > 0.1 * box_area, "{what}: only {inside} foreground pixels in a box of {box_area} px");
    inside
}

#[test]
fn skinned_humanoids_are_drawn_inside_their_bounding_box() {
    let Some(ctx) = common::gpu_or_skip() else { return };
    for (name, background) in [("BvhSeamless3dExport1.x3d", [0.4, 0.4, 0.4]), ("JoeKick.x3d", [0.0, 0.0, 0.0])] {
        let doc = load(name);
        let image = render(&ctx, &doc, &SceneRequest::new(SIZE, SIZE));
        save(&image, &format!("{name}.front.png"));
        assert_eq!(image.background, background, "{name}: the file's Background, else grey");
        let count = assert_inside_projected_box(&image, name);
        eprintln!("{name}: {count} foreground pixels");
        // The figure is lit: its brightest pixel is well above its darkest lit value, i.e. shading varies.
        let lum = |p: [u8; 4]| u32::from(p[0]) + u32::from(p[1]) + u32::from(p[2]);
        let fg: Vec<u32> = (0..SIZE * SIZE)
            .filter(|i| is_foreground(&image, i % SIZE, i / SIZE))
            .map(|i| lum(image.pixel(i % SIZE, i / SIZE)))
            .collect();
        let (lo, hi) = (fg.iter().min().unwrap(), fg.iter().max().unwrap());
        assert!(hi - lo > 60, "{name}: flat shading ({lo}..{hi}), lighting missing?");
    }
}

/// Pixels that differ between two renders with the same camera, as (x, y).
fn changed_pixels(a: &RenderedImage, b: &RenderedImage) -> Vec<(u32, u32)> {
    let mut changed = Vec::new();
    for y in 0..a.height {
        for x in 0..a.width {
            let (p, q) = (a.pixel(x, y), b.pixel(x, y));
            if (0..3).any(|c| p[c].abs_diff(q[c]) > BACKGROUND_TOLERANCE) {
                changed.push((x, y));
            }
        }
    }
    changed
}

#[test]
fn rotating_the_left_shoulder_changes_only_the_image_right_side() {
    let Some(ctx) = common::gpu_or_skip() else { return };
    // The figure's left is +X; a front camera looking down −Z sees it on the image's right.
    for (name, joint) in [("JoeKick.x3d", "l_shoulder"), ("BvhSeamless3dExport1.x3d", "LeftShoulder")] {
        let doc = load(name);
        let rest = render(&ctx, &doc, &SceneRequest::new(SIZE, SIZE));
        let mut request = SceneRequest::new(SIZE, SIZE);
        // Same camera, so that only the arm can change the picture.
        request.view = ViewRequest::Camera(rest.camera);
        request.joint_rotations =
            vec![JointRotation { joint: joint.into(), axis: Vec3::Z, angle: std::f32::consts::FRAC_PI_2 }];
        let raised = render(&ctx, &doc, &request);
        save(&raised, &format!("{name}.{joint}.png"));
        let changed = changed_pixels(&rest, &raised);
        assert!(changed.len() > 50, "{name}: rotating {joint} by 90° changed only {} pixels", changed.len());
        // The humanoid's centre line (the box centre's x, where the front camera aims).
        let (centre_x, _) =
            rest.camera.project_to_pixel(rest.bounds.center(), SIZE, SIZE).expect("centre in front of the camera");
        let left_of_centre: Vec<_> = changed.iter().filter(|(x, _)| (*x as f32) < centre_x - 2.0).collect();
        assert!(
            left_of_centre.is_empty(),
            "{name}: {} changed pixels on the image's left half (centre x = {centre_x}), e.g. {:?}",
            left_of_centre.len(),
            &left_of_centre[..5.min(left_of_centre.len())]
        );
        let right_count = changed.iter().filter(|(x, _)| (*x as f32) > centre_x).count();
        eprintln!("{name}: {} pixels changed, {right_count} right of x = {centre_x}", changed.len());
    }
}

/// DiamondManLOA1 has no skin: its segments hold small diamonds at the joint centres, drawn rigidly; at this
/// size each is a few pixels, so the count is small but must stay inside the figure's projected box.
#[test]
fn a_humanoid_without_skin_draws_its_segments_inside_its_box() {
    let Some(ctx) = common::gpu_or_skip() else { return };
    let doc = load("DiamondManLOA1.x3d");
    assert!(doc.humanoids[0].skin.is_none());
    let image = render(&ctx, &doc, &SceneRequest::new(SIZE, SIZE));
    save(&image, "DiamondManLOA1.segments.png");
    let (x0, y0, x1, y1) = projected_box(&image);
    let mut foreground = 0;
    for y in 0..SIZE {
        for x in 0..SIZE {
            if is_foreground(&image, x, y) {
                foreground += 1;
                let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
                assert!(cx >= x0 - 4.0 && cx <= x1 + 4.0 && cy >= y0 - 4.0 && cy <= y1 + 4.0, "({x},{y}) outside");
            }
        }
    }
    assert!(foreground > 40, "the segment geometry drew only {foreground} pixels");
}

#[test]
fn the_render_command_writes_the_png_atomically() {
    let Some(_ctx) = common::gpu_or_skip() else { return };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("shot.png");
    let args = RenderArgs {
        file: common::corpus("x3d/JoeKick.x3d"),
        out: Some(out.clone()),
        size: ImageSize { width: 96, height: 64 },
        view: Some("Scene_Front View".into()),
        poses: Vec::new(),
        displacers: Vec::new(),
        skeleton: true,
        grid: true,
        adapter: None,
        motion: Default::default(),
    };
    headless::run(&args).unwrap_or_else(|e| panic!("{e:#}"));
    let names: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names, vec!["shot.png".to_string()], "no temporary file is left behind");
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&out).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height, info.color_type), (96, 64, png::ColorType::Rgba));

    // A failing render (unknown view) writes nothing at all.
    let failed = dir.path().join("failed.png");
    let error = headless::run(&RenderArgs { out: Some(failed.clone()), view: Some("nowhere".into()), ..args })
        .expect_err("an unknown view is an error");
    assert!(error.to_string().contains("no view named 'nowhere'"), "{error}");
    assert!(!failed.exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn an_unknown_joint_is_an_error_naming_close_joints() {
    // No GPU needed: the pose is resolved before anything is drawn.
    let doc = load("JoeKick.x3d");
    let rotation = |joint: &str| JointRotation { joint: joint.into(), axis: Vec3::Z, angle: 1.0 };
    let error = poses_for(&doc, &[rotation("l_sholder")], &[]).expect_err("unknown joint");
    let message = error.to_string();
    assert!(message.contains("no joint named 'l_sholder'") && message.contains("l_shoulder"), "{message}");
    let poses = poses_for(&doc, &[rotation("l_shoulder")], &[]).unwrap();
    let j = doc.humanoids[0].joint_index("l_shoulder").unwrap();
    assert!(poses[0].rotation_offsets[j].angle_between(glam::Quat::IDENTITY) > 0.99);
}
