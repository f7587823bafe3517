//! Which lights reach what (X3D 4.0 17.2.1 and 9.4.2, `src/hanim/light_scope.rs`): an Inline whose
//! `global` field is FALSE (the default) keeps its file's lights to that file's nodes, and a
//! DirectionalLight (global FALSE by default) lights only its group. The boxes are grey and the headlight
//! is off, so a box's red channel is the light that reaches it. X_ITE 15 draws these scenes the same way
//! (the light of one Inline copy does not reach the other's box unless the Inline is global).

mod common;

test_main!(
    an_inlines_lights_reach_only_its_own_nodes_unless_it_is_global,
    each_copy_of_an_inlined_file_is_lit_by_its_own_lights,
    a_directional_light_lights_only_its_group
);

use glam::Vec3;
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::render::{self as headless, RenderedImage, SceneRequest, ViewRequest};

/// A scene of `body` with the headlight off, X3D's default viewpoint, and a small humanoid out of the
/// way (what `render` needs), written beside the inlined box files.
fn scene(name: &str, body: &str) -> Document {
    let text = format!(
        "<?xml version='1.0' encoding='UTF-8'?><X3D profile='Immersive' version='4.0'><Scene>\
         <NavigationInfo headlight='false'/><Viewpoint DEF='Front' position='0 0 10'/>{body}\
         <Transform translation='0 3.5 0'><HAnimHumanoid name='h' version='2.0'>\
         <HAnimJoint DEF='r' name='humanoid_root' containerField='skeleton'/>\
         <HAnimJoint USE='r' containerField='joints'/></HAnimHumanoid></Transform></Scene></X3D>"
    );
    let path = common::test_data(&format!("light_scope/{name}.x3d"));
    hanim::load_str(&text, &path).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The mean red channel of the 5×5 pixels around the front face of the box centred at `x`.
fn red_at(image: &RenderedImage, x: f32) -> f32 {
    let (px, py) = image.camera.project_to_pixel(Vec3::new(x, 0.0, 1.0), image.width, image.height).unwrap();
    let mut sum = 0.0;
    for dy in -2..=2i32 {
        for dx in -2..=2i32 {
            sum += f32::from(image.pixel((px as i32 + dx) as u32, (py as i32 + dy) as u32)[0]);
        }
    }
    sum / 25.0
}

fn render(doc: &Document) -> RenderedImage {
    let ctx = common::gpu();
    let mut request = SceneRequest::new(320, 200);
    request.view = ViewRequest::Named("Front".into());
    request.skeleton_aid = false;
    headless::render_document(&ctx, doc, &request).unwrap_or_else(|e| panic!("render failed: {e:#}"))
}

fn an_inlines_lights_reach_only_its_own_nodes_unless_it_is_global() {
    let pair = |global: &str| {
        format!(
            "<Transform translation='-1.5 0 0'><Inline {global} url='\"lit_box.x3d\"'/></Transform>\
             <Transform translation='1.5 0 0'><Inline url='\"plain_box.x3d\"'/></Transform>"
        )
    };
    let scoped = render(&scene("scoped", &pair("")));
    let global = render(&scene("global", &pair("global='true'")));
    let (own, other) = (red_at(&scoped, -1.5), red_at(&scoped, 1.5));
    let reached = red_at(&global, 1.5);
    eprintln!("scoped: own box {own}, other box {other}; global: other box {reached}");
    assert!(own > 100.0, "the Inline's light lights its own box: {own}");
    assert!(other < 2.0, "and not the other Inline's box: {other}");
    assert!(reached > 30.0, "a global Inline's light reaches the other box: {reached}");
    assert!((red_at(&global, -1.5) - own).abs() <= 1.0, "its own box is lit alike either way");
}

/// Two Inlines of one file: their Boxes are one instanced draw, and each copy is lit by its own light
/// (straight in front of it), as a lone copy is; made global, both lights reach both boxes.
fn each_copy_of_an_inlined_file_is_lit_by_its_own_lights() {
    let copies = |global: &str| {
        format!(
            "<Transform translation='-1.5 0 0'><Inline {global} url='\"lit_box.x3d\"'/></Transform>\
             <Transform translation='1.5 0 0'><Inline {global} url='\"lit_box.x3d\"'/></Transform>"
        )
    };
    let alone =
        render(&scene("alone", "<Transform translation='-1.5 0 0'><Inline url='\"lit_box.x3d\"'/></Transform>"));
    let scoped = render(&scene("copies", &copies("")));
    let global = render(&scene("copies_global", &copies("global='true'")));
    let lone = red_at(&alone, -1.5);
    let (left, right) = (red_at(&scoped, -1.5), red_at(&scoped, 1.5));
    let both = red_at(&global, -1.5);
    eprintln!("alone {lone}; copies {left} {right}; global copies {both}");
    assert!(lone > 100.0 && lone < 250.0, "{lone}");
    for value in [left, right] {
        assert!((value - lone).abs() <= 1.0, "each copy is lit as a lone copy: {value} vs {lone}");
    }
    assert!(both > lone + 5.0, "global copies light each other's boxes too: {both} vs {lone}");
}

fn a_directional_light_lights_only_its_group() {
    let body = "<Transform translation='-1.5 0 0'><DirectionalLight color='1 0 0' direction='0 0 -1'/>\
        <Shape><Appearance><Material diffuseColor='0.8 0.8 0.8'/></Appearance><Box/></Shape></Transform>\
        <Transform translation='1.5 0 0'><Shape><Appearance><Material diffuseColor='0.8 0.8 0.8'/></Appearance>\
        <Box/></Shape></Transform>";
    let image = render(&scene("directional", body));
    let global =
        render(&scene("directional_global", &body.replace("direction='0 0 -1'", "direction='0 0 -1' global='true'")));
    let (inside, outside) = (red_at(&image, -1.5), red_at(&image, 1.5));
    eprintln!("group {inside}, outside {outside}, global outside {}", red_at(&global, 1.5));
    assert!(inside > 150.0, "{inside}");
    assert!(outside < 2.0, "a DirectionalLight does not light outside its group: {outside}");
    assert!((red_at(&global, 1.5) - inside).abs() <= 1.0, "a global one does");
}
