//! One frame of the window, start to present: load and script steps, the UI (egui) and its commands,
//! camera and playback, then one command encoder with the skin/morph pass, the scene pass into the 3D view
//! and the egui pass into the surface texture.

use std::time::{Duration, Instant};

use super::egui_layer::PaintedUi;
use super::{TOAST_SECONDS, Viewer};
use crate::ui::{self, FrameInfo, UiCommand, ViewportInput};

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
        if dt > 0.0 {
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
        self.toasts.retain(|(_, t)| now.duration_since(*t) < Duration::from_secs_f64(TOAST_SECONDS));
        if self.surface.minimized {
            return;
        }
        for command in self.script_commands() {
            self.apply(command);
        }
        if let Err(crate::gpu::GpuError::DeviceLost(reason)) = self.gpu.check_health() {
            self.recover_device(&reason);
        }

        let (painted, commands, viewport_input) = self.run_ui();
        self.next_repaint = painted.next_repaint;
        for command in commands {
            self.apply(command);
        }
        let pixels_per_point = painted.pixels_per_point;
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
        let camera = self.frame_camera(dt);

        let t_ui = started.elapsed();
        let frame = self.surface.acquire(&self.gpu);
        let t_acquire = started.elapsed();
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
        let surface_view = frame.as_ref().map(|f| f.texture.create_view(&wgpu::TextureViewDescriptor::default()));
        let size = [self.surface.config.width, self.surface.config.height];
        let extra = self.egui.paint(&self.gpu, &mut encoder, surface_view.as_ref(), size, &painted);
        self.gpu.queue.submit(extra.into_iter().chain([encoder.finish()]));
        let t_submit = started.elapsed();
        if let Some(frame) = frame {
            self.surface.window.pre_present_notify();
            self.gpu.queue.present(frame);
        }
        log::debug!(
            "frame: ui {:.1} ms, acquire {:.1} ms, encode+submit {:.1} ms, present {:.1} ms",
            t_ui.as_secs_f64() * 1e3,
            (t_acquire - t_ui).as_secs_f64() * 1e3,
            (t_submit - t_acquire).as_secs_f64() * 1e3,
            (started.elapsed() - t_submit).as_secs_f64() * 1e3
        );
        self.egui.free_textures(&painted);
        self.surface.end_frame(&self.gpu.device);
        self.stats.record_work(started.elapsed());
        self.take_screenshots();
        if let Err(e) = self.gpu.check_health() {
            log::error!("{e}");
        }
    }

    /// Runs the panels over this frame's input: what they ask for, and the 3D view's rectangle and input.
    fn run_ui(&mut self) -> (PaintedUi, Vec<UiCommand>, ViewportInput) {
        let texture = self.viewport.as_ref().map(|(_, id)| *id);
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
            first_run: file_path.as_deref() == Some(std::path::Path::new(super::DEFAULT_HUMANOID_NAME)),
        };
        let ui_state = &mut self.ui;
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
            let (c, input) = ui::app_ui(ui, ui_state, scene_view, &info, texture);
            commands.extend(c);
            if let Some(capture) = capture.as_deref_mut() {
                commands.extend(capture.editor.window(ui.ctx()));
            }
            if ui_state.export.open {
                commands.extend(ui::export::export_window(ui.ctx(), &mut ui_state.export, transport));
            }
            viewport_input = input;
        });
        (painted, commands, viewport_input)
    }
}
