//! ProximitySensor (X3D 4.0 ISO/IEC 19775-1 clause 22.4.1): while the viewer is inside the sensor's box
//! (`center`, `size`, in the sensor's coordinate system) it sends `isActive`, `position_changed` and
//! `orientation_changed`: the viewer's position and orientation in the sensor's coordinate system. Files
//! route these into a Transform so that what it holds (a HUD, a menu) follows the camera.
//!
//! The viewer is an input of the evaluation (the window's camera, a headless render's camera): without
//! one the sensors send nothing. A sensor's coordinate system is read once, at load: a sensor under an
//! animated Transform keeps its load-time frame. `enterTime`/`exitTime` and `centerOfRotation_changed`
//! are not sent (each evaluation is one timestamp from the file's state, so there is no "before").

use glam::{Mat4, Quat, Vec3};

use super::placement::local_matrix;
use super::{FieldValue, Overrides};
use crate::x3d::grouping::{is_grouping, shown_children};
use crate::x3d::{NodeId, Scene, X3dError};

/// Where the viewer is: world position and orientation (the camera looks down its local −Z, +Y up, as
/// an X3D Viewpoint does).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ViewerPose {
    pub position: Vec3,
    pub orientation: Quat,
}

/// One ProximitySensor with its load-time coordinate system.
#[derive(Debug, Clone, PartialEq)]
pub struct ProximitySensor {
    pub node: NodeId,
    pub enabled: bool,
    pub center: Vec3,
    pub size: Vec3,
    pub world_from_sensor: Mat4,
}

impl ProximitySensor {
    /// What the sensor sends with the viewer at `viewer`: nothing when disabled or when the viewer is
    /// outside its box (a box with a zero side holds nothing); else `isActive` TRUE and the viewer's
    /// position and orientation in the sensor's coordinate system.
    pub fn outputs(&self, viewer: ViewerPose) -> Vec<(&'static str, FieldValue)> {
        if !self.enabled {
            return Vec::new();
        }
        let sensor_from_world = self.world_from_sensor.inverse();
        let local = sensor_from_world.transform_point3(viewer.position);
        let half = self.size * 0.5;
        let inside = self.size.cmpgt(Vec3::ZERO).all() && (local - self.center).abs().cmple(half).all();
        if !inside {
            return Vec::new();
        }
        // The sensor frame's rotation, scale taken out.
        let (_, world_rotation, _) = self.world_from_sensor.to_scale_rotation_translation();
        let orientation = (world_rotation.inverse() * viewer.orientation).normalize();
        vec![
            ("isActive", FieldValue::Bool(true)),
            ("position", FieldValue::Vec3(local)),
            ("orientation", FieldValue::Rotation(orientation)),
        ]
    }
}

/// Every ProximitySensor of `scene` that the scene graph shows, in document order, each at its first
/// instance's coordinate system (the walk `place_scene` does, with the file's fields).
pub fn read_proximity_sensors(scene: &Scene) -> Result<Vec<ProximitySensor>, X3dError> {
    let mut out: Vec<ProximitySensor> = Vec::new();
    let none = Overrides::default();
    let mut stack: Vec<(NodeId, Mat4)> = scene.roots.iter().rev().map(|&r| (r, Mat4::IDENTITY)).collect();
    let mut visits = 0usize;
    while let Some((id, world_from_parent)) = stack.pop() {
        visits += 1;
        if visits > super::placement::MAX_NODE_VISITS {
            break;
        }
        match scene.node(id).type_name.as_str() {
            "ProximitySensor" if !out.iter().any(|s| s.node == id) => out.push(ProximitySensor {
                node: id,
                enabled: scene.sf_bool(id, "enabled", true)?,
                center: Vec3::from(scene.sf_length3(id, "center", [0.0; 3])?),
                size: Vec3::from(scene.sf_length3(id, "size", [0.0; 3])?),
                world_from_sensor: world_from_parent,
            }),
            t if is_grouping(t) => {
                let m = world_from_parent * local_matrix(scene, id, &none)?;
                for child in shown_children(scene, id)?.into_iter().rev() {
                    stack.push((child, m));
                }
            }
            _ => {}
        }
    }
    Ok(out)
}
