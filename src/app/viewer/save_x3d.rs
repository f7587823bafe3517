//! File ▸ Save as X3D…: the open file, byte for byte, with the selected authored clip added and, if
//! asked, the pose shown as the rest pose (`mocap::keys_export`, as `motion keys` writes it), written
//! atomically; a toast says what was written (a scripted run ends with an error).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};

use super::Viewer;
use crate::mocap::keys_export::{KeysExportOptions, export_keys};

impl Viewer {
    /// A file name for the dialog: the open file's stem with `-keys`.
    pub(super) fn save_x3d_default_name(&self) -> String {
        let stem = self.scene.as_ref().and_then(|s| s.path.file_stem()).map(|s| s.to_string_lossy().into_owned());
        format!("{}-keys.x3d", stem.unwrap_or_else(|| "humanoid".to_string()))
    }

    pub(super) fn save_x3d(&mut self, path: PathBuf) {
        match self.write_x3d(&path) {
            Ok(summary) => {
                self.ui.save_x3d.open = false;
                self.toast(format!("saved {summary}"));
            }
            Err(e) => {
                let message = format!("saving {} failed: {e:#}", path.display());
                log::error!("{message}");
                if self.script.is_some() {
                    self.exit_failure = Some(anyhow!(message.clone()));
                    self.script = None;
                }
                self.toast(message);
            }
        }
    }

    fn write_x3d(&self, path: &Path) -> Result<String> {
        let scene = self.scene.as_ref().context("no humanoid is loaded")?;
        let settings = &self.ui.save_x3d;
        let clip = crate::ui::keys::selected_keys(&scene.transport);
        if clip.is_none() && !settings.rest_pose {
            anyhow::bail!(
                "the transport has no authored clip selected (Set key first), and the rest pose is not asked for"
            );
        }
        let original =
            std::fs::read_to_string(&scene.path).with_context(|| format!("reading {}", scene.path.display()))?;
        let units = scene.doc.scene.units_of(scene.humanoid().node);
        let options =
            KeysExportOptions { fps: settings.fps, as_interpolators: settings.as_interpolators, looping: false, units };
        let pose = settings.rest_pose.then_some(&scene.editor.pose);
        let h = scene.humanoid();
        let exported = export_keys(&original, &scene.path, scene.humanoid.0, h, clip, pose, &options)?;
        crate::output::write_atomically(path, exported.text.as_bytes())?;
        let shown = std::path::absolute(path).unwrap_or(path.to_path_buf());
        Ok(crate::mocap::keys_export::summary(&shown, clip, &exported, &options))
    }
}
