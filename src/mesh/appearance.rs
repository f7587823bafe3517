//! A Shape's Appearance as the renderer uses it: the X3D Material lighting parameters, whether the
//! shape is lit at all, and what is not supported yet (textures).

use crate::x3d::{NodeId, Scene, X3dError, fields};

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
    /// Appearance features that are not drawn yet, for a log line.
    pub unsupported: Vec<String>,
}

fn color_or(scene: &Scene, id: NodeId, name: &str, default: [f32; 3]) -> Result<[f32; 3], X3dError> {
    scene.sf_color(id, name, default)
}

/// Reads the Appearance of `shape`.
pub fn appearance_of(scene: &Scene, shape: NodeId) -> Result<ShapeAppearance, X3dError> {
    let mut out =
        ShapeAppearance { material: MaterialParams::unlit_white(), two_sided_material: false, unsupported: Vec::new() };
    let Some(appearance) = scene.node(shape).children_in("appearance").next() else { return Ok(out) };
    let node = scene.node(appearance);
    for child in &node.children {
        if matches!(child.field.as_str(), "texture" | "shaders") {
            out.unsupported.push(format!("{} ({})", scene.describe(child.node), child.field));
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
            // Approximated with the Phong model: base colour as diffuse, a little specular for smooth
            // surfaces.
            m.diffuse = color_or(scene, material, "baseColor", [1.0; 3])?;
            m.emissive = color_or(scene, material, "emissiveColor", [0.0; 3])?;
            let roughness = scene.sf_float(material, "roughness", 1.0)?.clamp(0.0, 1.0);
            m.specular = [0.5 * (1.0 - roughness); 3];
            m.shininess = 1.0 - roughness;
            m.transparency = scene.sf_float(material, "transparency", 0.0)?.clamp(0.0, 1.0);
            m.lit = true;
            out.unsupported.push(format!("{} (approximated by Phong lighting)", scene.describe(material)));
        }
        _ => {
            out.material = defaults;
            out.unsupported.push(format!("{} (drawn with the default Material)", scene.describe(material)));
        }
    }
    Ok(out)
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

/// The texture coordinates of a geometry's `texCoord` node (TextureCoordinate), or `None`.
pub fn uvs_of(scene: &Scene, geometry: NodeId) -> Result<Option<Vec<[f32; 2]>>, X3dError> {
    let Some(tex) = scene.node(geometry).children_in("texCoord").next() else { return Ok(None) };
    if scene.node(tex).type_name != "TextureCoordinate" {
        return Ok(None);
    }
    Ok(Some(scene.parse_field(tex, "point", fields::parse_mf_vec2f)?.unwrap_or_default()))
}
