//! A document's humanoids as one glTF 2.0 asset (`docs/gltf.md` gives every rule).
//!
//! Per humanoid: a node for the humanoid (its own transform, H-Anim fields in `extras`), a node per
//! joint under it, a node per site, camera nodes for the file's viewpoints, one skinned mesh for the
//! deforming skin (morph targets from the joint displacers), one mesh per joint for its rigid geometry
//! (segments, joint children, site accessories; morph targets from segment displacers), and an
//! animation per clip. Scene shapes outside the humanoids become meshes at their world placement.

mod animations;
mod materials;
mod meshes;
mod skeleton;

use std::collections::HashMap;

use crate::animation::Animations;
use crate::hanim::Document;
use crate::pose::Pose;

use super::buffer::{BufferBuilder, write_glb, write_gltf};
use super::json::{self, Root};

/// What to write and how.
#[derive(Debug, Clone)]
pub struct ExportOptions {
    /// `.glb` (true) or `.gltf` with the buffer as a `data:` URI (false).
    pub binary: bool,
    /// One pose per humanoid written as the nodes' rest transforms (the current pose as the rest pose);
    /// `None`: the file's rest values. The inverse bind matrices are always the binding pose's.
    pub rest_poses: Option<Vec<Pose>>,
    /// At most this many influences per vertex (the largest kept, renormalised); `None` keeps them all
    /// in as many JOINTS_n/WEIGHTS_n sets as needed.
    pub max_influences: Option<usize>,
    /// Samples per second for clips whose keys are not times of their own (HAnimMotion frames and
    /// interpolator keys are written at their own times).
    pub sample_rate: f64,
}

impl Default for ExportOptions {
    fn default() -> Self {
        Self { binary: true, rest_poses: None, max_influences: None, sample_rate: 30.0 }
    }
}

/// What was written, for the command's summary and the tests.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ExportReport {
    pub joints: usize,
    pub sites: usize,
    pub meshes: usize,
    pub morph_targets: usize,
    pub animations: usize,
    pub cameras: usize,
    pub images: usize,
    /// The most influences any skin vertex has (the static joint that holds `1 − Σw` included).
    pub max_influences: usize,
    /// JOINTS_n/WEIGHTS_n sets written.
    pub influence_sets: usize,
    /// Vertices whose influences were cut to `max_influences`.
    pub reduced_vertices: usize,
    /// Vertices whose weights summed over 1 and were scaled down to 1 (glTF has no negative weights).
    pub normalised_vertices: usize,
    /// Things left out or approximated, one line each.
    pub notes: Vec<String>,
}

/// The asset's bytes and what went into it.
#[derive(Debug)]
pub struct Exported {
    pub bytes: Vec<u8>,
    pub report: ExportReport,
}

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("{0}")]
    Scene(#[from] crate::x3d::X3dError),
    #[error("writing the glTF JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("the document has no humanoid to export")]
    NoHumanoid,
    #[error("humanoid {humanoid}: {message}")]
    Humanoid { humanoid: String, message: String },
}

/// The asset being assembled.
pub(super) struct Writer<'a> {
    pub doc: &'a Document,
    pub root: Root,
    pub buffer: BufferBuilder,
    pub report: ExportReport,
    pub options: &'a ExportOptions,
    /// Materials already written, by their JSON text.
    pub material_index: HashMap<String, u32>,
    /// Textures already written, by ImageTexture node and kind of map.
    pub texture_index: HashMap<(crate::x3d::NodeId, bool), Option<u32>>,
}

impl Writer<'_> {
    pub fn add_node(&mut self, node: json::Node) -> u32 {
        self.root.nodes.push(node);
        self.root.nodes.len() as u32 - 1
    }

    pub fn add_child(&mut self, parent: Option<u32>, node: json::Node) -> u32 {
        let index = self.add_node(node);
        match parent {
            Some(p) => self.root.nodes[p as usize].children.push(index),
            None => self.root.scenes[0].nodes.push(index),
        }
        index
    }

    pub fn note(&mut self, line: impl Into<String>) {
        let line = line.into();
        if !self.report.notes.contains(&line) {
            self.report.notes.push(line);
        }
    }
}

/// Writes `doc` (its humanoids, their clips in `animations`, the scene shapes around them).
pub fn export_document(
    doc: &Document,
    animations: &Animations,
    options: &ExportOptions,
) -> Result<Exported, ExportError> {
    if doc.humanoids.is_empty() {
        return Err(ExportError::NoHumanoid);
    }
    let mut root = Root { scene: Some(0), ..Root::default() };
    root.scenes.push(json::Scene { name: Some(scene_name(doc)), nodes: Vec::new() });
    let mut writer = Writer {
        doc,
        root,
        buffer: BufferBuilder::default(),
        report: ExportReport::default(),
        options,
        material_index: HashMap::new(),
        texture_index: HashMap::new(),
    };
    let mut placed = Vec::new();
    for (index, h) in doc.humanoids.iter().enumerate() {
        let pose = match &options.rest_poses {
            Some(poses) => poses.get(index).cloned().unwrap_or_else(|| Pose::rest(h)),
            None => Pose::rest(h),
        };
        let mut nodes = skeleton::write_humanoid(&mut writer, index, &pose)?;
        meshes::write_skin(&mut writer, index, &mut nodes)?;
        meshes::write_rigid(&mut writer, index, &mut nodes)?;
        skeleton::write_cameras(&mut writer, index, &nodes);
        placed.push(nodes);
    }
    meshes::write_scene_shapes(&mut writer)?;
    skeleton::write_scene_cameras(&mut writer);
    animations::write_animations(&mut writer, animations, &placed);
    let Writer { mut root, buffer, mut report, .. } = writer;
    if report.influence_sets > 1 {
        report.notes.push(format!(
            "{} JOINTS_n/WEIGHTS_n sets: viewers that read only JOINTS_0 (three.js) use the first four influences \
             of each vertex",
            report.influence_sets
        ));
    }
    report.images = root.images.len();
    root.extras = Some(serde_json::json!({ "hanim": { "source": scene_name(doc) } }));
    let bytes = if options.binary { write_glb(root, buffer)? } else { write_gltf(root, buffer)? };
    Ok(Exported { bytes, report })
}

fn scene_name(doc: &Document) -> String {
    doc.scene.main_path().file_stem().map_or_else(|| "scene".to_string(), |s| s.to_string_lossy().into_owned())
}
