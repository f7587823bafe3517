//! `man`: the manual page, generated from the command line's clap definition (roff, section 1). Printed
//! to stdout (`hanim-viewer man | man -l -`), or with `--out-dir` one page per command written there
//! (`hanim-viewer.1`, `hanim-viewer-info.1`, …, `hanim-viewer-motion-import.1`) for `MANPATH` or a package.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;

#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write every page (the program's and one per subcommand, nested ones too) into this folder instead
    /// of printing the program's page; e.g. `--out-dir ~/.local/share/man/man1`.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
}

/// The roff text of `cmd`'s page.
pub fn page(cmd: clap::Command) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut out).context("rendering the manual page")?;
    Ok(out)
}

/// Every page: `(file name, roff)` for the program and each subcommand (depth first, `help` left out),
/// named `hanim-viewer-<command>[-<subcommand>].1` as man pages of git-style commands are.
pub fn pages(mut cli: clap::Command) -> Result<Vec<(String, Vec<u8>)>> {
    cli.build();
    let mut pages = Vec::new();
    collect(&cli, &mut pages)?;
    Ok(pages)
}

fn collect(cmd: &clap::Command, pages: &mut Vec<(String, Vec<u8>)>) -> Result<()> {
    let name = cmd.get_display_name().unwrap_or_else(|| cmd.get_name()).to_string();
    pages.push((format!("{name}.1"), page(cmd.clone())?));
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set() && s.get_name() != "help") {
        collect(sub, pages)?;
    }
    Ok(())
}

/// Writes every page into `dir` (each atomically); the paths written.
pub fn write_pages(cli: clap::Command, dir: &Path) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for (name, roff) in pages(cli)? {
        let path = dir.join(name);
        crate::output::write_atomically(&path, &roff)?;
        written.push(path);
    }
    Ok(written)
}

pub fn run(args: &ManArgs, cli: clap::Command) -> Result<()> {
    match &args.out_dir {
        None => super::print_bytes(&page(cli)?),
        Some(dir) => {
            let written = write_pages(cli, dir)?;
            let list: String = written.iter().map(|p| format!("{}\n", p.display())).collect();
            super::print(&list)
        }
    }
}
