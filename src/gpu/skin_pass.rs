//! The skin/morph compute pass: static buffers uploaded once per humanoid, per-frame joint matrices and
//! displacer weights, and the dispatches that write the buffers the render pass draws.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use glam::Vec3;
use wgpu::util::DeviceExt;

use super::context::GpuContext;
use super::error::{CreationScope, GpuError};
use super::layout::*;
use super::shaders;
pub use super::skin_data::{FrameData, SkinData};
use super::skin_data::{rest_frame_sizes, traffic_per_instance};
use crate::hanim::Humanoid;
use crate::pose::Pose;

/// Per render vertex (corner): the skin point it draws and its binding normal (§2.5: normals are
/// skinned per corner with the influences of the corner's point).
#[derive(Debug, Clone, Copy)]
pub struct SkinCorners<'a> {
    pub source_point: &'a [u32],
    pub normals: &'a [Vec3],
}

/// The compute pipelines; long-lived and shared by every humanoid on a device.
pub struct SkinPipelines {
    skin_points: wgpu::ComputePipeline,
    skin_normals: wgpu::ComputePipeline,
    morph_segments: wgpu::ComputePipeline,
    /// Skin inspection: per point the selected joint's weight, influence count and weight sum.
    skin_overlay: wgpu::ComputePipeline,
}

impl SkinPipelines {
    pub fn new(device: &wgpu::Device) -> Result<Self, GpuError> {
        let module = shaders::create_module(device, "skin_morph::shader", shaders::SKIN_MORPH)?;
        let constants = [("WORKGROUP_SIZE", f64::from(SKIN_WORKGROUP_SIZE))];
        let scope = CreationScope::push(device, "skin_morph pipelines");
        let make = |entry: &str, label: &str| {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(label),
                // Auto layout: each entry point's group 0 holds just the bindings it uses.
                layout: None,
                module: &module,
                entry_point: Some(entry),
                compilation_options: wgpu::PipelineCompilationOptions { constants: &constants, ..Default::default() },
                cache: None,
            })
        };
        let pipelines = Self {
            skin_points: make("skin_points", "skin_morph::skin_points"),
            skin_normals: make("skin_normals", "skin_morph::skin_normals"),
            morph_segments: make("morph_segments", "skin_morph::morph_segments"),
            skin_overlay: make("skin_overlay", "skin_morph::skin_overlay"),
        };
        scope.finish()?;
        Ok(pipelines)
    }
}

/// One humanoid's skin on the GPU, for one or several instances (copies of the humanoid, each with its
/// own pose, skinned together by one dispatch per kernel). Every output buffer holds the instances one
/// after another: instance k's points start at `k · point_count`, its corners at `k · corner_count`.
pub struct GpuSkin {
    /// Skinned points, `vec4<f32>` (xyz, 1) per skin point and instance: STORAGE | VERTEX | COPY_SRC.
    pub points: wgpu::Buffer,
    /// Skinned normals, `vec4<f32>` (xyz, 0) per corner and instance: STORAGE | VERTEX | COPY_SRC.
    pub normals: wgpu::Buffer,
    /// Morphed segment coords, `vec4<f32>` per point, segments one after another, then the next instance.
    pub segment_points: wgpu::Buffer,
    /// The segments' coords the morph kernel starts from, one instance's worth (every instance reads
    /// them): STORAGE | COPY_DST.
    segment_rest: wgpu::Buffer,
    /// First point of each segment in `segment_points` (first instance), plus the total at the end.
    pub segment_offsets: Vec<u32>,
    /// Skin points of one instance.
    pub point_count: u32,
    /// Render corners of one instance.
    pub corner_count: u32,
    /// Segment coords of one instance.
    pub segment_point_count: u32,
    /// How many instances the buffers hold (1 for a single humanoid).
    pub instances: u32,
    /// Bytes the kernels read and write for one instance per frame (see [`Self::bytes_per_frame`]).
    instance_traffic: u64,
    joint_count: usize,
    displacer_count: usize,
    /// Skin inspection values, `vec4<f32>` (selected joint's weight, influence count, weight sum, 0) per
    /// skin point, written by `skin_overlay` while an overlay is shown: STORAGE | COPY_SRC.
    pub overlay_values: wgpu::Buffer,
    /// Whether `skin_overlay` runs with the other kernels.
    overlay_shown: bool,
    params: wgpu::Buffer,
    skin_matrices: wgpu::Buffer,
    normal_matrices: wgpu::Buffer,
    displacers: wgpu::Buffer,
    pipelines: Arc<SkinPipelines>,
    bind_groups: [wgpu::BindGroup; 4],
    max_groups_per_dimension: u32,
    /// What the per-frame buffers hold, as last written: a frame whose joint matrices and displacer
    /// weights equal the last ones writes nothing.
    written: Mutex<WrittenFrames>,
    /// The kernels' inputs changed since the last [`Self::encode`]: a humanoid standing still (a crowd
    /// at rest, a paused clip while the camera moves) is not skinned again.
    inputs_changed: AtomicBool,
}

/// CPU copies of the per-frame input buffers, byte for byte.
#[derive(Default)]
struct WrittenFrames {
    skin_matrices: Vec<u8>,
    normal_matrices: Vec<u8>,
    displacers: Vec<u8>,
}

/// Workgroups for `count` invocations as an (x, y) grid with x ≤ `max_per_dimension`; the shaders
/// linearise the invocation id with the same row length (`linear_index`).
pub fn dispatch_grid(count: u32, max_per_dimension: u32) -> (u32, u32) {
    let groups = count.div_ceil(SKIN_WORKGROUP_SIZE);
    if groups <= max_per_dimension { (groups, 1) } else { (max_per_dimension, groups.div_ceil(max_per_dimension)) }
}

fn padded_bytes<T: bytemuck::Pod>(items: &[T]) -> Vec<u8> {
    // Zero-sized bindings are not allowed: every buffer holds at least 16 bytes.
    let mut bytes = bytemuck::cast_slice(items).to_vec();
    if bytes.len() < 16 {
        bytes.resize(16, 0);
    }
    bytes
}

impl GpuSkin {
    pub fn new(ctx: &GpuContext, h: &Humanoid, corners: SkinCorners) -> Result<Self, GpuError> {
        let pipelines = Arc::new(SkinPipelines::new(&ctx.device)?);
        Self::with_pipelines(ctx, pipelines, h, corners)
    }

    pub fn with_pipelines(
        ctx: &GpuContext,
        pipelines: Arc<SkinPipelines>,
        h: &Humanoid,
        corners: SkinCorners,
    ) -> Result<Self, GpuError> {
        Self::instanced(ctx, pipelines, h, corners, 1)
    }

    /// Bytes the largest buffer of one instance takes (skinned points, corners, segment coords or joint
    /// matrices), which [`Self::instanced`] multiplies by the instance count: what limits how many
    /// instances one skin holds.
    pub fn bytes_per_instance(h: &Humanoid, corner_count: usize) -> u64 {
        let points = h.skin.as_ref().map_or(0, |s| s.points.len());
        let segment_points: usize = h.segments.iter().map(|s| s.coord_points.len()).sum();
        [points * 16, corner_count * 16, segment_points * 16, h.joints.len() * 64, h.displacers.len() * 8]
            .into_iter()
            .max()
            .unwrap_or(0) as u64
    }

    /// As [`Self::with_pipelines`], with `instances` copies of the humanoid in the same buffers, all at
    /// rest until [`Self::write_frames`] poses them.
    pub fn instanced(
        ctx: &GpuContext,
        pipelines: Arc<SkinPipelines>,
        h: &Humanoid,
        corners: SkinCorners,
        instances: u32,
    ) -> Result<Self, GpuError> {
        let instances = instances.max(1);
        let data = SkinData::build(h, corners);
        let rest = FrameData::from_pose(h, &Pose::rest(h));
        let (joint_count, displacer_count) = (rest.skin_matrices.len(), rest.displacers.len());
        let copies = instances as usize;
        let device = &ctx.device;
        // A storage binding is limited twice: by the binding size and by the buffer size.
        let limit = ctx.max_storage_binding().min(device.limits().max_buffer_size);
        let check = |what: &str, bytes: usize| {
            if bytes as u64 > limit {
                Err(GpuError::TooLarge { what: what.to_string(), needed: bytes as u64, limit })
            } else {
                Ok(())
            }
        };
        check("the skin points", data.rest_points.len() * 16 * copies)?;
        check("the skin influences", data.influences.len() * 8)?;
        check("the displacements", data.displacements.len() * 16)?;
        check("the render corners", data.corners.len() * 16 * copies)?;
        check("the segment coords", data.segment_rest_points.len() * 16 * copies)?;
        check("the joint matrices", joint_count * 64 * copies)?;
        let max_groups_per_dimension = device.limits().max_compute_workgroups_per_dimension.max(1);
        let largest = data.rest_points.len().max(data.corners.len()).max(data.segment_rest_points.len()) * copies;
        let groups = (largest as u64).div_ceil(u64::from(SKIN_WORKGROUP_SIZE));
        if groups > u64::from(max_groups_per_dimension) * u64::from(max_groups_per_dimension) {
            return Err(GpuError::TooLarge {
                what: format!("a dispatch over {largest} vertices ({groups} workgroups)"),
                needed: groups,
                limit: u64::from(max_groups_per_dimension).pow(2),
            });
        }

        let storage = wgpu::BufferUsages::STORAGE;
        let init = |label: &str, bytes: Vec<u8>, usage: wgpu::BufferUsages| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(label), contents: &bytes, usage })
        };
        let output = |label: &str, count: usize| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: (count.max(1) * 16) as u64,
                usage: storage | wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            })
        };
        let instance_traffic = traffic_per_instance(&data, rest_frame_sizes(joint_count, displacer_count));
        let point_count = data.rest_points.len() as u32;
        let corner_count = data.corners.len() as u32;
        let segment_point_count = data.segment_rest_points.len() as u32;
        let params = GpuSkinParams {
            point_count,
            corner_count,
            segment_point_count,
            overlay_joint: NO_OVERLAY_JOINT,
            instance_count: instances,
            joint_count: joint_count as u32,
            displacer_count: displacer_count as u32,
            _pad: 0,
        };

        let scope = CreationScope::push(device, "creating the skin buffers");
        let params = init(
            "humanoid::skin_params",
            bytemuck::bytes_of(&params).to_vec(),
            wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        );
        let rest_points = init("humanoid::rest_points", padded_bytes(&data.rest_points), storage);
        let ranges = init("humanoid::ranges", padded_bytes(&data.ranges), storage);
        let influences = init("humanoid::influences", padded_bytes(&data.influences), storage);
        let displacements = init("humanoid::displacements", padded_bytes(&data.displacements), storage);
        let corners_buffer = init("humanoid::corners", padded_bytes(&data.corners), storage);
        // Events may write a segment's coord (a CoordinateInterpolator on it): its rest points are rewritten.
        let segment_rest = init(
            "humanoid::segment_rest_points",
            padded_bytes(&data.segment_rest_points),
            storage | wgpu::BufferUsages::COPY_DST,
        );
        let segment_ranges = init("humanoid::segment_ranges", padded_bytes(&data.segment_ranges), storage);
        let segment_displacements =
            init("humanoid::segment_displacements", padded_bytes(&data.segment_displacements), storage);
        // Per-frame inputs: written with every instance at rest once the skin is built. A binding holds at
        // least one element of its shader array (a mat4x4, 64 bytes, is the largest), even where there is
        // none: a humanoid with no joints still draws its skin as authored.
        let per_frame = |label: &str, bytes_per_instance: usize| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: (bytes_per_instance * copies).max(64) as u64,
                usage: storage | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        };
        let skin_matrices = per_frame("humanoid::skin_matrices", joint_count * size_of::<[f32; 16]>());
        let normal_matrices = per_frame("humanoid::normal_matrices", joint_count * size_of::<GpuNormalMatrix>());
        let displacers = per_frame("humanoid::displacer_weights", displacer_count * size_of::<GpuDisplacerFrame>());
        let points = output("humanoid::skinned_points", data.rest_points.len() * copies);
        let normals = output("humanoid::skinned_normals", data.corners.len() * copies);
        let segment_points = output("humanoid::morphed_segment_points", data.segment_rest_points.len() * copies);
        let overlay_values = output("humanoid::skin_overlay_values", data.rest_points.len());

        let group = |pipeline: &wgpu::ComputePipeline, label: &str, entries: &[(u32, &wgpu::Buffer)]| {
            let entries: Vec<wgpu::BindGroupEntry> = entries
                .iter()
                .map(|&(binding, buffer)| wgpu::BindGroupEntry { binding, resource: buffer.as_entire_binding() })
                .collect();
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(label),
                layout: &pipeline.get_bind_group_layout(0),
                entries: &entries,
            })
        };
        let bind_groups = [
            group(
                &pipelines.skin_points,
                "skin_morph::skin_points_bind_group",
                &[
                    (0, &params),
                    (1, &rest_points),
                    (2, &ranges),
                    (3, &influences),
                    (4, &displacements),
                    (5, &skin_matrices),
                    (6, &displacers),
                    (7, &points),
                ],
            ),
            group(
                &pipelines.skin_normals,
                "skin_morph::skin_normals_bind_group",
                &[
                    (0, &params),
                    (2, &ranges),
                    (3, &influences),
                    (8, &corners_buffer),
                    (9, &normal_matrices),
                    (10, &normals),
                ],
            ),
            group(
                &pipelines.morph_segments,
                "skin_morph::morph_segments_bind_group",
                &[
                    (0, &params),
                    (6, &displacers),
                    (11, &segment_rest),
                    (12, &segment_ranges),
                    (13, &segment_displacements),
                    (14, &segment_points),
                ],
            ),
            group(
                &pipelines.skin_overlay,
                "skin_morph::skin_overlay_bind_group",
                &[(0, &params), (2, &ranges), (3, &influences), (15, &overlay_values)],
            ),
        ];
        scope.finish()?;
        let skin = Self {
            points,
            normals,
            segment_points,
            segment_rest,
            segment_offsets: data.segment_offsets,
            point_count,
            corner_count,
            segment_point_count,
            instances,
            instance_traffic,
            joint_count,
            displacer_count,
            overlay_values,
            overlay_shown: false,
            params,
            max_groups_per_dimension,
            skin_matrices,
            normal_matrices,
            displacers,
            pipelines,
            bind_groups,
            written: Mutex::default(),
            inputs_changed: AtomicBool::new(true),
        };
        skin.write_frame_list(&ctx.queue, 0, std::iter::repeat_n(&rest, copies));
        Ok(skin)
    }

    /// Writes this frame's joint matrices and displacer weights of every instance, `frames[k]` for
    /// instance k (the only per-frame uploads: one write per buffer however many instances there are).
    /// Frames past the instance count are ignored; instances past the end of `frames` keep theirs.
    pub fn write_frames(&self, queue: &wgpu::Queue, frames: &[FrameData]) {
        self.write_frames_from(queue, 0, frames);
    }

    /// As [`Self::write_frames`], for instances `first..first + frames.len()` (one copy among twins
    /// skinned together); frames past the last instance are ignored.
    pub fn write_frames_from(&self, queue: &wgpu::Queue, first: u32, frames: &[FrameData]) {
        self.write_frame_list(queue, first, frames.iter());
    }

    fn write_frame_list<'a>(
        &self,
        queue: &wgpu::Queue,
        first: u32,
        frames: impl Iterator<Item = &'a FrameData> + Clone,
    ) {
        let frames = frames.take(self.instances.saturating_sub(first) as usize);
        let first = first as u64;
        let mut written = self.written.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let written = &mut *written;
        // Each instance's frame is copied straight into wgpu's staging memory: no concatenated copy (for
        // a crowd, megabytes of fresh memory every frame).
        let mut changed = false;
        if self.joint_count > 0 {
            let joints = self.joint_count as u64;
            let (skin_at, normal_at) = (first * joints * 64, first * joints * size_of::<GpuNormalMatrix>() as u64);
            let skin = frames.clone().map(|f| f.skin_matrices.as_slice());
            changed |= write_parts(queue, &self.skin_matrices, &mut written.skin_matrices, skin_at, skin);
            let normal = frames.clone().map(|f| f.normal_matrices.as_slice());
            changed |= write_parts(queue, &self.normal_matrices, &mut written.normal_matrices, normal_at, normal);
        }
        if self.displacer_count > 0 {
            let at = first * (self.displacer_count * size_of::<GpuDisplacerFrame>()) as u64;
            let weights = frames.map(|f| f.displacers.as_slice());
            changed |= write_parts(queue, &self.displacers, &mut written.displacers, at, weights);
        }
        if changed {
            self.inputs_changed.store(true, Ordering::Relaxed);
        }
    }

    /// Writes this frame's joint matrices and displacer weights (the only per-frame uploads), for the
    /// first instance.
    pub fn update(&self, queue: &wgpu::Queue, h: &Humanoid, pose: &Pose) {
        self.write_frames(queue, std::slice::from_ref(&FrameData::from_pose(h, pose)));
    }

    /// Shows the skin overlay's values for `joint` (`Some(None)`: no joint selected) from the next
    /// [`Self::encode`] on, or stops computing them (`None`).
    pub fn set_overlay(&mut self, queue: &wgpu::Queue, joint: Option<Option<u32>>) {
        self.overlay_shown = joint.is_some();
        self.inputs_changed.store(true, Ordering::Relaxed);
        if let Some(joint) = joint {
            let joint = joint.unwrap_or(NO_OVERLAY_JOINT);
            queue.write_buffer(
                &self.params,
                std::mem::offset_of!(GpuSkinParams, overlay_joint) as u64,
                bytemuck::bytes_of(&joint),
            );
        }
    }

    /// Bytes the skin/morph kernels read and write per frame, every instance counted as if it read its
    /// inputs once from memory: static inputs (rest points, ranges, influences, displacements, corners,
    /// segment coords), the frame's joint matrices and displacer weights, and the outputs. What a
    /// deform-bandwidth figure divides by the pass's time (`bench`); caches only make the real traffic
    /// lower.
    pub fn bytes_per_frame(&self) -> u64 {
        self.instance_traffic * u64::from(self.instances)
    }

    /// Dispatches [`Self::encode`] records per frame (the same for any number of instances).
    pub fn dispatch_count(&self) -> u32 {
        let overlay = if self.overlay_shown { self.point_count } else { 0 };
        [self.point_count, self.corner_count, self.segment_point_count, overlay].iter().filter(|&&n| n > 0).count()
            as u32
    }

    /// Whether the next [`Self::encode`] dispatches: the inputs changed since the last one.
    pub fn needs_dispatch(&self) -> bool {
        self.inputs_changed.load(Ordering::Relaxed)
    }

    /// Records the dispatches when their inputs changed since the last time (else the outputs already
    /// hold this frame); kernels with nothing to do are skipped.
    pub fn encode(&self, encoder: &mut wgpu::CommandEncoder) {
        if self.inputs_changed.swap(false, Ordering::Relaxed) {
            self.encode_always(encoder);
        }
    }

    /// Records the dispatches whether or not their inputs changed (tests, and timing the pass alone).
    pub fn encode_always(&self, encoder: &mut wgpu::CommandEncoder) {
        self.inputs_changed.store(false, Ordering::Relaxed);
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("skin_morph::pass"),
            timestamp_writes: None,
        });
        let jobs = [
            (&self.pipelines.skin_points, &self.bind_groups[0], self.point_count * self.instances),
            (&self.pipelines.skin_normals, &self.bind_groups[1], self.corner_count * self.instances),
            (&self.pipelines.morph_segments, &self.bind_groups[2], self.segment_point_count * self.instances),
            (&self.pipelines.skin_overlay, &self.bind_groups[3], if self.overlay_shown { self.point_count } else { 0 }),
        ];
        for (pipeline, bind_group, count) in jobs {
            if count == 0 {
                continue;
            }
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, bind_group, &[]);
            let (x, y) = dispatch_grid(count, self.max_groups_per_dimension);
            pass.dispatch_workgroups(x, y, 1);
        }
    }

    /// Updates, dispatches and waits: one command encoder, for tests, `check` and headless frames.
    pub fn deform(&self, ctx: &GpuContext, h: &Humanoid, pose: &Pose) {
        self.update(&ctx.queue, h, pose);
        let mut encoder =
            ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("skin_morph::encoder") });
        self.encode_always(&mut encoder);
        ctx.queue.submit([encoder.finish()]);
    }

    /// Skinned points read back (xyz), of the first instance.
    pub fn read_points(&self, ctx: &GpuContext) -> Result<Vec<Vec3>, GpuError> {
        self.read_instance_points(ctx, 0)
    }

    /// Skinned points of `instance` read back (xyz).
    pub fn read_instance_points(&self, ctx: &GpuContext, instance: u32) -> Result<Vec<Vec3>, GpuError> {
        read_instance(ctx, &self.points, self.point_count, instance.min(self.instances - 1))
    }

    /// Skinned corner normals read back, of the first instance.
    pub fn read_normals(&self, ctx: &GpuContext) -> Result<Vec<Vec3>, GpuError> {
        self.read_instance_normals(ctx, 0)
    }

    /// Skinned corner normals of `instance` read back.
    pub fn read_instance_normals(&self, ctx: &GpuContext, instance: u32) -> Result<Vec<Vec3>, GpuError> {
        read_instance(ctx, &self.normals, self.corner_count, instance.min(self.instances - 1))
    }

    /// The skin overlay's values read back, per skin point: (selected joint's weight, influence count,
    /// weight sum) as the last [`Self::encode`] with the overlay shown wrote them.
    pub fn read_overlay_values(&self, ctx: &GpuContext) -> Result<Vec<[f32; 3]>, GpuError> {
        let raw: Vec<GpuPoint> = super::readback::read_buffer(ctx, &self.overlay_values, self.point_count as usize)?;
        Ok(raw.iter().map(|v| [v[0], v[1], v[2]]).collect())
    }

    /// Replaces the points segment `s`'s morph starts from (its coord, written by events): false, and
    /// nothing written, when their count is not the segment's.
    pub fn write_segment_rest(&self, queue: &wgpu::Queue, s: usize, points: &[Vec3]) -> bool {
        let (start, end) = (self.segment_offsets[s] as usize, self.segment_offsets[s + 1] as usize);
        if points.len() != end - start || points.is_empty() {
            return false;
        }
        let rows: Vec<GpuPoint> = points.iter().map(|p| [p.x, p.y, p.z, 1.0]).collect();
        queue.write_buffer(&self.segment_rest, (start * size_of::<GpuPoint>()) as u64, bytemuck::cast_slice(&rows));
        self.inputs_changed.store(true, Ordering::Relaxed);
        true
    }

    /// Morphed coords of segment `s` read back, of the first instance.
    pub fn read_segment_points(&self, ctx: &GpuContext, s: usize) -> Result<Vec<Vec3>, GpuError> {
        self.read_instance_segment_points(ctx, 0, s)
    }

    /// Morphed coords of segment `s` of `instance` read back.
    pub fn read_instance_segment_points(
        &self,
        ctx: &GpuContext,
        instance: u32,
        s: usize,
    ) -> Result<Vec<Vec3>, GpuError> {
        let all = read_instance(ctx, &self.segment_points, self.segment_point_count, instance.min(self.instances - 1))?;
        let (start, end) = (self.segment_offsets[s] as usize, self.segment_offsets[s + 1] as usize);
        Ok(all[start..end].to_vec())
    }
}

/// Writes `parts` one after another into `buffer` from `offset`, in one write, unless `mirror` (what the
/// buffer holds) already has them there; keeps `mirror` up to date. True when something was written.
fn write_parts<'a, T: bytemuck::Pod>(
    queue: &wgpu::Queue,
    buffer: &wgpu::Buffer,
    mirror: &mut Vec<u8>,
    offset: u64,
    parts: impl Iterator<Item = &'a [T]> + Clone,
) -> bool {
    let total: usize = parts.clone().map(std::mem::size_of_val).sum();
    let start = offset as usize;
    let unchanged = mirror.len() >= start + total && {
        let mut at = start;
        parts.clone().all(|part| {
            let bytes: &[u8] = bytemuck::cast_slice(part);
            let same = mirror[at..at + bytes.len()] == *bytes;
            at += bytes.len();
            same
        })
    };
    if unchanged {
        return false;
    }
    let Some(size) = wgpu::BufferSize::new(total as u64) else { return false };
    let Some(mut view) = queue.write_buffer_with(buffer, offset, size) else { return false };
    if mirror.len() < start + total {
        mirror.resize(start + total, 0);
    }
    let mut at = 0;
    for part in parts {
        let bytes: &[u8] = bytemuck::cast_slice(part);
        view.slice(at..at + bytes.len()).copy_from_slice(bytes);
        mirror[start + at..start + at + bytes.len()].copy_from_slice(bytes);
        at += bytes.len();
    }
    true
}

/// The `count` vec4 entries of `instance` in an output buffer holding the instances one after another.
fn read_instance(ctx: &GpuContext, buffer: &wgpu::Buffer, count: u32, instance: u32) -> Result<Vec<Vec3>, GpuError> {
    let (count, instance) = (count as usize, instance as usize);
    let raw: Vec<GpuPoint> = super::readback::read_buffer(ctx, buffer, count * (instance + 1))?;
    Ok(raw[count * instance..].iter().map(|p| Vec3::new(p[0], p[1], p[2])).collect())
}
