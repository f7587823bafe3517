//! The render pass's pipelines and the bind group and vertex layouts they share. Each [`Variant`]
//! (topology, culling, blending) has one pipeline drawing the skin overlay, made up front, and one
//! pipeline per [`Shading`] drawing materials, made the first time a part with that shading is drawn:
//! the fragment stage is specialised by pipeline constants, so that it holds only the code its material
//! runs (see `shaders/humanoid.wgsl`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::{DrawLook, HumanoidRenderer};
use crate::gpu::error::{CreationScope, GpuError};
use crate::gpu::layout::humanoid::{GpuCornerVertex, GpuFrame, GpuMaterial, GpuPlacement};
use crate::gpu::shaders;
use crate::gpu::skin_pass::SkinPipelines;
use crate::gpu::target::TargetFormats;
use crate::mesh::Topology;

/// Pipeline variants: triangles with back faces culled or drawn (two-sided), lines or points; opaque
/// or alpha-blended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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

/// What a part's fragment stage runs: the shader's pipeline constants, read from its material uniform
/// (the `flags` and `model` it was written with) and the frame's look.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(in crate::gpu) struct Shading {
    pub(in crate::gpu) lit: bool,
    pub(in crate::gpu) physical: bool,
    pub(in crate::gpu) vertex_colors: bool,
    /// 0 no texture, 1 RGB(A), 2 intensity.
    pub(in crate::gpu) texture_mode: u32,
    /// The material maps bound (`MAP_*` bits).
    pub(in crate::gpu) maps: u32,
    /// The standard model (false: the studio look).
    pub(in crate::gpu) standard: bool,
    /// The scene's lights: their count and kinds (see [`DrawLook::lights`]).
    pub(in crate::gpu) lights: u32,
    /// The draw's scoped lights (see [`crate::gpu::scoped_lights::ScopedLights`]).
    pub(in crate::gpu) scoped_lights: u32,
}

impl Shading {
    pub(in crate::gpu) fn of(material: &GpuMaterial, look: DrawLook, scoped_lights: u32) -> Self {
        Self {
            lit: material.flags[0] != 0,
            physical: material.model[0] != 0,
            vertex_colors: material.flags[1] != 0,
            texture_mode: material.flags[3],
            maps: material.model[1],
            standard: look.standard,
            lights: look.lights,
            scoped_lights,
        }
    }

    /// The values of the shader's `override` declarations.
    fn constants(self) -> [(&'static str, f64); 8] {
        let flag = |b: bool| if b { 1.0 } else { 0.0 };
        [
            ("LIT", flag(self.lit)),
            ("PHYSICAL", flag(self.physical)),
            ("VERTEX_COLORS", flag(self.vertex_colors)),
            ("TEXTURE_MODE", f64::from(self.texture_mode)),
            ("MAPS", f64::from(self.maps)),
            ("STANDARD", flag(self.standard)),
            ("LIGHTS", f64::from(self.lights)),
            ("SCOPED_LIGHTS", f64::from(self.scoped_lights)),
        ]
    }
}

/// The fragment stage a pipeline runs.
#[derive(Debug, Clone, Copy)]
enum Fragment {
    /// A material, specialised to its shading.
    Material(Shading),
    /// The skin overlay's flat colours (with the overlay's vertex stage).
    Overlay,
}

/// What the pipelines are made from, kept so that a material pipeline can be made when first needed.
pub(super) struct PipelineFactory {
    device: wgpu::Device,
    module: wgpu::ShaderModule,
    layout: wgpu::PipelineLayout,
    formats: TargetFormats,
    /// One per [`Variant::all`], made up front.
    overlay: Vec<(Variant, wgpu::RenderPipeline)>,
    /// Made the first time a part with that variant and shading is drawn.
    materials: Mutex<HashMap<(Variant, Shading), wgpu::RenderPipeline>>,
}

impl PipelineFactory {
    /// The pipeline drawing a part: its material's, or the skin overlay's while one is shown.
    pub(super) fn pipeline(&self, variant: Variant, shading: Shading, skin_overlay: bool) -> wgpu::RenderPipeline {
        if skin_overlay {
            return self.overlay.iter().find(|(v, _)| *v == variant).expect("every variant has a pipeline").1.clone();
        }
        let mut materials = self.materials.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        materials
            .entry((variant, shading))
            .or_insert_with(|| {
                create_pipeline(
                    &self.device,
                    &self.module,
                    &self.layout,
                    self.formats,
                    variant,
                    Fragment::Material(shading),
                )
            })
            .clone()
    }
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

/// The per-corner vertex attributes (`CornerIn`, locations 1–3).
const CORNER_ATTRIBUTES: [wgpu::VertexAttribute; 3] = [
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

fn create_pipeline(
    device: &wgpu::Device,
    module: &wgpu::ShaderModule,
    layout: &wgpu::PipelineLayout,
    formats: TargetFormats,
    variant: Variant,
    fragment: Fragment,
) -> wgpu::RenderPipeline {
    // One placement per instance (`MeshDraw::set_instance_placements`), read as instance-rate vertex
    // attributes: a software rasteriser fetches those once per instance, where a storage buffer indexed
    // by the instance was gathered again for every vertex (the larger part of a crowd's vertex stage on
    // llvmpipe).
    let placement_attributes = placement_attributes();
    let buffers = [
        Some(wgpu::VertexBufferLayout {
            array_stride: size_of::<GpuCornerVertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &CORNER_ATTRIBUTES,
        }),
        Some(wgpu::VertexBufferLayout {
            array_stride: size_of::<GpuPlacement>() as u64,
            step_mode: wgpu::VertexStepMode::Instance,
            attributes: &placement_attributes,
        }),
    ];
    let overlay = matches!(fragment, Fragment::Overlay);
    let label = format!(
        "humanoid::pipeline_{:?}{}{}{}",
        variant.topology,
        if variant.blended { "_blended" } else { "_opaque" },
        if variant.two_sided { "_two_sided" } else { "" },
        match fragment {
            Fragment::Overlay => "_overlay".to_string(),
            Fragment::Material(shading) => format!("_{shading:?}"),
        }
    );
    // Lines and points are nudged toward the viewer (see `vs_lines`) and pass on equal depth.
    let vertex_entry = match (variant.topology == Topology::Triangles, overlay) {
        (true, false) => "vs_main",
        (true, true) => "vs_main_overlay",
        (false, false) => "vs_lines",
        (false, true) => "vs_lines_overlay",
    };
    let (fragment_entry, constants) = match fragment {
        Fragment::Material(shading) => ("fs_main", shading.constants().to_vec()),
        Fragment::Overlay => ("fs_overlay", Vec::new()),
    };
    let topology = match variant.topology {
        Topology::Triangles => wgpu::PrimitiveTopology::TriangleList,
        Topology::Lines => wgpu::PrimitiveTopology::LineList,
        Topology::Points => wgpu::PrimitiveTopology::PointList,
    };
    let compare = if variant.topology == Topology::Triangles {
        wgpu::CompareFunction::Less
    } else {
        wgpu::CompareFunction::LessEqual
    };
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(&label),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module,
            entry_point: Some(vertex_entry),
            compilation_options: Default::default(),
            buffers: &buffers,
        },
        primitive: wgpu::PrimitiveState {
            topology,
            front_face: wgpu::FrontFace::Ccw,
            cull_mode: if variant.two_sided { None } else { Some(wgpu::Face::Back) },
            ..Default::default()
        },
        depth_stencil: Some(depth_state(formats, !variant.blended, compare)),
        multisample: wgpu::MultisampleState { count: formats.sample_count, ..Default::default() },
        fragment: Some(wgpu::FragmentState {
            module,
            entry_point: Some(fragment_entry),
            compilation_options: wgpu::PipelineCompilationOptions { constants: &constants, ..Default::default() },
            targets: &[Some(wgpu::ColorTargetState {
                format: formats.color,
                blend: variant.blended.then_some(wgpu::BlendState::ALPHA_BLENDING),
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    })
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
        let scoped_layout = crate::gpu::scoped_lights::layout(device);
        let no_scoped_lights = crate::gpu::scoped_lights::ScopedLights::none(device, &scoped_layout);
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("humanoid::pipeline_layout"),
            bind_group_layouts: &[
                Some(&frame_layout),
                Some(&placement_layout),
                Some(&material_layout),
                Some(&scoped_layout),
            ],
            immediate_size: 0,
        });
        let overlay = Variant::all()
            .into_iter()
            .map(|v| (v, create_pipeline(device, &module, &layout, formats, v, Fragment::Overlay)))
            .collect();
        // The shading every humanoid without textures or lights of its own draws with, made now so that
        // a broken shader is an error here rather than at the first frame.
        let plain = Shading {
            lit: true,
            physical: false,
            vertex_colors: false,
            texture_mode: 0,
            maps: 0,
            standard: true,
            lights: 0,
            scoped_lights: 0,
        };
        let mut materials = HashMap::new();
        for variant in [Variant::new(Topology::Triangles, false, false), Variant::new(Topology::Lines, true, false)] {
            let shading = Shading { lit: variant.topology == Topology::Triangles, ..plain };
            let pipeline = create_pipeline(device, &module, &layout, formats, variant, Fragment::Material(shading));
            materials.insert((variant, shading), pipeline);
        }
        scope.finish()?;
        let skin_pipelines = Arc::new(SkinPipelines::new(device)?);
        Ok(Self {
            formats,
            frame_layout,
            placement_layout,
            material_layout,
            pipelines: PipelineFactory {
                device: device.clone(),
                module,
                layout,
                formats,
                overlay,
                materials: Mutex::new(materials),
            },
            no_overlay_values,
            scoped_layout,
            no_scoped_lights,
            skin_pipelines,
        })
    }
}
