//! `hanim-viewer bench`: frames per second and the time of each stage of a frame drawn as the window
//! draws it — the 3D view alone, headless (the default), or the whole window with its UI, presented
//! (`--window`) — as a table or JSON.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};

use super::args::parse_size;
use crate::gpu::GpuContext;
use crate::render::ImageSize;
use crate::render::bench::{ViewBenchOptions, bench_view};

/// `hanim-viewer bench` arguments.
#[derive(Debug, Clone, clap::Args)]
pub struct BenchArgs {
    /// The humanoid file to draw.
    pub file: PathBuf,
    /// The 3D view's size (headless) or the window's inner size (`--window`), WIDTHxHEIGHT.
    #[arg(long, default_value = "800x600", value_parser = parse_size)]
    pub size: ImageSize,
    /// Frames measured (after the warm-up frames).
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..))]
    pub frames: u32,
    /// Frames drawn before measuring (pipelines compiled, caches warm).
    #[arg(long, default_value_t = 30)]
    pub warmup: u32,
    /// The clip to play (HAnimMotion name or DEF, TimeSensor DEF); default: the first the file enables,
    /// else its first clip.
    #[arg(long, value_name = "NAME")]
    pub motion: Option<String>,
    /// Draw N copies of the file side by side, each at its own clip time (headless only).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub copies: u32,
    /// Give each copy, each humanoid the file repeats and each rigid shape its own draws and skin
    /// passes instead of batching them into instanced draws and merged skins (to compare in one binary).
    #[arg(long)]
    pub unbatched: bool,
    /// Measure the whole window (UI included, presented), not the 3D view alone; needs a display.
    #[arg(long, conflicts_with = "copies")]
    pub window: bool,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Use the GPU adapter whose name contains NAME (e.g. `llvmpipe`).
    #[arg(long, value_name = "NAME")]
    pub adapter: Option<String>,
}

pub fn run(args: &BenchArgs) -> Result<()> {
    let report = if args.window {
        let plan = crate::app::WindowBench { frames: args.frames, warmup: args.warmup, motion: args.motion.clone() };
        let options = crate::app::Options {
            file: Some(args.file.clone()),
            adapter: args.adapter.clone(),
            size: Some((args.size.width, args.size.height)),
            ..Default::default()
        };
        crate::app::bench_window(options, plan)?
    } else {
        if !args.file.exists() {
            bail!("{}: no such file", args.file.display());
        }
        let doc = super::load_document(&args.file)?;
        let ctx = GpuContext::headless(args.adapter.as_deref()).context("opening the GPU")?;
        let options = ViewBenchOptions {
            size: args.size,
            frames: args.frames,
            warmup: args.warmup,
            motion: args.motion.clone(),
            copies: args.copies as usize,
            batched: !args.unbatched,
            formats: crate::app::viewport::ViewportTarget::formats_for(&ctx.adapter_info),
        };
        let file = args.file.display().to_string();
        bench_view(&ctx, &doc, &file, &options).with_context(|| format!("benchmarking {file}"))?
    };
    super::print(&if args.json { report.json() + "\n" } else { report.table() })
}
