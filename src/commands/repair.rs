//! `hanim-viewer repair`: write a corrected copy of an X3D XML humanoid file for the portability findings
//! of `check` that have a fix ([`crate::inspect::repair`]), touching only what it fixes.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};

use super::print;
use crate::inspect::repair::{self, REPAIRED_CODES};

/// `hanim-viewer repair` arguments.
#[derive(Debug, Clone, clap::Args)]
pub struct RepairArgs {
    /// The X3D XML file to repair (it is not changed).
    pub file: PathBuf,
    /// Where to write the corrected copy (written atomically; never the input file).
    #[arg(long)]
    pub out: PathBuf,
    /// Fix only these codes (e.g. HANIM-JOINTS-DUPLICATED); default: every code repair knows.
    #[arg(long, value_name = "CODE", num_args = 1..)]
    pub only: Vec<String>,
    /// Print what was changed as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Exit 0 when the copy was written.
pub fn run(args: &RepairArgs) -> Result<ExitCode> {
    for code in &args.only {
        if !repair::is_repaired(code) {
            bail!("--only {code}: repair does not fix this code (it fixes {})", REPAIRED_CODES.join(", "));
        }
    }
    if same_file(&args.file, &args.out) {
        bail!("--out {} is the input file; repair writes a copy", args.out.display());
    }
    let bytes = crate::x3d::read_document(&args.file)?;
    if bytes.starts_with(&[0x1f, 0x8b]) {
        bail!(
            "{}: gzip-compressed; repair edits uncompressed X3D XML files only (gunzip it first)",
            args.file.display()
        );
    }
    let Ok(text) = std::str::from_utf8(&bytes) else {
        bail!("{}: not UTF-8; repair edits UTF-8 X3D XML files only", args.file.display());
    };
    // Scene offsets count from after a byte-order mark; it is written back unchanged.
    let (bom, body) = match text.strip_prefix('\u{feff}') {
        Some(rest) => ("\u{feff}", rest),
        None => ("", text),
    };
    let doc = crate::hanim::load(&args.file)?;
    let only: Vec<&str> = args.only.iter().map(String::as_str).collect();
    let repaired = repair::repair(&doc, body, &only)?;
    crate::output::write_atomically(&args.out, format!("{bom}{}", repaired.text).as_bytes())
        .with_context(|| format!("writing {}", args.out.display()))?;
    if args.json {
        let out = serde_json::json!({
            "file": args.file.display().to_string(),
            "out": args.out.display().to_string(),
            "changes": repaired.changes,
            "skipped": repaired.skipped,
        });
        print(&(serde_json::to_string_pretty(&out)? + "\n"))?;
    } else {
        let mut text = String::new();
        for c in &repaired.changes {
            text.push_str(&format!("fixed[{}] {}\n", c.code, c.message));
        }
        for c in &repaired.skipped {
            text.push_str(&format!("left[{}] {}\n", c.code, c.message));
        }
        text.push_str(&format!(
            "{} changes, {} left; wrote {}\n",
            repaired.changes.len(),
            repaired.skipped.len(),
            args.out.display()
        ));
        print(&text)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}
