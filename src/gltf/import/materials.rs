//! glTF materials as X3D Appearances: PhysicalMaterial with the glTF values as they are (both are the
//! glTF 2.0 metallic-roughness model, linear colours), UnlitMaterial for `KHR_materials_unlit`; where
//! this program's export wrote the material from an X3D Material or an unlit appearance (`extras`), the
//! export's rule read backwards. Images are embedded as base64 `data:` urls, or keep their relative url.
//! A texture's `KHR_texture_transform` becomes the Appearance's TextureTransform ([`super::uv_map`]).

use std::collections::HashMap;

use base64::Engine as _;

use super::Source;
use super::tree::{Build, Defs, el, floats, mfstring, num};
use super::uv_map::UvMap;
use crate::gltf::linear_to_srgb;
use crate::x3d::syntax::Element;

/// Appearances already written, by material index: their DEF. Each is defined once, in a hidden Switch
/// at the top of the scene ([`Appearances::library`]), so that every Shape can USE it whatever its place
/// in document order.
#[derive(Debug, Default)]
pub(super) struct Appearances {
    written: HashMap<Option<usize>, String>,
    defined: Vec<Element>,
}

impl Appearances {
    /// `<Switch whichChoice='-1'>` holding a Shape per Appearance: shown nowhere, defined first.
    pub fn library(self) -> Option<Element> {
        if self.defined.is_empty() {
            return None;
        }
        let mut switch = el("Switch").attr("whichChoice", "-1");
        for appearance in self.defined {
            switch.push(el("Shape").child(appearance));
        }
        Some(switch)
    }
}

fn srgb3(c: [f32; 3]) -> String {
    floats(c.map(|v| linear_to_srgb(v.clamp(0.0, 1.0))))
}

fn image_texture(source: &Source, texture: gltf::Texture, field: &str) -> Element {
    let url = match texture.source().source() {
        gltf::image::Source::View { view, mime_type } => match source.view_bytes(&view) {
            Some(bytes) => {
                format!("data:{mime_type};base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes))
            }
            None => String::new(),
        },
        gltf::image::Source::Uri { uri, .. } => uri.to_string(),
    };
    let sampler = texture.sampler();
    let repeat = |w: gltf::texture::WrappingMode| w != gltf::texture::WrappingMode::ClampToEdge;
    let mut e = el("ImageTexture").attr("containerField", field).attr("url", mfstring([url.as_str()]));
    if !repeat(sampler.wrap_s()) {
        e = e.attr("repeatS", "false");
    }
    if !repeat(sampler.wrap_t()) {
        e = e.attr("repeatT", "false");
    }
    e
}

/// A USE of the Appearance of glTF material `index` (`None`: the glTF default material), defined in the
/// library the first time.
pub(super) fn appearance(source: &Source, defs: &mut Defs, cache: &mut Appearances, index: Option<usize>) -> Element {
    if !cache.written.contains_key(&index) {
        let defined = define(source, defs, cache, index);
        cache.defined.push(defined);
    }
    el("Appearance").attr("USE", cache.written[&index].clone())
}

fn define(source: &Source, defs: &mut Defs, cache: &mut Appearances, index: Option<usize>) -> Element {
    let mut appearance = define_material(source, defs, cache, index);
    if let Some(fields) = uv_map(source, index).and_then(|m| m.texture_transform()) {
        appearance.push(
            el("TextureTransform")
                .attr("translation", floats(fields.translation.to_array()))
                .attr("rotation", num(fields.rotation))
                .attr("scale", floats(fields.scale.to_array())),
        );
    }
    appearance
}

/// The `KHR_texture_transform` of material `index`: its base colour texture's (the one X3D's single
/// TextureTransform can stand for; other maps whose transform differs are reported).
pub(super) fn uv_map(source: &Source, index: Option<usize>) -> Option<UvMap> {
    let material = source.gltf.materials().nth(index?)?;
    let pbr = material.pbr_metallic_roughness();
    let base = pbr.base_color_texture().and_then(|t| UvMap::of(&t));
    let others = [pbr.metallic_roughness_texture(), material.emissive_texture()];
    if others.iter().flatten().any(|t| UvMap::of(t) != base) {
        source.warn(format!(
            "material {}: its textures have different texture transforms; the base colour texture's is used",
            material.name().unwrap_or("(unnamed)")
        ));
    }
    base
}

fn define_material(source: &Source, defs: &mut Defs, cache: &mut Appearances, index: Option<usize>) -> Element {
    let material = match index {
        Some(i) => source.gltf.materials().nth(i),
        None => None,
    };
    let def = defs.make(&format!("{}_appearance", material.as_ref().and_then(|m| m.name()).unwrap_or("material")));
    cache.written.insert(index, def.clone());
    let mut appearance = el("Appearance").attr("DEF", def);
    let Some(material) = material else {
        // glTF's default material: white, metallic 1, roughness 1 (glTF 2.0 3.9.6) — X3D's own defaults.
        return appearance.child(el("PhysicalMaterial"));
    };
    let pbr = material.pbr_metallic_roughness();
    let [r, g, b, a] = pbr.base_color_factor();
    let from = material
        .extras()
        .as_ref()
        .and_then(|raw| serde_json::from_str::<serde_json::Value>(raw.get()).ok())
        .and_then(|v| v.pointer("/hanim/from").and_then(|f| f.as_str()).map(String::from));
    match material.alpha_mode() {
        gltf::material::AlphaMode::Blend => appearance = appearance.attr("alphaMode", "BLEND"),
        gltf::material::AlphaMode::Mask => {
            appearance =
                appearance.attr("alphaMode", "MASK").attr("alphaCutoff", num(material.alpha_cutoff().unwrap_or(0.5)))
        }
        gltf::material::AlphaMode::Opaque => {}
    }
    let transparency = num(1.0 - a.clamp(0.0, 1.0));
    let base_texture = pbr.base_color_texture().map(|t| t.texture());
    if material.unlit() || from.as_deref() == Some("unlit") {
        let mut m = el("UnlitMaterial").attr("emissiveColor", srgb3([r, g, b])).attr("transparency", transparency);
        if let Some(t) = base_texture {
            m = m.child(image_texture(source, t, "emissiveTexture"));
        }
        return appearance.child(m);
    }
    let emissive = material.emissive_factor();
    if from.as_deref() == Some("Material") {
        // This program's export: diffuse and emissive were sRGB, roughness = 1 − shininess.
        let mut m = el("Material")
            .attr("diffuseColor", srgb3([r, g, b]))
            .attr("emissiveColor", srgb3(emissive))
            .attr("shininess", num((1.0 - pbr.roughness_factor()).clamp(0.0, 1.0)))
            .attr("specularColor", "0 0 0")
            .attr("transparency", transparency);
        if let Some(t) = material.normal_texture() {
            m = m.attr("normalScale", num(t.scale())).child(image_texture(source, t.texture(), "normalTexture"));
        }
        appearance = appearance.child(m);
        if let Some(t) = base_texture {
            appearance = appearance.child(image_texture(source, t, "texture"));
        }
        return appearance;
    }
    let mut m = el("PhysicalMaterial")
        .attr("baseColor", floats([r, g, b]))
        .attr("metallic", num(pbr.metallic_factor()))
        .attr("roughness", num(pbr.roughness_factor()))
        .attr("emissiveColor", floats(emissive))
        .attr("transparency", transparency);
    if let Some(t) = base_texture {
        m = m.child(image_texture(source, t, "baseTexture"));
    }
    if let Some(t) = pbr.metallic_roughness_texture() {
        m = m.child(image_texture(source, t.texture(), "metallicRoughnessTexture"));
    }
    if let Some(t) = material.normal_texture() {
        m = m.attr("normalScale", num(t.scale())).child(image_texture(source, t.texture(), "normalTexture"));
    }
    if let Some(t) = material.occlusion_texture() {
        m = m.attr("occlusionStrength", num(t.strength())).child(image_texture(
            source,
            t.texture(),
            "occlusionTexture",
        ));
    }
    if let Some(t) = material.emissive_texture() {
        m = m.child(image_texture(source, t.texture(), "emissiveTexture"));
    }
    if [material.normal_texture().map(|t| t.tex_coord()), pbr.base_color_texture().map(|t| t.tex_coord())]
        .into_iter()
        .flatten()
        .any(|set| set > 0)
    {
        source.warn("a material reads a second texture coordinate set; the first is used");
    }
    appearance.child(m)
}
