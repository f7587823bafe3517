//! Everything a document draws, on the GPU, shared by the window and headless rendering: per humanoid its
//! skin (GPU-skinned), its rigid shapes (segment, joint and site geometry, and skin shapes that do not use
//! the skinCoord node), each placed with `H · G_j · offset` (the grouping transforms between the joint's
//! segment, site or child list and the Shape: drawn from the Shape's own frame, so that a morphing
//! segment's points, computed per frame, are placed like static ones); and the scene's other Shapes
//! (floor, props) placed with their Transform chain. Textures are loaded once per ImageTexture node.

use std::collections::{HashMap, HashSet};

use glam::{Mat4, Vec3};

use super::geometry_events::{EventPoints, GeometryUploads};
use super::mesh_draw::crowd_map;
use super::render_pass::{HumanoidRenderer, Instancing, MeshDraw};
use super::skin_pass::FrameData;
use super::textures::TextureCache;
use super::{GpuContext, GpuError, GpuSkin, SkinCorners};
use crate::hanim::{Document, Humanoid, HumanoidIndex};
use crate::mesh::{
    GeometryNodes, RenderMesh, render_mesh_from_shape, rigid_shape_mesh, rigid_shapes, routed_vertex_nodes, shape_mesh,
    skin_mesh_from_humanoid,
};
use crate::pose::bounds::Aabb;
use crate::pose::skin_inspection::{OverlayMode, PointInfluence};
use crate::pose::{self, Pose};
use crate::x3d::{NodeId, X3dError};

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

/// One humanoid's draws.
pub struct HumanoidDraws {
    /// The skin/morph pass (`None` for a humanoid with nothing to draw, e.g. without joints).
    pub skin: Option<GpuSkin>,
    /// Segment coords events set, by segment, as written into the skin pass.
    segment_coords: HashMap<usize, Vec<glam::Vec3>>,
    skin_draw: Option<MeshDraw>,
    rigid: Vec<RigidDraw>,
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
        self.skin_draw.is_some() || !self.rigid.is_empty()
    }
}

/// One of the scene's other Shapes: its entry in `Document::other_shapes` followed by
/// `Document::switched_out_shapes`, and whether it is shown now.
struct SceneShapeDraw {
    index: usize,
    draw: MeshDraw,
    shown: bool,
}

/// The draws of a whole document.
pub struct SceneDraw {
    /// One per humanoid of the document, in order.
    pub humanoids: Vec<HumanoidDraws>,
    scene_shapes: Vec<SceneShapeDraw>,
    pub textures: TextureCache,
    /// World bounds of the scene's other Shapes (empty without any).
    pub scene_bounds: Aabb,
    /// Skipped or approximated things, one line each (also logged as warnings).
    pub notes: Vec<String>,
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
        let instances = instances.max(1);
        let mut out = SceneDraw {
            humanoids: Vec::new(),
            scene_shapes: Vec::new(),
            textures: TextureCache::new(&ctx.device, &ctx.queue),
            scene_bounds: Aabb::default(),
            notes: Vec::new(),
            triangles: 0,
            appearance_overridden: false,
            routed_vertex_nodes: routed_vertex_nodes(&doc.scene),
            geometry_overridden: false,
            instances,
        };
        for (h, pose) in doc.humanoids.iter().zip(poses) {
            let draws = out.build_humanoid(ctx, renderer, doc, h)?;
            out.humanoids.push(draws);
            let index = HumanoidIndex(out.humanoids.len() - 1);
            let copies = vec![pose; instances as usize];
            let placements = vec![pose.world_from_humanoid(h); instances as usize];
            out.update_humanoid_instances(&ctx.queue, index, h, &copies, &placements);
        }
        let mut notes = Vec::new();
        // The shown Shapes, then those in Switch choices not shown at load (hidden until an event shows
        // them; not in the scene bounds).
        let shown_count = doc.other_shapes.len();
        for (index, &(shape, world)) in doc.other_shapes.iter().chain(&doc.switched_out_shapes).enumerate() {
            let shown = index < shown_count;
            let Some((mesh, points)) = render_mesh_from_shape(&doc.scene, shape, None, Mat4::IDENTITY, &mut notes)
                .map_err(SceneDrawError::geometry("scene"))?
            else {
                continue;
            };
            // A Shape whose vertices events change is kept even when the file's draw nothing (a
            // Coordinate that starts empty).
            let driven = out.event_driven(doc, shape);
            if mesh.indices.is_empty() && !driven {
                continue;
            }
            for &i in mesh.source_point.iter().filter(|_| shown) {
                if let Some(p) = points.get(i as usize) {
                    out.scene_bounds.add(world.transform_point3(*p));
                }
            }
            out.load_textures(ctx, std::slice::from_ref(&mesh));
            let shared = Instancing::shared(instances);
            let mut draw = if driven {
                let own = EventPoints::Own;
                renderer.create_event_mesh(
                    &ctx.device,
                    &doc.scene,
                    &mesh,
                    &points,
                    Mat4::IDENTITY,
                    own,
                    &out.textures,
                    shared,
                )
            } else {
                let buffer = renderer.create_points(&ctx.device, &points);
                renderer.create_rigid_mesh(&ctx.device, &mesh, &buffer, 0, &points, &out.textures, shared)
            }
            .map_err(SceneDrawError::gpu("scene"))?;
            draw.set_instance_placements(&ctx.queue, &vec![world; instances as usize]);
            out.triangles += draw.triangle_count();
            out.scene_shapes.push(SceneShapeDraw { index, draw, shown });
        }
        out.note_all("scene", notes);
        let texture_warnings = out.textures.warnings.clone();
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
                skin: None,
                skin_draw: None,
                rigid: Vec::new(),
                segment_coords: HashMap::new(),
            });
        }
        let (source_point, normals) = if skin_drawn { mesh.concatenated_corners() } else { (Vec::new(), Vec::new()) };
        let corners = SkinCorners { source_point: &source_point, normals: &normals };
        let skin = GpuSkin::instanced(ctx, renderer.skin_pipelines(), h, corners, self.instances)
            .map_err(SceneDrawError::gpu(whose.as_str()))?;
        self.load_textures(ctx, &mesh.parts);
        for b in &built {
            self.load_textures(ctx, std::slice::from_ref(&b.mesh));
        }
        let skin_draw = if skin_drawn {
            let rest = h.skin.as_ref().map(|s| s.points.as_slice()).unwrap_or_default();
            let draw = renderer
                .create_mesh(&ctx.device, &mesh, &skin, rest, &self.textures)
                .map_err(SceneDrawError::gpu(whose.as_str()))?;
            self.triangles += draw.triangle_count();
            Some(draw)
        } else {
            None
        };
        let mut rigid = Vec::new();
        for b in &built {
            let segment_instancing =
                Instancing { count: self.instances, point_stride: skin.segment_point_count, corner_stride: 0 };
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
                        None => (EventPoints::Own, Instancing::shared(self.instances)),
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
                    let shared = Instancing::shared(self.instances);
                    renderer.create_rigid_mesh(&ctx.device, &b.mesh, &buffer, 0, &b.points, &self.textures, shared)
                }
            }
            .map_err(SceneDrawError::gpu(whose.as_str()))?;
            self.triangles += draw.triangle_count();
            rigid.push(RigidDraw { joint: b.joint, offset: b.offset, draw });
        }
        log::info!(
            "{whose}: {} skin points, {} corners, {} rigid shapes",
            skin.point_count,
            skin.corner_count,
            rigid.len()
        );
        Ok(HumanoidDraws { skin: Some(skin), skin_draw, rigid, segment_coords: HashMap::new() })
    }

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
    /// however many copies there are; copies past the end of the slices keep theirs.
    pub fn update_humanoid_instances(
        &mut self,
        queue: &wgpu::Queue,
        index: HumanoidIndex,
        h: &Humanoid,
        poses: &[&Pose],
        world_from_humanoid: &[Mat4],
    ) {
        let Some(draws) = self.humanoids.get_mut(index.0) else { return };
        let Some(skin) = &draws.skin else { return };
        let copies = poses.len().min(world_from_humanoid.len()).min(self.instances as usize);
        // Each copy's joint globals and skin matrices are independent of the others': a crowd computes
        // them on every core (a single humanoid stays on this thread).
        // G_j once per copy and frame, for the skin matrices and the rigid parts alike.
        let globals: Vec<Vec<Mat4>> = crowd_map(&poses[..copies], |_, pose| pose::humanoid_from_joint(h, pose));
        if skin.point_count > 0 || skin.segment_point_count > 0 {
            let frames: Vec<FrameData> = crowd_map(&globals, |k, g| FrameData::from_globals(h, poses[k], g));
            skin.write_frames(queue, &frames);
        }
        if let Some(draw) = &mut draws.skin_draw {
            draw.set_instance_placements(queue, &world_from_humanoid[..copies]);
        }
        for RigidDraw { joint, offset, draw } in &mut draws.rigid {
            let placed = crowd_map(&globals, |k, g| {
                world_from_humanoid[k] * joint.and_then(|j| g.get(j)).copied().unwrap_or(Mat4::IDENTITY) * *offset
            });
            draw.set_instance_placements(queue, &placed);
        }
    }

    /// How many copies of `doc` one [`Self::instanced`] can hold (at least 1, at most `wanted`): the
    /// largest per-copy buffer of its humanoids (skinned points, corners, segment coords or joint
    /// matrices) times the copies must fit the device's storage binding size.
    pub fn instances_that_fit(ctx: &GpuContext, doc: &Document, wanted: u32) -> Result<u32, SceneDrawError> {
        let limit = ctx.max_storage_binding().min(ctx.device.limits().max_buffer_size);
        let mut largest = 1u64;
        for h in &doc.humanoids {
            let whose = format!("humanoid '{}'", h.name);
            let mesh =
                skin_mesh_from_humanoid(&doc.scene, h).map_err(SceneDrawError::geometry(format!("{whose}: skin")))?;
            largest = largest.max(GpuSkin::bytes_per_instance(h, mesh.corner_count()));
        }
        Ok(u32::try_from(limit / largest).unwrap_or(u32::MAX).clamp(1, wanted.max(1)))
    }

    /// Copies of the document these draws hold.
    pub fn instances(&self) -> u32 {
        self.instances
    }

    /// Places the scene's other Shapes of every copy: copy k's shape i at `offsets[k] · placements[i]`
    /// (as [`Self::place_scene_shapes`], each copy moved by its offset).
    pub fn place_scene_shape_instances(&mut self, queue: &wgpu::Queue, placements: &[Option<Mat4>], offsets: &[Mat4]) {
        for shape in &mut self.scene_shapes {
            let Some(placement) = placements.get(shape.index) else { continue };
            shape.shown = placement.is_some();
            if let Some(world) = *placement {
                let placed: Vec<Mat4> = offsets.iter().map(|offset| *offset * world).collect();
                shape.draw.set_instance_placements(queue, &placed);
            }
        }
    }

    /// Places the scene's other Shapes for this frame: `placements[i]` is the world matrix of
    /// `Document::other_shapes[i]`, then of the `switched_out_shapes` (`None`: not shown now, e.g. a
    /// Switch chose another child). Only the
    /// placements that changed are written to the GPU; shapes past the end of `placements` keep theirs.
    pub fn place_scene_shapes(&mut self, queue: &wgpu::Queue, placements: &[Option<Mat4>]) {
        for shape in &mut self.scene_shapes {
            let Some(placement) = placements.get(shape.index) else { continue };
            shape.shown = placement.is_some();
            if let Some(world) = *placement
                && world != shape.draw.world_from_humanoid()
            {
                shape.draw.set_world_from_humanoid(queue, world);
            }
        }
    }

    /// Draws what `overrides` write into Materials and TextureTransforms: the material uniforms of the
    /// parts they change are rewritten (and put back to the file's values when they stop changing
    /// them); nothing is written when no event touches any node. Returns how many uniforms were written.
    pub fn apply_appearance(
        &mut self,
        queue: &wgpu::Queue,
        scene: &crate::x3d::Scene,
        overrides: &crate::animation::events::Overrides,
    ) -> usize {
        let changed = super::appearance_events::overridden_nodes(overrides);
        if changed.is_empty() && !self.appearance_overridden {
            return 0;
        }
        self.appearance_overridden = !changed.is_empty();
        let mut written = 0;
        for h in &mut self.humanoids {
            for draw in h.skin_draw.iter_mut().chain(h.rigid.iter_mut().map(|r| &mut r.draw)) {
                written += draw.apply_appearance(queue, scene, overrides, &changed);
            }
        }
        for shape in &mut self.scene_shapes {
            written += shape.draw.apply_appearance(queue, scene, overrides, &changed);
        }
        written
    }

    /// Draws what `overrides` write into the Coordinate, Normal, Color and TextureCoordinate nodes of
    /// the event draws (scene Shapes and rigid humanoid shapes; see [`super::geometry_events`]): each
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
        let values = super::geometry_events::geometry_values(scene, overrides);
        if values.is_empty() && !self.geometry_overridden {
            return GeometryUploads::default();
        }
        self.geometry_overridden = !values.is_empty();
        let mut written = GeometryUploads::default();
        for (draws, h) in self.humanoids.iter_mut().zip(&doc.humanoids) {
            if let Some(skin) = &draws.skin {
                written.points +=
                    super::geometry_events::write_segment_coords(queue, skin, h, &values, &mut draws.segment_coords);
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
        for h in &self.humanoids {
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
        let rigid = self.humanoids.iter_mut().flat_map(|h| h.rigid.iter_mut().map(|r| &mut r.draw));
        rigid.chain(self.scene_shapes.iter_mut().map(|s| &mut s.draw)).filter(|d| d.has_event_geometry())
    }

    /// Shows the skin overlay `mode` for the joint `selected[h]` of each humanoid `h` (missing or `None`:
    /// no joint) from the next frame on: the skin pass computes its points' values (influence count,
    /// weight sum, the joint's weight), and each rigid shape carries its joint's values (100 %). `Off`
    /// stops the computing.
    pub fn set_overlay(&mut self, queue: &wgpu::Queue, mode: OverlayMode, selected: &[Option<usize>]) {
        for (index, draws) in self.humanoids.iter_mut().enumerate() {
            let selected = selected.get(index).copied().flatten();
            let shown = mode != OverlayMode::Off;
            if let Some(skin) = &mut draws.skin {
                skin.set_overlay(queue, shown.then_some(selected.map(|j| j as u32)));
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

    /// Records every humanoid's skin/morph compute pass.
    pub fn encode(&self, encoder: &mut wgpu::CommandEncoder) {
        for skin in self.humanoids.iter().filter_map(|h| h.skin.as_ref()) {
            skin.encode(encoder);
        }
    }

    /// Every draw, for [`HumanoidRenderer::draw`].
    pub fn draws(&self) -> Vec<&MeshDraw> {
        let mut all = self.humanoid_draws();
        all.extend(self.scene_shapes.iter().filter(|s| s.shown).map(|s| &s.draw));
        all
    }

    /// The draws of humanoid `index` alone.
    pub fn draws_of_humanoid(&self, index: usize) -> Vec<&MeshDraw> {
        let Some(h) = self.humanoids.get(index) else { return Vec::new() };
        h.skin_draw.iter().chain(h.rigid.iter().map(|r| &r.draw)).collect()
    }

    /// The humanoids' draws alone, without the scene's other Shapes.
    pub fn humanoid_draws(&self) -> Vec<&MeshDraw> {
        let mut all: Vec<&MeshDraw> = Vec::new();
        for h in &self.humanoids {
            all.extend(h.skin_draw.iter());
            all.extend(h.rigid.iter().map(|r| &r.draw));
        }
        all
    }
}
