//! The pose library: a window listing the poses a humanoid can be put into — the built-in standard
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

/// The library window's state (this session only).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LibraryState {
    pub open: bool,
    /// The name the next saved pose gets.
    pub new_name: String,
}

/// Side of a thumbnail, in points.
pub const THUMBNAIL_POINTS: f32 = 96.0;

/// The library window: the entries by section, a click applying one; a name field and Save.
pub fn library_window(
    ctx: &egui::Context,
    state: &mut LibraryState,
    entries: &[LibraryEntry],
    folder: Option<&str>,
) -> Vec<UiCommand> {
    let mut commands = Vec::new();
    let mut open = state.open;
    let width = 6.0 * (THUMBNAIL_POINTS + 12.0);
    // First shown toward the right, over the side panel rather than the figure in the middle.
    let screen = ctx.content_rect();
    let x = (screen.right() - width - 40.0).max(screen.left() + 8.0);
    egui::Window::new("Pose library")
        .open(&mut open)
        .default_width(width)
        .default_height(560.0)
        .default_pos(egui::pos2(x, 60.0))
        .resizable(true)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.label("Save current pose as");
                ui.add(egui::TextEdit::singleline(&mut state.new_name).desired_width(140.0).hint_text("name"));
                let name = state.new_name.trim().to_string();
                if ui.add_enabled(!name.is_empty(), egui::Button::new("Save")).clicked() {
                    commands.push(UiCommand::SavePoseToLibrary(name));
                    state.new_name.clear();
                }
            });
            if let Some(folder) = folder {
                ui.weak(format!("Library folder: {folder}"));
            }
            ui.separator();
            egui::ScrollArea::vertical().id_salt("pose_library_scroll").show(ui, |ui| {
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
            });
        });
    state.open = open;
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
                ui.add(egui::Label::new(egui::RichText::new(&entry.label).small()).truncate());
            });
        }
    });
    commands
}
