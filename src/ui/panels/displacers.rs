//! Displacers panel: one weight slider per displacer, grouped by the joint or segment that holds it.

use crate::pose::Pose;
use crate::ui::command::UiCommand;
use crate::ui::scene::SceneSummary;

/// `driven`: the displacers a clip sets, with the clip's name (their sliders say so: while the clip
/// plays, the slider shows the clip's weight; paused, a weight set here holds).
pub fn displacers_ui(
    ui: &mut egui::Ui,
    scene: &SceneSummary,
    pose: &Pose,
    driven: &[(usize, String)],
) -> Vec<UiCommand> {
    let mut commands = Vec::new();
    if scene.displacers.is_empty() {
        ui.weak("This humanoid has no displacers.");
        return commands;
    }
    // Owners in first-appearance order.
    let mut owners: Vec<&str> = Vec::new();
    for d in &scene.displacers {
        if !owners.contains(&d.owner.as_str()) {
            owners.push(&d.owner);
        }
    }
    for owner in owners {
        egui::CollapsingHeader::new(owner).id_salt(("displacers", owner)).default_open(true).show(ui, |ui| {
            for (i, d) in scene.displacers.iter().enumerate().filter(|(_, d)| d.owner == owner) {
                let mut weight = pose.displacer_weights.get(i).copied().unwrap_or(d.rest_weight);
                let r = labelled_slider(
                    ui,
                    egui::Slider::new(&mut weight, 0.0..=1.0).clamping(egui::SliderClamping::Never),
                    &d.label,
                );
                if r.changed() {
                    commands.push(UiCommand::SetDisplacerWeight { displacer: i, weight });
                }
                if r.drag_stopped() || r.lost_focus() {
                    commands.push(UiCommand::EndEdit);
                }
                if let Some((_, clip)) = driven.iter().find(|(d, _)| *d == i) {
                    ui.colored_label(ui.visuals().warn_fg_color, format!("driven by clip '{clip}'")).on_hover_text(
                        "the clip sets this weight while it plays; pause it to set your own (held until Play)",
                    );
                }
            }
        });
    }
    if ui.button("Reset all displacers").clicked() {
        commands.push(UiCommand::ResetDisplacers);
    }
    commands
}

/// A slider under its name: a name too long for the panel is cut with "…" and given whole on hover (a
/// slider's own text would be neither cut nor explained, and beside the slider a narrow panel leaves it
/// a few letters). Screen readers and tests find the slider by that name.
pub fn labelled_slider(ui: &mut egui::Ui, slider: egui::Slider<'_>, name: &str) -> egui::Response {
    let label = crate::ui::status::cut_label(ui, name);
    ui.add(slider).labelled_by(label.id)
}
