//! Command line: clap subcommands. Each returns the process exit code.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

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
        file: PathBuf,
        /// Print JSON (stable keys, documented in the README) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Validate a humanoid against the H-Anim rules; exit 0 when clean, 1 when errors were found.
    Check {
        file: PathBuf,
        /// Print the findings as JSON.
        #[arg(long)]
        json: bool,
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
        Command::Info { file, json } => {
            let doc = load(&file)?;
            let summary = info::summarize(&file, &doc)?;
            if json {
                print(&(serde_json::to_string_pretty(&summary)? + "\n"))?;
            } else {
                print(&info::render_text(&summary))?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Check { file, json } => {
            let doc = load(&file)?;
            let report = check::check(&doc);
            if json {
                print(&(serde_json::to_string_pretty(&report)? + "\n"))?;
            } else {
                print(&report.render_text())?;
            }
            Ok(if report.is_clean() { ExitCode::SUCCESS } else { ExitCode::from(1) })
        }
    }
}
