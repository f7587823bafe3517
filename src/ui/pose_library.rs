//! The pose library: a tab of the side panel listing the poses a humanoid can be put into — the built-in standard
//! poses, the file's own HAnimPoses and the poses saved in the user's library folder — each with a
//! thumbnail of this humanoid in that pose. A click applies the pose (one undo step); a name and a
//! button save the current pose into the library. The app renders the thumbnails and hands them in as
//! egui textures; nothing here touches the GPU.

use std::path::PathBuf;

use super::UiCommand;

/// Where a library pose comes from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LibrarySource {
    /// A built-in standard pose, by id (`t-pose`, …).
    Builtin(String),
    /// An HAnimPose of the file, by its place in the posed humanoid's list.
    InFile(usize),
    /// A pose file in the library folder.
    Saved(PathBuf),
}

impl LibrarySource {
    /// How the section it belongs to is headed.
    fn section(&self) -> &'static str {
        match self {
            LibrarySource::Builtin(_) => "Standard poses",
            LibrarySource::InFile(_) => "In this file (HAnimPose)",
            LibrarySource::Saved(_) => "Saved poses",
        }
    }
}

/// One pose of the library as the window shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct LibraryEntry {
    pub source: LibrarySource,
    pub label: String,
    /// What hovering says (joints set, joints this humanoid lacks).
    pub detail: String,
    /// The humanoid in this pose, once rendered.
    pub thumbnail: Option<egui::TextureId>,
}

/// The library's state (this session only): `open` docks it as a tab of the side panel.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LibraryState {
    pub open: bool,
    /// The name the next saved pose gets.
    pub new_name: String,
}

/// Side of a thumbnail, in points.
pub const THUMBNAIL_POINTS: f32 = 96.0;

/// The library's content (a tab of the side panel): a name field and Save, then the entries by section,
/// a click applying one.
pub fn library_ui(
    ui: &mut egui::Ui,
    state: &mut LibraryState,
    entries: &[LibraryEntry],
    folder: Option<&str>,
) -> Vec<UiCommand> {
    let mut commands = Vec::new();
    ui.horizontal_wrapped(|ui| {
        ui.label("Save current pose as");
        ui.add(egui::TextEdit::singleline(&mut state.new_name).desired_width(120.0).hint_text("name"));
        let name = state.new_name.trim().to_string();
        if ui.add_enabled(!name.is_empty(), egui::Button::new("Save")).clicked() {
            commands.push(UiCommand::SavePoseToLibrary(name));
            state.new_name.clear();
        }
    });
    if let Some(folder) = folder {
        ui.weak("Library folder:").on_hover_text(folder);
        super::status::cut_label(ui, folder);
    }
    ui.separator();
    let mut section = None;
    let mut start = 0;
    for (i, entry) in entries.iter().enumerate() {
        if section != Some(entry.source.section()) {
            if section.is_some() {
                commands.extend(grid(ui, &entries[start..i]));
            }
            section = Some(entry.source.section());
            start = i;
            ui.strong(entry.source.section());
        }
    }
    if section.is_some() {
        commands.extend(grid(ui, &entries[start..]));
    }
    if entries.iter().all(|e| !matches!(e.source, LibrarySource::Saved(_))) {
        ui.weak("No saved poses yet: name the current pose above and press Save.");
    }
    commands
}

/// One section's entries as a wrapping row of thumbnail buttons.
fn grid(ui: &mut egui::Ui, entries: &[LibraryEntry]) -> Vec<UiCommand> {
    let mut commands = Vec::new();
    ui.horizontal_wrapped(|ui| {
        for entry in entries {
            let size = egui::vec2(THUMBNAIL_POINTS, THUMBNAIL_POINTS);
            ui.vertical(|ui| {
                ui.set_width(THUMBNAIL_POINTS + 4.0);
                let response = match entry.thumbnail {
                    Some(texture) => ui.add(egui::Button::image(egui::Image::new((texture, size)))),
                    None => ui.add_sized(size, egui::Button::new("…")),
                };
                let response = response.on_hover_text(format!("{}\n{}", entry.label, entry.detail));
                if response.clicked() {
                    commands.push(UiCommand::ApplyLibraryPose(entry.source.clone()));
                }
                ui.add(egui::Label::new(&entry.label).truncate());
            });
        }
    });
    commands
}
