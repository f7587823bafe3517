//! Joint limits for the posing sliders (semantics note §8, the clamping decision).
//!
//! For the effective local rotation `R = R(r_eff)` and the limit frame `Lf = R(limitOrientation)`:
//! `A = Lf⁻¹·R·Lf` is decomposed as `A = Rx(α)·Ry(β)·Rz(γ)`; each angle whose `[l_i, u_i]` is a proper
//! interval is clamped, and `R' = Lf·Rx(α')·Ry(β')·Rz(γ')·Lf⁻¹` is recomposed. The sliders show
//! `(α, β, γ)` in degrees; moving one sets the user offset `Δ = R(r_base)⁻¹·R_target` (§1.4).
//!
//! Pure functions: no egui, no wgpu. The limit-frame math itself lives in [`crate::pose::limits`], where
//! the IK solver uses it too.

use glam::{Quat, Vec3};

pub use crate::pose::limits::{
    clamp_angles, clamp_rotation, limit_angles_from_rotation, limit_intervals, offset_for_target,
    rotation_from_limit_angles,
};

/// One limited axis of a joint as the overlay draws it: the arc of allowed angles and the current one.
#[derive(Debug, Clone, PartialEq)]
pub struct LimitArc {
    /// 0, 1, 2: the limit frame's X, Y, Z axis.
    pub axis: usize,
    /// The arc from `l` to `u`, `segments + 1` points on the circle about the axis.
    pub points: Vec<Vec3>,
    /// The point at the current angle (outside the arc when the pose ignores the limits).
    pub current: Vec3,
}

/// The arcs of every limited axis of a joint with effective rotation `rotation`, on circles of `radius`
/// about `centre`. `frame` is the world rotation of the space the joint's rotation acts in (its parent's).
/// With `A = Rx(α)·Ry(β)·Rz(γ)` (the limit-frame decomposition), α turns about the frame's X, β about Y
/// after α, γ about Z after α and β; each arc sweeps a perpendicular reference vector (Y, Z, X) through
/// its interval, so the current point lies on the arc exactly when that angle is within its limits.
pub fn limit_arcs(
    frame: Quat,
    centre: Vec3,
    radius: f32,
    rotation: Quat,
    limit_orientation: Quat,
    intervals: &[Option<(f32, f32)>; 3],
    segments: usize,
) -> Vec<LimitArc> {
    let [alpha, beta, gamma] = limit_angles_from_rotation(rotation, limit_orientation);
    let base = frame * limit_orientation;
    let mut arcs = Vec::new();
    for (axis, interval) in intervals.iter().enumerate() {
        let Some((l, u)) = *interval else { continue };
        let (before, about, reference, angle) = match axis {
            0 => (Quat::IDENTITY, Vec3::X, Vec3::Y, alpha),
            1 => (Quat::from_rotation_x(alpha), Vec3::Y, Vec3::Z, beta),
            _ => (Quat::from_rotation_x(alpha) * Quat::from_rotation_y(beta), Vec3::Z, Vec3::X, gamma),
        };
        let at = |theta: f32| centre + radius * (base * before * Quat::from_axis_angle(about, theta) * reference);
        let segments = segments.max(1);
        let points = (0..=segments).map(|k| at(l + (u - l) * k as f32 / segments as f32)).collect();
        arcs.push(LimitArc { axis, points, current: at(angle) });
    }
    arcs
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

    #[test]
    fn limit_arcs_sweep_the_allowed_angles_about_each_axis() {
        use std::f32::consts::FRAC_PI_2;
        let intervals = limit_intervals(&[-FRAC_PI_2, 0.0, -0.5], &[FRAC_PI_2, 1.0, 0.5]);
        let centre = Vec3::new(1.0, 2.0, 3.0);
        // Identity frames, no rotation: α's arc runs from −Z to +Z through +Y (Rx(θ)·Y = (0, cos θ, sin θ)).
        let arcs = limit_arcs(Quat::IDENTITY, centre, 2.0, Quat::IDENTITY, Quat::IDENTITY, &intervals, 8);
        assert_eq!(arcs.iter().map(|a| a.axis).collect::<Vec<_>>(), [0, 1, 2]);
        let near = |a: Vec3, b: Vec3| (a - b).length() < 1e-5;
        assert!(near(arcs[0].points[0], centre + Vec3::new(0.0, 0.0, -2.0)), "{:?}", arcs[0].points[0]);
        assert!(near(arcs[0].points[4], centre + Vec3::new(0.0, 2.0, 0.0)));
        assert!(near(arcs[0].points[8], centre + Vec3::new(0.0, 0.0, 2.0)));
        assert!(near(arcs[0].current, centre + Vec3::new(0.0, 2.0, 0.0)));
        // β: Ry(θ)·Z = (sin θ, 0, cos θ), from 0 to 1 rad.
        assert!(near(arcs[1].points[8], centre + 2.0 * Vec3::new(1f32.sin(), 0.0, 1f32.cos())));

        // A limit frame turned 90° about Z (its X is world Y) inside a parent turned 90° about X, and the
        // joint bent 0.3 rad about the limit X: every point of α's arc is perpendicular to the axis
        // frame·Lf·X, and the current point is the reference turned by 0.3.
        let (frame, lf) = (Quat::from_rotation_x(FRAC_PI_2), Quat::from_rotation_z(FRAC_PI_2));
        let rotation = rotation_from_limit_angles([0.3, 0.0, 0.0], lf);
        let arcs = limit_arcs(frame, centre, 1.0, rotation, lf, &intervals, 16);
        let axis = frame * lf * Vec3::X;
        for p in &arcs[0].points {
            assert!((*p - centre).dot(axis).abs() < 1e-5 && ((*p - centre).length() - 1.0).abs() < 1e-5);
        }
        let expected = centre + frame * lf * Quat::from_rotation_x(0.3) * Vec3::Y;
        assert!(near(arcs[0].current, expected), "{:?} vs {expected:?}", arcs[0].current);
        // Free axes have no arc.
        let free = limit_arcs(frame, centre, 1.0, rotation, lf, &limit_intervals(&[0.0; 3], &[0.0; 3]), 8);
        assert!(free.is_empty());
    }
}
