//! The viewer's UI: plain-data state ([`UiState`]), a summary of the loaded humanoid
//! ([`SceneSummary`]), panels that return [`UiCommand`]s, and the pose editor with undo/redo. Nothing
//! here touches wgpu or the window; [`crate::app`] applies the commands and draws the 3D view into the
//! rectangle [`app_ui`] leaves for it.

pub mod bindings;
pub mod capture;
pub mod command;
pub mod drivers;
pub mod edit;
pub mod export;
pub mod keys;
pub mod layout;
pub mod limit_report;
pub mod limits;
pub mod look;
pub mod panels;
pub mod pose_library;
pub mod problems;
pub mod save_x3d;
pub mod scale;
pub mod scene;
pub mod state;
pub mod status;
pub mod transport;
pub mod view;
pub mod view_overlays;

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
    pub toasts: &'a [view_overlays::Toast],
    /// The camera's rotation (world from camera), for the axis gizmo.
    pub view_rotation: Option<glam::Quat>,
    /// Why the view shows nothing of the figure (drawn over it), when it does not.
    pub view_empty: Option<&'a str>,
    /// Load warnings and failed references of the file shown (the Problems window).
    pub problems: &'a [String],
    /// The displacers an enabled clip sets, with the clip's name.
    pub driven_displacers: &'a [(usize, String)],
    /// What sets joints besides the sliders, one line per joint and source: the clip that drives it
    /// ("clip 'Kick'", "capture '07_05'") or the IK reach that turned it last ("IK (reach of l_hand_tip)").
    pub joint_drivers: &'a [(usize, String)],
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

/// The keys of [`bindings::BINDINGS`] that are not the transport's, when no text field has the keyboard.
pub fn shortcuts_ui(ui: &mut egui::Ui, state: &mut UiState) -> Vec<UiCommand> {
    use bindings::Action;
    let mut commands = Vec::new();
    for action in bindings::pressed(ui, |a| !bindings::is_transport(a)) {
        match action {
            Action::Open => commands.push(UiCommand::OpenDialog),
            Action::Reload => commands.push(UiCommand::Reload),
            Action::Screenshot => commands.push(UiCommand::Screenshot(None)),
            Action::Undo => commands.push(UiCommand::Undo),
            Action::Redo => commands.push(UiCommand::Redo),
            Action::Quit => commands.push(UiCommand::Quit),
            Action::SelectView(n) => commands.push(UiCommand::SelectView(n)),
            Action::FitView => commands.push(UiCommand::FitView),
            Action::FrameSelected => commands.push(UiCommand::FrameSelected),
            Action::ToggleGrid => state.show_grid = !state.show_grid,
            Action::ToggleSkeleton => state.show_skeleton = !state.show_skeleton,
            Action::Help => state.show_help = !state.show_help,
            Action::MaximiseView => state.view_maximised = !state.view_maximised,
            Action::PlayPause | Action::Step(_) | Action::SetKey => {}
        }
    }
    commands
}

fn menu_ui(ui: &mut egui::Ui, state: &mut UiState, info: &FrameInfo) -> Vec<UiCommand> {
    let mut commands = Vec::new();
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            if ui.button(bindings::menu_label("Open…", bindings::Action::Open)).clicked() {
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
            if ui.add_enabled(info.file.is_some(), egui::Button::new(bindings::menu_label("Reload", bindings::Action::Reload))).clicked() {
                commands.push(UiCommand::Reload);
            }
            if ui.button(bindings::menu_label("Screenshot", bindings::Action::Screenshot)).clicked() {
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
            if ui.button(bindings::menu_label("Quit", bindings::Action::Quit)).clicked() {
                commands.push(UiCommand::Quit);
            }
        });
        ui.menu_button("Edit", |ui| {
            if ui.add_enabled(info.can_undo, egui::Button::new(bindings::menu_label("Undo", bindings::Action::Undo))).clicked() {
                commands.push(UiCommand::Undo);
            }
            if ui.add_enabled(info.can_redo, egui::Button::new(bindings::menu_label("Redo", bindings::Action::Redo))).clicked() {
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
            ui.checkbox(&mut state.show_grid, bindings::menu_label("Ground grid", bindings::Action::ToggleGrid));
            ui.checkbox(&mut state.show_axes, "Axes");
            ui.checkbox(&mut state.show_skeleton, bindings::menu_label("Skeleton", bindings::Action::ToggleSkeleton));
            ui.checkbox(&mut state.studio_lighting, "Studio lighting")
                .on_hover_text("a key light and ambient light the file does not have; off: X3D's lighting equations");
            ui.checkbox(&mut state.show_joints_panel, "Joints panel");
            ui.checkbox(&mut state.show_side_panel, "Displacers and viewpoints panel");
            ui.checkbox(&mut state.view_maximised, bindings::menu_label("Maximise 3D view", bindings::Action::MaximiseView));
            ui.checkbox(&mut state.show_nav_hint, "Navigation hint");
            ui.checkbox(&mut state.continuous_redraw, "Redraw continuously (measure fps)");
            problems::problems_menu(ui, state, info);
            ui.checkbox(&mut state.limit_report.open, "Limits over the clip")
                .on_hover_text("the frames of the transport's clip where a joint leaves its llimit/ulimit");
            panels::skin_inspection::skin_inspection_menu(ui, state);
            if ui.button("Motion capture window").on_hover_text("the applied capture and its bone mapping").clicked() {
                commands.push(UiCommand::ShowCaptureWindow);
            }
            if ui.button(bindings::menu_label("Fit humanoid", bindings::Action::FitView)).clicked() {
                commands.push(UiCommand::FitView);
            }
            if ui.button(bindings::menu_label("Frame selected joint", bindings::Action::FrameSelected)).clicked() {
                commands.push(UiCommand::FrameSelected);
            }
        });
        ui.menu_button("Help", |ui| {
            if ui.button(bindings::menu_label("Shortcuts", bindings::Action::Help)).clicked() {
                state.show_help = true;
            }
            if ui.button("About hanim-viewer").clicked() {
                state.show_about = true;
            }
        });
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
    ui.checkbox(&mut state.screenshot_overlays, "Keep the skeleton, grid and axes")
        .on_hover_text("off: the figure and the file's scene only");
    ui.checkbox(&mut state.screenshot_transparent, "Transparent background");
    ui.separator();
    let folder = state.screenshot_folder.clone().or_else(crate::app::screenshot::pictures_folder);
    ui.label(format!("Folder: {}", folder.map_or_else(|| "current folder".to_owned(), |f| f.display().to_string())));
    if ui.button("Choose folder…").clicked() {
        commands.push(UiCommand::ChooseScreenshotFolder);
    }
}

fn help_ui(ui: &mut egui::Ui, state: &mut UiState) {
    let mut open = state.show_help;
    layout::centred(egui::Window::new("Help"), ui.ctx()).open(&mut open).resizable(false).collapsible(false).show(
        ui.ctx(),
        |ui| {
            bindings::help_grid(ui);
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
/// In the view's upper right corner, below the Screenshot button: the figure stands in the middle, and a
/// box at the top centre hid its head.
fn first_run_ui(ui: &mut egui::Ui, rect: egui::Rect, state: &UiState, commands: &mut Vec<UiCommand>) {
    let width = 340.0_f32.min(rect.width() * 0.3);
    let corner = rect.right_top() + egui::vec2(-width - 24.0, 44.0);
    egui::Area::new(egui::Id::unique("first_run")).fixed_pos(corner).show(ui.ctx(), |ui| {
        egui::Frame::popup(ui.style()).show(ui, |ui| {
            ui.set_width(width);
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
    });
}
