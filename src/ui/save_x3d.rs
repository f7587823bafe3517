//! File ▸ Save as X3D…: a copy of the open file with the selected authored clip added (an HAnimMotion
//! sampled at a frame rate, or TimeSensor + interpolators for X3D 3.3 players) and, optionally, the
//! pose shown written as the joints' rest rotations, in X3D XML, ClassicVRML or X3D JSON. The window
//! holds the choices; *Save…* asks where.

use super::command::UiCommand;
use crate::animation::Transport;

/// The choices of the Save as X3D window (this session only).
#[derive(Debug, Clone, PartialEq)]
pub struct SaveX3dSettings {
    pub open: bool,
    /// Frames per second of the HAnimMotion.
    pub fps: f64,
    pub as_interpolators: bool,
    /// Also write the pose shown as the joints' rest rotations.
    pub rest_pose: bool,
    /// The encoding written when the file name chosen names none.
    pub encoding: crate::x3d::Encoding,
}

impl Default for SaveX3dSettings {
    fn default() -> Self {
        SaveX3dSettings {
            open: false,
            fps: crate::animation::authored::DEFAULT_KEY_FPS,
            as_interpolators: false,
            rest_pose: false,
            encoding: crate::x3d::Encoding::Xml,
        }
    }
}

/// The window (when open): what the user asked for.
pub fn save_x3d_window(
    ctx: &egui::Context,
    settings: &mut SaveX3dSettings,
    transport: Option<&Transport>,
) -> Vec<UiCommand> {
    let mut commands = Vec::new();
    if !settings.open {
        return commands;
    }
    let mut open = true;
    super::layout::centred(egui::Window::new("Save as X3D"), ctx)
        .open(&mut open)
        .resizable(false)
        .collapsible(false)
        .show(ctx, |ui| {
            let keys = transport.and_then(super::keys::selected_keys);
            match keys {
                Some(clip) => {
                    ui.label(format!("clip '{}': {} keys, {:.2} s", clip.name, clip.keys.len(), clip.duration()))
                }
                None => ui.weak("no authored clip selected: Set key (K) in the transport makes one"),
            };
            ui.add_enabled_ui(keys.is_some(), |ui| {
                ui.radio_value(&mut settings.as_interpolators, false, "HAnimMotion (X3D 4)");
                ui.add_enabled_ui(!settings.as_interpolators, |ui| {
                    ui.horizontal(|ui| {
                        ui.label("sampled at");
                        ui.add(egui::DragValue::new(&mut settings.fps).range(1.0..=240.0).speed(1.0).suffix(" fps"));
                    });
                    if let Some(clip) = keys {
                        let off = crate::mocap::keys_export::off_grid_keys(clip, settings.fps);
                        if !off.is_empty() {
                            ui.colored_label(
                                ui.visuals().warn_fg_color,
                                format!(
                                    "{} keys fall between frames at this rate: use a multiple of {} fps",
                                    off.len(),
                                    clip.fps
                                ),
                            );
                        }
                    }
                });
                ui.radio_value(&mut settings.as_interpolators, true, "TimeSensor + interpolators (X3D 3.3 players)");
            });
            ui.checkbox(&mut settings.rest_pose, "write the pose shown as the rest pose");
            ui.separator();
            ui.horizontal(|ui| {
                use crate::x3d::Encoding;
                ui.label("encoding");
                ui.radio_value(&mut settings.encoding, Encoding::Xml, "X3D XML");
                ui.radio_value(&mut settings.encoding, Encoding::Classic, "ClassicVRML");
                ui.radio_value(&mut settings.encoding, Encoding::Json, "X3D JSON");
            });
            if keys.is_none() && !settings.rest_pose {
                ui.weak("nothing to add: the file is written as it is, in the encoding chosen");
            }
            if ui.button("Save…").clicked() {
                commands.push(UiCommand::SaveX3dDialog);
            }
        });
    settings.open &= open;
    commands
}
