//! The CPU reference deformation on hand-written fixtures (`tests/data/cpu_*.x3d`), loaded through the
//! real loader. Every expected value is worked out by hand, here and in the fixture's comments.

use std::f32::consts::FRAC_PI_2;
use std::path::{Path, PathBuf};

use glam::{Quat, Vec3};
use hanim_viewer::hanim::{self, Humanoid};
use hanim_viewer::pose::{
    DeformedSkin, Pose, SkinOptions, deform_segment, deform_skin, deform_skin_with, humanoid_from_joint, skin_matrices,
    world_from_joint,
};
use proptest::prelude::*;

/// Hand-computed values carry the f32 error of `cos(π/2)` and a few products.
const EPS: f32 = 1e-6;

const FIXTURES: [&str; 4] = ["cpu_one_joint_90.x3d", "cpu_blend.x3d", "cpu_displacer.x3d", "cpu_segment_displacer.x3d"];

fn fixture_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

fn load_humanoid(name: &str) -> Humanoid {
    let path = fixture_path(name);
    let document = hanim::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(document.humanoids.len(), 1, "{name}: expected one humanoid");
    document.humanoids.into_iter().next().expect("one humanoid")
}

fn joint(h: &Humanoid, name: &str) -> usize {
    h.joint_index(name).unwrap_or_else(|| panic!("no joint '{name}' in {}", h.name))
}

fn displacer(h: &Humanoid, name: &str) -> usize {
    h.displacers.iter().position(|d| d.name == name).unwrap_or_else(|| panic!("no displacer '{name}'"))
}

fn skin_of(h: &Humanoid, pose: &Pose) -> DeformedSkin {
    deform_skin(h, pose).unwrap_or_else(|| panic!("{} has no skin", h.name))
}

fn assert_near(actual: Vec3, expected: Vec3, what: &str) {
    assert!(actual.abs_diff_eq(expected, EPS), "{what}: {actual} != {expected}");
}

#[test]
fn one_joint_90_rest_pose_moves_the_joint_and_its_child() {
    let h = load_humanoid("cpu_one_joint_90.x3d");
    let skin = skin_of(&h, &Pose::rest(&h));
    assert_near(skin.points[0], Vec3::new(0.0, 2.0, 0.0), "p0 on l_shoulder");
    assert_near(skin.points[1], Vec3::new(0.0, 3.0, 0.0), "p1 on l_elbow, riding along");
    assert_eq!(skin.points[2], Vec3::new(0.0, 0.5, 0.0), "p2 on the unrotated root");
    assert_eq!(skin.points[3], Vec3::new(5.0, 5.0, 5.0), "p3 without influence");
    assert_near(skin.normals[0], Vec3::Y, "n0");
    assert_near(skin.normals[1], Vec3::Y, "n1");
    assert_near(skin.normals[2], Vec3::Y, "n2");
    assert_near(skin.normals[3], Vec3::Z, "n3");
}

#[test]
fn one_joint_90_zero_pose_reproduces_binding_exactly() {
    let h = load_humanoid("cpu_one_joint_90.x3d");
    let skin = skin_of(&h, &Pose::zero(&h));
    let binding = h.skin.as_ref().expect("skin");
    assert_eq!(skin.points, binding.points);
    assert_eq!(skin.normals, binding.normals);
    assert_eq!(binding.points[0], Vec3::new(1.0, 1.0, 0.0));
}

#[test]
fn one_joint_90_grandchild_offset_turns_about_its_own_centre() {
    let h = load_humanoid("cpu_one_joint_90.x3d");
    let mut pose = Pose::rest(&h);
    pose.rotation_offsets[joint(&h, "l_elbow")] = Quat::from_rotation_z(FRAC_PI_2);
    let skin = skin_of(&h, &pose);
    assert_near(skin.points[1], Vec3::new(-1.0, 2.0, 0.0), "p1");
    assert_near(skin.normals[1], Vec3::NEG_X, "n1");
    // The elbow's offset does not reach the shoulder's vertex.
    assert_near(skin.points[0], Vec3::new(0.0, 2.0, 0.0), "p0");
}

#[test]
fn blend_weights_mix_two_joints() {
    let h = load_humanoid("cpu_blend.x3d");
    let skin = skin_of(&h, &Pose::rest(&h));
    assert_near(skin.points[0], Vec3::new(0.0, 1.25, -0.75), "p0 = 0.25 l_shoulder + 0.75 r_shoulder");
    assert_near(skin.normals[0], Vec3::new(0.0, 0.316_227_77, -0.948_683_3), "n0");
}

#[test]
fn blend_partial_weight_keeps_the_rest_at_the_binding_point() {
    let h = load_humanoid("cpu_blend.x3d");
    let skin = skin_of(&h, &Pose::rest(&h));
    assert_near(skin.points[1], Vec3::new(0.7, 1.3, 0.0), "p1 with weight 0.3");
    assert_near(skin.normals[1], Vec3::new(0.919_145, 0.393_919_3, 0.0), "n1");
    assert_eq!(skin.points[2], Vec3::new(5.0, 5.0, 5.0), "p2 without influence");
    assert_eq!(skin.normals[2], Vec3::X, "n2 without influence");
}

#[test]
fn blend_normalised_weights_move_a_partial_vertex_rigidly() {
    let h = load_humanoid("cpu_blend.x3d");
    let skin = deform_skin_with(&h, &Pose::rest(&h), &SkinOptions { normalize_weights: true }).expect("skin");
    assert_near(skin.points[0], Vec3::new(0.0, 1.25, -0.75), "p0, weights already sum to 1");
    assert_near(skin.points[1], Vec3::new(0.0, 2.0, 0.0), "p1, 0.3 / 0.3 = 1");
}

#[test]
fn displacer_at_half_weight_adds_half_the_rotated_displacement() {
    let h = load_humanoid("cpu_displacer.x3d");
    let raise = displacer(&h, "l_shoulder_raise_action");
    let lift = displacer(&h, "humanoid_root_lift_feature");
    assert_eq!(h.displacers[raise].weight, 0.5);
    assert_eq!(h.displacers[lift].weight, 0.0, "HAnimDisplacer weight defaults to 0");

    let mut pose = Pose::rest(&h);
    let skin = skin_of(&h, &pose);
    assert_near(skin.points[0], Vec3::new(0.0, 2.1, 0.0), "p0 = (0,2,0) + 0.5·Rz(90°)(0.2,0,0)");
    assert_eq!(skin.points[1], Vec3::new(0.0, 0.5, 0.0), "p1, displacer at weight 0");

    pose.displacer_weights[raise] = 1.0;
    pose.displacer_weights[lift] = 1.0;
    let skin = skin_of(&h, &pose);
    assert_near(skin.points[0], Vec3::new(0.0, 2.2, 0.0), "p0 at weight 1");
    assert_near(skin.points[1], Vec3::new(0.0, 0.5, 0.4), "p1 at weight 1");
}

#[test]
fn displacer_zero_pose_reproduces_binding_exactly() {
    let h = load_humanoid("cpu_displacer.x3d");
    assert_eq!(skin_of(&h, &Pose::zero(&h)).points, h.skin.as_ref().expect("skin").points);
}

#[test]
fn segment_displacer_acts_in_segment_space() {
    let h = load_humanoid("cpu_segment_displacer.x3d");
    assert!(deform_skin(&h, &Pose::rest(&h)).is_none(), "the fixture has no skin");
    let segment = h.segments.iter().position(|s| s.name == "l_upperarm").expect("segment l_upperarm");
    let shoulder = joint(&h, "l_shoulder");
    assert_eq!(h.segments[segment].joint, Some(shoulder));

    let pose = Pose::rest(&h);
    let points = deform_segment(&h, segment, &pose);
    let expected = [Vec3::new(1.0, 1.0, 0.0), Vec3::new(2.0, 1.0, 0.25), Vec3::new(1.05, 2.0, 0.0)];
    assert_eq!(points.len(), 3);
    for (i, (actual, expected)) in points.iter().zip(expected).enumerate() {
        assert_near(*actual, expected, &format!("q{i}'"));
    }

    // The segment is drawn rigidly with H·G_shoulder.
    let world = world_from_joint(&h, &pose, &humanoid_from_joint(&h, &pose))[shoulder];
    let expected_world = [Vec3::new(0.0, 2.0, -1.0), Vec3::new(0.0, 3.0, -0.75), Vec3::new(-1.0, 2.05, -1.0)];
    for (i, (q, expected)) in points.iter().zip(expected_world).enumerate() {
        assert_near(world.transform_point3(*q), expected, &format!("world q{i}'"));
    }

    assert_eq!(deform_segment(&h, segment, &Pose::zero(&h)), h.segments[segment].coord_points);
}

// Seeded random poses over every fixture: results stay finite, identity poses change nothing.

fn random_pose(h: &Humanoid) -> impl Strategy<Value = Pose> + use<> {
    let joints = h.joints.len();
    let unit_quat = (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0, -7.0f32..7.0).prop_map(|(x, y, z, angle)| {
        Vec3::new(x, y, z).try_normalize().map_or(Quat::IDENTITY, |axis| Quat::from_axis_angle(axis, angle))
    });
    let vec3 = (-3.0f32..3.0, -3.0f32..3.0, -3.0f32..3.0).prop_map(|(x, y, z)| Vec3::new(x, y, z));
    (
        proptest::collection::vec(unit_quat.clone(), joints),
        proptest::collection::vec(vec3.clone(), joints),
        proptest::collection::vec(unit_quat, joints),
        proptest::collection::vec(vec3, joints),
        proptest::collection::vec(-2.0f32..2.0, h.displacers.len()),
    )
        .prop_map(|(rotations, translations, rotation_offsets, translation_offsets, displacer_weights)| Pose {
            rotations,
            translations,
            rotation_offsets,
            translation_offsets,
            displacer_weights,
            humanoid: Default::default(),
        })
}

fn fixture_and_pose() -> impl Strategy<Value = (Humanoid, Pose)> {
    (0..FIXTURES.len()).prop_flat_map(|index| {
        let h = load_humanoid(FIXTURES[index]);
        let pose = random_pose(&h);
        (Just(h), pose)
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 128,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x4350_5552),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_poses_keep_every_result_finite((h, pose) in fixture_and_pose()) {
        let matrices = skin_matrices(&h, &humanoid_from_joint(&h, &pose));
        prop_assert!(matrices.skin.iter().all(|m| m.is_finite()));
        prop_assert!(matrices.normal.iter().all(|n| n.is_finite()));
        if let Some(skin) = deform_skin(&h, &pose) {
            prop_assert!(skin.points.iter().all(|p| p.is_finite()));
            for n in &skin.normals {
                prop_assert!(*n == Vec3::ZERO || (n.length() - 1.0).abs() < 1e-5, "{}", n);
            }
        }
        for segment in 0..h.segments.len() {
            prop_assert!(deform_segment(&h, segment, &pose).iter().all(|q| q.is_finite()));
        }
    }
}

#[test]
fn identity_poses_change_nothing_in_any_fixture() {
    for name in FIXTURES {
        let h = load_humanoid(name);
        let zero = Pose::zero(&h);
        if let (Some(skin), Some(binding)) = (deform_skin(&h, &zero), h.skin.as_ref()) {
            assert_eq!(skin.points, binding.points, "{name}");
            let unit_normals: Vec<Vec3> = binding.normals.iter().map(|n| n.normalize_or_zero()).collect();
            assert_eq!(skin.normals, unit_normals, "{name}");
        }
        for (index, segment) in h.segments.iter().enumerate() {
            assert_eq!(deform_segment(&h, index, &zero), segment.coord_points, "{name}");
        }
        // Moving the file rotation from the base into the offset (identity base) changes nothing:
        // r_eff = I·r = r exactly.
        let rest = Pose::rest(&h);
        let mut as_offsets = Pose::zero(&h);
        as_offsets.rotation_offsets = rest.rotations.clone();
        as_offsets.translation_offsets = rest.translations.clone();
        as_offsets.displacer_weights = rest.displacer_weights.clone();
        assert_eq!(humanoid_from_joint(&h, &as_offsets), humanoid_from_joint(&h, &rest), "{name}");
        assert_eq!(deform_skin(&h, &as_offsets), deform_skin(&h, &rest), "{name}");
    }
}
