//! The viewer's UI: plain-data state ([`UiState`]), a summary of the loaded humanoid
//! ([`SceneSummary`]), panels that return [`UiCommand`]s, and the pose editor with undo/redo. Nothing
//! here touches wgpu or the window; [`crate::app`] applies the commands and draws the 3D view into the
//! rectangle [`app_ui`] leaves for it.

pub mod capture;
pub mod command;
pub mod edit;
pub mod export;
pub mod keys;
pub mod layout;
pub mod limit_report;
pub mod limits;
pub mod look;
pub mod panels;
pub mod pose_library;
pub mod save_x3d;
pub mod scale;
pub mod scene;
pub mod state;
pub mod status;
pub mod transport;
pub mod view;

use std::path::Path;

pub use command::UiCommand;
pub use edit::PoseEditor;
pub use layout::{Dock, SideTab, app_ui, app_ui_docked};
pub use scene::{SceneSummary, StandardView, ViewEntry, ViewSource};
pub use state::UiState;
pub use view::{JointMark, ViewMarks};

/// What the status bar, toasts and dialogs show this frame.
#[derive(Debug, Clone, Default)]
pub struct FrameInfo<'a> {
    pub file: Option<&'a Path>,
    pub adapter: &'a str,
    pub fps: f32,
    /// Time between the last frames (frames are drawn on demand: input, animation, script).
    pub frame_ms: f32,
    /// CPU time to build and submit a frame.
    pub work_ms: f32,
    pub triangles: u32,
    /// A file being loaded in the background.
    pub loading: Option<&'a Path>,
    /// What the load is doing ("parsing 45%").
    pub loading_stage: Option<&'a str>,
    /// The last load error (shown in a window until dismissed).
    pub error: Option<&'a str>,
    /// Short messages shown at the bottom right of the view (newest last).
    pub toasts: &'a [String],
    pub can_undo: bool,
    pub can_redo: bool,
    /// The built-in humanoid is shown (no file opened yet): the view says how to open one.
    pub first_run: bool,
    /// The shown humanoid's height at rest, metres (its bounds' vertical extent).
    pub figure_height: Option<f32>,
}

/// Mouse input on the 3D view that egui did not give to a panel, in points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ViewportInput {
    /// The 3D view's rectangle.
    pub rect: egui::Rect,
    /// Primary-button drag: orbit.
    pub orbit: egui::Vec2,
    /// Secondary/middle-button drag (or shift + primary): pan.
    pub pan: egui::Vec2,
    /// Wheel / pinch: positive zooms in.
    pub zoom: f32,
    /// A click (not a drag), relative to `rect.min`.
    pub click: Option<egui::Vec2>,
    /// Where a primary-button drag started, on the frame it started (relative to `rect.min`): on an
    /// effector handle it becomes an IK drag instead of an orbit.
    pub press: Option<egui::Vec2>,
    /// The pointer while a primary drag goes on (relative to `rect.min`).
    pub pointer: Option<egui::Vec2>,
    /// The primary drag ended this frame.
    pub drag_released: bool,
    /// Alt was held: an IK drag runs its chain to the skeleton's root.
    pub alt: bool,
    /// A secondary-button click (pins or unpins the handle under it).
    pub secondary_click: Option<egui::Vec2>,
    /// The pointer over the view, for hover highlights.
    pub hover: Option<egui::Vec2>,
}

impl Default for ViewportInput {
    fn default() -> Self {
        Self {
            rect: egui::Rect::NOTHING,
            orbit: egui::Vec2::ZERO,
            pan: egui::Vec2::ZERO,
            zoom: 0.0,
            click: None,
            press: None,
            pointer: None,
            drag_released: false,
            alt: false,
            secondary_click: None,
            hover: None,
        }
    }
}

/// Keyboard shortcuts, listed in the Help window.
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("Ctrl+O", "Open a file"),
    ("F5", "Reload the file"),
    ("F12", "Save a screenshot of the 3D view"),
    ("Ctrl+Z / Ctrl+Shift+Z", "Undo / redo pose and displacer edits"),
    ("1 – 9", "Switch to viewpoint 1–9"),
    ("F", "Fit the humanoid in the view"),
    ("F11", "Maximise the 3D view (hide the side panels) / bring the panels back"),
    ("J", "Frame the selected joint"),
    ("G / K", "Toggle grid / skeleton"),
    ("Space", "Play / pause the motion"),
    ("Left / Right", "Previous / next frame of the selected motion"),
    ("F1", "This help"),
    ("Left drag", "Orbit"),
    ("Right or middle drag, Shift+left drag", "Pan"),
    ("Wheel", "Zoom"),
    ("Click near a joint", "Select it"),
    ("Left drag on a Site or joint", "Move it by inverse kinematics (hand → shoulder, foot → hip, head → spine)"),
    ("Alt + left drag on a Site or joint", "The same, the chain running to the skeleton's root"),
    ("Right click on a Site or joint", "Pin / unpin it (held while others are dragged)"),
    ("Ctrl+Q", "Quit"),
];

/// Keyboard shortcuts, when no text field has the keyboard.
pub fn shortcuts_ui(ui: &mut egui::Ui, state: &mut UiState) -> Vec<UiCommand> {
    let mut commands = Vec::new();
    if ui.ctx().egui_wants_keyboard_input() {
        return commands;
    }
    use egui::{Key, KeyboardShortcut, Modifiers};
    let shortcut = |m, k| KeyboardShortcut::new(m, k);
    ui.input_mut(|i| {
        // The longer combination first, so Ctrl+Shift+Z is not taken as Ctrl+Z.
        if i.consume_shortcut(&shortcut(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z)) {
            commands.push(UiCommand::Redo);
        }
        if i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::Z)) {
            commands.push(UiCommand::Undo);
        }
        if i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::O)) {
            commands.push(UiCommand::OpenDialog);
        }
        if i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::Q)) {
            commands.push(UiCommand::Quit);
        }
        let plain = |i: &mut egui::InputState, k| i.consume_key(Modifiers::NONE, k);
        if plain(i, Key::F5) {
            commands.push(UiCommand::Reload);
        }
        if plain(i, Key::F12) {
            commands.push(UiCommand::Screenshot(None));
        }
        if plain(i, Key::F) {
            commands.push(UiCommand::FitView);
        }
        if plain(i, Key::J) {
            commands.push(UiCommand::FrameSelected);
        }
        if plain(i, Key::G) {
            state.show_grid = !state.show_grid;
        }
        if plain(i, Key::K) {
            state.show_skeleton = !state.show_skeleton;
        }
        if plain(i, Key::F1) {
            state.show_help = !state.show_help;
        }
        let digits =
            [Key::Num1, Key::Num2, Key::Num3, Key::Num4, Key::Num5, Key::Num6, Key::Num7, Key::Num8, Key::Num9];
        for (n, key) in digits.into_iter().enumerate() {
            if plain(i, key) {
                commands.push(UiCommand::SelectView(n));
            }
        }
    });
    commands
}

fn menu_ui(ui: &mut egui::Ui, state: &mut UiState, info: &FrameInfo) -> Vec<UiCommand> {
    let mut commands = Vec::new();
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            if ui.button("Open…  (Ctrl+O)").clicked() {
                commands.push(UiCommand::OpenDialog);
            }
            ui.menu_button("Open recent", |ui| {
                if state.recent_files.is_empty() {
                    ui.weak("none yet");
                }
                for path in &state.recent_files {
                    if ui.button(path.display().to_string()).clicked() {
                        commands.push(UiCommand::Open(path.clone()));
                    }
                }
            });
            if ui
                .add_enabled(info.file.is_some(), egui::Button::new("Apply motion capture…"))
                .on_hover_text("retarget an .amc (with its .asf) or a .bvh onto this humanoid")
                .clicked()
            {
                commands.push(UiCommand::ApplyCaptureDialog);
            }
            if ui.add_enabled(info.file.is_some(), egui::Button::new("Reload  (F5)")).clicked() {
                commands.push(UiCommand::Reload);
            }
            if ui.button("Screenshot  (F12)").clicked() {
                commands.push(UiCommand::Screenshot(None));
            }
            ui.menu_button("Screenshot settings", |ui| screenshot_settings_ui(ui, state, &mut commands));
            ui.separator();
            if ui
                .add_enabled(info.file.is_some(), egui::Button::new("Save pose…"))
                .on_hover_text("the current pose as a pose file (JSON, joint rotations by H-Anim name)")
                .clicked()
            {
                commands.push(UiCommand::SavePoseDialog);
            }
            if ui
                .add_enabled(info.file.is_some(), egui::Button::new("Load pose…"))
                .on_hover_text("apply a pose file by joint name (undoable)")
                .clicked()
            {
                commands.push(UiCommand::LoadPoseDialog);
            }
            if ui.add_enabled(info.file.is_some(), egui::Button::new("Pose library")).on_hover_text("a tab of the side panel").clicked() {
                state.pose_library.open = true;
            }
            ui.separator();
            if ui
                .add_enabled(info.file.is_some(), egui::Button::new("Export animation…"))
                .on_hover_text("the clip in the transport or a turntable of the pose, as GIF, APNG, WebP, MP4 or WebM")
                .clicked()
            {
                state.export.open = true;
            }
            if ui
                .add_enabled(info.file.is_some(), egui::Button::new("Save as X3D…"))
                .on_hover_text("a copy of the file with the authored clip as an HAnimMotion (or interpolators), and the pose as rest pose if asked")
                .clicked()
            {
                state.save_x3d.open = true;
            }
            if ui
                .add_enabled(info.file.is_some(), egui::Button::new("Export glTF…"))
                .on_hover_text("the humanoids, their skins, displacers and every clip (captures and keys too) as glTF 2.0")
                .clicked()
            {
                commands.push(UiCommand::ExportGltfDialog { current_pose: false });
            }
            if ui
                .add_enabled(info.file.is_some(), egui::Button::new("Export glTF with this pose as rest…"))
                .on_hover_text("as Export glTF…, the pose shown written as the rest pose")
                .clicked()
            {
                commands.push(UiCommand::ExportGltfDialog { current_pose: true });
            }
            if ui.button("Quit  (Ctrl+Q)").clicked() {
                commands.push(UiCommand::Quit);
            }
        });
        ui.menu_button("Edit", |ui| {
            if ui.add_enabled(info.can_undo, egui::Button::new("Undo  (Ctrl+Z)")).clicked() {
                commands.push(UiCommand::Undo);
            }
            if ui.add_enabled(info.can_redo, egui::Button::new("Redo  (Ctrl+Shift+Z)")).clicked() {
                commands.push(UiCommand::Redo);
            }
            if ui.button("Reset all joints").clicked() {
                commands.push(UiCommand::ResetAllJoints);
            }
            if ui.button("Reset all displacers").clicked() {
                commands.push(UiCommand::ResetDisplacers);
            }
        });
        ui.menu_button("View", |ui| {
            ui.checkbox(&mut state.show_grid, "Ground grid  (G)");
            ui.checkbox(&mut state.show_axes, "Axes");
            ui.checkbox(&mut state.show_skeleton, "Skeleton  (K)");
            ui.checkbox(&mut state.studio_lighting, "Studio lighting")
                .on_hover_text("a key light and ambient light the file does not have; off: X3D's lighting equations");
            ui.checkbox(&mut state.show_joints_panel, "Joints panel");
            ui.checkbox(&mut state.show_side_panel, "Displacers and viewpoints panel");
            ui.checkbox(&mut state.view_maximised, "Maximise 3D view  (F11)");
            ui.checkbox(&mut state.continuous_redraw, "Redraw continuously (measure fps)");
            ui.checkbox(&mut state.limit_report.open, "Limits over the clip")
                .on_hover_text("the frames of the transport's clip where a joint leaves its llimit/ulimit");
            panels::skin_inspection::skin_inspection_menu(ui, state);
            if ui.button("Motion capture window").on_hover_text("the applied capture and its bone mapping").clicked() {
                commands.push(UiCommand::ShowCaptureWindow);
            }
            if ui.button("Fit humanoid  (F)").clicked() {
                commands.push(UiCommand::FitView);
            }
            if ui.button("Frame selected joint  (J)").clicked() {
                commands.push(UiCommand::FrameSelected);
            }
        });
        ui.menu_button("Help", |ui| {
            if ui.button("Shortcuts  (F1)").clicked() {
                state.show_help = true;
            }
            if ui.button("About hanim-viewer").clicked() {
                state.show_about = true;
            }
        });
        if ui.button("Screenshot").clicked() {
            commands.push(UiCommand::Screenshot(None));
        }
    });
    commands
}

/// Screenshot sizes offered besides the 3D view's own.
const SCREENSHOT_SIZES: [[u32; 2]; 4] = [[1280, 720], [1920, 1080], [2048, 2048], [3840, 2160]];

fn screenshot_settings_ui(ui: &mut egui::Ui, state: &mut UiState, commands: &mut Vec<UiCommand>) {
    ui.label("Size");
    ui.radio_value(&mut state.screenshot_size, None, "The 3D view's size");
    for size in SCREENSHOT_SIZES {
        ui.radio_value(&mut state.screenshot_size, Some(size), format!("{} × {}", size[0], size[1]));
    }
    let mut custom = state.screenshot_size.unwrap_or([1600, 1200]);
    ui.horizontal(|ui| {
        let w = ui.add(egui::DragValue::new(&mut custom[0]).range(16..=16384).suffix(" px"));
        ui.label("×");
        let h = ui.add(egui::DragValue::new(&mut custom[1]).range(16..=16384).suffix(" px"));
        if w.changed() || h.changed() {
            state.screenshot_size = Some(custom);
        }
    });
    ui.separator();
    let folder =
        state.screenshot_folder.as_ref().map_or_else(|| "current folder".to_owned(), |f| f.display().to_string());
    ui.label(format!("Folder: {folder}"));
    if ui.button("Choose folder…").clicked() {
        commands.push(UiCommand::ChooseScreenshotFolder);
    }
}

fn help_ui(ui: &mut egui::Ui, state: &mut UiState) {
    let mut open = state.show_help;
    layout::centred(egui::Window::new("Help"), ui.ctx()).open(&mut open).resizable(false).collapsible(false).show(
        ui.ctx(),
        |ui| {
            egui::Grid::new("shortcuts").striped(true).show(ui, |ui| {
                for (keys, what) in SHORTCUTS {
                    ui.strong(*keys);
                    ui.label(*what);
                    ui.end_row();
                }
            });
        },
    );
    state.show_help = open;
}

/// Help ▸ About: the version and commit, the adapter drawing the view, and the licences of what the
/// program carries.
fn about_ui(ui: &mut egui::Ui, state: &mut UiState, info: &FrameInfo) {
    let mut open = state.show_about;
    layout::centred(egui::Window::new("About hanim-viewer"), ui.ctx())
        .open(&mut open)
        .resizable(false)
        .collapsible(false)
        .show(ui.ctx(), |ui| {
            ui.heading("hanim-viewer");
            ui.label("A viewer and checker for X3D H-Anim humanoids (ISO/IEC 19774).");
            egui::Grid::new("about").striped(true).show(ui, |ui| {
                for (what, value) in [
                    ("Version", env!("CARGO_PKG_VERSION")),
                    ("Commit", crate::GIT_COMMIT),
                    ("Adapter", info.adapter),
                    ("Licence", ABOUT_LICENCE),
                ] {
                    ui.strong(what);
                    ui.label(value);
                    ui.end_row();
                }
            });
            if ui.button("Copy").on_hover_text("copy these lines as text").clicked() {
                ui.ctx().copy_text(about_text(info.adapter));
            }
        });
    state.show_about = open;
}

/// What the About window says of licences.
const ABOUT_LICENCE: &str = "hanim-viewer's own licence is not chosen yet (see the README's credits and licences). It carries the \
    DejaVu fonts (Bitstream Vera licence) and a built-in humanoid (CC0-1.0).";

/// The About window as plain text (for a bug report).
pub fn about_text(adapter: &str) -> String {
    format!(
        "hanim-viewer {} (commit {})\nadapter: {adapter}\n{ABOUT_LICENCE}",
        env!("CARGO_PKG_VERSION"),
        crate::GIT_COMMIT
    )
}

fn error_ui(ui: &mut egui::Ui, error: &str, has_humanoid: bool, commands: &mut Vec<UiCommand>) {
    layout::centred(egui::Window::new("Error"), ui.ctx()).collapsible(false).resizable(true).show(ui.ctx(), |ui| {
        // Selectable, and copied whole by the button: users paste errors into reports.
        ui.add(egui::Label::new(egui::RichText::new(error).monospace()).selectable(true));
        if has_humanoid {
            ui.label("The previous humanoid stays loaded.");
        }
        ui.horizontal(|ui| {
            if ui.button("Copy").on_hover_text("copy the message as text").clicked() {
                ui.ctx().copy_text(error.to_string());
            }
            if ui.button("Close").clicked() {
                commands.push(UiCommand::DismissError);
            }
        });
    });
}

/// On first run (the built-in humanoid, no file opened): how to open one, and the files opened before.
fn first_run_ui(ui: &mut egui::Ui, rect: egui::Rect, state: &UiState, commands: &mut Vec<UiCommand>) {
    egui::Area::new(egui::Id::unique("first_run")).fixed_pos(rect.center_top() + egui::vec2(-170.0, 16.0)).show(
        ui.ctx(),
        |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_width(340.0);
                ui.label(egui::RichText::new("Open a humanoid (Ctrl+O) or drop a file here").strong());
                if ui.button("Open…").clicked() {
                    commands.push(UiCommand::OpenDialog);
                }
                if !state.recent_files.is_empty() {
                    ui.separator();
                    ui.label("Recent files");
                    for path in &state.recent_files {
                        let name =
                            path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into());
                        if ui.link(name).on_hover_text(path.display().to_string()).clicked() {
                            commands.push(UiCommand::Open(path.clone()));
                        }
                    }
                }
            });
        },
    );
}
