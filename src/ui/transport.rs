//! The transport panel: the clip list with enable toggles, play/pause (Space), stop, step frame (Left/Right arrows),
//! speed, loop, the timeline scrubber (frame and seconds; draggable while playing) and the playback
//! options. Like the other panels it reads the [`Transport`] and returns what the user asked for
//! ([`TransportCommand`]); [`TransportCommand::apply`] carries that out, and the app then samples the
//! transport into the pose every frame.

use super::bindings::{self, Action};
use super::keys::{self, KeyCommand};
use crate::animation::{ClipSource, Interpolation, MAX_SPEED, MIN_SPEED, PlayMode, RootMode, Transport};

/// A change to the transport asked for in the panel or by its keys.
#[derive(Debug, Clone, PartialEq)]
pub enum TransportCommand {
    TogglePlay,
    /// Stops and goes back to the start.
    Stop,
    /// One frame forward (+1) or back (-1).
    Step(i32),
    SetSpeed(f32),
    /// Whether clip `n` loops.
    SetLooping(usize, bool),
    SetInterpolation(Interpolation),
    SetRootMode(RootMode),
    SetFollowRoot(bool),
    SeekFrame(usize),
    SeekTime(f64),
    /// Shows clip `n` in the scrubber.
    Select(usize),
    /// Turns clip `n` on or off (the transport drives the pose again).
    SetEnabled(usize, bool),
    /// One clip at a time, or the whole scene as the file says.
    SetMode(PlayMode),
    /// A key edit: it needs the pose editor (the app hands it to [`PoseEditor::apply_key`]).
    ///
    /// [`PoseEditor::apply_key`]: super::edit::PoseEditor::apply_key
    Key(KeyCommand),
}

impl TransportCommand {
    /// Carries the command out; what the user should be told (a clip turned on to play it, or why it
    /// cannot play), if anything.
    pub fn apply(self, transport: &mut Transport) -> Option<String> {
        match self {
            TransportCommand::TogglePlay => return transport.toggle_play_saying(),
            TransportCommand::Stop => transport.stop(),
            TransportCommand::Step(direction) => transport.step(direction),
            TransportCommand::SetSpeed(speed) => transport.set_speed(speed),
            TransportCommand::SetLooping(i, looping) => {
                if let Some(clip) = transport.animations.clips.get_mut(i) {
                    clip.looping = looping;
                }
            }
            TransportCommand::SetInterpolation(mode) => transport.options.interpolation = mode,
            TransportCommand::SetRootMode(mode) => transport.options.root_mode = mode,
            TransportCommand::SetFollowRoot(follow) => transport.follow_root = follow,
            TransportCommand::SeekFrame(frame) => transport.seek_frame(frame),
            TransportCommand::SeekTime(seconds) => transport.seek_time(seconds),
            TransportCommand::Select(i) => transport.selected = Some(i),
            TransportCommand::SetEnabled(i, enabled) => {
                if let Some(clip) = transport.animations.clips.get_mut(i) {
                    clip.enabled = enabled;
                    transport.engaged = true;
                }
            }
            TransportCommand::SetMode(mode) => transport.set_mode(mode),
            TransportCommand::Key(command) => log::debug!("{command:?} needs the pose editor"),
        }
        None
    }
}

/// The transport's keys of [`bindings::BINDINGS`] (play, step, set key), when no text field has the
/// keyboard; play and step only when there is something to play.
pub fn transport_keys(ui: &mut egui::Ui, transport: &Transport, out: &mut Vec<TransportCommand>) {
    let playable = has_panel(transport);
    let wanted = |a: Action| a == Action::SetKey || (playable && bindings::is_transport(a));
    for action in bindings::pressed(ui, wanted) {
        match action {
            Action::SetKey => out.push(TransportCommand::Key(KeyCommand::Set)),
            Action::PlayPause => out.push(TransportCommand::TogglePlay),
            Action::Step(direction) => out.push(TransportCommand::Step(direction)),
            _ => {}
        }
    }
}

/// `seconds` as `m:ss.ss` above a minute, else `s.ss s`.
fn seconds_text(seconds: f64) -> String {
    if seconds >= 60.0 {
        format!("{}:{:05.2}", (seconds / 60.0).floor(), seconds % 60.0)
    } else {
        format!("{seconds:.2} s")
    }
}

/// Whether the transport has anything to play: clips, or scene animation.
fn has_panel(transport: &Transport) -> bool {
    !transport.animations.clips.is_empty() || transport.scene_animated
}

/// The transport as a bottom panel of the window: what the user asked for this frame. A file with
/// neither clips nor scene animation gets one row, *Set key*, to start an authored clip.
pub fn transport_commands(ui: &mut egui::Ui, transport: &Transport) -> Vec<TransportCommand> {
    let mut out = Vec::new();
    transport_keys(ui, transport, &mut out);
    egui::Panel::bottom("transport").resizable(false).show(ui, |ui| {
        if has_panel(transport) {
            transport_ui(ui, transport, &mut out);
        } else {
            ui.horizontal(|ui| {
                keys::key_buttons(ui, transport, &mut out);
                ui.weak("no motions: Set key (K) stores the pose as the first key of a new clip");
            });
        }
    });
    out
}

/// The panel, with what it asks for applied at once (for callers that own the transport outright).
pub fn transport_panel(ui: &mut egui::Ui, transport: &mut Transport) {
    for command in transport_commands(ui, transport) {
        if let Some(message) = command.apply(transport) {
            log::info!("{message}");
        }
    }
}

/// The panel's content.
pub fn transport_ui(ui: &mut egui::Ui, transport: &Transport, out: &mut Vec<TransportCommand>) {
    // Wrapped, so a narrow window stacks the controls instead of widening the panel.
    ui.horizontal_wrapped(|ui| {
        if transport.scene_animated {
            mode_ui(ui, transport, out);
            ui.separator();
        }
        let play = if transport.playing { "Pause" } else { "Play" };
        // As wide as the wider of its two words, so the controls after it stay put when it changes.
        let width = ["Play", "Pause"]
            .map(|w| {
                let font = egui::TextStyle::Button.resolve(ui.style());
                ui.painter().layout_no_wrap(w.to_owned(), font, egui::Color32::WHITE).size().x
            })
            .into_iter()
            .fold(0.0, f32::max)
            + 2.0 * ui.spacing().button_padding.x;
        if ui.add(egui::Button::new(play).min_size(egui::vec2(width, 0.0))).on_hover_text("Space").clicked() {
            out.push(TransportCommand::TogglePlay);
        }
        if ui.button("Stop").on_hover_text("stop and go back to the start").clicked() {
            out.push(TransportCommand::Stop);
        }
        if ui.button("< Frame").on_hover_text("previous frame (Left arrow)").clicked() {
            out.push(TransportCommand::Step(-1));
        }
        if ui.button("Frame >").on_hover_text("next frame (Right arrow)").clicked() {
            out.push(TransportCommand::Step(1));
        }
        ui.separator();
        let mut speed = transport.speed;
        let slider = egui::Slider::new(&mut speed, MIN_SPEED..=MAX_SPEED)
            .logarithmic(true)
            .text("speed")
            .suffix("×")
            .fixed_decimals(2);
        if ui.add(slider).changed() {
            out.push(TransportCommand::SetSpeed(speed));
        }
        if let Some(i) = transport.selected
            && let Some(clip) = transport.animations.clips.get(i)
        {
            let mut looping = clip.looping;
            if ui.checkbox(&mut looping, "loop").changed() {
                out.push(TransportCommand::SetLooping(i, looping));
            }
        }
        ui.separator();
        let mut stepped = transport.options.interpolation == Interpolation::Stepped;
        if ui.checkbox(&mut stepped, "raw frames").on_hover_text("show frames as stored, without slerp").changed() {
            out.push(TransportCommand::SetInterpolation(if stepped {
                Interpolation::Stepped
            } else {
                Interpolation::Smooth
            }));
        }
        egui::ComboBox::from_label("root").selected_text(transport.options.root_mode.label()).show_ui(ui, |ui| {
            for mode in RootMode::ALL {
                if ui.selectable_label(transport.options.root_mode == mode, mode.label()).clicked() {
                    out.push(TransportCommand::SetRootMode(mode));
                }
            }
        });
        let mut follow = transport.follow_root;
        if ui.checkbox(&mut follow, "camera follows root").changed() {
            out.push(TransportCommand::SetFollowRoot(follow));
        }
    });
    timeline_ui(ui, transport, out);
    egui::CollapsingHeader::new(format!("Motions ({})", transport.animations.clips.len())).default_open(true).show(
        ui,
        |ui| {
            egui::ScrollArea::vertical()
                .max_height(120.0)
                .id_salt("motion_list")
                .show(ui, |ui| clip_list_ui(ui, transport, out));
        },
    );
}

/// The play-mode switch: "one clip" (inspect a motion) or "as the file says" (X3D's time model: every
/// enabled sensor at once on the scene clock, scene Transforms and Viewpoints moving).
fn mode_ui(ui: &mut egui::Ui, transport: &Transport, out: &mut Vec<TransportCommand>) {
    for (mode, label, hover) in [
        (PlayMode::OneClip, "one clip", "play the clips on the timeline, one at a time: for inspecting a motion"),
        (
            PlayMode::AsFile,
            "as the file says",
            "every enabled sensor and motion at once on the scene clock; scene objects and viewpoints move",
        ),
    ] {
        if ui.selectable_label(transport.mode == mode, label).on_hover_text(hover).clicked() && transport.mode != mode {
            out.push(TransportCommand::SetMode(mode));
        }
    }
}

/// The scrubber of the selected clip: frames for an HAnimMotion, seconds for an interpolator clip; the
/// scene clock's seconds as the file says.
fn timeline_ui(ui: &mut egui::Ui, transport: &Transport, out: &mut Vec<TransportCommand>) {
    let mode = transport.options.interpolation;
    let time = transport.time;
    if transport.mode == PlayMode::AsFile {
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new("scene time").strong());
            let mut seconds = time;
            let drag = egui::DragValue::new(&mut seconds).speed(0.01).range(0.0..=f64::MAX).suffix(" s");
            if ui.add(drag).changed() {
                out.push(TransportCommand::SeekTime(seconds));
            }
        });
        // The key row in every mode, so the panel keeps its height when the mode changes.
        ui.horizontal(|ui| keys::key_buttons(ui, transport, out));
        return;
    }
    let Some(clip) = transport.selected_clip() else {
        ui.weak("no playable clip");
        ui.horizontal(|ui| keys::key_buttons(ui, transport, out));
        return;
    };
    let duration = clip.duration(mode);
    // Within one pass, as the clip shows it (a looping clip wraps).
    let shown = if clip.looping && duration > 0.0 { time.rem_euclid(duration) } else { time.clamp(0.0, duration) };
    let mut seek = None;
    // Where the authored clip's scrubber rail lies, for the key marks under it.
    let mut rail: Option<(f32, f32)> = None;
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new(clip.name()).strong());
        // Room for the name before and the frame/time text after the slider.
        let width = ui.available_width() - 260.0;
        ui.spacing_mut().slider_width = width.max(120.0);
        match &clip.source {
            ClipSource::Motion { motion, .. } => {
                let u = motion.frame_position(time, mode, clip.looping);
                let mut frame = u.round() as usize;
                let slider = egui::Slider::new(&mut frame, motion.first_frame..=motion.last_frame)
                    .text("frame")
                    .clamping(egui::SliderClamping::Always);
                if ui.add(slider).changed() {
                    seek = Some(TransportCommand::SeekFrame(frame));
                }
                ui.label(format!("{u:.1} / {} · {}", motion.frame_count.saturating_sub(1), seconds_text(shown)));
            }
            ClipSource::Interpolators(_) => {
                let mut seconds = shown;
                let slider = egui::Slider::new(&mut seconds, 0.0..=duration.max(1e-3))
                    .text("s")
                    .clamping(egui::SliderClamping::Always);
                if ui.add(slider).changed() {
                    seek = Some(TransportCommand::SeekTime(seconds));
                }
                ui.label(format!("{} / {}", seconds_text(shown), seconds_text(duration)));
            }
            ClipSource::Authored { clip: keys, .. } => {
                // Past the last key too, so that the next key can go after it.
                let span = keys::timeline_span(keys);
                let mut seconds = time.clamp(0.0, span);
                let slider = egui::Slider::new(&mut seconds, 0.0..=span)
                    .text("s")
                    .step_by(1.0 / keys.fps)
                    .clamping(egui::SliderClamping::Always);
                let response = ui.add(slider);
                rail = Some((response.rect.left(), ui.spacing().slider_width));
                if response.changed() {
                    seek = Some(TransportCommand::SeekTime(seconds));
                }
                ui.label(format!("{} / {} · {} keys", seconds_text(time), seconds_text(duration), keys.keys.len()));
            }
        }
    });
    ui.horizontal(|ui| {
        if let (ClipSource::Authored { clip: keys, .. }, Some((left, width))) = (&clip.source, rail) {
            // Right under the scrubber's rail, as wide, so a mark sits under its time.
            ui.add_space((left - ui.cursor().left()).max(0.0));
            keys::key_strip(ui, transport, keys, width, out);
        }
        keys::key_buttons(ui, transport, out);
    });
    out.extend(seek);
}

fn clip_list_ui(ui: &mut egui::Ui, transport: &Transport, out: &mut Vec<TransportCommand>) {
    let mode = transport.options.interpolation;
    egui::Grid::new("clips").striped(true).show(ui, |ui| {
        for (i, clip) in transport.animations.clips.iter().enumerate() {
            let unsupported = clip.unsupported().map(str::to_string);
            let mut on = clip.enabled;
            let enabled = ui.add_enabled(unsupported.is_none(), egui::Checkbox::new(&mut on, "enabled"));
            if enabled.changed() {
                out.push(TransportCommand::SetEnabled(i, on));
            }
            if let Some(reason) = &unsupported {
                enabled.on_disabled_hover_text(reason);
            }
            if ui.selectable_label(transport.selected == Some(i), clip.name()).clicked() {
                out.push(TransportCommand::Select(i));
            }
            let what = match (&clip.source, clip.frame_count()) {
                (ClipSource::Authored { clip: keys, .. }, _) => {
                    format!("authored, {} keys, {}", keys.keys.len(), seconds_text(clip.duration(mode)))
                }
                (_, Some(frames)) => format!("HAnimMotion, {frames} frames, {}", seconds_text(clip.duration(mode))),
                (_, None) => format!("interpolators, {}", seconds_text(clip.duration(mode))),
            };
            ui.weak(what);
            match &unsupported {
                Some(reason) => ui.colored_label(ui.visuals().warn_fg_color, format!("unsupported: {reason}")),
                None => ui.label(""),
            };
            ui.end_row();
        }
    });
}
