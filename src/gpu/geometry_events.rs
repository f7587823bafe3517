//! What events write into the nodes geometry reads its vertices from, drawn: a CoordinateInterpolator
//! into a Coordinate's `point`, a NormalInterpolator into a Normal's `vector`, a ColorInterpolator into a
//! Color's `color`, a CoordinateInterpolator2D into a TextureCoordinate's `point`. A Shape whose geometry
//! uses a node a ROUTE writes is drawn by an *event draw* (`EventGeometry`): when the values its nodes
//! hold change, its mesh is built again from them exactly as a file with those values written in would
//! be (triangulation, generated normals within the crease angle, colours, texture coordinates), and each
//! of its four buffers — points, normals, corner vertices, indices — is written only when its bytes
//! differ from what it holds. A draw's buffers grow when the new data outgrows them (a Coordinate that
//! starts empty), which rebuilds its bind group. Skins are not event draws: displacers morph them. A
//! segment's own `coord` (the points its displacers morph) that events write is given to the skin pass
//! as the segment's new rest points ([`write_segment_coords`]).

use glam::{Mat4, Vec3};
use wgpu::util::DeviceExt;

use super::mesh_draw::{MeshDraw, corner_vertex_data, normal_data, point_data};
use super::render_pass::{HumanoidRenderer, Instancing, Sources, part_centre};
use super::textures::TextureCache;
use super::{GpuError, error::CreationScope};
use crate::animation::events::{FieldValue, Overrides};
use crate::mesh::{GeometryNodes, GeometryValues, RenderMesh, is_vertex_field, shape_mesh_with};
use crate::x3d::{NodeId, Scene};

/// Buffer writes events caused, by buffer kind: what a test (or a profile) reads to see that only what
/// changed was uploaded.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GeometryUploads {
    pub points: u32,
    pub normals: u32,
    pub corners: u32,
    pub indices: u32,
    /// Of those, writes into a new, larger buffer (the data outgrew the old one).
    pub grown: u32,
}

impl GeometryUploads {
    /// Every buffer write.
    pub fn total(&self) -> u32 {
        self.points + self.normals + self.corners + self.indices
    }
}

impl std::ops::AddAssign for GeometryUploads {
    fn add_assign(&mut self, o: GeometryUploads) {
        self.points += o.points;
        self.normals += o.normals;
        self.corners += o.corners;
        self.indices += o.indices;
        self.grown += o.grown;
    }
}

/// The vertex-field values `overrides` set, for the mesh builder. Only values of the field's own type
/// count: a single colour into a Color's list is no event (the event model refuses such a ROUTE, X3D
/// 4.0 4.4.8.2).
pub fn geometry_values(scene: &Scene, overrides: &Overrides) -> GeometryValues {
    let mut out = GeometryValues::default();
    for (node, field, value) in overrides.iter() {
        let type_name = scene.node(node).type_name.as_str();
        if !is_vertex_field(type_name, field) {
            continue;
        }
        match (type_name, value) {
            ("Coordinate" | "CoordinateDouble", FieldValue::Vec3s(v)) => {
                out.points.insert(node, v.clone());
            }
            ("Normal", FieldValue::Vec3s(v)) => {
                out.vectors.insert(node, v.clone());
            }
            ("Color" | "ColorRGBA", FieldValue::Vec3s(v)) => {
                out.colors.insert(node, v.iter().map(|c| c.extend(1.0).to_array()).collect());
            }
            ("TextureCoordinate", FieldValue::Vec2s(v)) => {
                out.tex_coords.insert(node, v.iter().map(|p| p.to_array()).collect());
            }
            _ => {}
        }
    }
    out
}

/// A GPU buffer events rewrite, with the bytes it holds (to write only what differs).
struct EventBuffer {
    buffer: wgpu::Buffer,
    label: &'static str,
    usage: wgpu::BufferUsages,
    /// What the data part of the buffer holds now.
    written: Vec<u8>,
}

/// Smallest size of an event buffer: one vec4 (a storage binding holds at least one element).
const MIN_BYTES: u64 = 16;

impl EventBuffer {
    fn new(device: &wgpu::Device, label: &'static str, usage: wgpu::BufferUsages, bytes: &[u8]) -> EventBuffer {
        let usage = usage | wgpu::BufferUsages::COPY_DST;
        let buffer = Self::create(device, label, usage, bytes, bytes.len() as u64);
        EventBuffer { buffer, label, usage, written: bytes.to_vec() }
    }

    fn create(device: &wgpu::Device, label: &str, usage: wgpu::BufferUsages, bytes: &[u8], size: u64) -> wgpu::Buffer {
        // Whole vec4s, never empty: what a storage binding and `write_buffer` (4-byte multiples) need.
        let size = size.max(MIN_BYTES).next_multiple_of(MIN_BYTES);
        let mut contents = vec![0u8; size as usize];
        contents[..bytes.len()].copy_from_slice(bytes);
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(label), contents: &contents, usage })
    }

    /// Writes `bytes` unless the buffer holds them already: `None` when nothing was written, `Some(true)`
    /// when they did not fit and a new buffer (half as large again) holds them.
    fn write(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, bytes: &[u8]) -> Option<bool> {
        if bytes == self.written.as_slice() {
            return None;
        }
        if bytes.is_empty() {
            // Nothing to upload: the draw's empty index range reads none of the old bytes.
            self.written.clear();
            return None;
        }
        let grown = bytes.len() as u64 > self.buffer.size();
        if grown {
            let size = bytes.len() as u64 + bytes.len() as u64 / 2;
            self.buffer = Self::create(device, self.label, self.usage, bytes, size);
        } else {
            // Bytes past the new data stay as they were: nothing indexes them.
            queue.write_buffer(&self.buffer, 0, bytes);
        }
        self.written = bytes.to_vec();
        Some(grown)
    }
}

/// What an event draw needs to build its mesh again and rewrite its buffers.
pub(super) struct EventGeometry {
    /// The device its buffers were made on (a buffer that grows is made anew there).
    device: wgpu::Device,
    shape: NodeId,
    /// The nodes whose values rebuild it (a morphing segment's points come from the skin pass: its
    /// `coord` is not among them).
    nodes: GeometryNodes,
    /// The offset the mesh is wound for (see [`crate::mesh::ShapeMesh`]).
    offset: Mat4,
    /// A morphing segment's rest points (its corners then index the skin pass's morphed points).
    morph_points: Option<Vec<Vec3>>,
    first_point: u32,
    /// Its own points (`None` for a morphing segment, whose points the skin pass writes).
    points: Option<EventBuffer>,
    /// The buffer bound as its points (its own, or the skin pass's morphed segment points).
    bound_points: wgpu::Buffer,
    normals: EventBuffer,
    corners: EventBuffer,
    indices: EventBuffer,
    placement_layout: wgpu::BindGroupLayout,
    overlay_values: wgpu::Buffer,
    /// The part's texture has alpha (blended whatever the colours).
    texture_alpha: bool,
    /// The values of [`Self::nodes`] the buffers were last built from (empty: the file's).
    applied: GeometryValues,
    uploads: GeometryUploads,
}

/// Where an event draw's points come from.
pub enum EventPoints<'a> {
    /// Its own buffer, filled from the mesh's points (scene Shapes, rigid humanoid shapes).
    Own,
    /// A morphing segment's: the skin pass's morphed points from `first` on, `rest` at rest.
    Segment { buffer: &'a wgpu::Buffer, first: u32, rest: &'a [Vec3] },
}

impl HumanoidRenderer {
    /// Uploads one Shape whose geometry events change (see the module's note): `mesh` and `points` as
    /// the file gives them (possibly empty: a Coordinate events fill), in the Shape's own frame, wound
    /// for `offset`; `instancing` as for [`Self::create_rigid_mesh`].
    #[allow(clippy::too_many_arguments)]
    pub fn create_event_mesh(
        &self,
        device: &wgpu::Device,
        scene: &Scene,
        mesh: &RenderMesh,
        points: &[Vec3],
        offset: Mat4,
        source: EventPoints<'_>,
        textures: &TextureCache,
        instancing: Instancing,
    ) -> Result<MeshDraw, GpuError> {
        let scope = CreationScope::push(device, "event mesh buffers");
        let storage = wgpu::BufferUsages::STORAGE;
        let mut nodes = GeometryNodes::of_shape(scene, mesh.shape);
        let (own, bound_points, first_point, rest, morph_points) = match source {
            EventPoints::Own => {
                let own = EventBuffer::new(
                    device,
                    "humanoid::event_points",
                    storage,
                    bytemuck::cast_slice(&point_data(points)),
                );
                let bound = own.buffer.clone();
                (Some(own), bound, 0, points, None)
            }
            EventPoints::Segment { buffer, first, rest } => {
                nodes.coord = None;
                (None, buffer.clone(), first, rest, Some(rest.to_vec()))
            }
        };
        let normals =
            EventBuffer::new(device, "humanoid::event_normals", storage, bytemuck::cast_slice(&normal_data(mesh)));
        let (layout, overlay_values) = self.placement_binding();
        let sources = Sources {
            first_point,
            points: &bound_points,
            overlay_values,
            rest_points: rest,
            textures,
            instancing: Instancing { corner_stride: 0, ..instancing },
        };
        let mut draw = self.build_draw(device, std::slice::from_ref(mesh), &[0], sources, normals.buffer.clone())?;
        let corners = EventBuffer::new(
            device,
            "humanoid::event_corner_vertices",
            wgpu::BufferUsages::VERTEX,
            bytemuck::cast_slice(&corner_vertex_data(mesh, first_point)),
        );
        let indices = EventBuffer::new(
            device,
            "humanoid::event_indices",
            wgpu::BufferUsages::INDEX,
            bytemuck::cast_slice(&mesh.indices),
        );
        draw.corner_vertices = corners.buffer.clone();
        draw.indices = indices.buffer.clone();
        let texture_alpha = mesh.texture.as_ref().and_then(|t| textures.get(t)).is_some_and(|t| t.has_alpha);
        draw.geometry = Some(Box::new(EventGeometry {
            device: device.clone(),
            shape: mesh.shape,
            nodes,
            offset,
            morph_points,
            first_point,
            points: own,
            bound_points,
            normals,
            corners,
            indices,
            placement_layout: layout.clone(),
            overlay_values: overlay_values.clone(),
            texture_alpha,
            applied: GeometryValues::default(),
            uploads: GeometryUploads::default(),
        }));
        scope.finish()?;
        Ok(draw)
    }
}

impl MeshDraw {
    /// Whether events change this draw's geometry.
    pub fn has_event_geometry(&self) -> bool {
        self.geometry.is_some()
    }

    /// Every buffer write events caused in this draw so far.
    pub fn geometry_uploads(&self) -> GeometryUploads {
        self.geometry.as_ref().map(|g| g.uploads).unwrap_or_default()
    }

    /// Builds this event draw's mesh again from `values` (the file's values where it has none) when the
    /// values of its nodes differ from those it was last built from, and writes the buffers whose bytes
    /// changed. Returns the writes (none for a draw that is not an event draw).
    pub fn apply_geometry(&mut self, queue: &wgpu::Queue, scene: &Scene, values: &GeometryValues) -> GeometryUploads {
        let Some(g) = self.geometry.as_deref_mut() else { return GeometryUploads::default() };
        let own = values.restricted_to(&g.nodes);
        if own == g.applied {
            return GeometryUploads::default();
        }
        let mut notes = Vec::new();
        let built = shape_mesh_with(scene, g.shape, g.morph_points.as_deref(), g.offset, &own, &mut notes);
        let (mesh, points) = match built {
            Ok(Some(m)) => (Some(m.mesh), m.points),
            // Geometry that cannot be drawn at these values draws nothing until they change.
            Ok(None) => (None, Vec::new()),
            Err(e) => {
                log::warn!("{}: {e}; drawn as before", scene.describe(g.shape));
                g.applied = own;
                return GeometryUploads::default();
            }
        };
        g.applied = own;
        let empty: &[u32] = &[];
        let index_data = mesh.as_ref().map_or(empty, |m| m.indices.as_slice());
        let corner_data = mesh.as_ref().map(|m| corner_vertex_data(m, g.first_point)).unwrap_or_default();
        let normals = mesh.as_ref().map(normal_data).unwrap_or_default();
        let mut up = GeometryUploads::default();
        let mut rebind = false;
        if let Some(own_points) = &mut g.points
            && let Some(grown) = own_points.write(&g.device, queue, bytemuck::cast_slice(&point_data(&points)))
        {
            up.points += 1;
            up.grown += u32::from(grown);
            if grown {
                g.bound_points = own_points.buffer.clone();
                rebind = true;
            }
        }
        if let Some(grown) = g.normals.write(&g.device, queue, bytemuck::cast_slice(&normals)) {
            up.normals += 1;
            up.grown += u32::from(grown);
            rebind |= grown;
        }
        if let Some(grown) = g.corners.write(&g.device, queue, bytemuck::cast_slice(&corner_data)) {
            up.corners += 1;
            up.grown += u32::from(grown);
            self.corner_vertices = g.corners.buffer.clone();
        }
        if let Some(grown) = g.indices.write(&g.device, queue, bytemuck::cast_slice(index_data)) {
            up.indices += 1;
            up.grown += u32::from(grown);
            self.indices = g.indices.buffer.clone();
        }
        if rebind {
            self.placement_group = g.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("humanoid::placement_bind_group"),
                layout: &g.placement_layout,
                entries: &[
                    wgpu::BindGroupEntry { binding: 1, resource: g.bound_points.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 2, resource: g.overlay_values.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 3, resource: g.normals.buffer.as_entire_binding() },
                ],
            });
        }
        if let Some(part) = self.parts.first_mut() {
            part.indices = 0..index_data.len() as u32;
            if let Some(m) = &mesh {
                let rest = g.morph_points.as_deref().unwrap_or(&points);
                part.centre = part_centre(m, rest);
                part.appearance.see_through = g.texture_alpha || m.colors.iter().any(|c| c[3] < 1.0);
                part.variant.blended = part.written.diffuse[3] < 1.0 || part.appearance.see_through;
            }
        }
        g.uploads += up;
        up
    }
}

/// Writes the points events set in the segments' own `coord` nodes into `skin` as the points the morph
/// kernel starts from, and the file's points back when the events stop setting them. `applied[s]`: what
/// segment `s` holds now, when not the file's. Returns the buffer writes; a value whose count is not the
/// segment's is left out (logged once per change).
pub fn write_segment_coords(
    queue: &wgpu::Queue,
    skin: &super::skin_pass::GpuSkin,
    h: &crate::hanim::Humanoid,
    values: &GeometryValues,
    applied: &mut std::collections::HashMap<usize, Vec<Vec3>>,
) -> u32 {
    let mut writes = 0;
    for (s, segment) in h.segments.iter().enumerate() {
        let Some(coord) = segment.coord else { continue };
        let wanted = values.points.get(&coord);
        let now = applied.get(&s);
        if wanted == now {
            continue;
        }
        let points = wanted.unwrap_or(&segment.coord_points);
        if skin.write_segment_rest(queue, s, points) {
            writes += 1;
        } else {
            log::warn!(
                "segment '{}': events set {} points into its coord of {}; drawn as before",
                segment.name,
                points.len(),
                segment.coord_points.len()
            );
        }
        match wanted {
            Some(v) => applied.insert(s, v.clone()),
            None => applied.remove(&s),
        };
    }
    writes
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    #[test]
    fn vertex_overrides_become_geometry_values() {
        let text = "<X3D><Scene><Shape><IndexedFaceSet coordIndex='0 1 2'><Coordinate DEF='c'/>\
                    <Color DEF='k' color='1 0 0 0 1 0 0 0 1'/><TextureCoordinate DEF='t'/></IndexedFaceSet></Shape>\
                    <Transform DEF='x'/></Scene></X3D>";
        let scene = crate::x3d::load_str(text, std::path::Path::new("a.x3d"), &Default::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let (c, k, t, x) = (scene.defs["c"], scene.defs["k"], scene.defs["t"], scene.defs["x"]);
        let mut o = Overrides::default();
        o.set(c, "point", FieldValue::Vec3s(vec![Vec3::X]));
        o.set(k, "color", FieldValue::Color(Vec3::new(0.0, 0.5, 1.0)));
        let mut lists = Overrides::default();
        lists.set(k, "color", FieldValue::Vec3s(vec![Vec3::Z; 3]));
        o.set(t, "point", FieldValue::Vec2s(vec![Vec2::new(0.5, 1.0)]));
        o.set(x, "translation", FieldValue::Vec3(Vec3::ONE));
        let v = geometry_values(&scene, &o);
        assert_eq!(v.points[&c], vec![Vec3::X]);
        assert!(!v.colors.contains_key(&k), "a single colour is not a Color's list");
        assert_eq!(geometry_values(&scene, &lists).colors[&k], vec![[0.0, 0.0, 1.0, 1.0]; 3]);
        assert_eq!(v.tex_coords[&t], vec![[0.5, 1.0]]);
        assert_eq!(v.points.len() + v.vectors.len(), 1, "the Transform is no vertex node");
    }
}
