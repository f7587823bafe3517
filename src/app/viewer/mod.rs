//! The viewer: the window's surface, the GPU context, the egui layer, the scene renderer, the loaded
//! humanoid, UI state, camera and script runner. One frame = UI → commands → GPU skin update + encode →
//! scene pass into the 3D view → egui pass into the surface, all in one command encoder, then present.
//!
//! Each job has its own file: `loading` (files in, on a thread), `apply` (what the panels' commands do),
//! `script_runner` (one script step per frame), `view3d` (camera input, the 3D view's target, playback
//! and drawing), `frame` (one frame, start to present), `screenshots`, `capture` (motion capture
//! commands), `device` (recovering from a lost device), `egui_layer`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, ControlFlow};
use winit::window::Window;

mod apply;
mod bench;
mod capture;
mod device;
mod egui_layer;
mod export;
mod export_gltf;
mod file_browser;
mod frame;
mod ik_drag;
mod loading;
mod pose_files;
mod save_x3d;
mod screenshots;
mod script_runner;
mod ui_cache;
mod view3d;

use super::Options;
use super::camera::ViewerCamera;
use super::scene::LoadedScene;
use super::script::ScriptLine;
use super::surface::WindowSurface;
use super::viewport::ViewportTarget;
use crate::gpu::GpuContext;
use crate::gpu::scene_renderer::SceneRenderer;
use crate::mocap::session::CaptureRequest;
use crate::ui::{UiCommand, UiState};
use crate::views::Camera;
pub use bench::WindowBench;
use egui_layer::EguiLayer;
use frame::FrameStats;
use loading::Loading;
pub use loading::{DEFAULT_HUMANOID, DEFAULT_HUMANOID_NAME};
use script_runner::ScriptRunner;

/// How long a toast stays.
const TOAST_SECONDS: f64 = 4.0;

pub struct Viewer {
    surface: WindowSurface,
    gpu: GpuContext,
    egui: EguiLayer,
    /// The scene passes, shared with headless rendering.
    renderer: SceneRenderer,
    /// The 3D view's target and its egui texture (when the view is not drawn into the surface).
    viewport: Option<(ViewportTarget, egui::TextureId)>,
    /// The 3D view drawn straight into the surface, where the surface has an sRGB view.
    direct: Option<view3d::DirectView>,
    scene: Option<LoadedScene>,
    ui: UiState,
    camera: ViewerCamera,
    loading: Option<Loading>,
    /// The error window's text (a failed load: the humanoid before it stays).
    error: Option<String>,
    /// Toasts with the moment each goes away.
    toasts: Vec<(crate::ui::view_overlays::Toast, Instant)>,
    /// The built-in file browser, open when the system's file picker is missing.
    file_browser: Option<egui_file::FileDialog>,
    /// Why the view shows nothing (a hint over it), and the view that was checked.
    view_empty: Option<String>,
    view_checked: Option<usize>,
    script: Option<ScriptRunner>,
    stats: FrameStats,
    /// Whether this run writes the remembered UI state (not in scripted runs).
    persist: bool,
    /// A script step failed: the program ends with this error.
    exit_failure: Option<anyhow::Error>,
    quit: bool,
    /// `check-ui-picture`: compare the kept UI picture with a full repaint after the next frame.
    pending_ui_check: bool,
    /// Pictures of the whole window asked for (`window-screenshot`), copied from the next frame.
    pending_window_shots: Vec<PathBuf>,
    /// Screenshots asked for this frame, taken after it was submitted (`None`: a new name).
    pending_screenshots: Vec<Option<PathBuf>>,
    /// When egui wants the next frame (animations, tooltips); `None`: only on input.
    next_repaint: Option<Instant>,
    /// The camera of the last frame drawn (screenshots at another size render with it).
    last_camera: Option<Camera>,
    /// How .asf and .bvh files open.
    capture: crate::mocap::WindowCapture,
    /// The motion capture retargeted onto the humanoid: applied again to each humanoid loaded (a reload,
    /// another file), with its mapping.
    retarget: Option<CaptureRequest>,
    /// The `--adapter` choice, for a new device after a loss.
    adapter_filter: Option<String>,
    /// `bench --window`: the window measures itself, then quits.
    bench: Option<bench::BenchState>,
    /// The effector being dragged by inverse kinematics.
    ik_drag: Option<ik_drag::IkDrag>,
    /// The effector handle under the pointer (drawn highlighted).
    hovered_handle: Option<String>,
    /// Whether the last frame drew a skin overlay (so that turning it off stops the skin pass's part).
    overlay_shown: bool,
    /// The pose library's files and thumbnails.
    library: pose_files::PoseLibrary,
}

/// The program's config folder: `HANIM_VIEWER_CONFIG_DIR`, else `hanim-viewer` in the platform's config
/// folder (on Linux `$XDG_CONFIG_HOME` when it is absolute, as the XDG rule says, else `~/.config`).
/// `None` when there is no home folder, or only a relative one: the state is then not kept.
fn config_dir() -> Option<PathBuf> {
    use etcetera::BaseStrategy as _;
    if let Some(dir) = std::env::var_os("HANIM_VIEWER_CONFIG_DIR") {
        return Some(PathBuf::from(dir));
    }
    let base = etcetera::choose_base_strategy().ok()?.config_dir();
    base.is_absolute().then(|| base.join("hanim-viewer"))
}

/// Where the panels' state is remembered between runs.
fn config_path() -> Option<PathBuf> {
    config_dir().map(|d| d.join("ui.json"))
}

/// The program's icon (`assets/icons/hanim-viewer.png`, embedded) for the window's title bar and task
/// switcher; `None` (the platform's default) should it not decode.
fn window_icon() -> Option<winit::window::Icon> {
    let image = image::load_from_memory(include_bytes!("../../../assets/icons/hanim-viewer.png")).ok()?.to_rgba8();
    let (width, height) = image.dimensions();
    winit::window::Icon::from_rgba(image.into_raw(), width, height).ok()
}

fn load_ui_state() -> UiState {
    config_path()
        // Through the door like every input; a missing or unusable file is the defaults.
        .and_then(|p| crate::input::read_text(&p, crate::input::InputKind::Settings).ok())
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

impl Viewer {
    pub fn new(event_loop: &ActiveEventLoop, options: &Options, script: Option<Vec<ScriptLine>>) -> Result<Self> {
        let (w, h) = options.size.unwrap_or((1280, 800));
        let attributes = Window::default_attributes()
            .with_title("hanim-viewer")
            .with_window_icon(window_icon())
            .with_inner_size(winit::dpi::LogicalSize::new(w, h));
        let window = Arc::new(event_loop.create_window(attributes).context("creating the window")?);
        let display = event_loop.owned_display_handle();
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(display)));
        let surface = instance.create_surface(Arc::clone(&window)).context("creating the window's GPU surface")?;
        let gpu = pollster::block_on(GpuContext::with_instance(instance, options.adapter.as_deref(), Some(&surface)))?;
        log::info!("window adapter: {}", gpu.summary);
        let surface = WindowSurface::new(window, surface, &gpu)?;
        let egui = EguiLayer::new(&surface.window, &gpu.device, surface.format());
        let renderer = SceneRenderer::new(&gpu, view3d::formats_for(&gpu, &surface))?;
        let direct = view3d::direct_view(&surface);
        let persist = script.is_none() && options.bench.is_none();
        let mut ui = if persist { load_ui_state() } else { UiState::default() };
        let bench = options.bench.clone().map(|plan| bench::BenchState::new(plan, bench::window_timer(&gpu)));
        ui.continuous_redraw |= bench.is_some();
        let mut viewer = Self {
            surface,
            gpu,
            egui,
            renderer,
            viewport: None,
            direct,
            scene: None,
            ui,
            camera: ViewerCamera::default(),
            loading: None,
            error: None,
            toasts: Vec::new(),
            file_browser: None,
            view_empty: None,
            view_checked: None,
            script: script.map(ScriptRunner::new),
            stats: FrameStats::default(),
            persist,
            exit_failure: None,
            quit: false,
            pending_screenshots: Vec::new(),
            pending_window_shots: Vec::new(),
            pending_ui_check: false,
            last_camera: None,
            next_repaint: Some(Instant::now()),
            capture: options.capture.clone(),
            retarget: options.retarget.clone(),
            adapter_filter: options.adapter.clone(),
            bench,
            ik_drag: None,
            hovered_handle: None,
            overlay_shown: false,
            library: pose_files::PoseLibrary::default(),
        };
        match &options.file {
            Some(file) => viewer.start_loading(file.clone()),
            None => viewer.start_loading_default(),
        }
        Ok(viewer)
    }

    /// Asks for the next frame when something is moving (script, load, view transition, toasts, egui
    /// animations); otherwise the loop sleeps until input or egui's next repaint time.
    pub fn schedule_redraw(&self, event_loop: &ActiveEventLoop) {
        let now = Instant::now();
        let playing = self.scene.as_ref().is_some_and(|s| s.transport.playing);
        // A script keeps the window drawing, one step a frame, except while it rests.
        let resting_until = self.script.as_ref().and_then(|s| s.resting_until());
        let busy = (self.script.is_some() && resting_until.is_none())
            || self.loading.is_some()
            || self.camera.in_transition()
            || self.ui.continuous_redraw
            || self.library.busy
            || playing;
        let toast_expiry = self.toasts.iter().map(|(_, t)| *t).min();
        let next = [self.next_repaint, toast_expiry, resting_until].into_iter().flatten().min();
        if busy || next.is_some_and(|t| t <= now) {
            event_loop.set_control_flow(ControlFlow::Poll);
            self.surface.window.request_redraw();
        } else if let Some(t) = next {
            event_loop.set_control_flow(ControlFlow::WaitUntil(t));
        } else {
            event_loop.set_control_flow(ControlFlow::Wait);
        }
    }

    pub fn save_ui_state(&self) {
        if !self.persist {
            return;
        }
        let Some(path) = config_path() else { return };
        let result = serde_json::to_string_pretty(&self.ui)
            .map_err(anyhow::Error::from)
            .and_then(|text| crate::output::write_atomically(&path, text.as_bytes()).map_err(anyhow::Error::from));
        if let Err(e) = result {
            log::warn!("could not save the UI state to {}: {e:#}", path.display());
        }
    }

    fn toast(&mut self, message: String) {
        log::info!("{message}");
        let toast = crate::ui::view_overlays::Toast { message, folder: None };
        self.toasts.push((toast, Instant::now() + Duration::from_secs_f64(TOAST_SECONDS)));
    }

    /// A toast naming a file in `folder`, with a button to open the folder; it stays twice as long, so
    /// there is time to click it.
    fn toast_with_folder(&mut self, message: String, folder: PathBuf) {
        log::info!("{message}");
        let toast = crate::ui::view_overlays::Toast { message, folder: Some(folder) };
        self.toasts.push((toast, Instant::now() + Duration::from_secs_f64(2.0 * TOAST_SECONDS)));
    }

    /// Shows `message` in the error window (the humanoid stays); a scripted run ends with it.
    fn fail(&mut self, message: String) {
        log::error!("{message}");
        if self.script.is_some() {
            self.script = None;
            self.exit_failure = Some(anyhow::anyhow!("script failed: {message}"));
        }
        self.error = Some(message);
    }

    /// Handles one window event; an error ends the program (a failed script step).
    pub fn window_event(&mut self, event_loop: &ActiveEventLoop, event: &WindowEvent) -> Result<()> {
        let response = self.egui.state.on_window_event(&self.surface.window, event);

        match event {
            WindowEvent::CloseRequested => {
                self.quit = true;
            }
            WindowEvent::Resized(size) => self.surface.resize(&self.gpu.device, *size),
            // Files opened meanwhile by another window of the program (a file manager starts one per
            // file) join this window's recent list.
            WindowEvent::Focused(true) if self.persist => self.ui.merge_recent_files(&load_ui_state().recent_files),
            // An .amc names a motion, not a skeleton: it is retargeted onto the humanoid shown (with its
            // .asf beside it); anything else opens.
            WindowEvent::DroppedFile(path)
                if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("amc")) && self.scene.is_some() =>
            {
                self.apply(UiCommand::ApplyCapture(path.clone()))
            }
            WindowEvent::DroppedFile(path) => self.start_loading(path.clone()),
            WindowEvent::RedrawRequested => self.frame(),
            _ => {}
        }
        // egui asks for a repaint after every event it sees, the redraw itself included: honouring that
        // one would draw frame after frame with nothing changed. What egui wants after a frame is in
        // `next_repaint` (its repaint delay), which `schedule_redraw` keeps.
        if response.repaint && !matches!(event, WindowEvent::RedrawRequested) {
            self.surface.window.request_redraw();
        }
        if let Some(e) = self.exit_failure.take() {
            return Err(e);
        }
        if self.quit {
            let s = &self.stats;
            log::info!(
                "{} frames on {}: {:.1} ms CPU per frame on average, last {:.1} ms between frames ({:.1} fps)",
                s.frames,
                self.gpu.summary.name,
                s.total_work.as_secs_f64() * 1000.0 / s.frames.max(1) as f64,
                s.frame_ms,
                s.fps
            );
            event_loop.exit();
        }
        Ok(())
    }
}
