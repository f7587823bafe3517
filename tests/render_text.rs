//! X3D `Text` (clause 15) drawn as geometry: a big black "H" on white lands where the file puts it and
//! nowhere else, DiamondManLOA2's key labels appear beside their coloured spheres, and Text under a
//! humanoid's site counts in its bounds. Rendered headless (lavapipe in CI) like `tests/render.rs`.

mod common;

test_main!(
    a_text_h_is_drawn_where_the_file_puts_it,
    diamond_man_labels_are_drawn_beside_their_spheres,
    text_under_a_site_counts_in_the_bounds
);

use std::path::Path;

use glam::Vec3;
use hanim_viewer::gpu::GpuContext;
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::pose::{Pose, bounds::humanoid_bounds};
use hanim_viewer::render::{self as headless, RenderedImage, SceneRequest, ViewRequest};

fn load_path(path: &Path) -> Document {
    hanim::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn render(ctx: &GpuContext, doc: &Document, request: &SceneRequest) -> RenderedImage {
    headless::render_document(ctx, doc, request).unwrap_or_else(|e| panic!("render failed: {e:#}"))
}

fn save(image: &RenderedImage, name: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/render-tests");
    std::fs::create_dir_all(&dir).unwrap();
    hanim_viewer::output::write_png_atomically(&dir.join(name), image.width, image.height, &image.rgba).unwrap();
}

/// The pixel rectangle (x0, y0, x1, y1) of the world rectangle `lo..hi` in the plane z = 0.
fn pixel_rect(image: &RenderedImage, lo: Vec3, hi: Vec3) -> (f32, f32, f32, f32) {
    let project = |p: Vec3| image.camera.project_to_pixel(p, image.width, image.height).expect("in front");
    let (ax, ay) = project(lo);
    let (bx, by) = project(hi);
    (ax.min(bx), ay.min(by), ax.max(bx), ay.max(by))
}

fn pixel_at(image: &RenderedImage, p: Vec3) -> [u8; 4] {
    let (x, y) = image.camera.project_to_pixel(p, image.width, image.height).expect("in front");
    image.pixel(x as u32, y as u32)
}

fn is_dark(p: [u8; 4]) -> bool {
    p[0] < 64 && p[1] < 64 && p[2] < 64
}

/// `tests/data/text_h.x3d`: a black "H" 1 m high, centred on x = 2 (justify MIDDLE), baseline at
/// y = −0.5, on a white background beside a grey box. Dark pixels lie only within the H's rectangle;
/// its stems and crossbar are dark, its counters (above and below the crossbar) white.
fn a_text_h_is_drawn_where_the_file_puts_it() {
    let ctx = common::gpu();
    let doc = load_path(&common::test_data("text_h.x3d"));
    let mut request = SceneRequest::new(320, 240);
    request.view = ViewRequest::Named("TextCam".into());
    let image = render(&ctx, &doc, &request);
    save(&image, "text_h.png");
    assert!(image.notes.iter().all(|n| !n.contains("Text")), "{:?}", image.notes);

    // DejaVu Sans "H": ink from 0.13 to 0.87 of its 0.75 em advance, cap height 0.73 em; at size 1.37
    // centred on x = 2 that is x 1.62..2.38, y −0.5..0.5.
    let (x0, y0, x1, y1) = pixel_rect(&image, Vec3::new(1.55, -0.55, 0.0), Vec3::new(2.45, 0.55, 0.0));
    let (mut inside, mut outside) = (0usize, Vec::new());
    for y in 0..image.height {
        for x in 0..image.width {
            if !is_dark(image.pixel(x, y)) {
                continue;
            }
            let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
            if cx >= x0 && cx <= x1 && cy >= y0 && cy <= y1 {
                inside += 1;
            } else {
                outside.push((x, y));
            }
        }
    }
    assert!(
        outside.is_empty(),
        "{} dark pixels outside the H, e.g. {:?}",
        outside.len(),
        &outside[..outside.len().min(5)]
    );
    let area = (x1 - x0) * (y1 - y0);
    eprintln!("H: {inside} dark pixels in a rectangle of {area} px");
    assert!(inside as f32 > 0.2 * area && (inside as f32) < 0.7 * area, "an H, not a block: {inside} of {area}");
    for (p, what) in [
        (Vec3::new(1.69, 0.3, 0.0), "left stem"),
        (Vec3::new(2.31, -0.3, 0.0), "right stem"),
        (Vec3::new(2.0, 0.0, 0.0), "crossbar"),
    ] {
        assert!(is_dark(pixel_at(&image, p)), "{what} at {p} is {:?}", pixel_at(&image, p));
    }
    for p in [Vec3::new(2.0, 0.32, 0.0), Vec3::new(2.0, -0.32, 0.0)] {
        let q = pixel_at(&image, p);
        assert!(q[..3].iter().all(|&c| c > 200), "the counter at {p} is white: {q:?}");
    }
    // The grey box at the origin is drawn, and is not mistaken for text.
    let grey = pixel_at(&image, Vec3::new(0.0, 0.0, 0.2));
    assert!(grey[0] > 64 && grey[0] < 230, "box: {grey:?}");
}

/// DiamondManLOA2's key: seven Text labels (a title at (1, 1.5) and six beside coloured spheres, from
/// x = 1.2, at y 0.2..1.2). Rendered with and without the Text shapes from the same camera, the labels add
/// many pixels there and change nothing elsewhere.
fn diamond_man_labels_are_drawn_beside_their_spheres() {
    // DiamondManLOA2 is not redistributed with the repository (see tests/corpus/MANIFEST.md).
    common::needs_corpus(&["x3d/DiamondManLOA2.x3d"]);
    let ctx = common::gpu();
    let doc = load_path(&common::corpus("x3d/DiamondManLOA2.x3d"));
    let texts = |d: &Document| {
        d.other_shapes
            .iter()
            .filter(|(shape, _)| {
                let n = d.scene.node(*shape);
                n.children_in("geometry").any(|g| d.scene.node(g).type_name == "Text")
            })
            .count()
    };
    // The eighth Text, a tiny italic "Humanoid Root", is in the sacrum segment (drawn with the humanoid).
    assert_eq!(texts(&doc), 7, "the key's seven labels are scene shapes");
    // The key stands beside the figure (a prop: computed views frame the figure alone), so the camera
    // frames the figure and the key together.
    let key_and_figure =
        hanim_viewer::pose::bounds::Aabb { min: Vec3::new(-1.0, 0.0, -0.3), max: Vec3::new(3.5, 1.8, 0.3) };
    let camera = hanim_viewer::views::framed_camera(
        &key_and_figure,
        glam::Quat::IDENTITY,
        hanim_viewer::views::DEFAULT_FIELD_OF_VIEW,
        400.0 / 300.0,
    );
    let mut framed = SceneRequest::new(400, 300);
    framed.view = ViewRequest::Camera(camera);
    let with = render(&ctx, &doc, &framed);
    save(&with, "DiamondManLOA2.labels.png");
    let mut bare = doc.clone();
    bare.other_shapes.retain(|(shape, _)| {
        let n = bare.scene.node(*shape);
        !n.children_in("geometry").any(|g| bare.scene.node(g).type_name == "Text")
    });
    let mut request = SceneRequest::new(400, 300);
    request.view = ViewRequest::Camera(with.camera);
    let without = render(&ctx, &bare, &request);
    save(&without, "DiamondManLOA2.no-labels.png");

    let (x0, y0, x1, y1) = pixel_rect(&with, Vec3::new(0.95, 0.1, 0.0), Vec3::new(3.4, 1.7, 0.0));
    let (mut added, mut stray) = (0usize, Vec::new());
    for y in 0..with.height {
        for x in 0..with.width {
            let changed = (0..3).any(|c| with.pixel(x, y)[c].abs_diff(without.pixel(x, y)[c]) > 3);
            if !changed {
                continue;
            }
            let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
            if cx >= x0 && cx <= x1 && cy >= y0 && cy <= y1 {
                added += 1;
            } else {
                stray.push((x, y));
            }
        }
    }
    eprintln!("DiamondManLOA2: the labels add {added} pixels");
    assert!(
        stray.is_empty(),
        "{} changed pixels outside the key, e.g. {:?}",
        stray.len(),
        &stray[..stray.len().min(5)]
    );
    assert!(added > 1500, "only {added} label pixels");
    // Each label's line: something drawn just right of its sphere, at the sphere's height.
    for y in [1.2f32, 1.0, 0.8, 0.6, 0.4, 0.2] {
        let (lx0, ly0, lx1, ly1) = pixel_rect(&with, Vec3::new(1.2, y - 0.02, 0.0), Vec3::new(1.6, y + 0.06, 0.0));
        let drawn = (ly0 as u32..=ly1 as u32)
            .flat_map(|py| (lx0 as u32..=lx1 as u32).map(move |px| (px, py)))
            .filter(|&(px, py)| with.is_foreground(px, py, 3) && !without.is_foreground(px, py, 3))
            .count();
        assert!(drawn > 20, "label at y = {y}: {drawn} pixels");
    }
}

/// Text under a humanoid's site counts in the humanoid's bounds (its glyph boxes, placed by the site).
fn text_under_a_site_counts_in_the_bounds() {
    let text = r#"<X3D version='4.0'><Scene>
          <HAnimHumanoid name='h' version='2.0'>
            <HAnimJoint containerField='skeleton' name='humanoid_root'>
              <HAnimSite name='label_pt' translation='3 0 0'>
                <Shape><Text string='"HELLO WORLD"'><FontStyle family='"SANS"' size='1'/></Text></Shape>
              </HAnimSite>
            </HAnimJoint>
          </HAnimHumanoid></Scene></X3D>"#;
    let doc = hanim::load_str(text, Path::new("site_text.x3d")).unwrap_or_else(|e| panic!("{e}"));
    let h = &doc.humanoids[0];
    let b = humanoid_bounds(&doc.scene, h, &Pose::rest(h)).unwrap();
    // "HELLO WORLD" in DejaVu Sans is about 7.3 em wide and 0.73 em high, starting at the site.
    assert!(b.max.x > 3.0 + 6.5 && b.max.x < 3.0 + 8.0, "{b:?}");
    assert!((b.max.y - 0.73).abs() < 0.02 && b.min.y.abs() < 0.02, "{b:?}");
    assert_eq!((b.min.z, b.max.z), (0.0, 0.0), "flat");
}
