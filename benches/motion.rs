//! Motion playback cost per frame.
//!
//! 1. Pose sampling alone (CPU): the largest HAnimMotion of the corpus (KoreanCharacterMotionAnnexD01Jin,
//!    392 frames × 57 channels, 15 driven joints) and the largest interpolator clips (JoeKick's KickTimer:
//!    96 tracks; Pirouette's RealTimer: 44 tracks over the corpus's longest key lists), each sampled at a
//!    new time every iteration (Euler channels → quaternions for two frames, slerp; key search, slerp).
//! 2. A mapping edit in the Motion capture window: retargeting a whole capture and building its clip.
//! 3. A whole frame as the window draws it while playing: sample JoeKick's clip at the next time, upload
//!    the joint matrices, skin dispatch and the render pass into a 1280x720 offscreen target, waiting for
//!    completion (no read-back, no present).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use hanim_viewer::animation::{Animations, SampleOptions};
use hanim_viewer::gpu::GpuContext;
use hanim_viewer::hanim::Document;
use hanim_viewer::mocap::session::{CaptureRequest, CaptureSession, MappingOrigin};
use hanim_viewer::pose::Pose;

mod common;

use common::corpus_x3d as corpus;

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
                animations.apply(&doc, black_box(tau), &options, &mut poses);
                black_box(&poses);
            })
        });
    }
    group.finish();

    // A mapping edit in the window's Motion capture window: retarget the whole capture with the new
    // mapping and build the transport's clip from it (what happens between Enter and the next frame).
    let mut group = c.benchmark_group("mapping_edit");
    for (humanoid, capture) in [("JinLOA1.x3d", "asf/07_05.amc"), ("JohnJoint20.x3d", "bvh/131_03.bvh")] {
        let doc = corpus(humanoid);
        let path = common::corpus(capture);
        let request = CaptureRequest::for_file(&path, None).unwrap();
        let mut session =
            CaptureSession::load(&doc, hanim_viewer::hanim::HumanoidIndex::FIRST, &request, None).unwrap();
        let mapping = session.mapping.clone();
        let name = format!("{}_onto_{}", session.name, humanoid.trim_end_matches(".x3d"));
        eprintln!("{name}: {} frames", session.result.frame_count());
        group.bench_function(&name, |b| {
            b.iter(|| {
                session.set_mapping(&doc, mapping.clone(), MappingOrigin::Edited).unwrap();
                black_box(session.clip(&doc).unwrap());
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
    let mut joe = common::JoeKickFrame::new(&ctx);
    let animations = soloed(&joe.doc, "KickTimer");
    let mut poses = vec![Pose::rest(joe.humanoid())];
    let mut group = c.benchmark_group("motion_frame_1280x720");
    group.bench_function("joekick_sample_deform_render", |b| {
        let mut tau = 0.0f64;
        b.iter(|| {
            tau += 1.0 / 60.0;
            animations.apply(&joe.doc, tau, &options, &mut poses);
            joe.draw(&ctx, &poses[0]);
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
