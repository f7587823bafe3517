//! The render pass's pipelines: one per [`Variant`] (topology, culling, blending), each with and without
//! the skin overlay's vertex stage, and the bind group and vertex layouts they share.

use std::sync::Arc;

use super::HumanoidRenderer;
use crate::gpu::error::{CreationScope, GpuError};
use crate::gpu::layout::humanoid::{GpuCornerVertex, GpuFrame, GpuPlacement};
use crate::gpu::shaders;
use crate::gpu::skin_pass::SkinPipelines;
use crate::gpu::target::TargetFormats;
use crate::mesh::Topology;

/// Pipeline variants: triangles with back faces culled or drawn (two-sided), lines or points; opaque
/// or alpha-blended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::gpu) struct Variant {
    pub(in crate::gpu) topology: Topology,
    pub(super) two_sided: bool,
    pub(in crate::gpu) blended: bool,
}

impl Variant {
    /// Lines and points have no back faces: they always use the two-sided pipelines.
    pub(super) fn new(topology: Topology, two_sided: bool, blended: bool) -> Self {
        Self { topology, two_sided: two_sided || topology != Topology::Triangles, blended }
    }

    fn all() -> Vec<Variant> {
        let mut all = Vec::new();
        for topology in [Topology::Triangles, Topology::Lines, Topology::Points] {
            for blended in [false, true] {
                for two_sided in [false, true] {
                    if two_sided || topology == Topology::Triangles {
                        all.push(Variant { topology, two_sided, blended });
                    }
                }
            }
        }
        all
    }
}

/// The two pipelines of a [`Variant`]: the vertex stage with and without the skin overlay's values.
pub(super) struct Pipelines {
    pub(super) materials: wgpu::RenderPipeline,
    pub(super) overlay: wgpu::RenderPipeline,
}

pub(crate) fn uniform_entry(binding: u32, visibility: wgpu::ShaderStages, size: usize) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: wgpu::BufferSize::new(size as u64),
        },
        count: None,
    }
}

/// A read-only storage buffer the vertex stage reads (at least `min_size` bytes: one element).
fn vertex_storage_entry(binding: u32, min_size: u64) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::VERTEX,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only: true },
            has_dynamic_offset: false,
            min_binding_size: wgpu::BufferSize::new(min_size),
        },
        count: None,
    }
}

/// [`GpuPlacement`]'s fields as the vertex shader's instance attributes (`PlacementIn`, locations 4–12).
pub(crate) fn placement_attributes() -> [wgpu::VertexAttribute; 9] {
    use std::mem::offset_of;
    let f4 = wgpu::VertexFormat::Float32x4;
    let column = |base: usize, k: usize, location: u32| wgpu::VertexAttribute {
        format: f4,
        offset: (base + 16 * k) as u64,
        shader_location: location,
    };
    let world = offset_of!(GpuPlacement, world_from_humanoid);
    let normal = offset_of!(GpuPlacement, normal_from_humanoid);
    [
        column(world, 0, 4),
        column(world, 1, 5),
        column(world, 2, 6),
        column(world, 3, 7),
        column(normal, 0, 8),
        column(normal, 1, 9),
        column(normal, 2, 10),
        wgpu::VertexAttribute { format: f4, offset: offset_of!(GpuPlacement, overlay) as u64, shader_location: 11 },
        wgpu::VertexAttribute {
            format: wgpu::VertexFormat::Uint32x4,
            offset: offset_of!(GpuPlacement, first) as u64,
            shader_location: 12,
        },
    ]
}

/// Depth state of the scene passes (shared with the overlay).
pub(crate) fn depth_state(
    formats: TargetFormats,
    write: bool,
    compare: wgpu::CompareFunction,
) -> wgpu::DepthStencilState {
    wgpu::DepthStencilState {
        format: formats.depth,
        depth_write_enabled: Some(write),
        depth_compare: Some(compare),
        stencil: wgpu::StencilState::default(),
        bias: wgpu::DepthBiasState::default(),
    }
}

impl HumanoidRenderer {
    pub fn new(device: &wgpu::Device, formats: TargetFormats) -> Result<Self, GpuError> {
        let module = shaders::create_module(device, "humanoid::shader", shaders::HUMANOID)?;
        let scope = CreationScope::push(device, "humanoid pipelines");
        let stages = wgpu::ShaderStages::VERTEX | wgpu::ShaderStages::FRAGMENT;
        let frame_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("humanoid::frame_layout"),
            entries: &[uniform_entry(0, stages, size_of::<GpuFrame>())],
        });
        let placement_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("humanoid::placement_layout"),
            entries: &[
                vertex_storage_entry(1, 16),
                // The skin overlay's per-point values (`GpuSkin::overlay_values`; a placeholder for
                // draws that take theirs from the placement).
                vertex_storage_entry(2, 16),
                // Per-corner normals (`GpuSkin::normals`, or a rigid shape's static ones).
                vertex_storage_entry(3, 16),
            ],
        });
        let no_overlay_values = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("humanoid::no_overlay_values"),
            size: 16,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let material_layout = crate::gpu::material_bindings::layout(device);
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("humanoid::pipeline_layout"),
            bind_group_layouts: &[Some(&frame_layout), Some(&placement_layout), Some(&material_layout)],
            immediate_size: 0,
        });
        let corner_attributes = [
            wgpu::VertexAttribute {
                format: wgpu::VertexFormat::Uint32,
                offset: std::mem::offset_of!(GpuCornerVertex, source_point) as u64,
                shader_location: 1,
            },
            wgpu::VertexAttribute {
                format: wgpu::VertexFormat::Float32x4,
                offset: std::mem::offset_of!(GpuCornerVertex, color) as u64,
                shader_location: 2,
            },
            wgpu::VertexAttribute {
                format: wgpu::VertexFormat::Float32x2,
                offset: std::mem::offset_of!(GpuCornerVertex, uv) as u64,
                shader_location: 3,
            },
        ];
        // One placement per instance (`MeshDraw::set_instance_placements`), read as instance-rate vertex
        // attributes: a software rasteriser fetches those once per instance, where a storage buffer indexed
        // by the instance was gathered again for every vertex (the larger part of a crowd's vertex stage on
        // llvmpipe).
        let placement_attributes = placement_attributes();
        let buffers = [
            Some(wgpu::VertexBufferLayout {
                array_stride: size_of::<GpuCornerVertex>() as u64,
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &corner_attributes,
            }),
            Some(wgpu::VertexBufferLayout {
                array_stride: size_of::<GpuPlacement>() as u64,
                step_mode: wgpu::VertexStepMode::Instance,
                attributes: &placement_attributes,
            }),
        ];
        let make = |variant: Variant, overlay: bool| {
            let label = format!(
                "humanoid::pipeline_{:?}{}{}{}",
                variant.topology,
                if variant.blended { "_blended" } else { "_opaque" },
                if variant.two_sided { "_two_sided" } else { "" },
                if overlay { "_overlay" } else { "" }
            );
            let entry_point = match (variant.topology == Topology::Triangles, overlay) {
                (true, false) => "vs_main",
                (true, true) => "vs_main_overlay",
                (false, false) => "vs_lines",
                (false, true) => "vs_lines_overlay",
            };
            let topology = match variant.topology {
                Topology::Triangles => wgpu::PrimitiveTopology::TriangleList,
                Topology::Lines => wgpu::PrimitiveTopology::LineList,
                Topology::Points => wgpu::PrimitiveTopology::PointList,
            };
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(&label),
                layout: Some(&layout),
                vertex: wgpu::VertexState {
                    module: &module,
                    // Lines and points are nudged toward the viewer (see `vs_lines`) and pass on equal depth.
                    entry_point: Some(entry_point),
                    compilation_options: Default::default(),
                    buffers: &buffers,
                },
                primitive: wgpu::PrimitiveState {
                    topology,
                    front_face: wgpu::FrontFace::Ccw,
                    cull_mode: if variant.two_sided { None } else { Some(wgpu::Face::Back) },
                    ..Default::default()
                },
                depth_stencil: Some(depth_state(
                    formats,
                    !variant.blended,
                    if variant.topology == Topology::Triangles {
                        wgpu::CompareFunction::Less
                    } else {
                        wgpu::CompareFunction::LessEqual
                    },
                )),
                multisample: wgpu::MultisampleState { count: formats.sample_count, ..Default::default() },
                fragment: Some(wgpu::FragmentState {
                    module: &module,
                    entry_point: Some("fs_main"),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::ColorTargetState {
                        format: formats.color,
                        blend: variant.blended.then_some(wgpu::BlendState::ALPHA_BLENDING),
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        let pipelines = Variant::all()
            .into_iter()
            .map(|v| (v, Pipelines { materials: make(v, false), overlay: make(v, true) }))
            .collect();
        scope.finish()?;
        let skin_pipelines = Arc::new(SkinPipelines::new(device)?);
        Ok(Self {
            formats,
            frame_layout,
            placement_layout,
            material_layout,
            pipelines,
            no_overlay_values,
            skin_pipelines,
        })
    }
}
