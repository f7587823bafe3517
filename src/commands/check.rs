//! `hanim-viewer check`: validate a humanoid against the H-Anim rules ([`crate::inspect::check`]) and
//! check that the GPU deforms it as the CPU reference does.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use super::{load_document, print};
use crate::animation::Animations;
use crate::animation::limit_report::clip_limit_report;
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
    /// Keep only the findings known to break this player (`all`: any of them); exit 1 when any remains.
    #[arg(long = "for", value_name = "PLAYER", value_parser = ["x_ite", "castle", "x3dom", "freewrl", "all"])]
    pub for_player: Option<String>,
    /// Instead of the rules: every frame of this clip (HAnimMotion name or DEF, TimeSensor DEF) where a
    /// joint leaves its llimit/ulimit, worst first; exit 1 when there is any.
    #[arg(long, value_name = "NAME", conflicts_with = "for_player")]
    pub motion: Option<String>,
}

/// Exit 0 when clean, 1 when errors were found.
pub fn run(args: &CheckArgs) -> Result<ExitCode> {
    let doc = load_document(&args.file)?;
    if let Some(name) = &args.motion {
        return limit_report(&doc, name, args.json);
    }
    let mut report = check::check(&doc);
    if !args.no_gpu && args.for_player.is_none() {
        check_gpu_agreement(&doc, &mut report, args.adapter.as_deref(), args.gpu_poses);
    }
    let clean = match args.for_player.as_deref() {
        Some(player) => {
            report.keep_breaking(player);
            report.findings.is_empty()
        }
        None => report.is_clean(),
    };
    if args.json {
        print(&(serde_json::to_string_pretty(&report)? + "\n"))?;
    } else {
        print(&report.render_text())?;
    }
    Ok(if clean { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// `check --motion NAME`: the frames of one clip where joints leave their limits.
fn limit_report(doc: &Document, name: &str, json: bool) -> Result<ExitCode> {
    let animations = Animations::from_document(doc);
    let Some(index) = animations.find(name) else {
        let names: Vec<&str> = animations.clips.iter().map(|c| c.name()).collect();
        anyhow::bail!(
            "{}: no clip named '{name}' (clips: {})",
            args_path(doc).display(),
            if names.is_empty() { "none".to_string() } else { names.join(", ") }
        );
    };
    let excesses = clip_limit_report(doc, &animations, index);
    if json {
        let out = serde_json::json!({ "clip": animations.clips[index].name(), "excesses": excesses });
        print(&(serde_json::to_string_pretty(&out)? + "\n"))?;
    } else {
        let mut text = String::new();
        for e in &excesses {
            text.push_str(&e.describe());
            text.push('\n');
        }
        let frames: std::collections::BTreeSet<usize> = excesses.iter().map(|e| e.frame).collect();
        text.push_str(&format!(
            "clip '{}': {} limit excesses on {} frames\n",
            animations.clips[index].name(),
            excesses.len(),
            frames.len()
        ));
        print(&text)?;
    }
    Ok(if excesses.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn args_path(doc: &Document) -> &std::path::Path {
    doc.scene.main_path()
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
