//! Files in: a loader thread per file (the window keeps drawing meanwhile), its progress for the status
//! bar, and taking a finished load — a good file replaces the humanoid, a bad one shows its error and
//! keeps the one before.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError};

use anyhow::anyhow;

use super::Viewer;
use crate::app::scene::LoadedScene;
use crate::hanim::{self, Document};

/// The built-in humanoid shown when no file is given: an original CC0 figure (see docs/guide/credits.md).
pub const DEFAULT_HUMANOID: &str = include_str!("../../../assets/humanoids/default.x3d");
/// The name the built-in humanoid is shown and reloaded under.
pub const DEFAULT_HUMANOID_NAME: &str = "default humanoid (built in)";

pub(super) struct Loading {
    pub path: PathBuf,
    receiver: Receiver<anyhow::Result<Document>>,
    /// How far the loader has come (the status bar shows it).
    pub progress: Arc<crate::x3d::LoadProgress>,
}

impl Viewer {
    pub(super) fn start_loading(&mut self, path: PathBuf) {
        self.spawn_loader(path, false);
    }

    /// Loads the built-in humanoid (`assets/humanoids/default.x3d`, embedded in the binary).
    pub(super) fn start_loading_default(&mut self) {
        self.spawn_loader(PathBuf::from(DEFAULT_HUMANOID_NAME), true);
    }

    /// Loads what the shown humanoid came from again (the built-in one, or its file).
    pub(super) fn reload(&mut self) {
        match self.scene.as_ref().map(|s| s.path.clone()) {
            Some(path) if path == Path::new(DEFAULT_HUMANOID_NAME) => self.start_loading_default(),
            Some(path) => self.start_loading(path),
            None => {}
        }
    }

    fn spawn_loader(&mut self, path: PathBuf, embedded: bool) {
        let (sender, receiver) = std::sync::mpsc::channel();
        let thread_path = path.clone();
        let capture = self.capture.clone();
        let progress = Arc::new(crate::x3d::LoadProgress::default());
        let thread_progress = Arc::clone(&progress);
        let spawned = std::thread::Builder::new().name("hanim-load".into()).spawn(move || {
            // An .asf or .bvh opens as its stick figure, with its motion in the transport.
            let result = if embedded {
                hanim::load_str(DEFAULT_HUMANOID, &thread_path).map_err(anyhow::Error::from)
            } else {
                capture.load(&thread_path, thread_progress).map_err(anyhow::Error::from)
            };
            let _ = sender.send(result);
        });
        match spawned {
            Ok(_) => self.loading = Some(Loading { path, receiver, progress }),
            Err(e) => self.error = Some(format!("{}: could not start loading: {e}", path.display())),
        }
    }

    /// Takes a finished load: a good file replaces the humanoid, a bad one shows its error and keeps it.
    pub(super) fn poll_loading(&mut self) {
        let Some(loading) = &self.loading else { return };
        let result = match loading.receiver.try_recv() {
            Ok(result) => result,
            Err(TryRecvError::Empty) => return,
            Err(TryRecvError::Disconnected) => {
                let path = loading.path.clone();
                self.loading = None;
                self.error = Some(format!("{}: the loader stopped unexpectedly", path.display()));
                return;
            }
        };
        let Some(Loading { path, .. }) = self.loading.take() else { return };
        let built =
            result.and_then(|doc| LoadedScene::new(&self.gpu, self.renderer.mesh_pipelines(), path.clone(), doc));
        match built {
            Ok(scene) => self.show_loaded(path, scene),
            Err(e) => {
                let message = format!("{e:#}");
                log::error!("{}: {message}", path.display());
                self.error = Some(if message.contains(&path.display().to_string()) {
                    message
                } else {
                    format!("{}: {message}", path.display())
                });
                if self.script.is_some() {
                    // A script cannot go on without its file.
                    self.script = None;
                    self.exit_failure = Some(anyhow!("{}", self.error.clone().unwrap_or_default()));
                }
            }
        }
    }

    /// Makes a loaded scene the shown one: a new file is framed and remembered, a reload keeps the camera.
    fn show_loaded(&mut self, path: PathBuf, mut scene: LoadedScene) {
        let reload = self.scene.as_ref().is_some_and(|s| s.path == scene.path);
        if path != Path::new(DEFAULT_HUMANOID_NAME) {
            self.ui.remember_file(&path);
            // At once, not only at exit: other windows of the program pick the file up in their lists.
            self.save_ui_state();
        }
        if !reload {
            self.ui.forget_humanoid();
            self.camera.fit(&scene.rest_bounds, false);
        }
        self.surface.window.set_title(&format!(
            "hanim-viewer — {}",
            path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
        ));
        // The camera follows the root from where it stands now: a walk carries the view along, without
        // a jump at the first frame played.
        let (h, pose) = (scene.humanoid, scene.editor.pose.clone());
        let _ = scene.transport.follow(&scene.doc, h, &pose, scene.world_from_humanoid, self.camera.orbit.target);
        for problem in &scene.problems {
            log::info!("problem: {problem}");
        }
        let problems = match scene.problems.len() {
            0 => String::new(),
            n => format!("; {n} problem{}: View > Problems", if n == 1 { "" } else { "s" }),
        };
        self.toast(format!("loaded {} ({}){problems}", path.display(), scene.humanoid().name));
        self.error = None;
        // A file of several humanoids (a crowd of Inlines, a scene of figures) opens at its own Viewpoint,
        // the one a browser binds at load, rather than framed on the first figure; one humanoid is framed.
        let bound_view = (!reload && scene.doc.humanoids.len() > 1)
            .then_some(scene.doc.initial_viewpoint)
            .flatten()
            .and_then(|i| scene.summary.views.iter().position(|v| v.source == crate::views::ViewSource::File(i)));
        self.scene = Some(scene);
        if let Some(index) = bound_view {
            self.select_view(index, false);
            if let Some(view) = self.scene.as_ref().and_then(|s| s.summary.views.get(index)) {
                log::info!("opened at the file's Viewpoint '{}'", view.label);
            }
        }
        self.library.forget_scene();
        // A capture follows onto the next humanoid, but a stick figure plays its own motion.
        let stick_figure = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| crate::mocap::CAPTURE_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()));
        if let Some(request) = self.retarget.clone().filter(|_| !stick_figure) {
            self.apply_capture(request);
        }
    }
}

/// The extensions the open dialog offers: every supported one (and the capture skeletons), in lower and
/// upper case (GTK filters are case-sensitive).
pub(super) fn open_dialog_extensions() -> Vec<String> {
    crate::x3d::SUPPORTED_EXTENSIONS
        .iter()
        .chain(crate::mocap::CAPTURE_EXTENSIONS.iter())
        .flat_map(|e| [e.to_string(), e.to_ascii_uppercase()])
        .collect()
}
