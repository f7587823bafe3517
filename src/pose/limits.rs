//! Joint limits in the limit frame (semantics note §8, the clamping decision), shared by the posing
//! sliders and the IK solver.
//!
//! For the effective local rotation `R = R(r_eff)` and the limit frame `Lf = R(limitOrientation)`:
//! `A = Lf⁻¹·R·Lf` is decomposed as `A = Rx(α)·Ry(β)·Rz(γ)`; each angle whose `[l_i, u_i]` is a proper
//! interval is clamped, and `R' = Lf·Rx(α')·Ry(β')·Rz(γ')·Lf⁻¹` is recomposed.

use glam::{EulerRot, Quat};

use crate::hanim::Humanoid;
use crate::pose::Pose;

/// How close to a bound an angle counts as on it (radians, about 0.06°): a solve or a clamp that stops at
/// a limit leaves the angle within float error of it.
pub const AT_LIMIT_TOLERANCE: f32 = 1e-3;

/// The allowed interval of each limit axis: `Some((l, u))` (radians) when the joint gives a proper
/// interval for that axis, `None` where the axis is free.
///
/// Free: `llimit`/`ulimit` missing, not three values each, equal as a whole (19774: `llimit == ulimit`
/// means no constraint, so the X3D 4 default `0 0 0 / 0 0 0` is free), or `l_i >= u_i` or non-finite on
/// that axis.
pub fn limit_intervals(llimit: &[f32], ulimit: &[f32]) -> [Option<(f32, f32)>; 3] {
    if llimit.len() != 3 || ulimit.len() != 3 || llimit == ulimit {
        return [None; 3];
    }
    std::array::from_fn(|i| {
        let (l, u) = (llimit[i], ulimit[i]);
        (l.is_finite() && u.is_finite() && l < u).then_some((l, u))
    })
}

/// `(α, β, γ)` of `rotation` about the X, Y, Z axes of the limit frame: `Lf⁻¹·R·Lf = Rx(α)·Ry(β)·Rz(γ)`.
pub fn limit_angles_from_rotation(rotation: Quat, limit_orientation: Quat) -> [f32; 3] {
    let a = (limit_orientation.inverse() * rotation * limit_orientation).normalize();
    let (x, y, z) = a.to_euler(EulerRot::XYZ);
    [x, y, z]
}

/// The rotation whose limit-frame angles are `angles`: `Lf·Rx(α)·Ry(β)·Rz(γ)·Lf⁻¹`.
pub fn rotation_from_limit_angles(angles: [f32; 3], limit_orientation: Quat) -> Quat {
    let a = Quat::from_euler(EulerRot::XYZ, angles[0], angles[1], angles[2]);
    (limit_orientation * a * limit_orientation.inverse()).normalize()
}

/// Clamps each angle into its interval (free axes unchanged).
pub fn clamp_angles(angles: [f32; 3], intervals: &[Option<(f32, f32)>; 3]) -> [f32; 3] {
    std::array::from_fn(|i| match intervals[i] {
        Some((l, u)) => angles[i].clamp(l, u),
        None => angles[i],
    })
}

/// `(joint, axis)` of every limited angle of `pose` that sits on a bound of its interval (within
/// [`AT_LIMIT_TOLERANCE`]) or beyond it (a pose that ignores the limits): what the window marks.
pub fn axes_at_limit(h: &Humanoid, pose: &Pose) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (j, joint) in h.joints.iter().enumerate() {
        let intervals = limit_intervals(&joint.llimit, &joint.ulimit);
        if intervals.iter().all(Option::is_none) {
            continue;
        }
        let angles = limit_angles_from_rotation(pose.effective_rotation(h, j), joint.limit_orientation);
        for (axis, interval) in intervals.iter().enumerate() {
            if let Some((l, u)) = interval
                && (angles[axis] <= l + AT_LIMIT_TOLERANCE || angles[axis] >= u - AT_LIMIT_TOLERANCE)
            {
                out.push((j, axis));
            }
        }
    }
    out
}

/// The §8 decision in one call: `rotation` with every limited angle clamped.
pub fn clamp_rotation(rotation: Quat, limit_orientation: Quat, llimit: &[f32], ulimit: &[f32]) -> Quat {
    let intervals = limit_intervals(llimit, ulimit);
    if intervals.iter().all(Option::is_none) {
        return rotation;
    }
    let angles = limit_angles_from_rotation(rotation, limit_orientation);
    rotation_from_limit_angles(clamp_angles(angles, &intervals), limit_orientation)
}

/// The user offset `Δ` that makes the effective rotation `r_base·Δ` equal `target` (§1.4).
pub fn offset_for_target(base: Quat, target: Quat) -> Quat {
    (base.inverse() * target).normalize()
}
