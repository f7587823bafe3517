//! The motion capture tab of the side panel: the capture retargeted onto the humanoid and its bone mapping, one row
//! per capture joint, editable. A row's text lists the H-Anim joints that source drives (empty: none);
//! an edit is committed when the field loses focus (or Enter), or at once from a row's joint menu, and
//! the app retargets with the new mapping. Mappings load from and save to the text form of
//! [`crate::mocap::mapping`].

use crate::hanim::Document;
use crate::hanim::HumanoidIndex;
use crate::mocap::mapping::{Mapping, MappingEntry};
use crate::mocap::session::{CaptureSession, MappingOrigin, SessionError, SourceStatus};
use crate::ui::command::UiCommand;

/// An applied capture with the window's rows and summary kept in step with its mapping.
#[derive(Debug, Clone)]
pub struct CaptureEditor {
    pub session: CaptureSession,
    pub panel: CapturePanel,
    pub summary: CaptureSummary,
}

impl CaptureEditor {
    pub fn new(session: CaptureSession, doc: &Document) -> CaptureEditor {
        let panel = CapturePanel::new(session.source_names(), &session.mapping, 1.0 / session.result.frame_time);
        let summary = CaptureSummary::new(&session, joint_names(doc, session.humanoid));
        CaptureEditor { session, panel, summary }
    }

    /// Retargets with `mapping`; on failure the previous mapping stays, and the rows show it again.
    pub fn set_mapping(&mut self, doc: &Document, mapping: Mapping, origin: MappingOrigin) -> Result<(), SessionError> {
        let result = self.session.set_mapping(doc, mapping, origin);
        let open = self.panel.open;
        let fps = 1.0 / self.session.result.frame_time;
        self.panel =
            CapturePanel { open, ..CapturePanel::new(self.session.source_names(), &self.session.mapping, fps) };
        self.summary = CaptureSummary::new(&self.session, joint_names(doc, self.session.humanoid));
        result
    }

    /// The capture's content, docked as a tab of the side panel (the app shows it while `panel.open`).
    pub fn dock_ui(&mut self, ui: &mut egui::Ui) -> Vec<UiCommand> {
        capture_ui(ui, &mut self.panel, &self.summary)
    }
}

fn joint_names(doc: &Document, humanoid: HumanoidIndex) -> Vec<String> {
    doc.humanoid(humanoid).map_or_else(Vec::new, |h| h.joints.iter().map(|j| j.name.clone()).collect())
}

/// One capture joint and the targets typed for it.
#[derive(Debug, Clone, PartialEq)]
pub struct MappingRow {
    pub source: String,
    /// Target joint names separated by spaces or commas.
    pub text: String,
    /// Whether the mapping lists the source. An unlisted source with no text drives the humanoid joint
    /// of its own name, if any; once edited, an empty row drives nothing.
    pub listed: bool,
}

/// The editable mapping and the window's state.
#[derive(Debug, Clone, PartialEq)]
pub struct CapturePanel {
    pub open: bool,
    pub rows: Vec<MappingRow>,
    /// Entries of a loaded mapping for joints this capture does not have: kept, so that saving does not
    /// lose them.
    pub extra: Vec<MappingEntry>,
    /// The frame rate being edited (frames per second).
    pub fps: f64,
}

/// What the window shows about the applied capture (from [`CaptureSession`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CaptureSummary {
    /// "07_05.amc on 07.asf"
    pub title: String,
    pub frames: usize,
    pub frame_rate: f64,
    pub origin: String,
    pub statuses: Vec<SourceStatus>,
    pub notes: Vec<String>,
    /// Humanoid joint names, for the rows' joint menus.
    pub joint_names: Vec<String>,
}

impl CaptureSummary {
    pub fn new(session: &CaptureSession, joint_names: Vec<String>) -> CaptureSummary {
        let file_name =
            |p: &std::path::Path| p.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let title = if session.motion_file == session.skeleton {
            file_name(&session.motion_file)
        } else {
            format!("{} on {}", file_name(&session.motion_file), file_name(&session.skeleton))
        };
        CaptureSummary {
            title,
            frames: session.result.frame_count(),
            frame_rate: 1.0 / session.result.frame_time,
            origin: session.origin.to_string(),
            statuses: session.statuses.clone(),
            notes: session.result.notes.clone(),
            joint_names,
        }
    }
}

/// Splits a row's text into joint names.
pub fn targets_of_text(text: &str) -> Vec<String> {
    text.split([' ', ',', '\t']).filter(|t| !t.is_empty()).map(str::to_string).collect()
}

impl CapturePanel {
    /// Rows for the capture's `sources` (root first) filled from `mapping`; the capture plays at `fps`.
    pub fn new<'a>(sources: impl IntoIterator<Item = &'a str>, mapping: &Mapping, fps: f64) -> CapturePanel {
        let rows: Vec<MappingRow> = sources
            .into_iter()
            .map(|source| {
                let listed = mapping.targets_of(source);
                MappingRow {
                    source: source.to_string(),
                    text: listed.unwrap_or(&[]).join(" "),
                    listed: listed.is_some(),
                }
            })
            .collect();
        let extra = mapping
            .entries
            .iter()
            .filter(|e| !rows.iter().any(|r| r.source.eq_ignore_ascii_case(&e.source)))
            .cloned()
            .collect();
        CapturePanel { open: true, rows, extra, fps }
    }

    /// The mapping the rows describe: listed or filled rows in capture order, then the extra entries.
    pub fn mapping(&self) -> Mapping {
        let mut entries: Vec<MappingEntry> = self
            .rows
            .iter()
            .enumerate()
            .filter(|(_, r)| r.listed || !r.text.trim().is_empty())
            .map(|(i, r)| MappingEntry { source: r.source.clone(), targets: targets_of_text(&r.text), line: i + 1 })
            .collect();
        entries.extend(self.extra.iter().cloned());
        Mapping { entries }
    }

    /// Sets the targets of `source` (as typed in its row) and returns the new mapping, or `None` when the
    /// capture has no such joint.
    pub fn set_targets(&mut self, source: &str, targets: &[String]) -> Option<Mapping> {
        let row = self.rows.iter_mut().find(|r| r.source.eq_ignore_ascii_case(source))?;
        row.text = targets.join(" ");
        row.listed = true;
        Some(self.mapping())
    }
}

/// The row's status and whether it is a problem (listed targets, none of them in the humanoid). Targets
/// that are absent while another listed one drives are normal: tables list H-Anim 2.0 names with their
/// 1.x aliases.
fn status_text(status: Option<&SourceStatus>, row: &MappingRow) -> (String, bool) {
    let Some(s) = status else { return (String::new(), false) };
    match (s.driven.is_empty(), row.listed) {
        (false, _) => (format!("drives {}", s.driven.join(", ")), false),
        (true, _) if !s.missing.is_empty() => (format!("none in this humanoid: {}", s.missing.join(", ")), true),
        (true, true) => ("drives nothing (its rotation still reaches the joints below)".into(), false),
        (true, false) => ("not mapped (its rotation still reaches the joints below)".into(), false),
    }
}

/// The capture's content (rows, mapping files, the retarget summary).
pub fn capture_ui(ui: &mut egui::Ui, panel: &mut CapturePanel, summary: &CaptureSummary) -> Vec<UiCommand> {
    let mut commands = Vec::new();
    ui.horizontal_wrapped(|ui| {
        ui.strong(&summary.title);
        ui.label(format!("{} frames,", summary.frames));
        let rate = ui
            .add(egui::DragValue::new(&mut panel.fps).range(1.0..=1000.0).speed(1.0).max_decimals(2).suffix(" fps"))
            .on_hover_text("the capture's frame rate (CMU captures: 120); dragging or typing retimes the motion");
        if (rate.drag_stopped() || rate.lost_focus()) && (panel.fps - summary.frame_rate).abs() > 1e-9 {
            commands.push(UiCommand::SetCaptureFps(panel.fps));
        }
        ui.label(format!("({:.2} s)", summary.frames.saturating_sub(1) as f64 / summary.frame_rate));
    });
    let driving = summary.statuses.iter().filter(|s| !s.driven.is_empty()).count();
    let driven: usize = summary.statuses.iter().map(|s| s.driven.len()).sum();
    ui.label(format!(
        "{driving} of {} capture joints drive {driven} humanoid joints. Mapping: {}",
        summary.statuses.len(),
        summary.origin
    ));
    ui.horizontal_wrapped(|ui| {
        if ui.button("Load mapping…").clicked() {
            commands.push(UiCommand::LoadMappingDialog);
        }
        if ui.button("Save mapping…").clicked() {
            commands.push(UiCommand::SaveMappingDialog);
        }
        if ui.button("Built-in mapping").on_hover_text("the CMU table that names the most of these joints").clicked() {
            commands.push(UiCommand::BuiltInMapping);
        }
        if ui.button("Remove capture").clicked() {
            commands.push(UiCommand::RemoveCapture);
        }
    });
    ui.weak("Each row: the H-Anim joints a capture joint drives, separated by spaces. Enter applies.");
    ui.separator();
    egui::ScrollArea::vertical().id_salt("mapping_rows").auto_shrink([false, true]).show(ui, |ui| {
        egui::Grid::new("mapping_grid").num_columns(4).striped(true).show(ui, |ui| {
            for i in 0..panel.rows.len() {
                let status = summary.statuses.iter().find(|s| s.source == panel.rows[i].source);
                let row = &mut panel.rows[i];
                ui.monospace(&row.source);
                let before = row.text.clone();
                let edit =
                    ui.add_sized(
                        [200.0, ui.spacing().interact_size.y],
                        egui::TextEdit::singleline(&mut row.text)
                            .id_salt(("mapping_row", i))
                            .hint_text(if row.listed { "nothing" } else { "same-name joint" }),
                    );
                // Applied when the field is left with a text (or a listed/unlisted state) the mapping in use
                // does not have.
                let in_use_listed = status.is_some_and(|s| s.listed.is_some());
                let mut commit =
                    edit.lost_focus() && (row.text != status_targets(status) || row.listed != in_use_listed);
                if edit.changed() && row.text != before {
                    row.listed = true;
                }
                ui.menu_button("+", |ui| {
                    egui::ScrollArea::vertical().max_height(320.0).show(ui, |ui| {
                        for name in &summary.joint_names {
                            if ui.button(name).clicked() {
                                let mut targets = targets_of_text(&row.text);
                                if !targets.contains(name) {
                                    targets.push(name.clone());
                                }
                                row.text = targets.join(" ");
                                row.listed = true;
                                commit = true;
                                ui.close();
                            }
                        }
                    });
                })
                .response
                .on_hover_text("add a joint of this humanoid");
                let (text, bad) = status_text(status, row);
                let rich = egui::RichText::new(text);
                let rich = if bad { rich.color(ui.visuals().error_fg_color) } else { rich.weak() };
                let label = ui.add(egui::Label::new(rich).truncate());
                if let Some(s) = status.filter(|s| !s.missing.is_empty() && !s.driven.is_empty()) {
                    label.on_hover_text(format!("also listed, not in this humanoid: {}", s.missing.join(", ")));
                }
                ui.end_row();
                if commit {
                    commands.push(UiCommand::SetMapping(panel.mapping()));
                }
            }
        });
        if !summary.notes.is_empty() {
            ui.separator();
            egui::CollapsingHeader::new(format!("Notes ({})", summary.notes.len())).id_salt("mapping_notes").show(
                ui,
                |ui| {
                    for note in &summary.notes {
                        ui.label(note);
                    }
                },
            );
        }
    });
    commands
}

/// The targets the mapping in use lists for a row, as the row shows them.
fn status_targets(status: Option<&SourceStatus>) -> String {
    status.and_then(|s| s.listed.as_ref()).map(|t| t.join(" ")).unwrap_or_default()
}
