//! The IK solver (`pose::ik`): hand-made chains with hand-worked answers, properties over random
//! targets and limits, and corpus humanoids reaching in front of the chest with their feet pinned.

mod common;

use std::f32::consts::{FRAC_PI_2, PI};
use std::path::Path;
use std::time::Instant;

use glam::{Quat, Vec3};
use hanim_viewer::hanim::{Humanoid, load, load_str};
use hanim_viewer::pose::ik::{Effector, IkOptions, chain_joints, default_chain_root, find_effector, solve};
use hanim_viewer::pose::limits::{limit_angles_from_rotation, limit_intervals};
use hanim_viewer::pose::{Pose, humanoid_from_joint};
use proptest::prelude::*;

/// A chain along +X from the origin: `humanoid_root` (centre 0), then one joint per entry of `joints`
/// (name, centre x, extra attributes), and a site `tip` at `tip_x` in the last joint's segment.
fn chain_file(joints: &[(&str, f32, &str)], tip_x: f32) -> Humanoid {
    let mut open = String::new();
    let mut close = String::new();
    for (name, x, extra) in joints {
        open.push_str(&format!("<HAnimJoint DEF='hanim_{name}' name='{name}' center='{x} 0 0' {extra}>\n"));
        close.push_str("</HAnimJoint>\n");
    }
    let text = format!(
        "<X3D profile='Immersive' version='4.0'><Scene>
         <HAnimHumanoid name='chain' version='2.0'>
         <HAnimJoint DEF='hanim_humanoid_root' name='humanoid_root' containerField='skeleton' center='0 0 0'>
         {open}<HAnimSegment name='last'><HAnimSite name='tip' translation='{tip_x} 0 0'/></HAnimSegment>
         {close}</HAnimJoint></HAnimHumanoid></Scene></X3D>"
    );
    let doc = load_str(&text, Path::new("chain.x3d")).expect("hand-made chain loads");
    doc.humanoids.into_iter().next().expect("one humanoid")
}

fn joint(h: &Humanoid, name: &str) -> usize {
    h.joint_index(name).unwrap_or_else(|| panic!("{name} in the chain"))
}

fn position_of(h: &Humanoid, pose: &Pose, e: &Effector) -> Vec3 {
    humanoid_from_joint(h, pose)[e.joint].transform_point3(e.point)
}

/// The effector `name` of `h`, on the chain up to `root`, aimed at `target`.
fn effector(h: &Humanoid, name: &str, root: &str, target: Vec3) -> Effector {
    let p = find_effector(h, name).expect("effector exists");
    Effector { joint: p.joint, point: p.point, root: joint(h, root), target, orientation: None }
}

fn angles(h: &Humanoid, pose: &Pose, j: usize) -> [f32; 3] {
    limit_angles_from_rotation(pose.effective_rotation(h, j), h.joints[j].limit_orientation)
}

/// Planar two-link arm, links of length 1, turning about Z only (stiffness `0 0 1` holds X and Y), the
/// elbow bending one way only (limits 0..π about Z). Target (1, 1, 0): tip = (cos θ1 + cos(θ1+θ2),
/// sin θ1 + sin(θ1+θ2)) = (1, 1) has the solutions (0, π/2) and (π/2, −π/2); the limit leaves the first.
#[test]
fn two_link_planar_arm_reaches_the_worked_angles() {
    let h = chain_file(
        &[
            ("l_shoulder", 0.0, "stiffness='0 0 1'"),
            ("l_elbow", 1.0, "stiffness='0 0 1' llimit='0 0 0' ulimit='0 0 3.1416'"),
        ],
        2.0,
    );
    let mut pose = Pose::rest(&h);
    let e = effector(&h, "tip", "l_shoulder", Vec3::new(1.0, 1.0, 0.0));
    let report = solve(&h, &mut pose, &[e], &IkOptions::default()).expect("solves");
    assert!(report.converged, "{report:?}");
    let shoulder = angles(&h, &pose, joint(&h, "l_shoulder"));
    let elbow = angles(&h, &pose, joint(&h, "l_elbow"));
    for (got, want) in shoulder.iter().chain(&elbow).zip([0.0, 0.0, 0.0, 0.0, 0.0, FRAC_PI_2]) {
        assert!((got - want).abs() < 1e-4, "shoulder {shoulder:?} elbow {elbow:?}");
    }
    assert!(position_of(&h, &pose, &e).distance(e.target) < 1e-5);
    // The root and every joint off the chain keep their offsets.
    assert_eq!(pose.rotation_offsets[joint(&h, "humanoid_root")], Quat::IDENTITY);
}

/// Second worked answer: target (0, 2·sin 60°·…): with θ2 = π/3 the tip is at angle θ1 + π/6 and distance
/// 2·cos(π/6) = √3; aiming at (0, √3, 0) asks θ1 + π/6 = π/2, so θ1 = π/3.
#[test]
fn two_link_planar_arm_reaches_a_second_worked_target() {
    let h = chain_file(
        &[
            ("l_shoulder", 0.0, "stiffness='0 0 1'"),
            ("l_elbow", 1.0, "stiffness='0 0 1' llimit='0 0 0' ulimit='0 0 3.1416'"),
        ],
        2.0,
    );
    let mut pose = Pose::rest(&h);
    let e = effector(&h, "tip", "l_shoulder", Vec3::new(0.0, 3f32.sqrt(), 0.0));
    let report = solve(&h, &mut pose, &[e], &IkOptions::default()).expect("solves");
    assert!(report.converged, "{report:?}");
    let shoulder = angles(&h, &pose, joint(&h, "l_shoulder"))[2];
    let elbow = angles(&h, &pose, joint(&h, "l_elbow"))[2];
    assert!((shoulder - PI / 3.0).abs() < 1e-4 && (elbow - PI / 3.0).abs() < 1e-4, "{shoulder} {elbow}");
}

/// One step of a one-joint chain: with stiffness 0.5 on every axis the joint turns exactly half as far as
/// with the default `0 0 0` (read as "not given"); with `0 0 0.25` a quarter.
#[test]
fn stiffness_scales_each_step() {
    let turn = |stiffness: &str| {
        let h = chain_file(&[("l_shoulder", 0.0, stiffness)], 1.0);
        let mut pose = Pose::rest(&h);
        let e = effector(&h, "tip", "l_shoulder", Vec3::new(0.0, 1.0, 0.0));
        let one_step = IkOptions { max_iterations: 1, ..IkOptions::default() };
        solve(&h, &mut pose, &[e], &one_step).expect("solves");
        let offset = pose.rotation_offsets[joint(&h, "l_shoulder")];
        assert!(offset.to_axis_angle().0.abs_diff_eq(Vec3::Z, 1e-5) || offset.angle_between(Quat::IDENTITY) < 1e-7);
        offset.angle_between(Quat::IDENTITY)
    };
    let free = turn("");
    assert!(free > 0.1, "a free joint turns: {free}");
    assert!((turn("stiffness='0 0 0'") - free).abs() < 1e-6);
    assert!((turn("stiffness='0.5 0.5 0.5'") / free - 0.5).abs() < 1e-5);
    assert!((turn("stiffness='1 1 0.25'") / free - 0.25).abs() < 1e-5);
    assert_eq!(turn("stiffness='1 1 0'"), 0.0, "stiffness 0 on an axis that is given holds it");
}

/// The chain for the property tests: shoulder, elbow, wrist along +X (links 1, 1, 0.5).
fn three_links(extra: [&str; 3]) -> Humanoid {
    chain_file(&[("l_shoulder", 0.0, extra[0]), ("l_elbow", 1.0, extra[1]), ("l_wrist", 2.0, extra[2])], 2.5)
}

fn direction(theta: f32, phi: f32) -> Vec3 {
    Vec3::new(phi.cos() * theta.cos(), phi.sin(), phi.cos() * theta.sin())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any target within the chain's reach (distance 0.3 … 2.3 from the shoulder, links 1 + 1 + 0.5) is
    /// reached within 1e-4.
    #[test]
    fn reachable_targets_are_reached(theta in -PI..PI, phi in -1.5f32..1.5, distance in 0.3f32..2.3) {
        let h = three_links(["", "", ""]);
        let mut pose = Pose::rest(&h);
        let e = effector(&h, "tip", "l_shoulder", distance * direction(theta, phi));
        let report = solve(&h, &mut pose, &[e], &IkOptions::default()).expect("solves");
        let reached = position_of(&h, &pose, &e).distance(e.target);
        prop_assert!(reached < 1e-4, "{reached} {report:?}");
    }

    /// Whatever the target, every limited angle ends inside its interval.
    #[test]
    fn limits_are_never_exceeded(
        theta in -PI..PI, phi in -1.5f32..1.5, distance in 0.0f32..4.0,
        lows in prop::array::uniform3(-1.2f32..-0.05), highs in prop::array::uniform3(0.05f32..1.2),
    ) {
        let limits = format!("llimit='{} {} {}' ulimit='{} {} {}'", lows[0], lows[1], lows[2], highs[0], highs[1], highs[2]);
        let h = three_links([&limits, &limits, &limits]);
        let mut pose = Pose::rest(&h);
        let e = effector(&h, "tip", "l_shoulder", distance * direction(theta, phi));
        solve(&h, &mut pose, &[e], &IkOptions::default()).expect("solves");
        for name in ["l_shoulder", "l_elbow", "l_wrist"] {
            let j = joint(&h, name);
            let got = angles(&h, &pose, j);
            for (axis, interval) in limit_intervals(&h.joints[j].llimit, &h.joints[j].ulimit).iter().enumerate() {
                let (l, u) = interval.expect("every axis limited");
                prop_assert!(got[axis] >= l - 1e-4 && got[axis] <= u + 1e-4, "{name} {got:?} {lows:?} {highs:?}");
            }
        }
    }

    /// Targets beyond reach stretch the chain toward them: finite offsets, and the tip nearer the target
    /// than at rest, on the line to it within 1e-3 of full reach.
    #[test]
    fn unreachable_targets_stretch_without_nan(theta in -PI..PI, phi in -1.5f32..1.5, distance in 2.6f32..1e4) {
        let h = three_links(["", "", ""]);
        let mut pose = Pose::rest(&h);
        let e = effector(&h, "tip", "l_shoulder", distance * direction(theta, phi));
        let report = solve(&h, &mut pose, &[e], &IkOptions::default()).expect("solves");
        prop_assert!(pose.rotation_offsets.iter().all(|q| q.is_finite()));
        let tip = position_of(&h, &pose, &e);
        prop_assert!(report.distances[0].is_finite());
        prop_assert!((tip.distance(e.target) - (distance - 2.5)).abs() < 1e-3 * distance.max(1.0), "{tip} {report:?}");
    }
}

/// Targets at the shoulder, straight behind the chain (its Jacobian has no row toward them), on the chain
/// itself and far beyond: no NaN, and the reachable ones are reached.
#[test]
fn degenerate_targets_give_finite_poses() {
    let h = three_links(["", "", ""]);
    for (target, reachable) in [
        (Vec3::ZERO, false),
        (Vec3::new(-1.0, 0.0, 0.0), true),
        (Vec3::new(-3.0, 0.0, 0.0), false),
        (Vec3::new(1.5, 0.0, 0.0), true),
        (Vec3::new(2.5, 0.0, 0.0), true),
        (Vec3::new(1e6, 0.0, 0.0), false),
    ] {
        let mut pose = Pose::rest(&h);
        let e = effector(&h, "tip", "l_shoulder", target);
        let report = solve(&h, &mut pose, &[e], &IkOptions::default()).expect("solves");
        assert!(pose.rotation_offsets.iter().all(|q| q.is_finite()), "{target}");
        let tip = position_of(&h, &pose, &e);
        assert!(tip.is_finite(), "{target}");
        if reachable {
            assert!(tip.distance(target) < 1e-4, "{target}: {tip} {report:?}");
        }
    }
}

#[test]
fn bad_effectors_are_errors() {
    let h = three_links(["", "", ""]);
    let mut pose = Pose::rest(&h);
    let mut e = effector(&h, "tip", "l_elbow", Vec3::ONE);
    e.root = joint(&h, "l_wrist");
    e.joint = joint(&h, "l_elbow");
    let message = solve(&h, &mut pose, &[e], &IkOptions::default()).unwrap_err().to_string();
    assert!(message.contains("'l_wrist' is not 'l_elbow' or one of its ancestors"), "{message}");
    e.root = 99;
    assert!(solve(&h, &mut pose, &[e], &IkOptions::default()).unwrap_err().to_string().contains("outside"));
    let e = effector(&h, "tip", "l_shoulder", Vec3::new(f32::NAN, 0.0, 0.0));
    assert!(solve(&h, &mut pose, &[e], &IkOptions::default()).unwrap_err().to_string().contains("not a finite"));
    let missing = find_effector(&h, "l_wirst").unwrap_err().to_string();
    assert!(missing.contains("close names") && missing.contains("l_wrist"), "{missing}");
    assert_eq!(pose, Pose::rest(&h), "a refused solve changes nothing");
}

/// On the corpus figures: both hands reach points in front of the chest, their chains running to the
/// skeleton's root (the spine and pelvis turn too), while both ankles stay pinned where they were;
/// every effector ends within 1 mm. Prints accuracy and time per solve.
#[test]
fn corpus_hands_reach_in_front_of_the_chest_with_feet_pinned() {
    for file in ["x3d/JinLOA4.x3d", "x3d/JohnJoint20.x3d", "x3d/HAnim2SpecificationLOA3Illustrated.x3d"] {
        let path = common::corpus(file);
        let doc = load(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        let h = &doc.humanoids[0];
        let rest = Pose::rest(h);
        let globals = humanoid_from_joint(h, &rest);
        let centre = |name: &str| {
            let p = find_effector(h, name).unwrap_or_else(|e| panic!("{file}: {e}"));
            globals[p.joint].transform_point3(p.point)
        };
        let (l_shoulder, r_shoulder) = (centre("l_shoulder"), centre("r_shoulder"));
        let height = centre("skullbase").y - centre("l_ankle").y;
        let chest = (l_shoulder + r_shoulder) / 2.0 - Vec3::Y * 0.08 * height;
        // The figures face +Z (H-Anim): a hand's width apart, a fifth of the height in front.
        let targets = [
            ("l_wrist", chest + Vec3::new(0.05 * height, 0.0, 0.2 * height)),
            ("r_wrist", chest + Vec3::new(-0.05 * height, 0.0, 0.2 * height)),
            ("l_ankle", centre("l_ankle")),
            ("r_ankle", centre("r_ankle")),
        ];
        let effectors: Vec<Effector> = targets
            .iter()
            .map(|(name, target)| {
                let p = find_effector(h, name).expect("effector");
                Effector {
                    joint: p.joint,
                    point: p.point,
                    root: default_chain_root(h, p.joint, true),
                    target: *target,
                    orientation: None,
                }
            })
            .collect();
        let mut pose = rest.clone();
        let start = Instant::now();
        let report = solve(h, &mut pose, &effectors, &IkOptions::default()).expect("solves");
        let elapsed = start.elapsed();
        let worst = report.distances.iter().copied().fold(0.0, f32::max);
        println!(
            "{file}: {} joints, 4 effectors, worst distance {worst:.2e} (humanoid units) after {} steps in {:.3} ms",
            h.joints.len(),
            report.iterations,
            elapsed.as_secs_f64() * 1e3
        );
        assert!(worst < 1e-3, "{file}: {report:?}");
        // Only chain joints moved.
        let chains: Vec<usize> = effectors.iter().flat_map(|e| chain_joints(h, e.joint, e.root).unwrap()).collect();
        for (j, offset) in pose.rotation_offsets.iter().enumerate() {
            if !chains.contains(&j) {
                assert_eq!(*offset, Quat::IDENTITY, "{file}: {} moved", h.joints[j].name);
            }
        }
        // The hands moved by more than a tenth of the height, so the solve did real work.
        assert!(position_of(h, &rest, &effectors[0]).distance(targets[0].1) > 0.1 * height, "{file}");
    }
}

/// The default chains: hand → shoulder, foot → hip, head → the joint below the root (lower spine);
/// with `to_root`, the skeleton's root.
#[test]
fn default_chains_on_jin_loa4() {
    let doc = load(&common::corpus("x3d/JinLOA4.x3d")).expect("JinLOA4 loads");
    let h = &doc.humanoids[0];
    let name = |j: usize| hanim_viewer::names::without_prefix(&h.joints[j].name, &h.name).to_string();
    let root_for = |effector: &str, to_root: bool| {
        let p = find_effector(h, effector).expect("effector");
        name(default_chain_root(h, p.joint, to_root))
    };
    assert_eq!(root_for("l_wrist", false), "l_shoulder");
    assert_eq!(root_for("r_carpal_distal_interphalangeal_3", false), "r_shoulder");
    assert_eq!(root_for("l_talocrural", false), "l_hip");
    assert_eq!(root_for("skullbase", false), "vl5");
    assert_eq!(root_for("l_wrist", true), "humanoid_root");
}

/// The window marks joints whose limited angles sit on a bound: `pose::limits::axes_at_limit` lists a
/// knee bent to its `ulimit` (or past it, limits ignored), and nothing for the knee inside its interval.
#[test]
fn a_knee_on_its_bound_is_listed_at_its_limit() {
    let doc = load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/portability/knee_limits.x3d")).unwrap();
    let h = &doc.humanoids[0];
    let knee = joint(h, "l_knee");
    let mut pose = Pose::rest(h);
    let bend = |pose: &mut Pose, radians: f32| pose.rotation_offsets[knee] = Quat::from_rotation_x(radians);
    for (radians, expected) in
        [(1.0, vec![]), (2.4, vec![(knee, 0)]), (2.6, vec![(knee, 0)]), (-0.1, vec![(knee, 0)]), (0.5, vec![])]
    {
        bend(&mut pose, radians);
        assert_eq!(hanim_viewer::pose::limits::axes_at_limit(h, &pose), expected, "knee at {radians} rad");
    }
}

/// The angle between two rotations, precise for small angles: `Quat::angle_between` takes the acos of
/// a dot product, which in f32 cannot tell rotations closer than about 1e-3 rad apart from each other
/// (a dot product rounded 3e-7 below 1 already reads as 1.5e-3 rad).
fn angle_apart(a: Quat, b: Quat) -> f32 {
    let d = (a * b.inverse()).normalize();
    2.0 * d.xyz().length().atan2(d.w.abs())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Position and orientation together: a pose of the three-link arm chosen at random (three free axes
    /// per joint) is found again from rest by its tip's position and the wrist frame's orientation,
    /// within 1e-4 and 1e-3 rad.
    #[test]
    fn a_reachable_position_and_orientation_are_both_reached(
        shoulder in prop::array::uniform3(-1.0f32..1.0),
        elbow in prop::array::uniform3(-1.0f32..1.0),
        wrist in prop::array::uniform3(-1.0f32..1.0),
    ) {
        let h = three_links(["", "", ""]);
        let mut goal = Pose::rest(&h);
        for (name, a) in [("l_shoulder", shoulder), ("l_elbow", elbow), ("l_wrist", wrist)] {
            goal.rotation_offsets[joint(&h, name)] = Quat::from_euler(glam::EulerRot::XYZ, a[0], a[1], a[2]);
        }
        let tip = find_effector(&h, "tip").unwrap();
        let globals = humanoid_from_joint(&h, &goal);
        let target = globals[tip.joint].transform_point3(tip.point);
        let (_, orientation, _) = globals[tip.joint].to_scale_rotation_translation();
        let e = Effector { orientation: Some(orientation), ..effector(&h, "tip", "l_shoulder", target) };
        let mut pose = Pose::rest(&h);
        let report = solve(&h, &mut pose, &[e], &IkOptions::default()).expect("solves");
        let reached = humanoid_from_joint(&h, &pose)[tip.joint];
        let (_, turned, _) = reached.to_scale_rotation_translation();
        prop_assert!(reached.transform_point3(tip.point).distance(target) < 1e-4, "{report:?}");
        let apart = angle_apart(turned, orientation);
        prop_assert!(apart < 1e-3, "{apart} rad apart: {report:?}");
        prop_assert!(report.angle_errors[0].is_some_and(|a| a < 1e-3), "{report:?}");
    }
}

/// On a corpus figure: JinLOA4's left hand reaches a point in front of the chest with its palm turned
/// down (the wrist frame's rest orientation turned 90° about the figure's forward axis), its chain from
/// the shoulder; both within tolerance, and the orientation target changes the solve (without it the
/// hand keeps whatever turn the position solve leaves).
#[test]
fn jin_reaches_with_the_hand_turned() {
    let doc = load(&common::corpus("x3d/JinLOA4.x3d")).expect("JinLOA4 loads");
    let h = &doc.humanoids[0];
    let rest = Pose::rest(h);
    let wrist = find_effector(h, "l_wrist").unwrap();
    let globals = humanoid_from_joint(h, &rest);
    let start = globals[wrist.joint].transform_point3(wrist.point);
    let target = start + Vec3::new(-0.1, 0.25, 0.25);
    let (_, rest_turn, _) = globals[wrist.joint].to_scale_rotation_translation();
    let orientation = Quat::from_rotation_z(FRAC_PI_2) * rest_turn;
    let root = default_chain_root(h, wrist.joint, false);
    let base = Effector { joint: wrist.joint, point: wrist.point, root, target, orientation: None };
    let mut free = rest.clone();
    solve(h, &mut free, &[base], &IkOptions::default()).expect("solves");
    let mut turned = rest.clone();
    let report = solve(h, &mut turned, &[Effector { orientation: Some(orientation), ..base }], &IkOptions::default())
        .expect("solves");
    let g = humanoid_from_joint(h, &turned)[wrist.joint];
    let (_, got, _) = g.to_scale_rotation_translation();
    assert!(g.transform_point3(wrist.point).distance(target) < 1e-3, "{report:?}");
    assert!(got.angle_between(orientation) < 0.01, "{report:?}");
    let (_, free_turn, _) = humanoid_from_joint(h, &free)[wrist.joint].to_scale_rotation_translation();
    assert!(free_turn.angle_between(orientation) > 0.3, "the position alone does not turn the hand so");
}
