//! The script runner: one step of a `--script` per frame, once the viewer is ready for it (nothing
//! loading, no view transition, no screenshot pending). Steps that need the window (waits, resizes, a
//! lost device, motions) are done here; the rest become the same [`UiCommand`]s the panels send.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use anyhow::anyhow;

use super::Viewer;
use crate::animation::PlayMode;
use crate::app::script::{self, ClickAt, ScriptLine, ScriptStep};
use crate::ui::{self, UiCommand};

/// Runs a script one step per frame.
pub(super) struct ScriptRunner {
    steps: VecDeque<ScriptLine>,
    wait_frames: u32,
    /// A `rest` step under way: until when, the frames drawn when it began, and the most it allows.
    resting: Option<Rest>,
}

struct Rest {
    line: usize,
    until: Instant,
    seconds: f32,
    frames_at_start: u64,
    max_frames: u32,
}

impl ScriptRunner {
    pub fn new(steps: Vec<ScriptLine>) -> Self {
        Self { steps: steps.into(), wait_frames: 0, resting: None }
    }

    /// When a `rest` step ends, while one is under way: the window then needs no frames for the script.
    pub fn resting_until(&self) -> Option<Instant> {
        self.resting.as_ref().map(|r| r.until)
    }
}

impl Viewer {
    /// A scripted click: at a pixel of the 3D view, or at the middle of a named Shape as the last frame's
    /// camera sees it. Clicking a name that hits none of its TouchSensors' geometry is an error (the
    /// script meant to press it); a pixel may hit anything or nothing, as a user's click.
    fn scripted_click(&mut self, at: &ClickAt) -> Result<(), String> {
        // The 3D view's size, whether it is drawn into the surface or into its own target.
        let size = self.view_size();
        let (Some(scene), Some(camera), Some((width, height))) = (self.scene.as_mut(), self.last_camera, size) else {
            return Err("click: no humanoid is loaded or no frame drawn yet".to_string());
        };
        if scene.transport.mode != PlayMode::AsFile {
            return Err("click: TouchSensors are live only as the file says (play-as-file on first)".to_string());
        }
        let (x, y) = match at {
            ClickAt::Pixel(x, y) => (*x, *y),
            ClickAt::Node(name) => {
                let centre = scene
                    .touch_target_centre(name)
                    .ok_or_else(|| format!("click: no shown Shape or TouchSensor named '{name}'"))?;
                camera
                    .project_to_pixel(centre, width, height)
                    .ok_or_else(|| format!("click: '{name}' is behind the camera"))?
            }
        };
        let (origin, dir) = camera.pixel_ray(x, y, width, height);
        let hit = scene.click(origin, dir);
        log::info!("click at ({x:.1}, {y:.1}) of {width}x{height}: {hit:?}");
        match (at, hit) {
            (ClickAt::Node(name), None) => Err(format!("click: '{name}' at ({x:.0}, {y:.0}) hit no Shape")),
            (ClickAt::Node(name), Some(hit)) if hit.touches.is_empty() => Err(format!(
                "click: '{name}' at ({x:.0}, {y:.0}) hit {}, which no enabled TouchSensor senses",
                scene.doc.scene.describe(hit.shape)
            )),
            _ => Ok(()),
        }
    }

    /// A scripted vertex pick at pixel (x, y) of the 3D view, as the last frame's camera drew it.
    fn scripted_pick(&self, x: f32, y: f32) -> Result<crate::ui::panels::skin_inspection::PickedVertex, String> {
        let (Some(scene), Some(camera), Some((width, height))) =
            (self.scene.as_ref(), self.last_camera, self.view_size())
        else {
            return Err("pick-vertex: no humanoid is loaded or no frame drawn yet".to_string());
        };
        let (origin, dir) = camera.pixel_ray(x, y, width, height);
        let h = &scene.doc.humanoids[scene.humanoid.0];
        crate::app::vertex_pick::pick_vertex(
            &scene.doc.scene,
            h,
            &scene.editor.pose,
            scene.world_from_humanoid,
            origin,
            dir,
        )
        .ok_or_else(|| format!("pick-vertex: ({x:.0}, {y:.0}) of {width}x{height} hits no skin triangle"))
    }

    /// The next script step, if the viewer is ready for it (nothing loading, no transition running).
    pub(super) fn script_commands(&mut self) -> Vec<UiCommand> {
        let Some(runner) = &mut self.script else { return Vec::new() };
        // The pose library's thumbnails are finished before the next step (a screenshot shows them all).
        if self.loading.is_some()
            || self.camera.in_transition()
            || !self.pending_screenshots.is_empty()
            || self.library.busy
        {
            return Vec::new();
        }
        if let Some(rest) = &runner.resting {
            if Instant::now() < rest.until {
                return Vec::new();
            }
            let drawn = self.stats.frames.saturating_sub(rest.frames_at_start);
            log::info!("script line {}: rested {} s, {drawn} frames drawn", rest.line, rest.seconds);
            if drawn > u64::from(rest.max_frames) {
                self.exit_failure = Some(anyhow!(
                    "script failed: line {}: {drawn} frames drawn in {} s of rest (at most {} expected)",
                    rest.line,
                    rest.seconds,
                    rest.max_frames
                ));
            }
            runner.resting = None;
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
            ScriptStep::Rest { seconds, max_frames } => {
                runner.resting = Some(Rest {
                    line,
                    until: Instant::now() + Duration::from_secs_f32(*seconds),
                    seconds: *seconds,
                    // This frame, which began the rest, is counted when it is done.
                    frames_at_start: self.stats.frames + 1,
                    max_frames: *max_frames,
                });
                return Vec::new();
            }
            ScriptStep::Limits(on) => {
                self.ui.ignore_limits = !on;
                return Vec::new();
            }
            ScriptStep::PoseLibrary(on) => {
                self.ui.pose_library.open = *on;
                runner.wait_frames = 1;
                return Vec::new();
            }
            ScriptStep::ScreenshotOverlays(on) => {
                self.ui.screenshot_overlays = *on;
                return Vec::new();
            }
            ScriptStep::ScreenshotTransparent(on) => {
                self.ui.screenshot_transparent = *on;
                return Vec::new();
            }
            ScriptStep::ScreenshotSize(size) => {
                self.ui.screenshot_size = *size;
                return Vec::new();
            }
            ScriptStep::ExportAnimation { what, size, fps, path } => {
                let export = &mut self.ui.export;
                (export.what, export.size, export.fps) = (*what, *size, *fps);
                (export.start, export.end) = (0.0, None);
                return vec![UiCommand::ExportAnimation(path.clone())];
            }
            ScriptStep::SaveX3d { path, as_interpolators, fps, rest_pose } => {
                let settings = &mut self.ui.save_x3d;
                settings.as_interpolators = *as_interpolators;
                settings.rest_pose = *rest_pose;
                settings.fps = fps.unwrap_or(crate::animation::authored::DEFAULT_KEY_FPS);
                return vec![UiCommand::SaveX3d(path.clone())];
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
            ScriptStep::LimitReport => {
                let Some(scene) = self.scene.as_ref() else {
                    self.fail(format!("line {line}: no humanoid is loaded"));
                    return Vec::new();
                };
                if scene.transport.selected.is_none() {
                    self.fail(format!("line {line}: no clip is selected (use 'motion NAME SECONDS' first)"));
                    return Vec::new();
                }
                let panel = &mut self.ui.limit_report;
                panel.open = true;
                panel.refresh(&scene.doc, &scene.transport);
                for (i, excess) in panel.excesses.iter().enumerate() {
                    log::info!("line {line}: limit excess {i}: {}", excess.describe());
                }
                log::info!("line {line}: {} limit excesses", panel.excesses.len());
                return Vec::new();
            }
            ScriptStep::LimitJump(n) => {
                let panel = &self.ui.limit_report;
                let (Some(scene), Some(clip), Some(excess)) =
                    (self.scene.as_mut(), panel.clip, panel.excesses.get(*n).cloned())
                else {
                    self.fail(format!("line {line}: no limit excess {n} (use 'limit-report' first)"));
                    return Vec::new();
                };
                for command in crate::ui::limit_report::jump_to(clip, &excess, &scene.transport) {
                    let _ = command.apply(&mut scene.transport);
                }
                log::info!("line {line}: limit-jump to frame {} at {:.3} s", excess.frame, scene.transport.time);
                if let Some(runner) = &mut self.script {
                    runner.wait_frames = 1;
                }
                return Vec::new();
            }
            ScriptStep::PlayAsFile(_) | ScriptStep::Time(_) => {
                match self.scene.as_mut().map(|s| &mut s.transport) {
                    Some(t) => match step {
                        ScriptStep::PlayAsFile(on) => t.set_mode(if on { PlayMode::AsFile } else { PlayMode::OneClip }),
                        _ => {
                            t.seek_time(if let ScriptStep::Time(s) = step { s } else { t.time });
                            t.playing = false;
                        }
                    },
                    None => self.fail(format!("line {line}: no humanoid is loaded")),
                }
                // The scene at the new time reaches the GPU on the next frame.
                if let Some(runner) = &mut self.script {
                    runner.wait_frames = 1;
                }
                return Vec::new();
            }
            ScriptStep::Click(at) => {
                if let Err(e) = self.scripted_click(at) {
                    self.fail(format!("line {line}: {e}"));
                }
                // The scene with the click's events reaches the GPU on the next frame.
                if let Some(runner) = &mut self.script {
                    runner.wait_frames = 1;
                }
                return Vec::new();
            }
            ScriptStep::CheckUiPicture => {
                // Compared once the next frame is painted and submitted.
                self.pending_ui_check = true;
                runner.wait_frames = 1;
                return Vec::new();
            }
            ScriptStep::WindowScreenshot(path) => {
                // Copied from this frame's surface texture once it is painted, before it is presented.
                self.pending_window_shots.push(path.clone());
                runner.wait_frames = 1;
                return Vec::new();
            }
            ScriptStep::Drag(effector, target, to_root) => {
                if let Err(e) = self.scripted_drag(effector, glam::Vec3::from_array(*target), *to_root) {
                    self.fail(format!("line {line}: {e}"));
                }
                // The dragged pose reaches the GPU on the next frame.
                if let Some(runner) = &mut self.script {
                    runner.wait_frames = 1;
                }
                return Vec::new();
            }
            ScriptStep::Overlay(choice) => {
                use crate::pose::skin_inspection::{OverlayChoice, OverlayMode};
                let ui = &mut self.ui;
                match choice {
                    OverlayChoice::Heatmap(_) => ui.skin_overlay = OverlayMode::Heatmap,
                    OverlayChoice::Influences => ui.skin_overlay = OverlayMode::Influences,
                    OverlayChoice::WeightSums => ui.skin_overlay = OverlayMode::WeightSums,
                    OverlayChoice::Axes => ui.show_joint_axes = true,
                    OverlayChoice::Sites => ui.show_sites = true,
                    OverlayChoice::Off => {
                        ui.skin_overlay = OverlayMode::Off;
                        ui.show_joint_axes = false;
                        ui.show_sites = false;
                        ui.picked_vertex = None;
                    }
                }
                // Falls through: `heatmap:JOINT` selects the joint.
            }
            ScriptStep::PickVertex(x, y) => {
                match self.scripted_pick(*x, *y) {
                    Ok(picked) => {
                        log::info!("pick-vertex {x} {y}: {}", picked.describe());
                        self.ui.picked_vertex = Some(picked);
                    }
                    Err(e) => self.fail(format!("line {line}: {e}")),
                }
                if let Some(runner) = &mut self.script {
                    runner.wait_frames = 1;
                }
                return Vec::new();
            }
            ScriptStep::Expect(effector, target, tolerance) => {
                let at = match self.scene.as_ref() {
                    Some(scene) => scene.effector_position(effector),
                    None => Err("no humanoid is loaded".to_string()),
                };
                let target = glam::Vec3::from_array(*target);
                match at {
                    Ok(at) if at.distance(target) <= *tolerance => {
                        log::info!("line {line}: {effector} at {at}, {:.2e} from {target}", at.distance(target));
                    }
                    Ok(at) => self.fail(format!(
                        "line {line}: {effector} is at {at}, {} from {target} (allowed {tolerance})",
                        at.distance(target)
                    )),
                    Err(e) => self.fail(format!("line {line}: {e}")),
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
                let _ = self.surface.window.request_inner_size(winit::dpi::LogicalSize::new(*w, *h));
                runner.wait_frames = 5;
                return Vec::new();
            }
            _ => {}
        }
        // A new pose needs a frame to reach the GPU before a screenshot: steps run one per frame.
        runner.wait_frames = 1;
        let result = match (&step, &self.scene) {
            (ScriptStep::Open(_) | ScriptStep::Quit | ScriptStep::Screenshot(_) | ScriptStep::OpenDialog, _) => {
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
}
