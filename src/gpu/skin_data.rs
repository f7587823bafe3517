//! What the skin/morph kernels read, packed on the CPU: the static data of a humanoid (`SkinData`, built
//! once) and one frame's joint matrices and displacer weights (`FrameData`), plus the byte accounting
//! `bench` divides by the pass's time.

use glam::Vec3;

use super::layout::*;
use super::skin_pass::SkinCorners;
use crate::hanim::{DisplacerOwner, Humanoid};
use crate::pose::{self, Pose};

/// Everything the kernels read that does not change while the humanoid stays loaded, in GPU layout.
#[derive(Debug, Clone, Default)]
pub struct SkinData {
    pub rest_points: Vec<GpuPoint>,
    pub ranges: Vec<[u32; 2]>,
    pub influences: Vec<GpuInfluence>,
    pub displacements: Vec<GpuDisplacement>,
    pub corners: Vec<GpuCorner>,
    pub segment_rest_points: Vec<GpuPoint>,
    pub segment_ranges: Vec<u32>,
    pub segment_displacements: Vec<GpuDisplacement>,
    /// First point of each segment in the segment buffers, plus the total at the end.
    pub segment_offsets: Vec<u32>,
}

impl SkinData {
    /// Packs the humanoid's skin, joint displacers (transposed to per-point lists, in displacer order),
    /// corners and segment coords with their displacers.
    pub fn build(h: &Humanoid, corners: SkinCorners) -> Self {
        let mut data = SkinData::default();
        if let Some(skin) = &h.skin {
            let n = skin.points.len();
            data.rest_points = skin.points.iter().map(|p| [p.x, p.y, p.z, 1.0]).collect();
            let mut per_point: Vec<Vec<GpuDisplacement>> = vec![Vec::new(); n];
            for (d, displacer) in h.displacers.iter().enumerate() {
                if !matches!(displacer.owner, DisplacerOwner::Joint(_)) {
                    continue;
                }
                for (k, &index) in displacer.coord_index.iter().enumerate() {
                    let Some(list) = usize::try_from(index).ok().and_then(|i| per_point.get_mut(i)) else { continue };
                    let delta = displacer.displacements.get(k).copied().unwrap_or(Vec3::ZERO);
                    list.push(GpuDisplacement { delta: delta.into(), displacer: d as u32 });
                }
            }
            data.influences =
                skin.influences.entries.iter().map(|&(joint, weight)| GpuInfluence { joint, weight }).collect();
            let mut displacement_start = 0u32;
            for i in 0..=n {
                data.ranges.push([skin.influences.offsets[i], displacement_start]);
                if let Some(list) = per_point.get(i) {
                    displacement_start += list.len() as u32;
                }
            }
            data.displacements = per_point.into_iter().flatten().collect();
        }
        data.corners = corners
            .source_point
            .iter()
            .zip(corners.normals)
            .map(|(&source_point, n)| GpuCorner { normal: (*n).into(), source_point })
            .collect();

        data.segment_offsets.push(0);
        for (s, segment) in h.segments.iter().enumerate() {
            let base = data.segment_rest_points.len();
            let count = segment.coord_points.len();
            data.segment_rest_points.extend(segment.coord_points.iter().map(|p| [p.x, p.y, p.z, 1.0]));
            let mut per_point: Vec<Vec<GpuDisplacement>> = vec![Vec::new(); count];
            for (d, displacer) in h.displacers.iter().enumerate() {
                if displacer.owner != DisplacerOwner::Segment(s) {
                    continue;
                }
                for (k, &index) in displacer.coord_index.iter().enumerate() {
                    let Some(list) = usize::try_from(index).ok().and_then(|i| per_point.get_mut(i)) else { continue };
                    let delta = displacer.displacements.get(k).copied().unwrap_or(Vec3::ZERO);
                    list.push(GpuDisplacement { delta: delta.into(), displacer: d as u32 });
                }
            }
            for list in per_point {
                data.segment_ranges.push(data.segment_displacements.len() as u32);
                data.segment_displacements.extend(list);
            }
            data.segment_offsets.push((base + count) as u32);
        }
        data.segment_ranges.push(data.segment_displacements.len() as u32);
        data
    }
}

/// Per-frame data, computed on the CPU from a pose: exactly what the CPU reference uses.
#[derive(Debug, Clone)]
pub struct FrameData {
    pub skin_matrices: Vec<[f32; 16]>,
    pub normal_matrices: Vec<GpuNormalMatrix>,
    pub displacers: Vec<GpuDisplacerFrame>,
}

impl FrameData {
    pub fn from_pose(h: &Humanoid, pose: &Pose) -> Self {
        Self::from_globals(h, pose, &pose::humanoid_from_joint(h, pose))
    }

    /// As [`Self::from_pose`], with the pose's joint globals `G_j` already computed by the caller.
    pub fn from_globals(h: &Humanoid, pose: &Pose, humanoid_from_joint: &[glam::Mat4]) -> Self {
        let matrices = pose::skin_matrices(h, humanoid_from_joint);
        Self {
            skin_matrices: matrices.skin.iter().map(|m| m.to_cols_array()).collect(),
            normal_matrices: matrices
                .normal
                .iter()
                .map(|n| GpuNormalMatrix {
                    columns: [n.x_axis.extend(0.0).into(), n.y_axis.extend(0.0).into(), n.z_axis.extend(0.0).into()],
                })
                .collect(),
            displacers: h
                .displacers
                .iter()
                .enumerate()
                .map(|(d, displacer)| GpuDisplacerFrame {
                    weight: pose.displacer_weight(h, d),
                    owner_joint: match displacer.owner {
                        DisplacerOwner::Joint(j) => j as u32,
                        DisplacerOwner::Segment(_) => u32::MAX,
                    },
                })
                .collect(),
        }
    }
}

/// Bytes of one instance's per-frame inputs: joint and normal matrices, displacer frames.
pub(super) fn rest_frame_sizes(joint_count: usize, displacer_count: usize) -> u64 {
    (joint_count * (size_of::<[f32; 16]>() + size_of::<GpuNormalMatrix>())
        + displacer_count * size_of::<GpuDisplacerFrame>()) as u64
}

/// What [`GpuSkin::bytes_per_frame`] counts for one instance: its static inputs as each kernel reads
/// them (the points kernel and the normals kernel both read the influence lists), the frame's inputs and
/// the outputs.
pub(super) fn traffic_per_instance(data: &SkinData, frame_bytes: u64) -> u64 {
    fn bytes<T>(items: &[T]) -> u64 {
        std::mem::size_of_val(items) as u64
    }
    let shared_lists = bytes(&data.ranges) + bytes(&data.influences);
    let points = bytes(&data.rest_points) + shared_lists + bytes(&data.displacements) + bytes(&data.rest_points);
    let normals = if data.corners.is_empty() { 0 } else { bytes(&data.corners) * 2 + shared_lists };
    let segments =
        bytes(&data.segment_rest_points) * 2 + bytes(&data.segment_ranges) + bytes(&data.segment_displacements);
    points + normals + segments + frame_bytes
}
