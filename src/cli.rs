//! Command line: clap subcommands. Each returns the process exit code.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

use crate::gpu::GpuContext;
use crate::hanim;
use crate::inspect::{check, info};

#[derive(Debug, Parser)]
#[command(name = "hanim-viewer", version, about = "Viewer and checker for X3D H-Anim humanoids")]
#[command(args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Without a command: the humanoid file to open in the window (none: an empty window with File ▸ Open).
    pub file: Option<PathBuf>,
    /// Without a command: run the actions in this file, one per frame (see the README's "Scripted runs").
    #[arg(long)]
    pub script: Option<PathBuf>,
    /// Without a command: pick the adapter whose name contains this text.
    #[arg(long)]
    pub adapter: Option<String>,
    /// Without a command: the window's inner size in logical pixels, e.g. 1280x800.
    #[arg(long, value_parser = parse_size)]
    pub size: Option<(u32, u32)>,
    /// Without a command: the .amc motion of an .asf file (default: the first .amc beside it whose name
    /// starts with the ASF's number, e.g. 07_05.amc for 07.asf).
    #[arg(long, value_name = "AMC")]
    pub motion: Option<PathBuf>,
    /// Without a command: frames per second of .amc motions (default 120, CMU's rate) and .bvh files
    /// (default: their Frame Time).
    #[arg(long, value_name = "FPS", value_parser = crate::mocap::cli::parse_fps)]
    pub fps: Option<f64>,
    /// Without a command: retarget this AMC motion (its skeleton in --asf) onto the humanoid and play it;
    /// the Motion capture window edits its bone mapping.
    #[arg(long, value_name = "AMC", requires_all = ["asf", "file"], conflicts_with_all = ["bvh", "motion"])]
    pub amc: Option<PathBuf>,
    /// Without a command: the ASF skeleton of --amc.
    #[arg(long, value_name = "ASF", requires = "amc")]
    pub asf: Option<PathBuf>,
    /// Without a command: retarget this BVH motion onto the humanoid and play it.
    #[arg(long, value_name = "BVH", requires = "file", conflicts_with = "motion")]
    pub bvh: Option<PathBuf>,
    /// Without a command: the bone mapping for --amc/--bvh (text file, `SOURCE TARGET…` per line;
    /// default: the built-in CMU table that fits the capture).
    #[arg(long, value_name = "FILE")]
    pub map: Option<PathBuf>,
}

fn parse_size(text: &str) -> std::result::Result<(u32, u32), String> {
    let (w, h) = text.split_once('x').ok_or_else(|| format!("'{text}' is not WIDTHxHEIGHT"))?;
    let parse = |v: &str| v.trim().parse::<u32>().ok().filter(|&n| (64..=16384).contains(&n));
    match (parse(w), parse(h)) {
        (Some(w), Some(h)) => Ok((w, h)),
        _ => Err(format!("'{text}' is not WIDTHxHEIGHT with sides from 64 to 16384")),
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print what a humanoid file holds: names, LOA, info fields, counts, motions, rest-pose bounds, warnings.
    Info {
        /// The humanoid file (omit with --gpu to describe only the GPU).
        #[arg(required_unless_present = "gpu")]
        file: Option<PathBuf>,
        /// Print JSON (stable keys, documented in the README) instead of text.
        #[arg(long)]
        json: bool,
        /// Also describe the GPU adapter the viewer would use (name, backend, type).
        #[arg(long)]
        gpu: bool,
        /// Pick the adapter whose name contains this text.
        #[arg(long)]
        adapter: Option<String>,
    },
    /// Validate a humanoid against the H-Anim rules; exit 0 when clean, 1 when errors were found.
    Check {
        file: PathBuf,
        /// Print the findings as JSON.
        #[arg(long)]
        json: bool,
        /// Skip the GPU-versus-CPU deformation agreement check.
        #[arg(long)]
        no_gpu: bool,
        /// Pick the adapter whose name contains this text.
        #[arg(long)]
        adapter: Option<String>,
        /// Number of seeded random poses for the GPU agreement check.
        #[arg(long, default_value_t = 8)]
        gpu_poses: usize,
    },
    /// Render the humanoids offscreen on the GPU and write a PNG (pose joints and displacers, pick a view).
    Render(crate::headless::RenderArgs),
    /// List every viewpoint of a file (site cameras, eye views, file Viewpoints, computed views) with
    /// where it comes from, position, orientation and field of view at the rest pose.
    Views(crate::views::command::ViewsArgs),
    /// Render every humanoid of the inputs in the standard views, with a contact sheet per humanoid and
    /// an index.html; exit 1 when any input failed.
    Catalog(crate::views::catalog::CatalogArgs),
    /// Print every joint's effective rotation, translation and world centre, at rest or at a time or frame of a motion.
    Pose(crate::animation::pose_command::PoseArgs),
    /// Motion capture (ASF/AMC, BVH): import onto a humanoid as HAnimMotion, stick figures, mappings.
    Motion(crate::mocap::cli::MotionArgs),
}

fn load(path: &Path) -> Result<hanim::Document> {
    // An ASF or BVH skeleton is shown as its stick-figure humanoid.
    if let Some(doc) = crate::mocap::stick_document_for(path) {
        return doc;
    }
    // The error already names the file and position; no extra context needed.
    Ok(hanim::load(path)?)
}

fn print(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).context("writing to stdout")?;
    Ok(())
}

pub fn run(cli: Cli) -> Result<ExitCode> {
    let Some(command) = cli.command else {
        let capture = crate::mocap::WindowCapture::new(cli.file.as_deref(), cli.motion.as_deref(), cli.fps)?;
        let retarget = crate::mocap::session::CaptureRequest::from_args(
            cli.asf.as_deref(),
            cli.amc.as_deref(),
            cli.bvh.as_deref(),
            cli.map.as_deref(),
        )?;
        if let Some(request) = &retarget {
            request.check(cli.fps)?;
        }
        return crate::app::run(crate::app::Options {
            retarget,
            file: cli.file,
            script: cli.script,
            adapter: cli.adapter,
            size: cli.size,
            capture,
        });
    };
    match command {
        Command::Info { file, json, gpu, adapter } => {
            let adapter_summary = if gpu {
                Some(
                    GpuContext::headless(adapter.as_deref())
                        .map(|ctx| (ctx.summary.clone(), ctx.skin_capacity()))
                        .map_err(|e| anyhow::anyhow!(e))?,
                )
            } else {
                None
            };
            let summary = match &file {
                Some(file) => {
                    let doc = load(file)?;
                    Some(info::summarize(file, &doc)?)
                }
                None => None,
            };
            if json {
                let mut value = match &summary {
                    Some(s) => serde_json::to_value(s)?,
                    None => serde_json::json!({}),
                };
                if let Some((a, capacity)) = &adapter_summary {
                    value["gpu_adapter"] = serde_json::to_value(a)?;
                    value["gpu_capacity"] = serde_json::to_value(capacity)?;
                }
                print(&(serde_json::to_string_pretty(&value)? + "\n"))?;
            } else {
                if let Some((a, c)) = &adapter_summary {
                    print(&format!(
                        "GPU adapter: {}\n  backend: {}\n  type: {}\n  driver: {}\n\
                         largest skin: {} points, {} influences, {} displacements ({} bytes per buffer, {} vertices per dispatch)\n",
                        a.name,
                        a.backend,
                        a.device_type,
                        a.driver,
                        c.max_skin_points,
                        c.max_influences,
                        c.max_displacements,
                        c.max_storage_bytes,
                        c.max_dispatch_vertices
                    ))?;
                }
                if let Some(s) = &summary {
                    print(&info::render_text(s))?;
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Check { file, json, no_gpu, adapter, gpu_poses } => {
            let doc = load(&file)?;
            let mut report = check::check(&doc);
            if !no_gpu {
                check::check_gpu_agreement(&doc, &mut report, adapter.as_deref(), gpu_poses);
            }
            if json {
                print(&(serde_json::to_string_pretty(&report)? + "\n"))?;
            } else {
                print(&report.render_text())?;
            }
            Ok(if report.is_clean() { ExitCode::SUCCESS } else { ExitCode::from(1) })
        }
        Command::Render(args) => {
            crate::headless::run(&args)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Views(args) => {
            crate::views::command::run(&args)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Catalog(args) => crate::views::catalog::run(&args),
        Command::Pose(args) => {
            crate::animation::pose_command::run(&args)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Motion(args) => {
            crate::mocap::cli::run(&args)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// clap's own consistency checks over every subcommand (duplicate argument names, `requires` and
    /// `conflicts_with` naming arguments that exist): debug builds would otherwise find them only at run time.
    #[test]
    fn the_command_line_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
