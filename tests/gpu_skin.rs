//! The GPU skin/morph pass agrees with the CPU reference (the oracle) on real humanoids and on the
//! hand-written fixtures: points within 1e-5 of the skin's bounding-box diagonal, unit normals within
//! 1e-5, segment coords within 1e-5 of the segment's diagonal. Runs on lavapipe in CI.

mod common;

test_main!(
    skinned_corpus_humanoids_agree_with_the_cpu_reference,
    hand_written_fixtures_agree_with_the_cpu_reference,
    the_gpu_really_moves_points,
    segment_displacers_really_move_segment_coords,
    a_pose_that_did_not_change_is_not_skinned_again
);

use hanim_viewer::gpu::agreement;
use hanim_viewer::hanim;

/// f32 math on both sides; the GPU may fuse multiply-adds, so results differ in the last bits only.
const TOLERANCE: f32 = 1e-5;

fn check_file(ctx: &hanim_viewer::gpu::GpuContext, path: &std::path::Path, poses: usize) -> agreement::Agreement {
    let doc = hanim::load(path).unwrap_or_else(|e| panic!("{e}"));
    let h = &doc.humanoids[0];
    let a = agreement::measure(ctx, h, poses, 0x5EED).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    eprintln!("{}: {a:?}", path.display());
    assert_eq!(a.poses, poses + 1);
    assert!(a.max_point_error <= TOLERANCE, "{}: point error {}", path.display(), a.max_point_error);
    assert!(a.max_normal_error <= TOLERANCE, "{}: normal error {}", path.display(), a.max_normal_error);
    assert!(a.max_segment_error <= TOLERANCE, "{}: segment error {}", path.display(), a.max_segment_error);
    a
}

fn skinned_corpus_humanoids_agree_with_the_cpu_reference() {
    let ctx = common::gpu();
    for name in [
        "x3d/JoeKick.x3d",
        "x3d/JoeSkinTexcoordDisplacerKick.x3d",
        "x3d/JoeSkeletonSkinSiteSaluteWalk.x3d",
        "x3d/BvhSeamless3dExport1.x3d",
        "x3d/JohnJoint20.x3d",
    ] {
        check_file(&ctx, &common::corpus(name), 6);
    }
}

fn hand_written_fixtures_agree_with_the_cpu_reference() {
    let ctx = common::gpu();
    for name in ["cpu_one_joint_90.x3d", "cpu_blend.x3d", "cpu_displacer.x3d", "cpu_segment_displacer.x3d"] {
        check_file(&ctx, &common::test_data(name), 4);
    }
}

fn the_gpu_really_moves_points() {
    // Guards against a pass that never runs: a bent pose must move the read-back points away from rest.
    let ctx = common::gpu();
    let doc = hanim::load(&common::corpus("x3d/JoeKick.x3d")).unwrap();
    let h = &doc.humanoids[0];
    let source: Vec<u32> = (0..390).collect();
    let normals = vec![glam::Vec3::Y; 390];
    let gpu = hanim_viewer::gpu::GpuSkin::new(
        &ctx,
        h,
        hanim_viewer::gpu::SkinCorners { source_point: &source, normals: &normals },
    )
    .unwrap();
    let mut pose = hanim_viewer::pose::Pose::rest(h);
    let shoulder = h.joint_index("l_shoulder").unwrap();
    pose.rotation_offsets[shoulder] = glam::Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    gpu.deform(&ctx, h, &pose);
    let bent = gpu.read_points(&ctx).unwrap();
    let rest = &h.skin.as_ref().unwrap().points;
    let moved = bent.iter().zip(rest).filter(|(a, b)| (**a - **b).length() > 0.05).count();
    assert!(moved > 10, "only {moved} points moved");
    // Only points on the figure's left (+x) side move.
    assert!(bent.iter().zip(rest).all(|(a, b)| (*a - *b).length() < 1e-6 || b.x > 0.0));
}

fn segment_displacers_really_move_segment_coords() {
    let ctx = common::gpu();
    let doc = hanim::load(&common::test_data("cpu_segment_displacer.x3d")).unwrap();
    let h = &doc.humanoids[0];
    let segment = h.segments.iter().position(|s| !s.coord_points.is_empty()).expect("a segment with coords");
    let gpu =
        hanim_viewer::gpu::GpuSkin::new(&ctx, h, hanim_viewer::gpu::SkinCorners { source_point: &[], normals: &[] })
            .unwrap();
    let mut pose = hanim_viewer::pose::Pose::zero(h);
    pose.displacer_weights.iter_mut().for_each(|w| *w = 1.0);
    gpu.deform(&ctx, h, &pose);
    let got = gpu.read_segment_points(&ctx, segment).unwrap();
    let expected = hanim_viewer::pose::deform_segment(h, segment, &pose);
    assert_eq!(got.len(), expected.len());
    assert!(got.iter().zip(&h.segments[segment].coord_points).any(|(a, b)| (*a - *b).length() > 1e-3), "nothing moved");
    for (a, b) in got.iter().zip(&expected) {
        assert!((*a - *b).length() < 1e-6, "{a} vs {b}");
    }
}

/// The window skins only what changed: writing the pose it already holds asks for no dispatch, a new pose
/// does, and the points read back after the frame's `encode` are that new pose's (CPU reference).
fn a_pose_that_did_not_change_is_not_skinned_again() {
    let ctx = common::gpu();
    let doc = hanim::load(&common::corpus("x3d/JoeKick.x3d")).unwrap();
    let h = &doc.humanoids[0];
    let skin = h.skin.as_ref().unwrap();
    let source: Vec<u32> = (0..skin.points.len() as u32).collect();
    let normals = vec![glam::Vec3::Y; skin.points.len()];
    let gpu = hanim_viewer::gpu::GpuSkin::new(
        &ctx,
        h,
        hanim_viewer::gpu::SkinCorners { source_point: &source, normals: &normals },
    )
    .unwrap();
    let frame = |gpu: &hanim_viewer::gpu::GpuSkin| {
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        gpu.encode(&mut encoder);
        ctx.queue.submit([encoder.finish()]);
    };
    assert!(gpu.needs_dispatch(), "a new skin has never been skinned");
    let rest = hanim_viewer::pose::Pose::rest(h);
    gpu.update(&ctx.queue, h, &rest);
    frame(&gpu);
    assert!(!gpu.needs_dispatch());
    gpu.update(&ctx.queue, h, &rest);
    assert!(!gpu.needs_dispatch(), "the same pose again is nothing new");
    let mut bent = rest.clone();
    bent.rotation_offsets[h.joint_index("r_knee").unwrap()] = glam::Quat::from_rotation_x(1.2);
    gpu.update(&ctx.queue, h, &bent);
    assert!(gpu.needs_dispatch(), "a bent knee must be skinned");
    frame(&gpu);
    assert!(!gpu.needs_dispatch());
    let got = gpu.read_points(&ctx).unwrap();
    let expected = hanim_viewer::pose::deform_skin(h, &bent).unwrap().points;
    let moved = got.iter().zip(&skin.points).filter(|(a, b)| (**a - **b).length() > 0.01).count();
    assert!(moved > 10, "only {moved} points moved");
    for (a, b) in got.iter().zip(&expected) {
        assert!((*a - *b).length() < 1e-4, "{a} vs {b}");
    }
}
