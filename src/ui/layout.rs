//! The window's layout, made to hold on deep skeletons and small screens: the menu bar, the status bar,
//! the Joints panel (left) and the side panel (right) at widths the user sets — never wider than their
//! share of the window, so the 3D view keeps at least half of its width, and never widened by what a
//! file puts in them — with the pose library and the motion capture docked as tabs of the side panel;
//! dialogs centred under the menu bar; F11 gives the whole width to the 3D view and back.

use super::capture::CaptureEditor;
use super::pose_library::{self, LibraryEntry};
use super::view::view_ui;
use super::{FrameInfo, SceneSummary, UiCommand, UiState, ViewportInput, panels};
use crate::pose::Pose;

/// The narrowest a side panel is made (points), unless the window is too small for two of them and a
/// 3D view of half its width.
pub const MIN_PANEL_WIDTH: f32 = 200.0;
/// The share of the window's width the side panels may take together.
pub const MAX_PANELS_SHARE: f32 = 0.5;
/// The panels' widths before the user drags them.
pub const DEFAULT_JOINTS_WIDTH: f32 = 260.0;
pub const DEFAULT_SIDE_WIDTH: f32 = 240.0;

/// What the side panel can show besides the scene (viewpoints and displacers), as tabs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SideTab {
    #[default]
    Scene,
    Poses,
    Capture,
}

/// The docked tools the app hands in: the pose library's entries (with the library folder) and the
/// applied motion capture.
#[derive(Default)]
pub struct Dock<'a> {
    pub library: &'a [LibraryEntry],
    pub library_folder: Option<&'a str>,
    pub capture: Option<&'a mut CaptureEditor>,
}

/// The range of widths a side panel may have in a window `window_width` wide, with `panels` side panels
/// shown: at most its share of [`MAX_PANELS_SHARE`], at least [`MIN_PANEL_WIDTH`] when that fits.
pub fn panel_width_range(window_width: f32, panels: usize) -> egui::Rangef {
    let max = (window_width * MAX_PANELS_SHARE / panels.max(1) as f32).max(1.0);
    egui::Rangef::new(MIN_PANEL_WIDTH.min(max), max)
}

/// The id under which the area dialogs are kept in (below the menu bar) is stored for the frame.
fn dialog_area_id() -> egui::Id {
    egui::Id::unique("hanim_viewer_dialog_area")
}

/// `window` centred in the window below the menu bar, and kept there (it can still be moved inside).
pub fn centred<'open>(window: egui::Window<'open>, ctx: &egui::Context) -> egui::Window<'open> {
    let area = ctx.data(|d| d.get_temp::<egui::Rect>(dialog_area_id())).unwrap_or_else(|| ctx.content_rect());
    window.pivot(egui::Align2::CENTER_CENTER).default_pos(area.center()).constrain_to(area)
}

/// The whole window's UI without docked tools (see [`app_ui_docked`]).
pub fn app_ui(
    ui: &mut egui::Ui,
    state: &mut UiState,
    scene: Option<(&SceneSummary, &Pose)>,
    info: &FrameInfo,
    viewport_texture: Option<egui::TextureId>,
) -> (Vec<UiCommand>, ViewportInput) {
    app_ui_docked(ui, state, scene, info, viewport_texture, Dock::default())
}

/// The whole window's UI: menu, status bar, Joints panel (left), the side panel (right: viewpoints and
/// displacers, the pose library and the motion capture as tabs) and the central 3D view showing
/// `viewport_texture`. Returns the commands of this frame and the mouse input on the 3D view.
pub fn app_ui_docked(
    ui: &mut egui::Ui,
    state: &mut UiState,
    scene: Option<(&SceneSummary, &Pose)>,
    info: &FrameInfo,
    viewport_texture: Option<egui::TextureId>,
    mut dock: Dock,
) -> (Vec<UiCommand>, ViewportInput) {
    super::look::install(ui.ctx());
    let mut commands = super::shortcuts_ui(ui, state);
    let menu = egui::Panel::top("menu").show(ui, |ui| commands.extend(super::menu_ui(ui, state, info)));
    let below_menu = egui::Rect::from_min_max(
        egui::pos2(ui.ctx().content_rect().left(), menu.response.rect.bottom()),
        ui.ctx().content_rect().max,
    );
    ui.ctx().data_mut(|d| d.insert_temp(dialog_area_id(), below_menu));
    if !state.view_maximised {
        egui::Panel::bottom("status").show(ui, |ui| super::status::status_ui(ui, state, info));
    }
    let docked = follow_dock(state, &dock);
    if let Some((summary, pose)) = scene
        && !state.view_maximised
    {
        let show_side = state.show_side_panel || docked;
        let shown = usize::from(state.show_joints_panel) + usize::from(show_side);
        let range = panel_width_range(ui.available_rect_before_wrap().width(), shown);
        if state.show_joints_panel {
            let panel = egui::Panel::left("joints")
                .resizable(true)
                .default_size(state.joints_panel_width.clamp(range.min, range.max))
                .size_range(range)
                .show(ui, |ui| {
                    ui.heading("Joints");
                    commands.extend(panels::joints_ui(ui, state, summary, pose, info.joint_drivers));
                });
            state.joints_panel_width = panel.response.rect.width();
        }
        if show_side {
            let panel = egui::Panel::right("side")
                .resizable(true)
                .default_size(state.side_panel_width.clamp(range.min, range.max))
                .size_range(range)
                .show(ui, |ui| {
                    side_panel_ui(ui, state, summary, pose, info.driven_displacers, &mut dock, &mut commands)
                });
            state.side_panel_width = panel.response.rect.width();
        }
    }
    let mut input = ViewportInput::default();
    egui::CentralPanel::default().frame(egui::Frame::NONE).show(ui, |ui| {
        input = view_ui(ui, state, scene.is_some(), info, viewport_texture);
        super::view_overlays::view_overlays_ui(ui, input.rect, state, info, &mut commands);
        if state.view_maximised {
            let at = input.rect.right_top() + egui::vec2(-8.0, 8.0);
            egui::Area::new(egui::Id::unique("restore_panels")).pivot(egui::Align2::RIGHT_TOP).fixed_pos(at).show(
                ui.ctx(),
                |ui| {
                    if ui.button("Show panels (F11)").clicked() {
                        state.view_maximised = false;
                    }
                },
            );
        }
    });
    let selected_name = scene
        .and_then(|(summary, _)| state.selected_joint.and_then(|j| summary.joints.get(j.0)).map(|j| j.name.as_str()));
    panels::skin_inspection::skin_inspection_window(ui.ctx(), input.rect, state, selected_name);
    if info.first_run && info.error.is_none() && info.loading.is_none() {
        super::first_run_ui(ui, input.rect, state, &mut commands);
    }
    super::help_ui(ui, state);
    super::about_ui(ui, state, info);
    super::problems::problems_window(ui.ctx(), state, info);
    if let Some(error) = info.error {
        super::error_ui(ui, error, scene.is_some(), &mut commands);
    }
    (commands, input)
}

/// Whether a docked tool is open; a tool opened since the last frame (from a menu) becomes the side
/// panel's tab, and a closed tool's tab gives way to the scene.
fn follow_dock(state: &mut UiState, dock: &Dock) -> bool {
    let library = state.pose_library.open;
    let capture = dock.capture.as_ref().is_some_and(|c| c.panel.open);
    let (was_library, was_capture) = state.docked_last_frame;
    if library && !was_library {
        state.side_tab = SideTab::Poses;
    }
    if capture && !was_capture {
        state.side_tab = SideTab::Capture;
    }
    if (state.side_tab == SideTab::Poses && !library) || (state.side_tab == SideTab::Capture && !capture) {
        state.side_tab = SideTab::Scene;
    }
    state.docked_last_frame = (library, capture);
    library || capture
}

/// The side panel: a tab row when a tool is docked, then the tab's content, scrolled both ways so no
/// content widens the panel.
fn side_panel_ui(
    ui: &mut egui::Ui,
    state: &mut UiState,
    summary: &SceneSummary,
    pose: &Pose,
    driven_displacers: &[(usize, String)],
    dock: &mut Dock,
    commands: &mut Vec<UiCommand>,
) {
    let capture_open = dock.capture.as_ref().is_some_and(|c| c.panel.open);
    if state.pose_library.open || capture_open {
        ui.horizontal(|ui| {
            ui.selectable_value(&mut state.side_tab, SideTab::Scene, "Scene");
            if state.pose_library.open {
                ui.selectable_value(&mut state.side_tab, SideTab::Poses, "Poses");
                if ui.small_button("×").on_hover_text("close the pose library").clicked() {
                    state.pose_library.open = false;
                }
            }
            if let Some(capture) = dock.capture.as_deref_mut().filter(|c| c.panel.open) {
                ui.selectable_value(&mut state.side_tab, SideTab::Capture, "Capture");
                if ui.small_button("×").on_hover_text("close the motion capture tab").clicked() {
                    capture.panel.open = false;
                }
            }
        });
        ui.separator();
    }
    let tab = state.side_tab;
    egui::ScrollArea::both().id_salt(("side_scroll", tab as u8)).auto_shrink([false, false]).show(ui, |ui| match tab {
        SideTab::Poses if state.pose_library.open => {
            commands.extend(pose_library::library_ui(ui, &mut state.pose_library, dock.library, dock.library_folder))
        }
        SideTab::Capture if capture_open => {
            if let Some(capture) = dock.capture.as_deref_mut() {
                commands.extend(capture.dock_ui(ui));
            }
        }
        _ => {
            egui::CollapsingHeader::new("Viewpoints").default_open(true).show(ui, |ui| {
                commands.extend(panels::viewpoints_ui(ui, state, summary));
            });
            egui::CollapsingHeader::new("Displacers").default_open(true).show(ui, |ui| {
                commands.extend(panels::displacers_ui(ui, summary, pose, driven_displacers));
            });
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_panels_leave_half_the_window_to_the_view() {
        for width in [640.0, 1024.0, 1280.0, 2560.0] {
            let range = panel_width_range(width, 2);
            assert!(range.max * 2.0 <= width * 0.5 + 0.01, "{width}: {range:?}");
            assert!(range.min <= range.max);
        }
        assert_eq!(panel_width_range(1280.0, 2).min, MIN_PANEL_WIDTH);
        assert_eq!(panel_width_range(1280.0, 1).max, 640.0);
    }
}
