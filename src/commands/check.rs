//! `hanim-viewer check`: validate a humanoid against the H-Anim rules ([`crate::inspect::check`]) and
//! check that the GPU deforms it as the CPU reference does.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use super::{load_document, print};
use crate::gpu::{GpuContext, agreement};
use crate::hanim::Document;
use crate::inspect::check::{self, GPU_TOLERANCE, Report, Severity};

/// `hanim-viewer check` arguments.
#[derive(Debug, Clone, clap::Args)]
pub struct CheckArgs {
    pub file: PathBuf,
    /// Print the findings as JSON.
    #[arg(long)]
    pub json: bool,
    /// Skip the GPU-versus-CPU deformation agreement check.
    #[arg(long)]
    pub no_gpu: bool,
    /// Pick the adapter whose name contains this text.
    #[arg(long)]
    pub adapter: Option<String>,
    /// Number of seeded random poses for the GPU agreement check.
    #[arg(long, default_value_t = 8)]
    pub gpu_poses: usize,
}

/// Exit 0 when clean, 1 when errors were found.
pub fn run(args: &CheckArgs) -> Result<ExitCode> {
    let doc = load_document(&args.file)?;
    let mut report = check::check(&doc);
    if !args.no_gpu {
        check_gpu_agreement(&doc, &mut report, args.adapter.as_deref(), args.gpu_poses);
    }
    if args.json {
        print(&(serde_json::to_string_pretty(&report)? + "\n"))?;
    } else {
        print(&report.render_text())?;
    }
    Ok(if report.is_clean() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// Deforms every humanoid with seeded random poses on the GPU and compares with the CPU reference; adds
/// `gpu_adapter`/`gpu_max_error` to the report and an error above [`GPU_TOLERANCE`]. No adapter is a
/// warning: the file is not at fault.
pub fn check_gpu_agreement(doc: &Document, report: &mut Report, adapter: Option<&str>, poses: usize) {
    let path = doc.scene.main_path().to_path_buf();
    let deformable =
        doc.humanoids.iter().any(|h| h.skin.is_some() || h.segments.iter().any(|s| !s.coord_points.is_empty()));
    if !deformable {
        return;
    }
    let ctx = match GpuContext::headless(adapter) {
        Ok(ctx) => ctx,
        Err(e) => {
            report.add(Severity::Warning, "gpu-agreement", &path, format!("GPU agreement not checked: {e}"));
            return;
        }
    };
    report.gpu_adapter = Some(ctx.summary.to_string());
    let mut worst = 0.0f32;
    for h in &doc.humanoids {
        match agreement::measure(&ctx, h, poses, 0x5EED) {
            Ok(a) => worst = worst.max(a.max_error()),
            Err(e) => {
                report.add(
                    Severity::Error,
                    "gpu-agreement",
                    &path,
                    format!("humanoid '{}': GPU deformation failed: {e}", h.name),
                );
            }
        }
    }
    report.gpu_max_error = Some(worst);
    if worst > GPU_TOLERANCE {
        report.add(
            Severity::Error,
            "gpu-agreement",
            &path,
            format!(
                "GPU and CPU deformation differ by {worst:.3e} of the bounding-box diagonal (limit {GPU_TOLERANCE:.0e})"
            ),
        );
    }
}
