//! The Problems window: what the loader and the renderer could not do with the file shown (warnings
//! with file:line:column, ImageTextures whose image could not be read, Inlines that failed), which
//! otherwise reach only the log.

use super::{FrameInfo, UiState};

/// View ▸ Problems (N), enabled when there are some.
pub fn problems_menu(ui: &mut egui::Ui, state: &mut UiState, info: &FrameInfo) {
    let label = format!("Problems ({})", info.problems.len());
    if ui
        .add_enabled(!info.problems.is_empty(), egui::Button::new(label))
        .on_hover_text("load warnings and failed references of this file")
        .clicked()
    {
        state.show_problems = true;
    }
}

/// The window listing them, selectable and copyable.
pub fn problems_window(ctx: &egui::Context, state: &mut UiState, info: &FrameInfo) {
    if !state.show_problems {
        return;
    }
    let mut open = true;
    let title = format!("Problems ({})", info.problems.len());
    egui::Window::new(title).id(egui::Id::unique("problems_window")).open(&mut open).default_width(520.0).show(
        ctx,
        |ui| {
            if info.problems.is_empty() {
                ui.label("No problems with this file.");
                return;
            }
            egui::ScrollArea::vertical().max_height(320.0).show(ui, |ui| {
                for problem in info.problems {
                    ui.add(egui::Label::new(egui::RichText::new(problem).monospace()).selectable(true).wrap());
                }
            });
            if ui.button("Copy all").clicked() {
                ui.ctx().copy_text(info.problems.join("\n"));
            }
        },
    );
    state.show_problems = open;
}
