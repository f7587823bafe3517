//! The nodes that turn one event into others: interpolators (X3D 4.0 clause 19), sequencers (clause 19's
//! IntegerSequencer/BooleanSequencer) and the event utilities (clause 30: BooleanFilter, BooleanToggle,
//! BooleanTrigger, IntegerTrigger, TimeTrigger). Each is read once from the scene; [`Processor::input`]
//! is what it does with an event.

use glam::{Quat, Vec2, Vec3};

use super::value::FieldValue;
use crate::animation::interpolator::bracket;
use crate::hanim::quat_from_axis_angle;
use crate::x3d::{NodeId, Scene, X3dError, fields};

/// Key values of an interpolator or sequencer (one entry per key; Coordinate/Normal interpolators hold
/// `keyValue.len() / key.len()` points per key).
#[derive(Debug, Clone, PartialEq)]
pub enum KeyValues {
    Position(Vec<Vec3>),
    Orientation(Vec<Quat>),
    Scalar(Vec<f32>),
    Color(Vec<Vec3>),
    Position2D(Vec<Vec2>),
    Coordinate(Vec<Vec<Vec3>>),
    Normal(Vec<Vec<Vec3>>),
    Coordinate2D(Vec<Vec<Vec2>>),
    Integer(Vec<i32>),
    Boolean(Vec<bool>),
}

/// What a node that processes events is.
#[derive(Debug, Clone, PartialEq)]
pub enum Processor {
    /// An interpolator or a sequencer: `set_fraction` → `value_changed`.
    Keyed {
        keys: Vec<f32>,
        values: KeyValues,
    },
    BooleanFilter,
    /// `toggle` starts at the file's value; it is state kept between timestamps by the evaluator.
    BooleanToggle {
        toggle: bool,
    },
    BooleanTrigger,
    IntegerTrigger {
        key: i32,
    },
    TimeTrigger,
}

/// Splits `flat` into `keys` runs of equal length (clause 19.4.1: keyValue holds `n × keys` values).
fn per_key<T: Clone>(flat: Vec<T>, keys: usize) -> Vec<Vec<T>> {
    if keys == 0 || !flat.len().is_multiple_of(keys) {
        return Vec::new();
    }
    flat.chunks((flat.len() / keys).max(1)).map(<[T]>::to_vec).collect()
}

impl Processor {
    /// The processor for node `id`, `None` for node types that only hold fields. Interpolators whose key
    /// and keyValue counts differ are cut to the shorter list (clause 19.2.2 leaves the result
    /// undefined); the caller warns.
    pub fn read(scene: &Scene, id: NodeId) -> Result<Option<Processor>, X3dError> {
        let keyed = |values: KeyValues| -> Result<Option<Processor>, X3dError> {
            Ok(Some(Processor::Keyed { keys: scene.mf_float(id, "key")?, values }))
        };
        let n = || scene.mf_float(id, "key").map(|k| k.len());
        Ok(match scene.node(id).type_name.as_str() {
            "PositionInterpolator" => {
                keyed(KeyValues::Position(scene.mf_length3(id, "keyValue")?.into_iter().map(Vec3::from).collect()))?
            }
            "OrientationInterpolator" => keyed(KeyValues::Orientation(
                scene.mf_rotation(id, "keyValue")?.into_iter().map(quat_from_axis_angle).collect(),
            ))?,
            "ScalarInterpolator" => keyed(KeyValues::Scalar(scene.mf_float(id, "keyValue")?))?,
            "ColorInterpolator" => {
                let colors = scene.parse_field(id, "keyValue", fields::parse_mf_color)?.unwrap_or_default();
                keyed(KeyValues::Color(colors.into_iter().map(Vec3::from).collect()))?
            }
            "PositionInterpolator2D" => {
                let v = scene.parse_field(id, "keyValue", fields::parse_mf_vec2f)?.unwrap_or_default();
                keyed(KeyValues::Position2D(v.into_iter().map(Vec2::from).collect()))?
            }
            "CoordinateInterpolator" => {
                let v = scene.mf_length3(id, "keyValue")?.into_iter().map(Vec3::from).collect();
                keyed(KeyValues::Coordinate(per_key(v, n()?)))?
            }
            "NormalInterpolator" => {
                let v = scene.mf_vec3f(id, "keyValue")?.into_iter().map(Vec3::from).collect();
                keyed(KeyValues::Normal(per_key(v, n()?)))?
            }
            "CoordinateInterpolator2D" => {
                let v = scene.parse_field(id, "keyValue", fields::parse_mf_vec2f)?.unwrap_or_default();
                keyed(KeyValues::Coordinate2D(per_key(v.into_iter().map(Vec2::from).collect(), n()?)))?
            }
            "IntegerSequencer" => keyed(KeyValues::Integer(scene.mf_int32(id, "keyValue")?))?,
            "BooleanSequencer" => {
                let v = scene.parse_field(id, "keyValue", fields::parse_mf_bool)?.unwrap_or_default();
                keyed(KeyValues::Boolean(v))?
            }
            "BooleanFilter" => Some(Processor::BooleanFilter),
            "BooleanToggle" => Some(Processor::BooleanToggle { toggle: scene.sf_bool(id, "toggle", false)? }),
            "BooleanTrigger" => Some(Processor::BooleanTrigger),
            "IntegerTrigger" => Some(Processor::IntegerTrigger { key: scene.sf_int32(id, "integerKey", -1)? }),
            "TimeTrigger" => Some(Processor::TimeTrigger),
            _ => None,
        })
    }

    /// `(keys, values)` counts of a keyed node, to warn about a mismatch.
    pub fn key_counts(&self) -> Option<(usize, usize)> {
        let Processor::Keyed { keys, values } = self else { return None };
        let n = match values {
            KeyValues::Position(v) | KeyValues::Color(v) => v.len(),
            KeyValues::Orientation(v) => v.len(),
            KeyValues::Scalar(v) => v.len(),
            KeyValues::Position2D(v) => v.len(),
            KeyValues::Coordinate(v) | KeyValues::Normal(v) => v.len(),
            KeyValues::Coordinate2D(v) => v.len(),
            KeyValues::Integer(v) => v.len(),
            KeyValues::Boolean(v) => v.len(),
        };
        Some((keys.len(), n))
    }

    /// The events node sends for the event `field = value` at time `now`: `(output field, value)`.
    /// `field` is canonical (no `set_`/`_changed`).
    pub fn input(&mut self, field: &str, value: &FieldValue, now: f64) -> Vec<(&'static str, FieldValue)> {
        match self {
            Processor::Keyed { keys, values } if field == "fraction" => {
                let Some(f) = value.as_float() else { return Vec::new() };
                evaluate(keys, values, f).map(|v| vec![("value", v)]).unwrap_or_default()
            }
            Processor::BooleanFilter if field == "boolean" => {
                let Some(b) = value.as_bool() else { return Vec::new() };
                let which = if b { "inputTrue" } else { "inputFalse" };
                vec![(which, FieldValue::Bool(b)), ("inputNegate", FieldValue::Bool(!b))]
            }
            Processor::BooleanToggle { toggle } => match (field, value.as_bool()) {
                // Only TRUE flips the toggle (clause 30.4.2).
                ("boolean", Some(true)) => {
                    *toggle = !*toggle;
                    vec![("toggle", FieldValue::Bool(*toggle))]
                }
                ("toggle", Some(b)) => {
                    *toggle = b;
                    vec![("toggle", FieldValue::Bool(b))]
                }
                _ => Vec::new(),
            },
            Processor::BooleanTrigger if field == "triggerTime" => vec![("triggerTrue", FieldValue::Bool(true))],
            Processor::IntegerTrigger { key } if field == "boolean" => vec![("triggerValue", FieldValue::Int(*key))],
            Processor::IntegerTrigger { key } if field == "integerKey" => {
                *key = value.as_int().unwrap_or(*key);
                Vec::new()
            }
            Processor::TimeTrigger if field == "boolean" => vec![("triggerTime", FieldValue::Time(now))],
            _ => Vec::new(),
        }
    }
}

/// The value of keyed node at fraction `f`: interpolators blend the two keys around `f` (clamped outside
/// the keys, clause 19.2.2); sequencers take the value of the last key ≤ `f` (clause 19.2.3).
pub fn evaluate(keys: &[f32], values: &KeyValues, f: f32) -> Option<FieldValue> {
    let (a, b, t) = bracket(keys, f);
    let lerp3 = |x: &[Vec3], y: &[Vec3]| -> Vec<Vec3> { x.iter().zip(y).map(|(p, q)| p.lerp(*q, t)).collect() };
    Some(match values {
        KeyValues::Position(v) => FieldValue::Vec3(v.get(a)?.lerp(*v.get(b)?, t)),
        // Shortest arc, as X_ITE and view3dscene do (clause 19.4.5 leaves the direction to the keys).
        KeyValues::Orientation(v) => FieldValue::Rotation(v.get(a)?.slerp(*v.get(b)?, t).normalize()),
        KeyValues::Scalar(v) => {
            let (x, y) = (*v.get(a)?, *v.get(b)?);
            FieldValue::Float(x + (y - x) * t)
        }
        // Clause 19.4.3: colours are interpolated in HSV space.
        KeyValues::Color(v) => FieldValue::Color(hsv_lerp(*v.get(a)?, *v.get(b)?, t)),
        KeyValues::Position2D(v) => FieldValue::Vec2(v.get(a)?.lerp(*v.get(b)?, t)),
        KeyValues::Coordinate(v) => FieldValue::Vec3s(lerp3(v.get(a)?, v.get(b)?)),
        // Clause 19.4.6: normals along the great circle between the two (unit) vectors.
        KeyValues::Normal(v) => FieldValue::Vec3s(
            v.get(a)?
                .iter()
                .zip(v.get(b)?)
                .map(|(p, q)| slerp_unit(p.normalize_or_zero(), q.normalize_or_zero(), t))
                .collect(),
        ),
        KeyValues::Coordinate2D(v) => {
            FieldValue::Vec2s(v.get(a)?.iter().zip(v.get(b)?).map(|(p, q)| p.lerp(*q, t)).collect())
        }
        KeyValues::Integer(v) => FieldValue::Int(*v.get(step(keys, f))?),
        KeyValues::Boolean(v) => FieldValue::Bool(*v.get(step(keys, f))?),
    })
}

/// A sequencer's key index at `f`: the last key ≤ `f`, the first before the first key.
fn step(keys: &[f32], f: f32) -> usize {
    keys.partition_point(|&k| k <= f).saturating_sub(1)
}

fn slerp_unit(p: Vec3, q: Vec3, t: f32) -> Vec3 {
    let angle = p.dot(q).clamp(-1.0, 1.0).acos();
    if angle < 1e-6 {
        return p.lerp(q, t).normalize_or_zero();
    }
    let s = angle.sin();
    if s.abs() < 1e-6 {
        return p.lerp(q, t).normalize_or_zero();
    }
    p * (((1.0 - t) * angle).sin() / s) + q * ((t * angle).sin() / s)
}

fn rgb_to_hsv(c: Vec3) -> Vec3 {
    let max = c.max_element();
    let min = c.min_element();
    let d = max - min;
    let h = if d == 0.0 {
        0.0
    } else if max == c.x {
        ((c.y - c.z) / d).rem_euclid(6.0)
    } else if max == c.y {
        (c.z - c.x) / d + 2.0
    } else {
        (c.x - c.y) / d + 4.0
    } * 60.0;
    Vec3::new(h, if max == 0.0 { 0.0 } else { d / max }, max)
}

fn hsv_to_rgb(hsv: Vec3) -> Vec3 {
    let (h, s, v) = (hsv.x.rem_euclid(360.0) / 60.0, hsv.y, hsv.z);
    let c = v * s;
    let x = c * (1.0 - (h % 2.0 - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    Vec3::new(r, g, b) + Vec3::splat(v - c)
}

/// Blends two RGB colours in HSV, the hue along the shorter way round.
fn hsv_lerp(a: Vec3, b: Vec3, t: f32) -> Vec3 {
    let (p, q) = (rgb_to_hsv(a), rgb_to_hsv(b));
    let mut dh = q.x - p.x;
    if dh > 180.0 {
        dh -= 360.0;
    } else if dh < -180.0 {
        dh += 360.0;
    }
    hsv_to_rgb(Vec3::new(p.x + dh * t, p.y + (q.y - p.y) * t, p.z + (q.z - p.z) * t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequencers_step_and_interpolators_blend() {
        let keys = [0.0, 0.5, 1.0];
        let ints = KeyValues::Integer(vec![0, 1, 2]);
        assert_eq!(evaluate(&keys, &ints, 0.49), Some(FieldValue::Int(0)));
        assert_eq!(evaluate(&keys, &ints, 0.5), Some(FieldValue::Int(1)));
        assert_eq!(evaluate(&keys, &ints, 1.0), Some(FieldValue::Int(2)));
        let pos = KeyValues::Position(vec![Vec3::ZERO, Vec3::X, Vec3::Y]);
        assert_eq!(evaluate(&keys, &pos, 0.25), Some(FieldValue::Vec3(Vec3::new(0.5, 0.0, 0.0))));
        let coords = KeyValues::Coordinate(per_key(vec![Vec3::ZERO, Vec3::ONE, Vec3::X, Vec3::Y], 2));
        assert_eq!(
            evaluate(&[0.0, 1.0], &coords, 0.5),
            Some(FieldValue::Vec3s(vec![Vec3::new(0.5, 0.0, 0.0), Vec3::new(0.5, 1.0, 0.5)]))
        );
    }

    #[test]
    fn colours_blend_in_hsv() {
        // Red to green through yellow (hue 0° → 120°, halfway 60°), not through dark olive as RGB would.
        let c = hsv_lerp(Vec3::X, Vec3::Y, 0.5);
        assert!((c - Vec3::new(1.0, 1.0, 0.0)).length() < 1e-5, "{c}");
        for rgb in [Vec3::new(0.2, 0.4, 0.9), Vec3::new(0.9, 0.1, 0.3), Vec3::splat(0.5)] {
            assert!((hsv_to_rgb(rgb_to_hsv(rgb)) - rgb).length() < 1e-5);
        }
    }

    #[test]
    fn utilities_send_what_clause_30_says() {
        let mut filter = Processor::BooleanFilter;
        let out = filter.input("boolean", &FieldValue::Bool(false), 0.0);
        assert_eq!(out, vec![("inputFalse", FieldValue::Bool(false)), ("inputNegate", FieldValue::Bool(true))]);
        let mut toggle = Processor::BooleanToggle { toggle: false };
        assert_eq!(toggle.input("boolean", &FieldValue::Bool(true), 0.0), vec![("toggle", FieldValue::Bool(true))]);
        assert!(toggle.input("boolean", &FieldValue::Bool(false), 0.0).is_empty());
        let mut trigger = Processor::IntegerTrigger { key: 3 };
        assert_eq!(trigger.input("boolean", &FieldValue::Bool(true), 0.0), vec![("triggerValue", FieldValue::Int(3))]);
        let mut time = Processor::TimeTrigger;
        assert_eq!(time.input("boolean", &FieldValue::Bool(true), 2.5), vec![("triggerTime", FieldValue::Time(2.5))]);
    }
}
