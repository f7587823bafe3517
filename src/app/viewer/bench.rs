//! The window measuring itself (`hanim-viewer bench --window`): once the file is loaded, a clip plays and
//! the window redraws continuously; after the warm-up frames it records each frame's stages (CPU timers
//! around the work, GPU timestamps where the adapter writes them) and then quits with a [`BenchReport`].

use std::time::{Duration, Instant};

use super::Viewer;
use crate::gpu::timing::{self, GpuTimer};
use crate::render::bench::{BenchReport, StageSamples};

/// What the window's benchmark measures.
#[derive(Debug, Clone)]
pub struct WindowBench {
    pub frames: u32,
    pub warmup: u32,
    /// The clip to play; `None`: the one the transport selects (the file's first enabled clip).
    pub motion: Option<String>,
}

/// Frames after the measured run whose GPU stages are read back one by one (reading timestamps waits for
/// the GPU, so the measured frames do not).
const TIMED_FRAMES: u32 = 10;

/// The benchmark's progress.
pub(super) struct BenchState {
    plan: WindowBench,
    /// Frames drawn since the clip started.
    drawn: u32,
    measured_start: Option<Instant>,
    samples: StageSamples,
    pub(super) timer: Option<GpuTimer>,
    clip: Option<String>,
    pub(super) report: Option<BenchReport>,
}

/// CPU time points of one frame, from its start.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct FrameTimes {
    pub ui: Duration,
    pub playback: Duration,
    pub acquire: Duration,
    pub upload: Duration,
    pub encode_3d: Duration,
    pub encode_ui: Duration,
    pub submit: Duration,
    /// After waiting for the GPU (only in the timed frames; else the same as `submit`).
    pub gpu_done: Duration,
    pub present: Duration,
}

impl BenchState {
    pub(super) fn new(plan: WindowBench, timer: Option<GpuTimer>) -> Self {
        Self { plan, drawn: 0, measured_start: None, samples: StageSamples::default(), timer, clip: None, report: None }
    }

    /// Whether this frame's GPU stages are timed (the frames after the measured run).
    pub(super) fn times_gpu(&self) -> bool {
        self.timer.is_some() && self.drawn >= self.plan.warmup + self.plan.frames
    }
}

impl Viewer {
    /// Starts the clip once the file is loaded (before the frame samples it).
    pub(super) fn bench_before_frame(&mut self) {
        let Some(bench) = &mut self.bench else { return };
        if bench.drawn > 0 || self.loading.is_some() {
            return;
        }
        let Some(scene) = &mut self.scene else { return };
        let transport = &mut scene.transport;
        if let Some(name) = &bench.plan.motion {
            if let Err(e) = transport.show(name, 0.0) {
                self.exit_failure = Some(anyhow::anyhow!("bench: {e}"));
                self.quit = true;
                return;
            }
        } else if let Some(index) = transport.selected {
            transport.animations.solo(index);
            transport.engaged = true;
        }
        transport.playing = transport.selected.is_some();
        bench.clip = transport.selected_clip().map(|c| c.name().to_string());
    }

    /// Records one drawn frame; quits with the report after the last one.
    pub(super) fn bench_after_frame(&mut self, times: &FrameTimes) {
        let Some(bench) = &mut self.bench else { return };
        if self.scene.is_none() || self.loading.is_some() {
            return;
        }
        let plan = bench.plan.clone();
        let measured_end = plan.warmup + plan.frames;
        if bench.drawn == plan.warmup {
            bench.measured_start = Some(Instant::now());
        } else if bench.drawn > plan.warmup && bench.drawn <= measured_end {
            let ms = |a: Duration, b: Duration| b.saturating_sub(a).as_secs_f64() * 1e3;
            let s = &mut bench.samples;
            s.add("UI (egui run + tessellate)", "cpu", times.ui.as_secs_f64() * 1e3);
            s.add("sample clip", "cpu", ms(times.ui, times.playback));
            s.add("acquire surface", "cpu", ms(times.playback, times.acquire));
            s.add("upload joints", "cpu", ms(times.acquire, times.upload));
            s.add("encode 3D view", "cpu", ms(times.upload, times.encode_3d));
            s.add("encode UI", "cpu", ms(times.encode_3d, times.encode_ui));
            s.add("submit", "cpu", ms(times.encode_ui, times.submit));
            s.add("present", "cpu", ms(times.gpu_done, times.present));
        }
        if bench.drawn > measured_end && bench.timer.is_some() {
            // A timed frame: the GPU was waited for before presenting, so presenting is timed alone.
            let ms = |a: Duration, b: Duration| b.saturating_sub(a).as_secs_f64() * 1e3;
            bench.samples.add("GPU work after submit", "cpu+wait", ms(times.submit, times.gpu_done));
            bench.samples.add("present, GPU idle", "cpu", ms(times.gpu_done, times.present));
        }
        if bench.drawn > measured_end {
            // A timed frame: read its stages (this waits for the GPU).
            if let Some(stages) = bench.timer.as_ref().and_then(|t| t.read_stages_ms(&self.gpu)) {
                bench.samples.add("skin/morph (GPU)", "gpu", stages[0]);
                bench.samples.add("3D pass (GPU)", "gpu", stages[1]);
                bench.samples.add("UI pass (GPU)", "gpu", stages[2]);
            }
        }
        if bench.drawn == measured_end {
            let elapsed = bench.measured_start.map_or(0.0, |s| s.elapsed().as_secs_f64());
            let fps = f64::from(plan.frames) / elapsed.max(1e-9);
            let scene = self.scene.as_ref();
            let skins = scene.into_iter().flat_map(|s| s.draws.skins());
            let (skin_points, dispatches) =
                skins.fold((0u64, 0u32), |(p, d), s| (p + u64::from(s.point_count), d + s.dispatch_count()));
            let draw_calls = scene.map_or(0, |s| s.draws.draws().iter().map(|d| d.draw_calls()).sum::<u32>());
            bench.report = Some(BenchReport {
                mode: "window".into(),
                file: scene.map(|s| s.path.display().to_string()).unwrap_or_default(),
                adapter: self.gpu.summary.to_string(),
                width: self.surface.config.width,
                height: self.surface.config.height,
                msaa: self.renderer.formats().sample_count,
                copies: 1,
                batches: 1,
                deform: None,
                motion: bench.clip.clone(),
                frames: plan.frames,
                triangles: scene.map_or(0, |s| u64::from(s.triangles)),
                skin_points,
                dispatches,
                draw_calls,
                fps,
                frame_ms: 1e3 / fps,
                gpu_timestamps: bench.timer.is_some(),
                stages: Vec::new(),
            });
        }
        let timed_end = measured_end + if bench.timer.is_some() { TIMED_FRAMES } else { 0 };
        if bench.drawn >= timed_end {
            if let Some(report) = &mut bench.report {
                report.stages = bench.samples.summarise();
            }
            self.quit = true;
        }
        bench.drawn += 1;
    }

    /// The report of a finished benchmark.
    pub fn bench_report(&mut self) -> Option<BenchReport> {
        self.bench.as_mut().and_then(|b| b.report.take())
    }
}

/// The timer a benchmarking window uses (marks up to the UI pass).
pub(super) fn window_timer(gpu: &crate::gpu::GpuContext) -> Option<GpuTimer> {
    GpuTimer::new(gpu, timing::MARK_UI_DRAWN + 1)
}
