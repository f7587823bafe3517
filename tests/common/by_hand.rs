//! Interpolation worked by hand for the motion tests: textbook slerp, X3D key lookup, and the
//! interpolator a TimeSensor drives into a field.

use glam::Quat;
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::x3d::NodeId;

pub fn load(relative: &str) -> Document {
    hanim::load(&super::corpus(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

/// Textbook slerp along the shorter arc: `q(t) = sin((1−t)θ)/sin θ · q0 + sin(tθ)/sin θ · q1`.
pub fn slerp_by_hand(q0: Quat, q1: Quat, t: f32) -> Quat {
    let mut d = q0.dot(q1);
    let q1 = if d < 0.0 {
        d = -d;
        -q1
    } else {
        q1
    };
    if d > 0.9995 {
        return (q0 * (1.0 - t) + q1 * t).normalize();
    }
    let theta = d.acos();
    let (a, b) = (((1.0 - t) * theta).sin() / theta.sin(), (t * theta).sin() / theta.sin());
    (q0 * a + q1 * b).normalize()
}

/// Same rotation (q and −q are the same rotation).
pub fn assert_same_rotation(got: Quat, want: Quat, what: &str) {
    let d = got.dot(want).abs();
    assert!(d > 1.0 - 1e-5, "{what}: got {got:?}, want {want:?} (|dot| {d})");
}

/// The two keys around `f` and the blend, as X3D §19.2.2 says (clamped outside the keys).
pub fn key_pair(keys: &[f32], f: f32) -> (usize, usize, f32) {
    if f <= keys[0] {
        return (0, 0, 0.0);
    }
    for i in 0..keys.len() - 1 {
        if f >= keys[i] && f < keys[i + 1] {
            return (i, i + 1, (f - keys[i]) / (keys[i + 1] - keys[i]));
        }
    }
    (keys.len() - 1, keys.len() - 1, 0.0)
}

pub fn def(doc: &Document, name: &str) -> NodeId {
    *doc.scene.defs.get(name).unwrap_or_else(|| panic!("no DEF {name}"))
}

/// The interpolator a TimeSensor feeds directly and that is routed into `field` of the node DEF'd
/// `target` (the last such ROUTE in the file, as the last write wins).
pub fn direct_interpolator(doc: &Document, sensor: &str, target: &str, field: &str) -> Option<NodeId> {
    let (sensor, target) = (def(doc, sensor), def(doc, target));
    let fed: Vec<NodeId> = doc
        .scene
        .routes
        .iter()
        .filter(|r| r.from_node == sensor && r.from_field == "fraction_changed" && r.to_field == "set_fraction")
        .map(|r| r.to_node)
        .collect();
    doc.scene
        .routes
        .iter()
        .rev()
        .find(|r| r.to_node == target && r.to_field == field && fed.contains(&r.from_node))
        .map(|r| r.from_node)
}
