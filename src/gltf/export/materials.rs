//! X3D appearances as glTF PBR materials, by the rule `docs/gltf.md` states:
//! - PhysicalMaterial: as it is (its colours are linear already, `docs/materials.md`);
//! - Material (Phong): base colour = diffuseColor and emissive = emissiveColor converted from sRGB to
//!   linear, alpha = 1 − transparency, metallic 0, roughness = 1 − shininess;
//! - no Material or UnlitMaterial: `KHR_materials_unlit` with the emissive colour (white by default) as
//!   base colour;
//! - transparency > 0: alpha mode BLEND; `solid FALSE` or TwoSidedMaterial: double-sided;
//! - ImageTextures embedded (PNG and JPEG as they are, other images re-encoded as PNG).

use std::io::Cursor;

use serde_json::json;

use super::Writer;
use crate::gltf::json::{
    Image, Material, NormalTextureInfo, OcclusionTextureInfo, PbrMetallicRoughness, Sampler, Texture, TextureInfo,
};
use crate::gltf::srgb_to_linear;
use crate::input::{InputKind, read};
use crate::mesh::texture_image::data_url_bytes;
use crate::mesh::texture_sampling::{Filter, Wrap};
use crate::mesh::{RenderMesh, TextureRef, Topology};

fn linear3(c: [f32; 3]) -> [f32; 3] {
    c.map(|v| srgb_to_linear(v.clamp(0.0, 1.0)))
}

/// The material of `mesh`, written once per distinct material.
pub(super) fn material_for(w: &mut Writer, mesh: &RenderMesh) -> Option<u32> {
    let m = &mesh.material;
    let alpha = (1.0 - m.transparency).clamp(0.0, 1.0);
    let unlit = !m.lit || mesh.topology != Topology::Triangles;
    let mut material = Material { double_sided: mesh.two_sided, ..Material::default() };
    let rule;
    if unlit {
        // X3D draws the emissive colour (or the vertex colours) without light.
        let base = if m.physical { m.emissive } else { linear3(m.emissive) };
        material.pbr_metallic_roughness = PbrMetallicRoughness {
            base_color_factor: [base[0], base[1], base[2], alpha],
            metallic_factor: 0.0,
            roughness_factor: 1.0,
            ..PbrMetallicRoughness::default()
        };
        material.extensions = Some(json!({ "KHR_materials_unlit": {} }));
        if !w.root.extensions_used.iter().any(|e| e == "KHR_materials_unlit") {
            w.root.extensions_used.push("KHR_materials_unlit".into());
        }
        rule = "unlit";
    } else if m.physical {
        material.pbr_metallic_roughness = PbrMetallicRoughness {
            base_color_factor: [m.diffuse[0], m.diffuse[1], m.diffuse[2], alpha],
            metallic_factor: m.metallic.clamp(0.0, 1.0),
            roughness_factor: m.roughness.clamp(0.0, 1.0),
            ..PbrMetallicRoughness::default()
        };
        if m.emissive != [0.0; 3] {
            material.emissive_factor = Some(m.emissive.map(|v| v.clamp(0.0, 1.0)));
        }
        rule = "PhysicalMaterial";
    } else {
        let base = linear3(m.diffuse);
        material.pbr_metallic_roughness = PbrMetallicRoughness {
            base_color_factor: [base[0], base[1], base[2], alpha],
            metallic_factor: 0.0,
            roughness_factor: (1.0 - m.shininess).clamp(0.0, 1.0),
            ..PbrMetallicRoughness::default()
        };
        if m.emissive != [0.0; 3] {
            material.emissive_factor = Some(linear3(m.emissive));
        }
        rule = "Material";
    }
    if alpha < 1.0 {
        material.alpha_mode = Some("BLEND");
    }
    if let Some(texture) = &mesh.texture {
        material.pbr_metallic_roughness.base_color_texture = texture_for(w, texture).map(|index| TextureInfo { index });
    }
    if !unlit {
        if let Some(t) = &mesh.maps.metallic_roughness {
            material.pbr_metallic_roughness.metallic_roughness_texture =
                texture_for(w, t).map(|index| TextureInfo { index });
        }
        if let Some(t) = &mesh.maps.normal {
            material.normal_texture = texture_for(w, t).map(|index| NormalTextureInfo { index, scale: m.normal_scale });
        }
        if let Some(t) = &mesh.maps.occlusion {
            material.occlusion_texture =
                texture_for(w, t).map(|index| OcclusionTextureInfo { index, strength: m.occlusion_strength });
        }
        if let Some(t) = &mesh.maps.emissive {
            material.emissive_texture = texture_for(w, t).map(|index| TextureInfo { index });
            if material.emissive_factor.is_none() {
                material.emissive_factor = Some([1.0; 3]);
            }
        }
    }
    material.extras = Some(json!({ "hanim": { "from": rule } }));
    let key = serde_json::to_string(&material).unwrap_or_default();
    if let Some(&index) = w.material_index.get(&key) {
        return Some(index);
    }
    w.root.materials.push(material);
    let index = w.root.materials.len() as u32 - 1;
    w.material_index.insert(key, index);
    Some(index)
}

/// The image of `texture` embedded in the buffer, with its sampler; `None` (with a note) when no file of
/// its url list can be read as an image.
fn texture_for(w: &mut Writer, texture: &TextureRef) -> Option<u32> {
    if let Some(&known) = w.texture_index.get(&(texture.node, true)) {
        return known;
    }
    let image = load_image(texture);
    let index = match image {
        Some((bytes, mime, name)) => {
            let view = w.buffer.view(&bytes, None);
            w.root.images.push(Image { name: Some(name), buffer_view: Some(view), mime_type: Some(mime), uri: None });
            w.root.samplers.push(sampler_of(texture));
            w.root
                .textures
                .push(Texture { sampler: w.root.samplers.len() as u32 - 1, source: w.root.images.len() as u32 - 1 });
            Some(w.root.textures.len() as u32 - 1)
        }
        None => {
            w.note(format!("texture {:?} could not be read; left out", texture.urls));
            None
        }
    };
    w.texture_index.insert((texture.node, true), index);
    index
}

fn load_image(texture: &TextureRef) -> Option<(Vec<u8>, &'static str, String)> {
    let embedded =
        texture.urls.iter().filter_map(|url| data_url_bytes(url)).map(|bytes| (bytes, "embedded".to_string()));
    let files = texture.local_candidates().into_iter().filter_map(|path| {
        let bytes = read(&path, InputKind::Reference).ok()?;
        Some((bytes, path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned())))
    });
    for (bytes, name) in embedded.chain(files) {
        if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            return Some((bytes, "image/png", name));
        }
        if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            return Some((bytes, "image/jpeg", name));
        }
        // GIF and the rest: glTF images are PNG or JPEG (glTF 2.0 3.8.2).
        let Ok(decoded) = image::load_from_memory(&bytes) else { continue };
        let mut png = Vec::new();
        if decoded.write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png).is_ok() {
            return Some((png, "image/png", name));
        }
    }
    None
}

fn sampler_of(texture: &TextureRef) -> Sampler {
    let wrap = |w: Wrap| match w {
        Wrap::Repeat => 10497,
        Wrap::Clamp => 33071,
        Wrap::Mirror => 33648,
    };
    let s = &texture.sampling;
    let mag_filter = if s.magnify == Filter::Nearest { 9728 } else { 9729 };
    let min_filter = match (s.minify, s.mipmaps) {
        (Filter::Nearest, None) => 9728,
        (Filter::Linear, None) => 9729,
        (Filter::Nearest, Some(Filter::Nearest)) => 9984,
        (Filter::Linear, Some(Filter::Nearest)) => 9985,
        (Filter::Nearest, Some(Filter::Linear)) => 9986,
        (Filter::Linear, Some(Filter::Linear)) => 9987,
    };
    Sampler { mag_filter, min_filter, wrap_s: wrap(s.wrap[0]), wrap_t: wrap(s.wrap[1]) }
}
