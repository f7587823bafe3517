//! Everything a document draws, on the GPU, shared by the window and headless rendering: per humanoid its
//! skin (GPU-skinned), its rigid shapes (segment, joint and site geometry, and skin shapes that do not use
//! the skinCoord node), each placed with `H · G_j · offset` (the grouping transforms between the joint's
//! segment, site or child list and the Shape: drawn from the Shape's own frame, so that a morphing
//! segment's points, computed per frame, are placed like static ones); and the scene's other Shapes
//! (floor, props) placed with their Transform chain. Textures are loaded once per ImageTexture node.

use std::collections::{HashMap, HashSet};

use glam::{Mat4, Vec3};

use super::geometry_events::EventPoints;
use super::render_pass::{HumanoidRenderer, Instancing, MeshDraw};
use super::textures::TextureCache;
use super::{GpuContext, GpuError, GpuSkin, SkinCorners};
use crate::hanim::{Document, Humanoid, HumanoidIndex};
use crate::mesh::{
    GeometryNodes, RenderMesh, rigid_shape_mesh, rigid_shapes, routed_vertex_nodes, shape_mesh, skin_mesh_from_humanoid,
};
use crate::pose::Pose;
use crate::pose::bounds::Aabb;
use crate::x3d::{NodeId, X3dError};
use scene_shapes::SceneShapeDraw;

mod events;
mod frame_updates;
mod scene_shapes;

/// Why a document's draws could not be built: its geometry cannot be read, or the GPU refused a buffer.
/// The message names the humanoid (and the part) it happened in.
#[derive(Debug, thiserror::Error)]
pub enum SceneDrawError {
    #[error("{whose}: {error}")]
    Geometry { whose: String, error: X3dError },
    #[error("{whose}: {error}")]
    Gpu { whose: String, error: GpuError },
}

impl SceneDrawError {
    fn geometry(whose: impl Into<String>) -> impl FnOnce(X3dError) -> SceneDrawError {
        let whose = whose.into();
        move |error| SceneDrawError::Geometry { whose, error }
    }

    fn gpu(whose: impl Into<String>) -> impl FnOnce(GpuError) -> SceneDrawError {
        let whose = whose.into();
        move |error| SceneDrawError::Gpu { whose, error }
    }
}

/// The draws of one humanoid, or of a group of twins (humanoids the scene repeats, see
/// [`crate::hanim::twins`]), all skinned by one dispatch per kernel and drawn by instanced draws.
pub struct HumanoidDraws {
    /// Copies these draws hold: one block of [`SceneDraw::instances`] copies per twin, in the group's order.
    copies: u32,
    /// The skin/morph pass (`None` for a humanoid with nothing to draw, e.g. without joints).
    pub skin: Option<GpuSkin>,
    /// Segment coords events set, by segment, as written into the skin pass.
    segment_coords: HashMap<usize, Vec<glam::Vec3>>,
    skin_draw: Option<MeshDraw>,
    /// The rigid shapes merged into a one-influence skin (see [`crate::mesh::rigid_merge`]).
    merged: Option<MergedDraw>,
    rigid: Vec<RigidDraw>,
}

/// Rigid shapes drawn as one skin: its pass (posed with the humanoid's joint matrices) and its draw.
struct MergedDraw {
    skin: GpuSkin,
    draw: MeshDraw,
    /// The shapes it holds.
    shapes: usize,
}

/// A rigid shape's draw, placed each frame with `H · G_joint · offset`.
struct RigidDraw {
    /// The joint that places it (`None`: the humanoid transform only).
    joint: Option<usize>,
    /// Grouping transforms between the holder and the Shape; the draw's points are in the Shape's frame.
    offset: Mat4,
    draw: MeshDraw,
}

impl HumanoidDraws {
    /// False when the humanoid has no geometry at all (callers then show its skeleton).
    pub fn has_geometry(&self) -> bool {
        self.skin_draw.is_some() || self.merged.is_some() || !self.rigid.is_empty()
    }

    /// Every draw of the humanoid (or group of twins).
    fn all_draws(&self) -> impl Iterator<Item = &MeshDraw> {
        let merged = self.merged.iter().map(|m| &m.draw);
        self.skin_draw.iter().chain(merged).chain(self.rigid.iter().map(|r| &r.draw))
    }

    fn all_draws_mut(&mut self) -> impl Iterator<Item = &mut MeshDraw> {
        let merged = self.merged.iter_mut().map(|m| &mut m.draw);
        self.skin_draw.iter_mut().chain(merged).chain(self.rigid.iter_mut().map(|r| &mut r.draw))
    }
}

/// How a document's humanoids are put into draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Batching {
    /// Twins (humanoids the scene repeats) share one skin pass and instanced draws.
    pub twins: bool,
    /// A humanoid's rigid shapes that share an appearance are merged into a one-influence skin.
    pub merge_rigid: bool,
}

impl Batching {
    /// What every view draws with.
    pub const ALL: Batching = Batching { twins: true, merge_rigid: true };
    /// Each humanoid and each rigid shape in draws of its own: what batching is measured against.
    pub const NONE: Batching = Batching { twins: false, merge_rigid: false };
}

/// Where a humanoid of the document is drawn: its group's draws, and the first of its copies there.
#[derive(Debug, Clone, Copy)]
struct Slot {
    batch: usize,
    first_copy: u32,
}

/// The draws of a whole document.
pub struct SceneDraw {
    /// One per group of twin humanoids (a humanoid without twins is a group of one), ordered by their
    /// first member.
    batches: Vec<HumanoidDraws>,
    /// One per humanoid of the document, in order.
    slots: Vec<Slot>,
    /// The first humanoid of each batch: the one its draws were built from.
    leaders: Vec<HumanoidIndex>,
    scene_shapes: Vec<SceneShapeDraw>,
    pub textures: TextureCache,
    /// World bounds of the scene's other Shapes (empty without any).
    pub scene_bounds: Aabb,
    /// Skipped or approximated things, one line each (also logged as warnings).
    pub notes: Vec<String>,
    /// Triangles one copy of the document draws (every twin counted).
    pub triangles: u32,
    /// Whether the material uniforms hold values events set (so that they are put back when the events
    /// stop setting them).
    appearance_overridden: bool,
    /// Nodes whose vertex fields ROUTEs write (their Shapes are event draws).
    routed_vertex_nodes: HashSet<NodeId>,
    /// Whether the event draws hold values events set (so that they are put back when the events stop
    /// setting them).
    geometry_overridden: bool,
    /// Copies of the whole document drawn together (1 but for crowds: `bench --copies`); every skin,
    /// rigid shape and scene Shape holds this many instances.
    instances: u32,
    batching: Batching,
    /// Every node a ROUTE writes (a rigid shape holding one keeps a draw of its own).
    route_targets: HashSet<NodeId>,
}

/// A rigid shape's mesh with the points it indexes, in the Shape's own frame, and the offset that places
/// that frame.
struct Built {
    joint: Option<usize>,
    morph_segment: Option<usize>,
    offset: Mat4,
    mesh: RenderMesh,
    points: Vec<Vec3>,
    /// Events change its vertices: drawn by an event draw.
    driven: bool,
}

impl SceneDraw {
    /// Builds the draws of every humanoid of `doc` at `poses` (one per humanoid) and of its other Shapes.
    pub fn new(
        ctx: &GpuContext,
        renderer: &HumanoidRenderer,
        doc: &Document,
        poses: &[Pose],
    ) -> Result<Self, SceneDrawError> {
        Self::instanced(ctx, renderer, doc, poses, 1)
    }

    /// As [`Self::new`], with `instances` copies of the document in the same draws: each humanoid's
    /// copies are skinned by one dispatch per kernel and drawn by one instanced draw per opaque part.
    /// Every copy starts at `poses`, placed where the file places it; [`Self::update_humanoid_instances`]
    /// and [`Self::place_scene_shape_instances`] pose and place them. See [`Self::instances_that_fit`]
    /// for how many the GPU's buffer limits allow.
    pub fn instanced(
        ctx: &GpuContext,
        renderer: &HumanoidRenderer,
        doc: &Document,
        poses: &[Pose],
        instances: u32,
    ) -> Result<Self, SceneDrawError> {
        Self::build(ctx, renderer, doc, poses, instances, Batching::ALL)
    }

    /// As [`Self::new`], batched as `batching` says (tests compare the ways).
    pub fn with_batching(
        ctx: &GpuContext,
        renderer: &HumanoidRenderer,
        doc: &Document,
        poses: &[Pose],
        batching: Batching,
    ) -> Result<Self, SceneDrawError> {
        Self::build(ctx, renderer, doc, poses, 1, batching)
    }

    /// As [`Self::new`], with every humanoid in draws of its own even where the scene repeats it: what
    /// batching twins is measured and checked against.
    pub fn unbatched(
        ctx: &GpuContext,
        renderer: &HumanoidRenderer,
        doc: &Document,
        poses: &[Pose],
    ) -> Result<Self, SceneDrawError> {
        Self::build(ctx, renderer, doc, poses, 1, Batching::NONE)
    }

    fn build(
        ctx: &GpuContext,
        renderer: &HumanoidRenderer,
        doc: &Document,
        poses: &[Pose],
        instances: u32,
        batching: Batching,
    ) -> Result<Self, SceneDrawError> {
        let instances = instances.max(1);
        let groups = if batching.twins {
            crate::hanim::twins::twin_groups(doc)
        } else {
            doc.indexed_humanoids().map(|(i, _)| vec![i]).collect()
        };
        let mut out = SceneDraw {
            batches: Vec::new(),
            slots: vec![Slot { batch: 0, first_copy: 0 }; doc.humanoids.len()],
            leaders: Vec::new(),
            scene_shapes: Vec::new(),
            textures: TextureCache::new(&ctx.device, &ctx.queue),
            scene_bounds: Aabb::default(),
            notes: Vec::new(),
            triangles: 0,
            appearance_overridden: false,
            routed_vertex_nodes: routed_vertex_nodes(&doc.scene),
            geometry_overridden: false,
            instances,
            batching,
            route_targets: doc.scene.routes.iter().map(|r| r.to_node).collect(),
        };
        for group in groups {
            let leader = group[0];
            let copies = instances.saturating_mul(group.len() as u32);
            let mut draws = out.build_humanoid(ctx, renderer, doc, &doc.humanoids[leader.0], copies)?;
            // Copy k of member m is instance m · instances + k; each is lit by its own scoped lights.
            let lists: Vec<Vec<&crate::hanim::SceneLight>> = group
                .iter()
                .flat_map(|member| std::iter::repeat_n(member, instances as usize))
                .map(|member| doc.scoped_lights(doc.ancestry.of_humanoid(member.0)).collect())
                .collect();
            for draw in draws.all_draws_mut() {
                renderer.set_scoped_lights(&ctx.device, draw, &lists);
            }
            let batch = out.batches.len();
            for (member, index) in group.iter().enumerate() {
                out.slots[index.0] = Slot { batch, first_copy: member as u32 * instances };
            }
            out.batches.push(draws);
            out.leaders.push(leader);
            for index in group {
                let (h, Some(pose)) = (&doc.humanoids[index.0], poses.get(index.0)) else { continue };
                let copies = vec![pose; instances as usize];
                let placements = vec![pose.world_from_humanoid(h); instances as usize];
                out.update_humanoid_instances(&ctx.queue, index, h, &copies, &placements);
            }
        }
        out.build_scene_shapes(ctx, renderer, doc, instances)?;
        // Where the ImageTexture is in the file, so the Problems window and logs point at it.
        let texture_warnings: Vec<String> = out
            .textures
            .warnings
            .iter()
            .map(|(node, message)| format!("{}: {message}", doc.scene.pos(doc.scene.node(*node).loc)))
            .collect();
        out.notes.extend(texture_warnings);
        Ok(out)
    }

    /// Whether events change the vertices of `shape`'s geometry (a ROUTE writes one of its Coordinate,
    /// Normal, Color or TextureCoordinate nodes).
    fn event_driven(&self, doc: &Document, shape: NodeId) -> bool {
        GeometryNodes::of_shape(&doc.scene, shape).iter().any(|n| self.routed_vertex_nodes.contains(&n))
    }

    fn note_all(&mut self, whose: &str, notes: Vec<String>) {
        for note in notes {
            log::warn!("{whose}: {note}");
            self.notes.push(format!("{whose}: {note}"));
        }
    }

    fn load_textures(&mut self, ctx: &GpuContext, meshes: &[RenderMesh]) {
        for mesh in meshes {
            if let Some(texture) = &mesh.texture {
                self.textures.load(&ctx.device, &ctx.queue, texture);
            }
            for (bit, map) in mesh.maps.present() {
                let encoding = super::material_bindings::map_encoding(bit);
                self.textures.load_as(&ctx.device, &ctx.queue, map, encoding);
            }
        }
    }

    fn build_humanoid(
        &mut self,
        ctx: &GpuContext,
        renderer: &HumanoidRenderer,
        doc: &Document,
        h: &Humanoid,
        copies: u32,
    ) -> Result<HumanoidDraws, SceneDrawError> {
        let whose = format!("humanoid '{}'", h.name);
        let mesh =
            skin_mesh_from_humanoid(&doc.scene, h).map_err(SceneDrawError::geometry(format!("{whose}: skin")))?;
        let mut notes = Vec::new();
        let mut built = Vec::new();
        for shape in rigid_shapes(&doc.scene, h).map_err(SceneDrawError::geometry(format!("{whose}: segments")))? {
            let driven = self.event_driven(doc, shape.shape);
            if let Some(own) =
                rigid_shape_mesh(&doc.scene, h, &shape, &mut notes).map_err(SceneDrawError::geometry(whose.as_str()))?
                && (driven || !own.mesh.indices.is_empty())
            {
                let (joint, morph_segment) = (shape.joint, shape.morph_segment);
                let (offset, mesh, points) = (own.offset, own.mesh, own.points);
                built.push(Built { joint, morph_segment, offset, mesh, points, driven });
            }
        }
        // Skin shapes that do not use the skinCoord node do not deform: drawn with the humanoid.
        for shape in h.skin.iter().flat_map(|s| &s.shapes).filter(|s| !s.deforms) {
            let driven = self.event_driven(doc, shape.shape);
            if let Some(own) = shape_mesh(&doc.scene, shape.shape, None, Mat4::IDENTITY, &mut notes)
                .map_err(SceneDrawError::geometry(whose.as_str()))?
                && (driven || !own.mesh.indices.is_empty())
            {
                let (offset, mesh, points) = (own.offset, own.mesh, own.points);
                built.push(Built { joint: None, morph_segment: None, offset, mesh, points, driven });
            }
        }
        self.note_all(&whose, mesh.notes.clone());
        self.note_all(&whose, notes);

        let skin_drawn = h.skin.is_some() && mesh.parts.iter().any(|p| !p.indices.is_empty());
        if !skin_drawn && built.is_empty() {
            return Ok(HumanoidDraws {
                copies,
                skin: None,
                skin_draw: None,
                merged: None,
                rigid: Vec::new(),
                segment_coords: HashMap::new(),
            });
        }
        let (source_point, normals) = if skin_drawn { mesh.concatenated_corners() } else { (Vec::new(), Vec::new()) };
        let corners = SkinCorners { source_point: &source_point, normals: &normals };
        let skin = GpuSkin::instanced(ctx, renderer.skin_pipelines(), h, corners, copies)
            .map_err(SceneDrawError::gpu(whose.as_str()))?;
        self.load_textures(ctx, &mesh.parts);
        for b in &built {
            self.load_textures(ctx, std::slice::from_ref(&b.mesh));
        }
        let (merged, built) = self.merge_rigid(ctx, renderer, doc, h, built, copies, &whose)?;
        let skin_draw = if skin_drawn {
            let rest = h.skin.as_ref().map(|s| s.points.as_slice()).unwrap_or_default();
            let draw = renderer
                .create_mesh(&ctx.device, &mesh, &skin, rest, &self.textures)
                .map_err(SceneDrawError::gpu(whose.as_str()))?;
            self.triangles += draw.triangle_count() * (copies / self.instances);
            Some(draw)
        } else {
            None
        };
        let mut rigid = Vec::new();
        for b in &built {
            let segment_instancing =
                Instancing { count: copies, point_stride: skin.segment_point_count, corner_stride: 0 };
            let draw = match b.morph_segment {
                _ if b.driven => {
                    // A Shape events rebuild: its points from the morphed segment's, or its own.
                    let (source, instancing) = match b.morph_segment {
                        Some(s) => {
                            let first = skin.segment_offsets[s];
                            (
                                EventPoints::Segment { buffer: &skin.segment_points, first, rest: &b.points },
                                segment_instancing,
                            )
                        }
                        None => (EventPoints::Own, Instancing::shared(copies)),
                    };
                    let (device, scene, textures) = (&ctx.device, &doc.scene, &self.textures);
                    renderer
                        .create_event_mesh(device, scene, &b.mesh, &b.points, b.offset, source, textures, instancing)
                }
                Some(s) => renderer.create_rigid_mesh(
                    &ctx.device,
                    &b.mesh,
                    &skin.segment_points,
                    skin.segment_offsets[s],
                    &b.points,
                    &self.textures,
                    segment_instancing,
                ),
                None => {
                    let buffer = renderer.create_points(&ctx.device, &b.points);
                    let shared = Instancing::shared(copies);
                    renderer.create_rigid_mesh(&ctx.device, &b.mesh, &buffer, 0, &b.points, &self.textures, shared)
                }
            }
            .map_err(SceneDrawError::gpu(whose.as_str()))?;
            self.triangles += draw.triangle_count() * (copies / self.instances);
            rigid.push(RigidDraw { joint: b.joint, offset: b.offset, draw });
        }
        log::info!(
            "{whose}: {} skin points, {} corners, {} rigid shapes merged into one skin, {} drawn apart",
            skin.point_count,
            skin.corner_count,
            merged.as_ref().map_or(0, |m| m.shapes),
            rigid.len()
        );
        Ok(HumanoidDraws { copies, skin: Some(skin), skin_draw, merged, rigid, segment_coords: HashMap::new() })
    }

    /// Splits `built` into the rigid shapes merged into one skin (opaque triangles on a joint, static,
    /// with nothing routed into them: see [`crate::mesh::rigid_merge`]) and those drawn apart.
    #[allow(clippy::too_many_arguments)]
    fn merge_rigid(
        &mut self,
        ctx: &GpuContext,
        renderer: &HumanoidRenderer,
        doc: &Document,
        h: &Humanoid,
        built: Vec<Built>,
        copies: u32,
        whose: &str,
    ) -> Result<(Option<MergedDraw>, Vec<Built>), SceneDrawError> {
        use crate::mesh::rigid_merge::{RigidPiece, can_merge, merge_rigid};
        if !self.batching.merge_rigid {
            return Ok((None, built));
        }
        fn piece(b: &Built) -> Option<RigidPiece<'_>> {
            b.joint.map(|joint| RigidPiece { joint, offset: b.offset, mesh: &b.mesh, points: &b.points })
        }
        let mergeable = |b: &Built| {
            !b.driven
                && b.morph_segment.is_none()
                && !self.may_blend(&b.mesh)
                && !self.holds_route_target(doc, b.mesh.shape)
                && piece(b).is_some_and(|p| can_merge(h, &p))
        };
        let (merging, apart): (Vec<Built>, Vec<Built>) = built.into_iter().partition(|b| mergeable(b));
        if merging.len() < 2 {
            return Ok((None, merging.into_iter().chain(apart).collect()));
        }
        let pieces: Vec<RigidPiece> = merging.iter().filter_map(piece).collect();
        let merged = merge_rigid(h, &pieces);
        let rigid_h = &merged.humanoid;
        let (source_point, normals) = merged.mesh.concatenated_corners();
        let corners = SkinCorners { source_point: &source_point, normals: &normals };
        let skin = GpuSkin::instanced(ctx, renderer.skin_pipelines(), rigid_h, corners, copies)
            .map_err(SceneDrawError::gpu(whose))?;
        let rest = rigid_h.skin.as_ref().map(|s| s.points.as_slice()).unwrap_or_default();
        let draw = renderer
            .create_mesh(&ctx.device, &merged.mesh, &skin, rest, &self.textures)
            .map_err(SceneDrawError::gpu(whose))?;
        self.triangles += draw.triangle_count() * (copies / self.instances);
        Ok((Some(MergedDraw { skin, draw, shapes: merging.len() }), apart))
    }

    /// Whether `mesh` may be drawn blended (sorted back to front, so never merged): a transparent
    /// material, colours with alpha or a texture with alpha.
    fn may_blend(&self, mesh: &RenderMesh) -> bool {
        mesh.material.transparency > 0.0
            || mesh.colors.iter().any(|c| c[3] < 1.0)
            || mesh.texture.as_ref().is_some_and(|t| self.textures.get(t).is_none_or(|g| g.has_alpha))
    }

    /// Whether a ROUTE writes any node of the Shape `shape` (its appearance, material, geometry).
    fn holds_route_target(&self, doc: &Document, shape: NodeId) -> bool {
        let mut seen = HashSet::new();
        let mut stack = vec![shape];
        while let Some(id) = stack.pop() {
            if !seen.insert(id) {
                continue;
            }
            if self.route_targets.contains(&id) {
                return true;
            }
            stack.extend(doc.scene.node(id).children.iter().map(|c| c.node));
        }
        false
    }

    /// Shows only the copies of humanoid `only` (`None`: every humanoid) in the next frames' draws.
    pub fn show_only(&mut self, only: Option<usize>) {
        let instances = self.instances;
        for (b, draws) in self.batches.iter_mut().enumerate() {
            let shown = match only.and_then(|i| self.slots.get(i)) {
                None if only.is_none() => 0..draws.copies,
                Some(slot) if slot.batch == b => slot.first_copy..slot.first_copy + instances,
                _ => 0..0,
            };
            for draw in draws.all_draws_mut() {
                draw.show_instances(shown.clone());
            }
        }
    }

    /// Whether humanoid `index` draws any geometry (callers show the skeleton of one that does not).
    pub fn has_geometry(&self, index: usize) -> bool {
        self.slots.get(index).is_some_and(|slot| self.batches[slot.batch].has_geometry())
    }

    /// The skin passes, one per group of twins.
    /// The skin passes: per group of twins its skin's, then its merged rigid shapes' (if any).
    pub fn skins(&self) -> impl Iterator<Item = &GpuSkin> {
        self.batches.iter().flat_map(|b| b.skin.iter().chain(b.merged.iter().map(|m| &m.skin)))
    }

    /// Groups of twins drawn together (as many as the document has humanoids when none repeats).
    pub fn batch_count(&self) -> usize {
        self.batches.len()
    }
}

impl SceneDraw {
    /// How many copies of `doc` one [`Self::instanced`] can hold (at least 1, at most `wanted`): the
    /// largest per-copy buffer of its humanoids (skinned points, corners, segment coords or joint
    /// matrices) times the copies must fit the device's storage binding size.
    pub fn instances_that_fit(ctx: &GpuContext, doc: &Document, wanted: u32) -> Result<u32, SceneDrawError> {
        let limit = ctx.max_storage_binding().min(ctx.device.limits().max_buffer_size);
        let mut largest = 1u64;
        // Twins share their buffers: a group of n needs n times a copy's bytes per copy of the document.
        for group in crate::hanim::twins::twin_groups(doc) {
            let h = &doc.humanoids[group[0].0];
            let whose = format!("humanoid '{}'", h.name);
            let mesh =
                skin_mesh_from_humanoid(&doc.scene, h).map_err(SceneDrawError::geometry(format!("{whose}: skin")))?;
            let bytes = GpuSkin::bytes_per_instance(h, mesh.corner_count()).saturating_mul(group.len() as u64);
            largest = largest.max(bytes);
        }
        Ok(u32::try_from(limit / largest).unwrap_or(u32::MAX).clamp(1, wanted.max(1)))
    }

    /// Copies of the document these draws hold.
    pub fn instances(&self) -> u32 {
        self.instances
    }

    /// Records the skin/morph compute pass of every humanoid whose pose changed since its last one.
    pub fn encode(&self, encoder: &mut wgpu::CommandEncoder) {
        for skin in self.skins() {
            skin.encode(encoder);
        }
    }

    /// Records every humanoid's skin/morph compute pass, changed or not (timing the pass alone).
    pub fn encode_always(&self, encoder: &mut wgpu::CommandEncoder) {
        for skin in self.skins() {
            skin.encode_always(encoder);
        }
    }

    /// Every draw, for [`HumanoidRenderer::draw`].
    pub fn draws(&self) -> Vec<&MeshDraw> {
        let mut all = self.humanoid_draws();
        all.extend(self.scene_shapes.iter().filter(|s| s.any_shown()).map(|s| &s.draw));
        all
    }

    /// The draws of humanoid `index` alone: those of its group of twins, which draw its copies alone
    /// once [`Self::show_only`] chose it.
    pub fn draws_of_humanoid(&self, index: usize) -> Vec<&MeshDraw> {
        let Some(h) = self.slots.get(index).map(|slot| &self.batches[slot.batch]) else { return Vec::new() };
        h.all_draws().collect()
    }

    /// The humanoids' draws alone, without the scene's other Shapes.
    pub fn humanoid_draws(&self) -> Vec<&MeshDraw> {
        let mut all: Vec<&MeshDraw> = Vec::new();
        for h in &self.batches {
            all.extend(h.all_draws());
        }
        all
    }
}
