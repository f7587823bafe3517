//! IK solve time (`pose::ik::solve`, CPU).
//!
//! 1. A 10-joint chain of JinLOA4 (LOA 4, 94 joints): from `r_carpal_distal_interphalangeal_3` (its centre the effector)
//!    up nine ancestors (through the hand, arm and clavicle into the spine), aimed at a point a fifth of
//!    the figure's height in front of the chest; every solve starts from the rest pose.
//! 2. Two hands reaching in front of the chest with both ankles pinned, every chain to `humanoid_root`
//!    (four effectors), on JinLOA4 and JohnJoint20.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec3;
use hanim_viewer::hanim::{Humanoid, load};
use hanim_viewer::pose::ik::{Effector, IkOptions, default_chain_root, find_effector, solve};
use hanim_viewer::pose::{Pose, humanoid_from_joint};

mod common;

fn centre(h: &Humanoid, name: &str) -> Vec3 {
    let p = find_effector(h, name).unwrap();
    humanoid_from_joint(h, &Pose::rest(h))[p.joint].transform_point3(p.point)
}

fn chest_target(h: &Humanoid, side: f32) -> Vec3 {
    let height = centre(h, "skullbase").y - centre(h, "l_ankle").y;
    let chest = (centre(h, "l_shoulder") + centre(h, "r_shoulder")) / 2.0 - Vec3::Y * 0.08 * height;
    chest + Vec3::new(side * 0.05 * height, 0.0, 0.2 * height)
}

fn bench(c: &mut Criterion) {
    let options = IkOptions::default();
    let mut group = c.benchmark_group("ik_solve");

    let jin = load(&common::corpus("x3d/JinLOA4.x3d")).unwrap();
    let h = &jin.humanoids[0];
    let tip = find_effector(h, "r_carpal_distal_interphalangeal_3").unwrap();
    let mut root = tip.joint;
    for _ in 0..9 {
        root = h.joints[root].parent.unwrap();
    }
    let chain =
        [Effector { joint: tip.joint, point: tip.point, root, target: chest_target(h, -1.0), orientation: None }];
    group.bench_function("JinLOA4 10-joint chain", |b| {
        b.iter(|| {
            let mut pose = Pose::rest(h);
            black_box(solve(h, &mut pose, black_box(&chain), &options).unwrap())
        })
    });

    for file in ["x3d/JinLOA4.x3d", "x3d/JohnJoint20.x3d"] {
        let doc = load(&common::corpus(file)).unwrap();
        let h = &doc.humanoids[0];
        let effectors: Vec<Effector> = [
            ("l_wrist", chest_target(h, 1.0)),
            ("r_wrist", chest_target(h, -1.0)),
            ("l_ankle", centre(h, "l_ankle")),
            ("r_ankle", centre(h, "r_ankle")),
        ]
        .iter()
        .map(|(name, target)| {
            let p = find_effector(h, name).unwrap();
            Effector {
                joint: p.joint,
                point: p.point,
                root: default_chain_root(h, p.joint, true),
                target: *target,
                orientation: None,
            }
        })
        .collect();
        group.bench_function(format!("{file} hands reach, feet pinned"), |b| {
            b.iter(|| {
                let mut pose = Pose::rest(h);
                black_box(solve(h, &mut pose, black_box(&effectors), &options).unwrap())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
