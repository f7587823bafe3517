//! The command line's subcommands, one module each: its clap arguments and its `run`, and nothing other
//! code needs. Argument types several commands take are in [`args`]. Only `cli` (and tests) import this
//! module; everything it uses lives below it (see ARCHITECTURE.md).

pub mod animation_out;
pub mod args;
pub mod bench;
pub mod catalog;
pub mod check;
pub mod completions;
pub mod convert;
pub mod desktop;
pub mod info;
pub mod man;
pub mod motion;
pub mod motion_keys;
pub mod pose;
pub mod render;
pub mod repair;
pub mod views;

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Subcommand;

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print what a humanoid file holds: names, LOA, info fields, counts, motions, rest-pose bounds, warnings.
    Info(info::InfoArgs),
    /// Validate a humanoid against the H-Anim rules; exit 0 when clean, 1 when errors were found.
    Check(check::CheckArgs),
    /// Write a corrected copy of an X3D XML humanoid for the portability findings `check` reports
    /// (`joints` lists, shared skinCoord, centers, weights, motions, normals, DEF prefixes).
    Repair(repair::RepairArgs),
    /// Write a file in another X3D encoding (XML, ClassicVRML, JSON; gzip or not), keeping DEF/USE,
    /// PROTOs, ROUTEs, comments and units.
    Convert(convert::ConvertArgs),
    /// Render the humanoids offscreen on the GPU and write a PNG (pose joints and displacers, pick a view).
    Render(render::RenderArgs),
    /// List every viewpoint of a file (site cameras, eye views, file Viewpoints, computed views) with
    /// where it comes from, position, orientation and field of view at the rest pose.
    Views(views::ViewsArgs),
    /// Render every humanoid of the inputs in the standard views, with a contact sheet per humanoid and
    /// an index.html; exit 1 when any input failed.
    Catalog(catalog::CatalogArgs),
    /// Print every joint's effective rotation, translation and world centre, at rest or at a time or frame of a motion.
    Pose(pose::PoseArgs),
    /// Motion capture (ASF/AMC, BVH): import onto a humanoid as HAnimMotion, stick figures, mappings.
    Motion(motion::MotionArgs),
    /// Measure frames per second and the time of each stage of a frame: the 3D view alone (headless) or
    /// the whole window (`--window`), with a clip playing; `--copies N` draws N humanoids.
    Bench(bench::BenchArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(completions::CompletionsArgs),
    /// Print the manual page (roff), or write one page per command into a folder.
    Man(man::ManArgs),
    /// Add the desktop entry, icon and file types (Linux, XDG): under /usr/local/share, or with --user
    /// under $XDG_DATA_HOME (default ~/.local/share).
    InstallDesktop(desktop::DesktopArgs),
    /// Remove what install-desktop added (the same --user choice).
    UninstallDesktop(desktop::DesktopArgs),
}

/// Runs `command`; the exit code it asks for. `cli` gives the whole command line's clap definition, from
/// which `completions` and `man` are generated.
pub fn run(command: Command, cli: fn() -> clap::Command) -> Result<ExitCode> {
    match command {
        Command::Info(args) => info::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Check(args) => check::run(&args),
        Command::Repair(args) => repair::run(&args),
        Command::Convert(args) => convert::run(&args),
        Command::Render(args) => render::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Views(args) => views::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Catalog(args) => catalog::run(&args),
        Command::Pose(args) => pose::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Motion(args) => motion::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Bench(args) => bench::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Completions(args) => completions::run(&args, cli()).map(|()| ExitCode::SUCCESS),
        Command::Man(args) => man::run(&args, cli()).map(|()| ExitCode::SUCCESS),
        Command::InstallDesktop(args) => desktop::run_install(&args).map(|()| ExitCode::SUCCESS),
        Command::UninstallDesktop(args) => desktop::run_uninstall(&args).map(|()| ExitCode::SUCCESS),
    }
}

/// A humanoid file as `info` and `check` read it: an ASF or BVH skeleton as its stick-figure humanoid.
pub(crate) fn load_document(path: &Path) -> Result<crate::hanim::Document> {
    if let Some(doc) = crate::mocap::stick_document_for(path) {
        return Ok(doc?);
    }
    // The error already names the file and position; no extra context needed.
    Ok(crate::hanim::load(path)?)
}

fn print(text: &str) -> Result<()> {
    print_bytes(text.as_bytes())
}

fn print_bytes(bytes: &[u8]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes).context("writing to stdout")?;
    Ok(())
}
