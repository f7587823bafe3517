//! Event outputs that reach fields other than Transforms and joints are drawn: a Material's emissive
//! colour and transparency, a TextureTransform's translation, a Switch's `whichChoice` (showing a Shape
//! that was hidden at load) and a Viewpoint's position, each moved by its interpolator or sequencer from
//! one TimeSensor, rendered "as the file says" at three times and read back pixel by pixel against
//! values worked out by hand from the keys. The material uniforms are written only when a value changes.

mod common;

test_main!(
    colours_transparency_texture_placement_choices_and_the_viewpoint_are_drawn,
    material_uniforms_are_written_only_when_their_values_change
);

use glam::Vec3;
use hanim_viewer::animation::SampleOptions;
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::render::{RenderedImage, SceneRequest, ViewRequest, render_as_file};

/// One TimeSensor (2 s, looping from 0) drives everything. Boxes 1 m wide at z = 0 seen from the
/// viewpoint `Cam` (0 0 10 → 0 0 12 over the cycle, looking down −Z):
/// - x = −3: `Glow`, emissive red 1 → 0.5 (diffuse black: the pixel is the emissive colour);
/// - x = −1: `Fade`, emissive green, transparency 0 → 1 over the first half of the cycle;
/// - x = 1: a 2×1 texture (left texel red, right texel blue, no Material: unlit) whose
///   TextureTransform translation runs 0 → 0.5 over the first half;
/// - x = 3: a Switch showing a yellow box at y = 0 (choice 0), then a cyan one at y = 2 (choice 1) from
///   half the cycle on.
const SCENE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<X3D profile='Immersive' version='4.0'><Scene>
<Viewpoint DEF='Cam' description='Cam' position='0 0 10'/>
<NavigationInfo headlight='true'/>
<HAnimHumanoid name='h' version='2.0'><HAnimJoint containerField='skeleton' name='humanoid_root' center='0 -3 0'/></HAnimHumanoid>
<Transform translation='-3 0 0'><Shape><Appearance><Material DEF='Glow' diffuseColor='0 0 0' emissiveColor='1 0 0'/></Appearance><Box size='1 1 1'/></Shape></Transform>
<Transform translation='-1 0 0'><Shape><Appearance><Material DEF='Fade' diffuseColor='0 0 0' emissiveColor='0 1 0'/></Appearance><Box size='1 1 1'/></Shape></Transform>
<Transform translation='1 0 0'><Shape><Appearance><ImageTexture url='"two_texels.png"'/><TextureTransform DEF='Slide'/></Appearance><Box size='1 1 1'/></Shape></Transform>
<Switch DEF='Pick' whichChoice='0'>
  <Transform translation='3 0 0'><Shape><Appearance><Material diffuseColor='0 0 0' emissiveColor='1 1 0'/></Appearance><Box size='1 1 1'/></Shape></Transform>
  <Transform translation='3 2 0'><Shape><Appearance><Material diffuseColor='0 0 0' emissiveColor='0 1 1'/></Appearance><Box size='1 1 1'/></Shape></Transform>
</Switch>
<TimeSensor DEF='Clock' cycleInterval='2' loop='true'/>
<ColorInterpolator DEF='GlowColour' key='0 1' keyValue='1 0 0, 0.5 0 0'/>
<ScalarInterpolator DEF='FadeOut' key='0 0.5 1' keyValue='0 1 1'/>
<PositionInterpolator2D DEF='SlideBy' key='0 0.5 1' keyValue='0 0, 0.5 0, 0.5 0'/>
<IntegerSequencer DEF='Choose' key='0 0.5' keyValue='0 1'/>
<PositionInterpolator DEF='Dolly' key='0 1' keyValue='0 0 10, 0 0 12'/>
<ROUTE fromNode='Clock' fromField='fraction_changed' toNode='GlowColour' toField='set_fraction'/>
<ROUTE fromNode='GlowColour' fromField='value_changed' toNode='Glow' toField='emissiveColor'/>
<ROUTE fromNode='Clock' fromField='fraction_changed' toNode='FadeOut' toField='set_fraction'/>
<ROUTE fromNode='FadeOut' fromField='value_changed' toNode='Fade' toField='set_transparency'/>
<ROUTE fromNode='Clock' fromField='fraction_changed' toNode='SlideBy' toField='set_fraction'/>
<ROUTE fromNode='SlideBy' fromField='value_changed' toNode='Slide' toField='set_translation'/>
<ROUTE fromNode='Clock' fromField='fraction_changed' toNode='Choose' toField='set_fraction'/>
<ROUTE fromNode='Choose' fromField='value_changed' toNode='Pick' toField='set_whichChoice'/>
<ROUTE fromNode='Clock' fromField='fraction_changed' toNode='Dolly' toField='set_fraction'/>
<ROUTE fromNode='Dolly' fromField='value_changed' toNode='Cam' toField='set_position'/>
</Scene></X3D>
"#;

/// The fixture and its texture in a fresh folder.
fn fixture(dir: &std::path::Path) -> Document {
    // Left texel red, right texel blue.
    let texels = [255, 0, 0, 255, 0, 0, 255, 255];
    hanim_viewer::output::write_png_atomically(&dir.join("two_texels.png"), 2, 1, &texels).unwrap();
    let path = dir.join("events_drawn.x3d");
    std::fs::write(&path, SCENE).unwrap();
    hanim::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// The pixel where world point `p` is seen.
fn seen(image: &RenderedImage, p: Vec3) -> [u8; 3] {
    let (x, y) = image.camera.project_to_pixel(p, image.width, image.height).expect("in front of the camera");
    let i = ((y as u32 * image.width + x as u32) * 4) as usize;
    [image.rgba[i], image.rgba[i + 1], image.rgba[i + 2]]
}

fn near(got: [u8; 3], want: [u8; 3], tolerance: u8) -> bool {
    got.iter().zip(want).all(|(g, w)| g.abs_diff(w) <= tolerance)
}

fn colours_transparency_texture_placement_choices_and_the_viewpoint_are_drawn() {
    let ctx = common::gpu();
    let dir = tempfile::tempdir().unwrap();
    let doc = fixture(dir.path());
    let mut request = SceneRequest::new(240, 240);
    request.view = ViewRequest::Named("Cam".into());
    let times = [0.0, 0.5, 1.5];
    let mut images = Vec::new();
    render_as_file(&ctx, &doc, &request, &SampleOptions::default(), &times, |_, image| {
        images.push(image);
        Ok::<(), hanim_viewer::render::RenderError>(())
    })
    .expect("rendered");
    for (t, image) in times.iter().zip(&images) {
        let glow = seen(image, Vec3::new(-3.0, 0.0, 0.5));
        let fade = seen(image, Vec3::new(-1.0, 0.0, 0.5));
        let left_quarter = seen(image, Vec3::new(0.75, 0.0, 0.5));
        let (yellow, cyan) = (seen(image, Vec3::new(3.0, 0.0, 0.5)), seen(image, Vec3::new(3.0, 2.0, 0.5)));
        eprintln!(
            "t = {t}: camera at {}, glow {glow:?}, fade {fade:?}, texture {left_quarter:?}, switch {yellow:?} / {cyan:?}",
            image.camera.position()
        );
    }
    // The viewpoint: f = t / 2, position (0, 0, 10 + 2f): 10, 10.5, 11.5.
    for (image, z) in images.iter().zip([10.0, 10.5, 11.5]) {
        assert!(
            image.camera.position().abs_diff_eq(Vec3::new(0.0, 0.0, z), 1e-4),
            "camera {}",
            image.camera.position()
        );
    }
    let [at0, at_half, at_late] = [&images[0], &images[1], &images[2]];
    // Emissive red, V from 1 to 0.5 (hue and saturation alike, so HSV and RGB agree): f = 0, 0.25, 0.75
    // → 1, 0.875, 0.625 → 255, 223, 159 (the target encodes sRGB; the file's values are sRGB).
    for (image, red) in [(at0, 255), (at_half, 223), (at_late, 159)] {
        let got = seen(image, Vec3::new(-3.0, 0.0, 0.5));
        assert!(near(got, [red, 0, 0], 3), "emissive {got:?}, want ({red}, 0, 0)");
    }
    // Transparency 0 → 1 over f 0..0.5: opaque green at 0, half see-through at f = 0.25, gone at 0.75.
    let fade = |image: &RenderedImage| seen(image, Vec3::new(-1.0, 0.0, 0.5));
    assert!(near(fade(at0), [0, 255, 0], 3), "opaque {:?}", fade(at0));
    let half = fade(at_half);
    assert!(half[1] > 60 && half[1] < 240 && half[0] < 10, "half transparent {half:?}");
    assert!(near(fade(at_late), [0, 0, 0], 3), "fully transparent: the black background {:?}", fade(at_late));
    // The texture: a point a quarter across the box's front face samples s = 0.25 (the red texel) until
    // the transform shifts it by 0.5 to s = 0.75 (blue); at f = 0.25 it samples s = 0.5, between them.
    // (The pixel centre is within half a pixel of the point, about 1 % of the face: the linear filter
    // mixes in a little of the other texel, which sRGB encoding makes visible in the dark channel.)
    let texture = |image: &RenderedImage| seen(image, Vec3::new(0.75, 0.0, 0.5));
    let (red, blue) = (texture(at0), texture(at_late));
    assert!(red[0] > 240 && red[2] < 70 && red[1] < 5, "unshifted: the red texel {red:?}");
    assert!(blue[2] > 240 && blue[0] < 70 && blue[1] < 5, "shifted by 0.5: the blue texel {blue:?}");
    let middle = texture(at_half);
    assert!(middle[0] > 30 && middle[2] > 30, "between the texels {middle:?}");
    // The Switch: choice 0 (yellow at y = 0) until f = 0.5, then choice 1 (cyan at y = 2), a Shape hidden
    // at load.
    for image in [at0, at_half] {
        assert!(near(seen(image, Vec3::new(3.0, 0.0, 0.5)), [255, 255, 0], 3));
        assert!(near(seen(image, Vec3::new(3.0, 2.0, 0.5)), [0, 0, 0], 3), "choice 1 not shown yet");
    }
    assert!(near(seen(at_late, Vec3::new(3.0, 2.0, 0.5)), [0, 255, 255], 3), "choice 1 drawn");
    assert!(near(seen(at_late, Vec3::new(3.0, 0.0, 0.5)), [0, 0, 0], 3), "choice 0 hidden");
}

fn material_uniforms_are_written_only_when_their_values_change() {
    // The fixture has three parts whose appearance events change (Glow, Fade, the textured box); the
    // Switch and the viewpoint are placements, not material uniforms.
    use hanim_viewer::animation::events::EventModel;
    use hanim_viewer::pose::Pose;
    use hanim_viewer::render::PosedRenderer;
    let ctx = common::gpu();
    let dir = tempfile::tempdir().unwrap();
    let doc = fixture(dir.path());
    let poses: Vec<Pose> = doc.humanoids.iter().map(Pose::rest).collect();
    let mut renderer = PosedRenderer::new(&ctx, &doc, &SceneRequest::new(64, 64), &poses).unwrap();
    let model = EventModel::new(&doc.scene);
    let (early, late) = (model.evaluate_at(0.5), model.evaluate_at(1.5));
    assert_eq!(renderer.apply_appearance(&ctx, &doc, &early), 3, "the three changed parts");
    assert_eq!(renderer.apply_appearance(&ctx, &doc, &early), 0, "nothing changed since");
    assert_eq!(renderer.apply_appearance(&ctx, &doc, &late), 3);
    let none = hanim_viewer::animation::events::Overrides::default();
    assert_eq!(renderer.apply_appearance(&ctx, &doc, &none), 3, "back to the file's values");
    assert_eq!(renderer.apply_appearance(&ctx, &doc, &none), 0);
}
