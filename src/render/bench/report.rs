//! What a benchmark run measured: frames per second and the time of each stage of a frame, as a table or
//! as JSON. Shared by the headless 3D-view benchmark and the window's (`app`), so both print alike.

use serde::Serialize;

/// One stage of a frame: its median and mean over the measured frames, in milliseconds.
#[derive(Debug, Clone, Serialize)]
pub struct StageTime {
    pub stage: String,
    /// `cpu` (a CPU timer around the work), `gpu` (GPU timestamps) or `cpu+wait` (the stage submitted
    /// alone and waited for: the GPU's time on adapters without timestamps).
    pub clock: String,
    pub median_ms: f64,
    pub mean_ms: f64,
}

impl StageTime {
    /// The stage `stage` from one sample per frame (empty samples give zeros).
    pub fn from_samples(stage: &str, clock: &str, samples: &[f64]) -> Self {
        let mean_ms = if samples.is_empty() { 0.0 } else { samples.iter().sum::<f64>() / samples.len() as f64 };
        Self { stage: stage.to_string(), clock: clock.to_string(), median_ms: median(samples), mean_ms }
    }
}

/// The median of `samples` (0 for none).
pub fn median(samples: &[f64]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    if sorted.len() % 2 == 1 { sorted[mid] } else { (sorted[mid - 1] + sorted[mid]) / 2.0 }
}

/// Per-stage samples collected frame by frame, in the order stages were first seen.
#[derive(Debug, Default, Clone)]
pub struct StageSamples {
    stages: Vec<(String, String, Vec<f64>)>,
}

impl StageSamples {
    /// Adds one frame's time of `stage` measured by `clock`.
    pub fn add(&mut self, stage: &str, clock: &str, ms: f64) {
        match self.stages.iter_mut().find(|(s, c, _)| s == stage && c == clock) {
            Some((_, _, samples)) => samples.push(ms),
            None => self.stages.push((stage.to_string(), clock.to_string(), vec![ms])),
        }
    }

    pub fn summarise(&self) -> Vec<StageTime> {
        self.stages.iter().map(|(stage, clock, samples)| StageTime::from_samples(stage, clock, samples)).collect()
    }
}

/// The result of one benchmark run.
#[derive(Debug, Clone, Serialize)]
pub struct BenchReport {
    /// `3d-view` (headless, the 3D view alone) or `window` (the whole window, UI included, presented).
    pub mode: String,
    pub file: String,
    pub adapter: String,
    /// The 3D view's size (headless) or the window's (window mode), in pixels.
    pub width: u32,
    pub height: u32,
    /// Samples per pixel of the 3D view.
    pub msaa: u32,
    pub copies: usize,
    /// Draws holding the copies: 1 when they are batched into one instanced draw set (more only when the
    /// GPU's buffer limits split them), `copies` when each copy has its own draws (`--unbatched`).
    pub batches: usize,
    /// The clip played (`None`: the file has none; the rest pose is drawn).
    pub motion: Option<String>,
    pub frames: u32,
    pub triangles: u64,
    /// Skinned points deformed per frame over all copies.
    pub skin_points: u64,
    /// Compute dispatches and draw calls per frame.
    pub dispatches: u32,
    pub draw_calls: u32,
    pub fps: f64,
    /// Wall time per frame over the measured run (1000 / fps).
    pub frame_ms: f64,
    /// Whether the adapter wrote GPU timestamps (else the GPU stages are `cpu+wait`).
    pub gpu_timestamps: bool,
    pub stages: Vec<StageTime>,
    /// The skin/morph pass's throughput (headless only; `None` in window mode).
    pub deform: Option<DeformThroughput>,
}

/// How fast the skin/morph pass deforms: points per second and the bytes its kernels read and write
/// (`GpuSkin::bytes_per_frame`) per second, over the median time of the pass.
#[derive(Debug, Clone, Serialize)]
pub struct DeformThroughput {
    /// Bytes the kernels read and write per frame, over all copies.
    pub bytes_per_frame: u64,
    /// The median time of the pass the figures divide by, and the stage it comes from.
    pub pass_ms: f64,
    pub stage: String,
    pub points_per_s: f64,
    pub gb_per_s: f64,
}

impl DeformThroughput {
    /// From the pass's median time: the GPU's timestamps where they are trusted, else the pass
    /// submitted alone and waited for. CPU adapters (lavapipe) write compute timestamps before the
    /// dispatches run, so there the waited-for figure is the one.
    pub fn from_stages(
        stages: &[StageTime],
        trust_timestamps: bool,
        points: u64,
        bytes_per_frame: u64,
    ) -> Option<Self> {
        let wanted =
            if trust_timestamps { ["skin/morph (GPU)", "skin/morph (alone)"] } else { ["skin/morph (alone)"; 2] };
        let stage = wanted.iter().find_map(|name| stages.iter().find(|s| s.stage == *name))?;
        let seconds = stage.median_ms / 1e3;
        (seconds > 0.0).then(|| DeformThroughput {
            bytes_per_frame,
            pass_ms: stage.median_ms,
            stage: format!("{} ({})", stage.stage, stage.clock),
            points_per_s: points as f64 / seconds,
            gb_per_s: bytes_per_frame as f64 / seconds / 1e9,
        })
    }
}

impl BenchReport {
    /// The human-readable table.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let motion = self.motion.as_deref().unwrap_or("none (rest pose)");
        out.push_str(&format!("file      {}\n", self.file));
        out.push_str(&format!("adapter   {}\n", self.adapter));
        out.push_str(&format!(
            "mode      {} {}x{}, MSAA {}x, {} cop{} in {} batch{}, clip {motion}\n",
            self.mode,
            self.width,
            self.height,
            self.msaa,
            self.copies,
            if self.copies == 1 { "y" } else { "ies" },
            self.batches,
            if self.batches == 1 { "" } else { "es" }
        ));
        out.push_str(&format!(
            "scene     {} triangles, {} skinned points, {} dispatches, {} draws per frame\n",
            self.triangles, self.skin_points, self.dispatches, self.draw_calls
        ));
        out.push_str(&format!(
            "result    {:.1} frames/s ({:.2} ms per frame over {} frames)\n",
            self.fps, self.frame_ms, self.frames
        ));
        if let Some(d) = &self.deform {
            out.push_str(&format!(
                "deform    {:.1} M points/s, {:.2} GB/s ({:.1} MB read and written per frame in {:.3} ms, {})\n",
                d.points_per_s / 1e6,
                d.gb_per_s,
                d.bytes_per_frame as f64 / 1e6,
                d.pass_ms,
                d.stage
            ));
        }
        out.push_str(&format!("{:<28} {:>9} {:>11} {:>9}\n", "stage", "clock", "median ms", "mean ms"));
        for s in &self.stages {
            out.push_str(&format!("{:<28} {:>9} {:>11.3} {:>9.3}\n", s.stage, s.clock, s.median_ms, s.mean_ms));
        }
        out
    }

    pub fn json(&self) -> String {
        // A struct of plain fields always serialises.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_of_odd_and_even_counts() {
        assert_eq!(median(&[]), 0.0);
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
    }

    #[test]
    fn samples_are_grouped_by_stage_and_clock() {
        let mut s = StageSamples::default();
        s.add("skin", "gpu", 1.0);
        s.add("draw", "cpu", 5.0);
        s.add("skin", "gpu", 3.0);
        s.add("skin", "cpu+wait", 9.0);
        let stages = s.summarise();
        assert_eq!(stages.len(), 3);
        assert_eq!((stages[0].stage.as_str(), stages[0].clock.as_str()), ("skin", "gpu"));
        assert_eq!(stages[0].median_ms, 2.0);
        assert_eq!(stages[2].clock, "cpu+wait");
    }

    #[test]
    fn deform_throughput_divides_by_the_trusted_clock() {
        let mut s = StageSamples::default();
        s.add("skin/morph (GPU)", "gpu", 0.5);
        s.add("skin/morph (alone)", "cpu+wait", 2.0);
        let stages = s.summarise();
        let gpu = DeformThroughput::from_stages(&stages, true, 1_000_000, 4_000_000_000).unwrap();
        assert_eq!((gpu.pass_ms, gpu.points_per_s, gpu.gb_per_s), (0.5, 2e9, 8000.0));
        let waited = DeformThroughput::from_stages(&stages, false, 1_000_000, 4_000_000_000).unwrap();
        assert_eq!((waited.pass_ms, waited.points_per_s, waited.gb_per_s), (2.0, 5e8, 2000.0));
        assert!(DeformThroughput::from_stages(&[], true, 1, 1).is_none());
    }
}
