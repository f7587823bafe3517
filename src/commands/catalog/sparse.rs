//! Which figures get their skeleton drawn over them in a catalogue: those that draw little surface of
//! their own (LineSet skeletons, site diamonds, single markers), whose images would otherwise say little.

use anyhow::Result;

use crate::hanim::Document;

/// Below this drawn surface per squared figure height, a figure is mostly lines and points (LineSet
/// skeletons, Sphere markers, small diamonds): the catalogue draws its skeleton over it. A body's skin is
/// about 0.6 height².
const SPARSE_SURFACE: f32 = 0.05;
/// Drawn geometry spanning less than this share of the figure box means that the box is mostly made of
/// joint centres nothing draws (a skeleton template with one marker): its skeleton is drawn too.
const SPARSE_EXTENT: f32 = 0.5;

/// True when humanoid `index` (joint matrices `g`) draws little of its figure box `figure` itself — no
/// skin, and rigid triangles adding up to less than [`SPARSE_SURFACE`] times the box's size squared, or
/// spanning less than [`SPARSE_EXTENT`] of it — so that its skeleton should be shown.
pub(super) fn draws_little_of_itself(
    doc: &Document,
    index: usize,
    g: &[glam::Mat4],
    figure: &crate::pose::bounds::Aabb,
) -> Result<bool> {
    let h = &doc.humanoids[index];
    let skin = crate::mesh::skin_mesh_from_humanoid(&doc.scene, h)?;
    if h.skin.is_some() && skin.parts.iter().any(|p| !p.indices.is_empty()) {
        return Ok(false);
    }
    let world_from_humanoid = h.world_from_humanoid();
    let mut area = 0.0f32;
    let mut extent = crate::pose::bounds::Aabb::default();
    let mut notes = Vec::new();
    for shape in crate::mesh::rigid_shapes(&doc.scene, h)? {
        let Some((mesh, points)) = crate::mesh::render_mesh_from_rigid_shape(&doc.scene, h, &shape, &mut notes)? else {
            continue;
        };
        let m = world_from_humanoid * shape.joint.and_then(|j| g.get(j)).copied().unwrap_or(glam::Mat4::IDENTITY);
        let corner = |i: u32| {
            let point = mesh.source_point.get(i as usize).copied().unwrap_or(0) as usize;
            m.transform_point3(points.get(point).copied().unwrap_or_default())
        };
        for t in mesh.indices.chunks_exact(3) {
            let (a, b, c) = (corner(t[0]), corner(t[1]), corner(t[2]));
            area += (b - a).cross(c - a).length() * 0.5;
            for p in [a, b, c] {
                extent.add(p);
            }
        }
    }
    let size = figure.size().max_element();
    Ok(area < SPARSE_SURFACE * size * size || extent.size().max_element() < SPARSE_EXTENT * size)
}
