//! glTF animations as X3D clips: one TimeSensor per animation (its DEF the animation's name, the name
//! the transport lists), an OrientationInterpolator or PositionInterpolator per animated joint field and a
//! ScalarInterpolator per animated displacer weight, ROUTEd to them. STEP keys become pairs of keys at the
//! same time; CUBICSPLINE keys keep their values (the tangents are dropped, reported). A scale channel
//! that holds the node's rest scale is left out; one that changes it drives the joint's `scale` field
//! (X3D players play it; this program's pose has no joint scale, so it is reported).

use glam::{Quat, Vec3};

use super::Source;
use super::skeleton::Skeleton;
use super::skin::DisplacerPlan;
use super::tree::{Build, Defs, el, floats, num, rotation, vec3};
use crate::x3d::syntax::Element;

/// An interpolator `def` of type `kind` with `key` and `key_value`, its fraction from `clock` and its
/// value into `target`'s field: the interpolator and its two ROUTEs.
fn driven_by_clock(
    kind: &str,
    def: &str,
    key: String,
    key_value: String,
    clock: &str,
    (target, field): (&str, &str),
) -> [Element; 3] {
    [
        el(kind).attr("DEF", def.to_string()).attr("key", key).attr("keyValue", key_value),
        route(clock, "fraction_changed", def, "set_fraction"),
        route(def, "value_changed", target, field),
    ]
}

fn route(from: &str, from_field: &str, to: &str, to_field: &str) -> Element {
    el("ROUTE").attr("fromNode", from).attr("fromField", from_field).attr("toNode", to).attr("toField", to_field)
}

/// Keys of one channel: times and values, STEP turned into doubled keys.
fn keyed<T: Copy>(times: &[f32], values: Vec<T>, step: bool) -> (Vec<f32>, Vec<T>) {
    if !step || times.len() < 2 {
        return (times.to_vec(), values);
    }
    let (mut t, mut v) = (Vec::new(), Vec::new());
    for i in 0..times.len() {
        if i > 0 {
            t.push(times[i]);
            v.push(values[i - 1]);
        }
        t.push(times[i]);
        v.push(values[i]);
    }
    (t, v)
}

/// How far (relative to the largest rest component) a scale key may stray from the node's rest scale and
/// still count as it: COLLADA-made assets key scales like 0.99999994 on every joint.
const REST_SCALE_TOLERANCE: f32 = 1e-3;

/// Whether every key of a scale channel is the node's rest scale (within [`REST_SCALE_TOLERANCE`]): such
/// a channel changes nothing and is left out.
fn holds_rest_scale(keys: &[Vec3], rest: Vec3) -> bool {
    let size = rest.abs().max_element().max(f32::MIN_POSITIVE);
    keys.iter().all(|k| (*k - rest).abs().max_element() <= REST_SCALE_TOLERANCE * size)
}

/// The clips, as elements to append to the scene; `joint_defs` and `displacer_defs` name the targets.
pub(super) fn build(
    source: &Source,
    skeleton: &Skeleton,
    displacers: &[DisplacerPlan],
    joint_defs: &[String],
    displacer_defs: &[String],
    defs: &mut Defs,
) -> Vec<Element> {
    let mut out = Vec::new();
    let animations: Vec<gltf::Animation> = source.gltf.animations().collect();
    for (a, animation) in animations.iter().enumerate() {
        let name = animation.name().map_or_else(|| format!("animation_{a}"), str::to_string);
        let extras: Option<serde_json::Value> =
            animation.extras().as_ref().and_then(|raw| serde_json::from_str(raw.get()).ok());
        let flag = |key: &str, default: bool| {
            extras
                .as_ref()
                .and_then(|e| e.pointer(&format!("/hanim/{key}")))
                .and_then(|v| v.as_bool())
                .unwrap_or(default)
        };
        let buffers = &source.buffers;
        let mut duration = 0f32;
        let mut channels = Vec::new();
        for channel in animation.channels() {
            let reader = channel.reader(|b| buffers.get(b.index()).map(Vec::as_slice));
            let (Some(inputs), Some(outputs)) = (reader.read_inputs(), reader.read_outputs()) else { continue };
            let times: Vec<f32> = inputs.collect();
            duration = duration.max(times.iter().copied().fold(0.0, f32::max));
            channels.push((channel.target().node().index(), channel.sampler().interpolation(), times, outputs));
        }
        let clock = defs.make(&name);
        let cycle = if duration > 0.0 { duration } else { 1.0 };
        let mut elements = Vec::new();
        let mut cubic = false;
        for (n, interpolation, times, outputs) in channels {
            use gltf::animation::Interpolation;
            use gltf::animation::util::ReadOutputs;
            let step = interpolation == Interpolation::Step;
            let spline = interpolation == Interpolation::CubicSpline;
            cubic |= spline;
            // A cubic spline stores in-tangent, value, out-tangent per key: the value is the middle one.
            let values_of = |all: Vec<Vec<f32>>| -> Vec<Vec<f32>> {
                if spline { all.chunks(3).filter_map(|c| c.get(1).cloned()).collect() } else { all }
            };
            let keys = |t: &[f32]| floats(t.iter().map(|&t| t / cycle));
            let joint = skeleton.joint_of_node.get(&n).copied();
            match outputs {
                ReadOutputs::Rotations(r) => {
                    let Some(j) = joint else { continue };
                    let values: Vec<Quat> = values_of(r.into_f32().map(|q| q.to_vec()).collect())
                        .into_iter()
                        .map(|q| {
                            let (_, r, _) =
                                skeleton.joint_fields(j, Vec3::ZERO, Quat::from_slice(&q).normalize(), Vec3::ONE);
                            r
                        })
                        .collect();
                    let (t, v) = keyed(&times, values, step);
                    let def = defs.make(&format!("{}_rotation", joint_defs[j]));
                    let key_value = v.iter().map(|&q| rotation(q)).collect::<Vec<_>>().join(" ");
                    elements.extend(driven_by_clock(
                        "OrientationInterpolator",
                        &def,
                        keys(&t),
                        key_value,
                        &clock,
                        (&joint_defs[j], "set_rotation"),
                    ));
                }
                ReadOutputs::Translations(tr) => {
                    let Some(j) = joint else { continue };
                    let rest = skeleton.joints[j].rotation;
                    let values: Vec<Vec3> = values_of(tr.map(|v| v.to_vec()).collect())
                        .into_iter()
                        .map(|v| skeleton.joint_fields(j, Vec3::from_slice(&v), rest, Vec3::ONE).0)
                        .collect();
                    let (t, v) = keyed(&times, values, step);
                    let def = defs.make(&format!("{}_translation", joint_defs[j]));
                    let key_value = v.iter().map(|&p| vec3(p)).collect::<Vec<_>>().join(" ");
                    elements.extend(driven_by_clock(
                        "PositionInterpolator",
                        &def,
                        keys(&t),
                        key_value,
                        &clock,
                        (&joint_defs[j], "set_translation"),
                    ));
                }
                ReadOutputs::Scales(scales) => {
                    let Some(j) = joint else { continue };
                    let values: Vec<Vec3> =
                        values_of(scales.map(|v| v.to_vec()).collect()).iter().map(|v| Vec3::from_slice(v)).collect();
                    // The node's rest transform: a scale channel changes only the scale.
                    let node = source.gltf.nodes().nth(n).expect("a channel's node exists");
                    let (rest_t, rest_r, rest_s) = node.transform().decomposed();
                    let (rest_t, rest_r, rest_s) = (Vec3::from(rest_t), Quat::from_array(rest_r), Vec3::from(rest_s));
                    if holds_rest_scale(&values, rest_s) {
                        continue;
                    }
                    let fields: Vec<Vec3> =
                        values.iter().map(|&s| skeleton.joint_fields(j, rest_t, rest_r, s).2).collect();
                    let (t, v) = keyed(&times, fields, step);
                    let def = defs.make(&format!("{}_scale", joint_defs[j]));
                    let key_value = v.iter().map(|&s| vec3(s)).collect::<Vec<_>>().join(" ");
                    elements.extend(driven_by_clock(
                        "PositionInterpolator",
                        &def,
                        keys(&t),
                        key_value,
                        &clock,
                        (&joint_defs[j], "set_scale"),
                    ));
                    source.warn(format!(
                        "animation {name}: joint {} changes its scale; written to the joint's scale field (X3D \
                         players scale it), played here at its rest scale",
                        skeleton.joints[j].name
                    ));
                }
                ReadOutputs::MorphTargetWeights(w) => {
                    let all: Vec<f32> = w.into_f32().collect();
                    let frames = if spline { times.len() * 3 } else { times.len() };
                    if frames == 0 || !all.len().is_multiple_of(frames) {
                        continue;
                    }
                    let targets = all.len() / frames;
                    for (d, displacer) in displacers.iter().enumerate() {
                        let Some((node, k)) = displacer.target else { continue };
                        if node != n || k >= targets {
                            continue;
                        }
                        let values: Vec<f32> = (0..times.len())
                            .map(|i| all[if spline { (3 * i + 1) * targets } else { i * targets } + k])
                            .collect();
                        let (t, v) = keyed(&times, values, step);
                        let def = defs.make(&format!("{}_weight", displacer_defs[d]));
                        elements.push(
                            el("ScalarInterpolator")
                                .attr("DEF", def.clone())
                                .attr("key", keys(&t))
                                .attr("keyValue", floats(v)),
                        );
                        elements.push(route(&clock, "fraction_changed", &def, "set_fraction"));
                        elements.push(route(&def, "value_changed", &displacer_defs[d], "set_weight"));
                    }
                }
            }
        }
        if cubic {
            source.warn(format!("animation {name}: cubic spline keys are read as linear keys (tangents dropped)"));
        }
        if elements.is_empty() {
            source.warn(format!("animation {name}: drives no joint or displacer; left out"));
            continue;
        }
        // The first clip plays when the file opens, unless this program's export says otherwise.
        let sensor = el("TimeSensor")
            .attr("DEF", clock.clone())
            .attr("description", name.clone())
            .attr("cycleInterval", num(cycle))
            .attr("loop", if flag("loop", true) { "true" } else { "false" })
            .attr("enabled", if flag("enabled", out.is_empty()) { "true" } else { "false" });
        out.push(sensor);
        out.extend(elements);
    }
    out
}
