//! Regression pictures for the standard lighting model and the Background dome, rendered headless on a
//! real adapter (lavapipe in CI) from small hand-made files in `tests/data/lighting/`:
//! - a red Sphere with ambientIntensity 1 under the default headlight is shaded diffuse·N·L, not a flat
//!   disc (X3D 4.0, 17.2.2.4: no ambient light besides the lights' own ambientIntensity, and the
//!   headlight's is 0);
//! - an X3D 4.0 textured Box with diffuseColor 0.5 is half as bright as the same file declared X3D 3.3
//!   (texture × diffuseColor in 4.0, texture replaces diffuse before);
//! - a Background's sky gradient and ground appear at the rows the angles say (24.4.1);
//! - a Background and a NavigationInfo inside the humanoid are bound when they come first in the
//!   document (7.2.2), before one at the scene root.
//!
//! Without an adapter the tests are reported ignored, except under `CI=true`, where they fail.

mod common;

test_main!(
    a_sphere_with_ambient_intensity_one_is_shaded_by_the_headlight_alone,
    an_x3d4_texture_multiplies_the_diffuse_colour_and_an_x3d3_texture_replaces_it,
    the_background_dome_shows_the_sky_gradient_and_the_ground,
    bindable_nodes_inside_the_humanoid_are_bound_in_document_order
);

use std::path::Path;

use glam::Vec3;
use hanim_viewer::gpu::GpuContext;
use hanim_viewer::gpu::lighting::Lighting;
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::render::{self as headless, RenderedImage, SceneRequest};

const SIZE: u32 = 128;

fn load(name: &str) -> Document {
    let path = common::test_data(&format!("lighting/{name}"));
    hanim::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn render(ctx: &GpuContext, doc: &Document, lighting: Lighting) -> RenderedImage {
    let mut request = SceneRequest::new(SIZE, SIZE);
    request.lighting = lighting;
    headless::render_document(ctx, doc, &request).unwrap_or_else(|e| panic!("render failed: {e:#}"))
}

/// Where the image should be written for a person to look at (`target/render-tests/`).
fn save(image: &RenderedImage, name: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/render-tests");
    std::fs::create_dir_all(&dir).unwrap();
    hanim_viewer::output::write_png_atomically(&dir.join(name), image.width, image.height, &image.rgba).unwrap();
}

/// The pixel where world point `p` lands.
fn pixel_of(image: &RenderedImage, p: Vec3) -> [u8; 4] {
    let (x, y) = image.camera.project_to_pixel(p, image.width, image.height).expect("in front of the camera");
    image.pixel(x as u32, y as u32)
}

fn a_sphere_with_ambient_intensity_one_is_shaded_by_the_headlight_alone() {
    let ctx = common::gpu();
    let doc = load("red_sphere.x3d");
    let image = render(&ctx, &doc, Lighting::Standard);
    save(&image, "lighting.red_sphere.png");
    assert_eq!(image.background, [0.0; 3], "no Background: black (X3D's default skyColor)");
    // The headlight travels along the view: L = −forward. The point of the unit sphere facing the camera
    // has N·L = 1; the one 60° around has N·L = 0.5.
    let camera = image.camera;
    let towards_camera = -camera.forward();
    let centre = pixel_of(&image, towards_camera);
    let tilted = (towards_camera * 60f32.to_radians().cos() + camera.right() * 60f32.to_radians().sin()).normalize();
    let n_dot_l = tilted.dot(towards_camera);
    let rim = pixel_of(&image, tilted);
    eprintln!("centre {centre:?}, 60° around {rim:?} (N·L {n_dot_l:.3})");
    assert!(centre[0] >= 245, "centre: diffuse 1 × N·L 1 = 255, got {centre:?}");
    assert!(i32::from(centre[0]) - i32::from(rim[0]) > 80, "not a flat disc: centre {centre:?} vs 60° around {rim:?}");
    // Nothing above diffuseColor × N·L (±tessellation of the 32×16 sphere): no ambient term from
    // ambientIntensity 1, no key light; green and blue stay 0.
    let allowed = 255.0 * n_dot_l;
    assert!(
        (f32::from(rim[0]) - allowed).abs() <= 14.0,
        "60° around: R {} where diffuse·N·L gives {allowed:.0}",
        rim[0]
    );
    for p in [centre, rim] {
        assert!(p[1] <= 2 && p[2] <= 2, "green/blue must stay 0 under a white headlight on a red diffuse: {p:?}");
    }
    // The studio look (key and ambient light) is still available and is the flat, bright one.
    let studio = render(&ctx, &doc, Lighting::Studio);
    save(&studio, "lighting.red_sphere.studio.png");
    assert!(pixel_of(&studio, tilted)[0] > rim[0] + 40, "the studio look should be brighter at the rim");
}

fn an_x3d4_texture_multiplies_the_diffuse_colour_and_an_x3d3_texture_replaces_it() {
    let ctx = common::gpu();
    let x3d4 = load("textured_x3d40.x3d");
    let x3d3 = load("textured_x3d33.x3d");
    assert!(x3d4.settings.texture_times_diffuse && !x3d3.settings.texture_times_diffuse);
    let (a, b) = (render(&ctx, &x3d4, Lighting::Standard), render(&ctx, &x3d3, Lighting::Standard));
    save(&a, "lighting.textured_x3d40.png");
    save(&b, "lighting.textured_x3d33.png");
    assert!(a.notes.is_empty() && b.notes.is_empty(), "the texture must load: {:?} {:?}", a.notes, b.notes);
    // The Box's front face faces the headlight (N·L = 1) in the middle of the image; the texture is white.
    let (four, three) = (a.pixel(SIZE / 2, SIZE / 2), b.pixel(SIZE / 2, SIZE / 2));
    eprintln!("X3D 4.0 {four:?}, X3D 3.3 {three:?}");
    assert!(three[..3].iter().all(|&c| c >= 250), "X3D 3.3: the white texture replaces diffuse 0.5: {three:?}");
    for c in 0..3 {
        let ratio = f32::from(four[c]) / f32::from(three[c]);
        assert!((ratio - 0.5).abs() < 0.03, "X3D 4.0: texture × diffuse 0.5 should be half as bright: {four:?}");
    }
}

/// The view direction through the centre of pixel row `y`, column `x`.
fn direction_of(image: &RenderedImage, x: u32, y: u32) -> Vec3 {
    let camera = image.camera;
    let aspect = image.width as f32 / image.height as f32;
    let half = (camera.fov_y(aspect) / 2.0).tan();
    let ndc_x = 2.0 * (x as f32 + 0.5) / image.width as f32 - 1.0;
    let ndc_y = 1.0 - 2.0 * (y as f32 + 0.5) / image.height as f32;
    camera.forward() + camera.up() * (ndc_y * half) + camera.right() * (ndc_x * half * aspect)
}

fn the_background_dome_shows_the_sky_gradient_and_the_ground() {
    let ctx = common::gpu();
    let doc = load("sky_dome.x3d");
    let dome = doc.settings.background.clone().expect("the file's Background");
    let image = render(&ctx, &doc, Lighting::Standard);
    save(&image, "lighting.sky_dome.png");
    // The front view looks horizontally: the middle row is the horizon, the top row ~1.2 rad from the
    // zenith, the bottom rows inside the ground (which reaches 1.4 rad from the nadir).
    let x = 2;
    let expected = |y: u32| dome.color_towards(direction_of(&image, x, y)).map(|c| (c * 255.0).round() as i32);
    let mut seen = Vec::new();
    for y in [0, SIZE / 4, SIZE / 2 - 2, SIZE / 2 + 2, SIZE - 1] {
        let got = image.pixel(x, y);
        let want = expected(y);
        seen.push((y, got, want));
        for c in 0..3 {
            assert!((i32::from(got[c]) - want[c]).abs() <= 2, "row {y}: got {got:?}, the dome says {want:?}");
        }
    }
    eprintln!("(row, pixel, dome): {seen:?}");
    let (top, middle, bottom) = (image.pixel(x, 0), image.pixel(x, SIZE / 2 - 2), image.pixel(x, SIZE - 1));
    assert!(top[2] > 250 && top[0] + 40 < middle[0], "the sky turns from blue towards white: {top:?} → {middle:?}");
    assert!(bottom[0] > bottom[2] + 50, "brown ground below the horizon: {bottom:?}");
}

/// The first Background and NavigationInfo in document order are bound at load (X3D 4.0, 7.2.2), also
/// where they sit inside the humanoid: the sacrum segment's light blue Background and the root joint's
/// WALK NavigationInfo win over the site's further down and over those at the scene root after the
/// humanoid (JinBlink keeps its Background in the sacrum).
fn bindable_nodes_inside_the_humanoid_are_bound_in_document_order() {
    let doc = load("background_in_segment.x3d");
    let bound = doc.settings.background.clone().expect("the sacrum's Background is bound");
    assert_eq!(bound.sky_colors, [[0.8, 0.9, 1.0]], "the first Background in the document");
    assert_eq!(doc.settings.navigation_types, ["WALK"], "the first NavigationInfo in the document");
    assert_eq!(doc.settings.collision_distance, Some(0.3));
    let ctx = common::gpu();
    let image = render(&ctx, &doc, Lighting::Standard);
    save(&image, "lighting.background_in_segment.png");
    assert_eq!(image.background, [0.8, 0.9, 1.0]);
    let corner = image.pixel(0, 0);
    let want = [204, 230, 255];
    for c in 0..3 {
        assert!(corner[c].abs_diff(want[c]) <= 2, "corner pixel {corner:?}: the sky should be {want:?}");
    }
}
