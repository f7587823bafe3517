//! `hanim-viewer convert`: a file written again in another X3D encoding (XML, ClassicVRML, JSON, each
//! optionally gzip-compressed), keeping DEF/USE, PROTOs, ROUTEs, comments and UNIT statements
//! ([`crate::x3d::syntax`]); or its humanoids written as glTF 2.0 (`.glb`, `.gltf`: [`crate::gltf::export`]).
//! A glTF or VRM input is read as the humanoid it holds ([`crate::gltf::import`]). Written atomically.

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
    /// Where to write: .x3d, .x3dv, .x3dj (.x3dz, .x3dvz, .x3djz or a trailing .gz: gzip-compressed), or
    /// glTF 2.0: .glb (binary, textures embedded) or .gltf (one JSON file, data embedded).
    #[arg(long)]
    pub out: PathBuf,
    /// glTF output: write the pose of this pose file (or `builtin:NAME`) as the rest pose.
    #[command(flatten)]
    pub pose_file: super::args::PoseFileArgs,
    /// glTF output: keep at most this many influences per vertex (the largest, renormalised); by default
    /// all are kept, in as many JOINTS_n/WEIGHTS_n sets as needed.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub max_influences: Option<u16>,
    /// The encoding to write when OUT's extension names none.
    #[arg(long, value_enum)]
    pub to: Option<EncodingArg>,
}

/// Exit 0 when the file was written.
pub fn run(args: &ConvertArgs) -> Result<ExitCode> {
    if let Some(binary) = crate::gltf::output_is_binary(&args.out) {
        if args.to.is_some() {
            bail!("--out {} asks for glTF; --to names X3D encodings only", args.out.display());
        }
        return run_gltf(args, binary);
    }
    if args.pose_file.pose_file.is_some() || args.max_influences.is_some() {
        bail!("--pose-file and --max-influences apply to glTF output (.glb, .gltf) only");
    }
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

/// The humanoids of `args.file` written as glTF 2.0.
fn run_gltf(args: &ConvertArgs, binary: bool) -> Result<ExitCode> {
    let doc = super::load_document(&args.file)?;
    let animations = crate::animation::Animations::from_document(&doc);
    for rejected in &animations.rejected {
        eprintln!("{rejected}");
    }
    let rest_poses = match args.pose_file.read()? {
        Some(file) => {
            let mut poses: Vec<crate::pose::Pose> = doc.humanoids.iter().map(crate::pose::Pose::rest).collect();
            args.pose_file.apply(&file, &doc, &mut poses)?;
            Some(poses)
        }
        None => None,
    };
    let options = crate::gltf::export::ExportOptions {
        binary,
        rest_poses,
        max_influences: args.max_influences.map(usize::from),
        ..Default::default()
    };
    let exported = crate::gltf::export::export_document(&doc, &animations, &options)
        .with_context(|| format!("exporting {}", args.file.display()))?;
    for note in &exported.report.notes {
        eprintln!("{note}");
    }
    crate::output::write_atomically(&args.out, &exported.bytes)
        .with_context(|| format!("writing {}", args.out.display()))?;
    let r = &exported.report;
    print(&format!(
        "wrote {} (glTF 2.0{}: {} joints, {} sites, {} meshes, {} morph targets, {} animations, {} cameras, {} images; \
         at most {} influences per vertex in {} set(s){})\n",
        args.out.display(),
        if binary { ", binary" } else { "" },
        r.joints,
        r.sites,
        r.meshes,
        r.morph_targets,
        r.animations,
        r.cameras,
        r.images,
        r.max_influences,
        r.influence_sets,
        if r.reduced_vertices > 0 { format!(", {} vertices reduced", r.reduced_vertices) } else { String::new() },
    ))?;
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
