//! Group 3 of the humanoid pipelines: the lights that reach only some of a draw's instances (scoped
//! lights, [`crate::hanim::light_scope`]: the lights of an Inline's file, a DirectionalLight's group).
//! Each instance has its own list (an Inline copy is lit by its own lights), laid out as `count` lights
//! per instance, instance k's from `k · count` on. The list's kinds reach the fragment shader as the
//! `SCOPED_LIGHTS` pipeline constant (its `code`), like the frame's lights.

use super::layout::humanoid::{GpuLight, MAX_SCENE_LIGHTS};
use crate::hanim::SceneLight;

/// `SCOPED_LIGHTS`' bit saying that the instances' lists differ in kinds: each light's kind is read
/// from it rather than fixed by the constant.
const MIXED_KINDS: u32 = 1 << 31;

/// A draw's scoped lights: the bind group of its list and the pipeline constant describing it.
pub struct ScopedLights {
    pub(super) group: wgpu::BindGroup,
    /// Bits 0–3: lights per instance; then two bits per light, its kind (0 directional, 1 point, 2 spot);
    /// bit 31: the kinds differ between instances.
    pub(super) code: u32,
}

/// The layout of group 3: one read-only storage buffer of `Light`s the fragment stage reads.
pub fn layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("humanoid::scoped_lights_layout"),
        entries: &[wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::FRAGMENT,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only: true },
                has_dynamic_offset: false,
                min_binding_size: wgpu::BufferSize::new(size_of::<GpuLight>() as u64),
            },
            count: None,
        }],
    })
}

fn kind_code(light: &GpuLight) -> u32 {
    light.position[3].round() as u32 & 3
}

/// A light that adds nothing (no intensity, no ambient term): what pads a shorter instance list.
fn dark() -> GpuLight {
    GpuLight {
        position: [0.0, 0.0, -1.0, 0.0],
        color: [0.0; 4],
        direction: [0.0; 4],
        attenuation: [1.0, 0.0, 0.0, f32::MAX],
        cone: [0.0; 4],
    }
}

/// The lights of each instance as the shader reads them (the file's colours, as the standard model
/// takes them; the studio look converts them in the shader), at most [`MAX_SCENE_LIGHTS`] each.
fn instance_lights(lists: &[Vec<&SceneLight>]) -> Vec<Vec<GpuLight>> {
    lists
        .iter()
        .map(|list| list.iter().take(MAX_SCENE_LIGHTS).map(|l| GpuLight::from_scene(l, true)).collect())
        .collect()
}

impl ScopedLights {
    /// The scoped lights of a draw whose instance k is reached by `lists[k]`; `None` when no instance has
    /// any (the draw binds the renderer's empty list).
    pub fn new(device: &wgpu::Device, layout: &wgpu::BindGroupLayout, lists: &[Vec<&SceneLight>]) -> Option<Self> {
        use wgpu::util::DeviceExt;
        let lists = instance_lights(lists);
        let count = lists.iter().map(Vec::len).max().unwrap_or(0);
        if count == 0 {
            return None;
        }
        let kinds = |list: &[GpuLight]| list.iter().map(kind_code).collect::<Vec<_>>();
        let first = kinds(&lists[0]);
        let mixed = lists.iter().any(|l| kinds(l) != first);
        let mut code = count as u32;
        if mixed {
            code |= MIXED_KINDS;
        } else {
            for (i, kind) in first.iter().enumerate() {
                code |= kind << (4 + 2 * i);
            }
        }
        let mut data = Vec::with_capacity(count * lists.len());
        for list in &lists {
            data.extend(list.iter().copied());
            data.extend(std::iter::repeat_n(dark(), count - list.len()));
        }
        let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("humanoid::scoped_lights"),
            contents: bytemuck::cast_slice(&data),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("humanoid::scoped_lights_group"),
            layout,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: buffer.as_entire_binding() }],
        });
        Some(Self { group, code })
    }

    /// The empty list (one dark light, count 0) every draw without scoped lights binds.
    pub fn none(device: &wgpu::Device, layout: &wgpu::BindGroupLayout) -> wgpu::BindGroup {
        use wgpu::util::DeviceExt;
        let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("humanoid::no_scoped_lights"),
            contents: bytemuck::bytes_of(&dark()),
            usage: wgpu::BufferUsages::STORAGE,
        });
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("humanoid::no_scoped_lights_group"),
            layout,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: buffer.as_entire_binding() }],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hanim::LightKind;

    #[test]
    fn kinds_match_the_light_nodes() {
        let point = LightKind::Point { location: glam::Vec3::ZERO, radius: 1.0, attenuation: glam::Vec3::X };
        let light = SceneLight {
            node: crate::x3d::NodeId(0),
            kind: point,
            color: [1.0; 3],
            intensity: 1.0,
            ambient_intensity: 0.0,
            scope: None,
        };
        let gpu = instance_lights(&[vec![&light]]);
        assert_eq!(kind_code(&gpu[0][0]), 1);
        assert_eq!(kind_code(&dark()), 0);
    }
}
