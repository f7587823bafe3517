//! What events write into Materials and TextureTransforms, drawn: a ColorInterpolator into a Material's
//! `diffuseColor`, a ScalarInterpolator into its `transparency`, a PositionInterpolator2D into a
//! TextureTransform's `translation`, … The CPU evaluates the events ([`Overrides`]); a part's material
//! uniform is rewritten only when the value it should hold differs from the one last written, and a part
//! that becomes (or stops being) transparent moves between the opaque and the blended pipelines.

use std::collections::HashSet;

use super::layout::humanoid::GpuMaterial;
use super::render_pass::MeshDraw;
use crate::animation::events::Overrides;
use crate::mesh::{MaterialParams, TextureTransformFields};
use crate::x3d::{NodeId, Scene};

/// A part's appearance as the file gives it, with what decides how it is drawn.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PartAppearance {
    /// The Shape the part comes from (its Appearance's Material and TextureTransform).
    pub shape: crate::x3d::NodeId,
    pub material: crate::mesh::MaterialParams,
    pub texture_transform: glam::Affine2,
    pub vertex_colors: bool,
    pub two_sided: bool,
    pub texture_mode: u32,
    /// The material maps bound (`GpuMaterial::maps`).
    pub maps: u32,
    /// Vertex colours or texels with alpha: blended whatever the material's transparency.
    pub see_through: bool,
}

/// The Material and TextureTransform nodes of `shape`'s Appearance.
fn appearance_nodes(scene: &Scene, shape: NodeId) -> (Option<NodeId>, Option<NodeId>) {
    let Some(appearance) = scene.node(shape).children_in("appearance").next() else { return (None, None) };
    let node = scene.node(appearance);
    (node.children_in("material").next(), node.children_in("textureTransform").next())
}

/// `file` with the Material fields `overrides` set on `node` (the Phong fields on Material and
/// TwoSidedMaterial, baseColor, metallic and roughness on PhysicalMaterial; emissiveColor and
/// transparency on any material).
pub fn material_with(scene: &Scene, node: NodeId, file: MaterialParams, overrides: &Overrides) -> MaterialParams {
    let mut m = file;
    let color = |name: &str| {
        overrides
            .get(node, name)
            .and_then(|v| v.as_vec3())
            .map(|c| c.clamp(glam::Vec3::ZERO, glam::Vec3::ONE).to_array())
    };
    let float = |name: &str| overrides.get(node, name).and_then(|v| v.as_float()).map(|f| f.clamp(0.0, 1.0));
    match scene.node(node).type_name.as_str() {
        "Material" | "TwoSidedMaterial" => {
            m.diffuse = color("diffuseColor").unwrap_or(m.diffuse);
            m.specular = color("specularColor").unwrap_or(m.specular);
            m.shininess = float("shininess").unwrap_or(m.shininess);
            m.ambient_intensity = float("ambientIntensity").unwrap_or(m.ambient_intensity);
        }
        "PhysicalMaterial" => {
            m.diffuse = color("baseColor").unwrap_or(m.diffuse);
            m.metallic = float("metallic").unwrap_or(m.metallic);
            m.roughness = float("roughness").unwrap_or(m.roughness);
        }
        _ => {}
    }
    m.emissive = color("emissiveColor").unwrap_or(m.emissive);
    m.transparency = float("transparency").unwrap_or(m.transparency);
    m
}

/// The TextureTransform `node` with the fields `overrides` set on it (`None` when it cannot be read;
/// its drawing reported that at load).
pub fn texture_transform_with(scene: &Scene, node: NodeId, overrides: &Overrides) -> Option<glam::Affine2> {
    let mut f = TextureTransformFields::read(scene, node).ok()?;
    let vec2 = |name: &str| overrides.get(node, name).and_then(|v| v.as_vec2());
    f.center = vec2("center").unwrap_or(f.center);
    f.scale = vec2("scale").unwrap_or(f.scale);
    f.translation = vec2("translation").unwrap_or(f.translation);
    f.rotation = overrides.get(node, "rotation").and_then(|v| v.as_float()).unwrap_or(f.rotation);
    Some(f.matrix())
}

/// The nodes `overrides` sets any field of.
pub fn overridden_nodes(overrides: &Overrides) -> HashSet<NodeId> {
    overrides.iter().map(|(node, ..)| node).collect()
}

/// The uniform `part` should hold with `overrides`.
fn wanted(scene: &Scene, part: &PartAppearance, overrides: &Overrides, changed: &HashSet<NodeId>) -> GpuMaterial {
    let (material_node, transform_node) = appearance_nodes(scene, part.shape);
    let material = match material_node {
        Some(node) if changed.contains(&node) => material_with(scene, node, part.material, overrides),
        _ => part.material,
    };
    let transform = match transform_node {
        Some(node) if changed.contains(&node) => {
            texture_transform_with(scene, node, overrides).unwrap_or(part.texture_transform)
        }
        _ => part.texture_transform,
    };
    GpuMaterial::from_params(&material, transform, part.vertex_colors, part.two_sided, part.texture_mode, part.maps)
}

impl MeshDraw {
    /// Writes the material uniforms of the parts whose Material or TextureTransform `overrides` change,
    /// and puts back the file's values where they no longer do; `changed` is
    /// [`overridden_nodes`]`(overrides)`. Returns how many uniforms were written.
    pub fn apply_appearance(
        &mut self,
        queue: &wgpu::Queue,
        scene: &Scene,
        overrides: &Overrides,
        changed: &HashSet<NodeId>,
    ) -> usize {
        let mut written = 0;
        for part in &mut self.parts {
            let want = wanted(scene, &part.appearance, overrides, changed);
            if want == part.written {
                continue;
            }
            queue.write_buffer(&part.material_buffer, 0, bytemuck::bytes_of(&want));
            part.written = want;
            part.variant.blended = want.diffuse[3] < 1.0 || part.appearance.see_through;
            written += 1;
        }
        written
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::animation::events::FieldValue;
    use glam::Vec2;

    #[test]
    fn overridden_fields_replace_the_files_and_others_stay() {
        let text = "<X3D><Scene><Shape DEF='s'><Appearance><Material DEF='m' diffuseColor='1 0 0' shininess='0.5'/>\
                    <TextureTransform DEF='t' scale='2 2'/></Appearance><Box/></Shape></Scene></X3D>";
        let scene = crate::x3d::load_str(text, std::path::Path::new("a.x3d"), &Default::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let (m, t) = (scene.defs["m"], scene.defs["t"]);
        assert_eq!(appearance_nodes(&scene, scene.defs["s"]), (Some(m), Some(t)));
        let file = crate::mesh::appearance_of(&scene, scene.defs["s"]).unwrap().material;
        let mut o = Overrides::default();
        o.set(m, "diffuseColor", FieldValue::Color(glam::Vec3::new(0.0, 2.0, 0.5)));
        o.set(m, "transparency", FieldValue::Float(0.25));
        let changed = material_with(&scene, m, file, &o);
        assert_eq!(changed.diffuse, [0.0, 1.0, 0.5], "clamped to 0..1");
        assert_eq!((changed.transparency, changed.shininess), (0.25, 0.5));
        o.set(t, "translation", FieldValue::Vec2(Vec2::new(0.5, 0.0)));
        let moved = texture_transform_with(&scene, t, &o).unwrap();
        // Translate first, then scale: (0, 0) → (0.5, 0) → (1, 0).
        assert!(moved.transform_point2(Vec2::ZERO).abs_diff_eq(Vec2::new(1.0, 0.0), 1e-6));
        assert_eq!(overridden_nodes(&o), HashSet::from([m, t]));
    }
}
