//! Structs whose bytes reach the render pass, mirrored field for field by `shaders/humanoid.wgsl` (and
//! its `Frame` by `shaders/lines.wgsl`). Sizes are asserted at compile time; a naga test compares sizes
//! and member offsets with the WGSL.

use bytemuck::{Pod, Zeroable};
use glam::Affine2;

use crate::mesh::MaterialParams;

/// Per-view uniform (`Frame` in `humanoid.wgsl` and `lines.wgsl`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable, PartialEq)]
pub struct GpuFrame {
    pub clip_from_world: [f32; 16],
    /// xyz: camera position in world space; w unused.
    pub camera_position: [f32; 4],
    /// xyz: unit direction towards the headlight; w: its intensity.
    pub headlight: [f32; 4],
    /// xyz: unit direction towards the key light; w: its intensity.
    pub key_light: [f32; 4],
    /// rgb: ambient light (scaled by each material's ambientIntensity); w unused. Zero in the standard
    /// model, which has no ambient light besides the lights' own ambientIntensity.
    pub ambient: [f32; 4],
    /// x: how many of `lights` are used.
    pub light_count: [u32; 4],
    /// x: 1 = the X3D lighting equations on the file's colour values (the standard model), 0 = lighting in
    /// linear light (the studio look); y: 1 = an RGB texture multiplies the diffuse colour (X3D 4),
    /// 0 = it replaces it (X3D 3, VRML97); z: the skin overlay drawn instead of the materials
    /// ([`crate::pose::skin_inspection::OverlayMode::shader_code`], 0 none); w unused. See
    /// [`crate::gpu::lighting::Lighting`].
    pub model: [u32; 4],
    /// The file's light nodes (DirectionalLight, PointLight, SpotLight), world space.
    pub lights: [GpuLight; MAX_SCENE_LIGHTS],
}
const _: () = assert!(size_of::<GpuFrame>() == 160 + 80 * MAX_SCENE_LIGHTS);

/// How many scene light nodes are drawn (the first ones in the file).
pub const MAX_SCENE_LIGHTS: usize = 8;

/// One scene light (`Light` in the shaders), X3D lighting model (ISO/IEC 19775-1, 17.2.2.4).
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable, PartialEq)]
pub struct GpuLight {
    /// xyz: position (point, spot) or the direction the light travels (directional); w: 0 directional,
    /// 1 point, 2 spot.
    pub position: [f32; 4],
    /// rgb: the colour as the lighting model takes it (the file's sRGB-encoded value, clamped, in the
    /// standard model; linear in the studio look); w: ambientIntensity.
    pub color: [f32; 4],
    /// xyz: unit direction of a spot light; w: intensity (it scales the diffuse and specular terms only:
    /// the ambient term is `ambientIntensity × colour`, 17.2.2.4).
    pub direction: [f32; 4],
    /// xyz: attenuation (constant, linear, quadratic); w: radius.
    pub attenuation: [f32; 4],
    /// x: beamWidth, y: cutOffAngle (radians); zw unused.
    pub cone: [f32; 4],
}
const _: () = assert!(size_of::<GpuLight>() == 80);

impl GpuLight {
    /// The light as the shaders take it; `standard`: its colour for the standard model (see `color`).
    pub fn from_scene(light: &crate::hanim::SceneLight, standard: bool) -> Self {
        use crate::hanim::LightKind;
        let [r, g, b] = if standard { light.color.map(|c| c.clamp(0.0, 1.0)) } else { linear_from_srgb3(light.color) };
        let mut out = GpuLight {
            position: [0.0; 4],
            color: [r, g, b, light.ambient_intensity],
            direction: [0.0, 0.0, 0.0, light.intensity],
            attenuation: [1.0, 0.0, 0.0, f32::MAX],
            cone: [0.0; 4],
        };
        match light.kind {
            LightKind::Directional { direction } => out.position = direction.extend(0.0).to_array(),
            LightKind::Point { location, radius, attenuation } => {
                out.position = location.extend(1.0).to_array();
                out.attenuation = attenuation.extend(radius).to_array();
            }
            LightKind::Spot { location, direction, radius, attenuation, beam_width, cut_off_angle } => {
                out.position = location.extend(2.0).to_array();
                out.direction = direction.extend(light.intensity).to_array();
                out.attenuation = attenuation.extend(radius).to_array();
                out.cone = [beam_width, cut_off_angle, 0.0, 0.0];
            }
        }
        out
    }
}

/// Per-instance placement (`Placement`): `H` and its normal matrix `(H[3×3])⁻ᵀ` as three columns.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable, PartialEq)]
pub struct GpuPlacement {
    pub world_from_humanoid: [f32; 16],
    pub normal_from_humanoid: [[f32; 4]; 3],
    /// The skin overlay's values for a draw whose points carry none (a segment: 100 % its joint's):
    /// x: the selected joint's weight, y: influence count, z: weight sum; w: 1 = use these, 0 = read the
    /// per-point values the skin pass wrote (`overlay_values`).
    pub overlay: [f32; 4],
    /// x: this instance's first entry in the draw's points, y: its first entry in the corner normals
    /// (instance k of a crowd skinned together: `k · points per instance`); zw unused.
    pub first: [u32; 4],
}
const _: () = assert!(size_of::<GpuPlacement>() == 144);

/// Per-part material (`Material`), colours in linear RGB.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable, PartialEq)]
pub struct GpuMaterial {
    /// rgb: diffuse; a: opacity (1 − transparency).
    pub diffuse: [f32; 4],
    /// rgb: specular; w: exponent (128·shininess).
    pub specular: [f32; 4],
    /// rgb: emissive; w: ambientIntensity.
    pub emissive: [f32; 4],
    /// x: lit; y: vertex colours; z: two-sided lighting; w: texture (0 none, 1 its colour replaces the
    /// material's, 2 an intensity texture modulates it).
    pub flags: [u32; 4],
    /// The TextureTransform's first row over (s, t, 1): s' = x·s + y·t + z (w unused).
    pub texture_s: [f32; 4],
    /// Its second row: t' = x·s + y·t + z.
    pub texture_t: [f32; 4],
    /// PhysicalMaterial: x metallic, y roughness; any lit material: z occlusionStrength, w normalScale.
    pub pbr: [f32; 4],
    /// x: 1 = the glTF metallic-roughness BRDF (PhysicalMaterial), 0 = the Phong equations; y: the
    /// material maps bound (`crate::mesh::material_maps` bits); zw unused.
    pub model: [u32; 4],
    /// rgb: the diffuse, specular and emissive colours as the standard model's equations take them: the
    /// file's (sRGB-encoded) values, clamped to [0, 1] (the sRGB encoding of `diffuse`, `specular`,
    /// `emissive`); w unused. Kept beside the linear ones so that the fragment shader encodes no
    /// uniform colour per fragment.
    pub standard_diffuse: [f32; 4],
    pub standard_specular: [f32; 4],
    pub standard_emissive: [f32; 4],
}
const _: () = assert!(size_of::<GpuMaterial>() == 176);

/// Per-corner vertex attributes other than the normal (vertex buffer slot 1): linear RGBA colour, texture
/// coordinate (X3D's: t grows upwards) and the skin point the corner draws.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable, PartialEq)]
pub struct GpuCornerVertex {
    pub color: [f32; 4],
    pub uv: [f32; 2],
    pub source_point: u32,
}
const _: () = assert!(size_of::<GpuCornerVertex>() == 28);

/// [`GpuMaterial`] texture modes.
pub const TEXTURE_NONE: u32 = 0;
pub const TEXTURE_REPLACE: u32 = 1;
pub const TEXTURE_MODULATE: u32 = 2;

/// One sRGB-encoded channel value (as X3D files write colours) to linear light.
pub fn linear_from_srgb(c: f32) -> f32 {
    let c = c.clamp(0.0, 1.0);
    if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
}

/// An sRGB colour to linear, per channel.
pub fn linear_from_srgb3(c: [f32; 3]) -> [f32; 3] {
    c.map(linear_from_srgb)
}

/// One linear channel value to its sRGB encoding (the inverse of [`linear_from_srgb`]), clamped to [0, 1].
pub fn srgb_from_linear(c: f32) -> f32 {
    let c = c.clamp(0.0, 1.0);
    if c <= 0.003_130_8 { c * 12.92 } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 }
}

/// A colour as the standard model's equations take it: the file's sRGB-encoded value, clamped to [0, 1]
/// (`linear` says whether `c` is linear, as PhysicalMaterial's colours are, and is encoded first).
fn standard_color(c: [f32; 3], linear: bool) -> [f32; 4] {
    let [r, g, b] = if linear { c.map(srgb_from_linear) } else { c.map(|x| x.clamp(0.0, 1.0)) };
    [r, g, b, 0.0]
}

impl GpuMaterial {
    pub fn from_params(
        m: &MaterialParams,
        texture_transform: Affine2,
        vertex_colors: bool,
        two_sided: bool,
        texture_mode: u32,
        maps: u32,
    ) -> Self {
        let (x, y, t) =
            (texture_transform.matrix2.x_axis, texture_transform.matrix2.y_axis, texture_transform.translation);
        // PhysicalMaterial colours are linear already, as glTF 2.0's factors are (3.9.2) and as glTF
        // converters write them (docs/materials.md); the Phong materials' are sRGB values.
        let linear = |c: [f32; 3]| if m.physical { c } else { linear_from_srgb3(c) };
        let [dr, dg, db] = linear(m.diffuse);
        let [sr, sg, sb] = linear(m.specular);
        let [er, eg, eb] = linear(m.emissive);
        Self {
            diffuse: [dr, dg, db, 1.0 - m.transparency.clamp(0.0, 1.0)],
            specular: [sr, sg, sb, 128.0 * m.shininess.clamp(0.0, 1.0)],
            emissive: [er, eg, eb, m.ambient_intensity],
            flags: [u32::from(m.lit), u32::from(vertex_colors), u32::from(two_sided), texture_mode],
            texture_s: [x.x, y.x, t.x, 0.0],
            texture_t: [x.y, y.y, t.y, 0.0],
            pbr: [m.metallic, m.roughness, m.occlusion_strength, m.normal_scale],
            model: [u32::from(m.physical), maps, 0, 0],
            standard_diffuse: standard_color(m.diffuse, m.physical),
            standard_specular: standard_color(m.specular, m.physical),
            standard_emissive: standard_color(m.emissive, m.physical),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::mem::offset_of;

    use super::*;
    use crate::gpu::shaders;

    fn validate(name: &str, source: &str) -> naga::Module {
        let module =
            naga::front::wgsl::parse_str(source).unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(source)));
        naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
            .validate(&module)
            .unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(source)));
        module
    }

    fn layout_of(module: &naga::Module, name: &str) -> (u32, Vec<(String, u32)>) {
        let mut layouter = naga::proc::Layouter::default();
        layouter.update(module.to_ctx()).unwrap();
        for (_, ty) in module.types.iter() {
            if ty.name.as_deref() == Some(name)
                && let naga::TypeInner::Struct { members, span } = &ty.inner
            {
                return (*span, members.iter().map(|m| (m.name.clone().unwrap_or_default(), m.offset)).collect());
            }
        }
        panic!("struct {name} not found");
    }

    /// The vertex shader's `PlacementIn` (instance attributes) and `placement_attributes` agree: one
    /// attribute per member at its location, together covering every byte of [`GpuPlacement`] once.
    fn check_placement_attributes(module: &naga::Module) {
        let attributes = crate::gpu::render_pass::pipelines::placement_attributes();
        let members = module
            .types
            .iter()
            .find_map(|(_, ty)| match &ty.inner {
                naga::TypeInner::Struct { members, .. } if ty.name.as_deref() == Some("PlacementIn") => Some(members),
                _ => None,
            })
            .expect("struct PlacementIn");
        assert_eq!(members.len(), attributes.len());
        for (member, attribute) in members.iter().zip(&attributes) {
            let location = match member.binding {
                Some(naga::Binding::Location { location, .. }) => Some(location),
                _ => None,
            };
            assert_eq!(location, Some(attribute.shader_location), "{:?}", member.name);
        }
        let mut covered = 0;
        for a in &attributes {
            assert_eq!(a.offset, covered, "attributes cover GpuPlacement in order, without gaps");
            covered += a.format.size();
        }
        assert_eq!(covered, size_of::<GpuPlacement>() as u64);
    }

    fn check(module: &naga::Module, name: &str, size: usize, offsets: &[(&str, usize)]) {
        let (wgsl_size, members) = layout_of(module, name);
        assert_eq!(wgsl_size as usize, size, "{name} size");
        let members: Vec<(&str, usize)> = members.iter().map(|(n, o)| (n.as_str(), *o as usize)).collect();
        assert_eq!(members, offsets, "{name} members");
    }

    #[test]
    fn render_structs_match_the_wgsl_layout() {
        let frame_offsets = [
            ("clip_from_world", offset_of!(GpuFrame, clip_from_world)),
            ("camera_position", offset_of!(GpuFrame, camera_position)),
            ("headlight", offset_of!(GpuFrame, headlight)),
            ("key_light", offset_of!(GpuFrame, key_light)),
            ("ambient", offset_of!(GpuFrame, ambient)),
            ("light_count", offset_of!(GpuFrame, light_count)),
            ("model", offset_of!(GpuFrame, model)),
            ("lights", offset_of!(GpuFrame, lights)),
        ];
        let humanoid = validate("humanoid.wgsl", shaders::HUMANOID);
        check(&humanoid, "Frame", size_of::<GpuFrame>(), &frame_offsets);
        check_placement_attributes(&humanoid);
        check(
            &humanoid,
            "Light",
            size_of::<GpuLight>(),
            &[
                ("position", offset_of!(GpuLight, position)),
                ("color", offset_of!(GpuLight, color)),
                ("direction", offset_of!(GpuLight, direction)),
                ("attenuation", offset_of!(GpuLight, attenuation)),
                ("cone", offset_of!(GpuLight, cone)),
            ],
        );
        check(
            &humanoid,
            "Material",
            size_of::<GpuMaterial>(),
            &[
                ("diffuse", offset_of!(GpuMaterial, diffuse)),
                ("specular", offset_of!(GpuMaterial, specular)),
                ("emissive", offset_of!(GpuMaterial, emissive)),
                ("flags", offset_of!(GpuMaterial, flags)),
                ("texture_s", offset_of!(GpuMaterial, texture_s)),
                ("texture_t", offset_of!(GpuMaterial, texture_t)),
                ("pbr", offset_of!(GpuMaterial, pbr)),
                ("model", offset_of!(GpuMaterial, model)),
                ("standard_diffuse", offset_of!(GpuMaterial, standard_diffuse)),
                ("standard_specular", offset_of!(GpuMaterial, standard_specular)),
                ("standard_emissive", offset_of!(GpuMaterial, standard_emissive)),
            ],
        );
        let lines = validate("lines.wgsl", shaders::LINES);
        check(&lines, "Frame", size_of::<GpuFrame>(), &frame_offsets);
    }

    #[test]
    fn the_standard_colours_are_the_encodings_of_the_linear_ones() {
        for physical in [false, true] {
            let params = MaterialParams {
                diffuse: [0.8, 0.02, 1.4],
                specular: [0.0, 0.5, 0.003],
                emissive: [0.2, -0.1, 1.0],
                physical,
                ..MaterialParams::default()
            };
            let m = GpuMaterial::from_params(&params, Affine2::IDENTITY, false, false, TEXTURE_NONE, 0);
            for (linear, standard) in
                [(m.diffuse, m.standard_diffuse), (m.specular, m.standard_specular), (m.emissive, m.standard_emissive)]
            {
                for c in 0..3 {
                    let encoded = srgb_from_linear(linear[c]);
                    assert!((encoded - standard[c]).abs() < 1e-5, "physical {physical}: {linear:?} vs {standard:?}");
                }
            }
            if !physical {
                assert_eq!(&m.standard_diffuse[..3], &[0.8, 0.02, 1.0], "the file's values, clamped");
            }
        }
    }

    #[test]
    fn the_texture_rows_map_coordinates_as_the_transform_does() {
        let t = Affine2::from_scale_angle_translation(glam::Vec2::new(2.0, 0.5), 0.7, glam::Vec2::new(0.25, -1.0));
        let m = GpuMaterial::from_params(&MaterialParams::default(), t, false, false, TEXTURE_REPLACE, 0);
        for st in [glam::Vec2::ZERO, glam::Vec2::new(0.5, 0.25), glam::Vec2::new(-1.0, 3.0)] {
            let row = |r: [f32; 4]| r[0] * st.x + r[1] * st.y + r[2];
            let want = t.transform_point2(st);
            assert!((row(m.texture_s) - want.x).abs() < 1e-6 && (row(m.texture_t) - want.y).abs() < 1e-6);
        }
    }

    #[test]
    fn srgb_to_linear_matches_the_standard_curve() {
        assert_eq!(linear_from_srgb(0.0), 0.0);
        assert!((linear_from_srgb(1.0) - 1.0).abs() < 1e-6);
        assert!((linear_from_srgb(0.5) - 0.214_041).abs() < 1e-5);
    }
}
