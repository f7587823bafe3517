//! Field values that travel along ROUTEs, and the field-name rule that makes `set_x`, `x` and
//! `x_changed` one field (X3D 4.0 clause 4.4.2.2: an inputOutput field `x` has the implicit input
//! `set_x` and output `x_changed`).

use glam::{Quat, Vec2, Vec3};

/// One event's value: the field types the interpolation, sequencer and event utility nodes send
/// (clauses 19 and 30) and the time sensors' outputs (clause 8).
#[derive(Debug, Clone, PartialEq)]
pub enum FieldValue {
    Bool(bool),
    Int(i32),
    Float(f32),
    /// SFTime, seconds of scene time.
    Time(f64),
    Vec2(Vec2),
    Vec3(Vec3),
    /// SFRotation as a unit quaternion.
    Rotation(Quat),
    /// SFColor (RGB, 0 to 1).
    Color(Vec3),
    Vec2s(Vec<Vec2>),
    Vec3s(Vec<Vec3>),
}

impl FieldValue {
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            FieldValue::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// A fraction: SFFloat, or SFTime/SFInt32 coerced (a ROUTE between different types is an error in
    /// X3D, but files route a ScalarInterpolator into `set_fraction`, which is SFFloat to SFFloat).
    pub fn as_float(&self) -> Option<f32> {
        match self {
            FieldValue::Float(f) => Some(*f),
            _ => None,
        }
    }

    /// SFTime (or an SFFloat/SFDouble routed into a time field) in seconds.
    pub fn as_time(&self) -> Option<f64> {
        match self {
            FieldValue::Time(t) => Some(*t),
            FieldValue::Float(f) => Some(f64::from(*f)),
            _ => None,
        }
    }

    pub fn as_vec2(&self) -> Option<Vec2> {
        match self {
            FieldValue::Vec2(v) => Some(*v),
            _ => None,
        }
    }

    pub fn as_vec3(&self) -> Option<Vec3> {
        match self {
            FieldValue::Vec3(v) | FieldValue::Color(v) => Some(*v),
            _ => None,
        }
    }

    pub fn as_rotation(&self) -> Option<Quat> {
        match self {
            FieldValue::Rotation(q) => Some(*q),
            _ => None,
        }
    }

    pub fn as_int(&self) -> Option<i32> {
        match self {
            FieldValue::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The value as X3D text (for reports and tests): rotations as axis and angle.
    pub fn to_x3d(&self) -> String {
        match self {
            FieldValue::Bool(b) => if *b { "TRUE" } else { "FALSE" }.to_string(),
            FieldValue::Int(i) => i.to_string(),
            FieldValue::Float(f) => f.to_string(),
            FieldValue::Time(t) => t.to_string(),
            FieldValue::Vec2(v) => format!("{} {}", v.x, v.y),
            FieldValue::Vec3(v) | FieldValue::Color(v) => format!("{} {} {}", v.x, v.y, v.z),
            FieldValue::Rotation(q) => {
                let (axis, angle) = q.to_axis_angle();
                format!("{} {} {} {}", axis.x, axis.y, axis.z, angle)
            }
            FieldValue::Vec2s(v) => v.iter().map(|p| format!("{} {}", p.x, p.y)).collect::<Vec<_>>().join(", "),
            FieldValue::Vec3s(v) => v.iter().map(|p| format!("{} {} {}", p.x, p.y, p.z)).collect::<Vec<_>>().join(", "),
        }
    }
}

/// The field a ROUTE end names, without the `set_` / `_changed` decorations of inputOutput fields.
pub fn canonical_field(name: &str) -> &str {
    let name = name.strip_prefix("set_").unwrap_or(name);
    name.strip_suffix("_changed").unwrap_or(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_names_fold_to_one() {
        assert_eq!(canonical_field("set_fraction"), "fraction");
        assert_eq!(canonical_field("fraction_changed"), "fraction");
        assert_eq!(canonical_field("translation"), "translation");
        assert_eq!(canonical_field("value_changed"), "value");
        assert_eq!(canonical_field("isActive"), "isActive");
    }
}
