//! PhysicalMaterial and the X3D 4.0 material maps, drawn: a square facing the viewer, rendered headless
//! (lavapipe in CI), against a CPU transcription of the glTF 2.0 metallic-roughness BRDF (glTF 2.0
//! Appendix B, which X3D 4.0 12.4.3 / 17.2.2.5 takes) at the pixel where view, light and normal meet.
//! The maps are checked by what they must do to that pixel: the metallic-roughness map scales the
//! factors, the normal map turns the normal as its texel says, the emissive map tints the emissive colour,
//! the occlusion map darkens ambient light only, and `…TextureMapping` picks the texture coordinates.

mod common;

test_main!(
    physical_material_follows_the_gltf_brdf_under_the_headlight,
    the_metallic_roughness_map_scales_the_factors_by_its_blue_and_green,
    the_normal_map_turns_the_normal_on_physical_and_phong_materials,
    the_emissive_map_tints_the_emissive_colour,
    the_occlusion_map_darkens_ambient_light_only,
    a_texture_mapping_picks_the_texture_coordinates_it_names,
    vertex_colours_multiply_the_linear_base_colour,
    the_materials_scene_draws_its_normal_map
);

use std::f32::consts::PI;
use std::path::Path;

use glam::Vec3;
use hanim_viewer::gpu::lighting::Lighting;
use hanim_viewer::hanim;
use hanim_viewer::render::{self as headless, RenderedImage, SceneRequest, ViewRequest};

/// Pixel values may differ from the CPU figure by this much (8-bit rounding of the texels and of the
/// output, the pixel centre a fraction of a degree off the axis).
const TOLERANCE: f32 = 2.5;

fn srgb_from_linear(c: f32) -> f32 {
    let c = c.clamp(0.0, 1.0);
    if c <= 0.0031308 { c * 12.92 } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 }
}

/// glTF 2.0 Appendix B for one light: N·L × mix(mix(diffuse, specular, F(0.04)), F(base) × specular,
/// metallic), with diffuse = base / π and specular = V × D (GGX, height-correlated Smith).
fn brdf(n: Vec3, v: Vec3, l: Vec3, base: Vec3, metallic: f32, roughness: f32) -> Vec3 {
    let n_dot_l = n.dot(l).clamp(0.0, 1.0);
    if n_dot_l == 0.0 {
        return Vec3::ZERO;
    }
    let h = (l + v).normalize();
    let (n_dot_v, n_dot_h, v_dot_h) = (n.dot(v).clamp(0.0, 1.0), n.dot(h).clamp(0.0, 1.0), v.dot(h).clamp(0.0, 1.0));
    let alpha = (roughness * roughness).max(0.002);
    let a2 = alpha * alpha;
    let visibility = 0.5
        / (n_dot_l * (n_dot_v * n_dot_v * (1.0 - a2) + a2).sqrt()
            + n_dot_v * (n_dot_l * n_dot_l * (1.0 - a2) + a2).sqrt());
    let f = n_dot_h * n_dot_h * (a2 - 1.0) + 1.0;
    let distribution = a2 / (PI * f * f);
    let specular = Vec3::splat(visibility * distribution);
    let schlick = |f0: Vec3| f0 + (Vec3::ONE - f0) * (1.0 - v_dot_h).powi(5);
    let fresnel = schlick(Vec3::splat(0.04));
    let dielectric = base / PI * (Vec3::ONE - fresnel) + specular * fresnel;
    let metal = schlick(base) * specular;
    n_dot_l * (dielectric * (1.0 - metallic) + metal * metallic)
}

/// The 8-bit sRGB pixel of linear `c`.
fn pixel_of(c: Vec3) -> [f32; 3] {
    [c.x, c.y, c.z].map(|x| srgb_from_linear(x) * 255.0)
}

/// A PhysicalMaterial colour: linear as written (glTF 2.0 3.9.2).
fn physical_color(c: [f32; 3]) -> Vec3 {
    Vec3::from(c)
}

/// A 1 m square at z = 0 facing +z (a humanoid's only segment shape) with `appearance` and
/// `tex_coord`, seen from 3 m by the viewpoint Cam on a black sky; `scene` adds nodes (lights,
/// NavigationInfo).
fn square(dir: &Path, appearance: &str, tex_coord: &str, scene: &str, lighting: Lighting) -> RenderedImage {
    let x3d = format!(
        "<X3D profile='Immersive' version='4.0'><Scene>{scene}\
         <Viewpoint DEF='Cam' position='0 0 3'/>\
         <HAnimHumanoid name='Square' version='2.0'><HAnimJoint DEF='root' name='humanoid_root' \
         containerField='skeleton'><HAnimSegment name='sacrum'>\
         <Shape><Appearance>{appearance}</Appearance>\
         <IndexedFaceSet coordIndex='0 1 2 3 -1' texCoordIndex='0 1 2 3 -1'>\
         <Coordinate point='-0.5 -0.5 0 0.5 -0.5 0 0.5 0.5 0 -0.5 0.5 0'/>{tex_coord}</IndexedFaceSet></Shape>\
         </HAnimSegment></HAnimJoint><HAnimJoint USE='root' containerField='joints'/></HAnimHumanoid>\
         </Scene></X3D>"
    );
    let path = dir.join("square.x3d");
    std::fs::write(&path, x3d).unwrap();
    let doc = hanim::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let ctx = common::gpu();
    let mut request = SceneRequest::new(101, 101);
    request.view = ViewRequest::Named("Cam".into());
    request.lighting = lighting;
    headless::render_document(&ctx, &doc, &request).unwrap_or_else(|e| panic!("{e:#}"))
}

const UV: &str = "<TextureCoordinate point='0 0 1 0 1 1 0 1'/>";

fn lit_square(dir: &Path, appearance: &str) -> [f32; 3] {
    centre(&square(dir, appearance, UV, "", Lighting::Standard))
}

/// The pixel at the square's centre, where the headlight, the view and the normal meet.
fn centre(image: &RenderedImage) -> [f32; 3] {
    let (x, y) = image.camera.project_to_pixel(Vec3::ZERO, image.width, image.height).unwrap();
    let p = image.pixel(x as u32, y as u32);
    [p[0], p[1], p[2]].map(f32::from)
}

fn assert_near(what: &str, got: [f32; 3], want: [f32; 3]) {
    let off = got.iter().zip(want).map(|(g, w)| (g - w).abs()).fold(0.0, f32::max);
    assert!(off <= TOLERANCE, "{what}: pixel {got:?}, the BRDF gives {want:?}");
}

/// A one-colour RGB image in `dir`.
fn flat_png(dir: &Path, name: &str, rgb: [u8; 3]) {
    image::RgbImage::from_pixel(4, 4, image::Rgb(rgb)).save(dir.join(name)).unwrap();
}

fn physical_material_follows_the_gltf_brdf_under_the_headlight() {
    common::needs_gpu();
    let dir = tempfile::tempdir().unwrap();
    let axis = Vec3::Z;
    for (base, metallic, roughness) in
        [([0.8, 0.3, 0.2], 0.0, 0.5), ([0.9, 0.7, 0.3], 1.0, 0.6), ([0.5, 0.6, 0.9], 0.4, 0.9), ([1.0; 3], 0.0, 1.0)]
    {
        let appearance = format!(
            "<PhysicalMaterial baseColor='{} {} {}' metallic='{metallic}' roughness='{roughness}'/>",
            base[0], base[1], base[2]
        );
        let want = pixel_of(brdf(axis, axis, axis, physical_color(base), metallic, roughness));
        assert_near(&appearance, lit_square(dir.path(), &appearance), want);
    }
    // The default PhysicalMaterial is a rough white metal: its diffuse lobe is gone.
    let metal = pixel_of(brdf(axis, axis, axis, Vec3::ONE, 1.0, 1.0));
    assert_near("default PhysicalMaterial", lit_square(dir.path(), "<PhysicalMaterial/>"), metal);
}

fn the_metallic_roughness_map_scales_the_factors_by_its_blue_and_green() {
    common::needs_gpu();
    let dir = tempfile::tempdir().unwrap();
    flat_png(dir.path(), "mr.png", [255, 102, 51]);
    let mapped = lit_square(
        dir.path(),
        "<PhysicalMaterial baseColor='0.8 0.5 0.3' metallic='1' roughness='1'>\
         <ImageTexture containerField='metallicRoughnessTexture' url='\"mr.png\"'/></PhysicalMaterial>",
    );
    let (metallic, roughness) = (51.0 / 255.0, 102.0 / 255.0);
    let want = pixel_of(brdf(Vec3::Z, Vec3::Z, Vec3::Z, physical_color([0.8, 0.5, 0.3]), metallic, roughness));
    assert_near("metallic-roughness map", mapped, want);
}

fn the_normal_map_turns_the_normal_on_physical_and_phong_materials() {
    common::needs_gpu();
    let dir = tempfile::tempdir().unwrap();
    // A normal turned 36.9° towards +s (+x here): (0.6, 0, 0.8) encoded in [0, 1].
    let texel = [204u8, 128, 230];
    flat_png(dir.path(), "tilted.png", texel);
    flat_png(dir.path(), "flat.png", [128, 128, 255]);
    let decoded = Vec3::from(texel.map(|c| f32::from(c) / 255.0 * 2.0 - 1.0));
    // The light comes from the +x side; the headlight is off.
    let light = "<NavigationInfo headlight='false'/><DirectionalLight direction='-1 0 -1'/>";
    let l = Vec3::new(1.0, 0.0, 1.0).normalize();
    let physical = |map: &str, scale: f32| {
        let appearance = format!(
            "<PhysicalMaterial baseColor='0.8 0.8 0.8' metallic='0' roughness='1' normalScale='{scale}'>\
             <ImageTexture containerField='normalTexture' url='\"{map}\"'/></PhysicalMaterial>"
        );
        centre(&square(dir.path(), &appearance, UV, light, Lighting::Standard))
    };
    let base = physical_color([0.8; 3]);
    let want = |n: Vec3| pixel_of(brdf(n.normalize(), Vec3::Z, l, base, 0.0, 1.0));
    assert_near("tilted normal map", physical("tilted.png", 1.0), want(decoded));
    assert_near("flat normal map", physical("flat.png", 1.0), want(Vec3::Z));
    let half = Vec3::new(decoded.x * 0.5, decoded.y * 0.5, decoded.z);
    assert_near("normalScale 0.5", physical("tilted.png", 0.5), want(half));
    // Phong: the diffuse term follows N·L of the mapped normal (X3D 17.2.2.4, values as written).
    let phong = |map: &str| {
        let appearance = format!(
            "<Material diffuseColor='0.8 0.8 0.8'><ImageTexture containerField='normalTexture' url='\"{map}\"'/>\
             </Material>"
        );
        centre(&square(dir.path(), &appearance, UV, light, Lighting::Standard))
    };
    let (tilted, flat) = (phong("tilted.png"), phong("flat.png"));
    let n_dot_l = |n: Vec3| n.normalize().dot(l);
    assert_near("Phong, flat map", flat, [0.8 * n_dot_l(Vec3::Z) * 255.0; 3]);
    assert_near("Phong, tilted map", tilted, [0.8 * n_dot_l(decoded) * 255.0; 3]);
}

fn the_emissive_map_tints_the_emissive_colour() {
    common::needs_gpu();
    let dir = tempfile::tempdir().unwrap();
    flat_png(dir.path(), "glow.png", [255, 128, 0]);
    let dark = "<NavigationInfo headlight='false'/>";
    for (material, colour) in [("PhysicalMaterial", "baseColor"), ("Material", "diffuseColor")] {
        let appearance = format!(
            "<{material} {colour}='0 0 0' emissiveColor='1 1 1'>\
             <ImageTexture containerField='emissiveTexture' url='\"glow.png\"'/></{material}>"
        );
        let pixel = centre(&square(dir.path(), &appearance, UV, dark, Lighting::Standard));
        assert_near(&format!("{material} emissive map"), pixel, [255.0, 128.0, 0.0]);
    }
}

fn the_occlusion_map_darkens_ambient_light_only() {
    common::needs_gpu();
    let dir = tempfile::tempdir().unwrap();
    flat_png(dir.path(), "ao.png", [0, 0, 0]);
    let material = |occlusion: &str| {
        format!(
            "<PhysicalMaterial baseColor='0.8 0.8 0.8' metallic='0' roughness='1' occlusionStrength='1'>{occlusion}\
             </PhysicalMaterial>"
        )
    };
    let occluded = material("<ImageTexture containerField='occlusionTexture' url='\"ao.png\"'/>");
    let open = material("");
    // The X3D lighting has no ambient light from the headlight: the map changes nothing.
    let standard = |a: &str| centre(&square(dir.path(), a, UV, "", Lighting::Standard));
    assert_near("occlusion, X3D lighting", standard(&occluded), standard(&open));
    // The studio look adds ambient light, which a black occlusion map takes away.
    let studio = |a: &str| centre(&square(dir.path(), a, UV, "", Lighting::Studio));
    let (dark, bright) = (studio(&occluded), studio(&open));
    assert!(dark[0] + 3.0 < bright[0], "occluded {dark:?} against open {bright:?}");
}

fn a_texture_mapping_picks_the_texture_coordinates_it_names() {
    common::needs_gpu();
    let dir = tempfile::tempdir().unwrap();
    // Left half black, right half white.
    image::RgbImage::from_fn(8, 8, |x, _| image::Rgb(if x < 4 { [0; 3] } else { [255; 3] }))
        .save(dir.path().join("halves.png"))
        .unwrap();
    // Set 'left' samples the black half everywhere, set 'right' the white half.
    let tex_coord = "<MultiTextureCoordinate>\
        <TextureCoordinate mapping='left' point='0.1 0.5 0.2 0.5 0.2 0.6 0.1 0.6'/>\
        <TextureCoordinate mapping='right' point='0.8 0.5 0.9 0.5 0.9 0.6 0.8 0.6'/></MultiTextureCoordinate>";
    let unlit = |mapping: &str| {
        let appearance = format!(
            "<UnlitMaterial emissiveColor='1 1 1' emissiveTextureMapping='{mapping}'>\
             <ImageTexture containerField='emissiveTexture' url='\"halves.png\"'/></UnlitMaterial>"
        );
        centre(&square(dir.path(), &appearance, tex_coord, "", Lighting::Standard))
    };
    assert_near("mapping 'right'", unlit("right"), [255.0; 3]);
    assert_near("mapping 'left'", unlit("left"), [0.0; 3]);
    assert_near("no mapping: the first set", unlit(""), [0.0; 3]);
}

fn vertex_colours_multiply_the_linear_base_colour() {
    common::needs_gpu();
    let dir = tempfile::tempdir().unwrap();
    // The same colour at the four corners (indexed by coordIndex).
    let x3d_colour = "<Color color='0.5 0.25 1 0.5 0.25 1 0.5 0.25 1 0.5 0.25 1'/>";
    let tex_coord = format!("{UV}{x3d_colour}");
    let image = square(
        dir.path(),
        "<PhysicalMaterial baseColor='0.8 0.8 0.8' metallic='0' roughness='0.7'/>",
        &tex_coord,
        "",
        Lighting::Standard,
    );
    let base = Vec3::new(0.8 * 0.5, 0.8 * 0.25, 0.8);
    assert_near("Color × baseColor", centre(&image), pixel_of(brdf(Vec3::Z, Vec3::Z, Vec3::Z, base, 0.0, 0.7)));
}

/// The hand-made scene of `tests/data/physical/materials.x3d` (compared with X_ITE in docs/materials.md):
/// it loads with nothing reported as not drawn, and the normal map shows where it should: the
/// normal-mapped box's front face carries the map's vertical ridges (light and dark bands across it),
/// which the same scene without the map does not.
fn the_materials_scene_draws_its_normal_map() {
    let ctx = common::gpu();
    let original = common::test_data("physical/materials.x3d");
    let doc = hanim::load(&original).unwrap_or_else(|e| panic!("{e}"));
    let notes: Vec<_> = doc.warnings.iter().filter(|w| w.message.contains("not drawn")).collect();
    assert!(notes.is_empty(), "{notes:?}");
    // The same scene without the PhysicalMaterial box's normal map, beside copies of its images.
    let dir = tempfile::tempdir().unwrap();
    for image in ["checker_base.png", "metal_rough.png", "ridges_normal.png"] {
        std::fs::copy(common::test_data(&format!("physical/{image}")), dir.path().join(image)).unwrap();
    }
    let text = std::fs::read_to_string(&original).unwrap();
    let mapped_box = "<PhysicalMaterial baseColor='0.7 0.7 0.7' metallic='0' roughness='0.5'>\
<ImageTexture containerField='normalTexture' url='\"ridges_normal.png\"'/></PhysicalMaterial>";
    assert!(text.contains(mapped_box), "the scene's normal-mapped box");
    let plain = text.replace(mapped_box, "<PhysicalMaterial baseColor='0.7 0.7 0.7' metallic='0' roughness='0.5'/>");
    let plain_path = dir.path().join("plain.x3d");
    std::fs::write(&plain_path, plain).unwrap();
    let plain_doc = hanim::load(&plain_path).unwrap_or_else(|e| panic!("{e}"));
    let mut request = SceneRequest::new(400, 400);
    request.view = ViewRequest::Named("Front".into());
    // Luminance along a row across the box's front face (0.6 m wide, centred at x = 0.4, y = 0.9, front
    // at z = 0.3), and how much it varies.
    let spread = |doc: &hanim::Document| {
        let image = headless::render_document(&ctx, doc, &request).unwrap_or_else(|e| panic!("{e:#}"));
        let row: Vec<f32> = (0..=20)
            .map(|k| {
                let p = Vec3::new(0.15 + 0.025 * k as f32, 0.9, 0.3);
                let (x, y) = image.camera.project_to_pixel(p, image.width, image.height).unwrap();
                let c = image.pixel(x as u32, y as u32);
                (f32::from(c[0]) + f32::from(c[1]) + f32::from(c[2])) / 3.0
            })
            .collect();
        let mean = row.iter().sum::<f32>() / row.len() as f32;
        (row.iter().map(|x| (x - mean).powi(2)).sum::<f32>() / row.len() as f32).sqrt()
    };
    let (ridged, smooth) = (spread(&doc), spread(&plain_doc));
    assert!(ridged > 8.0 && smooth < ridged / 3.0, "with the map {ridged}, without {smooth}");
}
