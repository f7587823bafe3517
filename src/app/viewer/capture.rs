//! The window's motion capture commands: apply a capture file, edit, load, save or reset its mapping,
//! retime it, remove it (the capture window and File ▸ Apply motion capture… send them).

use super::Viewer;
use crate::app::scene::LoadedScene;
use crate::mocap::session::{CaptureRequest, MappingOrigin};
use crate::ui::UiCommand;

impl Viewer {
    pub(super) fn capture_command(&mut self, command: UiCommand) {
        match command {
            UiCommand::ApplyCaptureDialog => {
                let mut dialog = rfd::FileDialog::new()
                    .set_title("Retarget a motion capture onto the humanoid")
                    .add_filter(
                        "Motion capture (.amc with its .asf, .bvh)",
                        &["amc", "AMC", "asf", "ASF", "bvh", "BVH"],
                    )
                    .add_filter("All files", &["*"]);
                if let Some(folder) = &self.ui.last_folder {
                    dialog = dialog.set_directory(folder);
                }
                if let Some(path) = dialog.pick_file() {
                    self.apply(UiCommand::ApplyCapture(path));
                }
            }
            UiCommand::ApplyCapture(path) => {
                let mapping = self.retarget.as_ref().and_then(|r| r.mapping.clone());
                match CaptureRequest::for_file(&path, None) {
                    // A mapping the user edited or loaded stays in use for the next capture.
                    Ok(request) => self.apply_capture(CaptureRequest { mapping, ..request }),
                    Err(e) => self.fail(format!("{e:#}")),
                }
            }
            UiCommand::SetMapping(mapping) => self.set_mapping(mapping, MappingOrigin::Edited),
            UiCommand::SetCaptureFps(fps) => {
                self.capture.fps = Some(fps);
                if let Some(request) = self.scene.as_ref().and_then(LoadedScene::capture_request) {
                    self.apply_capture(request);
                }
            }
            UiCommand::LoadMappingDialog => {
                let dialog = rfd::FileDialog::new()
                    .set_title("Load a bone mapping")
                    .add_filter("Mapping (SOURCE TARGET… per line)", &["txt", "map", "TXT", "MAP"])
                    .add_filter("All files", &["*"]);
                if let Some(path) = dialog.pick_file() {
                    self.apply(UiCommand::LoadMapping(path));
                }
            }
            UiCommand::LoadMapping(path) => match crate::mocap::mapping::load_mapping(&path) {
                Ok(mapping) => self.set_mapping(mapping, MappingOrigin::File(path)),
                Err(e) => self.fail(format!("{e:#}")),
            },
            UiCommand::SaveMappingDialog => {
                let Some(capture) = self.scene.as_ref().and_then(|s| s.capture.as_ref()) else { return };
                let text = capture.editor.panel.mapping().to_text();
                let dialog = rfd::FileDialog::new()
                    .set_title("Save the bone mapping")
                    .set_file_name(format!("{}-mapping.txt", capture.editor.session.name))
                    .add_filter("Mapping", &["txt"]);
                if let Some(path) = dialog.save_file() {
                    match crate::output::write_atomically(&path, text.as_bytes()) {
                        Ok(()) => self.toast(format!("saved the mapping to {}", path.display())),
                        Err(e) => self.fail(format!("{e:#}")),
                    }
                }
            }
            UiCommand::BuiltInMapping => {
                let Some(capture) = self.scene.as_ref().and_then(|s| s.capture.as_ref()) else { return };
                let mapping = crate::mocap::mapping::default_mapping(capture.editor.session.source_names());
                self.set_mapping(mapping, MappingOrigin::BuiltIn);
            }
            UiCommand::RemoveCapture => {
                if let Some(scene) = &mut self.scene {
                    scene.remove_capture();
                }
                self.retarget = None;
            }
            UiCommand::ShowCaptureWindow => match self.scene.as_mut().and_then(|s| s.capture.as_mut()) {
                Some(capture) => capture.editor.panel.open = true,
                None => self.toast("no motion capture is applied: File ▸ Apply motion capture…".into()),
            },
            other => log::debug!("not a capture command: {other:?}"),
        }
    }

    /// Retargets `request` onto the shown humanoid; it is then applied to each humanoid loaded after.
    pub(super) fn apply_capture(&mut self, request: CaptureRequest) {
        let Some(scene) = &mut self.scene else {
            self.fail("open a humanoid before applying a motion capture".into());
            return;
        };
        match scene.apply_capture(&request, self.capture.fps) {
            Ok(message) => {
                self.retarget = scene.capture_request();
                self.toast(message);
            }
            Err(e) => self.fail(format!("{e:#}")),
        }
    }

    /// Retargets the applied capture with `mapping`.
    fn set_mapping(&mut self, mapping: crate::mocap::mapping::Mapping, origin: MappingOrigin) {
        let Some(scene) = &mut self.scene else { return };
        let result = scene.set_capture_mapping(mapping, origin);
        self.retarget = scene.capture_request();
        if let Err(e) = result {
            self.fail(format!("{e:#}"));
        }
    }
}
