//! One frame of the window, start to present: load and script steps, the UI (egui) and its commands,
//! camera and playback, then one command encoder with the skin/morph pass, the scene pass into the 3D view
//! and the egui pass into the surface texture.

use std::time::{Duration, Instant};

use super::Viewer;
use super::bench::FrameTimes;
use super::egui_layer::PaintedUi;
use super::view3d::ViewLook;
use crate::gpu::target::PixelRect;
use crate::ui::{self, FrameInfo, UiCommand, ViewportInput};

/// A gap between frames longer than this is the window resting (nothing changed), left out of the
/// frame time and rate.
const SLEEP_GAP_SECONDS: f32 = 0.5;

/// Smoothed frame statistics for the status bar.
#[derive(Default)]
pub(super) struct FrameStats {
    last: Option<Instant>,
    pub frame_ms: f32,
    pub fps: f32,
    /// Smoothed CPU time spent building and submitting a frame.
    pub work_ms: f32,
    /// Frames drawn and their total CPU time, for the summary logged on exit.
    pub frames: u64,
    pub total_work: Duration,
}

impl FrameStats {
    /// Records a frame; returns the seconds since the previous one.
    fn tick(&mut self) -> f32 {
        let now = Instant::now();
        let dt = self.last.map_or(0.0, |l| (now - l).as_secs_f32());
        self.last = Some(now);
        // A longer gap is the window sleeping with nothing to draw, not the time a frame takes: the
        // figures keep what the last drawn frames measured.
        if dt > 0.0 && dt <= SLEEP_GAP_SECONDS {
            let ms = dt * 1000.0;
            self.frame_ms = if self.frame_ms == 0.0 { ms } else { self.frame_ms * 0.9 + ms * 0.1 };
            self.fps = 1000.0 / self.frame_ms;
        }
        dt.min(0.25)
    }

    /// Counts a frame's CPU time.
    fn record_work(&mut self, work: Duration) {
        self.work_ms = self.work_ms * 0.9 + work.as_secs_f32() * 1000.0 * 0.1;
        self.frames += 1;
        self.total_work += work;
    }
}

impl Viewer {
    pub(super) fn frame(&mut self) {
        let started = Instant::now();
        let dt = self.stats.tick();
        self.poll_loading();
        let now = Instant::now();
        self.toasts.retain(|(_, expires)| *expires > now);
        if self.surface.minimized {
            return;
        }
        for command in self.script_commands() {
            self.apply(command);
        }
        self.bench_before_frame();
        if let Err(crate::gpu::GpuError::DeviceLost(reason)) = self.gpu.check_health() {
            self.recover_device(&reason);
        }

        let library = self.library_frame();
        let (painted, commands, viewport_input) = self.run_ui(&library);
        self.next_repaint = painted.next_repaint;
        for command in commands {
            self.apply(command);
        }
        let pixels_per_point = painted.pixels_per_point;
        let mut times = FrameTimes { ui: started.elapsed(), ..Default::default() };
        self.camera_input(&viewport_input, pixels_per_point);
        self.play_motion(f64::from(dt));
        times.playback = started.elapsed();

        // The 3D view's place and size follow the central panel.
        let region =
            view_region(viewport_input.rect, pixels_per_point, [self.surface.config.width, self.surface.config.height]);
        if self.direct.is_none() {
            self.ensure_viewport(region.width, region.height);
        }
        let camera = self.frame_camera(dt);

        let frame = self.surface.acquire(&self.gpu);
        times.acquire = started.elapsed();
        let mut encoder =
            self.gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("viewer::frame") });
        if let Some(scene) = &mut self.scene {
            scene.write_poses(&self.gpu.queue);
        }
        times.upload = started.elapsed();
        // GPU timestamps only in a benchmark's timed frames (reading them back waits for the GPU).
        let gpu_timer = match &mut self.bench {
            Some(bench) if bench.times_gpu() => bench.timer.take(),
            _ => None,
        };
        let size = (region.width, region.height);
        let mut drawn_into_surface = false;
        if let Some(format) = self.direct.as_ref().map(|d| d.format) {
            // Straight into the surface (under the UI, which is painted next without clearing).
            if let Some(frame) = &frame
                && self.place_direct_view(region)
                && let Some(attachments) = self.direct.as_mut().and_then(|d| d.attachments.take())
            {
                let srgb = frame.texture.create_view(&wgpu::TextureViewDescriptor {
                    label: Some("viewer::surface_srgb"),
                    format: Some(format),
                    ..Default::default()
                });
                self.encode_3d_view(
                    &mut encoder,
                    attachments.views(&srgb, region),
                    size,
                    &camera,
                    gpu_timer.as_ref(),
                    ViewLook::WINDOW,
                );
                drawn_into_surface = true;
                if let Some(direct) = &mut self.direct {
                    direct.attachments = Some(attachments);
                }
            }
        } else if let Some((target, id)) = self.viewport.take() {
            let size = (target.width(), target.height());
            self.encode_3d_view(&mut encoder, target.views(), size, &camera, gpu_timer.as_ref(), ViewLook::WINDOW);
            self.viewport = Some((target, id));
        }
        times.encode_3d = started.elapsed();
        self.last_camera = Some(camera);
        self.update_view_marks(&camera, pixels_per_point);
        let surface_view = frame.as_ref().map(|f| f.texture.create_view(&wgpu::TextureViewDescriptor::default()));
        let size = [self.surface.config.width, self.surface.config.height];
        let extra = match (&frame, &surface_view) {
            // Around and over a 3D view in the surface: the UI's kept picture, repainted where it changed.
            (Some(frame), Some(view)) if drawn_into_surface => self.egui.paint_kept(
                &self.gpu,
                &mut encoder,
                &frame.texture,
                view,
                size,
                &painted,
                region,
                self.surface.config.usage,
            ),
            _ => self.egui.paint(&self.gpu, &mut encoder, surface_view.as_ref(), size, &painted, !drawn_into_surface),
        };
        if let Some(timer) = &gpu_timer {
            timer.mark(&mut encoder, crate::gpu::timing::MARK_UI_DRAWN);
            timer.resolve(&mut encoder);
        }
        let window_copy = match &frame {
            Some(frame) => self.copy_window(&mut encoder, &frame.texture),
            None => None,
        };
        times.encode_ui = started.elapsed();
        let submitted = self.gpu.queue.submit(extra.into_iter().chain([encoder.finish()]));
        times.submit = started.elapsed();
        if let Some(copy) = window_copy {
            self.write_window_shots(copy);
        }
        if std::mem::take(&mut self.pending_ui_check) {
            self.check_ui_picture(&painted, region);
        }
        // A benchmark's timed frames wait for the GPU here, so that presenting is timed alone.
        if gpu_timer.is_some() {
            let _ = self.gpu.device.poll(wgpu::PollType::Wait { submission_index: Some(submitted), timeout: None });
        }
        times.gpu_done = started.elapsed();
        if let Some(frame) = frame {
            self.surface.window.pre_present_notify();
            self.gpu.queue.present(frame);
        }
        times.present = started.elapsed();
        if let (Some(bench), Some(t)) = (self.bench.as_mut(), gpu_timer) {
            bench.timer = Some(t);
        }
        log::debug!("frame: {times:?}");
        self.egui.free_textures(&painted);
        self.surface.end_frame(&self.gpu.device);
        self.stats.record_work(started.elapsed());
        self.bench_after_frame(&times);
        self.take_screenshots();
        self.check_view_sees_something();
        if let Err(e) = self.gpu.check_health() {
            log::error!("{e}");
        }
    }

    /// Runs the panels over this frame's input: what they ask for, and the 3D view's rectangle and input.
    fn run_ui(&mut self, library: &[ui::pose_library::LibraryEntry]) -> (PaintedUi, Vec<UiCommand>, ViewportInput) {
        // A directly drawn 3D view is under the UI: the central panel shows no texture.
        let texture = if self.direct.is_some() { None } else { self.viewport.as_ref().map(|(_, id)| *id) };
        let toasts: Vec<ui::view_overlays::Toast> = self.toasts.iter().map(|(t, _)| t.clone()).collect();
        let adapter = self.gpu.summary.to_string();
        let loading_path = self.loading.as_ref().map(|l| l.path.clone());
        let loading_stage = self.loading.as_ref().map(|l| l.progress.describe());
        let (can_undo, can_redo) =
            self.scene.as_ref().map_or((false, false), |s| (s.editor.history.can_undo(), s.editor.history.can_redo()));
        let file_path = self.scene.as_ref().map(|s| s.path.clone());
        let driven = self
            .scene
            .as_ref()
            .map(|s| ui::drivers::displacer_driver_lines(&s.transport, s.humanoid))
            .unwrap_or_default();
        let joint_drivers = self.scene.as_ref().map(|s| s.joint_drivers()).unwrap_or_default();
        let problems = self.scene.as_ref().map(|s| s.problems.clone()).unwrap_or_default();
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
            first_run: file_path.as_deref() == Some(std::path::Path::new(super::DEFAULT_HUMANOID_NAME)),
            figure_height: self.scene.as_ref().map(|s| s.rest_bounds.size().y).filter(|h| h.is_finite()),
            view_rotation: self.last_camera.map(|c| c.world_from_camera.to_scale_rotation_translation().1),
            view_empty: self.view_empty.as_deref(),
            problems: &problems,
            driven_displacers: &driven,
            joint_drivers: &joint_drivers,
        };
        if let Some(scene) = self.scene.as_ref()
            && self.ui.limit_report.stale(&scene.transport)
        {
            self.ui.limit_report.refresh(&scene.doc, &scene.transport);
        }
        let library_folder = super::pose_files::pose_library_folder().map(|f| f.display().to_string());
        let ui_state = &mut self.ui;
        let file_browser = &mut self.file_browser;
        let (scene_view, transport, mut capture) = match self.scene.as_mut() {
            Some(s) => (Some((&s.summary, &s.editor.pose)), Some(&s.transport), s.capture.as_mut()),
            None => (None, None, None),
        };
        let mut commands = Vec::new();
        let mut viewport_input = ViewportInput::default();
        let painted = self.egui.run(&self.surface.window, |ui| {
            if let Some(transport) = transport {
                commands.extend(ui::transport::transport_commands(ui, transport).into_iter().map(UiCommand::Transport));
            }
            let dock = ui::Dock {
                library,
                library_folder: library_folder.as_deref(),
                capture: capture.as_deref_mut().map(|c| &mut c.editor),
            };
            let (c, input) = ui::app_ui_docked(ui, ui_state, scene_view, &info, texture, dock);
            commands.extend(c);
            if ui_state.limit_report.open
                && let Some(transport) = transport
            {
                let jump = ui::limit_report::limit_report_window(ui.ctx(), &mut ui_state.limit_report, transport);
                commands.extend(jump.into_iter().map(UiCommand::Transport));
            }
            if ui_state.export.open {
                commands.extend(ui::export::export_window(ui.ctx(), &mut ui_state.export, transport));
            }
            commands.extend(ui::save_x3d::save_x3d_window(ui.ctx(), &mut ui_state.save_x3d, transport));
            commands.extend(Viewer::file_browser_ui(file_browser, ui.ctx()).map(UiCommand::Open));
            viewport_input = input;
        });
        (painted, commands, viewport_input)
    }
}

impl Viewer {
    /// `check-ui-picture`: the kept UI picture must equal this frame's UI painted whole (outside the 3D
    /// view, where the picture is shown).
    fn check_ui_picture(&mut self, painted: &PaintedUi, view: PixelRect) {
        let size = [self.surface.config.width, self.surface.config.height];
        match self.egui.picture_mismatch(&self.gpu, painted, size, view) {
            Ok(Some(0)) => {
                let repainted = self.egui.cache.as_ref().map_or(0, |c| c.repainted_pixels);
                log::info!(
                    "check-ui-picture: the kept UI picture equals a full repaint ({repainted} of {} pixels repainted by the frame)",
                    u64::from(size[0]) * u64::from(size[1])
                );
            }
            Ok(Some(n)) => {
                self.fail(format!("check-ui-picture: {n} pixels of the kept UI picture differ from a full repaint"))
            }
            Ok(None) => self.fail("check-ui-picture: this frame did not paint through a kept UI picture".into()),
            Err(e) => self.fail(format!("check-ui-picture: {e}")),
        }
    }
}

/// The 3D view's pixels inside a `surface`-sized window: the central panel's `rect` (points) scaled,
/// rounded and clamped to the surface, at least one pixel.
fn view_region(rect: egui::Rect, pixels_per_point: f32, surface: [u32; 2]) -> PixelRect {
    if !rect.is_positive() {
        return PixelRect { x: 0, y: 0, width: 1, height: 1 };
    }
    let [sw, sh] = surface.map(|s| s.max(1));
    let x = ((rect.min.x * pixels_per_point).round().max(0.0) as u32).min(sw - 1);
    let y = ((rect.min.y * pixels_per_point).round().max(0.0) as u32).min(sh - 1);
    let width = ((rect.width() * pixels_per_point).round() as u32).clamp(1, sw - x);
    let height = ((rect.height() * pixels_per_point).round() as u32).clamp(1, sh - y);
    PixelRect { x, y, width, height }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_view_region_is_scaled_and_kept_inside_the_surface() {
        let rect = egui::Rect::from_min_max(egui::pos2(100.0, 20.0), egui::pos2(500.0, 320.0));
        assert_eq!(view_region(rect, 2.0, [2000, 2000]), PixelRect { x: 200, y: 40, width: 800, height: 600 });
        assert_eq!(view_region(rect, 2.0, [900, 500]), PixelRect { x: 200, y: 40, width: 700, height: 460 });
        assert_eq!(view_region(egui::Rect::NOTHING, 1.0, [10, 10]), PixelRect { x: 0, y: 0, width: 1, height: 1 });
    }
}
