//! The X3D event model for scene animation, on plain data: time sensors run on the scene clock, their
//! events travel along ROUTEs through interpolators, sequencers and event utilities, and what reaches a
//! field of any other node (a Transform's translation, a Viewpoint's position, a Material's colour, a
//! joint's rotation, a Switch's `whichChoice`) becomes a field override for that time.
//!
//! Execution model (X3D 4.0 ISO/IEC 19775-1 clause 4.4.8): at one timestamp every enabled TimeSensor
//! sends its events (document order), and the cascade runs breadth first: an event reaches every ROUTE
//! from its field (fan-out, in ROUTE order); a node that processes events sends its outputs; any other
//! node takes the value into the field, which as an inputOutput field sends `field_changed` on. Each
//! output field sends at most once per timestamp (clause 4.4.8.3), which breaks loops. When two ROUTEs
//! write one field at one timestamp the later one in the cascade wins.
//!
//! `Script` nodes are not run (there is no scripting engine): they take no events and send none; each is
//! listed in [`EventModel::warnings`] with the reason. ProximitySensors send the viewer's position and
//! orientation when the evaluation is given a viewer ([`EventModel::evaluate_seen_from`]); TouchSensors
//! send what a click on their geometry sends when the evaluation is given the clicks so far
//! ([`EventModel::evaluate_with`], [`Touch`]); other sensors (Visibility, Plane, …) send nothing here.
//! TimeSensors take events into their fields (`set_startTime` from a `touchTime`, …) with the rules of
//! clause 8.4.1 ([`TimeSensor::take`]).

mod apply;
pub mod billboard;
mod nodes;
pub mod placement;
mod playback;
pub mod proximity;
mod sensor;
pub mod touch;
mod value;

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

pub use apply::apply_to_poses;
pub use nodes::{KeyValues, Processor};
pub use placement::{ScenePlacements, place_scene, place_scene_seen_from};
pub use playback::FilePlayback;
pub use proximity::{ProximitySensor, ViewerPose};
pub use sensor::{SensorState, TimeSensor};
pub use touch::{Touch, TouchSensor};
pub use value::{FieldValue, canonical_field};

use crate::x3d::{NodeId, Scene, Warning};

/// Field values set by events, per (node, field) with canonical field names (no `set_`/`_changed`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Overrides {
    values: BTreeMap<(NodeId, String), FieldValue>,
}

impl Overrides {
    pub fn get(&self, node: NodeId, field: &str) -> Option<&FieldValue> {
        self.values.get(&(node, field.to_string()))
    }

    pub fn set(&mut self, node: NodeId, field: &str, value: FieldValue) {
        self.values.insert((node, field.to_string()), value);
    }

    pub fn iter(&self) -> impl Iterator<Item = (NodeId, &str, &FieldValue)> {
        self.values.iter().map(|((n, f), v)| (*n, f.as_str(), v))
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

/// Where a ROUTE goes.
#[derive(Debug, Clone)]
struct RouteEnd {
    to: NodeId,
    field: String,
}

/// The event graph of a scene: its time sensors, the nodes that process events and the ROUTEs, read once.
#[derive(Debug, Clone, Default)]
pub struct EventModel {
    /// Every TimeSensor of the scene graph, in document order.
    pub sensors: Vec<TimeSensor>,
    /// Every ProximitySensor of the scene graph, in document order (they send after the TimeSensors).
    pub proximity: Vec<ProximitySensor>,
    /// Every TouchSensor of the scene graph, in document order.
    pub touch: Vec<TouchSensor>,
    processors: HashMap<NodeId, Processor>,
    /// (from node, canonical output field) → the ROUTEs from it, in ROUTE order.
    routes: HashMap<(NodeId, String), Vec<RouteEnd>>,
    /// Nodes that are not run (Scripts, sensors other than TimeSensor): events sent to them are dropped.
    inert: HashSet<NodeId>,
    /// Nodes that are not run and fields that could not be read, with the reason.
    pub warnings: Vec<Warning>,
}

/// What changes from one timestamp to the next: each sensor's last state, the event utilities' state
/// (a toggle's value) and the field values events have set so far (they persist, as fields do).
#[derive(Debug, Clone, Default)]
pub struct EventState {
    sensors: Vec<Option<SensorState>>,
    /// Each TimeSensor's fields as events have set them (`startTime` from a touch, …).
    sensor_fields: Vec<TimeSensor>,
    processors: HashMap<NodeId, Processor>,
    pub overrides: Overrides,
}

/// Node types whose events the model does not produce, and why (for the warnings).
fn not_run(type_name: &str) -> Option<&'static str> {
    match type_name {
        "Script" => Some("scripts are not run (no scripting engine); its ROUTEs carry no events"),
        "VisibilitySensor" | "PlaneSensor" | "SphereSensor" | "CylinderSensor" | "KeySensor" | "StringSensor"
        | "TransformSensor" | "CollisionSensor" | "LoadSensor" => {
            Some("this sensor sends no events here (TimeSensor, ProximitySensor and TouchSensor run)")
        }
        _ => None,
    }
}

impl EventModel {
    /// Reads the sensors, processors and ROUTEs of `scene`. Fields that cannot be read leave their node
    /// out, with a warning; Scripts and other sensors are listed in the warnings.
    pub fn new(scene: &Scene) -> EventModel {
        let mut model = EventModel::default();
        let reachable = scene.reachable();
        let routed: HashSet<NodeId> = scene.routes.iter().flat_map(|r| [r.from_node, r.to_node]).collect();
        for &id in &reachable {
            let node = scene.node(id);
            let warn = |model: &mut EventModel, message: String| {
                model.warnings.push(Warning { pos: scene.pos(node.loc), message })
            };
            if node.type_name == "TimeSensor" {
                match TimeSensor::read(scene, id) {
                    Ok(s) if s.cycle_interval > 0.0 => model.sensors.push(s),
                    Ok(_) => {
                        warn(&mut model, format!("{}: cycleInterval must be > 0; it never runs", scene.describe(id)))
                    }
                    Err(e) => warn(&mut model, format!("{}; the sensor never runs", e.message)),
                }
                continue;
            }
            if node.type_name == "TouchSensor" {
                // Clicks make its events (`evaluate_with`); it takes none into fields here.
                model.inert.insert(id);
                match TouchSensor::read(scene, id) {
                    Ok(t) => model.touch.push(t),
                    Err(e) => warn(&mut model, format!("{}; the sensor never sends", e.message)),
                }
                continue;
            }
            if node.type_name == "ProximitySensor" {
                // It takes no events into fields here (its inputs set_enabled, … are not run).
                model.inert.insert(id);
                continue;
            }
            if let Some(reason) = not_run(&node.type_name) {
                model.inert.insert(id);
                if routed.contains(&id) {
                    warn(&mut model, format!("{}: {reason}", scene.describe(id)));
                }
                continue;
            }
            match Processor::read(scene, id) {
                Ok(Some(p)) => {
                    if let Some((keys, values)) = p.key_counts()
                        && keys != values
                    {
                        warn(
                            &mut model,
                            format!(
                                "{}: {keys} keys but {values} keyValues; the longer list is cut",
                                scene.describe(id)
                            ),
                        );
                    }
                    model.processors.insert(id, p);
                }
                Ok(None) => {}
                Err(e) => warn(&mut model, format!("{}; the node sends no events", e.message)),
            }
        }
        match proximity::read_proximity_sensors(scene) {
            Ok(p) => model.proximity = p,
            Err(e) => model.warnings.push(Warning {
                pos: e.pos.clone(),
                message: format!("{}; ProximitySensors send no events", e.message),
            }),
        }
        for r in &scene.routes {
            // A single colour into a colour list: X3D 4.0 4.4.8.2 requires a ROUTE's two fields to have
            // one type (SFColor is not MFColor); X_ITE and view3dscene refuse such a ROUTE, and so do we.
            let (from, to) = (scene.node(r.from_node).type_name.as_str(), scene.node(r.to_node).type_name.as_str());
            if from == "ColorInterpolator"
                && matches!(to, "Color" | "ColorRGBA")
                && canonical_field(&r.to_field) == "color"
            {
                model.warnings.push(Warning {
                    pos: scene.pos(r.loc),
                    message: format!(
                        "ROUTE from {} (SFColor) to {}.color (MFColor) is ignored: a ROUTE joins fields of one type \
                         (X3D 4.0 4.4.8.2)",
                        scene.describe(r.from_node),
                        scene.describe(r.to_node)
                    ),
                });
                continue;
            }
            model
                .routes
                .entry((r.from_node, canonical_field(&r.from_field).to_string()))
                .or_default()
                .push(RouteEnd { to: r.to_node, field: canonical_field(&r.to_field).to_string() });
        }
        model
    }

    /// A fresh state: no sensor has run, toggles at the file's values, no field set.
    pub fn initial_state(&self) -> EventState {
        EventState {
            sensors: vec![None; self.sensors.len()],
            sensor_fields: self.sensors.clone(),
            processors: self.processors.clone(),
            overrides: Overrides::default(),
        }
    }

    /// The field overrides at scene time `t`, from the file's state: one timestamp in which every sensor
    /// sends its current values (a finished one its last fraction).
    pub fn evaluate_at(&self, t: f64) -> Overrides {
        self.evaluate_seen_from(t, None)
    }

    /// [`evaluate_at`](Self::evaluate_at) with the viewer where `viewer` says, for ProximitySensors
    /// (clause 22.4.1); `None`: they send nothing.
    pub fn evaluate_seen_from(&self, t: f64, viewer: Option<ViewerPose>) -> Overrides {
        self.evaluate_with(t, viewer, &[])
    }

    /// [`evaluate_seen_from`](Self::evaluate_seen_from) after the clicks `touches` (in time order): the
    /// scene runs to each click's time, the click's events cascade (a TimeSensor started by its
    /// `touchTime` runs from then on), and the scene runs on to `t`. Clicks after `t` have not happened.
    pub fn evaluate_with(&self, t: f64, viewer: Option<ViewerPose>, touches: &[Touch]) -> Overrides {
        let mut state = self.initial_state();
        for touch in touches.iter().filter(|touch| touch.time <= t) {
            self.advance_seen_from(&mut state, touch.time, viewer);
            if let Some(sensor) = self.touch.iter().find(|s| s.node == touch.sensor) {
                for events in sensor.click(touch) {
                    self.cascade(
                        &mut state,
                        events.into_iter().map(|(f, v)| (sensor.node, f.to_string(), v)).collect(),
                        touch.time,
                    );
                }
            }
        }
        self.advance_seen_from(&mut state, t, viewer);
        state.overrides
    }

    /// Runs the timestamp `t` on `state` with no viewer (see [`advance_seen_from`](Self::advance_seen_from)).
    pub fn advance(&self, state: &mut EventState, t: f64) {
        self.advance_seen_from(state, t, None)
    }

    /// Runs the timestamp `t` on `state`: each time sensor sends what changed since its last state, each
    /// ProximitySensor around `viewer` sends where the viewer is, then the cascade runs to its end.
    pub fn advance_seen_from(&self, state: &mut EventState, t: f64, viewer: Option<ViewerPose>) {
        let mut queue: VecDeque<(NodeId, String, FieldValue)> = VecDeque::new();
        for (sensor, last) in state.sensor_fields.iter().zip(state.sensors.iter_mut()) {
            let now = sensor.state(t);
            let before = last.replace(now);
            let id = sensor.node;
            let mut send = |field: &str, value: FieldValue| queue.push_back((id, field.to_string(), value));
            let was_active = before.is_some_and(|b| b.active);
            let was_paused = before.is_some_and(|b| b.paused);
            if now.active != was_active {
                send("isActive", FieldValue::Bool(now.active));
            }
            if now.paused != was_paused {
                send("isPaused", FieldValue::Bool(now.paused));
            }
            if now.active && (!was_active || before.is_some_and(|b| b.cycle != now.cycle)) {
                send("cycleTime", FieldValue::Time(now.cycle_time));
            }
            // A running sensor sends its fraction every timestamp; a stopped one sent its last fraction
            // when it stopped (sent now if this state has not seen it yet).
            let fresh = before.is_none_or(|b| b.fraction != now.fraction);
            if let Some(f) = now.fraction
                && ((now.active && !now.paused) || fresh)
            {
                send("fraction", FieldValue::Float(f));
                send("elapsedTime", FieldValue::Time(now.elapsed));
                if now.active {
                    send("time", FieldValue::Time(t));
                }
            }
        }
        for sensor in &self.proximity {
            for (field, value) in viewer.map(|v| sensor.outputs(v)).unwrap_or_default() {
                queue.push_back((sensor.node, field.to_string(), value));
            }
        }
        self.cascade(state, queue, t);
    }

    /// Delivers the queued output events and everything they cause.
    fn cascade(&self, state: &mut EventState, mut queue: VecDeque<(NodeId, String, FieldValue)>, t: f64) {
        let mut sent: HashSet<(NodeId, String)> = HashSet::new();
        while let Some((from, field, value)) = queue.pop_front() {
            if !sent.insert((from, field.clone())) {
                continue;
            }
            let Some(ends) = self.routes.get(&(from, field)) else { continue };
            for end in ends {
                if let Some(sensor) = state.sensor_fields.iter_mut().find(|s| s.node == end.to) {
                    // A TimeSensor takes startTime, stopTime, … (not sent on: its outputs are its own).
                    sensor.take(&end.field, &value, t);
                    continue;
                }
                match state.processors.get_mut(&end.to) {
                    Some(p) => {
                        for (out, v) in p.input(&end.field, &value, t) {
                            queue.push_back((end.to, out.to_string(), v));
                        }
                    }
                    None => {
                        // A field of a node that holds values: it takes the value and, as an inputOutput
                        // field, sends it on. (A Script or a sensor takes nothing.)
                        if self.is_field_holder(end.to) {
                            state.overrides.set(end.to, &end.field, value.clone());
                            queue.push_back((end.to, end.field.clone(), value.clone()));
                        }
                    }
                }
            }
        }
    }

    fn is_field_holder(&self, id: NodeId) -> bool {
        !self.inert.contains(&id) && !self.sensors.iter().any(|s| s.node == id)
    }
}

#[cfg(test)]
mod tests;
