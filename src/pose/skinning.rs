//! The per-vertex half of the CPU reference: skin points and normals, joint displacers, segment
//! displacers. The formula and its conventions are in the [module documentation](super).

use glam::{Mat3, Vec3};

use super::{Pose, SkinMatrices, humanoid_from_joint, skin_matrices};
use crate::hanim::{DisplacerOwner, Humanoid, Influences};

/// Variants of the skinning formula, for diagnosis.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SkinOptions {
    /// Divide each vertex's weights by their sum (FreeWRL's CPU path) instead of the residual form.
    /// Vertices whose weights sum to zero are left in the residual form.
    pub normalize_weights: bool,
}

/// The deformed skin in humanoid space, indexed like the binding points and normals.
#[derive(Debug, Clone, PartialEq)]
pub struct DeformedSkin {
    pub points: Vec<Vec3>,
    /// Unit length, or zero where the normal cancelled out; empty when the skin has no normals.
    pub normals: Vec<Vec3>,
}

/// The skin deformed by `pose` with the standard (residual) formula; `None` when the humanoid has no skin.
pub fn deform_skin(h: &Humanoid, pose: &Pose) -> Option<DeformedSkin> {
    deform_skin_with(h, pose, &SkinOptions::default())
}

/// [`deform_skin`] with a choice of formula variant.
pub fn deform_skin_with(h: &Humanoid, pose: &Pose, options: &SkinOptions) -> Option<DeformedSkin> {
    let skin = h.skin.as_ref()?;
    let matrices = skin_matrices(h, &humanoid_from_joint(h, pose));

    let mut points: Vec<Vec3> = skin
        .points
        .iter()
        .enumerate()
        .map(|(i, &p)| skin_point(p, influences_of(&skin.influences, i), &matrices, options))
        .collect();
    add_joint_displacements(h, pose, &matrices, &mut points);

    // Normals are indexed like the points (skinNormal is per point); a normal beyond the point range has
    // no influence list and is only normalised.
    let normals = skin
        .normals
        .iter()
        .enumerate()
        .map(|(i, &n)| skin_normal(n, influences_of(&skin.influences, i), &matrices, options))
        .collect();

    Some(DeformedSkin { points, normals })
}

/// `p + Σ w·(M_j·p − p)` over `influences` in order; an influence naming a joint without a matrix is skipped.
pub fn skin_point(p: Vec3, influences: &[(u32, f32)], matrices: &SkinMatrices, options: &SkinOptions) -> Vec3 {
    let divisor = weight_divisor(influences, options);
    let mut skinned = p;
    for &(joint, weight) in influences {
        let Some(m) = matrices.skin.get(joint as usize) else { continue };
        skinned += (m.transform_point3(p) - p) * (weight / divisor);
    }
    skinned
}

/// `normalize(n + Σ w·(N_j·n − n))` over `influences` in order; zero rather than NaN when it cancels out.
/// Per-corner normals use the influences of the corner's point (§2.5).
pub fn skin_normal(n: Vec3, influences: &[(u32, f32)], matrices: &SkinMatrices, options: &SkinOptions) -> Vec3 {
    let divisor = weight_divisor(influences, options);
    let mut skinned = n;
    for &(joint, weight) in influences {
        let Some(normal_matrix) = matrices.normal.get(joint as usize) else { continue };
        skinned += (*normal_matrix * n - n) * (weight / divisor);
    }
    skinned.normalize_or_zero()
}

/// What each weight is divided by: 1 for the residual form (dividing by 1 is exact, so both variants
/// share one loop), the weight sum for the normalising variant when that sum can be divided by.
fn weight_divisor(influences: &[(u32, f32)], options: &SkinOptions) -> f32 {
    if !options.normalize_weights {
        return 1.0;
    }
    let total: f32 = influences.iter().map(|&(_, weight)| weight).sum();
    if total != 0.0 && total.is_finite() { total } else { 1.0 }
}

/// The influence list of a point, empty for a point the lists do not cover (or malformed offsets), so a
/// model whose lists are shorter than its points cannot make the reference panic.
fn influences_of(influences: &Influences, point: usize) -> &[(u32, f32)] {
    let (Some(&start), Some(&end)) = (influences.offsets.get(point), influences.offsets.get(point + 1)) else {
        return &[];
    };
    influences.entries.get(start as usize..end as usize).unwrap_or(&[])
}

/// Adds `weight_d·A_owner(d)·δ_d,i` for every joint displacer, in [`Humanoid::displacers`] order (§3.1).
fn add_joint_displacements(h: &Humanoid, pose: &Pose, matrices: &SkinMatrices, points: &mut [Vec3]) {
    for (index, displacer) in h.displacers.iter().enumerate() {
        let DisplacerOwner::Joint(joint) = displacer.owner else { continue };
        let weight = pose.displacer_weight(h, index);
        // Skipping a zero weight changes no point: each term would be a zero vector.
        if weight == 0.0 {
            continue;
        }
        let Some(skin) = matrices.skin.get(joint) else { continue };
        let humanoid_from_displacement = Mat3::from_mat4(*skin);
        for (k, &coord_index) in displacer.coord_index.iter().enumerate() {
            let Some(point) = usize::try_from(coord_index).ok().and_then(|i| points.get_mut(i)) else { continue };
            let displacement = displacer.displacements.get(k).copied().unwrap_or(Vec3::ZERO);
            *point += (humanoid_from_displacement * displacement) * weight;
        }
    }
}

/// A segment's `coord` points with its displacers applied, in segment space and unrotated (§3.2):
/// `q' = q + Σ_d weight_d·δ_d`, displacers in [`Humanoid::displacers`] order. Empty for an unknown segment.
pub fn deform_segment(h: &Humanoid, segment: usize, pose: &Pose) -> Vec<Vec3> {
    let Some(seg) = h.segments.get(segment) else { return Vec::new() };
    let mut points = seg.coord_points.clone();
    for (index, displacer) in h.displacers.iter().enumerate() {
        if displacer.owner != DisplacerOwner::Segment(segment) {
            continue;
        }
        let weight = pose.displacer_weight(h, index);
        if weight == 0.0 {
            continue;
        }
        for (k, &coord_index) in displacer.coord_index.iter().enumerate() {
            let Some(point) = usize::try_from(coord_index).ok().and_then(|i| points.get_mut(i)) else { continue };
            let displacement = displacer.displacements.get(k).copied().unwrap_or(Vec3::ZERO);
            *point += displacement * weight;
        }
    }
    points
}

#[cfg(test)]
mod tests {
    use std::f32::consts::FRAC_PI_2;

    use glam::{Mat4, Quat};
    use proptest::prelude::*;

    use super::super::test_humanoid::HumanoidBuilder;
    use super::*;

    const EPS: f32 = 1e-6;

    fn assert_near(actual: Vec3, expected: Vec3) {
        assert!(actual.abs_diff_eq(expected, EPS), "{actual} != {expected}");
    }

    /// root (centre 0) ─ j1 (centre (0,1,0)) ─ j2 (centre (1,1,0)); point 0 = (1,1,0) on j1, point 1 =
    /// (2,1,0) on j2, point 2 = (0,0.5,0) on the root, point 3 = (5,5,5) on nothing.
    fn chain() -> Humanoid {
        HumanoidBuilder::new()
            .joint("humanoid_root", None, Vec3::ZERO)
            .joint("j1", Some(0), Vec3::new(0.0, 1.0, 0.0))
            .joint("j2", Some(1), Vec3::new(1.0, 1.0, 0.0))
            .points(&[Vec3::new(1.0, 1.0, 0.0), Vec3::new(2.0, 1.0, 0.0), Vec3::new(0.0, 0.5, 0.0), Vec3::splat(5.0)])
            .normals(&[Vec3::X, Vec3::X, Vec3::Y, Vec3::Z])
            .weight(1, 0, 1.0)
            .weight(2, 1, 1.0)
            .weight(0, 2, 1.0)
            .build()
    }

    fn deformed(h: &Humanoid, pose: &Pose) -> DeformedSkin {
        deform_skin(h, pose).expect("test humanoid has a skin")
    }

    #[test]
    fn zero_pose_reproduces_binding_points_exactly() {
        let h = chain();
        let skin = deformed(&h, &Pose::zero(&h));
        let binding = &h.skin.as_ref().expect("skin").points;
        assert_eq!(&skin.points, binding);
        assert_eq!(skin.normals, vec![Vec3::X, Vec3::X, Vec3::Y, Vec3::Z]);
    }

    #[test]
    fn one_joint_rotated_90_degrees_about_its_centre() {
        let h = chain();
        let mut pose = Pose::zero(&h);
        pose.rotations[1] = Quat::from_rotation_z(FRAC_PI_2);
        let skin = deformed(&h, &pose);
        // (1,1,0) − c = (1,0,0) → Rz(90°) → (0,1,0) → + c = (0,2,0).
        assert_near(skin.points[0], Vec3::new(0.0, 2.0, 0.0));
        // The root's vertex and the unweighted vertex do not move.
        assert_eq!(skin.points[2], Vec3::new(0.0, 0.5, 0.0));
        assert_eq!(skin.points[3], Vec3::splat(5.0));
        // Normals turn with the joint: +X → +Y.
        assert_near(skin.normals[0], Vec3::Y);
    }

    #[test]
    fn a_grandchild_vertex_rides_along() {
        let h = chain();
        let mut pose = Pose::zero(&h);
        pose.rotations[1] = Quat::from_rotation_z(FRAC_PI_2);
        // j2 itself unrotated: its vertex (2,1,0) turns about j1's centre: (2,0,0) → (0,2,0) → (0,3,0).
        assert_near(deformed(&h, &pose).points[1], Vec3::new(0.0, 3.0, 0.0));

        // j2 rotated 90° about Z too: about j2's centre first, (1,0,0) → (0,1,0) → (1,2,0) in j1's frame,
        // then j1: (1,1,0) → (−1,1,0) → (−1,2,0). 180° in all, one unit from j2's moved centre (0,2,0).
        pose.rotations[2] = Quat::from_rotation_z(FRAC_PI_2);
        let skin = deformed(&h, &pose);
        assert_near(skin.points[1], Vec3::new(-1.0, 2.0, 0.0));
        assert_near(skin.normals[1], Vec3::NEG_X);
    }

    #[test]
    fn a_rotation_offset_acts_like_a_base_rotation_on_an_unrotated_joint() {
        let h = chain();
        let mut pose = Pose::zero(&h);
        pose.rotation_offsets[1] = Quat::from_rotation_z(FRAC_PI_2);
        assert_near(deformed(&h, &pose).points[0], Vec3::new(0.0, 2.0, 0.0));
    }

    /// root; a (centre (0,1,0)) rotated 90° about Z; b (centre 0) rotated 90° about Y.
    /// Point 0 = (1,1,0) weighted a 0.25, b 0.75; point 1 = (1,1,0) weighted a 0.3 only.
    fn blend() -> (Humanoid, Pose) {
        let h = HumanoidBuilder::new()
            .joint("humanoid_root", None, Vec3::ZERO)
            .joint("a", Some(0), Vec3::new(0.0, 1.0, 0.0))
            .joint("b", Some(0), Vec3::ZERO)
            .points(&[Vec3::new(1.0, 1.0, 0.0), Vec3::new(1.0, 1.0, 0.0), Vec3::new(5.0, 5.0, 5.0)])
            .normals(&[Vec3::X, Vec3::X, Vec3::X])
            .weight(1, 0, 0.25)
            .weight(2, 0, 0.75)
            .weight(1, 1, 0.3)
            .build();
        let mut pose = Pose::zero(&h);
        pose.rotations[1] = Quat::from_rotation_z(FRAC_PI_2);
        pose.rotations[2] = Quat::from_rotation_y(FRAC_PI_2);
        (h, pose)
    }

    #[test]
    fn two_joints_blend_with_their_weights() {
        let (h, pose) = blend();
        let skin = deformed(&h, &pose);
        // M_a·p = (0,2,0), M_b·p = (0,1,−1):
        // p + 0.25·((0,2,0) − p) + 0.75·((0,1,−1) − p) = (1,1,0) + (−0.25,0.25,0) + (−0.75,0,−0.75).
        assert_near(skin.points[0], Vec3::new(0.0, 1.25, -0.75));
        // N_a·x = y, N_b·x = −z: x + 0.25·(y − x) + 0.75·(−z − x) = (0, 0.25, −0.75), normalised.
        assert_near(skin.normals[0], Vec3::new(0.0, 0.25, -0.75).normalize());
    }

    #[test]
    fn weights_below_one_keep_the_rest_at_the_binding_point() {
        let (h, pose) = blend();
        let skin = deformed(&h, &pose);
        // p + 0.3·((0,2,0) − (1,1,0)) = (0.7, 1.3, 0): 70 % of the vertex stays at rest.
        assert_near(skin.points[1], Vec3::new(0.7, 1.3, 0.0));
        // A vertex with no influence stays put, and so does its normal.
        assert_eq!(skin.points[2], Vec3::new(5.0, 5.0, 5.0));
        assert_eq!(skin.normals[2], Vec3::X);
    }

    #[test]
    fn normalising_weights_divides_by_their_sum() {
        let (h, pose) = blend();
        let options = SkinOptions { normalize_weights: true };
        let skin = deform_skin_with(&h, &pose, &options).expect("skin");
        // Weights summing to 1 are unchanged; 0.3 alone becomes 1, so the vertex moves rigidly with a.
        assert_near(skin.points[0], Vec3::new(0.0, 1.25, -0.75));
        assert_near(skin.points[1], Vec3::new(0.0, 2.0, 0.0));
        assert_near(skin.normals[1], Vec3::Y);
        assert_eq!(skin.points[2], Vec3::new(5.0, 5.0, 5.0));
    }

    #[test]
    fn joint_displacer_is_turned_by_its_joint_and_scaled_by_its_weight() {
        // j1 (centre (0,1,0)) rotated 90° about Z; point 0 = (1,1,0) on j1; displacer on j1 moves point 0
        // by (0.2,0,0) at weight 0.5, and lists point 7, which does not exist.
        let h = HumanoidBuilder::new()
            .joint("humanoid_root", None, Vec3::ZERO)
            .joint("j1", Some(0), Vec3::new(0.0, 1.0, 0.0))
            .points(&[Vec3::new(1.0, 1.0, 0.0), Vec3::new(0.0, 0.5, 0.0)])
            .normals(&[Vec3::X, Vec3::Y])
            .weight(1, 0, 1.0)
            .weight(0, 1, 1.0)
            .joint_displacer(1, &[0, 7], &[Vec3::new(0.2, 0.0, 0.0), Vec3::splat(9.0)], 0.5)
            .joint_displacer(0, &[1], &[Vec3::new(0.0, 0.0, 0.4)], 0.0)
            .build();
        let mut pose = Pose::rest(&h);
        pose.rotations[1] = Quat::from_rotation_z(FRAC_PI_2);
        let skin = deformed(&h, &pose);
        // Skinned (0,2,0) plus 0.5·Rz(90°)·(0.2,0,0) = (0,0.1,0): half the rotated displacement.
        assert_near(skin.points[0], Vec3::new(0.0, 2.1, 0.0));
        // Weight 0 leaves point 1 alone; displacers never change normals.
        assert_eq!(skin.points[1], Vec3::new(0.0, 0.5, 0.0));
        assert_near(skin.normals[0], Vec3::Y);

        // Weight 1 on the root's displacer: the root is unrotated, so the full displacement.
        pose.displacer_weights[1] = 1.0;
        assert_near(deformed(&h, &pose).points[1], Vec3::new(0.0, 0.5, 0.4));
    }

    #[test]
    fn joint_displacer_applies_the_binding_matrix_too() {
        // A = M[3×3] includes B: with B scaling by 2, the displacement doubles (X_ITE reading).
        let mut h = HumanoidBuilder::new()
            .joint("humanoid_root", None, Vec3::ZERO)
            .points(&[Vec3::ZERO])
            .joint_displacer(0, &[0], &[Vec3::X], 1.0)
            .build();
        h.binding = vec![Mat4::from_scale(Vec3::splat(2.0))];
        assert_near(deformed(&h, &Pose::rest(&h)).points[0], Vec3::new(2.0, 0.0, 0.0));
    }

    #[test]
    fn segment_displacer_acts_in_segment_space() {
        // Segment on j1 (rotated 90° about Z, which must not matter); displacer moves point 1 by
        // (0,0,0.5) and point 2 by (0.1,0,0) at weight 0.5.
        let h = HumanoidBuilder::new()
            .joint("humanoid_root", None, Vec3::ZERO)
            .joint("j1", Some(0), Vec3::new(0.0, 1.0, 0.0))
            .segment(1, &[Vec3::new(1.0, 1.0, 0.0), Vec3::new(2.0, 1.0, 0.0), Vec3::new(1.0, 2.0, 0.0)])
            .segment_displacer(0, &[1, 2], &[Vec3::new(0.0, 0.0, 0.5), Vec3::new(0.1, 0.0, 0.0)], 0.5)
            .build();
        let mut pose = Pose::rest(&h);
        pose.rotations[1] = Quat::from_rotation_z(FRAC_PI_2);
        let points = deform_segment(&h, 0, &pose);
        assert_near(points[0], Vec3::new(1.0, 1.0, 0.0));
        assert_near(points[1], Vec3::new(2.0, 1.0, 0.25));
        assert_near(points[2], Vec3::new(1.05, 2.0, 0.0));
        // The segment has no skin, and an unknown segment gives nothing.
        assert!(deform_skin(&h, &pose).is_none());
        assert!(deform_segment(&h, 5, &pose).is_empty());
        // Weight 0 (the zero pose) gives the segment's own points.
        assert_eq!(deform_segment(&h, 0, &Pose::zero(&h)), h.segments[0].coord_points);
    }

    #[test]
    fn non_uniform_scale_turns_normals_with_the_inverse_transpose() {
        // The plane x + y = 0 has normal (1,1,0)/√2 and contains (1,−1,0). Scaling x by 2 maps the
        // in-plane direction to (2,−1,0); the normal must stay perpendicular: M⁻ᵀ·n ∝ (0.5,1,0).
        let mut h = HumanoidBuilder::new()
            .joint("humanoid_root", None, Vec3::ZERO)
            .points(&[Vec3::ZERO])
            .normals(&[Vec3::new(1.0, 1.0, 0.0).normalize()])
            .weight(0, 0, 1.0)
            .build();
        h.joints[0].rest.scale = Vec3::new(2.0, 1.0, 1.0);
        let skin = deformed(&h, &Pose::rest(&h));
        let expected = Vec3::new(0.5, 1.0, 0.0).normalize();
        assert_near(skin.normals[0], expected);
        assert!(skin.normals[0].dot(Vec3::new(2.0, -1.0, 0.0)).abs() < EPS);
    }

    #[test]
    fn normals_that_cancel_become_zero_not_nan() {
        // Half the weight on a joint that mirrors x (through its binding matrix, so that N·x = −x exactly;
        // a 180° rotation leaves an f32 residue): n + 0.5·(−n − n) = 0.
        let mut h = HumanoidBuilder::new()
            .joint("humanoid_root", None, Vec3::ZERO)
            .points(&[Vec3::ZERO])
            .normals(&[Vec3::X])
            .weight(0, 0, 0.5)
            .build();
        h.binding = vec![Mat4::from_scale(Vec3::new(-1.0, 1.0, 1.0))];
        let skin = deformed(&h, &Pose::zero(&h));
        assert_eq!(skin.normals[0], Vec3::ZERO);
    }

    #[test]
    fn a_zero_scale_joint_keeps_everything_finite() {
        let mut h = HumanoidBuilder::new()
            .joint("humanoid_root", None, Vec3::ZERO)
            .points(&[Vec3::ONE])
            .normals(&[Vec3::Z])
            .weight(0, 0, 1.0)
            .build();
        h.joints[0].rest.scale = Vec3::new(1.0, 1.0, 0.0);
        let skin = deformed(&h, &Pose::rest(&h));
        assert_near(skin.points[0], Vec3::new(1.0, 1.0, 0.0));
        assert_near(skin.normals[0], Vec3::Z);
    }

    #[test]
    fn inconsistent_lists_are_skipped_not_panicked_on() {
        let mut h = chain();
        let skin = h.skin.as_mut().expect("skin");
        // An influence naming joint 9, and influence lists that stop before the last point.
        skin.influences.entries[0] = (9, 1.0);
        skin.influences.offsets.truncate(3);
        let mut pose = Pose::rest(&h);
        pose.rotations[0] = Quat::from_rotation_z(FRAC_PI_2);
        let deformed = deformed(&h, &pose);
        let binding = &h.skin.as_ref().expect("skin").points;
        // Point 0 lost its only real influence, points 2 and 3 have no list; point 1 still follows j2.
        assert_eq!([deformed.points[0], deformed.points[2], deformed.points[3]], [binding[0], binding[2], binding[3]]);
        assert_near(deformed.points[1], Vec3::new(-1.0, 2.0, 0.0));
    }

    // Random humanoids and poses. The strategies draw everything from bounded ranges, so the results
    // must stay finite; identity poses must change nothing.

    prop_compose! {
        fn vec3_in(range: f32)(x in -range..range, y in -range..range, z in -range..range) -> Vec3 {
            Vec3::new(x, y, z)
        }
    }

    prop_compose! {
        fn unit_quat()(axis in vec3_in(1.0), angle in -7.0f32..7.0) -> Quat {
            match axis.try_normalize() {
                Some(axis) => Quat::from_axis_angle(axis, angle),
                None => Quat::IDENTITY,
            }
        }
    }

    fn random_humanoid() -> impl Strategy<Value = Humanoid> {
        (1usize..8, 1usize..24).prop_flat_map(|(joint_count, point_count)| {
            (
                proptest::collection::vec((0usize..joint_count, vec3_in(2.0)), joint_count),
                proptest::collection::vec((vec3_in(2.0), vec3_in(1.0)), point_count),
                proptest::collection::vec((0..joint_count, 0..point_count, 0.0f32..1.0), 0..48),
                proptest::collection::vec((0..joint_count, 0..point_count + 2, vec3_in(0.5)), 0..6),
            )
                .prop_map(move |(joints, points, weights, displacers)| {
                    let mut builder = HumanoidBuilder::new();
                    for (index, (parent, center)) in joints.into_iter().enumerate() {
                        // Parent before child: any earlier joint may be the parent.
                        let parent = (index > 0).then_some(parent % index.max(1));
                        builder = builder.joint(&format!("j{index}"), parent, center);
                    }
                    let (positions, normals): (Vec<Vec3>, Vec<Vec3>) = points.into_iter().unzip();
                    builder = builder.points(&positions).normals(&normals);
                    for (joint, point, weight) in weights {
                        builder = builder.weight(joint, point, weight);
                    }
                    for (joint, point, displacement) in displacers {
                        builder = builder.joint_displacer(joint, &[point as i32], &[displacement], 0.0);
                    }
                    builder.build()
                })
        })
    }

    fn random_pose(h: &Humanoid) -> impl Strategy<Value = Pose> + use<> {
        let joint_count = h.joints.len();
        let displacer_count = h.displacers.len();
        (
            proptest::collection::vec(unit_quat(), joint_count),
            proptest::collection::vec(vec3_in(3.0), joint_count),
            proptest::collection::vec(unit_quat(), joint_count),
            proptest::collection::vec(vec3_in(1.0), joint_count),
            proptest::collection::vec(-2.0f32..2.0, displacer_count),
        )
            .prop_map(|(rotations, translations, rotation_offsets, translation_offsets, displacer_weights)| {
                Pose {
                    rotations,
                    translations,
                    rotation_offsets,
                    translation_offsets,
                    displacer_weights,
                    humanoid: Default::default(),
                }
            })
    }

    fn humanoid_and_pose() -> impl Strategy<Value = (Humanoid, Pose)> {
        random_humanoid().prop_flat_map(|h| {
            let pose = random_pose(&h);
            (Just(h), pose)
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, rng_seed: proptest::test_runner::RngSeed::Fixed(0x4a4e_494d), ..ProptestConfig::default() })]

        #[test]
        fn random_poses_stay_finite((h, pose) in humanoid_and_pose()) {
            let skin = deformed(&h, &pose);
            prop_assert!(skin.points.iter().all(|p| p.is_finite()));
            for n in &skin.normals {
                prop_assert!(n.is_finite());
                prop_assert!(*n == Vec3::ZERO || (n.length() - 1.0).abs() < 1e-5, "{}", n);
            }
            prop_assert!(skin_matrices(&h, &humanoid_from_joint(&h, &pose)).normal.iter().all(|n| n.is_finite()));
        }

        #[test]
        fn identity_poses_change_nothing(h in random_humanoid()) {
            let skin = deformed(&h, &Pose::zero(&h));
            let binding = h.skin.as_ref().expect("skin");
            prop_assert_eq!(&skin.points, &binding.points);
            for (n, binding_n) in skin.normals.iter().zip(&binding.normals) {
                prop_assert!(n.abs_diff_eq(binding_n.normalize_or_zero(), 1e-6));
            }
        }

        #[test]
        fn a_fully_weighted_vertex_moves_rigidly((h, pose) in humanoid_and_pose()) {
            let matrices = skin_matrices(&h, &humanoid_from_joint(&h, &pose));
            let p = Vec3::new(0.3, -0.7, 1.1);
            for joint in 0..h.joints.len() {
                let moved = skin_point(p, &[(joint as u32, 1.0)], &matrices, &SkinOptions::default());
                let rigid = matrices.skin[joint].transform_point3(p);
                prop_assert!(moved.abs_diff_eq(rigid, 1e-4 * (1.0 + rigid.length())), "{} != {}", moved, rigid);
            }
        }

        #[test]
        fn normalising_changes_nothing_when_weights_sum_to_one((h, pose) in humanoid_and_pose(), split in 0.0f32..1.0) {
            let matrices = skin_matrices(&h, &humanoid_from_joint(&h, &pose));
            let last = h.joints.len() as u32 - 1;
            let influences = [(0, split), (last, 1.0 - split)];
            let p = Vec3::new(-0.4, 1.2, 0.5);
            let normalised = SkinOptions { normalize_weights: true };
            let plain = skin_point(p, &influences, &matrices, &SkinOptions::default());
            prop_assert!(skin_point(p, &influences, &matrices, &normalised).abs_diff_eq(plain, 1e-4));
        }
    }
}
