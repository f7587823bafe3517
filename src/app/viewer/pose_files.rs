//! Poses in and out of the window: File ▸ Save pose… / Load pose… (pose files, `crate::pose::file`), and
//! the pose library window — the built-in standard poses, the file's HAnimPoses and the pose files in the
//! library folder, each with a thumbnail of the posed humanoid rendered offscreen on the window's device.
//! A thumbnail is rendered once per pose and humanoid (one per frame while the window is open, so the UI
//! stays responsive) and kept as an egui texture until another humanoid or file is shown.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::Viewer;
use crate::hanim::Document;
use crate::pose::Pose;
use crate::pose::file::{
    BUILTIN_POSES, HumanoidPose, PoseFile, apply_to_humanoid, builtin_pose, from_hanim_pose, pose_for_humanoid,
};
use crate::render::{PoseRenderer, PosedRenderer, SceneRequest};
use crate::ui::UiCommand;
use crate::ui::pose_library::{LibraryEntry, LibrarySource};

/// Thumbnail side in pixels.
const THUMBNAIL_PIXELS: u32 = 128;

/// The folder the library keeps its pose files in: `HANIM_VIEWER_POSE_LIBRARY`, else `poses` in the
/// program's config folder.
pub(super) fn pose_library_folder() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("HANIM_VIEWER_POSE_LIBRARY") {
        return Some(PathBuf::from(dir));
    }
    super::config_dir().map(|d| d.join("poses"))
}

/// A thumbnail and what applying the pose to this humanoid does.
struct Thumbnail {
    texture: Option<egui::TextureHandle>,
    detail: String,
}

/// The library's pose files and thumbnails.
#[derive(Default)]
pub(super) struct PoseLibrary {
    /// Pose files of the library folder, read when the window opens and after a save.
    saved: Option<Vec<(PathBuf, PoseFile)>>,
    thumbnails: HashMap<LibrarySource, Thumbnail>,
    /// Draws the shown file offscreen (built when the first thumbnail is needed).
    renderer: Option<PosedRenderer>,
    /// Thumbnails are still to be rendered: frames keep coming until they are.
    pub busy: bool,
}

impl PoseLibrary {
    /// Another file or humanoid is shown (or the device changed): every thumbnail is redone.
    pub fn forget_scene(&mut self) {
        self.thumbnails.clear();
        self.renderer = None;
    }
}

/// The pose files in `folder`, by file name; unreadable ones are left out with a warning.
fn scan(folder: &Path) -> Vec<(PathBuf, PoseFile)> {
    let Ok(paths) = crate::input::walk::list_folder(folder) else { return Vec::new() };
    paths
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("json")))
        .filter_map(|p| match PoseFile::read(&p) {
            Ok(file) => Some((p, file)),
            Err(e) => {
                log::warn!("pose library: {e}");
                None
            }
        })
        .collect()
}

/// A file name for a pose called `name`: letters, digits, `-` and `_` kept, the rest `_`.
fn file_name_for(name: &str) -> String {
    let stem: String =
        name.trim().chars().map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect();
    if stem.is_empty() { "pose".to_string() } else { stem }
}

impl Viewer {
    /// The pose commands: dialogs, files, the library.
    pub(super) fn pose_command(&mut self, command: UiCommand) {
        let result = match command {
            UiCommand::SavePoseDialog => {
                let mut dialog = rfd::FileDialog::new()
                    .set_title("Save pose")
                    .add_filter("Pose file", &["json"])
                    .set_file_name("pose.json");
                if let Some(folder) = &self.ui.last_folder {
                    dialog = dialog.set_directory(folder);
                }
                match dialog.save_file() {
                    Some(path) => self.save_pose(&path, None),
                    None => Ok(()),
                }
            }
            UiCommand::SavePose(path) => self.save_pose(&path, None),
            UiCommand::LoadPoseDialog => {
                let mut dialog = rfd::FileDialog::new().set_title("Load pose").add_filter("Pose file", &["json"]);
                if let Some(folder) = pose_library_folder().filter(|f| f.is_dir()).or(self.ui.last_folder.clone()) {
                    dialog = dialog.set_directory(folder);
                }
                match dialog.pick_file() {
                    Some(path) => self.load_pose(&path.display().to_string()),
                    None => Ok(()),
                }
            }
            UiCommand::LoadPose(source) => self.load_pose(&source),
            UiCommand::ApplyLibraryPose(source) => match self.library_pose(&source) {
                Some((label, pose)) => {
                    self.apply_pose(&label, pose);
                    Ok(())
                }
                None => Err(anyhow::anyhow!("the pose is no longer in the library")),
            },
            UiCommand::SavePoseToLibrary(name) => self.save_to_library(&name),
            other => {
                log::debug!("not a pose command: {other:?}");
                Ok(())
            }
        };
        if let Err(e) = result {
            self.fail(format!("{e:#}"));
        }
    }

    /// Writes every humanoid's current pose into `path`.
    fn save_pose(&mut self, path: &Path, name: Option<String>) -> Result<()> {
        let scene = self.scene.as_ref().context("no humanoid is loaded")?;
        let file = PoseFile::from_poses(&scene.doc, &scene.poses(), name, Some(scene.path.display().to_string()));
        file.write(path)?;
        let shown = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        self.toast(format!("saved the pose to {}", shown.display()));
        Ok(())
    }

    /// Applies a pose file (or `builtin:NAME`) to the posed humanoid.
    fn load_pose(&mut self, source: &str) -> Result<()> {
        let file = PoseFile::open(source)?;
        let scene = self.scene.as_ref().context("no humanoid is loaded")?;
        let h = scene.humanoid();
        let pose = pose_for_humanoid(&file, scene.humanoid.0, &h.name)
            .with_context(|| format!("{source}: no pose for humanoid '{}'", h.name))?
            .clone();
        let label = file.label(Some(Path::new(source)));
        self.apply_pose(&label, pose);
        Ok(())
    }

    /// Applies `pose` through the editor (one undo step) and says what it did.
    fn apply_pose(&mut self, label: &str, pose: HumanoidPose) {
        self.apply(UiCommand::ApplyPose(Box::new(pose)));
        if let Some(applied) = self.scene.as_mut().and_then(|s| s.editor.last_applied.take()) {
            self.toast(applied.summary(&format!("pose '{label}'")));
        }
    }

    /// Saves the current pose into the library folder as `name` (a new file; an existing name gets a
    /// number).
    fn save_to_library(&mut self, name: &str) -> Result<()> {
        let folder = pose_library_folder().context("no folder for the pose library (set HANIM_VIEWER_POSE_LIBRARY)")?;
        std::fs::create_dir_all(&folder).with_context(|| format!("creating {}", folder.display()))?;
        let stem = file_name_for(name);
        let path = (1..)
            .map(|n| if n == 1 { folder.join(format!("{stem}.json")) } else { folder.join(format!("{stem}-{n}.json")) })
            .find(|p| !p.exists())
            .context("no free file name")?;
        self.save_pose(&path, Some(name.to_string()))?;
        self.library.saved = None;
        self.library.thumbnails.remove(&LibrarySource::Saved(path));
        Ok(())
    }

    /// The pose an entry of the library stands for, with its label.
    fn library_pose(&self, source: &LibrarySource) -> Option<(String, HumanoidPose)> {
        let scene = self.scene.as_ref()?;
        let h = scene.humanoid();
        match source {
            LibrarySource::Builtin(id) => {
                let file = builtin_pose(id)?;
                Some((file.label(None), file.humanoids.into_iter().next()?))
            }
            LibrarySource::InFile(i) => {
                let node = h.poses.get(*i)?;
                Some((node.name.clone(), from_hanim_pose(h, node)))
            }
            LibrarySource::Saved(path) => {
                let (_, file) = self.library.saved.as_ref()?.iter().find(|(p, _)| p == path)?;
                Some((file.label(Some(path)), pose_for_humanoid(file, scene.humanoid.0, &h.name)?.clone()))
            }
        }
    }

    /// The library's entries for the posed humanoid, with the thumbnails rendered so far.
    pub(super) fn library_entries(&mut self) -> Vec<LibraryEntry> {
        let Some(scene) = &self.scene else { return Vec::new() };
        if self.library.saved.is_none() {
            self.library.saved = Some(pose_library_folder().map(|f| scan(&f)).unwrap_or_default());
        }
        let mut sources: Vec<(LibrarySource, String)> = BUILTIN_POSES
            .iter()
            .map(|(id, label)| (LibrarySource::Builtin((*id).to_string()), (*label).to_string()))
            .collect();
        for (i, node) in scene.humanoid().poses.iter().enumerate() {
            let label = if node.name.is_empty() { format!("pose {}", i + 1) } else { node.name.clone() };
            sources.push((LibrarySource::InFile(i), label));
        }
        for (path, file) in self.library.saved.iter().flatten() {
            sources.push((LibrarySource::Saved(path.clone()), file.label(Some(path))));
        }
        sources
            .into_iter()
            .map(|(source, label)| {
                let thumbnail = self.library.thumbnails.get(&source);
                LibraryEntry {
                    detail: thumbnail.map_or_else(String::new, |t| t.detail.clone()),
                    thumbnail: thumbnail.and_then(|t| t.texture.as_ref()).map(egui::TextureHandle::id),
                    source,
                    label,
                }
            })
            .collect()
    }

    /// This frame's library entries while its window is open: one more thumbnail rendered first.
    pub(super) fn library_frame(&mut self) -> Vec<LibraryEntry> {
        if !self.ui.pose_library.open || self.scene.is_none() {
            self.library.busy = false;
            return Vec::new();
        }
        let entries = self.library_entries();
        self.render_next_thumbnail(&entries);
        let entries = self.library_entries();
        self.library.busy = entries.iter().any(|e| !self.library.thumbnails.contains_key(&e.source));
        entries
    }

    /// Renders the first missing thumbnail of `entries` (one per frame).
    fn render_next_thumbnail(&mut self, entries: &[LibraryEntry]) {
        let Some(entry) = entries.iter().find(|e| !self.library.thumbnails.contains_key(&e.source)) else { return };
        let Some((_, pose)) = self.library_pose(&entry.source) else {
            let detail = "not readable".to_string();
            self.library.thumbnails.insert(entry.source.clone(), Thumbnail { texture: None, detail });
            return;
        };
        let thumbnail = match self.thumbnail(&pose, &entry.label) {
            Ok(thumbnail) => thumbnail,
            Err(e) => {
                log::warn!("pose library: thumbnail of '{}': {e:#}", entry.label);
                Thumbnail { texture: None, detail: format!("no thumbnail: {e:#}") }
            }
        };
        self.library.thumbnails.insert(entry.source.clone(), thumbnail);
    }

    /// The posed humanoid alone, from the front, at its rest pose with `pose` applied.
    fn thumbnail(&mut self, pose: &HumanoidPose, label: &str) -> Result<Thumbnail> {
        let scene = self.scene.as_ref().context("no humanoid is loaded")?;
        let doc: &Document = &scene.doc;
        let index = scene.humanoid;
        let mut poses: Vec<Pose> = doc.humanoids.iter().map(Pose::rest).collect();
        let applied = apply_to_humanoid(&doc.humanoids[index], pose, &mut poses[index], !self.ui.ignore_limits);
        let mut request = SceneRequest::new(THUMBNAIL_PIXELS, THUMBNAIL_PIXELS);
        request.only_humanoid = Some(index.0);
        request.show_scene = false;
        request.lighting = crate::gpu::lighting::Lighting::Studio;
        let renderer = match &mut self.library.renderer {
            Some(renderer) => renderer,
            slot => slot.insert(PosedRenderer::new(&self.gpu, doc, &request, &poses)?),
        };
        let bounds = crate::views::figure_bounds(doc, index, &poses[index])?;
        // Three-quarters from the front and a little above: a pose that moves limbs toward the viewer
        // (sitting, arms forward) still reads.
        let orientation = glam::Quat::from_rotation_y(0.55) * glam::Quat::from_rotation_x(-0.2);
        let camera = crate::views::framed_camera(&bounds, orientation, crate::views::DEFAULT_FIELD_OF_VIEW, 1.0);
        let image = renderer.render(&self.gpu, doc, &poses, &camera, &bounds)?;
        let size = [image.width as usize, image.height as usize];
        let color = egui::ColorImage::from_rgba_unmultiplied(size, &image.rgba);
        let texture =
            self.egui.ctx.load_texture(format!("pose-thumbnail {label}"), color, egui::TextureOptions::LINEAR);
        let mut detail = format!("{} joint(s) set", applied.driven.len());
        if !applied.missing.is_empty() {
            detail.push_str(&format!("; {} not in this humanoid", applied.missing.len()));
        }
        Ok(Thumbnail { texture: Some(texture), detail })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn library_file_names_keep_only_safe_characters() {
        assert_eq!(file_name_for("Arms up!"), "Arms_up_");
        assert_eq!(file_name_for("  "), "pose");
        assert_eq!(file_name_for("wave-2_b"), "wave-2_b");
    }
}
