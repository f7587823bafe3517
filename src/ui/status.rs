//! The status bar: the figure's height (with the offer to read an implausible one at human size), the
//! file, frame statistics and the adapter. Long texts (a deep path, an adapter's full name) are cut with
//! "…" and given whole on hover, so the bar keeps one line.

use super::{FrameInfo, UiState, scale};

pub(super) fn status_ui(ui: &mut egui::Ui, state: &mut UiState, info: &FrameInfo) {
    ui.horizontal(|ui| {
        if info.loading.is_none()
            && let Some(height) = info.figure_height
        {
            height_ui(ui, state, height);
            ui.separator();
        }
        // The file (or the load in progress) first: the adapter's name is long and may not fit.
        if let Some(path) = info.loading {
            ui.spinner();
            match info.loading_stage {
                Some(stage) => cut_label(ui, &format!("loading {}: {stage}", path.display())),
                None => cut_label(ui, &format!("loading {}", path.display())),
            };
            ui.separator();
        } else if let Some(path) = info.file {
            let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into());
            ui.label(name).on_hover_text(path.display().to_string());
            ui.separator();
        }
        ui.label(format!("{:5.1} fps", info.fps));
        ui.separator();
        ui.label(format!("{:6.1} ms/frame", info.frame_ms))
            .on_hover_text("time between the last frames; frames are drawn on input, animation or script");
        ui.separator();
        ui.label(format!("{:5.1} ms CPU", info.work_ms)).on_hover_text("CPU time to build and submit a frame");
        ui.separator();
        ui.label(format!("{} triangles", info.triangles));
        ui.separator();
        cut_label(ui, info.adapter);
    });
}

/// `text` on one line, cut with "…" where the space ends; a cut text is given whole on hover (egui's
/// tooltip for an elided label, so the text is not shown twice).
pub fn cut_label(ui: &mut egui::Ui, text: &str) -> egui::Response {
    ui.add(egui::Label::new(text).truncate().show_tooltip_when_elided(true))
}

/// The figure's height, and for an implausible one the offer to read it at human size
/// ([`scale::human_size_factor`]; the view only, the file untouched).
fn height_ui(ui: &mut egui::Ui, state: &mut UiState, height: f32) {
    let applied = state.human_size.unwrap_or(1.0);
    let (text, warns) = scale::height_status(height, applied);
    if warns {
        ui.colored_label(ui.visuals().warn_fg_color, text.clone()).on_hover_text(
            "X3D lengths are metres; this figure's size suggests the file was modelled in another unit \
             without a UNIT statement or a scaling Transform",
        );
        if let Some(factor) = scale::human_size_factor(height)
            && ui
                .small_button(format!("View at human size (×{factor})"))
                .on_hover_text("read the figure at a human size; the file is not changed")
                .clicked()
        {
            state.human_size = Some(factor);
        }
    } else {
        ui.label(text).on_hover_text("the figure's height at rest (X3D lengths are metres)");
        if state.human_size.is_some() && ui.small_button("File size").clicked() {
            state.human_size = None;
        }
    }
}
