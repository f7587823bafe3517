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
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
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
}

fn load(path: &Path) -> Result<hanim::Document> {
    // The error already names the file and position; no extra context needed.
    Ok(hanim::load(path)?)
}

fn print(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).context("writing to stdout")?;
    Ok(())
}

pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Info { file, json, gpu, adapter } => {
            let adapter_summary = if gpu {
                Some(
                    GpuContext::headless(adapter.as_deref())
                        .map(|ctx| ctx.summary.clone())
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
                if let Some(a) = &adapter_summary {
                    value["gpu_adapter"] = serde_json::to_value(a)?;
                }
                print(&(serde_json::to_string_pretty(&value)? + "\n"))?;
            } else {
                if let Some(a) = &adapter_summary {
                    print(&format!(
                        "GPU adapter: {}\n  backend: {}\n  type: {}\n  driver: {}\n",
                        a.name, a.backend, a.device_type, a.driver
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
    }
}
