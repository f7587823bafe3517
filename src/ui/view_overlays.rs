//! What is drawn over the 3D view to teach and to tell: the navigation hint strip (dismissable), the
//! axis gizmo that turns the camera to look along an axis, the screenshot button, a hint when the view
//! sees no geometry, and the toasts (a saved screenshot's toast offers to open its folder).

use std::path::PathBuf;

use super::bindings::{self, Action};
use super::{FrameInfo, UiCommand, UiState};

/// A short message at the bottom right of the view; `folder`: a folder the message names (a saved
/// screenshot's), with a button to open it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Toast {
    pub message: String,
    pub folder: Option<PathBuf>,
}

/// The strip's text: how to move the camera, and where the rest is.
pub fn hint_text() -> String {
    let help = bindings::binding(Action::Help).map_or_else(String::new, |b| b.label());
    format!("Left drag: orbit  ·  Right or middle drag: pan  ·  Wheel: zoom  ·  {help}: help and all keys")
}

/// Everything drawn over the view `rect` this frame.
pub fn view_overlays_ui(
    ui: &mut egui::Ui,
    rect: egui::Rect,
    state: &mut UiState,
    info: &FrameInfo,
    commands: &mut Vec<UiCommand>,
) {
    if !rect.is_positive() {
        return;
    }
    if state.show_nav_hint {
        hint_strip(ui, rect, state);
    }
    if info.file.is_some() {
        screenshot_button(ui, rect, commands);
    }
    if let Some(rotation) = info.view_rotation {
        axis_gizmo(ui, rect, rotation, commands);
    }
    if let Some(why) = info.view_empty {
        // Wrapped to the view, so a narrow view shows it whole.
        let colour = egui::Color32::from_rgb(250, 210, 120);
        let galley =
            ui.painter().layout(why.to_string(), egui::FontId::proportional(17.0), colour, rect.width() - 32.0);
        let at = rect.center() - galley.size() / 2.0;
        ui.painter().galley(at, galley, colour);
    }
    toasts_ui(ui, rect, info.toasts, commands);
}

fn hint_strip(ui: &mut egui::Ui, rect: egui::Rect, state: &mut UiState) {
    egui::Area::new(egui::Id::unique("navigation_hint"))
        .fixed_pos(rect.left_top() + egui::vec2(8.0, 8.0))
        .order(egui::Order::Middle)
        .constrain_to(rect)
        .show(ui.ctx(), |ui| {
            // Within the view, clear of the screenshot button at its top right; wrapped when narrow.
            ui.set_max_width((rect.width() - 130.0).max(120.0));
            egui::Frame::new()
                .fill(egui::Color32::from_black_alpha(170))
                .corner_radius(4.0)
                .inner_margin(egui::Margin::symmetric(8, 4))
                .show(ui, |ui| {
                    ui.add(egui::Label::new(egui::RichText::new(hint_text()).color(egui::Color32::WHITE)).wrap());
                    if ui.small_button("Hide").on_hover_text("hide this hint (View menu brings it back)").clicked() {
                        state.show_nav_hint = false;
                    }
                });
        });
}

fn screenshot_button(ui: &mut egui::Ui, rect: egui::Rect, commands: &mut Vec<UiCommand>) {
    egui::Area::new(egui::Id::unique("screenshot_button"))
        .anchor(
            egui::Align2::RIGHT_TOP,
            egui::vec2(rect.right() - ui.ctx().content_rect().right() - 8.0, rect.top() + 8.0),
        )
        .order(egui::Order::Middle)
        .show(ui.ctx(), |ui| {
            let hover = bindings::menu_label("save the 3D view as PNG in the screenshot folder", Action::Screenshot);
            if ui.button("Screenshot").on_hover_text(hover).clicked() {
                commands.push(UiCommand::Screenshot(None));
            }
        });
}

/// An axis of the gizmo: its world direction, letter, colour and the orbit (yaw, pitch) that looks
/// along it toward the target (the camera on the axis' side).
struct GizmoAxis {
    direction: glam::Vec3,
    letter: &'static str,
    colour: egui::Color32,
    yaw: f32,
    pitch: f32,
    name: &'static str,
}

fn gizmo_axes() -> [GizmoAxis; 6] {
    use std::f32::consts::{FRAC_PI_2, PI};
    let red = egui::Color32::from_rgb(230, 70, 70);
    let green = egui::Color32::from_rgb(90, 200, 90);
    let blue = egui::Color32::from_rgb(80, 140, 250);
    let faint = |c: egui::Color32| c.gamma_multiply(0.55);
    [
        GizmoAxis {
            direction: glam::Vec3::X,
            letter: "X",
            colour: red,
            yaw: FRAC_PI_2,
            pitch: 0.0,
            name: "right side",
        },
        GizmoAxis { direction: glam::Vec3::Y, letter: "Y", colour: green, yaw: 0.0, pitch: FRAC_PI_2, name: "top" },
        GizmoAxis { direction: glam::Vec3::Z, letter: "Z", colour: blue, yaw: 0.0, pitch: 0.0, name: "front" },
        GizmoAxis {
            direction: -glam::Vec3::X,
            letter: "",
            colour: faint(red),
            yaw: -FRAC_PI_2,
            pitch: 0.0,
            name: "left side",
        },
        GizmoAxis {
            direction: -glam::Vec3::Y,
            letter: "",
            colour: faint(green),
            yaw: 0.0,
            pitch: -FRAC_PI_2,
            name: "bottom",
        },
        GizmoAxis { direction: -glam::Vec3::Z, letter: "", colour: faint(blue), yaw: PI, pitch: 0.0, name: "back" },
    ]
}

/// Radius of the gizmo, in points.
const GIZMO_RADIUS: f32 = 34.0;

/// Where the gizmo's centre is in a view `rect` (bottom left, clear of the toasts at the bottom right).
pub fn gizmo_centre(rect: egui::Rect) -> egui::Pos2 {
    egui::pos2(rect.left() + GIZMO_RADIUS + 14.0, rect.bottom() - GIZMO_RADIUS - 14.0)
}

/// The world axes as the camera (`world_from_camera` rotation) sees them, in a corner of the view;
/// clicking an axis end turns the camera to look along it.
fn axis_gizmo(ui: &mut egui::Ui, rect: egui::Rect, rotation: glam::Quat, commands: &mut Vec<UiCommand>) {
    let centre = gizmo_centre(rect);
    let camera_from_world = rotation.inverse();
    let mut axes: Vec<(GizmoAxis, glam::Vec3)> =
        gizmo_axes().into_iter().map(|a| (camera_from_world * a.direction, a)).map(|(d, a)| (a, d)).collect();
    // Far ends first, so the near ones are drawn (and clicked) on top.
    axes.sort_by(|a, b| a.1.z.total_cmp(&b.1.z));
    let painter = ui.painter_at(rect);
    painter.circle_filled(centre, GIZMO_RADIUS + 10.0, egui::Color32::from_black_alpha(90));
    let mut clicked = None;
    for (axis, d) in &axes {
        let end = centre + egui::vec2(d.x, -d.y) * GIZMO_RADIUS;
        painter.line_segment([centre, end], egui::Stroke::new(2.0, axis.colour));
        painter.circle_filled(end, 8.0, axis.colour);
        if !axis.letter.is_empty() {
            painter.text(
                end,
                egui::Align2::CENTER_CENTER,
                axis.letter,
                egui::FontId::monospace(11.0),
                egui::Color32::BLACK,
            );
        }
        let id = egui::Id::unique(("axis_gizmo", axis.name));
        let what = format!("look from the {}", axis.name);
        let response = ui.interact(egui::Rect::from_center_size(end, egui::vec2(16.0, 16.0)), id, egui::Sense::click());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &what));
        let response = response.on_hover_text(&what);
        if response.clicked() {
            clicked = Some((axis.yaw, axis.pitch));
        }
    }
    if let Some((yaw, pitch)) = clicked {
        commands.push(UiCommand::LookAlong { yaw, pitch });
    }
}

fn toasts_ui(ui: &mut egui::Ui, rect: egui::Rect, toasts: &[Toast], commands: &mut Vec<UiCommand>) {
    if toasts.is_empty() {
        return;
    }
    egui::Area::new(egui::Id::unique("toasts"))
        .anchor(
            egui::Align2::RIGHT_BOTTOM,
            egui::vec2(
                rect.right() - ui.ctx().content_rect().right() - 12.0,
                rect.bottom() - ui.ctx().content_rect().bottom() - 12.0,
            ),
        )
        .order(egui::Order::Foreground)
        .show(ui.ctx(), |ui| {
            ui.set_max_width(rect.width() * 0.8);
            for toast in toasts {
                egui::Frame::new()
                    .fill(egui::Color32::from_black_alpha(200))
                    .corner_radius(4.0)
                    .inner_margin(egui::Margin::symmetric(8, 4))
                    .show(ui, |ui| {
                        ui.horizontal(|ui| {
                            // Wrapped inside the view: a long path must not run over the side panels.
                            ui.add(
                                egui::Label::new(egui::RichText::new(&toast.message).color(egui::Color32::WHITE))
                                    .wrap(),
                            );
                            if let Some(folder) = &toast.folder
                                && ui.small_button("Open folder").on_hover_text(folder.display().to_string()).clicked()
                            {
                                commands.push(UiCommand::OpenFolder(folder.clone()));
                            }
                        });
                    });
            }
        });
}
