//! `hanim-viewer info`: what a file holds, as text or as JSON with stable keys (documented in docs/guide/checking.md).

use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;

use crate::hanim::{BindingMode, DisplacerOwner, Document, Humanoid};
use crate::pose::Pose;
use crate::x3d::{Warning, X3dError};

use crate::pose::bounds::humanoid_bounds;

#[derive(Debug, Clone, Serialize)]
pub struct InfoEntry {
    pub key: String,
    pub value: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct MotionSummary {
    pub name: String,
    pub frames: usize,
    pub channels: usize,
    pub frame_duration: f64,
    pub enabled: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct Counts {
    pub joints: usize,
    pub segments: usize,
    pub sites: usize,
    pub viewpoint_sites: usize,
    pub displacers_on_joints: usize,
    pub displacers_on_segments: usize,
    pub motions: usize,
    pub skin_points: usize,
    pub skinned_joints: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct BoundingBox {
    pub min: [f32; 3],
    pub max: [f32; 3],
    pub size: [f32; 3],
}

#[derive(Debug, Clone, Serialize)]
pub struct HumanoidSummary {
    pub name: String,
    pub def: Option<String>,
    pub version: String,
    pub loa: i32,
    pub skeletal_configuration: String,
    pub description: String,
    pub info: Vec<InfoEntry>,
    pub counts: Counts,
    pub motions: Vec<MotionSummary>,
    pub binding: BindingMode,
    /// World-space bounds at the rest pose (the file's values); `null` when the humanoid has no extent.
    pub rest_bbox: Option<BoundingBox>,
    pub warning_count: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct WarningEntry {
    pub file: String,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub message: String,
}

impl From<&Warning> for WarningEntry {
    fn from(w: &Warning) -> Self {
        Self {
            file: w.pos.file.display().to_string(),
            line: w.pos.at.map(|a| a.line),
            column: w.pos.at.map(|a| a.column),
            message: w.message.clone(),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub file: String,
    pub x3d_version: String,
    pub profile: String,
    pub humanoids: Vec<HumanoidSummary>,
    /// Viewpoints and Shapes outside any humanoid.
    pub scene_viewpoints: usize,
    pub scene_shapes: usize,
    pub warnings: Vec<WarningEntry>,
}

fn summarize_humanoid(doc: &Document, h: &Humanoid) -> Result<HumanoidSummary, X3dError> {
    let joint_displacers = h.displacers.iter().filter(|d| matches!(d.owner, DisplacerOwner::Joint(_))).count();
    let bounds = humanoid_bounds(&doc.scene, h, &Pose::rest(h))?;
    Ok(HumanoidSummary {
        name: h.name.clone(),
        def: h.def.clone(),
        version: h.version.clone(),
        loa: h.loa,
        skeletal_configuration: h.skeletal_configuration.clone(),
        description: h.description.clone(),
        info: h.info.iter().map(|(key, value)| InfoEntry { key: key.clone(), value: value.clone() }).collect(),
        counts: Counts {
            joints: h.joints.len(),
            segments: h.segments.len(),
            sites: h.sites.len(),
            viewpoint_sites: h.sites.iter().filter(|s| s.in_viewpoints).count(),
            displacers_on_joints: joint_displacers,
            displacers_on_segments: h.displacers.len() - joint_displacers,
            motions: h.motions.len(),
            skin_points: h.skin.as_ref().map_or(0, |s| s.points.len()),
            skinned_joints: h.joints.iter().filter(|j| !j.skin_coord_index.is_empty()).count(),
        },
        motions: h
            .motions
            .iter()
            .map(|m| MotionSummary {
                name: m.name.clone(),
                frames: m.frame_count,
                channels: m.channel_count,
                frame_duration: m.frame_duration,
                enabled: m.enabled,
            })
            .collect(),
        binding: h.binding_mode,
        rest_bbox: (!bounds.is_empty()).then(|| BoundingBox {
            min: bounds.min.into(),
            max: bounds.max.into(),
            size: bounds.size().into(),
        }),
        warning_count: h.warnings.len(),
    })
}

pub fn summarize(path: &Path, doc: &Document) -> Result<Summary, X3dError> {
    Ok(Summary {
        file: path.display().to_string(),
        x3d_version: doc.scene.version.clone(),
        profile: doc.scene.profile.clone(),
        humanoids: doc.humanoids.iter().map(|h| summarize_humanoid(doc, h)).collect::<Result<_, _>>()?,
        scene_viewpoints: doc.viewpoints.len(),
        scene_shapes: doc.other_shapes.len(),
        warnings: doc.warnings.iter().map(WarningEntry::from).collect(),
    })
}

fn fmt_v3(v: [f32; 3]) -> String {
    format!("({:.4}, {:.4}, {:.4})", v[0], v[1], v[2])
}

/// The human-readable form.
pub fn render_text(s: &Summary) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "file: {}", s.file);
    let _ = writeln!(out, "X3D {} ({})", s.x3d_version, if s.profile.is_empty() { "no profile" } else { &s.profile });
    if s.humanoids.is_empty() {
        let _ = writeln!(out, "no HAnimHumanoid in this file");
    }
    for h in &s.humanoids {
        let _ = writeln!(out);
        let _ =
            writeln!(out, "humanoid: {}{}", h.name, h.def.as_ref().map(|d| format!(" (DEF {d})")).unwrap_or_default());
        let loa = if h.loa < 0 { "none claimed".to_string() } else { h.loa.to_string() };
        let _ = writeln!(
            out,
            "  version: {}   LOA: {loa}   skeletal configuration: {}",
            h.version, h.skeletal_configuration
        );
        if !h.description.is_empty() {
            let _ = writeln!(out, "  description: {}", h.description);
        }
        for e in &h.info {
            let key = if e.key.is_empty() { "info" } else { &e.key };
            let _ = writeln!(out, "  {key}: {}", e.value);
        }
        let c = &h.counts;
        let _ = writeln!(
            out,
            "  joints: {}   segments: {}   sites: {}   viewpoint sites: {}",
            c.joints, c.segments, c.sites, c.viewpoint_sites
        );
        let _ = writeln!(
            out,
            "  displacers: {} on joints, {} on segments   motions: {}",
            c.displacers_on_joints, c.displacers_on_segments, c.motions
        );
        let _ = writeln!(
            out,
            "  skin points: {}   skinned joints: {}   binding: {:?}",
            c.skin_points, c.skinned_joints, h.binding
        );
        for m in &h.motions {
            let name = if m.name.is_empty() { "(unnamed)" } else { &m.name };
            let _ = writeln!(
                out,
                "  motion {name}: {} frames x {} channels, {} s/frame{}",
                m.frames,
                m.channels,
                m.frame_duration,
                if m.enabled { "" } else { ", disabled" }
            );
        }
        match &h.rest_bbox {
            Some(b) => {
                let _ =
                    writeln!(out, "  rest bbox: min {} max {} size {}", fmt_v3(b.min), fmt_v3(b.max), fmt_v3(b.size));
            }
            None => {
                let _ = writeln!(out, "  rest bbox: empty");
            }
        }
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "scene: {} viewpoints, {} other shapes", s.scene_viewpoints, s.scene_shapes);
    let _ = writeln!(out, "warnings: {}", s.warnings.len());
    for w in &s.warnings {
        let at = match (w.line, w.column) {
            (Some(l), Some(c)) => format!(":{l}:{c}"),
            _ => String::new(),
        };
        let _ = writeln!(out, "  {}{at}: {}", w.file, w.message);
    }
    out
}
