//! GPU deformation against the CPU reference, in one run: 1, 16 and 256 copies of the largest skinned
//! corpus humanoid (BvhSeamless3dExport1, 6425 points, 21 joints), each copy its own skin (`gpu`) or all
//! copies instances of one skin, one dispatch per kernel (`gpu_batched`). The GPU figures include the
//! per-frame uploads (joint matrices, displacer weights), the dispatches and waiting for completion, but
//! no read-back: in the viewer the skinned buffers are drawn where they are.
//!
//! Buffer traffic per copy and frame (what the kernels read and write once): rest points 16 B, ranges 8 B,
//! influences 8 B each, output points 16 B per point; corners 16 B, output normals 16 B per corner, plus
//! the influence lists again for the normals.

use std::hint::black_box;
use std::sync::Arc;

mod common;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use hanim_viewer::gpu::skin_pass::FrameData;
use hanim_viewer::gpu::{GpuContext, GpuSkin, SkinCorners, SkinPipelines};
use hanim_viewer::hanim;
use hanim_viewer::pose::{self, Pose};

fn bench(c: &mut Criterion) {
    let path = common::corpus("x3d/BvhSeamless3dExport1.x3d");
    let doc = hanim::load(&path).unwrap();
    let h = &doc.humanoids[0];
    let skin = h.skin.as_ref().unwrap();
    let points = skin.points.len();
    let source: Vec<u32> = (0..points as u32).collect();
    let normals = vec![glam::Vec3::Y; points];
    let mut pose = Pose::rest(h);
    pose.rotation_offsets[h.joint_index("LeftShoulder").unwrap()] = glam::Quat::from_rotation_z(1.0);

    let ctx = match GpuContext::headless(None) {
        Ok(ctx) => ctx,
        Err(e) => {
            eprintln!("SKIP gpu benchmarks: {e}");
            return;
        }
    };
    eprintln!("adapter: {}", ctx.summary);
    let pipelines = Arc::new(SkinPipelines::new(&ctx.device).unwrap());
    let influences = skin.influences.entries.len();
    let traffic_per_copy = (points * (16 + 8 + 16) + influences * 8) + (points * (16 + 16 + 8) + influences * 8);
    eprintln!("buffer traffic per copy and frame: {traffic_per_copy} bytes");

    let mut group = c.benchmark_group("deform_bvhseamless");
    for copies in [1usize, 16, 256] {
        group.throughput(Throughput::Elements((copies * points) as u64));
        let skins: Vec<GpuSkin> = (0..copies)
            .map(|_| {
                GpuSkin::with_pipelines(
                    &ctx,
                    pipelines.clone(),
                    h,
                    SkinCorners { source_point: &source, normals: &normals },
                )
                .unwrap()
            })
            .collect();
        group.bench_with_input(BenchmarkId::new("gpu", copies), &copies, |b, _| {
            b.iter(|| {
                let mut encoder = ctx.device.create_command_encoder(&Default::default());
                for s in &skins {
                    s.update(&ctx.queue, h, black_box(&pose));
                    s.encode(&mut encoder);
                }
                ctx.queue.submit([encoder.finish()]);
                ctx.device.poll(wgpu::PollType::Wait { submission_index: None, timeout: None }).unwrap();
            })
        });
        drop(skins);
        let batched = GpuSkin::instanced(
            &ctx,
            pipelines.clone(),
            h,
            SkinCorners { source_point: &source, normals: &normals },
            copies as u32,
        )
        .unwrap();
        group.bench_with_input(BenchmarkId::new("gpu_batched", copies), &copies, |b, &n| {
            b.iter(|| {
                let frames: Vec<FrameData> = (0..n).map(|_| FrameData::from_pose(h, black_box(&pose))).collect();
                batched.write_frames(&ctx.queue, &frames);
                let mut encoder = ctx.device.create_command_encoder(&Default::default());
                batched.encode(&mut encoder);
                ctx.queue.submit([encoder.finish()]);
                ctx.device.poll(wgpu::PollType::Wait { submission_index: None, timeout: None }).unwrap();
            })
        });
        group.bench_with_input(BenchmarkId::new("cpu_reference", copies), &copies, |b, &n| {
            b.iter(|| {
                for _ in 0..n {
                    black_box(pose::deform_skin(h, black_box(&pose)));
                }
            })
        });
    }
    group.finish();

    // A whole frame as the viewer draws it: per-frame uploads, skin dispatch and the MSAA render pass of
    // JoeKick (skin + material) into a 1280x720 offscreen target, waiting for completion; no read-back.
    let mut joe = common::JoeKickFrame::new(&ctx);
    let mut joe_pose = Pose::rest(joe.humanoid());
    let shoulder = joe.humanoid().joint_index("l_shoulder").unwrap();
    let mut group = c.benchmark_group("frame_1280x720");
    group.bench_function("joekick_deform_and_render", |b| {
        let mut angle = 0.0f32;
        b.iter(|| {
            angle += 0.01;
            joe_pose.rotation_offsets[shoulder] = glam::Quat::from_rotation_z(angle);
            joe.draw(&ctx, &joe_pose);
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
