//! Viewpoints panel: site cameras, file Viewpoints and the standard views; keys 1–9 switch.

use crate::ui::command::UiCommand;
use crate::ui::scene::SceneSummary;
use crate::ui::state::UiState;

pub fn viewpoints_ui(ui: &mut egui::Ui, state: &UiState, scene: &SceneSummary) -> Vec<UiCommand> {
    let mut commands = Vec::new();
    for (i, view) in scene.views.iter().enumerate() {
        let key = if i < 9 { format!("{}  ", i + 1) } else { "    ".to_string() };
        let follows = if view.follows_joint() { "  (follows joint)" } else { "" };
        let text = format!("{key}{}{follows}", view.label);
        // One line each: a long label is cut with "…" and given whole on hover, not wrapped mid-phrase.
        let button = egui::Button::selectable(state.active_view == Some(i), text.as_str()).truncate();
        if ui.add(button).on_hover_text(text.trim()).clicked() {
            commands.push(UiCommand::SelectView(i));
        }
    }
    commands
}
