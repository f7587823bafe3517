//! The transport panel: the clip list with enable toggles, play/pause (Space), stop, step frame (Left/Right arrows),
//! speed, loop, the timeline scrubber (frame and seconds; draggable while playing) and the playback
//! options. It only changes the [`Transport`]; the app samples it into the pose every frame.

use crate::animation::{ClipSource, EulerOrder, Interpolation, MAX_SPEED, MIN_SPEED, RootMode, Transport};

/// Space and the arrow keys, when no text field has the keyboard.
pub fn transport_keys(ui: &mut egui::Ui, transport: &mut Transport) {
    if ui.ctx().egui_wants_keyboard_input() || transport.animations.clips.is_empty() {
        return;
    }
    use egui::{Key, Modifiers};
    ui.input_mut(|i| {
        if i.consume_key(Modifiers::NONE, Key::Space) {
            transport.toggle_play();
        }
        if i.consume_key(Modifiers::NONE, Key::ArrowRight) {
            transport.step(1);
        }
        if i.consume_key(Modifiers::NONE, Key::ArrowLeft) {
            transport.step(-1);
        }
    });
}

/// `seconds` as `m:ss.ss` above a minute, else `s.ss s`.
fn seconds_text(seconds: f64) -> String {
    if seconds >= 60.0 {
        format!("{}:{:05.2}", (seconds / 60.0).floor(), seconds % 60.0)
    } else {
        format!("{seconds:.2} s")
    }
}

/// The transport as a bottom panel of the window; nothing when the file has no clips.
pub fn transport_panel(ui: &mut egui::Ui, transport: &mut Transport) {
    transport_keys(ui, transport);
    if transport.animations.clips.is_empty() {
        return;
    }
    egui::Panel::bottom("transport").resizable(false).show(ui, |ui| transport_ui(ui, transport));
}

/// The panel's content.
pub fn transport_ui(ui: &mut egui::Ui, transport: &mut Transport) {
    // Wrapped, so a narrow window stacks the controls instead of widening the panel.
    ui.horizontal_wrapped(|ui| {
        let play = if transport.playing { "Pause" } else { "Play" };
        if ui.button(play).on_hover_text("Space").clicked() {
            transport.toggle_play();
        }
        if ui.button("Stop").on_hover_text("stop and go back to the start").clicked() {
            transport.stop();
        }
        if ui.button("< Frame").on_hover_text("previous frame (Left arrow)").clicked() {
            transport.step(-1);
        }
        if ui.button("Frame >").on_hover_text("next frame (Right arrow)").clicked() {
            transport.step(1);
        }
        ui.separator();
        let mut speed = transport.speed;
        let slider = egui::Slider::new(&mut speed, MIN_SPEED..=MAX_SPEED)
            .logarithmic(true)
            .text("speed")
            .suffix("×")
            .fixed_decimals(2);
        if ui.add(slider).changed() {
            transport.set_speed(speed);
        }
        if let Some(i) = transport.selected
            && let Some(clip) = transport.animations.clips.get_mut(i)
        {
            ui.checkbox(&mut clip.looping, "loop");
        }
        ui.separator();
        let mut stepped = transport.options.interpolation == Interpolation::Stepped;
        if ui.checkbox(&mut stepped, "raw frames").on_hover_text("show frames as stored, without slerp").changed() {
            transport.options.interpolation = if stepped { Interpolation::Stepped } else { Interpolation::Smooth };
        }
        egui::ComboBox::from_label("root").selected_text(transport.options.root_mode.label()).show_ui(ui, |ui| {
            for mode in RootMode::ALL {
                ui.selectable_value(&mut transport.options.root_mode, mode, mode.label());
            }
        });
        let mut xite = transport.options.euler_order == EulerOrder::Xyz;
        if ui
            .checkbox(&mut xite, "X_ITE Euler order")
            .on_hover_text("multiply rotation channels as Rx·Ry·Rz, as X_ITE does, instead of in the listed order")
            .changed()
        {
            transport.options.euler_order = if xite { EulerOrder::Xyz } else { EulerOrder::Listed };
        }
        ui.checkbox(&mut transport.follow_root, "camera follows root");
    });
    timeline_ui(ui, transport);
    egui::CollapsingHeader::new(format!("Motions ({})", transport.animations.clips.len())).default_open(true).show(
        ui,
        |ui| {
            egui::ScrollArea::vertical()
                .max_height(120.0)
                .id_salt("motion_list")
                .show(ui, |ui| clip_list_ui(ui, transport));
        },
    );
}

/// The scrubber of the selected clip: frames for an HAnimMotion, seconds for an interpolator clip.
fn timeline_ui(ui: &mut egui::Ui, transport: &mut Transport) {
    /// What a drag asks for, applied once the clip is no longer borrowed.
    enum Seek {
        Frame(usize),
        Time(f64),
    }
    let mode = transport.options.interpolation;
    let time = transport.time;
    let Some(clip) = transport.selected_clip() else {
        ui.weak("no playable clip");
        return;
    };
    let duration = clip.duration(mode);
    // Within one pass, as the clip shows it (a looping clip wraps).
    let shown = if clip.looping && duration > 0.0 { time.rem_euclid(duration) } else { time.clamp(0.0, duration) };
    let mut seek = None;
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
                    seek = Some(Seek::Frame(frame));
                }
                ui.label(format!("{u:.1} / {} · {}", motion.frame_count.saturating_sub(1), seconds_text(shown)));
            }
            ClipSource::Interpolators(_) => {
                let mut seconds = shown;
                let slider = egui::Slider::new(&mut seconds, 0.0..=duration.max(1e-3))
                    .text("s")
                    .clamping(egui::SliderClamping::Always);
                if ui.add(slider).changed() {
                    seek = Some(Seek::Time(seconds));
                }
                ui.label(format!("{} / {}", seconds_text(shown), seconds_text(duration)));
            }
        }
    });
    match seek {
        Some(Seek::Frame(frame)) => transport.seek_frame(frame),
        Some(Seek::Time(seconds)) => transport.seek_time(seconds),
        None => {}
    }
}

fn clip_list_ui(ui: &mut egui::Ui, transport: &mut Transport) {
    let mode = transport.options.interpolation;
    let mut select = None;
    let mut toggled = false;
    egui::Grid::new("clips").striped(true).show(ui, |ui| {
        for (i, clip) in transport.animations.clips.iter_mut().enumerate() {
            let unsupported = clip.unsupported().map(str::to_string);
            let enabled = ui.add_enabled(unsupported.is_none(), egui::Checkbox::new(&mut clip.enabled, "enabled"));
            toggled |= enabled.changed();
            if let Some(reason) = &unsupported {
                enabled.on_disabled_hover_text(reason);
            }
            if ui.selectable_label(transport.selected == Some(i), clip.name()).clicked() {
                select = Some(i);
            }
            let what = match clip.frame_count() {
                Some(frames) => format!("HAnimMotion, {frames} frames, {}", seconds_text(clip.duration(mode))),
                None => format!("interpolators, {}", seconds_text(clip.duration(mode))),
            };
            ui.weak(what);
            match &unsupported {
                Some(reason) => ui.colored_label(ui.visuals().warn_fg_color, format!("unsupported: {reason}")),
                None => ui.label(""),
            };
            ui.end_row();
        }
    });
    if let Some(i) = select {
        transport.selected = Some(i);
    }
    if toggled {
        transport.engaged = true;
    }
}
