//! The humanoid render pass: draws a [`SkinMesh`] whose positions come from the skin pass's point
//! buffer ([`GpuSkin::points`], gathered in the vertex shader through each corner's `source_point`) and
//! whose normals come from its per-corner normal buffer ([`GpuSkin::normals`], a vertex attribute).
//!
//! Long-lived objects ([`HumanoidRenderer`]: shader, layouts, pipelines for one [`TargetFormats`]) are
//! kept apart from what changes: per view the camera uniform ([`FrameUniform`]), per humanoid the static
//! corner/index buffers and materials plus its world placement ([`MeshDraw`]). The pass renders into
//! whatever [`FrameViews`] it is given, so the window and headless share it. Shader:
//! `shaders/humanoid.wgsl`, whose structs [`super::layout::humanoid`] mirrors.

use std::sync::Arc;

use glam::{Mat4, Vec3};
use wgpu::util::DeviceExt;

use super::error::{CreationScope, GpuError};
use super::layout::humanoid::{
    GpuCornerVertex, GpuFrame, GpuMaterial, GpuPlacement, TEXTURE_MODULATE, TEXTURE_NONE, TEXTURE_REPLACE,
};
pub use super::mesh_draw::{Instancing, MeshDraw};
use super::mesh_draw::{NO_RIGID_OVERLAY, PartDraw, corner_vertex_data, initial_placements, normal_data, point_data};
use super::shaders;
use super::skin_pass::{GpuSkin, SkinPipelines};
use super::target::{FrameViews, TargetFormats};
use super::textures::{GpuTexture, TextureCache};
use crate::mesh::{RenderMesh, SkinMesh, Topology};

/// The camera uniform of one view: created once, written every frame.
pub struct FrameUniform {
    pub buffer: wgpu::Buffer,
    pub bind_group: wgpu::BindGroup,
}

impl FrameUniform {
    pub fn write(&self, queue: &wgpu::Queue, frame: &GpuFrame) {
        queue.write_buffer(&self.buffer, 0, bytemuck::bytes_of(frame));
    }
}

/// Pipeline variants: triangles with back faces culled or drawn (two-sided), lines or points; opaque
/// or alpha-blended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Variant {
    pub(super) topology: Topology,
    two_sided: bool,
    pub(super) blended: bool,
}

impl Variant {
    /// Lines and points have no back faces: they always use the two-sided pipelines.
    fn new(topology: Topology, two_sided: bool, blended: bool) -> Self {
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
struct Pipelines {
    materials: wgpu::RenderPipeline,
    overlay: wgpu::RenderPipeline,
}

/// Shader, bind group layouts and pipelines for one target format; long-lived.
pub struct HumanoidRenderer {
    pub formats: TargetFormats,
    frame_layout: wgpu::BindGroupLayout,
    placement_layout: wgpu::BindGroupLayout,
    material_layout: wgpu::BindGroupLayout,
    /// One per [`Variant::all`]: drawing the materials, and drawing with the skin overlay's values.
    pipelines: Vec<(Variant, Pipelines)>,
    /// Bound as the per-point overlay values of draws that have none (rigid shapes).
    no_overlay_values: wgpu::Buffer,
    /// The skin/morph kernels, compiled once and shared by every humanoid drawn with these pipelines.
    skin_pipelines: Arc<SkinPipelines>,
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
        let material_layout = super::material_bindings::layout(device);
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

    /// The layout of a draw's placement bind group (group 1) and the placeholder overlay values rigid
    /// draws bind in it: what a draw whose buffers events grow rebuilds its bind group with.
    pub(super) fn placement_binding(&self) -> (&wgpu::BindGroupLayout, &wgpu::Buffer) {
        (&self.placement_layout, &self.no_overlay_values)
    }

    /// The skin/morph kernels every humanoid drawn with these pipelines shares.
    pub fn skin_pipelines(&self) -> Arc<SkinPipelines> {
        Arc::clone(&self.skin_pipelines)
    }

    /// The per-view bind group layout (group 0), shared with the overlay.
    pub fn frame_layout(&self) -> &wgpu::BindGroupLayout {
        &self.frame_layout
    }

    /// A camera uniform for one view.
    pub fn create_frame(&self, device: &wgpu::Device) -> FrameUniform {
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("humanoid::frame_uniform"),
            size: size_of::<GpuFrame>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("humanoid::frame_bind_group"),
            layout: &self.frame_layout,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: buffer.as_entire_binding() }],
        });
        FrameUniform { buffer, bind_group }
    }

    /// Uploads the static draw data of one humanoid's skin mesh, bound to that humanoid's `skin` buffers.
    /// `mesh`'s concatenated corners must be the corners `skin` was created with; `rest_points` (the skin
    /// points at rest) place each part for transparency sorting; `textures` holds the parts' textures
    /// (loaded before, see [`TextureCache::load`]).
    pub fn create_mesh(
        &self,
        device: &wgpu::Device,
        mesh: &SkinMesh,
        skin: &GpuSkin,
        rest_points: &[Vec3],
        textures: &TextureCache,
    ) -> Result<MeshDraw, GpuError> {
        let corner_count = mesh.corner_count();
        if corner_count as u32 != skin.corner_count {
            return Err(GpuError::Validation {
                context: "humanoid::create_mesh".into(),
                message: format!("the mesh has {corner_count} corners but the skin pass skins {}", skin.corner_count),
            });
        }
        let sources = Sources {
            first_point: 0,
            points: &skin.points,
            overlay_values: &skin.overlay_values,
            rest_points,
            textures,
            instancing: Instancing {
                count: skin.instances,
                point_stride: skin.point_count,
                corner_stride: skin.corner_count,
            },
        };
        self.build_draw(device, &mesh.parts, &mesh.corner_offsets(), sources, skin.normals.clone())
    }

    /// Uploads one rigid shape (segment, joint or site geometry, see [`crate::mesh::rigid_shapes`]): its
    /// corners index `points` from `first_point` on (a static buffer of its rest points, or the skin
    /// pass's [`GpuSkin::segment_points`] for a morphing segment), in the Shape's own frame. Each frame
    /// the caller places it with [`MeshDraw::set_world_from_humanoid`]`(H · G_j · offset)`; the vertices
    /// are never touched on the CPU.
    /// `rest_points` (what `points` holds at rest) place the shape for transparency sorting.
    /// `instancing` says how many instances the draw has and, for a morphing segment, how far apart
    /// their points lie (the corner stride is ignored: every instance shares the static normals).
    #[allow(clippy::too_many_arguments)]
    pub fn create_rigid_mesh(
        &self,
        device: &wgpu::Device,
        mesh: &RenderMesh,
        points: &wgpu::Buffer,
        first_point: u32,
        rest_points: &[Vec3],
        textures: &TextureCache,
        instancing: Instancing,
    ) -> Result<MeshDraw, GpuError> {
        let mut normals = normal_data(mesh);
        if normals.is_empty() {
            normals.push([0.0; 4]);
        }
        let normals = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("humanoid::rigid_normals"),
            contents: bytemuck::cast_slice(&normals),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let instancing = Instancing { corner_stride: 0, ..instancing };
        let overlay_values = &self.no_overlay_values;
        let sources = Sources { first_point, points, overlay_values, rest_points, textures, instancing };
        self.build_draw(device, std::slice::from_ref(mesh), &[0], sources, normals)
    }

    /// A static storage buffer of points (one vec4 each) for [`Self::create_rigid_mesh`].
    pub fn create_points(&self, device: &wgpu::Device, points: &[Vec3]) -> wgpu::Buffer {
        let mut data = point_data(points);
        if data.is_empty() {
            data.push([0.0; 4]);
        }
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("humanoid::rigid_points"),
            contents: bytemuck::cast_slice(&data),
            usage: wgpu::BufferUsages::STORAGE,
        })
    }

    pub(super) fn build_draw(
        &self,
        device: &wgpu::Device,
        meshes: &[RenderMesh],
        corner_offsets: &[u32],
        sources: Sources<'_>,
        normals: wgpu::Buffer,
    ) -> Result<MeshDraw, GpuError> {
        let Sources { first_point, points, overlay_values, rest_points, textures, instancing } = sources;
        let corner_count: usize = meshes.iter().map(RenderMesh::corner_count).sum();
        let scope = CreationScope::push(device, "humanoid mesh buffers");
        let mut vertices = Vec::with_capacity(corner_count.max(1));
        let mut indices = Vec::new();
        let mut parts = Vec::new();
        for (part, &offset) in meshes.iter().zip(corner_offsets) {
            vertices.extend(corner_vertex_data(part, first_point));
            let start = indices.len() as u32;
            indices.extend(part.indices.iter().map(|&i| i + offset));
            let bound = super::material_bindings::PartTextures::of(part, textures);
            let texture: Option<&GpuTexture> = bound.base;
            let texture_mode = match texture {
                None => TEXTURE_NONE,
                Some(t) if t.intensity => TEXTURE_MODULATE,
                Some(_) => TEXTURE_REPLACE,
            };
            let material = GpuMaterial::from_params(
                &part.material,
                part.texture_transform,
                part.vertex_colors,
                part.two_sided,
                texture_mode,
                bound.bits(),
            );
            let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("humanoid::material"),
                contents: bytemuck::bytes_of(&material),
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            });
            let bind_group =
                super::material_bindings::bind_group(device, &self.material_layout, &buffer, &bound, &textures.white);
            let see_through = part.colors.iter().any(|c| c[3] < 1.0) || texture.is_some_and(|t| t.has_alpha);
            let blended = material.diffuse[3] < 1.0 || see_through;
            parts.push(PartDraw {
                indices: start..indices.len() as u32,
                bind_group,
                variant: Variant::new(part.topology, part.two_sided, blended),
                centre: part_centre(part, rest_points),
                appearance: super::appearance_events::PartAppearance {
                    shape: part.shape,
                    material: part.material,
                    texture_transform: part.texture_transform,
                    vertex_colors: part.vertex_colors,
                    two_sided: part.two_sided,
                    texture_mode,
                    maps: bound.bits(),
                    see_through,
                },
                material_buffer: buffer,
                written: material,
            });
        }
        if vertices.is_empty() {
            vertices.push(<GpuCornerVertex as bytemuck::Zeroable>::zeroed());
        }
        if indices.is_empty() {
            indices.push(0);
        }
        let corner_vertices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("humanoid::corner_vertices"),
            contents: bytemuck::cast_slice(&vertices),
            usage: wgpu::BufferUsages::VERTEX,
        });
        let index_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("humanoid::indices"),
            contents: bytemuck::cast_slice(&indices),
            usage: wgpu::BufferUsages::INDEX,
        });
        let placement = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("humanoid::placements"),
            contents: bytemuck::cast_slice(&initial_placements(instancing, Mat4::IDENTITY)),
            usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        });
        let placement_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("humanoid::placement_bind_group"),
            layout: &self.placement_layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 1, resource: points.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 2, resource: overlay_values.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 3, resource: normals.as_entire_binding() },
            ],
        });
        let draw = MeshDraw {
            corner_vertices,
            indices: index_buffer,
            placement,
            placement_group,
            parts,
            instancing,
            world_from_humanoid: vec![Mat4::IDENTITY; instancing.count as usize],
            shown: 0..instancing.count,
            rigid_overlay: NO_RIGID_OVERLAY,
            geometry: None,
        };
        scope.finish()?;
        Ok(draw)
    }

    fn pipeline(&self, variant: Variant, skin_overlay: bool) -> &wgpu::RenderPipeline {
        let pipelines = &self.pipelines.iter().find(|(v, _)| *v == variant).expect("every variant has a pipeline").1;
        if skin_overlay { &pipelines.overlay } else { &pipelines.materials }
    }

    /// Records the draws of `meshes` into `pass`: every opaque part first (each one draw for all its
    /// instances), then the blended ones from back to front (by the distance of each part's centre from
    /// `eye`, the camera position in world space, instance by instance), so that transparent shapes show
    /// what lies behind them. `skin_overlay`: a skin overlay mode is on (the frame uniform's `model.z`).
    pub fn draw(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        frame: &FrameUniform,
        meshes: &[&MeshDraw],
        eye: Vec3,
        skin_overlay: bool,
    ) {
        pass.push_debug_group("humanoid::draw");
        pass.set_bind_group(0, &frame.bind_group, &[]);
        let bind_mesh = |pass: &mut wgpu::RenderPass<'_>, mesh: &MeshDraw| {
            pass.set_bind_group(1, &mesh.placement_group, &[]);
            pass.set_vertex_buffer(0, mesh.corner_vertices.slice(..));
            pass.set_vertex_buffer(1, mesh.placement.slice(..));
            pass.set_index_buffer(mesh.indices.slice(..), wgpu::IndexFormat::Uint32);
        };
        let mut blended = Vec::new();
        for (m, mesh) in meshes.iter().enumerate() {
            for (p, part) in mesh.parts.iter().enumerate().filter(|(_, p)| p.variant.blended && !p.indices.is_empty()) {
                let shown = mesh.shown_instances();
                for (k, world_from_humanoid) in mesh.instance_placements().iter().enumerate() {
                    if !shown.contains(&(k as u32)) {
                        continue;
                    }
                    let distance = world_from_humanoid.transform_point3(part.centre).distance_squared(eye);
                    blended.push((distance, m, p, k as u32));
                }
            }
            if mesh.shown_instances().is_empty()
                || !mesh.parts.iter().any(|p| !p.variant.blended && !p.indices.is_empty())
            {
                continue;
            }
            bind_mesh(pass, mesh);
            for part in mesh.parts.iter().filter(|p| !p.variant.blended && !p.indices.is_empty()) {
                pass.set_pipeline(self.pipeline(part.variant, skin_overlay));
                pass.set_bind_group(2, &part.bind_group, &[]);
                pass.draw_indexed(part.indices.clone(), 0, mesh.shown_instances());
            }
        }
        blended.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut bound: Option<usize> = None;
        for (_, m, p, k) in blended {
            if bound != Some(m) {
                bind_mesh(pass, meshes[m]);
                bound = Some(m);
            }
            let part = &meshes[m].parts[p];
            pass.set_pipeline(self.pipeline(part.variant, skin_overlay));
            pass.set_bind_group(2, &part.bind_group, &[]);
            pass.draw_indexed(part.indices.clone(), 0, k..k + 1);
        }
        pass.pop_debug_group();
    }
}

/// Where the vertices of a draw come from.
pub(super) struct Sources<'a> {
    /// Added to every corner's `source_point`.
    pub(super) first_point: u32,
    pub(super) points: &'a wgpu::Buffer,
    /// Per-point skin overlay values (indexed like `points`).
    pub(super) overlay_values: &'a wgpu::Buffer,
    /// What `points` holds at rest, from `first_point` on.
    pub(super) rest_points: &'a [Vec3],
    pub(super) textures: &'a TextureCache,
    pub(super) instancing: Instancing,
}

/// The middle of the bounding box of the points a part draws (zero when unknown).
pub(super) fn part_centre(part: &RenderMesh, rest_points: &[Vec3]) -> Vec3 {
    let mut lo = Vec3::splat(f32::MAX);
    let mut hi = Vec3::splat(f32::MIN);
    for &i in &part.source_point {
        if let Some(&p) = rest_points.get(i as usize) {
            lo = lo.min(p);
            hi = hi.max(p);
        }
    }
    if lo.x <= hi.x { (lo + hi) * 0.5 } else { Vec3::ZERO }
}

/// Begins the scene pass on `views`: colour cleared to `clear` (linear), depth cleared to 1, drawing
/// confined to `views.region` when there is one.
pub fn begin_scene_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    views: FrameViews<'_>,
    clear: wgpu::Color,
) -> wgpu::RenderPass<'e> {
    let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("scene::pass"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: views.color,
            depth_slice: None,
            resolve_target: views.resolve,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(clear),
                // The multisampled image is only needed until it is resolved.
                store: if views.resolve.is_some() { wgpu::StoreOp::Discard } else { wgpu::StoreOp::Store },
            },
        })],
        depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
            view: views.depth,
            depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(1.0), store: wgpu::StoreOp::Discard }),
            stencil_ops: None,
        }),
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    });
    if let Some(r) = views.region {
        pass.set_viewport(r.x as f32, r.y as f32, r.width as f32, r.height as f32, 0.0, 1.0);
        pass.set_scissor_rect(r.x, r.y, r.width, r.height);
    }
    pass
}
