//! The command line: without a subcommand it opens the window, otherwise it runs one of
//! [`crate::commands`]. Each returns the process exit code.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::{CommandFactory, Parser};

use crate::commands::args::{CaptureArgs, parse_window_size};
use crate::commands::{self, Command};

#[derive(Debug, Parser)]
#[command(name = "hanim-viewer", version = crate::VERSION, about = "Viewer and checker for X3D H-Anim humanoids")]
#[command(args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Without a command: the humanoid file to open in the window (none: an empty window with File ▸ Open).
    pub file: Option<PathBuf>,
    /// Without a command: run the actions in this file, one per frame (see docs/guide/scripting.md).
    #[arg(long)]
    pub script: Option<PathBuf>,
    /// Without a command: pick the adapter whose name contains this text.
    #[arg(long)]
    pub adapter: Option<String>,
    /// Without a command: the window's inner size in logical pixels, e.g. 1280x800.
    #[arg(long, value_parser = parse_window_size)]
    pub size: Option<(u32, u32)>,
    /// Without a command: the .amc motion of an .asf file (default: the first .amc beside it whose name
    /// starts with the ASF's number, e.g. 07_05.amc for 07.asf).
    #[arg(long, value_name = "AMC", conflicts_with = "clip")]
    pub motion: Option<PathBuf>,
    /// Without a command: a motion capture to retarget onto the humanoid FILE and play; the Motion
    /// capture window edits its bone mapping.
    #[command(flatten)]
    pub capture: CaptureArgs,
}

pub fn run(cli: Cli) -> Result<ExitCode> {
    if let Some(command) = cli.command {
        return commands::run(command, Cli::command);
    }
    let capture = crate::mocap::WindowCapture::new(cli.file.as_deref(), cli.motion.as_deref(), cli.capture.fps)?;
    let retarget = cli.capture.request()?;
    if let Some(request) = &retarget {
        if cli.file.is_none() {
            bail!("--amc and --bvh retarget onto a humanoid: give the humanoid FILE too");
        }
        request.check(cli.capture.fps)?;
    }
    crate::app::run(crate::app::Options {
        retarget,
        file: cli.file,
        script: cli.script,
        adapter: cli.adapter,
        size: cli.size,
        capture,
        bench: None,
    })
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
