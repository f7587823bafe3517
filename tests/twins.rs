//! Crowds as files make them: humanoids a scene repeats (Inlines of one file, USEs of one humanoid,
//! copies written out with the same text) are twins, skinned by one pass and drawn by instanced draws.
//!
//! - Twins are found by content, and a humanoid whose geometry or appearance events change keeps draws
//!   of its own.
//! - Every twin's skinned points, read back from the shared buffers, agree with the CPU reference at its
//!   own pose (1e-5 of the bounding-box diagonal, as `tests/gpu_skin.rs` asks of one humanoid).
//! - Twins drawn together, their rigid shapes merged into one-influence skins, give the same picture as
//!   the same humanoids and shapes drawn one by one (`SceneDraw::unbatched`), all together and each
//!   alone (the catalogue's view of one humanoid): pixel for pixel, to the last bit of a channel.
//!
//! `HANIM_KEEP_SHOTS=DIR` writes the batched pictures there, to look at them.

mod common;

test_main!(
    humanoids_a_scene_repeats_are_found_as_twins,
    twins_drawn_together_look_exactly_like_humanoids_drawn_one_by_one,
    a_repeated_shape_hidden_in_one_copy_still_draws_in_the_others,
    every_twin_in_the_shared_skin_agrees_with_the_cpu_reference_at_its_own_pose,
    merged_rigid_shapes_land_where_their_joints_place_them_on_cpu_and_gpu
);

use glam::{Mat4, Quat};
use hanim_viewer::gpu::GpuContext;
use hanim_viewer::gpu::agreement::random_pose;
use hanim_viewer::gpu::scene_draw::SceneDraw;
use hanim_viewer::gpu::scene_renderer::SceneRenderer;
use hanim_viewer::hanim::twins::twin_groups;
use hanim_viewer::hanim::{self, Document, HumanoidIndex};
use hanim_viewer::pose::Pose;

const WIDTH: u32 = 480;
const HEIGHT: u32 = 240;

fn load(name: &str) -> Document {
    let path = common::test_data(&format!("crowd/{name}"));
    hanim::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn groups(doc: &Document) -> Vec<Vec<usize>> {
    twin_groups(doc).into_iter().map(|g| g.into_iter().map(|i| i.0).collect()).collect()
}

fn humanoids_a_scene_repeats_are_found_as_twins() {
    assert_eq!(groups(&load("joekick_inlines.x3d")), vec![vec![0, 1, 2]], "three Inlines of one file");
    assert_eq!(groups(&load("jin_inlines.x3d")), vec![vec![0, 1]], "two Inlines of a segmented figure");
    // The second humanoid's Material is written by a ROUTE; the fourth USEs the third.
    assert_eq!(groups(&load("routed_twin.x3d")), vec![vec![0, 2, 3], vec![1]]);
    // Different humanoids are never twins; the copies of one file among them are.
    assert_eq!(groups(&load("mixed_inlines.x3d")), vec![vec![0, 2], vec![1]]);
    let two = hanim::load(&common::test_data("two_humanoids.x3d")).unwrap();
    assert_eq!(groups(&two), vec![vec![0, 1]], "the built-in figure Inlined twice");
}

/// A gentle random pose for each humanoid (the first at rest), so that twins differ.
fn poses(doc: &Document) -> Vec<Pose> {
    let mut rng = hanim_viewer::gpu::agreement::PoseStream::new(0x7_15);
    doc.indexed_humanoids()
        .map(|(i, h)| {
            let mut pose = random_pose(h, &mut rng);
            if i.0 == 0 {
                return Pose::rest(h);
            }
            for q in &mut pose.rotation_offsets {
                *q = Quat::IDENTITY.slerp(*q, 0.3);
            }
            pose.translation_offsets.iter_mut().for_each(|t| *t = glam::Vec3::ZERO);
            pose
        })
        .collect()
}

fn write_poses(ctx: &GpuContext, scene: &mut SceneDraw, doc: &Document, poses: &[Pose], together: bool) {
    let placed: Vec<Mat4> = doc.humanoids.iter().zip(poses).map(|(h, p)| p.world_from_humanoid(h)).collect();
    if together {
        let held: Vec<&Pose> = poses.iter().collect();
        scene.update_humanoids(&ctx.queue, doc, &held, &placed);
    } else {
        for ((index, h), pose) in doc.indexed_humanoids().zip(poses) {
            scene.update_humanoid_placed(&ctx.queue, index, h, pose, placed[index.0]);
        }
    }
}

fn render(
    ctx: &GpuContext,
    renderer: &mut SceneRenderer,
    doc: &Document,
    scene: &SceneDraw,
    poses: &[Pose],
) -> Vec<u8> {
    let bounds = hanim_viewer::render::scene_bounds(doc, poses).unwrap();
    common::offscreen::render_scenes(ctx, renderer, doc, std::slice::from_ref(scene), &bounds, (WIDTH, HEIGHT))
}

fn keep(name: &str, rgba: &[u8]) {
    if let Ok(dir) = std::env::var("HANIM_KEEP_SHOTS") {
        let path = std::path::Path::new(&dir).join(name);
        image::save_buffer(path, rgba, WIDTH, HEIGHT, image::ExtendedColorType::Rgba8).unwrap();
    }
}

/// Pixels that differ by more than 1/255 in a channel. Merged rigid shapes are placed and lit by the
/// skin pass (`M_j · q`) where drawn apart they are placed by their draw (`H · G_j · offset · p`): the same
/// product in another order, so the last bit of a channel may differ, never more.
fn differing_pixels(a: &[u8], b: &[u8]) -> usize {
    let differ: Vec<u8> = a
        .chunks(4)
        .zip(b.chunks(4))
        .filter(|(x, y)| x != y)
        .map(|(x, y)| x.iter().zip(y).map(|(p, q)| p.abs_diff(*q)).max().unwrap_or(0))
        .collect();
    if !differ.is_empty() {
        eprintln!("pixels off by 1/255: {}", differ.iter().filter(|&&d| d == 1).count());
    }
    differ.iter().filter(|&&d| d > 1).count()
}

fn covered_pixels(rgba: &[u8]) -> usize {
    rgba.chunks(4).filter(|p| p[..3] != rgba[..3]).count()
}

fn twins_drawn_together_look_exactly_like_humanoids_drawn_one_by_one() {
    let ctx = common::gpu();
    let formats = hanim_viewer::app::viewport::ViewportTarget::formats_for(&ctx.adapter_info);
    let mut renderer = SceneRenderer::new(&ctx, formats).unwrap();
    // (file, batches of humanoids, draws of the scene's other Shapes when drawn together)
    for (name, batches, scene_draws) in [
        ("joekick_inlines.x3d", 1, 4),
        ("jin_inlines.x3d", 1, 0),
        ("routed_twin.x3d", 2, 0),
        ("mixed_inlines.x3d", 2, 4),
    ] {
        let doc = load(name);
        let poses = poses(&doc);
        let mut together = SceneDraw::new(&ctx, renderer.mesh_pipelines(), &doc, &poses).unwrap();
        let mut apart = SceneDraw::unbatched(&ctx, renderer.mesh_pipelines(), &doc, &poses).unwrap();
        assert_eq!(together.batch_count(), batches, "{name}");
        assert_eq!(apart.batch_count(), doc.humanoids.len(), "{name}");
        assert_eq!(together.triangles, apart.triangles, "{name}: every twin's triangles are counted");
        eprintln!(
            "{name}: {} scene Shapes, {} draws together, {} one by one",
            doc.other_shapes.len(),
            together.scene_shape_draws(),
            apart.scene_shape_draws()
        );
        // The scenery each Inline copy brings (JoeKick's five Shapes, one of them USEd twice) is one instanced draw per Shape.
        assert_eq!(together.scene_shape_draws(), scene_draws, "{name}: scene Shape draws together");
        write_poses(&ctx, &mut together, &doc, &poses, true);
        write_poses(&ctx, &mut apart, &doc, &poses, false);
        let calls = |s: &SceneDraw| s.draws().iter().map(|d| d.draw_calls()).sum::<u32>();
        eprintln!("{name}: draw calls {} together, {} one by one", calls(&together), calls(&apart));
        assert!(calls(&together) < calls(&apart), "{name}");

        let shot = render(&ctx, &mut renderer, &doc, &together, &poses);
        keep(&format!("twins-{name}.png"), &shot);
        assert!(covered_pixels(&shot) > 2_000, "{name}: the crowd draws too little");
        assert_eq!(differing_pixels(&shot, &render(&ctx, &mut renderer, &doc, &apart, &poses)), 0, "{name}");

        // Each humanoid alone (as the catalogue draws one): its own copy only, the same as drawn apart.
        for only in 0..doc.humanoids.len() {
            together.show_only(Some(only));
            apart.show_only(Some(only));
            let alone = render(&ctx, &mut renderer, &doc, &together, &poses);
            let pixels = covered_pixels(&alone);
            assert!(pixels > 100 && pixels < covered_pixels(&shot), "{name}: humanoid {only} alone covers {pixels}");
            assert_eq!(
                differing_pixels(&alone, &render(&ctx, &mut renderer, &doc, &apart, &poses)),
                0,
                "{name} {only}"
            );
        }
        together.show_only(None);
        assert_eq!(differing_pixels(&shot, &render(&ctx, &mut renderer, &doc, &together, &poses)), 0, "{name}");
    }
}

fn every_twin_in_the_shared_skin_agrees_with_the_cpu_reference_at_its_own_pose() {
    let ctx = common::gpu();
    let formats = hanim_viewer::app::viewport::ViewportTarget::formats_for(&ctx.adapter_info);
    let renderer = SceneRenderer::new(&ctx, formats).unwrap();
    let doc = load("joekick_inlines.x3d");
    let poses = poses(&doc);
    let mut scene = SceneDraw::new(&ctx, renderer.mesh_pipelines(), &doc, &poses).unwrap();
    write_poses(&ctx, &mut scene, &doc, &poses, true);
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    scene.encode(&mut encoder);
    ctx.queue.submit([encoder.finish()]);
    let skins: Vec<_> = scene.skins().collect();
    assert_eq!(skins.len(), 1);
    assert_eq!(skins[0].instances, 3);
    for (index, h) in doc.indexed_humanoids() {
        let expected = hanim_viewer::pose::deform_skin(h, &poses[index.0]).unwrap().points;
        let got = skins[0].read_instance_points(&ctx, index.0 as u32).unwrap();
        let rest = &h.skin.as_ref().unwrap().points;
        let mut rest_box = hanim_viewer::pose::bounds::Aabb::default();
        rest.iter().for_each(|p| rest_box.add(*p));
        let diagonal = rest_box.size().length();
        let error = got.iter().zip(&expected).map(|(a, b)| (*a - *b).length()).fold(0.0f32, f32::max);
        eprintln!("twin {}: largest point error {error:e} (diagonal {diagonal})", index.0);
        assert_eq!(got.len(), expected.len());
        assert!(error <= 1e-5 * diagonal, "twin {}: {error}", index.0);
        // The twins really are posed apart: all but the first (at rest) moved away from the rest pose.
        let at_rest = hanim_viewer::pose::deform_skin(h, &Pose::rest(h)).unwrap().points;
        let moved = got.iter().zip(&at_rest).filter(|(a, b)| (**a - **b).length() > 0.01).count();
        assert_eq!(moved == 0, index == HumanoidIndex(0), "twin {}: {moved} points moved", index.0);
    }
}

fn merged_rigid_shapes_land_where_their_joints_place_them_on_cpu_and_gpu() {
    use hanim_viewer::mesh::rigid_merge::{RigidPiece, can_merge, merge_rigid};
    use hanim_viewer::mesh::{rigid_shape_mesh, rigid_shapes};
    // A segmented figure (146 rigid shapes); one with joint, segment and site geometry under grouping
    // Transforms; one of primitives.
    for path in [
        common::corpus("x3d/JinLOA4.x3d"),
        common::corpus("x3d/HAnim2SpecificationLOA3Illustrated.x3d"),
        common::corpus("x3d/DiamondManLOA1.x3d"),
    ] {
        let doc = hanim::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let h = &doc.humanoids[0];
        let mut notes = Vec::new();
        let built: Vec<_> = rigid_shapes(&doc.scene, h)
            .unwrap()
            .into_iter()
            .filter(|s| s.morph_segment.is_none())
            .filter_map(|s| Some((s.joint?, rigid_shape_mesh(&doc.scene, h, &s, &mut notes).unwrap()?)))
            .collect();
        let pieces: Vec<RigidPiece> = built
            .iter()
            .map(|(joint, m)| RigidPiece { joint: *joint, offset: m.offset, mesh: &m.mesh, points: &m.points })
            .filter(|p| can_merge(h, p))
            .collect();
        assert!(pieces.len() > 1, "{}: {} pieces", path.display(), pieces.len());
        let merged = merge_rigid(h, &pieces);
        // CPU: the merged skin at a pose puts every point where the rigid draw would, G_j · offset · p.
        let mut rng = hanim_viewer::gpu::agreement::PoseStream::new(0x5E6);
        let pose = random_pose(h, &mut rng);
        let globals = hanim_viewer::pose::humanoid_from_joint(h, &pose);
        let skinned = hanim_viewer::pose::deform_skin(&merged.humanoid, &pose).unwrap().points;
        let expected: Vec<glam::Vec3> = pieces
            .iter()
            .flat_map(|p| {
                let place = globals[p.joint] * p.offset;
                p.points.iter().map(move |q| place.transform_point3(*q))
            })
            .collect();
        assert_eq!(skinned.len(), expected.len());
        let error = skinned.iter().zip(&expected).map(|(a, b)| (*a - *b).length()).fold(0.0f32, f32::max);
        let mut posed_box = hanim_viewer::pose::bounds::Aabb::default();
        expected.iter().for_each(|p| posed_box.add(*p));
        let relative = error / posed_box.size().length();
        eprintln!(
            "{}: {} shapes, {} points, CPU error {relative:e} of the diagonal",
            path.display(),
            pieces.len(),
            expected.len()
        );
        assert!(relative <= 1e-5, "{}: {relative}", path.display());
        // GPU: the pass that skins the merged points agrees with the CPU reference at several poses.
        let ctx = common::gpu();
        let mut poses = vec![Pose::rest(&merged.humanoid)];
        poses.extend((0..3).map(|_| random_pose(&merged.humanoid, &mut rng)));
        let a = hanim_viewer::gpu::agreement::measure_instances(&ctx, &merged.humanoid, &poses, 3).unwrap();
        eprintln!("{}: GPU {a:?}", path.display());
        assert!(a.max_point_error <= 1e-5 && a.max_normal_error <= 1e-5, "{}: {a:?}", path.display());
    }
}

/// A Shape drawn as instances of one draw (the scenery of each Inline copy) can be hidden in one copy, as
/// a Switch does, while the other copies still draw it: the picture matches the Shapes drawn one by one.
fn a_repeated_shape_hidden_in_one_copy_still_draws_in_the_others() {
    let ctx = common::gpu();
    let formats = hanim_viewer::app::viewport::ViewportTarget::formats_for(&ctx.adapter_info);
    let mut renderer = SceneRenderer::new(&ctx, formats).unwrap();
    let doc = load("joekick_inlines.x3d");
    let poses = poses(&doc);
    let mut together = SceneDraw::new(&ctx, renderer.mesh_pipelines(), &doc, &poses).unwrap();
    let mut apart = SceneDraw::unbatched(&ctx, renderer.mesh_pipelines(), &doc, &poses).unwrap();
    write_poses(&ctx, &mut together, &doc, &poses, true);
    write_poses(&ctx, &mut apart, &doc, &poses, false);
    let full = render(&ctx, &mut renderer, &doc, &together, &poses);

    // The middle copy's Shapes hidden (its five are the second five of the fifteen).
    let mut placements: Vec<Option<Mat4>> = doc.other_shapes.iter().map(|&(_, world)| Some(world)).collect();
    let per_copy = placements.len() / 3;
    placements[per_copy..2 * per_copy].iter_mut().for_each(|p| *p = None);
    together.place_scene_shapes(&ctx.queue, &placements);
    apart.place_scene_shapes(&ctx.queue, &placements);
    let hidden = render(&ctx, &mut renderer, &doc, &together, &poses);
    keep("twins-scenery-hidden.png", &hidden);
    assert_eq!(together.scene_shape_draws(), 4, "the groups stay drawn while one member is hidden");
    assert!(differing_pixels(&full, &hidden) > 50, "hiding a copy's scenery changes the picture");
    assert_eq!(differing_pixels(&hidden, &render(&ctx, &mut renderer, &doc, &apart, &poses)), 0);

    // Shown again: the first picture comes back.
    let shown: Vec<Option<Mat4>> = doc.other_shapes.iter().map(|&(_, world)| Some(world)).collect();
    together.place_scene_shapes(&ctx.queue, &shown);
    assert_eq!(differing_pixels(&full, &render(&ctx, &mut renderer, &doc, &together, &poses)), 0);
}
