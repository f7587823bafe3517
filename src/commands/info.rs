//! `hanim-viewer info`: what a humanoid file holds (names, LOA, info fields, counts, motions, rest-pose
//! bounds, warnings), and what the GPU adapter the viewer would use can hold.

use std::path::PathBuf;

use anyhow::Result;

use super::{load_document, print};
use crate::gpu::GpuContext;
use crate::inspect::info;

/// `hanim-viewer info` arguments.
#[derive(Debug, Clone, clap::Args)]
pub struct InfoArgs {
    /// The humanoid file (omit with --gpu to describe only the GPU).
    #[arg(required_unless_present = "gpu")]
    pub file: Option<PathBuf>,
    /// Print JSON (stable keys, documented in docs/guide/checking.md) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also describe the GPU adapter the viewer would use (name, backend, type).
    #[arg(long)]
    pub gpu: bool,
    /// Pick the adapter whose name contains this text.
    #[arg(long)]
    pub adapter: Option<String>,
}

pub fn run(args: &InfoArgs) -> Result<()> {
    let adapter_summary = if args.gpu {
        let ctx = GpuContext::headless(args.adapter.as_deref())?;
        Some((ctx.summary.clone(), ctx.skin_capacity()))
    } else {
        None
    };
    let summary = match &args.file {
        Some(file) => Some(info::summarize(file, &load_document(file)?)?),
        None => None,
    };
    if args.json {
        let mut value = match &summary {
            Some(s) => serde_json::to_value(s)?,
            None => serde_json::json!({}),
        };
        if let Some((a, capacity)) = &adapter_summary {
            value["gpu_adapter"] = serde_json::to_value(a)?;
            value["gpu_capacity"] = serde_json::to_value(capacity)?;
        }
        return print(&(serde_json::to_string_pretty(&value)? + "\n"));
    }
    if let Some((a, c)) = &adapter_summary {
        print(&format!(
            "GPU adapter: {}\n  backend: {}\n  type: {}\n  driver: {}\n\
             largest skin: {} points, {} influences, {} displacements ({} bytes per buffer, {} vertices per dispatch)\n",
            a.name,
            a.backend,
            a.device_type,
            a.driver,
            c.max_skin_points,
            c.max_influences,
            c.max_displacements,
            c.max_storage_bytes,
            c.max_dispatch_vertices
        ))?;
    }
    if let Some(s) = &summary {
        print(&info::render_text(s))?;
    }
    Ok(())
}
