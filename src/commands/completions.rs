//! `completions SHELL`: a completion script for the shell, generated from the command line's clap
//! definition (so it always lists the subcommands and options this binary has).

use anyhow::Result;
use clap::Args;
use clap_complete::Shell;

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete in. Install, e.g.: `hanim-viewer completions bash >
    /// ~/.local/share/bash-completion/completions/hanim-viewer`, `hanim-viewer completions zsh >
    /// ~/.zfunc/_hanim-viewer`, `hanim-viewer completions fish > ~/.config/fish/completions/hanim-viewer.fish`.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// The script for `shell`, completing the program `cli` describes.
pub fn script(shell: Shell, mut cli: clap::Command) -> Vec<u8> {
    let name = cli.get_name().to_string();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cli, name, &mut out);
    out
}

pub fn run(args: &CompletionsArgs, cli: clap::Command) -> Result<()> {
    super::print_bytes(&script(args.shell, cli))
}
