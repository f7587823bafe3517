//! `hanim-viewer convert`: a file written again in another X3D encoding (XML, ClassicVRML, JSON, each
//! optionally gzip-compressed), keeping DEF/USE, PROTOs, ROUTEs, comments and UNIT statements
//! ([`crate::x3d::syntax`]); written atomically.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};

use super::print;
use crate::x3d::Encoding;
use crate::x3d::syntax::convert::{OutputKind, convert_bytes_noting, output_kind};

/// The encoding named on the command line when the output's extension says none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EncodingArg {
    Xml,
    Classic,
    Json,
}

/// `hanim-viewer convert` arguments.
#[derive(Debug, Clone, clap::Args)]
pub struct ConvertArgs {
    /// The X3D file to convert, in any encoding (X3D XML, ClassicVRML, VRML97, X3D JSON; gzip or not).
    pub file: PathBuf,
    /// Where to write: .x3d, .x3dv, .x3dj (.x3dz, .x3dvz, .x3djz or a trailing .gz: gzip-compressed).
    #[arg(long)]
    pub out: PathBuf,
    /// The encoding to write when OUT's extension names none.
    #[arg(long, value_enum)]
    pub to: Option<EncodingArg>,
}

/// Exit 0 when the file was written.
pub fn run(args: &ConvertArgs) -> Result<ExitCode> {
    let kind = match (output_kind(&args.out), args.to) {
        (Some(kind), None) => kind,
        (Some(kind), Some(to)) if kind.encoding == encoding(to) => kind,
        (Some(kind), Some(to)) => bail!(
            "--out {} names {} but --to asks for {}; leave one out",
            args.out.display(),
            name(kind.encoding),
            name(encoding(to))
        ),
        (None, Some(to)) => OutputKind { encoding: encoding(to), gzip: false },
        (None, None) => bail!(
            "--out {}: the extension names no X3D encoding (.x3d, .x3dv, .x3dj, their gzip forms); give --to",
            args.out.display()
        ),
    };
    if let (Ok(a), Ok(b)) = (args.file.canonicalize(), args.out.canonicalize())
        && a == b
    {
        bail!("--out {} is the input file; convert writes a new file", args.out.display());
    }
    let options = crate::x3d::LoadOptions::default();
    // Through the program's one door (regular files only, bounded, never blocking on a FIFO).
    let bytes = crate::x3d::read_document(&args.file)?;
    let (written, warnings) = convert_bytes_noting(&bytes, &args.file, kind, options.max_decompressed_bytes)?;
    for warning in &warnings {
        eprintln!("{warning}");
    }
    crate::output::write_atomically(&args.out, &written).with_context(|| format!("writing {}", args.out.display()))?;
    print(&format!("wrote {} ({:?}{})\n", args.out.display(), kind.encoding, if kind.gzip { ", gzip" } else { "" }))?;
    Ok(ExitCode::SUCCESS)
}

fn name(encoding: Encoding) -> &'static str {
    match encoding {
        Encoding::Xml => "X3D XML",
        Encoding::Classic => "ClassicVRML",
        Encoding::Json => "X3D JSON",
    }
}

fn encoding(arg: EncodingArg) -> Encoding {
    match arg {
        EncodingArg::Xml => Encoding::Xml,
        EncodingArg::Classic => Encoding::Classic,
        EncodingArg::Json => Encoding::Json,
    }
}
