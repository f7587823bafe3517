//! The viewer: window, surface, GPU context, egui, the loaded humanoid, camera and script runner. One
//! frame = UI → commands → GPU skin update + encode → scene pass into the 3D view → egui pass into the
//! surface, all in one command encoder, then present.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow};
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, ControlFlow};
use winit::window::Window;

mod capture;
mod device;

use super::Options;
use super::camera::ViewerCamera;
use super::scene::{LoadedScene, overlay_lines};
use super::screenshot;
use super::script::{self, ScriptLine, ScriptStep};
use super::surface::{self, SurfaceAction};
use super::viewport::ViewportTarget;
use crate::gpu::GpuContext;
use crate::gpu::scene_renderer::{FrameInputs, SceneRenderer};
use crate::hanim::{self, Document};
use crate::mocap::session::CaptureRequest;
use crate::ui::{self, FrameInfo, UiCommand, UiState, ViewportInput};
use crate::views::Camera;

/// The built-in humanoid shown when no file is given: an original CC0 figure (see the README's credits).
pub const DEFAULT_HUMANOID: &str = include_str!("../../assets/humanoids/default.x3d");
/// The name the built-in humanoid is shown and reloaded under.
pub const DEFAULT_HUMANOID_NAME: &str = "default humanoid (built in)";

/// How long a toast stays.
const TOAST_SECONDS: f64 = 4.0;
/// Pick radius around a joint centre, in points.
const PICK_RADIUS: f32 = 14.0;
/// The view's background when the file has none (sRGB), a neutral grey-blue.
const BACKGROUND: [f32; 3] = [0.2348, 0.2478, 0.2828];

struct Loading {
    path: PathBuf,
    receiver: Receiver<anyhow::Result<Document>>,
    /// How far the loader has come (the status bar shows it).
    progress: Arc<crate::x3d::LoadProgress>,
}

/// Runs a script one step per frame.
struct ScriptRunner {
    steps: VecDeque<ScriptLine>,
    wait_frames: u32,
}

/// Smoothed frame statistics for the status bar.
#[derive(Default)]
struct FrameStats {
    last: Option<Instant>,
    frame_ms: f32,
    fps: f32,
    /// Smoothed CPU time spent building and submitting a frame.
    work_ms: f32,
    /// Frames drawn and their total CPU time, for the summary logged on exit.
    frames: u64,
    total_work: Duration,
}

impl FrameStats {
    /// Records a frame; returns the seconds since the previous one.
    fn tick(&mut self) -> f32 {
        let now = Instant::now();
        let dt = self.last.map_or(0.0, |l| (now - l).as_secs_f32());
        self.last = Some(now);
        if dt > 0.0 {
            let ms = dt * 1000.0;
            self.frame_ms = if self.frame_ms == 0.0 { ms } else { self.frame_ms * 0.9 + ms * 0.1 };
            self.fps = 1000.0 / self.frame_ms;
        }
        dt.min(0.25)
    }
}

pub struct Viewer {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    gpu: GpuContext,
    egui_ctx: egui::Context,
    egui_state: egui_winit::State,
    egui_renderer: egui_wgpu::Renderer,
    /// The scene passes, shared with headless rendering.
    renderer: SceneRenderer,
    viewport: Option<(ViewportTarget, egui::TextureId)>,
    scene: Option<LoadedScene>,
    ui: UiState,
    camera: ViewerCamera,
    loading: Option<Loading>,
    error: Option<String>,
    toasts: Vec<(String, Instant)>,
    script: Option<ScriptRunner>,
    stats: FrameStats,
    /// Window is minimised (zero size): nothing is drawn.
    minimized: bool,
    /// Whether this run writes the remembered UI state (not in scripted runs).
    persist: bool,
    /// The surface asked to be reconfigured after this frame.
    reconfigure: bool,
    /// A script step failed: the program ends with this error.
    exit_failure: Option<anyhow::Error>,
    quit: bool,
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
}

fn config_path() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("HANIM_VIEWER_CONFIG_DIR") {
        return Some(PathBuf::from(dir).join("ui.json"));
    }
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("hanim-viewer").join("ui.json"))
}

fn load_ui_state() -> UiState {
    config_path()
        .and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

/// The surface format the window presents in on `gpu`'s adapter, and the surface's capabilities there.
fn surface_format(
    surface: &wgpu::Surface,
    gpu: &GpuContext,
) -> Result<(wgpu::TextureFormat, wgpu::SurfaceCapabilities)> {
    let caps = surface.get_capabilities(&gpu.adapter);
    let format = surface::pick_format(&caps.formats)
        .ok_or_else(|| anyhow!("the adapter {} cannot present to this window", gpu.summary.name))?;
    Ok((format, caps))
}

/// egui's winit state for `ctx` on `window`, with the device's texture size limit.
fn egui_state_for(ctx: &egui::Context, window: &Window, device: &wgpu::Device) -> egui_winit::State {
    egui_winit::State::new(
        ctx.clone(),
        egui::ViewportId::ROOT,
        window,
        Some(window.scale_factor() as f32),
        window.theme(),
        Some(device.limits().max_texture_dimension_2d as usize),
    )
}

/// What the window draws with on one device (built at start and again after a device loss).
struct DrawResources {
    egui_renderer: egui_wgpu::Renderer,
    renderer: SceneRenderer,
}

impl DrawResources {
    fn new(gpu: &GpuContext, surface_format: wgpu::TextureFormat) -> Result<DrawResources> {
        let formats = ViewportTarget::formats_for(&gpu.adapter_info);
        Ok(DrawResources {
            egui_renderer: egui_wgpu::Renderer::new(&gpu.device, surface_format, egui_wgpu::RendererOptions::default()),
            renderer: SceneRenderer::new(gpu, formats)?,
        })
    }
}

impl Viewer {
    pub fn new(event_loop: &ActiveEventLoop, options: &Options, script: Option<Vec<ScriptLine>>) -> Result<Self> {
        let (w, h) = options.size.unwrap_or((1280, 800));
        let attributes =
            Window::default_attributes().with_title("hanim-viewer").with_inner_size(winit::dpi::LogicalSize::new(w, h));
        let window = Arc::new(event_loop.create_window(attributes).context("creating the window")?);
        let display = event_loop.owned_display_handle();
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(display)));
        let surface = instance.create_surface(Arc::clone(&window)).context("creating the window's GPU surface")?;
        let gpu = pollster::block_on(GpuContext::with_instance(instance, options.adapter.as_deref(), Some(&surface)))?;
        log::info!("window adapter: {}", gpu.summary);
        let (format, caps) = surface_format(&surface, &gpu)?;
        let size = window.inner_size();
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            format,
            width: size.width.max(1),
            height: size.height.max(1),
            present_mode: wgpu::PresentMode::AutoVsync,
            desired_maximum_frame_latency: 2,
            alpha_mode: caps.alpha_modes.first().copied().unwrap_or(wgpu::CompositeAlphaMode::Auto),
            view_formats: vec![],
            color_space: wgpu::SurfaceColorSpace::Auto,
        };
        surface.configure(&gpu.device, &config);

        let egui_ctx = egui::Context::default();
        let egui_state = egui_state_for(&egui_ctx, &window, &gpu.device);
        let DrawResources { egui_renderer, renderer } = DrawResources::new(&gpu, format)?;
        let persist = script.is_none();
        let ui = if persist { load_ui_state() } else { UiState::default() };
        let mut viewer = Self {
            window,
            surface,
            config,
            gpu,
            egui_ctx,
            egui_state,
            egui_renderer,
            renderer,
            viewport: None,
            scene: None,
            ui,
            camera: ViewerCamera::default(),
            loading: None,
            error: None,
            toasts: Vec::new(),
            script: script.map(|steps| ScriptRunner { steps: steps.into(), wait_frames: 0 }),
            stats: FrameStats::default(),
            minimized: false,
            persist,
            reconfigure: false,
            exit_failure: None,
            quit: false,
            pending_screenshots: Vec::new(),
            last_camera: None,
            next_repaint: Some(Instant::now()),
            capture: options.capture.clone(),
            retarget: options.retarget.clone(),
            adapter_filter: options.adapter.clone(),
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
        let busy = self.script.is_some()
            || self.loading.is_some()
            || self.camera.in_transition()
            || self.ui.continuous_redraw
            || playing;
        let toast_expiry = self.toasts.iter().map(|(_, t)| *t + Duration::from_secs_f64(TOAST_SECONDS)).min();
        let next = [self.next_repaint, toast_expiry].into_iter().flatten().min();
        if busy || next.is_some_and(|t| t <= now) {
            event_loop.set_control_flow(ControlFlow::Poll);
            self.window.request_redraw();
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
            .and_then(|text| crate::output::write_atomically(&path, text.as_bytes()));
        if let Err(e) = result {
            log::warn!("could not save the UI state to {}: {e:#}", path.display());
        }
    }

    fn toast(&mut self, message: String) {
        log::info!("{message}");
        self.toasts.push((message, Instant::now()));
    }

    fn start_loading(&mut self, path: PathBuf) {
        self.spawn_loader(path, false);
    }

    /// Loads the built-in humanoid (`assets/humanoids/default.x3d`, embedded in the binary).
    fn start_loading_default(&mut self) {
        self.spawn_loader(PathBuf::from(DEFAULT_HUMANOID_NAME), true);
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
    fn poll_loading(&mut self) {
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
            Ok(scene) => {
                let reload = self.scene.as_ref().is_some_and(|s| s.path == scene.path);
                if path != Path::new(DEFAULT_HUMANOID_NAME) {
                    self.ui.remember_file(&path);
                }
                if !reload {
                    self.ui.forget_humanoid();
                    self.camera.fit(&scene.rest_bounds, false);
                }
                self.window.set_title(&format!(
                    "hanim-viewer — {}",
                    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
                ));
                self.toast(format!("loaded {} ({})", path.display(), scene.humanoid().name));
                self.error = None;
                self.scene = Some(scene);
                // A capture follows onto the next humanoid, but a stick figure plays its own motion.
                let stick_figure = path
                    .extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| crate::mocap::CAPTURE_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()));
                if let Some(request) = self.retarget.clone().filter(|_| !stick_figure) {
                    self.apply_capture(request);
                }
            }
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
}

impl Viewer {
    /// Handles one window event; an error ends the program (a failed script step).
    pub fn window_event(&mut self, event_loop: &ActiveEventLoop, event: &WindowEvent) -> Result<()> {
        let response = self.egui_state.on_window_event(&self.window, event);
        match event {
            WindowEvent::CloseRequested => {
                self.quit = true;
            }
            WindowEvent::Resized(size) => {
                self.minimized = size.width == 0 || size.height == 0;
                if !self.minimized {
                    self.config.width = size.width;
                    self.config.height = size.height;
                    self.surface.configure(&self.gpu.device, &self.config);
                }
            }
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
        if response.repaint {
            self.window.request_redraw();
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

    fn recreate_surface(&mut self) {
        match self.gpu.instance.create_surface(Arc::clone(&self.window)) {
            Ok(surface) => {
                self.surface = surface;
                self.surface.configure(&self.gpu.device, &self.config);
            }
            Err(e) => log::error!("could not recreate the window surface: {e}"),
        }
    }

    /// The next script step, if the viewer is ready for it (nothing loading, no transition running).
    fn script_commands(&mut self) -> Vec<UiCommand> {
        let Some(runner) = &mut self.script else { return Vec::new() };
        if self.loading.is_some() || self.camera.in_transition() || !self.pending_screenshots.is_empty() {
            return Vec::new();
        }
        if runner.wait_frames > 0 {
            runner.wait_frames -= 1;
            return Vec::new();
        }
        let Some(ScriptLine { line, step }) = runner.steps.pop_front() else {
            self.script = None;
            return Vec::new();
        };
        log::info!("script line {line}: {step:?}");
        match &step {
            ScriptStep::Wait(n) => {
                runner.wait_frames = *n;
                return Vec::new();
            }
            ScriptStep::Limits(on) => {
                self.ui.ignore_limits = !on;
                return Vec::new();
            }
            ScriptStep::ScreenshotSize(size) => {
                self.ui.screenshot_size = *size;
                return Vec::new();
            }
            ScriptStep::Motion(name, seconds) => {
                let shown = match self.scene.as_mut() {
                    Some(scene) => scene.transport.show(name, *seconds),
                    None => Err("no humanoid is loaded".to_string()),
                };
                if let Err(e) = shown {
                    self.exit_failure = Some(anyhow!("script failed: line {line}: {e}"));
                    self.script = None;
                }
                // The sampled pose reaches the GPU on the next frame.
                if let Some(runner) = &mut self.script {
                    runner.wait_frames = 1;
                }
                return Vec::new();
            }
            ScriptStep::LoseDevice => {
                // As a driver reset would: the device goes, and the loss is noticed this frame.
                self.gpu.device.destroy();
                let _ = self.gpu.device.poll(wgpu::PollType::Poll);
                runner.wait_frames = 2;
                return Vec::new();
            }
            ScriptStep::Map(source, targets) => {
                runner.wait_frames = 1;
                let mapping = self
                    .scene
                    .as_mut()
                    .and_then(|s| s.capture.as_mut())
                    .map(|c| c.editor.panel.set_targets(source, targets));
                return match mapping {
                    Some(Some(mapping)) => vec![UiCommand::SetMapping(mapping)],
                    Some(None) => {
                        self.fail(format!("line {line}: the capture has no joint named '{source}'"));
                        Vec::new()
                    }
                    None => {
                        self.fail(format!("line {line}: no motion capture is applied"));
                        Vec::new()
                    }
                };
            }
            ScriptStep::Resize(w, h) => {
                // The new size arrives as a Resized event; give it a few frames.
                let _ = self.window.request_inner_size(winit::dpi::LogicalSize::new(*w, *h));
                runner.wait_frames = 5;
                return Vec::new();
            }
            _ => {}
        }
        // A new pose needs a frame to reach the GPU before a screenshot: steps run one per frame.
        runner.wait_frames = 1;
        let result = match (&step, &self.scene) {
            (ScriptStep::Open(_) | ScriptStep::Quit | ScriptStep::Screenshot(_), _) => {
                script::commands_for(&step, &ui::SceneSummary::default(), line)
            }
            (_, Some(scene)) => script::commands_for(&step, &scene.summary, line),
            (_, None) => Err(anyhow!("line {line}: no humanoid is loaded")),
        };
        match result {
            Ok(commands) => commands,
            Err(e) => {
                self.exit_failure = Some(e.context("script failed"));
                self.script = None;
                Vec::new()
            }
        }
    }

    fn apply(&mut self, command: UiCommand) {
        let rest = match &mut self.scene {
            Some(scene) => {
                let h = &scene.doc.humanoids[scene.humanoid];
                scene.editor.apply(h, &mut self.ui, command)
            }
            None => Some(command),
        };
        let Some(command) = rest else { return };
        match command {
            UiCommand::SelectView(index) => {
                let Some(scene) = &mut self.scene else { return };
                let Some(view) = scene.summary.views.get(index) else {
                    self.ui.active_view = None;
                    return;
                };
                // Computed views frame the figure as it stands now (a raised arm stays in the picture).
                scene.view_framing = scene.posed_figure_bounds();
                let placement = crate::ui::scene::view_placement(
                    &scene.doc,
                    scene.humanoid(),
                    &scene.humanoid_from_joint(),
                    scene.world_from_humanoid,
                    &scene.view_framing,
                    view.source,
                );
                if let Some(p) = placement {
                    self.camera.set_view(index, p, true);
                }
            }
            UiCommand::SelectHumanoid(index) => {
                let Some(scene) = &mut self.scene else { return };
                if scene.select_humanoid(index) {
                    self.ui.forget_humanoid();
                    let message = format!(
                        "posing humanoid {} of {}: {}",
                        index + 1,
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
                    && let Some(c) = self.ui.selected_joint.and_then(|j| scene.joint_centres().get(j).copied())
                {
                    let size = scene.rest_bounds.size().max_element().max(0.05);
                    self.camera.frame_point(c, size * 0.5);
                    self.ui.active_view = None;
                }
            }
            UiCommand::OpenDialog => {
                let mut dialog = rfd::FileDialog::new()
                    .set_title("Open an H-Anim humanoid")
                    .add_filter("X3D, VRML and motion capture", &open_dialog_extensions())
                    .add_filter("All files", &["*"]);
                if let Some(folder) = &self.ui.last_folder {
                    dialog = dialog.set_directory(folder);
                }
                if let Some(path) = dialog.pick_file() {
                    self.start_loading(path);
                }
            }
            UiCommand::Open(path) => self.start_loading(path),
            UiCommand::Reload => match self.scene.as_ref().map(|s| s.path.clone()) {
                Some(path) if path == Path::new(DEFAULT_HUMANOID_NAME) => self.start_loading_default(),
                Some(path) => self.start_loading(path),
                None => {}
            },
            UiCommand::Screenshot(path) => self.pending_screenshots.push(path),
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
            UiCommand::Quit => self.quit = true,
            other => log::debug!("unhandled command {other:?}"),
        }
    }

    /// Shows `message` in the error window (the humanoid stays); a scripted run ends with it.
    fn fail(&mut self, message: String) {
        log::error!("{message}");
        if self.script.is_some() {
            self.script = None;
            self.exit_failure = Some(anyhow!("script failed: {message}"));
        }
        self.error = Some(message);
    }

    fn camera_input(&mut self, input: &ViewportInput, pixels_per_point: f32) {
        self.camera.orbit_by(input.orbit.x, input.orbit.y);
        self.camera.pan_by(input.pan.x, input.pan.y, input.rect.height());
        self.camera.zoom_by(input.zoom);
        let (Some(click), Some(scene), Some((target, _))) = (input.click, &self.scene, &self.viewport) else { return };
        // Pick the joint whose centre is nearest the click, within PICK_RADIUS.
        let camera = self.camera.update(None, 0.0);
        let pixel = (click.x * pixels_per_point, click.y * pixels_per_point);
        let nearest = scene
            .joint_centres()
            .iter()
            .enumerate()
            .filter_map(|(j, c)| {
                let (x, y) = camera.project_to_pixel(*c, target.width(), target.height())?;
                Some((j, ((x - pixel.0).powi(2) + (y - pixel.1).powi(2)).sqrt()))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((j, d)) = nearest
            && d <= PICK_RADIUS * pixels_per_point
        {
            self.apply(UiCommand::SelectJoint(Some(j)));
        }
    }

    /// Records the skin/morph pass and draws the deformed humanoids and this frame's overlay into
    /// `target` as `camera` sees it (the poses must already be written: [`LoadedScene::write_poses`]).
    fn encode_3d_view(&mut self, encoder: &mut wgpu::CommandEncoder, target: &ViewportTarget, camera: &Camera) {
        let lines = overlay_lines(
            self.scene.as_ref(),
            self.ui.show_grid,
            self.ui.show_axes,
            self.ui.show_skeleton,
            self.ui.selected_joint,
        );
        let draws = self.scene.as_ref().map(|s| s.draws.draws()).unwrap_or_default();
        let inputs = FrameInputs {
            camera,
            aspect: target.width() as f32 / target.height() as f32,
            settings: self.scene.as_ref().map(|s| &s.doc.settings),
            // The file's Background colour, else the viewer's own.
            background: self.scene.as_ref().and_then(|s| s.doc.settings.background).unwrap_or(BACKGROUND),
            draws: &draws,
            lines: &lines,
        };
        let scene_draw = self.scene.as_ref().map(|s| &s.draws);
        self.renderer.encode(&self.gpu, encoder, target.views(), scene_draw, &inputs);
    }

    /// The 3D view's pixels for a screenshot: the view itself, or a fresh offscreen render at the chosen
    /// screenshot size (same camera, the aspect of the chosen size).
    fn screenshot_pixels(&mut self) -> Option<(u32, u32, Result<Vec<u8>, crate::gpu::GpuError>)> {
        let (target, _) = self.viewport.as_ref()?;
        let size = [target.width(), target.height()];
        match self.ui.screenshot_size {
            Some([w, h]) if [w, h] != size => {
                let camera = self.last_camera?;
                let offscreen = match ViewportTarget::new(&self.gpu, self.renderer.formats(), w, h) {
                    Ok(offscreen) => offscreen,
                    Err(e) => return Some((w, h, Err(e))),
                };
                let mut encoder = self
                    .gpu
                    .device
                    .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("viewer::screenshot") });
                self.encode_3d_view(&mut encoder, &offscreen, &camera);
                self.gpu.queue.submit([encoder.finish()]);
                Some((w, h, offscreen.read_rgba8(&self.gpu)))
            }
            _ => Some((target.width(), target.height(), target.read_rgba8(&self.gpu))),
        }
    }

    fn take_screenshots(&mut self) {
        let requests = std::mem::take(&mut self.pending_screenshots);
        if requests.is_empty() {
            return;
        }
        let Some((width, height, pixels)) = self.screenshot_pixels() else { return };
        for request in requests {
            let path = request.unwrap_or_else(|| {
                let folder = self.ui.screenshot_folder.clone().unwrap_or_else(|| PathBuf::from("."));
                screenshot::next_screenshot_path(&folder)
            });
            let result = pixels
                .as_ref()
                .map_err(|e| anyhow!("{e}"))
                .and_then(|p| crate::output::write_png_atomically(&path, width, height, p));
            match result {
                Ok(()) => self.toast(format!("saved {}", std::path::absolute(&path).unwrap_or(path).display())),
                Err(e) => {
                    let message = format!("screenshot {} failed: {e:#}", path.display());
                    log::error!("{message}");
                    if self.script.is_some() {
                        self.exit_failure = Some(anyhow!(message.clone()));
                    }
                    self.toasts.push((message, Instant::now()));
                }
            }
        }
    }

    /// Makes the 3D view `width × height` pixels (within the adapter's texture limit), registering it with
    /// egui. Should the new target fail, the old one stays (and the error is logged).
    fn ensure_viewport(&mut self, width: u32, height: u32) {
        let limit = self.gpu.device.limits().max_texture_dimension_2d;
        let (width, height) = (width.clamp(1, limit), height.clamp(1, limit));
        if self.viewport.as_ref().is_some_and(|(t, _)| t.width() == width && t.height() == height) {
            return;
        }
        let target = match ViewportTarget::new(&self.gpu, self.renderer.formats(), width, height) {
            Ok(target) => target,
            Err(e) => {
                log::error!("the 3D view could not be resized to {width}x{height}: {e}");
                return;
            }
        };
        match &mut self.viewport {
            Some((old, id)) => {
                *old = target;
                self.egui_renderer.update_egui_texture_from_wgpu_texture(
                    &self.gpu.device,
                    old.egui_view(),
                    wgpu::FilterMode::Linear,
                    *id,
                );
            }
            None => {
                let id = self.egui_renderer.register_native_texture(
                    &self.gpu.device,
                    target.egui_view(),
                    wgpu::FilterMode::Linear,
                );
                self.viewport = Some((target, id));
            }
        }
    }

    /// Advances the motion clock and samples the enabled clips into the pose (user offsets stay on top);
    /// the skin pass then re-deforms it like any other pose change.
    fn play_motion(&mut self, dt: f64) {
        let Some(scene) = self.scene.as_mut() else { return };
        if !scene.transport.engaged {
            return;
        }
        scene.transport.advance(dt);
        // Clips may drive any humanoid of the file, not only the one in the panels.
        let mut poses = scene.poses();
        scene.transport.apply(&scene.doc, &mut poses);
        for (i, (h, pose)) in scene.doc.humanoids.iter().zip(&poses).enumerate() {
            scene.placements[i] = pose.world_from_humanoid(h);
        }
        scene.set_poses(poses);
        let world_from_humanoid = scene.placements[scene.humanoid];
        scene.world_from_humanoid = world_from_humanoid;
        let target = self.camera.orbit.target;
        if let Some(target) =
            scene.transport.follow(&scene.doc, scene.humanoid, &scene.editor.pose, world_from_humanoid, target)
        {
            self.camera.orbit.target = target;
        }
    }

    fn frame(&mut self) {
        let started = Instant::now();
        let dt = self.stats.tick();
        self.poll_loading();
        let now = Instant::now();
        self.toasts.retain(|(_, t)| now.duration_since(*t) < Duration::from_secs_f64(TOAST_SECONDS));
        if self.minimized {
            return;
        }
        for command in self.script_commands() {
            self.apply(command);
        }
        if let Err(crate::gpu::GpuError::DeviceLost(reason)) = self.gpu.check_health() {
            self.recover_device(&reason);
        }

        // UI.
        let texture = self.viewport.as_ref().map(|(_, id)| *id);
        let raw_input = self.egui_state.take_egui_input(&self.window);
        let toasts: Vec<String> = self.toasts.iter().map(|(m, _)| m.clone()).collect();
        let adapter = self.gpu.summary.to_string();
        let loading_path = self.loading.as_ref().map(|l| l.path.clone());
        let loading_stage = self.loading.as_ref().map(|l| l.progress.describe());
        let (can_undo, can_redo) =
            self.scene.as_ref().map_or((false, false), |s| (s.editor.history.can_undo(), s.editor.history.can_redo()));
        let file_path = self.scene.as_ref().map(|s| s.path.clone());
        let info = FrameInfo {
            file: file_path.as_deref(),
            adapter: &adapter,
            fps: self.stats.fps,
            frame_ms: self.stats.frame_ms,
            work_ms: self.stats.work_ms,
            triangles: self.scene.as_ref().map_or(0, |s| s.triangles),
            loading: loading_path.as_deref(),
            loading_stage: loading_stage.as_deref(),
            error: self.error.as_deref(),
            toasts: &toasts,
            can_undo,
            can_redo,
        };
        let ui_state = &mut self.ui;
        let (scene_view, mut transport, mut capture) = match self.scene.as_mut() {
            Some(s) => (Some((&s.summary, &s.editor.pose)), Some(&mut s.transport), s.capture.as_mut()),
            None => (None, None, None),
        };
        let mut commands = Vec::new();
        let mut viewport_input = ViewportInput::default();
        let full_output = self.egui_ctx.run_ui(raw_input, |ui| {
            if let Some(transport) = transport.as_deref_mut() {
                ui::transport::transport_panel(ui, transport);
            }
            let (c, input) = ui::app_ui(ui, ui_state, scene_view, &info, texture);
            commands = c;
            if let Some(capture) = capture.as_deref_mut() {
                commands.extend(capture.editor.window(ui.ctx()));
            }
            viewport_input = input;
        });
        self.egui_state.handle_platform_output(&self.window, full_output.platform_output);
        self.next_repaint = full_output
            .viewport_output
            .get(&egui::ViewportId::ROOT)
            .and_then(|v| Instant::now().checked_add(v.repaint_delay));
        for command in commands {
            self.apply(command);
        }
        let pixels_per_point = full_output.pixels_per_point;
        self.camera_input(&viewport_input, pixels_per_point);
        self.play_motion(f64::from(dt));

        // The 3D view's size follows the central panel.
        let rect = viewport_input.rect;
        let (vw, vh) = if rect.is_positive() {
            ((rect.width() * pixels_per_point).round() as u32, (rect.height() * pixels_per_point).round() as u32)
        } else {
            (1, 1)
        };
        self.ensure_viewport(vw, vh);

        // Camera for this frame (a locked view is re-evaluated at the current pose).
        let fixed = match (self.camera.fixed_view(), &self.scene) {
            (Some(index), Some(scene)) => scene.summary.views.get(index).and_then(|v| {
                crate::ui::scene::view_placement(
                    &scene.doc,
                    scene.humanoid(),
                    &scene.humanoid_from_joint(),
                    scene.world_from_humanoid,
                    &scene.view_framing,
                    v.source,
                )
            }),
            _ => None,
        };
        let camera = self.camera.update(fixed, dt);

        // egui textures must be updated even when the frame is skipped.
        for (id, deltas) in &full_output.textures_delta.set {
            for delta in deltas {
                self.egui_renderer.update_texture(&self.gpu.device, &self.gpu.queue, *id, delta);
            }
        }
        let paint_jobs = self.egui_ctx.tessellate(full_output.shapes, pixels_per_point);

        let t_ui = started.elapsed();
        let state = self.surface.get_current_texture();
        let t_acquire = started.elapsed();
        let frame = match surface::action_for(&state) {
            SurfaceAction::Draw { reconfigure_after } => {
                self.reconfigure |= reconfigure_after;
                match state {
                    wgpu::CurrentSurfaceTexture::Success(f) | wgpu::CurrentSurfaceTexture::Suboptimal(f) => Some(f),
                    _ => None,
                }
            }
            SurfaceAction::Reconfigure => {
                self.surface.configure(&self.gpu.device, &self.config);
                None
            }
            SurfaceAction::Recreate => {
                self.recreate_surface();
                None
            }
            SurfaceAction::Skip => None,
        };

        let mut encoder =
            self.gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("viewer::frame") });
        if let Some((target, id)) = self.viewport.take() {
            if let Some(scene) = &mut self.scene {
                scene.write_poses(&self.gpu.queue);
            }
            self.encode_3d_view(&mut encoder, &target, &camera);
            self.viewport = Some((target, id));
        }
        self.last_camera = Some(camera);
        let screen =
            egui_wgpu::ScreenDescriptor { size_in_pixels: [self.config.width, self.config.height], pixels_per_point };
        let extra =
            self.egui_renderer.update_buffers(&self.gpu.device, &self.gpu.queue, &mut encoder, &paint_jobs, &screen);
        if let Some(frame) = &frame {
            let view = frame.texture.create_view(&wgpu::TextureViewDescriptor::default());
            let mut pass = encoder
                .begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("egui::pass"),
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view: &view,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                            store: wgpu::StoreOp::Store,
                        },
                    })],
                    depth_stencil_attachment: None,
                    timestamp_writes: None,
                    occlusion_query_set: None,
                    multiview_mask: None,
                })
                .forget_lifetime();
            self.egui_renderer.render(&mut pass, &paint_jobs, &screen);
        }
        self.gpu.queue.submit(extra.into_iter().chain([encoder.finish()]));
        let t_submit = started.elapsed();
        if let Some(frame) = frame {
            self.window.pre_present_notify();
            self.gpu.queue.present(frame);
        }
        log::debug!(
            "frame: ui {:.1} ms, acquire {:.1} ms, encode+submit {:.1} ms, present {:.1} ms",
            t_ui.as_secs_f64() * 1e3,
            (t_acquire - t_ui).as_secs_f64() * 1e3,
            (t_submit - t_acquire).as_secs_f64() * 1e3,
            (started.elapsed() - t_submit).as_secs_f64() * 1e3
        );
        for id in &full_output.textures_delta.free {
            self.egui_renderer.free_texture(id);
        }
        if self.reconfigure {
            self.reconfigure = false;
            self.surface.configure(&self.gpu.device, &self.config);
        }
        let work = started.elapsed();
        self.stats.work_ms = self.stats.work_ms * 0.9 + work.as_secs_f32() * 1000.0 * 0.1;
        self.stats.frames += 1;
        self.stats.total_work += work;
        self.take_screenshots();
        if let Err(e) = self.gpu.check_health() {
            log::error!("{e}");
        }
    }
}

/// The extensions the open dialog offers: every supported one (and the capture skeletons), in lower and upper case (GTK filters are
/// case-sensitive).
fn open_dialog_extensions() -> Vec<String> {
    crate::x3d::SUPPORTED_EXTENSIONS
        .iter()
        .chain(crate::mocap::CAPTURE_EXTENSIONS.iter())
        .flat_map(|e| [e.to_string(), e.to_ascii_uppercase()])
        .collect()
}
