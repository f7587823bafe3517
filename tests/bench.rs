//! `bench`: the 3D view alone headless (one humanoid and copies of it) and the whole window under Xvfb,
//! on JoeKick with its clip playing; and the window's 3D view drawn straight into the surface gives the
//! same picture as the view drawn through its own texture.
//!
//! GPU tests skip loudly without an adapter (fail under `CI=true`); window tests need `xvfb-run`.

mod common;

use std::ffi::OsStr;

use common::window::{read_rgba, run_command};
use hanim_viewer::app::viewport::ViewportTarget;
use hanim_viewer::render::ImageSize;
use hanim_viewer::render::bench::{BenchReport, ViewBenchOptions, bench_view};

fn options(ctx: &hanim_viewer::gpu::GpuContext, copies: usize, motion: Option<&str>) -> ViewBenchOptions {
    ViewBenchOptions {
        size: ImageSize { width: 160, height: 120 },
        frames: 6,
        warmup: 2,
        motion: motion.map(str::to_string),
        copies,
        formats: ViewportTarget::formats_for(&ctx.adapter_info),
    }
}

fn stage<'a>(report: &'a BenchReport, name: &str) -> &'a hanim_viewer::render::bench::StageTime {
    report.stages.iter().find(|s| s.stage == name).unwrap_or_else(|| panic!("no stage '{name}' in {report:#?}"))
}

#[test]
fn the_3d_view_benchmark_plays_the_clip_and_times_every_stage() {
    let Some(ctx) = common::gpu_or_skip() else { return };
    let path = common::corpus("x3d/JoeKick.x3d");
    let doc = hanim_viewer::hanim::load(&path).unwrap();
    let report = bench_view(&ctx, &doc, "JoeKick.x3d", &options(&ctx, 1, None)).unwrap();
    assert_eq!(report.mode, "3d-view");
    assert_eq!(report.motion.as_deref(), Some("KickTimer"), "JoeKick's clip plays");
    assert_eq!((report.width, report.height, report.frames, report.copies), (160, 120, 6, 1));
    assert!(report.fps > 0.0 && report.fps.is_finite());
    assert!((report.frame_ms - 1000.0 / report.fps).abs() < 1e-6);
    assert!(report.triangles > 1000, "JoeKick has over a thousand triangles: {}", report.triangles);
    assert!(report.skin_points > 0 && report.dispatches >= 2 && report.draw_calls > 1);
    for name in ["sample clip", "upload joints", "encode", "submit", "skin/morph (alone)", "scene pass (alone)"] {
        let s = stage(&report, name);
        assert!(s.median_ms >= 0.0 && s.mean_ms >= 0.0, "{s:?}");
    }
    // The passes take time on any adapter; with timestamps they are also timed on the GPU.
    assert!(stage(&report, "scene pass (alone)").median_ms > 0.0);
    if report.gpu_timestamps {
        assert!(stage(&report, "scene pass (GPU)").median_ms > 0.0);
    }
    let json: serde_json::Value = serde_json::from_str(&report.json()).unwrap();
    assert_eq!(json["motion"], "KickTimer");
    assert_eq!(json["stages"].as_array().unwrap().len(), report.stages.len());
    assert!(report.table().contains("frames/s"));
}

#[test]
fn copies_multiply_points_dispatches_and_triangles() {
    let Some(ctx) = common::gpu_or_skip() else { return };
    let doc = hanim_viewer::hanim::load(&common::corpus("x3d/JoeKick.x3d")).unwrap();
    let one = bench_view(&ctx, &doc, "JoeKick.x3d", &options(&ctx, 1, None)).unwrap();
    let three = bench_view(&ctx, &doc, "JoeKick.x3d", &options(&ctx, 3, None)).unwrap();
    assert_eq!(three.copies, 3);
    assert_eq!(three.triangles, 3 * one.triangles);
    assert_eq!(three.skin_points, 3 * one.skin_points);
    assert_eq!(three.dispatches, 3 * one.dispatches);
}

#[test]
fn an_unknown_motion_is_an_error_listing_the_clips() {
    let Some(ctx) = common::gpu_or_skip() else { return };
    let doc = hanim_viewer::hanim::load(&common::corpus("x3d/JoeKick.x3d")).unwrap();
    let error = bench_view(&ctx, &doc, "JoeKick.x3d", &options(&ctx, 1, Some("NoSuchClip"))).unwrap_err();
    let message = error.to_string();
    assert!(message.contains("NoSuchClip") && message.contains("KickTimer"), "{message}");
}

#[test]
fn the_window_benchmark_presents_frames_with_the_ui_and_reports_them() {
    let file = common::corpus("x3d/JoeKick.x3d");
    let dir = tempfile::tempdir().unwrap();
    let args: Vec<&OsStr> = ["bench", "--window", "--frames", "8", "--warmup", "3", "--size", "640x400", "--json"]
        .iter()
        .map(OsStr::new)
        .chain([file.as_os_str()])
        .collect();
    let Some((stdout, log)) = run_command("the_window_benchmark_presents_frames", &args, dir.path(), &[]) else {
        return;
    };
    let report: serde_json::Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("JSON on stdout ({e}):\n{stdout}\n{log}"));
    assert_eq!(report["mode"], "window");
    assert_eq!(report["frames"], 8);
    assert_eq!(report["motion"], "KickTimer");
    assert!(report["fps"].as_f64().unwrap() > 0.0);
    let stages: Vec<&str> = report["stages"].as_array().unwrap().iter().map(|s| s["stage"].as_str().unwrap()).collect();
    for name in ["UI (egui run + tessellate)", "encode 3D view", "encode UI", "present"] {
        assert!(stages.contains(&name), "stage '{name}' in {stages:?}");
    }
}

#[test]
fn the_view_drawn_into_the_surface_looks_as_through_its_own_texture() {
    let file = common::corpus("x3d/JoeKick.x3d");
    let dir = tempfile::tempdir().unwrap();
    let shot = |name: &str| dir.path().join(name);
    let mut pictures = Vec::new();
    for (name, direct) in [("direct.png", "1"), ("texture.png", "0")] {
        let script = dir.path().join(format!("{name}.txt"));
        std::fs::write(
            &script,
            format!("view front\nrotate l_shoulder 0 0 60\nscreenshot {}\nquit\n", shot(name).display()),
        )
        .unwrap();
        let args =
            [file.as_os_str(), OsStr::new("--size"), OsStr::new("700x500"), OsStr::new("--script"), script.as_os_str()];
        let test = "the_view_drawn_into_the_surface_looks_as_through_its_own_texture";
        if run_command(test, &args, dir.path(), &[("HANIM_VIEWER_DIRECT", direct)]).is_none() {
            return;
        }
        pictures.push(read_rgba(&shot(name)));
    }
    let (a, b) = (&pictures[0], &pictures[1]);
    assert_eq!((a.0, a.1), (b.0, b.1), "same view size");
    let differing =
        a.2.chunks(4).zip(b.2.chunks(4)).filter(|(p, q)| p.iter().zip(*q).any(|(u, v)| u.abs_diff(*v) > 1)).count();
    assert_eq!(differing, 0, "pixels that differ between the two paths");
    // Something was drawn: the figure covers part of the view.
    let background = &a.2[..4];
    let figure = a.2.chunks(4).filter(|p| p != &background).count();
    assert!(figure > a.2.len() / 4 / 50, "the figure covers at least 2% of the view ({figure} pixels)");
}
