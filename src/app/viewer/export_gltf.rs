//! File ▸ Export glTF…: the loaded humanoids with every clip of the transport (file clips, the applied
//! capture, authored keys) written as glTF 2.0 (`gltf::export`), atomically; the pose shown as the rest
//! pose when asked. A toast says what was written (a scripted run ends with an error on failure).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};

use super::Viewer;
use crate::gltf::export::{ExportOptions, export_document};

impl Viewer {
    pub(super) fn export_gltf(&mut self, path: PathBuf, current_pose: bool) {
        match self.write_gltf(&path, current_pose) {
            Ok(summary) => self.toast(summary),
            Err(e) => {
                let message = format!("exporting {} failed: {e:#}", path.display());
                log::error!("{message}");
                if self.script.is_some() {
                    self.exit_failure = Some(anyhow!(message.clone()));
                    self.script = None;
                }
                self.toast(message);
            }
        }
    }

    fn write_gltf(&self, path: &Path, current_pose: bool) -> Result<String> {
        let scene = self.scene.as_ref().context("no humanoid is loaded")?;
        let binary = crate::gltf::output_is_binary(path)
            .ok_or_else(|| anyhow!("{}: the name must end in .glb or .gltf", path.display()))?;
        let options =
            ExportOptions { binary, rest_poses: current_pose.then(|| scene.poses()), ..ExportOptions::default() };
        let exported = export_document(&scene.doc, &scene.transport.animations, &options)?;
        for note in &exported.report.notes {
            log::warn!("{note}");
        }
        crate::output::write_atomically(path, &exported.bytes)?;
        let r = &exported.report;
        Ok(format!(
            "exported {} ({} joints, {} animations, {} morph targets)",
            path.display(),
            r.joints,
            r.animations,
            r.morph_targets
        ))
    }
}
