//! Keyframes in the transport: *Set key* (K) stores the current pose at the current time into the
//! selected authored clip (or a new one), the keys show as marks under the scrubber — click one to go to
//! it, drag it along the strip to move it, right-click it (or *Delete key* at its time) to delete it.
//! Key edits are [`KeyCommand`]s; [`PoseEditor::apply_key`] carries them out with one undo step each.

use super::edit::PoseEditor;
use super::transport::TransportCommand;
use crate::animation::{AuthoredClip, KeyError, Transport};
use crate::hanim::{Humanoid, HumanoidIndex};

/// A key edit.
#[derive(Debug, Clone, PartialEq)]
pub enum KeyCommand {
    /// The current pose at the current time.
    Set,
    /// The key at `from` seconds to `to` seconds (snapped to the clip's frames).
    Move { from: f64, to: f64 },
    /// The key at these seconds.
    Delete(f64),
}

impl PoseEditor {
    /// Carries out a key edit on the transport's authored clips, as one undo step (the step also holds the
    /// pose edits: *Set key* folds the user's rotation offsets, and the root's translation offset, into the
    /// key, since the clip now plays that pose).
    pub fn apply_key(
        &mut self,
        h: &Humanoid,
        humanoid: HumanoidIndex,
        transport: &mut Transport,
        command: KeyCommand,
    ) -> Result<(), KeyError> {
        let before = transport.authored_snapshot();
        let edits = self.snapshot_edits();
        match command {
            KeyCommand::Set => {
                transport.set_key(h, humanoid, &self.pose)?;
                self.pose.rotation_offsets.iter_mut().for_each(|q| *q = glam::Quat::IDENTITY);
                if let Some(t) =
                    crate::animation::authored::root_joint(h).and_then(|r| self.pose.translation_offsets.get_mut(r))
                {
                    *t = glam::Vec3::ZERO;
                }
                // The base pose the clip gives at the key, at once (the next frame samples it anyway).
                transport.apply_one(h, humanoid, &mut self.pose);
            }
            KeyCommand::Move { from, to } => {
                transport.move_key(from, to)?;
            }
            KeyCommand::Delete(at) => transport.delete_key(at)?,
        }
        self.history.push_keys(edits, before);
        self.revision += 1;
        Ok(())
    }
}

/// *Set key* and *Delete key* (enabled when a key of the selected authored clip is at the current time).
pub fn key_buttons(ui: &mut egui::Ui, transport: &Transport, out: &mut Vec<TransportCommand>) {
    if ui.button("Set key").on_hover_text("store the current pose at the current time (K)").clicked() {
        out.push(TransportCommand::Key(KeyCommand::Set));
    }
    let here = selected_keys(transport).and_then(|c| c.key_at(transport.time).map(|i| c.keys[i].time));
    if ui
        .add_enabled(here.is_some(), egui::Button::new("Delete key"))
        .on_hover_text("delete the key at the current time (or right-click its mark)")
        .clicked()
        && let Some(t) = here
    {
        out.push(TransportCommand::Key(KeyCommand::Delete(t)));
    }
}

/// The selected clip's keys, when it is an authored clip.
pub fn selected_keys(transport: &Transport) -> Option<&AuthoredClip> {
    match &transport.selected_clip()?.source {
        crate::animation::ClipSource::Authored { clip, .. } => Some(clip),
        _ => None,
    }
}

/// Seconds the scrubber of an authored clip spans: a second past the last key, so a new key can be set
/// after it.
pub fn timeline_span(clip: &AuthoredClip) -> f64 {
    clip.duration() + 1.0
}

/// The strip of key marks under the scrubber of `clip` (its width is the slider's, `span` seconds).
pub fn key_strip(
    ui: &mut egui::Ui,
    transport: &Transport,
    clip: &AuthoredClip,
    width: f32,
    out: &mut Vec<TransportCommand>,
) {
    let span = timeline_span(clip);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(width, 14.0), egui::Sense::hover());
    let x_of = |t: f64| rect.left() + (t / span) as f32 * rect.width();
    let t_of = |x: f32| f64::from((x - rect.left()) / rect.width().max(1.0)) * span;
    // Wide enough for the marks at both ends.
    let painter = ui.painter_at(rect.expand2(egui::vec2(7.0, 0.0)));
    painter.hline(rect.x_range(), rect.center().y, ui.visuals().widgets.noninteractive.bg_stroke);
    let now = x_of(transport.time.clamp(0.0, span));
    painter.vline(now, rect.y_range(), egui::Stroke::new(1.0, ui.visuals().selection.stroke.color));
    for key in &clip.keys {
        let centre = egui::pos2(x_of(key.time), rect.center().y);
        let id = egui::Id::unique(("transport_key", clip.id, (key.time * clip.fps).round() as i64));
        let response = ui.interact(
            egui::Rect::from_center_size(centre, egui::vec2(10.0, 14.0)),
            id,
            egui::Sense::click_and_drag(),
        );
        let mut drawn_at = centre;
        if response.dragged()
            && let Some(p) = response.interact_pointer_pos()
        {
            drawn_at.x = p.x.clamp(rect.left(), rect.right());
        }
        if response.drag_stopped()
            && let Some(p) = response.interact_pointer_pos()
        {
            let to = clip.snap(t_of(p.x.clamp(rect.left(), rect.right())));
            if clip.key_at(to).is_none() {
                out.push(TransportCommand::Key(KeyCommand::Move { from: key.time, to }));
            }
        } else if response.clicked() {
            out.push(TransportCommand::SeekTime(key.time));
        } else if response.secondary_clicked() {
            out.push(TransportCommand::Key(KeyCommand::Delete(key.time)));
        }
        let at_now = (key.time - transport.time).abs() < 0.5 / clip.fps;
        let colour = if response.hovered() || response.dragged() || at_now {
            ui.visuals().selection.stroke.color
        } else {
            ui.visuals().strong_text_color()
        };
        let diamond = [
            drawn_at + egui::vec2(0.0, -6.0),
            drawn_at + egui::vec2(5.0, 0.0),
            drawn_at + egui::vec2(0.0, 6.0),
            drawn_at + egui::vec2(-5.0, 0.0),
        ];
        painter.add(egui::Shape::convex_polygon(diamond.to_vec(), colour, egui::Stroke::NONE));
        response.on_hover_text(format!("key at {:.3} s: drag to move, right-click to delete", key.time));
    }
}
