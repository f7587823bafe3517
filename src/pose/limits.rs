//! Joint limits in the limit frame (semantics note §8, the clamping decision), shared by the posing
//! sliders and the IK solver.
//!
//! For the effective local rotation `R = R(r_eff)` and the limit frame `Lf = R(limitOrientation)`:
//! `A = Lf⁻¹·R·Lf` is decomposed as `A = Rx(α)·Ry(β)·Rz(γ)`; each angle whose `[l_i, u_i]` is a proper
//! interval is clamped, and `R' = Lf·Rx(α')·Ry(β')·Rz(γ')·Lf⁻¹` is recomposed.

use glam::{EulerRot, Quat};

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
