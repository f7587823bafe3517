//! `hanim-viewer views FILE [--json]`: every viewpoint of a file at the rest pose, with where it comes
//! from.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;

use anyhow::{Context, Result};

use crate::pose::Pose;
use crate::views::{ResolvedView, resolve_document_views};

/// `hanim-viewer views` arguments.
#[derive(Debug, Clone, clap::Args)]
pub struct ViewsArgs {
    /// The X3D file.
    pub file: PathBuf,
    /// Print JSON (an object with `file` and `views`; keys documented in docs/guide/pictures.md) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// What `views --json` prints.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ViewsReport {
    pub file: String,
    /// Computed views are placed for a square image.
    pub aspect: f32,
    pub views: Vec<ResolvedView>,
}

/// The views of `file` at the rest pose.
pub fn report(file: &std::path::Path) -> Result<ViewsReport> {
    let doc = crate::hanim::load(file)?;
    let poses: Vec<Pose> = doc.humanoids.iter().map(Pose::rest).collect();
    let aspect = 1.0;
    let views = resolve_document_views(&doc, &poses, aspect)?;
    Ok(ViewsReport { file: file.display().to_string(), aspect, views })
}

fn degrees(radians: f32) -> f32 {
    radians.to_degrees()
}

/// The human-readable form: one block per view.
pub fn render_text(r: &ViewsReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}: {} views (rest pose; computed views framed for a square image)", r.file, r.views.len());
    for (i, v) in r.views.iter().enumerate() {
        let owner = v.humanoid.as_deref().map(|h| format!("humanoid '{h}'")).unwrap_or_else(|| "scene".to_string());
        let def = v.def.as_deref().map(|d| format!("  DEF {d}")).unwrap_or_default();
        let _ = writeln!(out, "{:>3}. {}{def}  ({owner})", i + 1, v.label);
        let _ = writeln!(out, "     from: {}", v.origin);
        if !v.description.is_empty() && v.description != v.label {
            let _ = writeln!(out, "     description: {}", v.description);
        }
        let [x, y, z] = v.position;
        let [ax, ay, az, angle] = v.orientation;
        let [dx, dy, dz] = v.direction;
        let _ = writeln!(
            out,
            "     position ({x:.4}, {y:.4}, {z:.4})  orientation {ax:.4} {ay:.4} {az:.4} {angle:.4}  \
             looking ({dx:.3}, {dy:.3}, {dz:.3})  field of view {:.1}°",
            degrees(v.field_of_view)
        );
    }
    out
}

pub fn run(args: &ViewsArgs) -> Result<()> {
    let r = report(&args.file)?;
    let text = if args.json { serde_json::to_string_pretty(&r)? + "\n" } else { render_text(&r) };
    std::io::stdout().lock().write_all(text.as_bytes()).context("writing to stdout")?;
    Ok(())
}
