//! Picking a skin vertex in the 3D view (View ▸ Skin inspection): the ray through the clicked pixel is
//! cast against the skin's triangles as the CPU reference deforms them at the current pose, and the
//! corner nearest the hit, of the nearest triangle hit, names the skin point. A click is rare, so the CPU
//! does it; what is drawn every frame stays on the GPU.

use glam::{Mat4, Vec3};

use crate::hanim::Humanoid;
use crate::mesh::{Topology, skin_mesh_from_humanoid};
use crate::pose::{Pose, deform_skin};
use crate::ui::panels::skin_inspection::PickedVertex;
use crate::x3d::Scene;

/// The skin point of `h` (posed by `pose`, placed by `world_from_humanoid`) under the ray from `origin`
/// along `dir`, with its influences; `None` when the ray misses the skin (or there is none).
pub fn pick_vertex(
    scene: &Scene,
    h: &Humanoid,
    pose: &Pose,
    world_from_humanoid: Mat4,
    origin: Vec3,
    dir: Vec3,
) -> Option<PickedVertex> {
    let skin = h.skin.as_ref()?;
    let mesh = skin_mesh_from_humanoid(scene, h).ok()?;
    let deformed = deform_skin(h, pose)?;
    let world: Vec<Vec3> = deformed.points.iter().map(|p| world_from_humanoid.transform_point3(*p)).collect();
    let mut best: Option<(f32, [u32; 3])> = None;
    for part in mesh.parts.iter().filter(|p| p.topology == Topology::Triangles) {
        for triangle in part.indices.chunks_exact(3) {
            let corners = [0, 1, 2].map(|k| part.source_point.get(triangle[k] as usize).copied());
            let [Some(a), Some(b), Some(c)] = corners else { continue };
            let [Some(&pa), Some(&pb), Some(&pc)] = [a, b, c].map(|i| world.get(i as usize)) else { continue };
            if let Some(t) = crate::app::touch::ray_triangle(origin, dir, pa, pb, pc)
                && best.is_none_or(|(nearest, _)| t < nearest)
            {
                best = Some((t, [a, b, c]));
            }
        }
    }
    let (t, points) = best?;
    let hit = origin + dir * t;
    let point = points
        .into_iter()
        .min_by(|&a, &b| world[a as usize].distance_squared(hit).total_cmp(&world[b as usize].distance_squared(hit)))?
        as usize;
    Some(PickedVertex { position: world[point], ..picked(h, skin, point) })
}

/// Skin point `point` of `h` with its influences named (no position).
pub fn picked(h: &Humanoid, skin: &crate::hanim::Skin, point: usize) -> PickedVertex {
    let influences = skin
        .influences
        .of(point)
        .iter()
        .map(|&(joint, w)| {
            let name = h.joints.get(joint as usize).map_or_else(|| format!("joint {joint}"), |j| j.name.clone());
            (name, w)
        })
        .collect();
    PickedVertex { point, influences, position: Vec3::ZERO }
}
