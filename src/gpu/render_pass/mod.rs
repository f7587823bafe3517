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
    GpuCornerVertex, GpuFrame, GpuMaterial, TEXTURE_MODULATE, TEXTURE_NONE, TEXTURE_REPLACE,
};
pub use super::mesh_draw::{Instancing, MeshDraw};
use super::mesh_draw::{NO_RIGID_OVERLAY, PartDraw, corner_vertex_data, initial_placements, normal_data, point_data};
use super::skin_pass::{GpuSkin, SkinPipelines};
use super::target::{FrameViews, TargetFormats};
use super::textures::{GpuTexture, TextureCache};
use crate::mesh::{RenderMesh, SkinMesh};
use pipelines::PipelineFactory;
pub(super) use pipelines::{Shading, Variant};
pub(crate) use pipelines::{depth_state, uniform_entry};

pub(crate) mod pipelines;

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

/// Shader, bind group layouts and pipelines for one target format; long-lived.
pub struct HumanoidRenderer {
    pub formats: TargetFormats,
    frame_layout: wgpu::BindGroupLayout,
    placement_layout: wgpu::BindGroupLayout,
    material_layout: wgpu::BindGroupLayout,
    /// The skin overlay's pipelines and the materials' (made as shadings are first drawn).
    pipelines: PipelineFactory,
    /// Bound as the per-point overlay values of draws that have none (rigid shapes).
    no_overlay_values: wgpu::Buffer,
    /// Group 3: the layout of a draw's scoped lights, and the empty list draws without any bind.
    scoped_layout: wgpu::BindGroupLayout,
    no_scoped_lights: wgpu::BindGroup,
    /// The skin/morph kernels, compiled once and shared by every humanoid drawn with these pipelines.
    skin_pipelines: Arc<SkinPipelines>,
}

impl HumanoidRenderer {
    /// The layout of a draw's placement bind group (group 1) and the placeholder overlay values rigid
    /// draws bind in it: what a draw whose buffers events grow rebuilds its bind group with.
    pub(super) fn placement_binding(&self) -> (&wgpu::BindGroupLayout, &wgpu::Buffer) {
        (&self.placement_layout, &self.no_overlay_values)
    }

    /// Gives `draw` the lights that reach only some of its instances: `lists[k]` those of instance k
    /// (lights beyond the first [`super::layout::humanoid::MAX_SCENE_LIGHTS`] of a list are not drawn).
    pub fn set_scoped_lights(
        &self,
        device: &wgpu::Device,
        draw: &mut MeshDraw,
        lists: &[Vec<&crate::hanim::SceneLight>],
    ) {
        draw.scoped = super::scoped_lights::ScopedLights::new(device, &self.scoped_layout, lists);
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
            scoped: None,
        };
        scope.finish()?;
        Ok(draw)
    }

    /// Records the draws of `meshes` into `pass`: every opaque part first (each one draw for all its
    /// instances), then the blended ones from back to front (by the distance of each part's centre from
    /// `eye`, the camera position in world space, instance by instance), so that transparent shapes show
    /// what lies behind them. `look`: the frame's model and overlay (the frame uniform's `model`).
    pub fn draw(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        frame: &FrameUniform,
        meshes: &[&MeshDraw],
        eye: Vec3,
        look: DrawLook,
    ) {
        let pipeline = |mesh: &MeshDraw, part: &PartDraw| {
            let scoped = mesh.scoped.as_ref().map_or(0, |s| s.code);
            self.pipelines.pipeline(part.variant, Shading::of(&part.written, look, scoped), look.skin_overlay)
        };
        pass.push_debug_group("humanoid::draw");
        pass.set_bind_group(0, &frame.bind_group, &[]);
        let bind_mesh = |pass: &mut wgpu::RenderPass<'_>, mesh: &MeshDraw| {
            pass.set_bind_group(1, &mesh.placement_group, &[]);
            pass.set_vertex_buffer(0, mesh.corner_vertices.slice(..));
            pass.set_vertex_buffer(1, mesh.placement.slice(..));
            pass.set_index_buffer(mesh.indices.slice(..), wgpu::IndexFormat::Uint32);
            pass.set_bind_group(3, mesh.scoped.as_ref().map_or(&self.no_scoped_lights, |s| &s.group), &[]);
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
                pass.set_pipeline(&pipeline(mesh, part));
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
            pass.set_pipeline(&pipeline(meshes[m], part));
            pass.set_bind_group(2, &part.bind_group, &[]);
            pass.draw_indexed(part.indices.clone(), 0, k..k + 1);
        }
        pass.pop_debug_group();
    }
}

/// What the frame uniform says about how parts are drawn, which picks their pipelines.
#[derive(Debug, Clone, Copy)]
pub struct DrawLook {
    /// The standard model (`model.x`); false: the studio look.
    pub standard: bool,
    /// A skin overlay mode is on (`model.z`).
    pub skin_overlay: bool,
    /// The scene's lights as the shader's `LIGHTS` constant: bits 0–3 how many of the frame's lights are
    /// used, then two bits per light, its kind (`position.w`: 0 directional, 1 point, 2 spot).
    pub lights: u32,
}

impl DrawLook {
    pub fn of(frame: &GpuFrame) -> Self {
        let count = (frame.light_count[0] as usize).min(frame.lights.len());
        let kinds = frame.lights[..count]
            .iter()
            .enumerate()
            .fold(0, |bits, (i, light)| bits | ((light.position[3].round() as u32 & 3) << (4 + 2 * i)));
        Self { standard: frame.model[0] != 0, skin_overlay: frame.model[2] != 0, lights: count as u32 | kinds }
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
