//! TouchSensor (X3D 4.0 clause 20.4.4): a click on geometry it senses sends `isOver`, `isActive` TRUE
//! and the hit (`hitPoint_changed`, `hitNormal_changed`, `hitTexCoord_changed`) when the button goes down,
//! then `touchTime` and `isActive` FALSE when it comes up over the same geometry. Files route `touchTime`
//! into a TimeSensor's `startTime` to start a clip on a click.
//!
//! Which sensor a piece of geometry wakes is clause 20.2.1's rule: the sensors that are children of the
//! lowest grouping node above the geometry that has any (a sensor senses its siblings and everything
//! below them; a nearer group's sensors hide those of groups further up).

use glam::{Mat4, Vec2, Vec3};

use super::FieldValue;
use super::placement::MAX_NODE_VISITS;
use crate::hanim::Document;
use crate::hanim::build::grouping_matrix;
use crate::x3d::grouping::{is_grouping, shown_children};
use crate::x3d::{NodeId, Scene, X3dError};

/// One TouchSensor's fields.
#[derive(Debug, Clone, PartialEq)]
pub struct TouchSensor {
    pub node: NodeId,
    pub enabled: bool,
    pub description: String,
}

/// A click on geometry `sensor` senses, at scene time `time`: the button went down and up there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Touch {
    pub sensor: NodeId,
    /// Seconds of scene time.
    pub time: f64,
    /// Where the pointer's ray met the geometry, in the sensor's coordinate system.
    pub hit_point: Vec3,
    /// The geometry's normal there, in the sensor's coordinate system.
    pub hit_normal: Vec3,
    /// The texture coordinate there (zero where the geometry has none).
    pub hit_tex_coord: Vec2,
}

/// One field event a sensor sends.
pub type Event = (&'static str, FieldValue);

impl TouchSensor {
    pub fn read(scene: &Scene, node: NodeId) -> Result<TouchSensor, X3dError> {
        Ok(TouchSensor {
            node,
            enabled: scene.sf_bool(node, "enabled", true)?,
            description: scene.string(node, "description").unwrap_or_default().to_string(),
        })
    }

    /// The events of `touch`, as two timestamps' worth: the press, then the release (a disabled sensor
    /// sends nothing).
    pub fn click(&self, touch: &Touch) -> Vec<Vec<Event>> {
        if !self.enabled {
            return Vec::new();
        }
        let press = vec![
            ("isOver", FieldValue::Bool(true)),
            ("isActive", FieldValue::Bool(true)),
            ("hitPoint", FieldValue::Vec3(touch.hit_point)),
            ("hitNormal", FieldValue::Vec3(touch.hit_normal)),
            ("hitTexCoord", FieldValue::Vec2(touch.hit_tex_coord)),
        ];
        let release = vec![("touchTime", FieldValue::Time(touch.time)), ("isActive", FieldValue::Bool(false))];
        vec![press, release]
    }
}

/// The TouchSensors that sense one of the scene's Shapes, with the sensors' coordinate system.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SensedBy {
    /// The enabled and disabled sensors alike (a disabled one sends nothing, but still hides the sensors
    /// of groups further up, clause 20.2.1).
    pub sensors: Vec<NodeId>,
    /// From the Shape's coordinate system to the sensors' (their parent group's), as loaded.
    pub sensor_from_shape: Mat4,
}

/// For each `Document::other_shapes` entry, the TouchSensors that sense it (clause 20.2.1), `None` where
/// none does. The walk is the model builder's (same order, same shown children), so entries match.
pub fn sensed_shapes(doc: &Document) -> Result<Vec<Option<SensedBy>>, X3dError> {
    let scene = &doc.scene;
    // (node, world matrix, the nearest sensors and their group's world matrix)
    type Sensing = Option<(Vec<NodeId>, Mat4)>;
    let mut out = Vec::with_capacity(doc.other_shapes.len());
    let mut stack: Vec<(NodeId, Mat4, Sensing)> =
        scene.roots.iter().rev().map(|&r| (r, Mat4::IDENTITY, None)).collect();
    let mut visits = 0usize;
    while let Some((id, world_from_parent, sensing)) = stack.pop() {
        visits += 1;
        if visits > MAX_NODE_VISITS {
            break;
        }
        let node = scene.node(id);
        match node.type_name.as_str() {
            "Shape" => out.push(sensing.map(|(sensors, world_from_sensor)| SensedBy {
                sensors,
                sensor_from_shape: world_from_sensor.inverse() * world_from_parent,
            })),
            t if is_grouping(t) => {
                let m = world_from_parent * grouping_matrix(scene, id, &mut Vec::new())?;
                let here: Vec<NodeId> =
                    node.children_in("children").filter(|&c| scene.node(c).type_name == "TouchSensor").collect();
                let sensing = if here.is_empty() { sensing } else { Some((here, m)) };
                for child in shown_children(scene, id)?.into_iter().rev() {
                    stack.push((child, m, sensing.clone()));
                }
            }
            _ => {}
        }
    }
    out.resize(doc.other_shapes.len(), None);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Document {
        crate::hanim::load_str(text, std::path::Path::new("t.x3d")).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_sensor_senses_its_siblings_and_a_nearer_one_hides_it() {
        let d = doc("<X3D><Scene>\
            <Transform DEF='outer' translation='1 0 0'><TouchSensor DEF='far'/>\
              <Shape DEF='a'><Box/></Shape>\
              <Transform DEF='inner' translation='0 2 0'><TouchSensor DEF='near'/><Shape DEF='b'><Box/></Shape></Transform>\
              <Group><Shape DEF='c'><Box/></Shape></Group>\
            </Transform>\
            <Shape DEF='d'><Box/></Shape></Scene></X3D>");
        let s = |name: &str| d.scene.defs[name];
        let sensed = sensed_shapes(&d).unwrap();
        assert_eq!(sensed.len(), d.other_shapes.len());
        let of = |shape: &str| {
            let i = d.other_shapes.iter().position(|&(id, _)| id == s(shape)).unwrap();
            sensed[i].clone()
        };
        assert_eq!(of("a").unwrap().sensors, vec![s("far")]);
        assert_eq!(of("c").unwrap().sensors, vec![s("far")], "below a sibling group");
        let b = of("b").unwrap();
        assert_eq!(b.sensors, vec![s("near")], "the nearer group's sensor only");
        assert_eq!(b.sensor_from_shape, Mat4::IDENTITY, "b sits in its sensor's own group");
        assert_eq!(of("a").unwrap().sensor_from_shape, Mat4::IDENTITY);
        assert_eq!(of("d"), None);
    }

    #[test]
    fn a_click_presses_then_releases() {
        let sensor = TouchSensor { node: NodeId(3), enabled: true, description: String::new() };
        let touch =
            Touch { sensor: NodeId(3), time: 2.5, hit_point: Vec3::X, hit_normal: Vec3::Z, hit_tex_coord: Vec2::ZERO };
        let events = sensor.click(&touch);
        assert_eq!(events.len(), 2);
        assert!(events[0].contains(&("isActive", FieldValue::Bool(true))));
        assert!(events[0].contains(&("hitPoint", FieldValue::Vec3(Vec3::X))));
        assert_eq!(events[1], vec![("touchTime", FieldValue::Time(2.5)), ("isActive", FieldValue::Bool(false))]);
        let off = TouchSensor { enabled: false, ..sensor };
        assert!(off.click(&touch).is_empty());
    }
}
