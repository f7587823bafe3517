//! The scene's other Shapes (floors, props, the scenery of each Inline copy), placed with their
//! Transform chains. A Shape the scene repeats (the same Shape in several Inline copies of one file, a
//! USEd Shape: found by content, [`crate::hanim::twins::repeated_shapes`]) is one instanced draw with an
//! instance per repeat, so that a crowd of 100 Inlines of a humanoid file with a floor and props costs a
//! draw per distinct Shape, not one per copy. Shapes events change (their geometry, their appearance) and
//! Shapes inside Switch choices not shown at load keep draws of their own.
//!
//! Instance `k · M + m` of a group of `M` members is copy `k`'s (see [`SceneDraw::instanced`]) member `m`.
//! A member a Switch hides is placed with the zero matrix: its triangles collapse to a point and draw
//! nothing, while the other members of its group still draw.

use glam::Mat4;

use super::{SceneDraw, SceneDrawError};
use crate::gpu::GpuContext;
use crate::gpu::geometry_events::EventPoints;
use crate::gpu::render_pass::{HumanoidRenderer, Instancing, MeshDraw};
use crate::hanim::Document;
use crate::hanim::twins::repeated_shapes;
use crate::mesh::render_mesh_from_shape;
use crate::x3d::NodeId;

/// One draw of the scene's other Shapes: the repeats of one Shape, or a Shape alone.
pub(super) struct SceneShapeDraw {
    /// The Shapes it draws: entries in `Document::other_shapes` followed by
    /// `Document::switched_out_shapes`, one instance each per copy of the document.
    members: Vec<usize>,
    pub(super) draw: MeshDraw,
    /// Each member's world matrix as last written, `None` while it is not shown.
    placed: Vec<Option<Mat4>>,
}

impl SceneShapeDraw {
    /// Whether any of its Shapes is shown now (a draw none of whose Shapes is shown is skipped).
    pub(super) fn any_shown(&self) -> bool {
        self.placed.iter().any(Option::is_some)
    }

    /// The placements of copy 0's instances: each shown member at its matrix, hidden ones collapsed.
    fn instance_matrices(&self, offset: Mat4) -> impl Iterator<Item = Mat4> + '_ {
        self.placed.iter().map(move |p| p.map_or(Mat4::ZERO, |world| offset * world))
    }
}

impl SceneDraw {
    /// Builds the draws of the document's other Shapes: the shown ones, then those in Switch choices not
    /// shown at load (hidden until an event shows them; not in the scene bounds). `instances` copies of
    /// the document each draw every Shape.
    pub(super) fn build_scene_shapes(
        &mut self,
        ctx: &GpuContext,
        renderer: &HumanoidRenderer,
        doc: &Document,
        instances: u32,
    ) -> Result<(), SceneDrawError> {
        let entries: Vec<(NodeId, Mat4)> = doc.other_shapes.iter().chain(&doc.switched_out_shapes).copied().collect();
        let nodes: Vec<NodeId> = entries.iter().map(|&(node, _)| node).collect();
        let shown_count = doc.other_shapes.len();
        let own_draw = |i: usize| {
            !self.batching.twins
                || i >= shown_count
                || self.event_driven(doc, nodes[i])
                || self.holds_route_target(doc, nodes[i])
        };
        let groups = repeated_shapes(&doc.scene, &nodes, own_draw);
        let mut notes = Vec::new();
        for members in groups {
            let shape = nodes[members[0]];
            let Some((mesh, points)) = render_mesh_from_shape(&doc.scene, shape, None, Mat4::IDENTITY, &mut notes)
                .map_err(SceneDrawError::geometry("scene"))?
            else {
                continue;
            };
            // A Shape whose vertices events change is kept even when the file's draw nothing (a
            // Coordinate that starts empty).
            let driven = self.event_driven(doc, shape);
            if mesh.indices.is_empty() && !driven {
                continue;
            }
            for &m in members.iter().filter(|&&m| m < shown_count) {
                let world = entries[m].1;
                for &i in &mesh.source_point {
                    if let Some(p) = points.get(i as usize) {
                        self.scene_bounds.add(world.transform_point3(*p));
                    }
                }
            }
            self.load_textures(ctx, std::slice::from_ref(&mesh));
            let shared = Instancing::shared(instances.saturating_mul(members.len() as u32));
            let draw = if driven {
                let own = EventPoints::Own;
                renderer.create_event_mesh(
                    &ctx.device,
                    &doc.scene,
                    &mesh,
                    &points,
                    Mat4::IDENTITY,
                    own,
                    &self.textures,
                    shared,
                )
            } else {
                let buffer = renderer.create_points(&ctx.device, &points);
                renderer.create_rigid_mesh(&ctx.device, &mesh, &buffer, 0, &points, &self.textures, shared)
            }
            .map_err(SceneDrawError::gpu("scene"))?;
            let mut draw = draw;
            // Instance k · M + m is member m's copy k: each is lit by its own scoped lights.
            let lists: Vec<Vec<&crate::hanim::SceneLight>> = (0..instances)
                .flat_map(|_| members.iter())
                .map(|&m| doc.scoped_lights(doc.ancestry.of_shape(m)).collect())
                .collect();
            renderer.set_scoped_lights(&ctx.device, &mut draw, &lists);
            self.triangles += draw.triangle_count() * members.len() as u32;
            let placed = members.iter().map(|&m| (m < shown_count).then_some(entries[m].1)).collect();
            let mut shape_draw = SceneShapeDraw { members, draw, placed };
            let copies = vec![Mat4::IDENTITY; instances as usize];
            shape_draw.write_copies(&ctx.queue, &copies);
            self.scene_shapes.push(shape_draw);
        }
        self.note_all("scene", notes);
        Ok(())
    }

    /// Draws the scene's other Shapes cost: one per distinct Shape (its repeats are its instances), one
    /// per Shape events change.
    pub fn scene_shape_draws(&self) -> usize {
        self.scene_shapes.len()
    }

    /// Places the scene's other Shapes of every copy: copy k's shape i at `offsets[k] · placements[i]`
    /// (as [`Self::place_scene_shapes`], each copy moved by its offset).
    pub fn place_scene_shape_instances(&mut self, queue: &wgpu::Queue, placements: &[Option<Mat4>], offsets: &[Mat4]) {
        for shape in &mut self.scene_shapes {
            if let Some(now) = member_placements(&shape.members, placements) {
                shape.placed = now;
                shape.write_copies(queue, offsets);
            }
        }
    }

    /// Places the scene's other Shapes for this frame: `placements[i]` is the world matrix of
    /// `Document::other_shapes[i]`, then of the `switched_out_shapes` (`None`: not shown now, e.g. a
    /// Switch chose another child). Only the draws whose placements changed are written to the GPU;
    /// shapes past the end of `placements` keep theirs.
    pub fn place_scene_shapes(&mut self, queue: &wgpu::Queue, placements: &[Option<Mat4>]) {
        for shape in &mut self.scene_shapes {
            if let Some(now) = member_placements(&shape.members, placements)
                && now != shape.placed
            {
                shape.placed = now;
                shape.write_copies(queue, &[Mat4::IDENTITY]);
            }
        }
    }
}

impl SceneShapeDraw {
    /// Writes the instances of copies `0..offsets.len()`, copy k moved by `offsets[k]` (one write).
    fn write_copies(&mut self, queue: &wgpu::Queue, offsets: &[Mat4]) {
        let all: Vec<Mat4> = offsets.iter().flat_map(|&offset| self.instance_matrices(offset)).collect();
        self.draw.set_instance_placements(queue, &all);
    }
}

/// The placements of `members` in `placements`, `None` when one is past its end (they keep theirs).
fn member_placements(members: &[usize], placements: &[Option<Mat4>]) -> Option<Vec<Option<Mat4>>> {
    members.iter().map(|&m| placements.get(m).copied()).collect()
}
