//! File ▸ Export animation…: the clip in the transport (a time range, from the scrubber) or a turntable
//! of the current pose, written as GIF, APNG, WebP, MP4 or WebM with the same choices `render` offers.
//! The window only gathers the settings; the app renders and writes.

use crate::animation::Transport;
use crate::output::AnimationFormat;

use super::UiCommand;

/// What is exported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportWhat {
    /// The transport's selected clip over [`ExportSettings::start`, `end`].
    Clip,
    /// The current pose, circled once.
    Turntable,
}

impl ExportWhat {
    pub fn from_name(name: &str) -> Option<ExportWhat> {
        match name {
            "clip" => Some(ExportWhat::Clip),
            "turntable" => Some(ExportWhat::Turntable),
            _ => None,
        }
    }
}

/// The export window's choices (kept for the session, not between runs).
#[derive(Debug, Clone, PartialEq)]
pub struct ExportSettings {
    pub open: bool,
    pub what: ExportWhat,
    /// The format the save dialog proposes (the chosen file's extension decides).
    pub format: AnimationFormat,
    pub size: [u32; 2],
    pub fps: f64,
    /// 0 = forever.
    pub loops: u32,
    /// Seconds of the clip; `end` `None` is the clip's end.
    pub start: f64,
    pub end: Option<f64>,
    pub turntable_seconds: f64,
    /// GIF colours.
    pub colors: u16,
}

impl Default for ExportSettings {
    fn default() -> Self {
        ExportSettings {
            open: false,
            what: ExportWhat::Clip,
            format: AnimationFormat::Gif,
            size: [480, 480],
            fps: 15.0,
            loops: 0,
            start: 0.0,
            end: None,
            turntable_seconds: 4.0,
            colors: 256,
        }
    }
}

impl ExportSettings {
    /// The clip's seconds to export, `[start, end]` within `0..=duration`.
    pub fn range(&self, duration: f64) -> (f64, f64) {
        let start = self.start.clamp(0.0, duration.max(0.0));
        let end = self.end.unwrap_or(duration).clamp(start, duration.max(start));
        (start, end)
    }

    /// The times a clip range is shown at, 1/fps apart, both ends included.
    pub fn clip_times(&self, duration: f64) -> Vec<f64> {
        let (start, end) = self.range(duration);
        let count = ((end - start) * self.fps + 1e-9).floor() as usize + 1;
        (0..count).map(|i| start + i as f64 / self.fps).collect()
    }

    /// Frames of a turntable.
    pub fn turntable_frames(&self) -> usize {
        ((self.turntable_seconds * self.fps).round() as usize).max(1)
    }
}

/// The export window (when open): what it asks for this frame.
pub fn export_window(
    ctx: &egui::Context,
    settings: &mut ExportSettings,
    transport: Option<&Transport>,
) -> Vec<UiCommand> {
    let mut commands = Vec::new();
    let mut open = settings.open;
    let clip = transport.and_then(|t| t.selected.map(|i| (&t.animations.clips[i], t)));
    super::layout::centred(egui::Window::new("Export animation"), ctx)
        .open(&mut open)
        .resizable(false)
        .collapsible(false)
        .show(ctx, |ui| {
            let clip_label = match clip {
                Some((c, t)) => format!("Clip '{}' ({:.2} s)", c.name(), c.duration(t.options.interpolation)),
                None => "Clip (the file has none selected)".to_string(),
            };
            ui.add_enabled_ui(clip.is_some(), |ui| ui.radio_value(&mut settings.what, ExportWhat::Clip, clip_label));
            if clip.is_none() {
                settings.what = ExportWhat::Turntable;
            }
            ui.radio_value(&mut settings.what, ExportWhat::Turntable, "Turntable of the current pose");
            ui.separator();
            egui::Grid::new("export_settings").num_columns(2).show(ui, |ui| {
                match (settings.what, clip) {
                    (ExportWhat::Clip, Some((c, t))) => {
                        let duration = c.duration(t.options.interpolation);
                        let (mut start, mut end) = settings.range(duration);
                        ui.label("From");
                        ui.horizontal(|ui| {
                            if ui
                                .add(egui::DragValue::new(&mut start).range(0.0..=duration).speed(0.01).suffix(" s"))
                                .changed()
                            {
                                settings.start = start;
                            }
                            if ui.button("At the scrubber").clicked() {
                                settings.start = t.time.clamp(0.0, duration);
                            }
                        });
                        ui.end_row();
                        ui.label("To");
                        ui.horizontal(|ui| {
                            if ui
                                .add(egui::DragValue::new(&mut end).range(0.0..=duration).speed(0.01).suffix(" s"))
                                .changed()
                            {
                                settings.end = Some(end);
                            }
                            if ui.button("At the scrubber").clicked() {
                                settings.end = Some(t.time.clamp(0.0, duration));
                            }
                            if ui.button("Clip's end").clicked() {
                                settings.end = None;
                            }
                        });
                        ui.end_row();
                    }
                    _ => {
                        ui.label("One turn in");
                        ui.add(
                            egui::DragValue::new(&mut settings.turntable_seconds)
                                .range(0.5..=60.0)
                                .speed(0.1)
                                .suffix(" s"),
                        );
                        ui.end_row();
                    }
                }
                ui.label("Size");
                ui.horizontal(|ui| {
                    ui.add(egui::DragValue::new(&mut settings.size[0]).range(16..=4096).suffix(" px"));
                    ui.label("×");
                    ui.add(egui::DragValue::new(&mut settings.size[1]).range(16..=4096).suffix(" px"));
                });
                ui.end_row();
                ui.label("Frames per second");
                ui.add(egui::DragValue::new(&mut settings.fps).range(1.0..=60.0).speed(0.5));
                ui.end_row();
                ui.label("Plays");
                ui.horizontal(|ui| {
                    ui.add(egui::DragValue::new(&mut settings.loops).range(0..=1000));
                    ui.weak(if settings.loops == 0 { "forever" } else { "times" });
                });
                ui.end_row();
                ui.label("GIF colours");
                ui.add(egui::DragValue::new(&mut settings.colors).range(2..=256));
                ui.end_row();
                ui.label("Format");
                egui::ComboBox::from_id_salt("export_format").selected_text(settings.format.extension()).show_ui(
                    ui,
                    |ui| {
                        for (format, name) in AnimationFormat::ALL {
                            let label =
                                if format.needs_ffmpeg() { format!("{name} (needs ffmpeg)") } else { name.to_string() };
                            ui.selectable_value(&mut settings.format, format, label);
                        }
                    },
                );
                ui.end_row();
            });
            ui.separator();
            if ui.button("Export…").clicked() {
                commands.push(UiCommand::ExportAnimationDialog);
            }
        });
    settings.open = open && settings.open;
    commands
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_stay_inside_the_clip_and_include_both_ends() {
        let mut s = ExportSettings { fps: 4.0, ..ExportSettings::default() };
        assert_eq!(s.clip_times(1.0), [0.0, 0.25, 0.5, 0.75, 1.0]);
        s.start = 0.5;
        s.end = Some(9.0);
        assert_eq!(s.range(1.0), (0.5, 1.0));
        s.end = Some(0.1);
        assert_eq!(s.range(1.0), (0.5, 0.5), "an end before the start is the start");
        assert_eq!(s.clip_times(1.0), [0.5]);
        s.turntable_seconds = 2.0;
        assert_eq!(s.turntable_frames(), 8);
    }
}
