//! The parts of the glTF 2.0 JSON schema the exporter writes, as typed serde structs: empty lists and
//! absent values are left out of the output, as the schema asks (`minItems: 1` on every array).
//! Reading goes through the `gltf` crate instead (see [`super::import`]).

use serde::Serialize;
use serde_json::Value;

fn is_false(b: &bool) -> bool {
    !*b
}

/// The root object.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Root {
    pub asset: Asset,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extensions_used: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scene: Option<u32>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scenes: Vec<Scene>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub nodes: Vec<Node>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub meshes: Vec<Mesh>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skins: Vec<Skin>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cameras: Vec<Camera>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub animations: Vec<Animation>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub materials: Vec<Material>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub textures: Vec<Texture>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<Image>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub samplers: Vec<Sampler>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub accessors: Vec<Accessor>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub buffer_views: Vec<BufferView>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub buffers: Vec<Buffer>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extras: Option<Value>,
}

#[derive(Debug, Serialize)]
pub struct Asset {
    pub version: String,
    pub generator: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub copyright: Option<String>,
}

impl Default for Asset {
    fn default() -> Self {
        Self { version: "2.0".into(), generator: format!("hanim-viewer {}", crate::VERSION), copyright: None }
    }
}

#[derive(Debug, Default, Serialize)]
pub struct Scene {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub nodes: Vec<u32>,
}

#[derive(Debug, Default, Clone, Serialize)]
pub struct Node {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub translation: Option<[f32; 3]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rotation: Option<[f32; 4]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scale: Option<[f32; 3]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mesh: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skin: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub camera: Option<u32>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub weights: Vec<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extras: Option<Value>,
}

#[derive(Debug, Default, Serialize)]
pub struct Mesh {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub primitives: Vec<Primitive>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub weights: Vec<f32>,
    /// `targetNames`: the names of the morph targets, the convention Blender and three.js read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extras: Option<Value>,
}

#[derive(Debug, Default, Serialize)]
pub struct Primitive {
    pub attributes: std::collections::BTreeMap<String, u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub indices: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub material: Option<u32>,
    /// 4 = triangles (the default, left out), 1 = lines, 0 = points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<u32>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<std::collections::BTreeMap<String, u32>>,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Skin {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub inverse_bind_matrices: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skeleton: Option<u32>,
    pub joints: Vec<u32>,
}

#[derive(Debug, Serialize)]
pub struct Camera {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(rename = "type")]
    pub kind: String,
    pub perspective: Perspective,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Perspective {
    pub yfov: f32,
    pub znear: f32,
}

#[derive(Debug, Default, Serialize)]
pub struct Animation {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub channels: Vec<Channel>,
    pub samplers: Vec<AnimationSampler>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extras: Option<Value>,
}

#[derive(Debug, Serialize)]
pub struct Channel {
    pub sampler: u32,
    pub target: ChannelTarget,
}

#[derive(Debug, Serialize)]
pub struct ChannelTarget {
    pub node: u32,
    /// `translation`, `rotation`, `scale` or `weights`.
    pub path: &'static str,
}

#[derive(Debug, Serialize)]
pub struct AnimationSampler {
    pub input: u32,
    pub output: u32,
    /// `LINEAR` (the default) or `STEP`.
    pub interpolation: &'static str,
}

#[derive(Debug, Default, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Material {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub pbr_metallic_roughness: PbrMetallicRoughness,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normal_texture: Option<NormalTextureInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub occlusion_texture: Option<OcclusionTextureInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub emissive_texture: Option<TextureInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub emissive_factor: Option<[f32; 3]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alpha_mode: Option<&'static str>,
    #[serde(skip_serializing_if = "is_false")]
    pub double_sided: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Value>,
    /// How the material was made from the X3D one (`docs/gltf.md`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extras: Option<Value>,
}

#[derive(Debug, Default, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PbrMetallicRoughness {
    pub base_color_factor: [f32; 4],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_color_texture: Option<TextureInfo>,
    pub metallic_factor: f32,
    pub roughness_factor: f32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metallic_roughness_texture: Option<TextureInfo>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TextureInfo {
    pub index: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct NormalTextureInfo {
    pub index: u32,
    pub scale: f32,
}

#[derive(Debug, Clone, Serialize)]
pub struct OcclusionTextureInfo {
    pub index: u32,
    pub strength: f32,
}

#[derive(Debug, Serialize)]
pub struct Texture {
    pub sampler: u32,
    pub source: u32,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Image {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buffer_view: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Sampler {
    pub mag_filter: u32,
    pub min_filter: u32,
    pub wrap_s: u32,
    pub wrap_t: u32,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Accessor {
    pub buffer_view: u32,
    pub component_type: u32,
    #[serde(skip_serializing_if = "is_false")]
    pub normalized: bool,
    pub count: u32,
    #[serde(rename = "type")]
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<Vec<f32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<Vec<f32>>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BufferView {
    pub buffer: u32,
    pub byte_offset: u32,
    pub byte_length: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub byte_stride: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<u32>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Buffer {
    pub byte_length: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,
}
