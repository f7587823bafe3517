//! View ▸ Limits over the clip: the frames of the transport's clip where a joint leaves its
//! `llimit`/`ulimit` ([`crate::animation::limit_report`], worst first, as `check --motion` prints them).
//! A click on a line jumps the transport to that frame. The app fills in the list when the window opens
//! or the selected clip changes; the window only reads it and returns transport commands.

use crate::animation::limit_report::LimitExcess;
use crate::animation::{ClipSource, Transport};

use super::transport::TransportCommand;

/// The window's state: whether it is open and the report of which clip.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LimitReportPanel {
    pub open: bool,
    /// The clip the list belongs to (`None`: not computed yet).
    pub clip: Option<usize>,
    pub excesses: Vec<LimitExcess>,
}

impl LimitReportPanel {
    /// Whether the list must be computed again for the transport's selected clip.
    pub fn stale(&self, transport: &Transport) -> bool {
        self.open && transport.selected.is_some() && self.clip != transport.selected
    }

    /// Computes the list for the transport's selected clip.
    pub fn refresh(&mut self, doc: &crate::hanim::Document, transport: &Transport) {
        self.clip = transport.selected;
        self.excesses = match transport.selected {
            Some(i) => crate::animation::limit_report::clip_limit_report(doc, &transport.animations, i),
            None => Vec::new(),
        };
    }
}

/// What a click on `excess` of clip `clip` does: select the clip, pause, and show that frame (an
/// HAnimMotion's own frame; an interpolator clip's time).
pub fn jump_to(clip: usize, excess: &LimitExcess, transport: &Transport) -> Vec<TransportCommand> {
    let mut out = vec![TransportCommand::Select(clip)];
    if transport.playing {
        out.push(TransportCommand::TogglePlay);
    }
    match transport.animations.clips.get(clip).map(|c| &c.source) {
        Some(ClipSource::Motion { .. }) => out.push(TransportCommand::SeekFrame(excess.frame)),
        _ => out.push(TransportCommand::SeekTime(excess.time)),
    }
    out
}

/// The window; the commands of a clicked line.
pub fn limit_report_window(
    ctx: &egui::Context,
    panel: &mut LimitReportPanel,
    transport: &Transport,
) -> Vec<TransportCommand> {
    let mut out = Vec::new();
    let mut open = panel.open;
    super::layout::centred(egui::Window::new("Limits over the clip"), ctx).open(&mut open).default_width(360.0).show(
        ctx,
        |ui| {
            let Some(clip) = panel.clip.and_then(|i| transport.animations.clips.get(i).map(|c| (i, c))) else {
                ui.label("Select a clip in the transport.");
                return;
            };
            let frames: std::collections::BTreeSet<usize> = panel.excesses.iter().map(|e| e.frame).collect();
            ui.label(format!(
                "clip '{}': {} excesses on {} frames, worst first",
                clip.1.name(),
                panel.excesses.len(),
                frames.len()
            ));
            egui::ScrollArea::vertical().max_height(320.0).id_salt("limit_excesses").show(ui, |ui| {
                for excess in &panel.excesses {
                    if ui.selectable_label(false, excess.describe()).on_hover_text("show this frame").clicked() {
                        out.extend(jump_to(clip.0, excess, transport));
                    }
                }
            });
        },
    );
    panel.open = open;
    out
}
