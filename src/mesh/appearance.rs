//! A Shape's Appearance as the renderer uses it: the X3D Material lighting parameters, whether the
//! shape is lit at all, its ImageTexture (where to find the image; loading it is the GPU side's job) and
//! TextureTransform, and what is not supported (other texture nodes, shaders).

use std::path::PathBuf;

use glam::{Affine2, Vec2};

use super::material_maps::{MaterialMaps, read_maps, tex_coord_node};
use super::texture_sampling::TextureSampling;
use crate::x3d::{NodeId, Scene, X3dError, fields};

/// An ImageTexture: its `url` list (tried in order) and the folder relative URLs are resolved against
/// (the folder of the file the node was written in).
#[derive(Debug, Clone, PartialEq)]
pub struct TextureRef {
    /// The ImageTexture node (shared through USE: one image per node).
    pub node: NodeId,
    pub urls: Vec<String>,
    pub base: PathBuf,
    /// Wrapping, filters and mipmaps (TextureProperties, or repeatS/repeatT).
    pub sampling: TextureSampling,
}

impl TextureRef {
    /// Local files to try, in the url list's order: relative paths joined to [`Self::base`], `file:`
    /// URLs as paths. Remote URLs (`http:`, `https:`, any other scheme) are never fetched and are left
    /// out.
    pub fn local_candidates(&self) -> Vec<PathBuf> {
        self.urls
            .iter()
            .filter(|url| !url.trim().is_empty())
            .filter_map(|url| crate::x3d::reference::local_target(&self.base, url).ok().map(|(path, _)| path))
            .collect()
    }
}

/// The lighting parameters of a shape (X3D Material, colours as written in the file).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MaterialParams {
    pub diffuse: [f32; 3],
    pub specular: [f32; 3],
    pub emissive: [f32; 3],
    /// X3D shininess in [0, 1]; the specular exponent is `128·shininess`.
    pub shininess: f32,
    pub transparency: f32,
    pub ambient_intensity: f32,
    /// False for an Appearance without a Material (or a Shape without Appearance, or an UnlitMaterial):
    /// X3D then draws the emissive colour (white by default) or the vertex colours, with no lighting.
    pub lit: bool,
    /// PhysicalMaterial: lit by the glTF 2.0 metallic-roughness BRDF (X3D 4.0 17.2.2.5) in linear light,
    /// [`Self::diffuse`] holding `baseColor`; `specular`, `shininess` and `ambient_intensity` unused.
    pub physical: bool,
    /// PhysicalMaterial `metallic` and `roughness`, in [0, 1].
    pub metallic: f32,
    pub roughness: f32,
    /// `normalScale` (Material and PhysicalMaterial): scales the normal map's X and Y.
    pub normal_scale: f32,
    /// `occlusionStrength`: how much the occlusion map darkens ambient light, in [0, 1].
    pub occlusion_strength: f32,
}

impl Default for MaterialParams {
    /// The X3D Material node's defaults.
    fn default() -> Self {
        Self {
            diffuse: [0.8, 0.8, 0.8],
            specular: [0.0; 3],
            emissive: [0.0; 3],
            shininess: 0.2,
            transparency: 0.0,
            ambient_intensity: 0.2,
            lit: true,
            physical: false,
            metallic: 1.0,
            roughness: 1.0,
            normal_scale: 1.0,
            occlusion_strength: 1.0,
        }
    }
}

impl MaterialParams {
    /// What X3D draws without a material: unlit white.
    pub fn unlit_white() -> Self {
        Self { emissive: [1.0; 3], lit: false, ..Self::default() }
    }
}

/// What the Appearance of a Shape asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct ShapeAppearance {
    pub material: MaterialParams,
    /// TwoSidedMaterial asks for lighting on both sides.
    pub two_sided_material: bool,
    pub texture: Option<TextureRef>,
    /// The material's other texture maps (normal, metallic-roughness, occlusion, emissive).
    pub maps: MaterialMaps,
    /// The TextureTransform, applied to texture coordinates (identity without one).
    pub texture_transform: Affine2,
    /// Appearance features that are not drawn or only approximated, one log line each.
    pub unsupported: Vec<String>,
}

fn color_or(scene: &Scene, id: NodeId, name: &str, default: [f32; 3]) -> Result<[f32; 3], X3dError> {
    scene.sf_color(id, name, default)
}

/// Reads the Appearance of `shape`.
pub fn appearance_of(scene: &Scene, shape: NodeId) -> Result<ShapeAppearance, X3dError> {
    let mut out = ShapeAppearance {
        material: MaterialParams::unlit_white(),
        two_sided_material: false,
        texture: None,
        maps: MaterialMaps::default(),
        texture_transform: Affine2::IDENTITY,
        unsupported: Vec::new(),
    };
    let Some(appearance) = scene.node(shape).children_in("appearance").next() else { return Ok(out) };
    let node = scene.node(appearance);
    for child in &node.children {
        match (child.field.as_str(), scene.node(child.node).type_name.as_str()) {
            ("texture", "ImageTexture") => out.texture = Some(texture_ref(scene, child.node, &mut out.unsupported)?),
            ("textureTransform", "TextureTransform") => out.texture_transform = texture_transform(scene, child.node)?,
            ("texture" | "shaders" | "textureTransform", _) => {
                out.unsupported.push(format!("{} ({}) is not drawn", scene.describe(child.node), child.field))
            }
            _ => {}
        }
    }
    let Some(material) = node.children_in("material").next() else { return Ok(out) };
    let defaults = MaterialParams::default();
    let m = &mut out.material;
    match scene.node(material).type_name.as_str() {
        "Material" | "TwoSidedMaterial" => {
            m.diffuse = color_or(scene, material, "diffuseColor", defaults.diffuse)?;
            m.specular = color_or(scene, material, "specularColor", defaults.specular)?;
            m.emissive = color_or(scene, material, "emissiveColor", defaults.emissive)?;
            m.shininess = scene.sf_float(material, "shininess", defaults.shininess)?.clamp(0.0, 1.0);
            m.transparency = scene.sf_float(material, "transparency", defaults.transparency)?.clamp(0.0, 1.0);
            m.ambient_intensity =
                scene.sf_float(material, "ambientIntensity", defaults.ambient_intensity)?.clamp(0.0, 1.0);
            m.lit = true;
            out.two_sided_material = scene.node(material).type_name == "TwoSidedMaterial";
        }
        "UnlitMaterial" => {
            m.emissive = color_or(scene, material, "emissiveColor", [1.0; 3])?;
            m.transparency = scene.sf_float(material, "transparency", 0.0)?.clamp(0.0, 1.0);
            m.lit = false;
        }
        "PhysicalMaterial" => {
            // The glTF 2.0 metallic-roughness model (X3D 4.0 12.4.3, 17.2.2.5): the shader evaluates it.
            m.diffuse = color_or(scene, material, "baseColor", [1.0; 3])?;
            m.metallic = scene.sf_float(material, "metallic", 1.0)?.clamp(0.0, 1.0);
            m.roughness = scene.sf_float(material, "roughness", 1.0)?.clamp(0.0, 1.0);
            m.emissive = color_or(scene, material, "emissiveColor", [0.0; 3])?;
            m.transparency = scene.sf_float(material, "transparency", 0.0)?.clamp(0.0, 1.0);
            m.specular = [0.0; 3];
            m.lit = true;
            m.physical = true;
        }
        _ => {
            out.material = defaults;
            out.unsupported.push(format!("{} is drawn with the default Material", scene.describe(material)));
        }
    }
    if matches!(scene.node(material).type_name.as_str(), "Material" | "PhysicalMaterial") {
        out.material.normal_scale = scene.sf_float(material, "normalScale", 1.0)?.max(0.0);
        out.material.occlusion_strength = scene.sf_float(material, "occlusionStrength", 1.0)?.clamp(0.0, 1.0);
    }
    material_textures(scene, material, &mut out)?;
    Ok(out)
}

/// The X3D 4.0 material's own texture maps (clause 12: Material, PhysicalMaterial, UnlitMaterial). The
/// base colour map — Material `diffuseTexture`, PhysicalMaterial `baseTexture`, UnlitMaterial
/// `emissiveTexture` — is the same input as Appearance `texture` (an X3D 4 RGB texture multiplies the
/// base colour, clause 17.2.2.4): drawn, and preferred to Appearance `texture` when a file gives both,
/// the material's field being the more specific. The other maps are read by [`read_maps`].
fn material_textures(scene: &Scene, material: NodeId, out: &mut ShapeAppearance) -> Result<(), X3dError> {
    let base_map = match scene.node(material).type_name.as_str() {
        "Material" | "TwoSidedMaterial" => "diffuseTexture",
        "PhysicalMaterial" => "baseTexture",
        "UnlitMaterial" => "emissiveTexture",
        _ => return Ok(()),
    };
    if let Some(base) = scene
        .node(material)
        .children
        .iter()
        .find(|c| c.field == base_map && scene.node(c.node).type_name == "ImageTexture")
    {
        out.texture = Some(texture_ref(scene, base.node, &mut out.unsupported)?);
    }
    let mut notes = Vec::new();
    let mut read = |node: NodeId| texture_ref(scene, node, &mut notes);
    let mut unsupported = std::mem::take(&mut out.unsupported);
    out.maps = read_maps(scene, material, base_map, &mut read, &mut unsupported)?;
    unsupported.extend(notes);
    out.unsupported = unsupported;
    Ok(())
}

/// The colours of a geometry's `color` node (Color → alpha 1, ColorRGBA), or `None` without one.
pub fn colors_of(scene: &Scene, geometry: NodeId) -> Result<Option<Vec<[f32; 4]>>, X3dError> {
    let Some(color) = scene.node(geometry).children_in("color").next() else { return Ok(None) };
    Ok(match scene.node(color).type_name.as_str() {
        "Color" => Some(
            scene
                .parse_field(color, "color", fields::parse_mf_color)?
                .unwrap_or_default()
                .into_iter()
                .map(|[r, g, b]| [r, g, b, 1.0])
                .collect(),
        ),
        "ColorRGBA" => Some(scene.parse_field(color, "color", fields::parse_mf_color_rgba)?.unwrap_or_default()),
        _ => None,
    })
}

/// The texture coordinates `mapping` names in a geometry's `texCoord` (a TextureCoordinate, or one of a
/// MultiTextureCoordinate's: [`tex_coord_node`]), or `None`.
pub fn uvs_for(scene: &Scene, geometry: NodeId, mapping: &str) -> Result<Option<Vec<[f32; 2]>>, X3dError> {
    let Some(tex) = tex_coord_node(scene, geometry, mapping) else { return Ok(None) };
    Ok(Some(scene.parse_field(tex, "point", fields::parse_mf_vec2f)?.unwrap_or_default()))
}

fn texture_ref(scene: &Scene, node: NodeId, notes: &mut Vec<String>) -> Result<TextureRef, X3dError> {
    let file = scene.node(node).loc.file as usize;
    let base =
        scene.files.get(file).and_then(|f| f.path.parent()).map(PathBuf::from).unwrap_or_else(|| PathBuf::from("."));
    Ok(TextureRef {
        node,
        urls: scene.mf_string(node, "url")?,
        base,
        sampling: TextureSampling::read(scene, node, notes)?,
    })
}

/// A TextureTransform's fields (ISO/IEC 19775-1, 18.4.9).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextureTransformFields {
    pub center: Vec2,
    pub scale: Vec2,
    /// Radians.
    pub rotation: f32,
    pub translation: Vec2,
}

impl TextureTransformFields {
    pub fn read(scene: &Scene, node: NodeId) -> Result<TextureTransformFields, X3dError> {
        let vec2 = |name: &str, default: [f32; 2]| -> Result<Vec2, X3dError> {
            Ok(Vec2::from(scene.parse_field(node, name, fields::parse_sf_vec2f)?.unwrap_or(default)))
        };
        Ok(TextureTransformFields {
            center: vec2("center", [0.0; 2])?,
            scale: vec2("scale", [1.0; 2])?,
            rotation: scene.sf_angle(node, "rotation", 0.0)?,
            translation: vec2("translation", [0.0; 2])?,
        })
    }

    /// X3D's `Tc' = −C × S × R × C × T × Tc`: translate, move the centre to the origin, rotate, scale,
    /// move back.
    pub fn matrix(&self) -> Affine2 {
        Affine2::from_translation(-self.center)
            * Affine2::from_scale(self.scale)
            * Affine2::from_angle(self.rotation)
            * Affine2::from_translation(self.center)
            * Affine2::from_translation(self.translation)
    }
}

/// The TextureTransform `node` as a map of texture coordinates ([`TextureTransformFields::matrix`]).
pub fn texture_transform(scene: &Scene, node: NodeId) -> Result<Affine2, X3dError> {
    Ok(TextureTransformFields::read(scene, node)?.matrix())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::texture_sampling::Wrap;

    #[test]
    fn texture_urls_resolve_locally_and_skip_remote_ones() {
        let t = TextureRef {
            node: NodeId(0),
            urls: vec![
                "images/a.png".into(),
                "https://example.org/a.png".into(),
                "file:///tmp/b.jpg".into(),
                "/abs/c.png".into(),
                "urn:web3d:x".into(),
                String::new(),
            ],
            base: PathBuf::from("/data/files"),
            sampling: TextureSampling::default(),
        };
        assert_eq!(
            t.local_candidates(),
            vec![PathBuf::from("/data/files/images/a.png"), PathBuf::from("/tmp/b.jpg"), PathBuf::from("/abs/c.png")]
        );
    }

    fn appearance(material: &str) -> ShapeAppearance {
        let text =
            format!("<X3D><Scene><Shape DEF='s'><Appearance>{material}</Appearance><Box/></Shape></Scene></X3D>");
        let scene = crate::x3d::load_str(&text, std::path::Path::new("a.x3d"), &Default::default())
            .unwrap_or_else(|e| panic!("{e}"));
        appearance_of(&scene, scene.defs["s"]).unwrap()
    }

    #[test]
    fn physical_material_keeps_its_gltf_parameters_and_maps() {
        let plastic = appearance("<PhysicalMaterial baseColor='1 0 0' metallic='0' roughness='0.2'/>");
        let m = plastic.material;
        assert!(m.lit && m.physical && m.diffuse == [1.0, 0.0, 0.0]);
        assert_eq!((m.metallic, m.roughness), (0.0, 0.2));
        assert!(plastic.unsupported.is_empty(), "{:?}", plastic.unsupported);
        let defaults = appearance("<PhysicalMaterial/>").material;
        assert_eq!((defaults.diffuse, defaults.metallic, defaults.roughness), ([1.0; 3], 1.0, 1.0));
        let textured = appearance("<Material/><ImageTexture url='\"a.png\" \"b.jpg\"' repeatS='false'/>");
        let t = textured.texture.expect("an ImageTexture");
        assert_eq!((t.urls.len(), t.sampling.wrap), (2, [Wrap::Clamp, Wrap::Repeat]));
        assert!(textured.unsupported.is_empty());
        let physical = appearance(
            "<PhysicalMaterial normalScale='0.5' baseTextureMapping='uv0' occlusionTextureMapping='uv1'>\
             <ImageTexture containerField='baseTexture' url='\"base.png\"'/>\
             <ImageTexture containerField='normalTexture' url='\"n.png\"'/>\
             <ImageTexture containerField='metallicRoughnessTexture' url='\"mr.png\"'/>\
             <ImageTexture containerField='occlusionTexture' url='\"ao.png\"'/>\
             <ImageTexture containerField='emissiveTexture' url='\"e.png\"'/></PhysicalMaterial>",
        );
        assert_eq!(physical.texture.expect("the base texture").urls, vec!["base.png".to_string()]);
        let maps = &physical.maps;
        assert_eq!(maps.normal.as_ref().map(|t| t.urls[0].as_str()), Some("n.png"));
        assert_eq!(maps.metallic_roughness.as_ref().map(|t| t.urls[0].as_str()), Some("mr.png"));
        assert_eq!(maps.emissive.as_ref().map(|t| t.urls[0].as_str()), Some("e.png"));
        assert_eq!((maps.bits(), maps.mapping.as_str(), physical.material.normal_scale), (15, "uv0", 0.5));
        assert!(
            physical.unsupported.len() == 1 && physical.unsupported[0].contains("occlusionTextureMapping 'uv1'"),
            "{:?}",
            physical.unsupported
        );
        let phong = appearance(
            "<Material><ImageTexture containerField='specularTexture' url='\"s.png\"'/>\
             <ImageTexture containerField='normalTexture' url='\"n.png\"'/></Material>",
        );
        assert_eq!(phong.maps.bits(), crate::mesh::material_maps::MAP_NORMAL);
        assert!(phong.unsupported[0].contains("(specularTexture) is not drawn"), "{:?}", phong.unsupported);
        let pixel = appearance("<Material/><PixelTexture/>");
        assert!(pixel.texture.is_none() && pixel.unsupported[0].contains("PixelTexture"));
    }

    #[test]
    fn texture_transform_follows_the_standard_order() {
        let text = "<X3D><Scene><TextureTransform DEF='t' center='0.5 0.5' rotation='1.5707964' scale='2 2' \
                    translation='0.25 0'/></Scene></X3D>";
        let scene = crate::x3d::load_str(text, std::path::Path::new("t.x3d"), &Default::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let node = scene.defs["t"];
        let m = texture_transform(&scene, node).unwrap();
        // (0.5, 0.5) → translate (0.75, 0.5) → centre (1.25, 1.0) → rotate 90° (−1.0, 1.25) → scale
        // (−2.0, 2.5) → back (−2.5, 2.0).
        assert!(m.transform_point2(Vec2::new(0.5, 0.5)).abs_diff_eq(Vec2::new(-2.5, 2.0), 1e-5));
    }
}
