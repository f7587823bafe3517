//! The X3D 4.0 material texture maps beyond the base colour (ISO/IEC 19775-1 4.0, 12.4.2 Material,
//! 12.4.3 PhysicalMaterial, 12.4.5 UnlitMaterial; 17.2.2.4 and 17.2.2.5 give how they enter lighting):
//! the metallic-roughness map, the normal map, the occlusion map and the emissive map, and which texture
//! coordinates they read (the `…TextureMapping` fields name a `mapping` of the geometry's `texCoord`).
//!
//! Reading settled here (written down in `docs/materials.md`): a geometry carries one set of texture
//! coordinates on the GPU. The set is the one the base colour map's mapping names (or, without a base
//! map, the first map's); a map whose mapping names another set is drawn with that set too, and
//! reported.

use super::appearance::TextureRef;
use crate::x3d::{NodeId, Scene, X3dError};

/// The maps a material asks for, besides its base colour map ([`super::ShapeAppearance::texture`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MaterialMaps {
    /// PhysicalMaterial `metallicRoughnessTexture`: roughness in G, metalness in B (linear values).
    pub metallic_roughness: Option<TextureRef>,
    /// `normalTexture` (Material and PhysicalMaterial): a tangent-space normal map, linear values.
    pub normal: Option<TextureRef>,
    /// `occlusionTexture`: ambient occlusion in R (linear); it darkens ambient light only.
    pub occlusion: Option<TextureRef>,
    /// `emissiveTexture` (Material and PhysicalMaterial): multiplies the emissive colour (sRGB texels).
    pub emissive: Option<TextureRef>,
    /// The `mapping` name of the texture coordinates the maps read ("" = the geometry's first set).
    pub mapping: String,
}

/// Bits of [`MaterialMaps::bits`], as the shader tests them.
pub const MAP_METALLIC_ROUGHNESS: u32 = 1;
pub const MAP_NORMAL: u32 = 2;
pub const MAP_OCCLUSION: u32 = 4;
pub const MAP_EMISSIVE: u32 = 8;

impl MaterialMaps {
    /// Which maps are present, as [`MAP_NORMAL`] etc. (a map whose image cannot be loaded is dropped by
    /// the caller before this is asked).
    pub fn bits(&self) -> u32 {
        [
            (&self.metallic_roughness, MAP_METALLIC_ROUGHNESS),
            (&self.normal, MAP_NORMAL),
            (&self.occlusion, MAP_OCCLUSION),
            (&self.emissive, MAP_EMISSIVE),
        ]
        .into_iter()
        .filter(|(map, _)| map.is_some())
        .fold(0, |bits, (_, bit)| bits | bit)
    }

    /// The maps present, with their bit.
    pub fn present(&self) -> impl Iterator<Item = (u32, &TextureRef)> {
        [
            (MAP_METALLIC_ROUGHNESS, &self.metallic_roughness),
            (MAP_NORMAL, &self.normal),
            (MAP_OCCLUSION, &self.occlusion),
            (MAP_EMISSIVE, &self.emissive),
        ]
        .into_iter()
        .filter_map(|(bit, map)| map.as_ref().map(|m| (bit, m)))
    }
}

/// Which field of `material_type` holds which map. The base colour map is the caller's; the others not
/// listed here (Material `ambientTexture`, `specularTexture`, `shininessTexture`) are reported as not
/// drawn.
fn map_field(material_type: &str, field: &str) -> Option<u32> {
    match (material_type, field) {
        ("PhysicalMaterial", "metallicRoughnessTexture") => Some(MAP_METALLIC_ROUGHNESS),
        ("PhysicalMaterial" | "Material" | "TwoSidedMaterial", "normalTexture") => Some(MAP_NORMAL),
        ("PhysicalMaterial" | "Material" | "TwoSidedMaterial", "occlusionTexture") => Some(MAP_OCCLUSION),
        ("PhysicalMaterial" | "Material" | "TwoSidedMaterial", "emissiveTexture") => Some(MAP_EMISSIVE),
        _ => None,
    }
}

/// Reads the maps of `material` (any X3D material node). `base_map` is the field of its base colour
/// map (read by the caller) and `texture_ref` reads an ImageTexture. Maps that are not drawn go to
/// `unsupported`, one line each.
pub fn read_maps(
    scene: &Scene,
    material: NodeId,
    base_map: &str,
    texture_ref: &mut dyn FnMut(NodeId) -> Result<TextureRef, X3dError>,
    unsupported: &mut Vec<String>,
) -> Result<MaterialMaps, X3dError> {
    let node = scene.node(material);
    let material_type = node.type_name.as_str();
    let mut maps = MaterialMaps::default();
    // Mapping names of the maps that are drawn, base map first.
    let mut mappings: Vec<(String, String)> = Vec::new();
    let mapping_of = |field: &str| scene.string(material, &format!("{field}Mapping")).unwrap_or("").trim().to_string();
    for child in &node.children {
        let field = child.field.as_str();
        if !field.ends_with("Texture") {
            continue;
        }
        let texture_type = scene.node(child.node).type_name.as_str();
        if field == base_map {
            if texture_type == "ImageTexture" {
                mappings.insert(0, (field.to_string(), mapping_of(field)));
            }
            continue;
        }
        let slot = match (map_field(material_type, field), texture_type) {
            (Some(bit), "ImageTexture") => bit,
            _ => {
                unsupported.push(format!("{} ({field}) is not drawn", scene.describe(child.node)));
                continue;
            }
        };
        let texture = texture_ref(child.node)?;
        match slot {
            MAP_METALLIC_ROUGHNESS => maps.metallic_roughness = Some(texture),
            MAP_NORMAL => maps.normal = Some(texture),
            MAP_OCCLUSION => maps.occlusion = Some(texture),
            _ => maps.emissive = Some(texture),
        }
        mappings.push((field.to_string(), mapping_of(field)));
    }
    // An empty mapping reads the default coordinates, which any named set can be (X3D 4.0 12.2.4):
    // only two different names conflict.
    if let Some((_, first)) = mappings.iter().find(|(_, m)| !m.is_empty()) {
        maps.mapping = first.clone();
        for (field, mapping) in mappings.iter().filter(|(_, m)| !m.is_empty() && m != first) {
            unsupported.push(format!(
                "{} {field}Mapping '{mapping}' is drawn with the texture coordinates '{first}' (one set per geometry)",
                scene.describe(material)
            ));
        }
    }
    Ok(maps)
}

/// The TextureCoordinate node of `geometry`'s `texCoord` that `mapping` names: a TextureCoordinate whose
/// `mapping` field equals it, inside a MultiTextureCoordinate or alone; with an empty name (or none that
/// matches), the first TextureCoordinate (X3D 4.0 12.2.4: an absent mapping uses the default
/// coordinates).
pub fn tex_coord_node(scene: &Scene, geometry: NodeId, mapping: &str) -> Option<NodeId> {
    let tex = scene.node(geometry).children_in("texCoord").next()?;
    let candidates: Vec<NodeId> = match scene.node(tex).type_name.as_str() {
        "TextureCoordinate" => vec![tex],
        "MultiTextureCoordinate" => scene
            .node(tex)
            .children_in("texCoord")
            .filter(|&c| scene.node(c).type_name == "TextureCoordinate")
            .collect(),
        _ => Vec::new(),
    };
    let named = |&c: &NodeId| !mapping.is_empty() && scene.string(c, "mapping").is_some_and(|m| m.trim() == mapping);
    candidates.iter().copied().find(named).or_else(|| candidates.first().copied())
}
