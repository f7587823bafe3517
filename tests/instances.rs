//! Crowds: copies of a humanoid skinned together (one dispatch per kernel over every copy) and drawn
//! instanced (one draw per opaque part for every copy).
//!
//! - Each copy's skinned points, normals and segment coords, read back from the one shared buffer,
//!   agree with the CPU reference at that copy's own pose (within 1e-5 of the bounding-box diagonal, as
//!   `tests/gpu_skin.rs` asks of a single humanoid).
//! - Copies drawn instanced give the same picture, pixel for pixel, as the same copies drawn one by one
//!   with their own draws and skin passes, on skinned, segmented, textured and transparent humanoids.
//!
//! `HANIM_KEEP_SHOTS=DIR` writes the instanced pictures there, to look at them.

mod common;

test_main!(
    every_instance_of_a_shared_skin_agrees_with_the_cpu_reference_at_its_own_pose,
    instances_are_really_apart_in_the_shared_buffers,
    copies_drawn_instanced_look_exactly_like_copies_drawn_one_by_one,
    instances_dispatched_as_a_grid_of_workgroup_rows_agree_with_the_cpu_reference,
    a_crowd_larger_than_a_storage_binding_is_split_into_batches
);

use glam::{Mat4, Quat, Vec3};
use hanim_viewer::gpu::agreement::{self, random_pose};
use hanim_viewer::gpu::scene_draw::SceneDraw;
use hanim_viewer::gpu::scene_renderer::SceneRenderer;
use hanim_viewer::gpu::{GpuContext, GpuSkin, SkinCorners};
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::pose::Pose;
use hanim_viewer::pose::bounds::Aabb;

const TOLERANCE: f32 = 1e-5;
const WIDTH: u32 = 480;
const HEIGHT: u32 = 240;

fn every_instance_of_a_shared_skin_agrees_with_the_cpu_reference_at_its_own_pose() {
    let ctx = common::gpu();
    let files = [
        common::corpus("x3d/JoeSkinTexcoordDisplacerKick.x3d"),
        common::corpus("x3d/BvhSeamless3dExport1.x3d"),
        common::corpus("x3d/JohnJoint20.x3d"),
        common::test_data("cpu_displacer.x3d"),
        common::test_data("cpu_segment_displacer.x3d"),
    ];
    for path in files {
        let doc = hanim::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let h = &doc.humanoids[0];
        let mut rng = agreement::PoseStream::new(0xC0FFEE);
        let mut poses = vec![Pose::rest(h)];
        poses.extend((0..6).map(|_| random_pose(h, &mut rng)));
        let a = agreement::measure_instances(&ctx, h, &poses, 7).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        eprintln!("{}: {a:?}", path.display());
        assert_eq!(a.poses, poses.len());
        assert!(a.max_point_error <= TOLERANCE, "{}: point error {}", path.display(), a.max_point_error);
        assert!(a.max_normal_error <= TOLERANCE, "{}: normal error {}", path.display(), a.max_normal_error);
        assert!(a.max_segment_error <= TOLERANCE, "{}: segment error {}", path.display(), a.max_segment_error);
    }
}

fn instances_are_really_apart_in_the_shared_buffers() {
    // Guards against a kernel that writes every instance at the first one's place: a bent copy beside a
    // copy at rest must read back bent, and the one at rest must not.
    let ctx = common::gpu();
    let doc = hanim::load(&common::corpus("x3d/JoeKick.x3d")).unwrap();
    let h = &doc.humanoids[0];
    let pipelines = std::sync::Arc::new(hanim_viewer::gpu::SkinPipelines::new(&ctx.device).unwrap());
    let gpu = GpuSkin::instanced(&ctx, pipelines, h, SkinCorners { source_point: &[], normals: &[] }, 3).unwrap();
    let mut bent = Pose::rest(h);
    bent.rotation_offsets[h.joint_index("l_shoulder").unwrap()] = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    let frames: Vec<_> = [Pose::rest(h), bent, Pose::rest(h)]
        .iter()
        .map(|p| hanim_viewer::gpu::skin_pass::FrameData::from_pose(h, p))
        .collect();
    gpu.write_frames(&ctx.queue, &frames);
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    gpu.encode(&mut encoder);
    ctx.queue.submit([encoder.finish()]);
    let rest = &h.skin.as_ref().unwrap().points;
    let moved = |k: u32| {
        let got = gpu.read_instance_points(&ctx, k).unwrap();
        got.iter().zip(rest).filter(|(a, b)| (**a - **b).length() > 0.05).count()
    };
    assert_eq!(moved(0), 0);
    assert!(moved(1) > 10, "the bent copy moved only {} points", moved(1));
    assert_eq!(moved(2), 0);
}

/// Poses and world offsets of `count` copies of `doc`'s humanoids, standing in a row.
struct Crowd {
    poses: Vec<Vec<Pose>>,
    offsets: Vec<Mat4>,
    bounds: Aabb,
}

fn crowd(doc: &Document, count: usize) -> Crowd {
    let rest: Vec<Pose> = doc.humanoids.iter().map(Pose::rest).collect();
    let figure = hanim_viewer::render::scene_bounds(doc, &rest).unwrap();
    let spacing = figure.size().x.max(figure.size().z) * 1.3;
    let mut rng = agreement::PoseStream::new(0xF1E1D);
    let mut out = Crowd { poses: Vec::new(), offsets: Vec::new(), bounds: Aabb::default() };
    for k in 0..count {
        // Copy 0 at rest, the others in gentle random poses (halved, so that limbs stay in the picture).
        let poses = doc
            .humanoids
            .iter()
            .map(|h| {
                let mut pose = random_pose(h, &mut rng);
                for q in &mut pose.rotation_offsets {
                    *q = Quat::IDENTITY.slerp(*q, if k == 0 { 0.0 } else { 0.3 });
                }
                pose.translation_offsets.iter_mut().for_each(|t| *t = Vec3::ZERO);
                pose
            })
            .collect();
        let offset = Mat4::from_translation(Vec3::new(k as f32 * spacing, 0.0, -(k as f32) * spacing * 0.3));
        out.bounds.add(offset.transform_point3(figure.min));
        out.bounds.add(offset.transform_point3(figure.max));
        out.poses.push(poses);
        out.offsets.push(offset);
    }
    out
}

/// Renders `scenes`, seen from in front of the crowd.
fn render(
    ctx: &GpuContext,
    renderer: &mut SceneRenderer,
    doc: &Document,
    scenes: &[SceneDraw],
    crowd: &Crowd,
) -> Vec<u8> {
    common::offscreen::render_scenes(ctx, renderer, doc, scenes, &crowd.bounds, (WIDTH, HEIGHT))
}

fn instanced_and_separate_pictures(ctx: &GpuContext, doc: &Document, count: usize) -> (Vec<u8>, Vec<u8>) {
    let formats = hanim_viewer::app::viewport::ViewportTarget::formats_for(&ctx.adapter_info);
    let mut renderer = SceneRenderer::new(ctx, formats).unwrap();
    let rest: Vec<Pose> = doc.humanoids.iter().map(Pose::rest).collect();
    let crowd = crowd(doc, count);
    let shapes: Vec<Option<Mat4>> = doc.other_shapes.iter().map(|&(_, world)| Some(world)).collect();

    let mut together = SceneDraw::instanced(ctx, renderer.mesh_pipelines(), doc, &rest, count as u32).unwrap();
    assert_eq!(together.instances(), count as u32);
    for (index, h) in doc.indexed_humanoids() {
        let poses: Vec<&Pose> = crowd.poses.iter().map(|p| &p[index.0]).collect();
        let placed: Vec<Mat4> =
            poses.iter().zip(&crowd.offsets).map(|(pose, offset)| *offset * pose.world_from_humanoid(h)).collect();
        together.update_humanoid_instances(&ctx.queue, index, h, &poses, &placed);
    }
    together.place_scene_shape_instances(&ctx.queue, &shapes, &crowd.offsets);
    let instanced = render(ctx, &mut renderer, doc, std::slice::from_ref(&together), &crowd);

    let mut apart = Vec::new();
    for (poses, offset) in crowd.poses.iter().zip(&crowd.offsets) {
        let mut scene = SceneDraw::new(ctx, renderer.mesh_pipelines(), doc, &rest).unwrap();
        for ((index, h), pose) in doc.indexed_humanoids().zip(poses) {
            scene.update_humanoid_placed(&ctx.queue, index, h, pose, *offset * pose.world_from_humanoid(h));
        }
        let placed: Vec<Option<Mat4>> = shapes.iter().map(|s| s.map(|w| *offset * w)).collect();
        scene.place_scene_shapes(&ctx.queue, &placed);
        apart.push(scene);
    }
    let separate = render(ctx, &mut renderer, doc, &apart, &crowd);
    let instanced_calls: u32 = together.draws().iter().map(|d| d.draw_calls()).sum();
    let separate_calls: u32 = apart.iter().flat_map(SceneDraw::draws).map(|d| d.draw_calls()).sum();
    eprintln!("draw calls: {instanced_calls} instanced, {separate_calls} one copy at a time");
    assert!(instanced_calls <= separate_calls);
    (instanced, separate)
}

fn copies_drawn_instanced_look_exactly_like_copies_drawn_one_by_one() {
    let ctx = common::gpu();
    // Skin and rigid shapes (twenty copies: their matrices and placements are computed on every core);
    // transparent parts (drawn instance by instance, sorted); a texture and displacers; segments only.
    for (name, count) in [
        ("x3d/JoeKick.x3d", 20),
        ("x3d/JoeSkeletonSkinSiteSaluteWalk.x3d", 3),
        ("x3d/JoeSkinTexcoordDisplacerKick.x3d", 3),
        ("x3d/JinLOA1.x3d", 3),
    ] {
        let doc = hanim::load(&common::corpus(name)).unwrap();
        let (instanced, separate) = instanced_and_separate_pictures(&ctx, &doc, count);
        let background = [instanced[0], instanced[1], instanced[2]];
        let drawn = instanced.chunks(4).filter(|p| p[..3] != background).count();
        let differing = instanced.chunks(4).zip(separate.chunks(4)).filter(|(a, b)| a != b).count();
        eprintln!("{name}: {count} copies, {drawn} pixels drawn, {differing} differ");
        if let Some(keep) = std::env::var_os("HANIM_KEEP_SHOTS") {
            let stem = std::path::Path::new(name).file_stem().unwrap().to_string_lossy().into_owned();
            let path = std::path::Path::new(&keep).join(format!("instanced-{stem}.png"));
            hanim_viewer::output::write_png_atomically(&path, WIDTH, HEIGHT, &instanced).unwrap();
        }
        assert!(drawn > 2_000, "{name}: only {drawn} pixels drawn");
        assert_eq!(differing, 0, "{name}: {differing} pixels differ between instanced and separate draws");
    }
}

fn instances_dispatched_as_a_grid_of_workgroup_rows_agree_with_the_cpu_reference() {
    // Seven BvhSeamless copies: 44,975 points = 703 workgroups of 64; at most 32 per dimension forces
    // 32 x 22, so instance boundaries fall inside rows of the grid.
    let limits = wgpu::Limits { max_compute_workgroups_per_dimension: 32, ..wgpu::Limits::default() };
    let ctx = common::small_device(limits);
    let doc = hanim::load(&common::corpus("x3d/BvhSeamless3dExport1.x3d")).unwrap();
    let h = &doc.humanoids[0];
    let mut rng = agreement::PoseStream::new(3);
    let poses: Vec<Pose> = (0..7).map(|_| random_pose(h, &mut rng)).collect();
    assert_eq!(hanim_viewer::gpu::dispatch_grid(6425 * 7, 32), (32, 22));
    let a = agreement::measure_instances(&ctx, h, &poses, 3).unwrap();
    eprintln!("{a:?}");
    assert!(a.max_point_error <= TOLERANCE && a.max_normal_error <= TOLERANCE, "{a:?}");
}

fn a_crowd_larger_than_a_storage_binding_is_split_into_batches() {
    use hanim_viewer::render::ImageSize;
    use hanim_viewer::render::bench::{ViewBenchOptions, bench_view};
    // 256 KiB per binding: one JoeKick copy's largest buffer is its skin points (its smooth skin's corners
    // are welded to fewer than its points), so a batch holds a few dozen.
    let limit = 256u64 << 10;
    let limits = wgpu::Limits { max_storage_buffer_binding_size: limit, ..wgpu::Limits::default() };
    let ctx = common::small_device(limits);
    let doc = hanim::load(&common::corpus("x3d/JoeKick.x3d")).unwrap();
    let per_batch = SceneDraw::instances_that_fit(&ctx, &doc, 1000).unwrap();
    let corners = hanim_viewer::mesh::skin_mesh_from_humanoid(&doc.scene, &doc.humanoids[0]).unwrap().corner_count();
    let points = doc.humanoids[0].skin.as_ref().unwrap().points.len();
    assert!(corners < points, "{corners} corners, {points} points");
    assert_eq!(u64::from(per_batch), limit / (points as u64 * 16), "{points} points per copy");
    eprintln!("{points} points, {corners} corners per copy: {per_batch} copies per batch");
    assert!((2..100).contains(&per_batch), "{per_batch} copies per batch");

    let options = |copies| ViewBenchOptions {
        size: ImageSize { width: 160, height: 120 },
        frames: 3,
        warmup: 1,
        motion: None,
        copies,
        batched: true,
        formats: hanim_viewer::app::viewport::ViewportTarget::formats_for(&ctx.adapter_info),
    };
    let one = bench_view(&ctx, &doc, "JoeKick.x3d", &options(1)).unwrap();
    // Two full batches and one copy more.
    let copies = 2 * per_batch as usize + 1;
    let crowd = bench_view(&ctx, &doc, "JoeKick.x3d", &options(copies)).unwrap();
    assert_eq!((crowd.copies, crowd.batches), (copies, 3));
    assert_eq!(crowd.dispatches, 3 * one.dispatches);
    assert_eq!(crowd.skin_points, copies as u64 * one.skin_points);
}
