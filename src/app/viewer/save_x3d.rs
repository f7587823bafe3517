//! File ▸ Save as X3D…: the open file with the selected authored clip added and, if asked, the pose
//! shown as the rest pose (`mocap::keys_export`, as `motion keys` writes it), in the encoding the file
//! name asks for (X3D XML, ClassicVRML or X3D JSON, gzip by name; the window's choice when the name says
//! none), written atomically; a toast says what was written (a scripted run ends with an error).
//!
//! The clip is spliced into X3D XML text: a file in another encoding is first read into the syntax tree
//! and written as XML, and the result goes through the tree again into the encoding asked for, so
//! DEF/USE, PROTOs, ROUTEs and comments survive every way round.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};

use super::Viewer;
use crate::mocap::keys_export::{KeysExportOptions, export_keys};
use crate::x3d::syntax::convert::{OutputKind, convert_bytes, output_kind};
use crate::x3d::{Encoding, detect_encoding};

impl Viewer {
    /// A file name for the dialog: the open file's stem with `-keys`, in the encoding chosen.
    pub(super) fn save_x3d_default_name(&self) -> String {
        let stem = self.scene.as_ref().and_then(|s| s.path.file_stem()).map(|s| s.to_string_lossy().into_owned());
        let extension = match self.ui.save_x3d.encoding {
            Encoding::Xml => "x3d",
            Encoding::Classic => "x3dv",
            Encoding::Json => "x3dj",
        };
        format!("{}-keys.{extension}", stem.unwrap_or_else(|| "humanoid".to_string()))
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
        let kind = output_kind(path).unwrap_or(OutputKind { encoding: settings.encoding, gzip: false });
        let load = crate::x3d::LoadOptions::default();
        let bytes = crate::x3d::read_document(&scene.path)?;
        let shown = std::path::absolute(path).unwrap_or(path.to_path_buf());
        if clip.is_none() && !settings.rest_pose {
            // Nothing to add: the file as it is, in the encoding asked for.
            let written = convert_bytes(&bytes, &scene.path, kind, load.max_decompressed_bytes)?;
            crate::output::write_atomically(path, &written)?;
            return Ok(format!("{} ({:?})", shown.display(), kind.encoding));
        }
        let xml = OutputKind { encoding: Encoding::Xml, gzip: false };
        // An uncompressed XML file is edited byte for byte; any other is first written as XML.
        let original = match std::str::from_utf8(&bytes) {
            Ok(text) if detect_encoding(text.as_bytes(), &scene.path) == Encoding::Xml => text.to_string(),
            _ => String::from_utf8(convert_bytes(&bytes, &scene.path, xml, load.max_decompressed_bytes)?)
                .context("the file as X3D XML is not UTF-8")?,
        };
        let units = scene.doc.scene.units_of(scene.humanoid().node);
        let options =
            KeysExportOptions { fps: settings.fps, as_interpolators: settings.as_interpolators, looping: false, units };
        let pose = settings.rest_pose.then_some(&scene.editor.pose);
        let h = scene.humanoid();
        let exported = export_keys(&original, &scene.path, scene.humanoid.0, h, clip, pose, &options)?;
        if kind == xml {
            crate::output::write_atomically(path, exported.text.as_bytes())?;
        } else {
            let written = convert_bytes(exported.text.as_bytes(), path, kind, load.max_decompressed_bytes)?;
            crate::output::write_atomically(path, &written)?;
        }
        Ok(crate::mocap::keys_export::summary(&shown, clip, &exported, &options))
    }
}
