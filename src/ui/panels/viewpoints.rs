//! Viewpoints panel: site cameras, file Viewpoints and the standard views; keys 1–9 switch.

use crate::ui::command::UiCommand;
use crate::ui::scene::SceneSummary;
use crate::ui::state::UiState;

pub fn viewpoints_ui(ui: &mut egui::Ui, state: &UiState, scene: &SceneSummary) -> Vec<UiCommand> {
    let mut commands = Vec::new();
    // The inlined files' Viewpoints come last (`views::humanoid_views`), folded away: a crowd of Inlines
    // repeats each of its file's Viewpoints once per copy.
    let own = scene.views.iter().take_while(|v| !v.inlined).count();
    for i in 0..own {
        view_button(ui, state, scene, i, &mut commands);
    }
    if own < scene.views.len() {
        let count = scene.views.len() - own;
        let open = state.active_view.is_some_and(|a| a >= own);
        egui::CollapsingHeader::new(format!("From inlined files ({count})"))
            .id_salt("inlined_views")
            .open(open.then_some(true))
            .show(ui, |ui| {
                for i in own..scene.views.len() {
                    view_button(ui, state, scene, i, &mut commands);
                }
            });
    }
    commands
}

fn view_button(ui: &mut egui::Ui, state: &UiState, scene: &SceneSummary, i: usize, commands: &mut Vec<UiCommand>) {
    let view = &scene.views[i];
    let key = if i < 9 { format!("{}  ", i + 1) } else { "    ".to_string() };
    let follows = if view.follows_joint() { "  (follows joint)" } else { "" };
    let text = format!("{key}{}{follows}", view.label);
    // One line each: a long label is cut with "…" and given whole on hover, not wrapped mid-phrase.
    let button = egui::Button::selectable(state.active_view == Some(i), text.as_str()).truncate();
    if ui.add(button).on_hover_text(text.trim()).clicked() {
        commands.push(UiCommand::SelectView(i));
    }
}
