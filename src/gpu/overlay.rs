//! Overlay lines: the skeleton (a bone from each joint's world centre to its parent's, a small cross at
//! every joint) computed on the CPU from [`pose::humanoid_from_joint`] each frame, and a ground grid on
//! `y = 0`. The skeleton is drawn on top of the skin (no depth test) so it stays visible inside it; the
//! grid is depth-tested so the figure hides it. Shader: `shaders/lines.wgsl`.

use glam::Vec3;

use super::error::{CreationScope, GpuError};
use super::layout::humanoid::linear_from_srgb3;
pub use super::layout::lines::GpuLineVertex;
use super::render_pass::{FrameUniform, depth_state};
use super::shaders;
use super::target::TargetFormats;
use crate::hanim::Humanoid;
use crate::pose::bounds::Aabb;
use crate::pose::{self, Pose};

/// Line lists (two vertices per segment) for one frame.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OverlayLines {
    /// Depth-tested: the ground grid.
    pub grid: Vec<GpuLineVertex>,
    /// Drawn on top: bones and joint crosses.
    pub skeleton: Vec<GpuLineVertex>,
}

fn vertex(p: Vec3, srgb: [f32; 3]) -> GpuLineVertex {
    let [r, g, b] = linear_from_srgb3(srgb);
    GpuLineVertex { position: p.to_array(), color: [r, g, b, 1.0] }
}

const BONE_COLOR: [f32; 3] = [1.0, 0.85, 0.2];
const JOINT_COLOR: [f32; 3] = [1.0, 0.3, 0.25];
const GRID_COLOR: [f32; 3] = [0.55, 0.55, 0.55];
const GRID_AXIS_COLOR: [f32; 3] = [0.75, 0.75, 0.75];

/// World-space joint centres of `h` at `pose`: `H·G_j·c_j`.
pub fn joint_centres(h: &Humanoid, pose: &Pose) -> Vec<Vec3> {
    let world = pose::world_from_joint(h, pose, &pose::humanoid_from_joint(h, pose));
    h.joints.iter().zip(world).map(|(joint, m)| m.transform_point3(joint.rest.center)).collect()
}

/// Appends the skeleton of `h` at `pose`: one line per bone (joint centre to parent centre) and a cross
/// of half-size `cross` at each joint.
pub fn push_skeleton(out: &mut Vec<GpuLineVertex>, h: &Humanoid, pose: &Pose, cross: f32) {
    let centres = joint_centres(h, pose);
    for (j, joint) in h.joints.iter().enumerate() {
        if let Some(parent) = joint.parent.and_then(|p| centres.get(p)) {
            out.push(vertex(*parent, BONE_COLOR));
            out.push(vertex(centres[j], BONE_COLOR));
        }
        for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
            out.push(vertex(centres[j] - axis * cross, JOINT_COLOR));
            out.push(vertex(centres[j] + axis * cross, JOINT_COLOR));
        }
    }
}

/// Appends each joint's local axes at its centre, in the joint's current global orientation (scale taken
/// out): X red, Y green, Z blue, `length` long.
pub fn push_joint_axes(out: &mut Vec<GpuLineVertex>, h: &Humanoid, pose: &Pose, length: f32) {
    let world = pose::world_from_joint(h, pose, &pose::humanoid_from_joint(h, pose));
    for (joint, m) in h.joints.iter().zip(world) {
        let centre = m.transform_point3(joint.rest.center);
        for (axis, color) in [(m.x_axis, AXIS_X_COLOR), (m.y_axis, AXIS_Y_COLOR), (m.z_axis, AXIS_Z_COLOR)] {
            let direction = axis.truncate().normalize_or_zero();
            out.push(vertex(centre, color));
            out.push(vertex(centre + direction * length, color));
        }
    }
}

const AXIS_X_COLOR: [f32; 3] = [1.0, 0.15, 0.1];
const AXIS_Y_COLOR: [f32; 3] = [0.2, 0.95, 0.2];
const AXIS_Z_COLOR: [f32; 3] = [0.25, 0.45, 1.0];
const SITE_COLOR: [f32; 3] = [0.1, 0.95, 0.95];

/// World positions of `h`'s Sites at `pose`, with their names: a Site moves with the joint that holds it
/// (`G_holder · offset · L(site)`), or with the humanoid alone ([`crate::hanim::site_joint`]).
pub fn site_positions(h: &Humanoid, pose: &Pose) -> Vec<(String, Vec3)> {
    let world = pose::world_from_joint(h, pose, &pose::humanoid_from_joint(h, pose));
    let world_from_humanoid = pose.world_from_humanoid(h);
    h.sites
        .iter()
        .map(|site| {
            let local = (site.offset * site.transform.matrix()).transform_point3(Vec3::ZERO);
            let placed = match crate::hanim::site_joint(h, site).and_then(|j| world.get(j)) {
                Some(m) => m.transform_point3(local),
                None => world_from_humanoid.transform_point3(local),
            };
            (site.name.clone(), placed)
        })
        .collect()
}

/// Appends a diamond of radius `radius` around every Site of `h` at `pose` (cyan).
pub fn push_sites(out: &mut Vec<GpuLineVertex>, h: &Humanoid, pose: &Pose, radius: f32) {
    for (_, p) in site_positions(h, pose) {
        let corners = [Vec3::X, Vec3::Y, Vec3::Z, -Vec3::X, -Vec3::Y, -Vec3::Z].map(|a| p + a * radius);
        for (a, b) in [(0, 1), (1, 3), (3, 4), (4, 0), (0, 2), (2, 3), (3, 5), (5, 0), (1, 2), (2, 4), (4, 5), (5, 1)] {
            out.push(vertex(corners[a], SITE_COLOR));
            out.push(vertex(corners[b], SITE_COLOR));
        }
    }
}

/// A "nice" grid spacing (1, 2 or 5 × 10ⁿ) for a figure of `size`: about ten cells across it.
pub fn grid_spacing(size: f32) -> f32 {
    if !(size.is_finite() && size > 0.0) {
        return 0.1;
    }
    let raw = size / 10.0;
    let power = 10f32.powf(raw.log10().floor());
    let m = raw / power;
    let nice = if m < 1.5 {
        1.0
    } else if m < 3.5 {
        2.0
    } else if m < 7.5 {
        5.0
    } else {
        10.0
    };
    nice * power
}

/// Appends a square grid on `y = 0` centred under `bounds`, reaching 1.5 × its largest extent around it,
/// with the world X and Z axes drawn brighter where they cross the grid.
pub fn push_grid(out: &mut Vec<GpuLineVertex>, bounds: &Aabb) {
    let (centre, size) =
        if bounds.is_empty() { (Vec3::ZERO, 2.0) } else { (bounds.center(), bounds.size().max_element()) };
    let step = grid_spacing(size);
    let half_cells = ((1.5 * size.max(step)) / step).ceil().clamp(1.0, 200.0) as i32;
    let cx = (centre.x / step).round() * step;
    let cz = (centre.z / step).round() * step;
    let extent = half_cells as f32 * step;
    for k in -half_cells..=half_cells {
        let offset = k as f32 * step;
        let (x, z) = (cx + offset, cz + offset);
        let color_x = if x.abs() < step * 0.01 { GRID_AXIS_COLOR } else { GRID_COLOR };
        let color_z = if z.abs() < step * 0.01 { GRID_AXIS_COLOR } else { GRID_COLOR };
        out.push(vertex(Vec3::new(x, 0.0, cz - extent), color_x));
        out.push(vertex(Vec3::new(x, 0.0, cz + extent), color_x));
        out.push(vertex(Vec3::new(cx - extent, 0.0, z), color_z));
        out.push(vertex(Vec3::new(cx + extent, 0.0, z), color_z));
    }
}

/// The line pipelines; long-lived, built for one target format.
pub struct OverlayRenderer {
    grid: wgpu::RenderPipeline,
    skeleton: wgpu::RenderPipeline,
}

impl OverlayRenderer {
    /// `frame_layout` is the humanoid renderer's group 0 ([`super::render_pass::HumanoidRenderer::frame_layout`]).
    pub fn new(
        device: &wgpu::Device,
        formats: TargetFormats,
        frame_layout: &wgpu::BindGroupLayout,
    ) -> Result<Self, GpuError> {
        let module = shaders::create_module(device, "overlay::shader", shaders::LINES)?;
        let scope = CreationScope::push(device, "overlay pipelines");
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("overlay::pipeline_layout"),
            bind_group_layouts: &[Some(frame_layout)],
            immediate_size: 0,
        });
        let attributes = wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x4];
        let buffers = [Some(wgpu::VertexBufferLayout {
            array_stride: size_of::<GpuLineVertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &attributes,
        })];
        let make = |label: &str, compare: wgpu::CompareFunction| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(&layout),
                vertex: wgpu::VertexState {
                    module: &module,
                    entry_point: Some("vs_main"),
                    compilation_options: Default::default(),
                    buffers: &buffers,
                },
                primitive: wgpu::PrimitiveState { topology: wgpu::PrimitiveTopology::LineList, ..Default::default() },
                depth_stencil: Some(depth_state(formats, false, compare)),
                multisample: wgpu::MultisampleState { count: formats.sample_count, ..Default::default() },
                fragment: Some(wgpu::FragmentState {
                    module: &module,
                    entry_point: Some("fs_main"),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::ColorTargetState {
                        format: formats.color,
                        blend: Some(wgpu::BlendState::ALPHA_BLENDING),
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        let grid = make("overlay::grid_pipeline", wgpu::CompareFunction::LessEqual);
        let skeleton = make("overlay::skeleton_pipeline", wgpu::CompareFunction::Always);
        scope.finish()?;
        Ok(Self { grid, skeleton })
    }

    /// Records the overlay of `buffers` (grid first, then the skeleton on top).
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, frame: &FrameUniform, buffers: &OverlayBuffers) {
        if buffers.grid_count + buffers.skeleton_count == 0 {
            return;
        }
        pass.push_debug_group("overlay::draw");
        pass.set_bind_group(0, &frame.bind_group, &[]);
        pass.set_vertex_buffer(0, buffers.vertices.slice(..));
        if buffers.grid_count > 0 {
            pass.set_pipeline(&self.grid);
            pass.draw(0..buffers.grid_count, 0..1);
        }
        if buffers.skeleton_count > 0 {
            pass.set_pipeline(&self.skeleton);
            pass.draw(buffers.grid_count..buffers.grid_count + buffers.skeleton_count, 0..1);
        }
        pass.pop_debug_group();
    }
}

/// The per-frame line vertices on the GPU; the buffer grows when a frame needs more.
pub struct OverlayBuffers {
    vertices: wgpu::Buffer,
    capacity: u64,
    grid_count: u32,
    skeleton_count: u32,
}

impl OverlayBuffers {
    pub fn new(device: &wgpu::Device) -> Self {
        let capacity = 1024;
        Self { vertices: Self::buffer(device, capacity), capacity, grid_count: 0, skeleton_count: 0 }
    }

    fn buffer(device: &wgpu::Device, capacity: u64) -> wgpu::Buffer {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("overlay::vertices"),
            size: capacity * size_of::<GpuLineVertex>() as u64,
            usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }

    /// Uploads this frame's lines.
    pub fn update(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, lines: &OverlayLines) {
        let total = (lines.grid.len() + lines.skeleton.len()) as u64;
        if total > self.capacity {
            self.capacity = total.next_power_of_two();
            self.vertices = Self::buffer(device, self.capacity);
        }
        queue.write_buffer(&self.vertices, 0, bytemuck::cast_slice(&lines.grid));
        let skeleton_offset = (lines.grid.len() * size_of::<GpuLineVertex>()) as u64;
        queue.write_buffer(&self.vertices, skeleton_offset, bytemuck::cast_slice(&lines.skeleton));
        self.grid_count = lines.grid.len() as u32;
        self.skeleton_count = lines.skeleton.len() as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_spacing_is_a_nice_number() {
        assert_eq!(grid_spacing(1.8), 0.2);
        assert_eq!(grid_spacing(10.0), 1.0);
        assert!((grid_spacing(0.04) - 0.005).abs() < 1e-7);
        assert_eq!(grid_spacing(0.0), 0.1);
    }

    #[test]
    fn grid_lies_on_the_ground_plane() {
        let mut bounds = Aabb::default();
        bounds.add(Vec3::new(-0.3, 0.0, -0.2));
        bounds.add(Vec3::new(0.3, 1.8, 0.2));
        let mut lines = Vec::new();
        push_grid(&mut lines, &bounds);
        assert!(!lines.is_empty() && lines.len() % 2 == 0);
        assert!(lines.iter().all(|v| v.position[1] == 0.0));
    }
}
