//! The interactive window: winit 0.30 [`ApplicationHandler`] holding an `Option<Viewer>` (created on
//! `resumed`), egui panels around a 3D view drawn by the same passes as headless rendering.

pub mod camera;
pub mod capture;
pub mod scene;
pub mod screenshot;
pub mod script;
pub mod surface;
pub mod touch;
pub mod ui_damage;
pub mod vertex_pick;
pub mod viewer;
pub mod viewport;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use winit::application::ApplicationHandler;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::window::WindowId;

use viewer::Viewer;
pub use viewer::WindowBench;

/// What the window starts with.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub file: Option<PathBuf>,
    pub script: Option<PathBuf>,
    pub adapter: Option<String>,
    /// Inner window size in logical pixels.
    pub size: Option<(u32, u32)>,
    /// How .asf and .bvh files open (their motion, frame rate).
    pub capture: crate::mocap::WindowCapture,
    /// A capture to retarget onto the humanoid once it is loaded (and onto each one opened after).
    pub retarget: Option<crate::mocap::session::CaptureRequest>,
    /// Measure the window's frames and quit (`bench --window`).
    pub bench: Option<WindowBench>,
}

struct App {
    options: Options,
    script: Option<Vec<script::ScriptLine>>,
    viewer: Option<Viewer>,
    /// A failure that ends the program (start-up, or a script step).
    failure: Option<anyhow::Error>,
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.viewer.is_some() {
            return;
        }
        match Viewer::new(event_loop, &self.options, self.script.take()) {
            Ok(viewer) => self.viewer = Some(viewer),
            Err(e) => {
                self.failure = Some(e);
                event_loop.exit();
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(viewer) = &mut self.viewer else { return };
        if let Err(e) = viewer.window_event(event_loop, &event) {
            self.failure = Some(e);
            event_loop.exit();
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        if let Some(viewer) = &self.viewer {
            viewer.schedule_redraw(event_loop);
        }
    }

    fn exiting(&mut self, _event_loop: &ActiveEventLoop) {
        if let Some(viewer) = &mut self.viewer {
            viewer.save_ui_state();
        }
    }
}

/// Opens the window and runs until it is closed (or the script quits). Exit code 1 when a script step
/// failed.
pub fn run(options: Options) -> Result<ExitCode> {
    let script = match &options.script {
        Some(path) => {
            let text = crate::input::read_text(path, crate::input::InputKind::Script)?;
            Some(script::parse_script(&text).with_context(|| format!("in the script {}", path.display()))?)
        }
        None => None,
    };
    let event_loop = EventLoop::new().context("opening the display (is DISPLAY or WAYLAND_DISPLAY set?)")?;
    let mut app = App { options, script, viewer: None, failure: None };
    event_loop.run_app(&mut app).context("running the window's event loop")?;
    if let Some(e) = app.failure {
        return Err(e);
    }
    Ok(ExitCode::SUCCESS)
}

/// Opens the window on `options.file`, plays a clip and measures `plan.frames` frames drawn and presented
/// as usual (`bench --window`); the report once it quits.
pub fn bench_window(mut options: Options, plan: WindowBench) -> Result<crate::render::bench::BenchReport> {
    options.bench = Some(plan);
    let event_loop = EventLoop::new().context("opening the display (is DISPLAY or WAYLAND_DISPLAY set?)")?;
    let mut app = App { options, script: None, viewer: None, failure: None };
    event_loop.run_app(&mut app).context("running the window's event loop")?;
    if let Some(e) = app.failure {
        return Err(e);
    }
    app.viewer
        .as_mut()
        .and_then(Viewer::bench_report)
        .ok_or_else(|| anyhow::anyhow!("the window closed before the benchmark finished"))
}
