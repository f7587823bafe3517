//! Clicking TouchSensor geometry in the window (X3D 4.0 clauses 20.2.1, 20.4.4): the pointer's ray is
//! cast against the triangles of the scene's Shapes outside the humanoids, where the events have placed
//! them this frame; the nearest Shape hit wakes the TouchSensors that sense it (none when it has none:
//! nearer geometry hides sensed geometry behind it). The hit point and normal go to the sensors in their
//! own coordinate system. Geometry inside humanoids (segments, skin) is not sensed here.

use glam::{Mat4, Vec2, Vec3};

use crate::animation::events::touch::{SensedBy, sensed_shapes};
use crate::animation::events::{EventModel, Touch};
use crate::hanim::Document;
use crate::mesh::{Topology, render_mesh_from_shape};
use crate::x3d::NodeId;

/// One Shape's triangles, in its own coordinate system.
struct Target {
    /// Its entry in `Document::other_shapes`.
    index: usize,
    node: NodeId,
    sensed: Option<SensedBy>,
    triangles: Vec<[Vec3; 3]>,
}

/// The geometry a click can hit, built once per loaded file (empty when the file has no TouchSensor).
#[derive(Default)]
pub struct TouchTargets {
    targets: Vec<Target>,
}

/// What a click met: the Shape, where, and the clicks it makes (one per enabled sensor).
#[derive(Debug, Clone, PartialEq)]
pub struct TouchHit {
    pub shape: NodeId,
    pub world_point: Vec3,
    pub touches: Vec<Touch>,
}

impl TouchTargets {
    /// The triangles of every scene Shape of `doc` when its event model has TouchSensors (every Shape,
    /// sensed or not, since unsensed ones hide what lies behind them). Shapes whose geometry cannot be
    /// read are left out (their drawing reported it).
    pub fn new(doc: &Document, events: &EventModel) -> TouchTargets {
        if events.touch.is_empty() {
            return TouchTargets::default();
        }
        let sensed = match sensed_shapes(doc) {
            Ok(s) => s,
            Err(e) => {
                log::warn!("TouchSensors: {e}");
                return TouchTargets::default();
            }
        };
        let mut targets = Vec::new();
        let mut notes = Vec::new();
        for (index, (&(node, _), sensed)) in doc.other_shapes.iter().zip(sensed).enumerate() {
            let Ok(Some((mesh, points))) = render_mesh_from_shape(&doc.scene, node, None, Mat4::IDENTITY, &mut notes)
            else {
                continue;
            };
            if mesh.topology != Topology::Triangles {
                continue;
            }
            let corner = |i: u32| {
                let p = mesh.source_point.get(i as usize).copied().unwrap_or(0) as usize;
                points.get(p).copied().unwrap_or_default()
            };
            let triangles = mesh.indices.chunks_exact(3).map(|t| [corner(t[0]), corner(t[1]), corner(t[2])]).collect();
            targets.push(Target { index, node, sensed, triangles });
        }
        TouchTargets { targets }
    }

    pub fn is_empty(&self) -> bool {
        self.targets.iter().all(|t| t.sensed.is_none())
    }

    /// The nearest Shape the ray `origin + s·dir` (s > 0) meets, with `placements` the world matrix of
    /// each `Document::other_shapes` entry this frame (`None`: not shown), and the clicks it makes at
    /// scene time `time` on the enabled sensors of `events`. `None` when the ray meets no Shape.
    pub fn pick(
        &self,
        origin: Vec3,
        dir: Vec3,
        placements: &[Option<Mat4>],
        events: &EventModel,
        time: f64,
    ) -> Option<TouchHit> {
        let mut best: Option<(f32, &Target, Vec3, Vec3)> = None;
        for target in &self.targets {
            let Some(Some(world)) = placements.get(target.index) else { continue };
            for tri in &target.triangles {
                let [a, b, c] = tri.map(|p| world.transform_point3(p));
                if let Some(s) = ray_triangle(origin, dir, a, b, c)
                    && best.as_ref().is_none_or(|(d, ..)| s < *d)
                {
                    best = Some((s, target, origin + dir * s, (b - a).cross(c - a)));
                }
            }
        }
        let (_, target, world_point, world_normal) = best?;
        let world = placements[target.index]?;
        let touches = match &target.sensed {
            Some(sensed) => {
                let shape_from_world = world.inverse();
                let sensor_from_world = sensed.sensor_from_shape * shape_from_world;
                let hit_point = sensor_from_world.transform_point3(world_point);
                // Normals take the inverse transpose.
                let hit_normal =
                    sensor_from_world.inverse().transpose().transform_vector3(world_normal).normalize_or_zero();
                sensed
                    .sensors
                    .iter()
                    .filter(|&&s| events.touch.iter().any(|t| t.node == s && t.enabled))
                    .map(|&sensor| Touch { sensor, time, hit_point, hit_normal, hit_tex_coord: Vec2::ZERO })
                    .collect()
            }
            None => Vec::new(),
        };
        Some(TouchHit { shape: target.node, world_point, touches })
    }

    /// The middle of the bounding box of the first Shape that `node` names (a Shape, or a TouchSensor:
    /// the first Shape it senses), in world space with `placements`; for clicking a node by name.
    pub fn centre_of(&self, node: NodeId, placements: &[Option<Mat4>]) -> Option<Vec3> {
        let target = self.targets.iter().find(|t| {
            (t.node == node || t.sensed.as_ref().is_some_and(|s| s.sensors.contains(&node)))
                && placements.get(t.index).copied().flatten().is_some()
        })?;
        let world = placements[target.index]?;
        let mut lo = Vec3::splat(f32::INFINITY);
        let mut hi = Vec3::splat(f32::NEG_INFINITY);
        for p in target.triangles.iter().flatten() {
            let q = world.transform_point3(*p);
            lo = lo.min(q);
            hi = hi.max(q);
        }
        lo.cmple(hi).all().then(|| (lo + hi) * 0.5)
    }
}

/// Möller–Trumbore: the distance along `dir` at which the ray meets triangle `abc` (either side).
pub(crate) fn ray_triangle(origin: Vec3, dir: Vec3, a: Vec3, b: Vec3, c: Vec3) -> Option<f32> {
    let (e1, e2) = (b - a, c - a);
    let p = dir.cross(e2);
    let det = e1.dot(p);
    if det.abs() < 1e-12 {
        return None;
    }
    let inv = 1.0 / det;
    let s = origin - a;
    let u = s.dot(p) * inv;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let q = s.cross(e1);
    let v = dir.dot(q) * inv;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    let t = e2.dot(q) * inv;
    (t > 0.0).then_some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Document {
        crate::hanim::load_str(text, std::path::Path::new("t.x3d")).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn the_nearest_shape_wakes_its_sensors_with_the_hit_in_their_coordinates() {
        // A sensed box at x = 2 (its group scaled by 2), and an unsensed box in front of a second sensed
        // one at x = −2.
        let d = doc("<X3D><Scene>\
            <Transform translation='2 0 0' scale='2 2 2'><TouchSensor DEF='s'/><Shape><Box size='1 1 1'/></Shape></Transform>\
            <Transform translation='-2 0 0'><TouchSensor DEF='hidden'/><Shape><Box/></Shape></Transform>\
            <Transform translation='-2 0 3'><Shape DEF='wall'><Box/></Shape></Transform>\
            </Scene></X3D>");
        let events = EventModel::new(&d.scene);
        let targets = TouchTargets::new(&d, &events);
        assert!(!targets.is_empty());
        let placements: Vec<Option<Mat4>> = d.other_shapes.iter().map(|&(_, m)| Some(m)).collect();
        let hit = targets.pick(Vec3::new(2.0, 0.5, 10.0), -Vec3::Z, &placements, &events, 1.5).expect("a hit");
        assert!((hit.world_point - Vec3::new(2.0, 0.5, 1.0)).length() < 1e-5, "{:?}", hit.world_point);
        assert_eq!(hit.touches.len(), 1);
        let t = hit.touches[0];
        assert_eq!((t.sensor, t.time), (d.scene.defs["s"], 1.5));
        // The sensor's system is the scaled group's: (0, 0.25, 0.5), facing +Z.
        assert!((t.hit_point - Vec3::new(0.0, 0.25, 0.5)).length() < 1e-5, "{:?}", t.hit_point);
        assert!((t.hit_normal - Vec3::Z).length() < 1e-5, "{:?}", t.hit_normal);
        // The wall hides the second box: a hit, no sensor.
        let hidden = targets.pick(Vec3::new(-2.0, 0.0, 10.0), -Vec3::Z, &placements, &events, 1.5).unwrap();
        assert_eq!(hidden.shape, d.scene.defs["wall"]);
        assert!(hidden.touches.is_empty());
        // A shape not shown this frame cannot be hit; nothing is met beside the boxes.
        let mut gone = placements.clone();
        gone[0] = None;
        assert!(targets.pick(Vec3::new(2.0, 0.5, 10.0), -Vec3::Z, &gone, &events, 1.5).is_none());
        let centre = targets.centre_of(d.scene.defs["s"], &placements).unwrap();
        assert!((centre - Vec3::new(2.0, 0.0, 0.0)).length() < 1e-5);
    }
}
