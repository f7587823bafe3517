//! One draw of the render pass ([`MeshDraw`]): a mesh's static corner attributes, triangles and
//! materials, and its placements — one per instance. A single humanoid (or scene Shape) is one instance;
//! a crowd of copies skinned together ([`super::GpuSkin::instanced`]) is drawn by one instanced draw per
//! opaque part, each instance reading its own points and normals (`Placement::first` in
//! `shaders/humanoid.wgsl`) and its own placement.

use std::ops::Range;

use glam::{Mat3, Mat4, Vec3};

use super::layout::humanoid::{GpuCornerVertex, GpuMaterial, GpuPlacement, linear_from_srgb3};
use super::render_pass::Variant;
use crate::mesh::{RenderMesh, Topology};
use crate::pose::normal_from_skin;
use crate::pose::skin_inspection::PointInfluence;

/// How many instances a draw holds and where each finds its vertices: instance k reads its points from
/// `k · point_stride` on and its corner normals from `k · corner_stride` on (0: every instance shares
/// the same buffer, e.g. a rigid shape's static rest points).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Instancing {
    pub count: u32,
    pub point_stride: u32,
    pub corner_stride: u32,
}

impl Instancing {
    /// `count` instances sharing the same static points and normals (rigid shapes, scene Shapes).
    pub fn shared(count: u32) -> Self {
        Instancing { count: count.max(1), point_stride: 0, corner_stride: 0 }
    }
}

/// [`GpuPlacement::overlay`] of a draw that reads its per-point values.
pub(super) const NO_RIGID_OVERLAY: [f32; 4] = [0.0; 4];

fn placement_of(world_from_humanoid: Mat4, overlay: [f32; 4], instance: u32, instancing: Instancing) -> GpuPlacement {
    let n = normal_from_skin(Mat3::from_mat4(world_from_humanoid));
    GpuPlacement {
        world_from_humanoid: world_from_humanoid.to_cols_array(),
        normal_from_humanoid: [n.x_axis.extend(0.0).into(), n.y_axis.extend(0.0).into(), n.z_axis.extend(0.0).into()],
        overlay,
        first: [instance * instancing.point_stride, instance * instancing.corner_stride, 0, 0],
    }
}

/// The placements of every instance, all at `world_from_humanoid`, as [`MeshDraw`] uploads them.
pub(super) fn initial_placements(instancing: Instancing, world_from_humanoid: Mat4) -> Vec<GpuPlacement> {
    (0..instancing.count).map(|k| placement_of(world_from_humanoid, NO_RIGID_OVERLAY, k, instancing)).collect()
}

pub(super) struct PartDraw {
    pub(super) indices: Range<u32>,
    pub(super) bind_group: wgpu::BindGroup,
    pub(super) variant: Variant,
    /// Middle of the part at rest, in the draw's own space (for back-to-front sorting).
    pub(super) centre: Vec3,
    /// What the file gives the part (events may change the material and the texture transform).
    pub(super) appearance: super::appearance_events::PartAppearance,
    pub(super) material_buffer: wgpu::Buffer,
    /// The material uniform last written.
    pub(super) written: GpuMaterial,
}

/// The draw data of one mesh: static corner attributes and triangles, materials, and the placements
/// (`H` per instance), which change when the humanoid moves in the world.
pub struct MeshDraw {
    pub(super) corner_vertices: wgpu::Buffer,
    pub(super) indices: wgpu::Buffer,
    /// One [`GpuPlacement`] per instance (a storage buffer the vertex shader indexes by instance).
    pub(super) placement: wgpu::Buffer,
    pub(super) placement_group: wgpu::BindGroup,
    pub(super) parts: Vec<PartDraw>,
    pub(super) instancing: Instancing,
    /// The placement of each instance as last written, for sorting transparent parts on the CPU.
    pub(super) world_from_humanoid: Vec<Mat4>,
    /// The instances drawn: all of them but while one humanoid among twins is drawn alone.
    pub(super) shown: Range<u32>,
    /// [`GpuPlacement::overlay`] as last written.
    pub(super) rigid_overlay: [f32; 4],
    /// A rigid draw whose Coordinate, Normal, Color or TextureCoordinate events change: what rebuilds
    /// its vertex data (`None` for every other draw).
    pub(super) geometry: Option<Box<super::geometry_events::EventGeometry>>,
    /// The lights that reach only some of its instances, each instance's own (`None`: none does).
    pub(super) scoped: Option<super::scoped_lights::ScopedLights>,
}

impl MeshDraw {
    /// Sets `H` (humanoid space → world) of the first instance for the next frames.
    pub fn set_world_from_humanoid(&mut self, queue: &wgpu::Queue, world_from_humanoid: Mat4) {
        self.set_instance_placements(queue, std::slice::from_ref(&world_from_humanoid));
    }

    /// Sets `H` of instances `0..placements.len()` (one write for all of them); instances past the end
    /// keep theirs, placements past the instance count are ignored.
    pub fn set_instance_placements(&mut self, queue: &wgpu::Queue, placements: &[Mat4]) {
        self.set_instance_placements_from(queue, 0, placements);
    }

    /// As [`Self::set_instance_placements`], for instances `first..first + placements.len()` (one
    /// copy's block among twins drawn together).
    pub fn set_instance_placements_from(&mut self, queue: &wgpu::Queue, first: u32, placements: &[Mat4]) {
        let room = self.instancing.count.saturating_sub(first) as usize;
        let placements = &placements[..placements.len().min(room)];
        if placements.is_empty() {
            return;
        }
        let (overlay, instancing) = (self.rigid_overlay, self.instancing);
        let bytes: Vec<GpuPlacement> =
            crowd_map(placements, |k, &m| placement_of(m, overlay, first + k as u32, instancing));
        let offset = u64::from(first) * std::mem::size_of::<GpuPlacement>() as u64;
        queue.write_buffer(&self.placement, offset, bytemuck::cast_slice(&bytes));
        let first = first as usize;
        self.world_from_humanoid[first..first + placements.len()].copy_from_slice(placements);
    }

    /// Draws only instances `shown` from the next frame on (all of them by default): one humanoid of a
    /// group of twins drawn alone.
    pub fn show_instances(&mut self, shown: Range<u32>) {
        self.shown = shown.start.min(self.instancing.count)..shown.end.min(self.instancing.count);
    }

    /// The instances drawn (see [`Self::show_instances`]).
    pub fn shown_instances(&self) -> Range<u32> {
        self.shown.clone()
    }

    /// Gives every point of this draw the same skin overlay values (a segment, 100 % its joint's), or
    /// (`None`) lets it read its points' own values from the skin pass.
    pub fn set_rigid_overlay(&mut self, queue: &wgpu::Queue, values: Option<PointInfluence>) {
        self.rigid_overlay = match values {
            Some(v) => [v.weight, v.count as f32, v.sum, 1.0],
            None => NO_RIGID_OVERLAY,
        };
        let placements = self.world_from_humanoid.clone();
        self.set_instance_placements(queue, &placements);
    }

    /// `H` of the first instance.
    pub fn world_from_humanoid(&self) -> Mat4 {
        self.world_from_humanoid[0]
    }

    /// `H` of every instance.
    pub fn instance_placements(&self) -> &[Mat4] {
        &self.world_from_humanoid
    }

    /// How many instances one draw of this mesh draws.
    pub fn instance_count(&self) -> u32 {
        self.instancing.count
    }

    /// Draw calls this mesh costs per frame: one per opaque part (all instances at once), one per
    /// transparent part and instance (sorted back to front one by one).
    pub fn draw_calls(&self) -> u32 {
        self.parts
            .iter()
            .filter(|p| !p.indices.is_empty())
            .map(|p| if p.variant.blended { self.instancing.count } else { 1 })
            .sum()
    }

    /// Triangles of one instance.
    pub fn triangle_count(&self) -> u32 {
        self.parts
            .iter()
            .filter(|p| p.variant.topology == Topology::Triangles)
            .map(|p| p.indices.len() as u32 / 3)
            .sum()
    }
}

/// `f(k, items[k])` for every item, in parallel when there are enough of them to pay for it (a crowd's
/// copies), else on this thread (a single humanoid).
pub(super) fn crowd_map<T: Sync, R: Send>(items: &[T], f: impl Fn(usize, &T) -> R + Sync + Send) -> Vec<R> {
    use rayon::prelude::*;
    const PARALLEL_FROM: usize = 16;
    if items.len() < PARALLEL_FROM {
        items.iter().enumerate().map(|(k, item)| f(k, item)).collect()
    } else {
        items.par_iter().enumerate().with_min_len(PARALLEL_FROM / 2).map(|(k, item)| f(k, item)).collect()
    }
}

/// The corner vertices of `part` as the vertex buffer holds them: colours in linear light, each corner's
/// point `first_point` further on in the point buffer.
pub(super) fn corner_vertex_data(part: &RenderMesh, first_point: u32) -> Vec<GpuCornerVertex> {
    part.source_point
        .iter()
        .zip(&part.colors)
        .zip(&part.uvs)
        .map(|((&source_point, color), uv)| {
            // Vertex colours multiply a PhysicalMaterial's linear baseColor as they are (glTF 2.0
            // COLOR_0 is linear); elsewhere they are sRGB values like the Phong colours.
            let rgb = [color[0], color[1], color[2]];
            let [r, g, b] = if part.material.physical { rgb } else { linear_from_srgb3(rgb) };
            GpuCornerVertex {
                color: [r, g, b, color[3].clamp(0.0, 1.0)],
                uv: *uv,
                source_point: source_point + first_point,
            }
        })
        .collect()
}

/// The per-corner normals of a rigid draw as its storage buffer holds them (one vec4 each).
pub(super) fn normal_data(mesh: &RenderMesh) -> Vec<[f32; 4]> {
    mesh.normals.iter().map(|n| n.extend(0.0).to_array()).collect()
}

/// A rigid draw's points as its storage buffer holds them (one vec4 each).
pub(super) fn point_data(points: &[Vec3]) -> Vec<[f32; 4]> {
    points.iter().map(|p| p.extend(1.0).to_array()).collect()
}
