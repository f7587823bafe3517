//! Headless rendering on a real adapter (lavapipe in CI): corpus humanoids drawn from the GPU skin land
//! inside their projected bounding box on a clean background, a joint rotation changes only the side of
//! the image it should, and the `render` command writes its PNG atomically. Small images: lavapipe is
//! slow. Without an adapter the GPU tests are reported ignored, except under `CI=true`, where they fail.

mod common;

test_main!(
    skinned_humanoids_are_drawn_inside_their_bounding_box,
    rotating_the_left_shoulder_changes_only_the_image_right_side,
    a_humanoid_without_skin_draws_its_segments_inside_its_box,
    the_render_command_writes_the_png_atomically,
    an_unknown_joint_is_an_error_naming_close_joints,
    primitives_lines_and_sorted_transparency_render,
    a_textured_corpus_file_shows_its_texture_and_a_missing_one_warns,
    scene_shapes_are_drawn_and_the_headlight_setting_is_respected,
    computed_views_frame_the_body_not_far_away_sites,
    scene_lights_light_what_they_reach,
    a_humanoid_without_geometry_shows_its_skeleton_unless_only_the_file_is_asked_for,
    an_lod_shows_the_level_for_the_cameras_distance,
    an_elevation_grid_is_drawn_with_a_colour_per_quadrilateral,
    the_default_extrusion_draws_as_the_box_it_sweeps
);

use std::path::Path;

use glam::Vec3;
use hanim_viewer::commands::render::{self as render_command, RenderArgs};
use hanim_viewer::gpu::GpuContext;
use hanim_viewer::gpu::lighting::Lighting;
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::pose::{JointRotation, poses_for};
use hanim_viewer::render::{self as headless, ImageSize, RenderedImage, SceneRequest, ViewRequest};

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
    image.is_foreground(x, y, BACKGROUND_TOLERANCE)
}

/// Where the image should be written for a person to look at (`target/render-tests/`).
fn save(image: &RenderedImage, name: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/render-tests");
    std::fs::create_dir_all(&dir).unwrap();
    hanim_viewer::output::write_png_atomically(&dir.join(name), image.width, image.height, &image.rgba).unwrap();
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

fn skinned_humanoids_are_drawn_inside_their_bounding_box() {
    let ctx = common::gpu();
    // BvhSeamless3dExport1 has no Background: black, X3D's default skyColor (the standard lighting model;
    // the studio look's grey is `--lighting studio`).
    for (name, background) in [("BvhSeamless3dExport1.x3d", [0.0, 0.0, 0.0]), ("JoeKick.x3d", [0.0, 0.0, 0.0])] {
        let mut doc = load(name);
        // JoeKick's ball and floor circles widen the framed box; this test is about the skin alone
        // (scene shapes: `scene_shapes_are_drawn_and_the_headlight_setting_is_respected`).
        doc.other_shapes.clear();
        let image = render(&ctx, &doc, &SceneRequest::new(SIZE, SIZE));
        save(&image, &format!("{name}.front.png"));
        assert_eq!(image.background, background, "{name}: the file's Background, else black");
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

fn rotating_the_left_shoulder_changes_only_the_image_right_side() {
    let ctx = common::gpu();
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
fn a_humanoid_without_skin_draws_its_segments_inside_its_box() {
    let ctx = common::gpu();
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

fn the_render_command_writes_the_png_atomically() {
    let _ctx = common::gpu();
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
        lighting: Default::default(),
        overlays: Vec::new(),
        adapter: None,
        motion: Default::default(),
        animate: false,
        turntable: None,
        animation: Default::default(),
        reach: Default::default(),
        pose_file: Default::default(),
        camera_json: None,
    };
    render_command::run(&args).unwrap_or_else(|e| panic!("{e:#}"));
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
    let error = render_command::run(&RenderArgs { out: Some(failed.clone()), view: Some("nowhere".into()), ..args })
        .expect_err("an unknown view is an error");
    assert!(error.to_string().contains("no view named 'nowhere'"), "{error}");
    assert!(!failed.exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

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

fn load_path(path: &Path) -> Document {
    hanim::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Mean of the pixels within `radius` of the projection of world point `p`.
fn mean_around(image: &RenderedImage, p: Vec3, radius: i32) -> [f32; 3] {
    let (x, y) = image.camera.project_to_pixel(p, image.width, image.height).expect("in front of the camera");
    let mut sum = [0.0f32; 3];
    let mut n = 0.0;
    for dy in -radius..=radius {
        for dx in -radius..=radius {
            let pixel = image.pixel((x as i32 + dx) as u32, (y as i32 + dy) as u32);
            for c in 0..3 {
                sum[c] += f32::from(pixel[c]);
            }
            n += 1.0;
        }
    }
    sum.map(|s| s / n)
}

/// The four primitives of `tests/data/primitives_humanoid.x3d` (red Box, green Sphere, blue Cylinder,
/// yellow Cone) are drawn where their Transforms put them, lit (the upper half of a front-facing shape is
/// brighter than a flat colour), with the white IndexedLineSet below them and the cyan PointSet points;
/// and of the two transparent
/// squares the nearer (red) one, although written first, is drawn last, over the farther blue one.
fn primitives_lines_and_sorted_transparency_render() {
    let ctx = common::gpu();
    let doc = load_path(&common::test_data("primitives_humanoid.x3d"));
    let mut request = SceneRequest::new(320, 240);
    request.view = ViewRequest::Named("front".into());
    let image = render(&ctx, &doc, &request);
    save(&image, "primitives_humanoid.png");
    assert!(image.notes.is_empty(), "{:?}", image.notes);
    for (x, channel, name) in [(-1.5, [true, false, false], "Box"), (-0.5, [false, true, false], "Sphere")]
        .into_iter()
        .chain([(0.5, [false, false, true], "Cylinder"), (1.5, [true, true, false], "Cone")])
    {
        let mean = mean_around(&image, Vec3::new(x, 0.9, 0.4), 2);
        for c in 0..3 {
            if channel[c] {
                assert!(mean[c] > 90.0, "{name}: channel {c} is {mean:?}");
            } else {
                assert!(mean[c] < 40.0, "{name}: channel {c} should be dark: {mean:?}");
            }
        }
    }
    // The line at y = 0.3 (unlit, emissive white): some near-white pixel on the column below each shape.
    for x in [-1.5f32, 0.0, 1.5] {
        let (px, py) = image.camera.project_to_pixel(Vec3::new(x, 0.3, 0.0), 320, 240).unwrap();
        let white = (-2..=2).any(|dy| {
            let p = image.pixel(px as u32, (py as i32 + dy) as u32);
            p[0] > 200 && p[1] > 200 && p[2] > 200
        });
        assert!(white, "no white line pixel near ({px}, {py})");
    }
    // The PointSet's points (unlit emissive cyan, one pixel each; nothing else in the image is cyan).
    for p in [Vec3::new(-1.8, -0.6, 0.0), Vec3::new(-1.7, -0.6, 0.0)] {
        let (px, py) = image.camera.project_to_pixel(p, 320, 240).unwrap();
        let cyan = (-1..=1).any(|dy| {
            (-1..=1).any(|dx| {
                let q = image.pixel((px as i32 + dx) as u32, (py as i32 + dy) as u32);
                // Multisampling blends a one-pixel point with the background: cyan-tinted is enough.
                q[1] > q[0] + 40 && q[2] > q[0] + 40
            })
        });
        assert!(cyan, "no cyan point pixel near ({px}, {py})");
    }
    // Where the squares overlap: red over (blue over background) with alpha 0.5 each.
    let overlap = mean_around(&image, Vec3::new(0.0, -0.6, 0.5), 2);
    assert!(overlap[0] > overlap[2] + 40.0, "the nearer red square must be on top: {overlap:?}");
    assert!(overlap[2] > 60.0, "the blue square shows through: {overlap:?}");
}

/// JinLOA1's 18 segments share one ImageTexture (`images/Jin.png`, beside the file in the corpus): the
/// figure shows the atlas's colours (blue hair, green top). KoreanCharacterMotionAnnexD01Jin is the same
/// figure whose url (`Jin.png`) names no file: a warning, and the figure is drawn untextured (grey).
fn a_textured_corpus_file_shows_its_texture_and_a_missing_one_warns() {
    let ctx = common::gpu();
    let saturated = |image: &RenderedImage, hue: fn([u8; 4]) -> bool| {
        (0..image.height)
            .flat_map(|y| (0..image.width).map(move |x| (x, y)))
            .filter(|&(x, y)| hue(image.pixel(x, y)))
            .count()
    };
    let blue = |p: [u8; 4]| p[2] > 120 && p[2] > p[0] + 60 && p[2] > p[1] + 60;
    let green = |p: [u8; 4]| p[1] > 120 && p[1] > p[0] + 25 && p[1] > p[2] + 25;

    // The studio look, where a colour texture replaces the diffuse colour whatever the version, shows the
    // atlas's own colours; the standard model's texture × diffuseColor rule is tests/lighting.rs's.
    let studio = |size: u32| SceneRequest { lighting: Lighting::Studio, ..SceneRequest::new(size, size) };
    let doc = load("JinLOA1.x3d");
    let image = render(&ctx, &doc, &studio(SIZE));
    save(&image, "JinLOA1.textured.png");
    assert!(image.notes.iter().all(|n| !n.contains("ImageTexture")), "{:?}", image.notes);
    let (hair, top) = (saturated(&image, blue), saturated(&image, green));
    eprintln!("JinLOA1: {hair} blue (hair) and {top} green (top) pixels");
    assert!(hair > 60 && top > 150, "texture colours missing: {hair} blue, {top} green pixels");

    let doc = load("KoreanCharacterMotionAnnexD01Jin.x3d");
    let image = render(&ctx, &doc, &studio(SIZE));
    save(&image, "KoreanCharacterMotionAnnexD01Jin.untextured.png");
    let warnings: Vec<&String> = image.notes.iter().filter(|n| n.contains("Jin.png")).collect();
    assert_eq!(warnings.len(), 1, "one warning for the one missing image: {:?}", image.notes);
    assert!(warnings[0].contains("untextured") && warnings[0].contains("remote URL(s) not fetched"), "{}", warnings[0]);
    assert_eq!(saturated(&image, blue) + saturated(&image, green), 0, "no texture colour without the image");
    assert!(assert_inside_projected_box(&image, "untextured Jin") > 1000, "still drawn");

    // JoeSkinTexcoordDisplacerKick's JoeBodyTexture29.png is not in the corpus either.
    let image = render(&ctx, &load("JoeSkinTexcoordDisplacerKick.x3d"), &SceneRequest::new(96, 96));
    assert!(image.notes.iter().any(|n| n.contains("JoeBodyTexture29.png")), "{:?}", image.notes);
}

/// NancyNativeTags stands on a floor Shape outside the humanoid: it is drawn (pixels beyond the humanoid's
/// own projected box) but not framed — computed views frame the figure, so props, floors and HUD panels
/// do not shrink it. NavigationInfo headlight='false' (JoeKick) is read, and turning the headlight off
/// darkens a diffuse-only shape.
fn scene_shapes_are_drawn_and_the_headlight_setting_is_respected() {
    common::needs_corpus(&["x3d/NancyNativeTags.x3d"]);
    let ctx = common::gpu();
    // Whether the floor is drawn is told by its pixels against the background: in the standard model the
    // headlight travels parallel to the floor (N·L = 0), which X3D draws black on the black default
    // background, so this part looks in the studio look (key light from above, grey background).
    let doc = load("NancyNativeTags.x3d");
    let image = render(&ctx, &doc, &SceneRequest { lighting: Lighting::Studio, ..SceneRequest::new(SIZE, SIZE) });
    save(&image, "NancyNativeTags.scene.png");
    let humanoid_only = headless::scene_bounds(&doc, &poses_for(&doc, &[], &[]).unwrap()).unwrap();
    assert!(!doc.other_shapes.is_empty(), "the floor is a scene Shape");
    assert!(
        image.bounds.size().x <= humanoid_only.size().x + 1e-3,
        "the floor does not widen the framed box: {:?} vs the humanoid's {:?}",
        image.bounds.size(),
        humanoid_only.size()
    );
    let min_y = humanoid_only.min.y;
    let (_, foot_y) = image.camera.project_to_pixel(Vec3::new(0.0, min_y, 0.0), SIZE, SIZE).unwrap();
    let (left_x, _) = image.camera.project_to_pixel(Vec3::new(humanoid_only.min.x, min_y, 0.0), SIZE, SIZE).unwrap();
    let floor_pixels = (0..SIZE)
        .flat_map(|y| (0..SIZE).map(move |x| (x, y)))
        .filter(|&(x, y)| (x as f32) < left_x - 4.0 && (y as f32) > foot_y - 20.0 && is_foreground(&image, x, y))
        .count();
    assert!(floor_pixels > 200, "only {floor_pixels} floor pixels left of the figure");
    // The figure, framed alone, is whole in the picture and spans most of its height.
    let (_, head_y) = image.camera.project_to_pixel(Vec3::new(0.0, humanoid_only.max.y, 0.0), SIZE, SIZE).unwrap();
    assert!(head_y >= 0.0 && foot_y <= SIZE as f32, "the figure is in view: {head_y}..{foot_y}");
    assert!((foot_y - head_y) / SIZE as f32 > 0.6, "the figure spans {head_y}..{foot_y} of {SIZE}");

    assert!(!load("JoeKick.x3d").settings.headlight, "JoeKick's NavigationInfo turns the headlight off");
    // Diffuse-only primitives (no emissive colour): the headlight is most of their light.
    let mut doc = load_path(&common::test_data("primitives_humanoid.x3d"));
    assert!(doc.settings.headlight, "X3D's default");
    let mut request = SceneRequest::new(160, 120);
    let lit = render(&ctx, &doc, &request);
    request.view = ViewRequest::Camera(lit.camera);
    doc.settings.headlight = false;
    let dark = render(&ctx, &doc, &request);
    let brightness = |image: &RenderedImage| -> f32 { mean_around(image, Vec3::new(-1.5, 1.0, 0.4), 2).iter().sum() };
    let (off, on) = (brightness(&dark), brightness(&lit));
    eprintln!("red Box brightness: headlight off {off}, on {on}");
    assert!(on > off * 1.3, "the headlight adds light: off {off}, on {on}");
}

/// Framing ignores outliers: HAnim2SpecificationLOA3Illustrated carries site markers and labels metres
/// from the body; the default (computed front) view frames the body, so the figure's drawn pixels span most
/// of the image height (before: about a tenth of it).
fn computed_views_frame_the_body_not_far_away_sites() {
    let ctx = common::gpu();
    let doc = load("HAnim2SpecificationLOA3Illustrated.x3d");
    let image = render(&ctx, &doc, &SceneRequest::new(SIZE, SIZE));
    save(&image, "HAnim2SpecificationLOA3Illustrated.framed.png");
    let rows: Vec<u32> = (0..SIZE).filter(|&y| (0..SIZE).any(|x| is_foreground(&image, x, y))).collect();
    let (top, bottom) = (rows.first().copied().unwrap_or(0), rows.last().copied().unwrap_or(0));
    let height = bottom.saturating_sub(top) as f32 / SIZE as f32;
    assert!(height > 0.6, "the figure spans {:.0}% of the image height", height * 100.0);
    // The whole-humanoid box (far sites included) is much larger than the framed one.
    let poses = poses_for(&doc, &[], &[]).unwrap();
    let whole = headless::scene_bounds(&doc, &poses).unwrap();
    assert!(whole.size().length() > image.bounds.size().length() * 2.0, "{:?} vs {:?}", whole, image.bounds);
}

/// Scene light nodes light the figure: JoeKick's PointLight is read (its SpotLight, with a zero direction,
/// is dropped with a warning); with the headlight off, a DirectionalLight shining along −Z lights the front
/// of the fixture's Box, one shining along +Z (from behind) does not, and a PointLight whose radius ends
/// before the Box adds nothing.
fn scene_lights_light_what_they_reach() {
    use hanim_viewer::hanim::{LightKind, SceneLight};
    let joe = load("JoeKick.x3d");
    let kinds: Vec<&LightKind> = joe.settings.lights.iter().map(|l| &l.kind).collect();
    assert!(matches!(kinds[..], [LightKind::Point { .. }]), "{kinds:?}");
    assert!(joe.warnings.iter().any(|w| w.message.contains("zero direction")), "the SpotLight is reported");

    let ctx = common::gpu();
    let mut doc = load_path(&common::test_data("primitives_humanoid.x3d"));
    doc.settings.headlight = false;
    let mut request = SceneRequest::new(160, 120);
    let base = render(&ctx, &doc, &request);
    request.view = ViewRequest::Camera(base.camera);
    let box_front = |image: &RenderedImage| mean_around(image, Vec3::new(-1.5, 1.0, 0.4), 2)[0];
    // X3D has no light the file does not have: headlight off and no light node leave the Box black
    // (17.2.2.4). The studio look keeps its key light then, so that figures stay visible.
    assert_eq!(box_front(&base), 0.0, "standard model, no light at all: black");
    let studio = render(&ctx, &doc, &SceneRequest { lighting: Lighting::Studio, ..request.clone() });
    let light = |kind| SceneLight {
        node: hanim_viewer::x3d::NodeId(0),
        kind,
        color: [1.0, 1.0, 1.0],
        intensity: 1.0,
        ambient_intensity: 0.0,
        scope: None,
    };
    // With a light in the file, headlight off also turns the viewer's key light off.
    // An intensity-0 light: only the ambient term is left.
    doc.settings.lights = vec![SceneLight { intensity: 0.0, ..light(LightKind::Directional { direction: -Vec3::Z }) }];
    let ambient = box_front(&render(&ctx, &doc, &request));
    let mut brightness = Vec::new();
    for kind in [
        LightKind::Directional { direction: -Vec3::Z },
        LightKind::Directional { direction: Vec3::Z },
        LightKind::Point { location: Vec3::new(-1.5, 1.0, 5.0), radius: 2.0, attenuation: Vec3::X },
    ] {
        doc.settings.lights = vec![light(kind)];
        brightness.push(box_front(&render(&ctx, &doc, &request)));
    }
    // SpotLights, 1 m in front of the Box's face: aimed at it (inside the beam), and aimed away.
    let spot = |direction: Vec3| LightKind::Spot {
        location: Vec3::new(-1.5, 1.0, 1.5),
        direction,
        radius: 100.0,
        attenuation: Vec3::X,
        beam_width: 0.5,
        cut_off_angle: 0.7,
    };
    for kind in [spot(-Vec3::Z), spot(Vec3::Z)] {
        doc.settings.lights = vec![light(kind)];
        brightness.push(box_front(&render(&ctx, &doc, &request)));
    }
    // Lights of different kinds in one frame (each is drawn by code for its own kind): a light from
    // behind and one out of reach first, the lighting one last.
    doc.settings.lights = vec![
        light(LightKind::Directional { direction: Vec3::Z }),
        light(LightKind::Point { location: Vec3::new(-1.5, 1.0, 5.0), radius: 2.0, attenuation: Vec3::X }),
        light(spot(Vec3::Z)),
        light(LightKind::Directional { direction: -Vec3::Z }),
    ];
    brightness.push(box_front(&render(&ctx, &doc, &request)));
    eprintln!(
        "Box red channel: studio key light only {}, ambient only {ambient}, lights {brightness:?}",
        box_front(&studio)
    );
    let [front, behind, out_of_reach, spot_on, spot_away, mixed] = brightness[..] else { unreachable!() };
    assert!(box_front(&studio) > 20.0, "studio look: without file lights the key light stays");
    assert!(front > ambient + 60.0, "a light from the front lights the Box: {front} (ambient {ambient})");
    assert!(spot_on > ambient + 60.0, "a SpotLight aimed at the Box lights it: {spot_on} (ambient {ambient})");
    // Four lights' ambient terms (each light's ambientIntensity is 0, so none) and one lighting light.
    assert!((mixed - front).abs() <= 2.0, "the lights that do not reach add nothing: {mixed} vs {front}");
    for (what, value) in [("from behind", behind), ("out of reach", out_of_reach), ("spot aimed away", spot_away)] {
        assert!((value - ambient).abs() <= 2.0, "{what}: {value}, ambient only {ambient}");
    }
}

/// A humanoid without any geometry (a bare skeleton, as hierarchy generators write them) gets its
/// skeleton drawn so that the picture shows something; asked for only what the file draws (the request
/// `--play-as-file` makes), it shows nothing, as the peers do.
fn a_humanoid_without_geometry_shows_its_skeleton_unless_only_the_file_is_asked_for() {
    let ctx = common::gpu();
    let text = "<X3D profile='Immersive' version='4.0'><head><component name='HAnim' level='1'/></head><Scene>\
        <Viewpoint DEF='Cam' position='0 0.9 3'/>\
        <HAnimHumanoid name='Bare' version='2.0'><HAnimJoint DEF='root' name='humanoid_root' center='0 0.9 0' \
        containerField='skeleton'><HAnimJoint DEF='neck' name='skullbase' center='0 1.6 0'/>\
        <HAnimJoint DEF='knee' name='l_knee' center='0.1 0.5 0'/></HAnimJoint>\
        <HAnimJoint USE='root' containerField='joints'/><HAnimJoint USE='neck' containerField='joints'/>\
        <HAnimJoint USE='knee' containerField='joints'/></HAnimHumanoid></Scene></X3D>";
    let doc = hanim::load_str(text, Path::new("bare.x3d")).unwrap_or_else(|e| panic!("{e}"));
    let mut request = SceneRequest::new(120, 120);
    request.view = ViewRequest::Named("Cam".into());
    let foreground = |image: &RenderedImage| {
        (0..image.height)
            .flat_map(|y| (0..image.width).map(move |x| (x, y)))
            .filter(|&(x, y)| is_foreground(image, x, y))
            .count()
    };
    let aided = render(&ctx, &doc, &request);
    assert!(foreground(&aided) > 20, "the skeleton is drawn: {} pixels", foreground(&aided));
    request.skeleton_aid = false;
    assert_eq!(foreground(&render(&ctx, &doc, &request)), 0, "only what the file draws: nothing");
}

/// An LOD with a range shows the level for the camera's distance (X3D 4.0 10.4.3): a red box within 10 m
/// of its center, a blue one from 10 m on; the picture's own camera decides (the window and renders that
/// play the file place the scene with the same walk, `place_scene_seen_from`).
fn an_lod_shows_the_level_for_the_cameras_distance() {
    let ctx = common::gpu();
    let text = "<X3D profile='Immersive' version='4.0'><head><component name='HAnim' level='1'/></head><Scene>\
        <Viewpoint DEF='Near' position='0 0.9 4'/><Viewpoint DEF='Far' position='0 0.9 25' fieldOfView='0.2'/>\
        <HAnimHumanoid name='Lod' version='2.0'><HAnimJoint DEF='root' name='humanoid_root' containerField='skeleton'/>\
        <HAnimJoint USE='root' containerField='joints'/></HAnimHumanoid>\
        <LOD center='0 0.9 0' range='10'>\
          <Shape><Appearance><Material diffuseColor='0 0 0' emissiveColor='1 0 0'/></Appearance><Box size='1 1 1'/></Shape>\
          <Transform><Shape><Appearance><Material diffuseColor='0 0 0' emissiveColor='0 0 1'/></Appearance>\
            <Box size='1 1 1'/></Shape></Transform>\
        </LOD></Scene></X3D>";
    let doc = hanim::load_str(text, Path::new("lod.x3d")).unwrap_or_else(|e| panic!("{e}"));
    let mut request = SceneRequest::new(96, 96);
    request.skeleton_aid = false;
    let centre = |view: &str, request: &mut SceneRequest| {
        request.view = ViewRequest::Named(view.into());
        let image = render(&ctx, &doc, request);
        save(&image, &format!("lod_{view}.png"));
        image.pixel(48, 66)
    };
    let near = centre("Near", &mut request);
    let far = centre("Far", &mut request);
    assert!(near[0] > 200 && near[2] < 40, "within 10 m the first level (red): {near:?}");
    assert!(far[2] > 200 && far[0] < 40, "from 10 m on the second level (blue): {far:?}");
}

fn an_elevation_grid_is_drawn_with_a_colour_per_quadrilateral() {
    // A flat 3 × 2 grid seen from straight above, red on its first quadrilateral (x 0..1), blue on the
    // second (x 1..2): the headlight meets it head on, so each shows its colour; a bump on the last
    // vertex row's far corner tilts the blue one, which stays blue.
    let ctx = common::gpu();
    let text = "<X3D version='4.0'><Scene><Viewpoint description='Down' position='1 5 0.5' orientation='1 0 0 -1.5708'/>\
        <Shape><Appearance><Material/></Appearance><ElevationGrid xDimension='3' zDimension='2' \
        height='0 0 0 0 0 0.2' colorPerVertex='false'><Color color='1 0 0 0 0 1'/></ElevationGrid></Shape>\
        <Transform translation='1 -3 0.5'><HAnimHumanoid name='h' version='2.0'>\
        <HAnimJoint DEF='r' name='humanoid_root' containerField='skeleton'/>\
        <HAnimJoint USE='r' containerField='joints'/></HAnimHumanoid></Transform></Scene></X3D>";
    let doc = hanim::load_str(text, &common::test_data("elevation_grid.x3d")).unwrap_or_else(|e| panic!("{e}"));
    assert!(doc.warnings.iter().all(|w| !w.message.contains("ElevationGrid")), "{:?}", doc.warnings);
    let mut request = SceneRequest::new(160, 120);
    request.view = ViewRequest::Named("Down".into());
    request.skeleton_aid = false;
    let image = render(&ctx, &doc, &request);
    save(&image, "elevation_grid.png");
    let red = mean_around(&image, Vec3::new(0.5, 0.0, 0.5), 2);
    let blue = mean_around(&image, Vec3::new(1.5, 0.05, 0.5), 2);
    assert!(red[0] > 150.0 && red[1] < 40.0 && red[2] < 40.0, "the first quadrilateral is red: {red:?}");
    assert!(blue[2] > 120.0 && blue[0] < 40.0 && blue[1] < 40.0, "the second is blue: {blue:?}");
    let outside = mean_around(&image, Vec3::new(-0.5, 0.0, 0.5), 2);
    assert!(outside.iter().all(|&c| c < 10.0), "nothing beside the grid: {outside:?}");
}

fn the_default_extrusion_draws_as_the_box_it_sweeps() {
    // X3D 13.3.5's defaults sweep the square ±1 up the spine 0 → 1: a 2 × 1 × 2 box standing on y = 0.
    // Drawn beside the same box as a Box node it matches to within a shade at every pixel (the faces are
    // the same planes; only the diagonals that split them may differ).
    let ctx = common::gpu();
    let scene = |geometry: &str| {
        let text = format!(
            "<X3D version='4.0'><Scene><Viewpoint description='Corner' position='3 2.5 4' \
             orientation='-0.57 0.8 0.19 0.85'/>{geometry}<Transform translation='0 -5 0'>\
             <HAnimHumanoid name='h' version='2.0'><HAnimJoint DEF='r' name='humanoid_root' containerField='skeleton'/>\
             <HAnimJoint USE='r' containerField='joints'/></HAnimHumanoid></Transform></Scene></X3D>"
        );
        hanim::load_str(&text, &common::test_data("extrusion.x3d")).unwrap_or_else(|e| panic!("{e}"))
    };
    let shape = |geometry: &str| {
        format!("<Shape><Appearance><Material diffuseColor='0.8 0.6 0.2'/></Appearance>{geometry}</Shape>")
    };
    let mut request = SceneRequest::new(200, 150);
    request.view = ViewRequest::Named("Corner".into());
    request.skeleton_aid = false;
    let swept = render(&ctx, &scene(&shape("<Extrusion/>")), &request);
    let boxed = format!("<Transform translation='0 0.5 0'>{}</Transform>", shape("<Box size='2 1 2'/>"));
    let boxed = render(&ctx, &scene(&boxed), &request);
    save(&swept, "extrusion_default.png");
    let lit = (0..swept.height)
        .flat_map(|y| (0..swept.width).map(move |x| (x, y)))
        .filter(|&(x, y)| swept.pixel(x, y)[..3].iter().any(|&c| c > 20))
        .count();
    assert!(lit > 2000, "the box is drawn: {lit} pixels");
    let worst = (0..swept.height)
        .flat_map(|y| (0..swept.width).map(move |x| (x, y)))
        .map(|(x, y)| {
            let (a, b) = (swept.pixel(x, y), boxed.pixel(x, y));
            (0..3).map(|c| a[c].abs_diff(b[c])).max().unwrap_or(0)
        })
        .max()
        .unwrap_or(0);
    assert!(worst <= 2, "the swept box and the Box differ by up to {worst} in a channel");
}
