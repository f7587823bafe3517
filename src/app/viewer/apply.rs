//! What the panels' commands do: pose and selection commands go to the pose editor; views, files,
//! screenshots and captures are the window's.

use super::Viewer;
use crate::ui::UiCommand;
use crate::ui::scene::view_placement;
use crate::ui::transport::TransportCommand;

impl Viewer {
    /// Carries out one command from a panel, a shortcut or the script.
    pub(super) fn apply(&mut self, command: UiCommand) {
        // Undo, redo and key edits reach the transport's authored clips too.
        let command = match (command, &mut self.scene) {
            (command @ (UiCommand::Undo | UiCommand::Redo), Some(scene)) => {
                scene.editor.travel(command == UiCommand::Undo, Some(&mut scene.transport));
                return;
            }
            (UiCommand::Transport(TransportCommand::Key(key)), Some(scene)) => {
                let (h, humanoid) = (&scene.doc.humanoids[scene.humanoid.0], scene.humanoid);
                let result = scene.editor.apply_key(h, humanoid, &mut scene.transport, key);
                if let Err(e) = result {
                    if self.script.is_some() {
                        self.fail(e.to_string());
                    } else {
                        self.toast(e.to_string());
                    }
                }
                return;
            }
            // A weight set while paused holds over what the clips say (see `play_motion`).
            (command @ UiCommand::SetDisplacerWeight { displacer, weight }, Some(scene)) => {
                let (h, t) = (scene.humanoid, &mut scene.transport);
                if t.engaged && !t.playing {
                    t.held_weights.retain(|&(hh, d, _)| (hh, d) != (h, displacer));
                    t.held_weights.push((h, displacer, weight));
                }
                command
            }
            (command, _) => command,
        };
        let rest = match &mut self.scene {
            Some(scene) => {
                let h = &scene.doc.humanoids[scene.humanoid];
                scene.editor.apply(h, &mut self.ui, command)
            }
            None => Some(command),
        };
        let Some(command) = rest else { return };
        match command {
            UiCommand::SelectView(index) => self.select_view(index, true),
            UiCommand::SelectHumanoid(index) => {
                let Some(scene) = &mut self.scene else { return };
                if scene.select_humanoid(index) {
                    self.ui.forget_humanoid();
                    self.library.forget_scene();
                    let message = format!(
                        "posing humanoid {} of {}: {}",
                        index.0 + 1,
                        scene.doc.humanoids.len(),
                        scene.humanoid().name
                    );
                    self.toast(message);
                }
            }
            UiCommand::FitView => {
                if let Some(scene) = &self.scene {
                    let bounds = scene.current_bounds();
                    self.camera.fit(&bounds, true);
                    self.ui.active_view = None;
                }
            }
            UiCommand::FrameSelected => {
                if let Some(scene) = &self.scene
                    && let Some(c) = self.ui.selected_joint.and_then(|j| scene.joint_centres().get(j.0).copied())
                {
                    let size = scene.rest_bounds.size().max_element().max(0.05);
                    self.camera.frame_point(c, size * 0.5);
                    self.ui.active_view = None;
                }
            }
            UiCommand::OpenDialog if !super::file_browser::system_picker_available() => {
                self.open_file_browser();
            }
            UiCommand::OpenDialog => self.open_with_system_picker(),
            UiCommand::Open(path) => self.start_loading(path),
            UiCommand::Reload => self.reload(),
            UiCommand::Screenshot(path) => self.pending_screenshots.push(path),
            UiCommand::ExportAnimationDialog => {
                let extension = self.ui.export.format.extension();
                let mut dialog = rfd::FileDialog::new()
                    .set_title("Export animation")
                    .add_filter(extension, &[extension])
                    .set_file_name(format!("animation.{extension}"));
                if let Some(folder) = self.ui.screenshot_folder.as_ref().or(self.ui.last_folder.as_ref()) {
                    dialog = dialog.set_directory(folder);
                }
                if let Some(path) = dialog.save_file() {
                    self.export_animation(path);
                }
            }
            UiCommand::ExportAnimation(path) => self.export_animation(path),
            UiCommand::SaveX3dDialog => {
                let mut dialog = rfd::FileDialog::new()
                    .set_title("Save as X3D")
                    .add_filter("X3D XML", &["x3d", "x3dz"])
                    .add_filter("ClassicVRML", &["x3dv", "x3dvz"])
                    .add_filter("X3D JSON", &["x3dj", "x3djz"])
                    .set_file_name(self.save_x3d_default_name());
                if let Some(folder) = &self.ui.last_folder {
                    dialog = dialog.set_directory(folder);
                }
                if let Some(path) = dialog.save_file() {
                    self.save_x3d(path);
                }
            }
            UiCommand::SaveX3d(path) => self.save_x3d(path),
            UiCommand::ExportGltfDialog { current_pose } => {
                let stem =
                    self.scene.as_ref().and_then(|s| s.path.file_stem()).map(|s| s.to_string_lossy().into_owned());
                let mut dialog = rfd::FileDialog::new()
                    .set_title("Export glTF")
                    .add_filter("glTF binary", &["glb"])
                    .add_filter("glTF JSON", &["gltf"])
                    .set_file_name(format!("{}.glb", stem.unwrap_or_else(|| "humanoid".to_string())));
                if let Some(folder) = &self.ui.last_folder {
                    dialog = dialog.set_directory(folder);
                }
                if let Some(path) = dialog.save_file() {
                    self.export_gltf(path, current_pose);
                }
            }
            UiCommand::ExportGltf { path, current_pose } => self.export_gltf(path, current_pose),
            UiCommand::ChooseScreenshotFolder => {
                let mut dialog = rfd::FileDialog::new().set_title("Folder for screenshots");
                if let Some(folder) = self.ui.screenshot_folder.as_ref().or(self.ui.last_folder.as_ref()) {
                    dialog = dialog.set_directory(folder);
                }
                if let Some(folder) = dialog.pick_folder() {
                    self.ui.screenshot_folder = Some(folder);
                }
            }
            UiCommand::DismissError => self.error = None,
            command @ (UiCommand::ApplyCaptureDialog
            | UiCommand::ApplyCapture(_)
            | UiCommand::SetMapping(_)
            | UiCommand::SetCaptureFps(_)
            | UiCommand::LoadMappingDialog
            | UiCommand::LoadMapping(_)
            | UiCommand::SaveMappingDialog
            | UiCommand::BuiltInMapping
            | UiCommand::RemoveCapture
            | UiCommand::ShowCaptureWindow) => self.capture_command(command),
            command @ (UiCommand::SavePoseDialog
            | UiCommand::SavePose(_)
            | UiCommand::LoadPoseDialog
            | UiCommand::LoadPose(_)
            | UiCommand::ApplyLibraryPose(_)
            | UiCommand::SavePoseToLibrary(_)) => self.pose_command(command),
            UiCommand::Transport(command) => {
                if let Some(message) = self.scene.as_mut().and_then(|s| command.apply(&mut s.transport)) {
                    self.toast(message);
                }
            }
            UiCommand::LookAlong { yaw, pitch } => {
                self.camera.look_along(yaw, pitch);
                self.ui.active_view = None;
            }
            UiCommand::OpenFolder(folder) => self.open_folder(&folder),
            UiCommand::Quit => self.quit = true,
            other => log::debug!("unhandled command {other:?}"),
        }
    }

    /// Shows view `index` of the panel's list (`animate`: the camera glides there).
    pub(super) fn select_view(&mut self, index: usize, animate: bool) {
        let Some(scene) = &mut self.scene else { return };
        let Some(view) = scene.summary.views.get(index) else {
            self.ui.active_view = None;
            return;
        };
        // Computed views frame the figure as it stands now (a raised arm stays in the picture).
        scene.view_framing = scene.posed_figure_bounds();
        let placement = view_placement(
            &scene.doc,
            scene.humanoid(),
            &scene.humanoid_from_joint(),
            scene.world_from_humanoid,
            &scene.view_framing,
            view.source,
        );
        if let Some(p) = placement {
            self.ui.active_view = Some(index);
            self.camera.set_view(index, p, animate);
        }
    }
}
