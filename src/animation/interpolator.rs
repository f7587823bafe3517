//! Interpolator clips: the way most published humanoid files animate. A TimeSensor's `fraction_changed`
//! reaches Orientation/Position/ScalarInterpolators (directly, or through ScalarInterpolators that
//! remap the fraction), whose `value_changed` is ROUTEd into HAnimJoint, HAnimHumanoid or HAnimDisplacer
//! fields. Each such TimeSensor is one clip lasting its `cycleInterval`. Scripts are not run: a clip that
//! needs one is listed as unsupported, with the reason.

use std::collections::BTreeMap;

use glam::{Quat, Vec3};

use crate::hanim::HumanoidIndex;
use crate::hanim::{Document, quat_from_axis_angle};
use crate::x3d::{NodeId, Scene, Warning, X3dError};

/// Key frames of one interpolator.
#[derive(Debug, Clone, PartialEq)]
pub enum Curve {
    Orientation { keys: Vec<f32>, values: Vec<Quat> },
    Position { keys: Vec<f32>, values: Vec<Vec3> },
    Scalar { keys: Vec<f32>, values: Vec<f32> },
}

/// Where `fraction` falls among `keys`: the two keys around it and the blend between them (X3D §19.2.2:
/// clamped to the first and last key values outside the keys).
pub(crate) fn bracket(keys: &[f32], fraction: f32) -> (usize, usize, f32) {
    let n = keys.len();
    if n == 0 || fraction <= keys[0] || fraction.is_nan() {
        return (0, 0, 0.0);
    }
    if fraction >= keys[n - 1] {
        return (n - 1, n - 1, 0.0);
    }
    let i = keys.partition_point(|&k| k <= fraction) - 1;
    let span = keys[i + 1] - keys[i];
    let t = if span > 0.0 { (fraction - keys[i]) / span } else { 0.0 };
    (i, i + 1, t)
}

/// The value of a curve at a fraction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CurveValue {
    Rotation(Quat),
    Translation(Vec3),
    Scalar(f32),
}

impl Curve {
    pub fn keys(&self) -> &[f32] {
        match self {
            Curve::Orientation { keys, .. } | Curve::Position { keys, .. } | Curve::Scalar { keys, .. } => keys,
        }
    }

    /// Orientations slerp along the shorter arc, positions and scalars interpolate linearly.
    pub fn evaluate(&self, fraction: f32) -> Option<CurveValue> {
        let (a, b, t) = bracket(self.keys(), fraction);
        match self {
            Curve::Orientation { values, .. } => {
                Some(CurveValue::Rotation(values.get(a)?.slerp(*values.get(b)?, t).normalize()))
            }
            Curve::Position { values, .. } => Some(CurveValue::Translation(values.get(a)?.lerp(*values.get(b)?, t))),
            Curve::Scalar { values, .. } => {
                let (x, y) = (*values.get(a)?, *values.get(b)?);
                Some(CurveValue::Scalar(x + (y - x) * t))
            }
        }
    }
}

/// What a track writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetField {
    JointRotation(usize),
    JointTranslation(usize),
    DisplacerWeight(usize),
    HumanoidRotation,
    HumanoidTranslation,
}

/// One interpolator driving one field of one humanoid.
#[derive(Debug, Clone, PartialEq)]
pub struct Track {
    /// DEF of the interpolator (or its type when it has none).
    pub interpolator: String,
    /// ScalarInterpolators the fraction passes through first, in order (fraction remapping).
    pub via: Vec<Curve>,
    pub curve: Curve,
    pub humanoid: HumanoidIndex,
    pub target: TargetField,
}

impl Track {
    /// The value at the TimeSensor's fraction, after the remapping chain.
    pub fn evaluate(&self, fraction: f32) -> Option<CurveValue> {
        let mut f = fraction;
        for remap in &self.via {
            match remap.evaluate(f)? {
                CurveValue::Scalar(v) => f = v,
                _ => return None,
            }
        }
        self.curve.evaluate(f)
    }
}

/// A TimeSensor and the tracks it drives.
#[derive(Debug, Clone, PartialEq)]
pub struct InterpolatorClip {
    /// The TimeSensor's DEF (`TimeSensor #n` without one).
    pub name: String,
    pub time_sensor: Option<NodeId>,
    pub description: String,
    pub cycle_interval: f64,
    pub looping: bool,
    /// The TimeSensor's `enabled` field.
    pub sensor_enabled: bool,
    /// TouchSensors whose `touchTime` starts it.
    pub started_by: Vec<String>,
    pub tracks: Vec<Track>,
    /// Why it cannot be played (it needs a Script), or `None`.
    pub unsupported: Option<String>,
}

impl InterpolatorClip {
    /// The TimeSensor fraction at playback time `tau` (X3D §8.4.1): `fract(τ / cycle)` while looping; a
    /// non-looping sensor ends its cycle at fraction 1 and stays there.
    pub fn fraction(&self, tau: f64, looping: bool) -> f32 {
        if self.cycle_interval <= 0.0 {
            return 1.0;
        }
        let cycles = tau / self.cycle_interval;
        if looping { cycles.rem_euclid(1.0) as f32 } else { cycles.clamp(0.0, 1.0) as f32 }
    }

    /// Whether it should play when the file opens: an enabled TimeSensor that no TouchSensor starts.
    pub fn plays_at_load(&self) -> bool {
        self.unsupported.is_none() && self.sensor_enabled && self.started_by.is_empty() && !self.tracks.is_empty()
    }
}

const INTERPOLATORS: [&str; 3] = ["OrientationInterpolator", "PositionInterpolator", "ScalarInterpolator"];
/// How many ScalarInterpolators a fraction may pass through before the chain is called a cycle.
const MAX_CHAIN: usize = 16;

fn is_field(field: &str, name: &str) -> bool {
    field == name || field.strip_prefix("set_") == Some(name) || field.strip_suffix("_changed") == Some(name)
}

fn label(scene: &Scene, id: NodeId) -> String {
    scene.node(id).def.clone().unwrap_or_else(|| scene.node(id).type_name.clone())
}

/// Reads an interpolator's keys and values; a key count that differs from the value count is warned
/// (X3D §19.2.2 leaves the results undefined) and both lists are cut to the shorter.
fn read_curve(scene: &Scene, id: NodeId, warnings: &mut Vec<Warning>) -> Result<Option<Curve>, X3dError> {
    let curve = read_curve_raw(scene, id)?;
    let Some(mut curve) = curve else { return Ok(None) };
    let (keys, values) = match &mut curve {
        Curve::Orientation { keys, values } => (keys.len(), values.len()),
        Curve::Position { keys, values } => (keys.len(), values.len()),
        Curve::Scalar { keys, values } => (keys.len(), values.len()),
    };
    if keys != values || keys == 0 {
        let node = scene.node(id);
        let loc = node.field("keyValue").or(node.field("key")).map_or(node.loc, |f| f.loc);
        warnings.push(Warning {
            pos: scene.pos(loc),
            message: format!(
                "{}: {keys} keys but {values} keyValues; {}",
                scene.describe(id),
                if keys.min(values) == 0 { "the interpolator is skipped" } else { "the longer list is cut" }
            ),
        });
        let n = keys.min(values);
        match &mut curve {
            Curve::Orientation { keys, values } => {
                keys.truncate(n);
                values.truncate(n);
            }
            Curve::Position { keys, values } => {
                keys.truncate(n);
                values.truncate(n);
            }
            Curve::Scalar { keys, values } => {
                keys.truncate(n);
                values.truncate(n);
            }
        }
        if n == 0 {
            return Ok(None);
        }
    }
    Ok(Some(curve))
}

fn read_curve_raw(scene: &Scene, id: NodeId) -> Result<Option<Curve>, X3dError> {
    let keys = scene.mf_float(id, "key")?;
    Ok(match scene.node(id).type_name.as_str() {
        "OrientationInterpolator" => Some(Curve::Orientation {
            keys,
            values: scene.mf_rotation(id, "keyValue")?.into_iter().map(quat_from_axis_angle).collect(),
        }),
        "PositionInterpolator" => Some(Curve::Position {
            keys,
            values: scene.mf_length3(id, "keyValue")?.into_iter().map(Vec3::from).collect(),
        }),
        "ScalarInterpolator" => Some(Curve::Scalar { keys, values: scene.mf_float(id, "keyValue")? }),
        _ => None,
    })
}

/// Where a fraction comes from, walking ROUTEs backwards from an interpolator's `set_fraction`.
enum Source {
    Sensor { sensor: NodeId, via: Vec<NodeId> },
    Unsupported { sensor: Option<NodeId>, reason: String },
}

struct RouteIndex<'s> {
    scene: &'s Scene,
    /// to_node → (from_node, from_field, to_field)
    into: BTreeMap<NodeId, Vec<(NodeId, &'s str, &'s str)>>,
}

impl<'s> RouteIndex<'s> {
    fn new(scene: &'s Scene) -> Self {
        let mut into: BTreeMap<NodeId, Vec<(NodeId, &str, &str)>> = BTreeMap::new();
        for r in &scene.routes {
            into.entry(r.to_node).or_default().push((r.from_node, r.from_field.as_str(), r.to_field.as_str()));
        }
        Self { scene, into }
    }

    fn type_of(&self, id: NodeId) -> &str {
        &self.scene.node(id).type_name
    }

    /// The TimeSensors feeding `interpolator`'s fraction, each with the ScalarInterpolators in between
    /// (nearest the sensor first).
    fn sources(&self, interpolator: NodeId) -> Vec<Source> {
        let mut out = Vec::new();
        // (node whose fraction we look for, chain so far from the target back towards the sensor)
        let mut stack = vec![(interpolator, Vec::<NodeId>::new())];
        while let Some((node, chain)) = stack.pop() {
            for &(from, from_field, to_field) in self.into.get(&node).map_or(&[][..], |v| v) {
                if !is_field(to_field, "fraction") {
                    continue;
                }
                match self.type_of(from) {
                    "TimeSensor" => {
                        let mut via = chain.clone();
                        via.reverse();
                        out.push(Source::Sensor { sensor: from, via });
                    }
                    "ScalarInterpolator" if is_field(from_field, "value") => {
                        if chain.len() >= MAX_CHAIN || chain.contains(&from) {
                            out.push(Source::Unsupported {
                                sensor: None,
                                reason: format!("the fraction of {} loops through ROUTEs", label(self.scene, node)),
                            });
                            continue;
                        }
                        let mut next = chain.clone();
                        next.push(from);
                        stack.push((from, next));
                    }
                    "Script" => out.push(Source::Unsupported {
                        sensor: self.script_sensor(from),
                        reason: format!(
                            "the fraction of {} comes from Script {} (scripts are not run)",
                            label(self.scene, interpolator),
                            label(self.scene, from)
                        ),
                    }),
                    other => out.push(Source::Unsupported {
                        sensor: None,
                        reason: format!(
                            "the fraction of {} comes from {other} {} (only TimeSensor and ScalarInterpolator are \
                             followed)",
                            label(self.scene, interpolator),
                            label(self.scene, from)
                        ),
                    }),
                }
            }
        }
        out
    }

    /// A TimeSensor routed into a Script, to name the unsupported clip after it.
    fn script_sensor(&self, script: NodeId) -> Option<NodeId> {
        self.into.get(&script)?.iter().map(|(from, _, _)| *from).find(|f| self.type_of(*f) == "TimeSensor")
    }
}

/// The humanoid field a ROUTE target names, if any.
fn target_of(doc: &Document, node: NodeId, field: &str) -> Option<(usize, TargetField)> {
    for (hi, h) in doc.humanoids.iter().enumerate() {
        if let Some(j) = h.joints.iter().position(|j| j.node == node) {
            if is_field(field, "rotation") {
                return Some((hi, TargetField::JointRotation(j)));
            }
            if is_field(field, "translation") {
                return Some((hi, TargetField::JointTranslation(j)));
            }
            return None;
        }
        if let Some(d) = h.displacers.iter().position(|d| d.node == node) {
            return is_field(field, "weight").then_some((hi, TargetField::DisplacerWeight(d)));
        }
        if h.node == node {
            if is_field(field, "rotation") {
                return Some((hi, TargetField::HumanoidRotation));
            }
            if is_field(field, "translation") {
                return Some((hi, TargetField::HumanoidTranslation));
            }
        }
    }
    None
}

/// True for the H-Anim node types a Script could drive directly.
fn is_hanim_target(type_name: &str) -> bool {
    matches!(type_name, "HAnimJoint" | "HAnimHumanoid" | "HAnimDisplacer")
}

/// Every interpolator clip of the document, in the order the TimeSensors appear in the file, then the
/// Script-driven ones. Interpolators whose curves cannot be read are skipped with a warning.
pub fn find_clips(doc: &Document, warnings: &mut Vec<Warning>) -> Vec<InterpolatorClip> {
    let scene = &doc.scene;
    let routes = RouteIndex::new(scene);
    let mut by_sensor: BTreeMap<NodeId, InterpolatorClip> = BTreeMap::new();
    let mut unsupported: BTreeMap<String, InterpolatorClip> = BTreeMap::new();
    let mut curves: BTreeMap<NodeId, Option<Curve>> = BTreeMap::new();
    let mut curve_of = |id: NodeId, warnings: &mut Vec<Warning>| -> Option<Curve> {
        curves
            .entry(id)
            .or_insert_with(|| match read_curve(scene, id, warnings) {
                Ok(c) => c,
                Err(e) => {
                    warnings
                        .push(Warning { pos: e.pos.clone(), message: format!("{}; interpolator skipped", e.message) });
                    None
                }
            })
            .clone()
    };

    let new_clip = |sensor: Option<NodeId>, name: String| InterpolatorClip {
        description: sensor.and_then(|s| scene.string(s, "description")).unwrap_or("").to_string(),
        cycle_interval: sensor.map_or(0.0, |s| scene.sf_double(s, "cycleInterval", 1.0).unwrap_or(1.0)),
        looping: sensor.is_some_and(|s| scene.sf_bool(s, "loop", false).unwrap_or(false)),
        sensor_enabled: sensor.is_none_or(|s| scene.sf_bool(s, "enabled", true).unwrap_or(true)),
        started_by: sensor
            .map(|s| {
                routes.into.get(&s).map_or(Vec::new(), |v| {
                    v.iter()
                        .filter(|(from, ff, tf)| {
                            routes.type_of(*from) == "TouchSensor"
                                && is_field(ff, "touchTime")
                                && is_field(tf, "startTime")
                        })
                        .map(|(from, _, _)| label(scene, *from))
                        .collect()
                })
            })
            .unwrap_or_default(),
        name,
        time_sensor: sensor,
        tracks: Vec::new(),
        unsupported: None,
    };

    for route in &scene.routes {
        let Some((humanoid, target)) = target_of(doc, route.to_node, &route.to_field) else { continue };
        let from = route.from_node;
        let from_type = scene.node(from).type_name.as_str();
        if from_type == "Script" {
            let name = routes.script_sensor(from).map_or_else(|| label(scene, from), |s| label(scene, s));
            let clip = unsupported.entry(name.clone()).or_insert_with(|| new_clip(routes.script_sensor(from), name));
            clip.unsupported = Some(format!("driven by Script {} (scripts are not run)", label(scene, from)));
            continue;
        }
        if !INTERPOLATORS.contains(&from_type) || !is_field(&route.from_field, "value") {
            continue;
        }
        let Some(curve) = curve_of(from, warnings) else { continue };
        for source in routes.sources(from) {
            match source {
                Source::Sensor { sensor, via } => {
                    let via: Vec<Curve> = via.iter().filter_map(|v| curve_of(*v, warnings)).collect();
                    let clip = by_sensor
                        .entry(sensor)
                        .or_insert_with(|| new_clip(Some(sensor), scene.node(sensor).def.clone().unwrap_or_default()));
                    clip.tracks.push(Track {
                        interpolator: label(scene, from),
                        via,
                        curve: curve.clone(),
                        humanoid: HumanoidIndex(humanoid),
                        target,
                    });
                }
                Source::Unsupported { sensor, reason } => {
                    let name = sensor.map_or_else(|| label(scene, from), |s| label(scene, s));
                    let clip = unsupported.entry(name.clone()).or_insert_with(|| new_clip(sensor, name));
                    clip.unsupported = Some(reason);
                }
            }
        }
    }

    // Scripts that write H-Anim nodes directly (directOutput through SFNode fields), with no ROUTE.
    for (index, node) in scene.nodes.iter().enumerate() {
        if node.type_name != "Script" {
            continue;
        }
        let id = NodeId(index as u32);
        let drives = node.children.iter().any(|c| {
            let t = routes.type_of(c.node);
            is_hanim_target(t) || INTERPOLATORS.contains(&t)
        });
        if !drives || scene.node(id).children.is_empty() {
            continue;
        }
        let sensor = routes.script_sensor(id).or_else(|| {
            // A sensor reaching the Script through a prototype interface keeps its own DEF out of scope;
            // the ROUTE's source node stands for it.
            routes.into.get(&id).and_then(|v| v.first()).map(|(from, _, _)| *from)
        });
        let name = sensor.map_or_else(|| label(scene, id), |s| label(scene, s));
        if by_sensor.values().any(|c| c.name == name) || unsupported.contains_key(&name) {
            continue;
        }
        let sensor_node = sensor.filter(|s| routes.type_of(*s) == "TimeSensor");
        let mut clip = new_clip(sensor_node, name.clone());
        clip.unsupported = Some(format!(
            "Script {} sets humanoid joints or interpolators through node fields (scripts are not run)",
            label(scene, id)
        ));
        unsupported.insert(name, clip);
    }

    let mut clips: Vec<InterpolatorClip> = by_sensor.into_values().collect();
    for (i, clip) in clips.iter_mut().enumerate() {
        if clip.name.is_empty() {
            clip.name = format!("TimeSensor #{}", i + 1);
        }
    }
    clips.sort_by_key(|c| c.time_sensor.map(|s| scene.node(s).loc.offset));
    clips.extend(unsupported.into_values());
    clips
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_bracket_and_clamp() {
        let keys = [0.0, 0.25, 1.0];
        assert_eq!(bracket(&keys, -1.0), (0, 0, 0.0));
        assert_eq!(bracket(&keys, 0.125), (0, 1, 0.5));
        assert_eq!(bracket(&keys, 0.25), (1, 2, 0.0));
        assert_eq!(bracket(&keys, 2.0), (2, 2, 0.0));
        let curve = Curve::Scalar { keys: keys.to_vec(), values: vec![0.0, 1.0, 0.0] };
        assert_eq!(curve.evaluate(0.125), Some(CurveValue::Scalar(0.5)));
        assert_eq!(curve.evaluate(0.625), Some(CurveValue::Scalar(0.5)));
    }

    #[test]
    fn fractions_loop_or_hold_at_one() {
        let clip = InterpolatorClip {
            name: "T".into(),
            time_sensor: None,
            description: String::new(),
            cycle_interval: 2.0,
            looping: true,
            sensor_enabled: true,
            started_by: Vec::new(),
            tracks: Vec::new(),
            unsupported: None,
        };
        assert_eq!(clip.fraction(0.5, true), 0.25);
        assert_eq!(clip.fraction(4.5, true), 0.25);
        assert_eq!(clip.fraction(4.5, false), 1.0);
        assert_eq!(clip.fraction(-0.5, true), 0.75);
    }
}
