//! `bench`: the 3D view alone headless (one humanoid and copies of it) and the whole window under Xvfb,
//! on JoeKick with its clip playing; and the window's 3D view drawn straight into the surface gives the
//! same picture as the view drawn through its own texture.
//!
//! GPU tests are reported ignored without an adapter (fail under `CI=true`); window tests need `xvfb-run`.

mod common;

test_main!(
    the_3d_view_benchmark_plays_the_clip_and_times_every_stage,
    batched_copies_multiply_points_and_triangles_but_not_dispatches_or_draws,
    an_unknown_motion_is_an_error_listing_the_clips,
    the_window_benchmark_presents_frames_with_the_ui_and_reports_them,
    the_view_drawn_into_the_surface_looks_as_through_its_own_texture
);

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
        batched: true,
        formats: ViewportTarget::formats_for(&ctx.adapter_info),
    }
}

fn stage<'a>(report: &'a BenchReport, name: &str) -> &'a hanim_viewer::render::bench::StageTime {
    report.stages.iter().find(|s| s.stage == name).unwrap_or_else(|| panic!("no stage '{name}' in {report:#?}"))
}

fn the_3d_view_benchmark_plays_the_clip_and_times_every_stage() {
    let ctx = common::gpu();
    let path = common::corpus("x3d/JoeKick.x3d");
    let doc = hanim_viewer::hanim::load(&path).unwrap();
    let report = bench_view(&ctx, &doc, "JoeKick.x3d", &options(&ctx, 1, None)).unwrap();
    assert_eq!(report.mode, "3d-view");
    assert_eq!(report.motion.as_deref(), Some("KickTimer"), "JoeKick's clip plays");
    assert_eq!((report.width, report.height, report.frames, report.copies), (160, 120, 6, 1));
    assert!(report.fps > 0.0 && report.fps.is_finite());
    assert!((report.frame_ms - 1000.0 / report.fps).abs() < 1e-6);
    assert!(report.triangles > 500, "JoeKick has over 500 triangles: {}", report.triangles);
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

fn batched_copies_multiply_points_and_triangles_but_not_dispatches_or_draws() {
    let ctx = common::gpu();
    let doc = hanim_viewer::hanim::load(&common::corpus("x3d/JoeKick.x3d")).unwrap();
    let one = bench_view(&ctx, &doc, "JoeKick.x3d", &options(&ctx, 1, None)).unwrap();
    let three = bench_view(&ctx, &doc, "JoeKick.x3d", &options(&ctx, 3, None)).unwrap();
    assert_eq!((three.copies, three.batches), (3, 1));
    assert_eq!(three.triangles, 3 * one.triangles);
    assert_eq!(three.skin_points, 3 * one.skin_points);
    // One skin dispatch per kernel and one draw per opaque part for all three (JoeKick has no
    // transparent part).
    assert_eq!(three.dispatches, one.dispatches);
    assert_eq!(three.draw_calls, one.draw_calls);
    // The deform figures count every copy's traffic.
    let (d1, d3) = (one.deform.as_ref().unwrap(), three.deform.as_ref().unwrap());
    assert_eq!(d3.bytes_per_frame, 3 * d1.bytes_per_frame);
    assert!(d1.bytes_per_frame > 390 * 32, "{d1:?}");
    assert!(d3.points_per_s > 0.0 && d3.gb_per_s > 0.0, "{d3:?}");

    // Unbatched, each copy has draws of its own, and so has each of its scene Shapes (batched, the axis
    // lines JoeKick USEs twice are one draw).
    let unbatched = ViewBenchOptions { batched: false, ..options(&ctx, 3, None) };
    let apart = bench_view(&ctx, &doc, "JoeKick.x3d", &unbatched).unwrap();
    let one_apart =
        bench_view(&ctx, &doc, "JoeKick.x3d", &ViewBenchOptions { batched: false, ..options(&ctx, 1, None) }).unwrap();
    assert_eq!(one_apart.draw_calls, one.draw_calls + 1, "the USEd Shape drawn twice");
    assert_eq!((apart.copies, apart.batches), (3, 3));
    assert_eq!((apart.triangles, apart.skin_points), (three.triangles, three.skin_points));
    assert_eq!(apart.dispatches, 3 * one.dispatches);
    assert_eq!(apart.draw_calls - 1, 3 * (one_apart.draw_calls - 1));
}

fn an_unknown_motion_is_an_error_listing_the_clips() {
    let ctx = common::gpu();
    let doc = hanim_viewer::hanim::load(&common::corpus("x3d/JoeKick.x3d")).unwrap();
    let error = bench_view(&ctx, &doc, "JoeKick.x3d", &options(&ctx, 1, Some("NoSuchClip"))).unwrap_err();
    let message = error.to_string();
    assert!(message.contains("NoSuchClip") && message.contains("KickTimer"), "{message}");
}

fn the_window_benchmark_presents_frames_with_the_ui_and_reports_them() {
    let file = common::corpus("x3d/JoeKick.x3d");
    let dir = tempfile::tempdir().unwrap();
    let args: Vec<&OsStr> = ["bench", "--window", "--frames", "8", "--warmup", "3", "--size", "640x400", "--json"]
        .iter()
        .map(OsStr::new)
        .chain([file.as_os_str()])
        .collect();
    let (stdout, log) = run_command("the_window_benchmark_presents_frames", &args, dir.path(), &[]);
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

/// Where `view` (an RGBA image) appears inside `window`: the offset at which the fewest pixels of its
/// band from 20% to 60% of its height differ by more than 2 in a channel, if at most `percent`% do, and
/// how many do there. (The window draws over the rest of the view: the navigation hint and the Screenshot
/// button above, the toasts and the axis gizmo below.)
fn find_inside(
    view: &(u32, u32, Vec<u8>),
    window: &(u32, u32, Vec<u8>),
    percent: usize,
) -> Option<((u32, u32), usize)> {
    let (vw, full_height, v) = view;
    let (ww, wh, w) = window;
    let top = full_height / 5;
    let vh = &(full_height * 3 / 5 - top);
    let px = |img: &[u8], width: u32, x: u32, y: u32| -> [u8; 4] {
        let i = ((y * width + x) * 4) as usize;
        [img[i], img[i + 1], img[i + 2], 255]
    };
    let close = |a: [u8; 4], b: [u8; 4]| a.iter().zip(b).all(|(p, q)| p.abs_diff(q) <= 2);
    // A few probes along the view's diagonals first, then every pixel where they all match.
    let probes: Vec<(u32, u32)> =
        (1..40).flat_map(|k| [(vw * k / 40, top + vh * k / 40), (vw * k / 40, top + vh - 1 - vh * k / 40)]).collect();
    let mut best: Option<((u32, u32), usize)> = None;
    for y in 0..=wh.checked_sub(*full_height)? {
        for x in 0..=ww.checked_sub(*vw)? {
            if !probes.iter().all(|&(px_, py)| close(px(v, *vw, px_, py), px(w, *ww, x + px_, y + py))) {
                continue;
            }
            let differing = (top..top + *vh)
                .flat_map(|j| (0..*vw).map(move |i| (i, j)))
                .filter(|&(i, j)| !close(px(v, *vw, i, j), px(w, *ww, x + i, y + j)))
                .count();
            if differing * 100 <= percent * (*vw * *vh) as usize && best.is_none_or(|(_, d)| differing < d) {
                best = Some(((x, y), differing));
            }
        }
    }
    best
}

fn the_view_drawn_into_the_surface_looks_as_through_its_own_texture() {
    let test = "the_view_drawn_into_the_surface_looks_as_through_its_own_texture";
    let file = common::corpus("x3d/JoeKick.x3d");
    let dir = tempfile::tempdir().unwrap();
    let shot = |name: &str| dir.path().join(name);
    let mut results = Vec::new();
    for (mode, direct) in [("direct", "1"), ("texture", "0")] {
        let (view, window) = (shot(&format!("{mode}_view.png")), shot(&format!("{mode}_window.png")));
        let script = dir.path().join(format!("{mode}.txt"));
        let text = format!(
            // The screenshot keeps the view's overlays (grid, skeleton), which the window shows.
            "view front\nrotate l_shoulder 0 0 60\nscreenshot-overlays on\nscreenshot {}\nwindow-screenshot {}\nquit\n",
            view.display(),
            window.display()
        );
        std::fs::write(&script, text).unwrap();
        let args = [
            file.as_os_str(),
            OsStr::new("--size"),
            OsStr::new("1000x700"),
            OsStr::new("--script"),
            script.as_os_str(),
        ];
        run_command(test, &args, dir.path(), &[("HANIM_VIEWER_DIRECT", direct)]);
        results.push((read_rgba(&view), read_rgba(&window)));
    }
    let ((direct_view, direct_window), (texture_view, texture_window)) = (&results[0], &results[1]);
    // The 3D view's own picture is the same either way.
    assert_eq!((direct_view.0, direct_view.1), (texture_view.0, texture_view.1), "same view size");
    let differing = direct_view
        .2
        .chunks(4)
        .zip(texture_view.2.chunks(4))
        .filter(|(p, q)| p.iter().zip(*q).any(|(u, v)| u.abs_diff(*v) > 1))
        .count();
    assert_eq!(differing, 0, "pixels of the 3D view that differ between the two paths");
    // Something was drawn: the figure covers part of the view.
    let background = &direct_view.2[..4];
    let figure = direct_view.2.chunks(4).filter(|p| p != &background).count();
    assert!(figure > direct_view.2.len() / 4 / 50, "the figure covers at least 2% of the view ({figure} pixels)");
    // And the window shows it, at the same place, whichever way it got there: drawn into the surface
    // pixel for pixel; through egui's texture filtered (its edges a little soft where the panel's rect
    // falls between pixels).
    let direct_place =
        find_inside(direct_view, direct_window, 0).expect("the view drawn into the surface is in the window");
    assert_eq!(direct_place.1, 0, "the view drawn into the surface is exact");
    let texture_place =
        find_inside(texture_view, texture_window, 5).expect("the view shown as a texture is in the window");
    assert_eq!(direct_place.0, texture_place.0, "the 3D view is at the same place in the window");
    assert!(direct_place.0.0 > 0 && direct_place.0.1 > 0, "panels are left and above the view: {direct_place:?}");
}
