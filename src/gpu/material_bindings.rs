//! Group 2 of the humanoid pipelines: a part's material uniform and its textures. Binding 0 is the
//! [`GpuMaterial`] uniform, 1–2 the base colour map and its sampler, then the other X3D 4.0 material maps
//! ([`crate::mesh::material_maps`]), each with its own sampler since each ImageTexture has its own
//! TextureProperties: 3–4 metallic-roughness, 5–6 normal, 7–8 occlusion, 9–10 emissive. A map the part
//! lacks is bound to the 1×1 white texture, and its bit in `GpuMaterial::maps` is clear.

use super::layout::humanoid::GpuMaterial;
use super::textures::{GpuTexture, TexelEncoding, TextureCache};
use crate::mesh::RenderMesh;
use crate::mesh::material_maps::{MAP_EMISSIVE, MAP_METALLIC_ROUGHNESS, MAP_NORMAL, MAP_OCCLUSION};

/// The maps after the base colour map, in binding order.
const MAPS: [u32; 4] = [MAP_METALLIC_ROUGHNESS, MAP_NORMAL, MAP_OCCLUSION, MAP_EMISSIVE];

/// How a map's texels are read: the emissive map holds colours, the others data.
pub fn map_encoding(bit: u32) -> TexelEncoding {
    if bit == MAP_EMISSIVE { TexelEncoding::Srgb } else { TexelEncoding::Linear }
}

fn texture_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: true },
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        },
        count: None,
    }
}

fn sampler_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
        count: None,
    }
}

/// The layout of group 2.
pub fn layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let mut entries = vec![wgpu::BindGroupLayoutEntry {
        binding: 0,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: wgpu::BufferSize::new(size_of::<GpuMaterial>() as u64),
        },
        count: None,
    }];
    for slot in 0..=MAPS.len() as u32 {
        entries.push(texture_entry(1 + 2 * slot));
        entries.push(sampler_entry(2 + 2 * slot));
    }
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("humanoid::material_layout"),
        entries: &entries,
    })
}

/// The part's textures as loaded: its base colour map (`None` when it has none or it could not be
/// read) and the maps that could be read, with their bits.
pub struct PartTextures<'a> {
    pub base: Option<&'a GpuTexture>,
    pub maps: Vec<(u32, &'a GpuTexture)>,
}

impl<'a> PartTextures<'a> {
    pub fn of(part: &RenderMesh, textures: &'a TextureCache) -> Self {
        let base = part.texture.as_ref().and_then(|t| textures.get(t));
        let maps = part
            .maps
            .present()
            .filter_map(|(bit, map)| textures.get_as(map, map_encoding(bit)).map(|t| (bit, t)))
            .collect();
        Self { base, maps }
    }

    /// The bits of the maps that could be read (`GpuMaterial::maps`).
    pub fn bits(&self) -> u32 {
        self.maps.iter().fold(0, |bits, (bit, _)| bits | bit)
    }

    fn map(&self, bit: u32) -> Option<&'a GpuTexture> {
        self.maps.iter().find(|(b, _)| *b == bit).map(|(_, t)| *t)
    }
}

/// Group 2 for one part: `uniform` and the part's textures (white where absent).
pub fn bind_group(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    uniform: &wgpu::Buffer,
    part: &PartTextures<'_>,
    white: &GpuTexture,
) -> wgpu::BindGroup {
    let bound: Vec<&GpuTexture> = std::iter::once(part.base.unwrap_or(white))
        .chain(MAPS.iter().map(|&bit| part.map(bit).unwrap_or(white)))
        .collect();
    let mut entries = vec![wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() }];
    for (slot, texture) in bound.iter().enumerate() {
        let slot = slot as u32;
        entries.push(wgpu::BindGroupEntry {
            binding: 1 + 2 * slot,
            resource: wgpu::BindingResource::TextureView(&texture.view),
        });
        entries.push(wgpu::BindGroupEntry {
            binding: 2 + 2 * slot,
            resource: wgpu::BindingResource::Sampler(&texture.sampler),
        });
    }
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("humanoid::material_bind_group"),
        layout,
        entries: &entries,
    })
}
