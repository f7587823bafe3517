//! Loader and CPU reference throughput, measured in one run so the ratios between stages mean something:
//! raw XML tokenising (quick-xml events only) → X3D scene (DEF/USE, fields kept as text) → full H-Anim
//! document (typed fields, skeleton, influences), on the largest corpus file; and CPU reference skinning
//! of the largest corpus skin in vertices per second.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hanim_viewer::hanim;
use hanim_viewer::pose::{self, Pose};
use hanim_viewer::x3d;

mod common;

fn corpus(name: &str) -> PathBuf {
    common::corpus(&format!("x3d/{name}"))
}

fn raw_events(text: &str) -> usize {
    let mut reader = quick_xml::Reader::from_str(text);
    let mut n = 0;
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) | Err(_) => break,
            Ok(_) => n += 1,
        }
    }
    n
}

fn load(c: &mut Criterion) {
    let path = corpus("Pirouette.x3d");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut group = c.benchmark_group("load_pirouette_2.4MB");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("raw_xml_events", |b| b.iter(|| raw_events(black_box(&text))));
    group.bench_function("x3d_scene", |b| {
        b.iter(|| x3d::load_str(black_box(&text), &path, &x3d::LoadOptions::default()).unwrap())
    });
    group.bench_function("hanim_document", |b| b.iter(|| hanim::load_str(black_box(&text), &path).unwrap()));
    group.finish();
}

fn skin(c: &mut Criterion) {
    let doc = hanim::load(&corpus("BvhSeamless3dExport1.x3d")).unwrap();
    let h = &doc.humanoids[0];
    let points = h.skin.as_ref().unwrap().points.len();
    let rest = Pose::rest(h);
    let mut group = c.benchmark_group("cpu_skin_bvhseamless_6425");
    group.throughput(Throughput::Elements(points as u64));
    group.bench_function("joint_matrices_only", |b| {
        b.iter(|| pose::skin_matrices(h, &pose::humanoid_from_joint(h, black_box(&rest))))
    });
    group.bench_function("deform_skin_rest_pose", |b| b.iter(|| pose::deform_skin(h, black_box(&rest)).unwrap()));
    group.finish();
}

criterion_group!(benches, load, skin);
criterion_main!(benches);
