//! Texture sampling as TextureProperties says, and smooth by default: a 1-pixel checkerboard seen small
//! averages to grey through the mipmap chain (no shimmer in thumbnails), while a TextureProperties
//! asking for nearest texels without mipmaps shows the raw black and white texels, and nearest
//! magnification keeps a 2×2 texture's hard edges where the default blends them; the X3D 4 material
//! textures (PhysicalMaterial `baseTexture`, Material `diffuseTexture`, UnlitMaterial `emissiveTexture`)
//! are drawn, and preferred to the Appearance's `texture`. Rendered headless
//! (lavapipe in CI) from files made in the test.

mod common;

test_main!(
    a_fine_checkerboard_seen_small_averages_unless_texture_properties_ask_for_nearest,
    nearest_magnification_keeps_texel_edges_and_the_default_blends_them,
    the_x3d4_material_textures_are_drawn_and_preferred_to_the_appearance_texture
);

use std::path::Path;

use glam::Vec3;
use hanim_viewer::hanim;
use hanim_viewer::render::{self as headless, RenderedImage, SceneRequest, ViewRequest};

/// A 1 m square at z = 0 facing +z (a humanoid's only segment shape), textured with `texture.png`, seen from 6 m (or 1.2 m for
/// `close`) by a viewpoint named Cam, on a white sky, lit by the headlight.
fn scene(dir: &Path, properties: &str, close: bool) -> RenderedImage {
    let appearance =
        format!("<Material diffuseColor='1 1 1'/><ImageTexture url='\"texture.png\"'>{properties}</ImageTexture>");
    square(dir, &appearance, close)
}

/// The square of [`scene`] with the Appearance's content given.
fn square(dir: &Path, appearance: &str, close: bool) -> RenderedImage {
    let distance = if close { 1.2 } else { 6.0 };
    let x3d = format!(
        "<X3D profile='Immersive' version='4.0'><Scene><Background skyColor='1 1 1'/>\
         <Viewpoint DEF='Cam' position='0 0 {distance}'/>\
         <HAnimHumanoid name='Square' version='2.0'><HAnimJoint DEF='root' name='humanoid_root' \
         containerField='skeleton'><HAnimSegment name='sacrum'>\
         <Shape><Appearance>{appearance}</Appearance>\
         <IndexedFaceSet coordIndex='0 1 2 3 -1' texCoordIndex='0 1 2 3 -1'>\
         <Coordinate point='-0.5 -0.5 0 0.5 -0.5 0 0.5 0.5 0 -0.5 0.5 0'/>\
         <TextureCoordinate point='0 0 1 0 1 1 0 1'/></IndexedFaceSet></Shape>\
         </HAnimSegment></HAnimJoint><HAnimJoint USE='root' containerField='joints'/></HAnimHumanoid>\
         </Scene></X3D>"
    );
    let path = dir.join("square.x3d");
    std::fs::write(&path, x3d).unwrap();
    let doc = hanim::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let ctx = common::gpu();
    let mut request = SceneRequest::new(200, 200);
    request.view = ViewRequest::Named("Cam".into());
    headless::render_document(&ctx, &doc, &request).unwrap_or_else(|e| panic!("{e:#}"))
}

/// Luminance samples of the pixels inside the middle half of the square.
fn square_pixels(image: &RenderedImage) -> Vec<f32> {
    let project = |p: Vec3| image.camera.project_to_pixel(p, image.width, image.height).unwrap();
    let (x0, y0) = project(Vec3::new(-0.25, 0.25, 0.0));
    let (x1, y1) = project(Vec3::new(0.25, -0.25, 0.0));
    let mut out = Vec::new();
    for y in y0.ceil() as u32..y1.floor() as u32 {
        for x in x0.ceil() as u32..x1.floor() as u32 {
            let p = image.pixel(x, y);
            out.push((u32::from(p[0]) + u32::from(p[1]) + u32::from(p[2])) as f32 / 3.0);
        }
    }
    out
}

fn spread(values: &[f32]) -> f32 {
    let mean = values.iter().sum::<f32>() / values.len() as f32;
    (values.iter().map(|v| (v - mean).powi(2)).sum::<f32>() / values.len() as f32).sqrt()
}

fn a_fine_checkerboard_seen_small_averages_unless_texture_properties_ask_for_nearest() {
    common::needs_gpu();
    let dir = tempfile::tempdir().unwrap();
    let checker = image::RgbImage::from_fn(256, 256, |x, y| {
        if (x + y) % 2 == 0 { image::Rgb([0, 0, 0]) } else { image::Rgb([255, 255, 255]) }
    });
    checker.save(dir.path().join("texture.png")).unwrap();

    let smooth = square_pixels(&scene(dir.path(), "", false));
    let raw = square_pixels(&scene(
        dir.path(),
        "<TextureProperties minificationFilter='NEAREST_PIXEL' generateMipMaps='false'/>",
        false,
    ));
    assert!(smooth.len() > 100, "the square covers {} sampled pixels", smooth.len());
    // 256 texels over about 40 pixels: the default mipmaps give an even grey, nearest texels a noise of
    // black and white.
    let (smooth_spread, raw_spread) = (spread(&smooth), spread(&raw));
    eprintln!("luminance spread over the square: default {smooth_spread:.1}, nearest without mipmaps {raw_spread:.1}");
    assert!(smooth_spread < 12.0, "default sampling spread {smooth_spread}");
    assert!(raw_spread > 60.0, "nearest, no mipmaps spread {raw_spread}");
}

fn nearest_magnification_keeps_texel_edges_and_the_default_blends_them() {
    common::needs_gpu();
    let dir = tempfile::tempdir().unwrap();
    let two =
        image::RgbImage::from_fn(2, 2, |x, _| if x == 0 { image::Rgb([0, 0, 0]) } else { image::Rgb([255, 255, 255]) });
    two.save(dir.path().join("texture.png")).unwrap();
    let count_mid_tones =
        |image: &RenderedImage| square_pixels(image).iter().filter(|&&v| v > 40.0 && v < 200.0).count();
    let nearest = scene(dir.path(), "<TextureProperties magnificationFilter='NEAREST_PIXEL'/>", true);
    let linear = scene(dir.path(), "", true);
    let (hard, soft) = (count_mid_tones(&nearest), count_mid_tones(&linear));
    eprintln!("mid-tone pixels: nearest {hard}, default {soft}");
    // Nearest: one column of edge pixels at most; bilinear: a ramp across the middle half.
    assert!(hard * 10 < soft, "mid-tone pixels: nearest {hard}, default {soft}");
}

/// The mean colour of the middle half of the square.
fn square_colour(image: &RenderedImage) -> [f32; 3] {
    let project = |p: Vec3| image.camera.project_to_pixel(p, image.width, image.height).unwrap();
    let (x0, y0) = project(Vec3::new(-0.25, 0.25, 0.0));
    let (x1, y1) = project(Vec3::new(0.25, -0.25, 0.0));
    let mut sum = [0.0f32; 3];
    let mut n = 0.0;
    for y in y0.ceil() as u32..y1.floor() as u32 {
        for x in x0.ceil() as u32..x1.floor() as u32 {
            let p = image.pixel(x, y);
            for c in 0..3 {
                sum[c] += f32::from(p[c]);
            }
            n += 1.0;
        }
    }
    assert!(n > 100.0, "the square covers {n} sampled pixels");
    sum.map(|v| v / n)
}

fn the_x3d4_material_textures_are_drawn_and_preferred_to_the_appearance_texture() {
    common::needs_gpu();
    let dir = tempfile::tempdir().unwrap();
    image::RgbImage::from_pixel(4, 4, image::Rgb([255, 0, 0])).save(dir.path().join("red.png")).unwrap();
    image::RgbImage::from_pixel(4, 4, image::Rgb([0, 0, 255])).save(dir.path().join("blue.png")).unwrap();
    let red = "<ImageTexture url='\"red.png\"' containerField='FIELD'/>";
    let cases = [
        (
            "PhysicalMaterial baseTexture",
            format!("<PhysicalMaterial metallic='0'>{}</PhysicalMaterial>", red.replace("FIELD", "baseTexture")),
        ),
        ("Material diffuseTexture", format!("<Material>{}</Material>", red.replace("FIELD", "diffuseTexture"))),
        (
            "UnlitMaterial emissiveTexture",
            format!("<UnlitMaterial>{}</UnlitMaterial>", red.replace("FIELD", "emissiveTexture")),
        ),
        (
            "baseTexture beside an Appearance texture",
            format!(
                "<PhysicalMaterial metallic='0'>{}</PhysicalMaterial><ImageTexture url='\"blue.png\"'/>",
                red.replace("FIELD", "baseTexture")
            ),
        ),
    ];
    for (what, appearance) in cases {
        let [r, g, b] = square_colour(&square(dir.path(), &appearance, true));
        eprintln!("{what}: mean colour {r:.0} {g:.0} {b:.0}");
        // A white base colour times a red texture: red, lit; without the texture it would be white/grey.
        assert!(r > 60.0 && g < 0.25 * r && b < 0.25 * r, "{what}: the square is {r:.0} {g:.0} {b:.0}, not red");
    }
    let plain = square_colour(&square(dir.path(), "<PhysicalMaterial metallic='0'/>", true));
    assert!(plain[1] > 0.5 * plain[0], "without the texture the square is grey/white: {plain:?}");
}
