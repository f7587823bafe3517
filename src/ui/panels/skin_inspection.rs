//! View ▸ Skin inspection: the overlay's choices in the menu, and a window with the legend of the shown
//! colouring and the influences of the vertex last picked in the 3D view.

use crate::pose::skin_inspection::{INFLUENCE_COLORS, INFLUENCE_LABELS, OverlayMode, WeightSum, heat};
use crate::ui::UiState;

/// A skin point picked in the 3D view, with its influences as the file gives them.
#[derive(Debug, Clone, PartialEq)]
pub struct PickedVertex {
    /// Index of the point in the skin's coordinates (`skinCoord`).
    pub point: usize,
    /// (joint name, weight) in the skin's influence order.
    pub influences: Vec<(String, f32)>,
    /// Where the point was when it was picked (world space), for its marker in the 3D view.
    pub position: glam::Vec3,
}

impl PickedVertex {
    /// One line: `point 123: l_shoulder 0.7500, l_elbow 0.2500 (sum 1.0000)`.
    pub fn describe(&self) -> String {
        let list: Vec<String> = self.influences.iter().map(|(name, w)| format!("{name} {w:.4}")).collect();
        let sum: f32 = self.influences.iter().map(|(_, w)| w).sum();
        if list.is_empty() {
            return format!("point {}: no influence", self.point);
        }
        format!("point {}: {} (sum {sum:.4})", self.point, list.join(", "))
    }
}

fn color32(srgb: [f32; 3]) -> egui::Color32 {
    let [r, g, b] = srgb.map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8);
    egui::Color32::from_rgb(r, g, b)
}

fn swatch(ui: &mut egui::Ui, srgb: [f32; 3], label: &str) {
    ui.horizontal(|ui| {
        let (rect, _) = ui.allocate_exact_size(egui::vec2(18.0, 12.0), egui::Sense::hover());
        ui.painter().rect_filled(rect, 2.0, color32(srgb));
        ui.label(label);
    });
}

/// The overlay's entries of the View menu.
pub fn skin_inspection_menu(ui: &mut egui::Ui, state: &mut UiState) {
    ui.menu_button("Skin inspection", |ui| {
        ui.radio_value(&mut state.skin_overlay, OverlayMode::Off, "Materials (no colouring)");
        ui.radio_value(&mut state.skin_overlay, OverlayMode::Heatmap, "Weight heatmap of the selected joint")
            .on_hover_text("blue 0 → red 1 (Turbo); segments count as 100 % their joint's");
        ui.radio_value(&mut state.skin_overlay, OverlayMode::Influences, "Influence count");
        ui.radio_value(&mut state.skin_overlay, OverlayMode::WeightSums, "Unweighted and over-weighted vertices");
        ui.separator();
        ui.checkbox(&mut state.show_joint_axes, "Joint local axes");
        ui.checkbox(&mut state.show_sites, "Sites and end effectors (names on hover)");
        ui.weak("Click the figure with a colouring on to see a vertex's influences.");
    });
}

/// The legend and the picked vertex, while a colouring is shown or a vertex is picked: a small box in the
/// bottom-left corner of the 3D view (`view`).
pub fn skin_inspection_window(
    ctx: &egui::Context,
    view: egui::Rect,
    state: &mut UiState,
    selected_joint: Option<&str>,
) {
    if state.skin_overlay == OverlayMode::Off && state.picked_vertex.is_none() {
        return;
    }
    let mut clear = false;
    egui::Window::new("Skin inspection")
        .title_bar(false)
        .pivot(egui::Align2::LEFT_BOTTOM)
        .fixed_pos(view.left_bottom() + egui::vec2(6.0, -6.0))
        .resizable(false)
        .show(ctx, |ui| {
            ui.spacing_mut().item_spacing.y = 2.0;
            match state.skin_overlay {
                OverlayMode::Off => {}
                OverlayMode::Heatmap => {
                    ui.label(format!("Weight of {}", selected_joint.unwrap_or("(select a joint)")));
                    let (rect, _) = ui.allocate_exact_size(egui::vec2(160.0, 12.0), egui::Sense::hover());
                    let steps = 32;
                    for k in 0..steps {
                        let w = k as f32 / (steps - 1) as f32;
                        let x0 = rect.left() + rect.width() * k as f32 / steps as f32;
                        let x1 = rect.left() + rect.width() * (k + 1) as f32 / steps as f32;
                        let cell = egui::Rect::from_min_max(egui::pos2(x0, rect.top()), egui::pos2(x1, rect.bottom()));
                        ui.painter().rect_filled(cell, 0.0, color32(heat(w)));
                    }
                    ui.horizontal(|ui| {
                        ui.label("0");
                        ui.add_space(130.0);
                        ui.label("1");
                    });
                }
                OverlayMode::Influences => {
                    ui.label("Joints weighing each vertex");
                    ui.horizontal(|ui| {
                        for (color, label) in INFLUENCE_COLORS.iter().zip(INFLUENCE_LABELS) {
                            swatch(ui, *color, label);
                        }
                    });
                }
                OverlayMode::WeightSums => {
                    ui.label("Sum of each vertex's weights");
                    for sum in WeightSum::ALL {
                        swatch(ui, sum.color(), sum.label());
                    }
                }
            }
            if let Some(picked) = &state.picked_vertex {
                let picked = picked.clone();
                ui.separator();
                ui.horizontal(|ui| {
                    ui.label(format!("Picked: skin point {}", picked.point));
                    if ui.small_button("Clear").clicked() {
                        clear = true;
                    }
                });
                if picked.influences.is_empty() {
                    ui.label("no joint weighs it");
                }
                egui::Grid::new("picked_influences").striped(true).show(ui, |ui| {
                    for (name, w) in &picked.influences {
                        ui.label(name);
                        ui.label(format!("{w:.4}"));
                        ui.end_row();
                    }
                    let sum: f32 = picked.influences.iter().map(|(_, w)| w).sum();
                    ui.strong("sum");
                    ui.strong(format!("{sum:.4}"));
                    ui.end_row();
                });
            }
        });
    if clear {
        state.picked_vertex = None;
    }
}
