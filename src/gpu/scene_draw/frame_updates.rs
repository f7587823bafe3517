//! Posing and placing a document's draws each frame: the skin pass's joint matrices and displacer weights
//! of every humanoid (each copy of a group of twins at its own pose and placement) and the placements of
//! the rigid shapes.

use glam::Mat4;

use super::{HumanoidDraws, RigidDraw, SceneDraw, Slot};
use crate::gpu::mesh_draw::crowd_map;
use crate::gpu::skin_pass::FrameData;
use crate::hanim::{Document, Humanoid, HumanoidIndex};
use crate::pose;
use crate::pose::Pose;

impl SceneDraw {
    /// Writes humanoid `index`'s frame data for `pose`: the skin pass's joint matrices and displacer
    /// weights, and every rigid shape's placement `H · G_j · offset`.
    pub fn update_humanoid(&mut self, queue: &wgpu::Queue, index: HumanoidIndex, h: &Humanoid, pose: &Pose) {
        self.update_humanoid_placed(queue, index, h, pose, pose.world_from_humanoid(h));
    }

    /// As [`Self::update_humanoid`], with the humanoid placed by `world_from_humanoid` (a clip that
    /// drives the humanoid's own translation or rotation).
    pub fn update_humanoid_placed(
        &mut self,
        queue: &wgpu::Queue,
        index: HumanoidIndex,
        h: &Humanoid,
        pose: &Pose,
        world_from_humanoid: Mat4,
    ) {
        self.update_humanoid_instances(queue, index, h, &[pose], &[world_from_humanoid]);
    }

    /// Writes the frame data of every copy of humanoid `index` (a document built [`Self::instanced`]):
    /// copy k at `poses[k]`, placed by `world_from_humanoid[k]`. One write per skin buffer and per draw,
    /// however many copies there are; copies past the end of the slices keep theirs. A humanoid with
    /// twins writes its own block of its group's copies (see [`Self::update_humanoids`] for one write
    /// per group).
    pub fn update_humanoid_instances(
        &mut self,
        queue: &wgpu::Queue,
        index: HumanoidIndex,
        h: &Humanoid,
        poses: &[&Pose],
        world_from_humanoid: &[Mat4],
    ) {
        let Some(&Slot { batch, first_copy }) = self.slots.get(index.0) else { return };
        let copies = poses.len().min(world_from_humanoid.len()).min(self.instances as usize);
        write_copies(queue, &mut self.batches[batch], h, first_copy, &poses[..copies], &world_from_humanoid[..copies]);
    }

    /// Writes this frame's pose and placement of every humanoid of `doc` (`poses[i]`, placed by
    /// `world_from_humanoid[i]`), one write per skin buffer and per draw for each group of twins: the
    /// path of the window and of renders, where each humanoid is one copy.
    pub fn update_humanoids(
        &mut self,
        queue: &wgpu::Queue,
        doc: &Document,
        poses: &[&Pose],
        world_from_humanoid: &[Mat4],
    ) {
        if self.instances != 1 {
            for (i, h) in doc.indexed_humanoids() {
                if let (Some(pose), Some(&placement)) = (poses.get(i.0), world_from_humanoid.get(i.0)) {
                    self.update_humanoid_instances(queue, i, h, &[*pose], &[placement]);
                }
            }
            return;
        }
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); self.batches.len()];
        for (i, slot) in self.slots.iter().enumerate() {
            members[slot.batch].push(i);
        }
        for ((draws, leader), members) in self.batches.iter_mut().zip(&self.leaders).zip(members) {
            let Some(h) = doc.humanoids.get(leader.0) else { continue };
            let (Some(held), Some(placed)): (Option<Vec<&Pose>>, Option<Vec<Mat4>>) = (
                members.iter().map(|&i| poses.get(i).copied()).collect(),
                members.iter().map(|&i| world_from_humanoid.get(i).copied()).collect(),
            ) else {
                continue;
            };
            write_copies(queue, draws, h, 0, &held, &placed);
        }
    }
}

/// Writes the frame data of copies `first..first + poses.len()` of `draws` (the group of `h`).
fn write_copies(
    queue: &wgpu::Queue,
    draws: &mut HumanoidDraws,
    h: &Humanoid,
    first: u32,
    poses: &[&Pose],
    world_from_humanoid: &[Mat4],
) {
    let Some(skin) = &draws.skin else { return };
    let copies = poses.len().min(world_from_humanoid.len());
    // Each copy's joint globals and skin matrices are independent of the others': a crowd computes
    // them on every core (a single humanoid stays on this thread).
    // G_j once per copy and frame, for the skin matrices and the rigid parts alike.
    let globals: Vec<Vec<Mat4>> = crowd_map(&poses[..copies], |_, pose| pose::humanoid_from_joint(h, pose));
    let merged = draws.merged.as_ref().map(|m| &m.skin);
    if skin.point_count > 0 || skin.segment_point_count > 0 || merged.is_some() {
        let frames: Vec<FrameData> = crowd_map(&globals, |k, g| FrameData::from_globals(h, poses[k], g));
        skin.write_frames_from(queue, first, &frames);
        // The merged rigid shapes' pass has the same joints (and no displacers).
        if let Some(merged) = merged {
            merged.write_frames_from(queue, first, &frames);
        }
    }
    if let Some(merged) = &mut draws.merged {
        merged.draw.set_instance_placements_from(queue, first, &world_from_humanoid[..copies]);
    }
    if let Some(draw) = &mut draws.skin_draw {
        draw.set_instance_placements_from(queue, first, &world_from_humanoid[..copies]);
    }
    for RigidDraw { joint, offset, draw } in &mut draws.rigid {
        let placed = crowd_map(&globals, |k, g| {
            world_from_humanoid[k] * joint.and_then(|j| g.get(j)).copied().unwrap_or(Mat4::IDENTITY) * *offset
        });
        draw.set_instance_placements_from(queue, first, &placed);
    }
}
