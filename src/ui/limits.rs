//! Joint limits for the posing sliders (semantics note §8, the clamping decision).
//!
//! For the effective local rotation `R = R(r_eff)` and the limit frame `Lf = R(limitOrientation)`:
//! `A = Lf⁻¹·R·Lf` is decomposed as `A = Rx(α)·Ry(β)·Rz(γ)`; each angle whose `[l_i, u_i]` is a proper
//! interval is clamped, and `R' = Lf·Rx(α')·Ry(β')·Rz(γ')·Lf⁻¹` is recomposed. The sliders show
//! `(α, β, γ)` in degrees; moving one sets the user offset `Δ = R(r_base)⁻¹·R_target` (§1.4).
//!
//! Pure functions: no egui, no wgpu.

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

#[cfg(test)]
mod tests {
    use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, FRAC_PI_6};

    use glam::Vec3;

    use super::*;

    fn close(a: Quat, b: Quat) -> bool {
        // q and −q are the same rotation.
        a.dot(b).abs() > 1.0 - 1e-5
    }

    #[test]
    fn euler_order_is_rx_then_ry_then_rz() {
        let (a, b, c) = (0.3, -0.4, 0.5);
        let expected = Quat::from_rotation_x(a) * Quat::from_rotation_y(b) * Quat::from_rotation_z(c);
        assert!(close(rotation_from_limit_angles([a, b, c], Quat::IDENTITY), expected));
        let back = limit_angles_from_rotation(expected, Quat::IDENTITY);
        for (got, want) in back.iter().zip([a, b, c]) {
            assert!((got - want).abs() < 1e-5, "{back:?}");
        }
    }

    #[test]
    fn angles_round_trip_through_a_limit_frame() {
        let lf = Quat::from_axis_angle(Vec3::new(1.0, 1.0, 0.0).normalize(), 0.7);
        let angles = [0.2, 0.9, -1.1];
        let r = rotation_from_limit_angles(angles, lf);
        let back = limit_angles_from_rotation(r, lf);
        for (got, want) in back.iter().zip(angles) {
            assert!((got - want).abs() < 1e-4, "{back:?}");
        }
        // In the limit frame, a rotation about the frame's X axis is pure α.
        let about_frame_x = Quat::from_axis_angle(lf * Vec3::X, 0.5);
        let a = limit_angles_from_rotation(about_frame_x, lf);
        assert!((a[0] - 0.5).abs() < 1e-5 && a[1].abs() < 1e-5 && a[2].abs() < 1e-5, "{a:?}");
    }

    #[test]
    fn equal_or_missing_limits_are_free() {
        assert_eq!(limit_intervals(&[], &[]), [None; 3]);
        assert_eq!(limit_intervals(&[0.0; 3], &[0.0; 3]), [None; 3]);
        assert_eq!(limit_intervals(&[0.1, 0.2, 0.3], &[0.1, 0.2, 0.3]), [None; 3]);
        assert_eq!(limit_intervals(&[-1.0, 0.0], &[1.0, 1.0]), [None; 3], "two values are undefined: free");
        let r = Quat::from_rotation_z(2.0);
        assert!(close(clamp_rotation(r, Quat::IDENTITY, &[0.0; 3], &[0.0; 3]), r));
    }

    #[test]
    fn only_proper_intervals_clamp() {
        let intervals = limit_intervals(&[-0.5, 0.0, 1.0], &[0.5, 0.0, 0.5]);
        assert_eq!(intervals, [Some((-0.5, 0.5)), None, None]);
        assert_eq!(clamp_angles([1.0, 2.0, 3.0], &intervals), [0.5, 2.0, 3.0]);
        assert_eq!(clamp_angles([-1.0, -2.0, -3.0], &intervals), [-0.5, -2.0, -3.0]);
        assert_eq!(clamp_angles([0.25, 0.0, 0.0], &intervals), [0.25, 0.0, 0.0]);
    }

    #[test]
    fn clamping_an_elbow_keeps_it_inside_its_range() {
        // An elbow bending about X only, 0..150°.
        let (l, u) = ([0.0, -0.01, -0.01], [150f32.to_radians(), 0.01, 0.01]);
        let r = Quat::from_rotation_x(-FRAC_PI_4) * Quat::from_rotation_y(FRAC_PI_6);
        let clamped = clamp_rotation(r, Quat::IDENTITY, &l, &u);
        let a = limit_angles_from_rotation(clamped, Quat::IDENTITY);
        assert!(a[0].abs() < 1e-5 && a[1].abs() <= 0.01 + 1e-5 && a[2].abs() <= 0.01 + 1e-5, "{a:?}");
        // Inside the range nothing changes.
        let inside = Quat::from_rotation_x(FRAC_PI_2);
        assert!(close(clamp_rotation(inside, Quat::IDENTITY, &l, &u), inside));
    }

    #[test]
    fn limits_are_measured_in_the_limit_frame() {
        // Limit frame turned 90° about Z: its X axis is world Y. A rotation about world Y is limited by
        // the first interval.
        let lf = Quat::from_rotation_z(FRAC_PI_2);
        let r = Quat::from_rotation_y(1.0);
        let clamped = clamp_rotation(r, lf, &[-0.2, -3.0, -3.0], &[0.2, 3.0, 3.0]);
        assert!(close(clamped, Quat::from_rotation_y(0.2)), "{clamped:?}");
    }

    #[test]
    fn offset_composes_back_to_the_target() {
        let base = Quat::from_rotation_y(0.4);
        let target = Quat::from_rotation_x(1.0) * Quat::from_rotation_z(-0.3);
        let delta = offset_for_target(base, target);
        assert!(close(base * delta, target));
    }
}
