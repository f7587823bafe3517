//! Motion playback cost per frame.
//!
//! 1. Pose sampling alone (CPU): the largest HAnimMotion of the corpus (KoreanCharacterMotionAnnexD01Jin,
//!    392 frames × 57 channels, 15 driven joints) and the largest interpolator clips (JoeKick's KickTimer:
//!    96 tracks; Pirouette's RealTimer: 44 tracks over the corpus's longest key lists), each sampled at a
//!    new time every iteration (Euler channels → quaternions for two frames, slerp; key search, slerp).
//! 2. A whole frame as the window draws it while playing: sample JoeKick's clip at the next time, upload
//!    the joint matrices, skin dispatch and the render pass into a 1280x720 offscreen target, waiting for
//!    completion (no read-back, no present).

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use hanim_viewer::animation::{Animations, SampleOptions};
use hanim_viewer::gpu::{GpuContext, GpuSkin, SkinCorners};
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::pose::Pose;

fn corpus(name: &str) -> Document {
    hanim::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/x3d").join(name)).unwrap()
}

fn soloed(doc: &Document, clip: &str) -> Animations {
    let mut a = Animations::from_document_strict(doc).unwrap();
    let index = a.find(clip).unwrap();
    a.solo(index);
    a
}

fn bench(c: &mut Criterion) {
    let options = SampleOptions::default();
    let mut group = c.benchmark_group("pose_sampling");
    for (file, clip, step) in [
        ("KoreanCharacterMotionAnnexD01Jin.x3d", "motion_animation", 0.0173),
        ("JoeKick.x3d", "KickTimer", 0.0173),
        ("Pirouette.x3d", "RealTimer", 0.0173),
    ] {
        let doc = corpus(file);
        let animations = soloed(&doc, clip);
        let mut poses: Vec<Pose> = doc.humanoids.iter().map(Pose::rest).collect();
        let mut tau = 0.0f64;
        group.bench_function(clip, |b| {
            b.iter(|| {
                tau += step;
                black_box(animations.apply(&doc, black_box(tau), &options, &mut poses));
            })
        });
    }
    group.finish();

    let ctx = match GpuContext::headless(None) {
        Ok(ctx) => ctx,
        Err(e) => {
            eprintln!("SKIP the frame benchmark: {e}");
            return;
        }
    };
    eprintln!("adapter: {}", ctx.summary);
    use hanim_viewer::gpu::render_pass::{self, HumanoidRenderer};
    use hanim_viewer::gpu::target::{RenderTarget, TargetFormats};
    let joe = corpus("JoeKick.x3d");
    let animations = soloed(&joe, "KickTimer");
    let jh = &joe.humanoids[0];
    let mesh = hanim_viewer::mesh::skin_mesh_from_humanoid(&joe.scene, jh).unwrap();
    let (source, normals) = mesh.concatenated_corners();
    let skin = GpuSkin::new(&ctx, jh, SkinCorners { source_point: &source, normals: &normals }).unwrap();
    let renderer = HumanoidRenderer::new(&ctx.device, TargetFormats::HEADLESS).unwrap();
    let target = RenderTarget::new(&ctx, 1280, 720, TargetFormats::HEADLESS).unwrap();
    let frame = renderer.create_frame(&ctx.device);
    let bounds = hanim_viewer::inspect::bounds::humanoid_bounds(&joe.scene, jh, &Pose::rest(jh)).unwrap();
    let camera =
        hanim_viewer::views::framed_camera(&bounds, glam::Quat::IDENTITY, std::f32::consts::FRAC_PI_4, 1280.0 / 720.0);
    frame.write(&ctx.queue, &camera.frame_uniform(1280.0 / 720.0));
    let textures = hanim_viewer::gpu::textures::TextureCache::new(&ctx.device, &ctx.queue);
    let rest = &jh.skin.as_ref().expect("a skin").points;
    let draw = renderer.create_mesh(&ctx.device, &mesh, &skin, rest, &textures).unwrap();
    draw.set_world_from_humanoid(&ctx.queue, jh.world_from_humanoid());
    let mut poses = vec![Pose::rest(jh)];
    let mut group = c.benchmark_group("motion_frame_1280x720");
    group.bench_function("joekick_sample_deform_render", |b| {
        let mut tau = 0.0f64;
        b.iter(|| {
            tau += 1.0 / 60.0;
            animations.apply(&joe, tau, &options, &mut poses);
            skin.update(&ctx.queue, jh, &poses[0]);
            let mut encoder = ctx.device.create_command_encoder(&Default::default());
            skin.encode(&mut encoder);
            {
                let mut pass = render_pass::begin_scene_pass(&mut encoder, target.views(), wgpu::Color::BLACK);
                renderer.draw(&mut pass, &frame, &[&draw], camera.position());
            }
            ctx.queue.submit([encoder.finish()]);
            ctx.device.poll(wgpu::PollType::Wait { submission_index: None, timeout: None }).unwrap();
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
