//! What events and the skin overlay change in a document's draws: material uniforms (appearance
//! events), vertex data (geometry events) and the overlay's per-draw values.

use super::{RigidDraw, SceneDraw};
use crate::gpu::geometry_events::GeometryUploads;
use crate::gpu::render_pass::MeshDraw;
use crate::hanim::Document;
use crate::pose::skin_inspection::{OverlayMode, PointInfluence};

impl SceneDraw {
    /// Draws what `overrides` write into Materials and TextureTransforms: the material uniforms of the
    /// parts they change are rewritten (and put back to the file's values when they stop changing
    /// them); nothing is written when no event touches any node. Returns how many uniforms were written.
    pub fn apply_appearance(
        &mut self,
        queue: &wgpu::Queue,
        scene: &crate::x3d::Scene,
        overrides: &crate::animation::events::Overrides,
    ) -> usize {
        let changed = crate::gpu::appearance_events::overridden_nodes(overrides);
        if changed.is_empty() && !self.appearance_overridden {
            return 0;
        }
        self.appearance_overridden = !changed.is_empty();
        let mut written = 0;
        for h in &mut self.batches {
            for draw in h.all_draws_mut() {
                written += draw.apply_appearance(queue, scene, overrides, &changed);
            }
        }
        for shape in &mut self.scene_shapes {
            written += shape.draw.apply_appearance(queue, scene, overrides, &changed);
        }
        written
    }

    /// Draws what `overrides` write into the Coordinate, Normal, Color and TextureCoordinate nodes of
    /// the event draws (scene Shapes and rigid humanoid shapes; see [`crate::gpu::geometry_events`]): each
    /// draw whose nodes' values changed is built again, and only its buffers whose bytes changed are
    /// written; the file's values come back when the events stop setting them. Returns the writes.
    pub fn apply_geometry(
        &mut self,
        queue: &wgpu::Queue,
        doc: &Document,
        overrides: &crate::animation::events::Overrides,
    ) -> GeometryUploads {
        if self.routed_vertex_nodes.is_empty() {
            return GeometryUploads::default();
        }
        let scene = &doc.scene;
        let values = crate::gpu::geometry_events::geometry_values(scene, overrides);
        if values.is_empty() && !self.geometry_overridden {
            return GeometryUploads::default();
        }
        self.geometry_overridden = !values.is_empty();
        let mut written = GeometryUploads::default();
        // Only a group of one has routed vertex nodes (see `hanim::twins`): its leader is its humanoid.
        for (draws, leader) in self.batches.iter_mut().zip(&self.leaders) {
            let Some(h) = doc.humanoids.get(leader.0) else { continue };
            if let Some(skin) = &draws.skin {
                written.points += crate::gpu::geometry_events::write_segment_coords(
                    queue,
                    skin,
                    h,
                    &values,
                    &mut draws.segment_coords,
                );
            }
        }
        for draw in self.event_draws_mut() {
            written += draw.apply_geometry(queue, scene, &values);
        }
        written
    }

    /// Every buffer write events have caused in these draws so far.
    pub fn geometry_uploads(&self) -> GeometryUploads {
        let mut all = GeometryUploads::default();
        for h in &self.batches {
            for r in &h.rigid {
                all += r.draw.geometry_uploads();
            }
        }
        for shape in &self.scene_shapes {
            all += shape.draw.geometry_uploads();
        }
        all
    }

    fn event_draws_mut(&mut self) -> impl Iterator<Item = &mut MeshDraw> {
        let rigid = self.batches.iter_mut().flat_map(|h| h.rigid.iter_mut().map(|r| &mut r.draw));
        rigid.chain(self.scene_shapes.iter_mut().map(|s| &mut s.draw)).filter(|d| d.has_event_geometry())
    }

    /// Shows the skin overlay `mode` for the joint `selected[h]` of each humanoid `h` (missing or `None`:
    /// no joint) from the next frame on: the skin pass computes its points' values (influence count,
    /// weight sum, the joint's weight), and each rigid shape carries its joint's values (100 %). `Off`
    /// stops the computing. Twins drawn together show the joint selected in any of them (the overlay's
    /// values are computed once for the group).
    pub fn set_overlay(&mut self, queue: &wgpu::Queue, mode: OverlayMode, selected: &[Option<usize>]) {
        for (batch, draws) in self.batches.iter_mut().enumerate() {
            let members = self.slots.iter().enumerate().filter(|(_, slot)| slot.batch == batch);
            let selected = members.filter_map(|(i, _)| selected.get(i).copied().flatten()).next();
            let shown = mode != OverlayMode::Off;
            if let Some(skin) = &mut draws.skin {
                skin.set_overlay(queue, shown.then_some(selected.map(|j| j as u32)));
            }
            // Merged rigid points weigh 1 to their joint: the pass computes what each shape carried.
            if let Some(merged) = &mut draws.merged {
                merged.skin.set_overlay(queue, shown.then_some(selected.map(|j| j as u32)));
            }
            for RigidDraw { joint, draw, .. } in &mut draws.rigid {
                draw.set_rigid_overlay(queue, shown.then(|| PointInfluence::rigid(*joint, selected)));
            }
        }
        // The scene's other Shapes (floors, props) belong to no joint: unweighted.
        for shape in &mut self.scene_shapes {
            shape.draw.set_rigid_overlay(queue, (mode != OverlayMode::Off).then(PointInfluence::default));
        }
    }
}
