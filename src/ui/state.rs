//! The UI's plain-data state: what is selected, shown and toggled. No GPU types.

use std::path::PathBuf;

/// Most recent files kept in [`UiState::recent_files`].
pub const MAX_RECENT_FILES: usize = 10;

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct UiState {
    #[serde(skip)]
    pub selected_joint: Option<crate::hanim::JointIndex>,
    #[serde(skip)]
    pub joint_search: String,
    /// Sliders move freely instead of clamping to llimit/ulimit.
    pub ignore_limits: bool,
    /// Effectors (Site or joint names) that hold their place while another one is dragged.
    #[serde(skip)]
    pub pins: Vec<String>,
    pub show_grid: bool,
    /// The figure read at human size: the power of ten the status bar offered and the user took
    /// (`crate::ui::scale`), for this file only.
    #[serde(skip)]
    pub human_size: Option<f32>,
    pub show_axes: bool,
    pub show_skeleton: bool,
    /// Draw with the viewer's studio look (key and ambient light, linear light) instead of the X3D
    /// lighting equations (`gpu::lighting::Lighting`).
    pub studio_lighting: bool,
    pub show_joints_panel: bool,
    pub show_side_panel: bool,
    #[serde(skip)]
    pub show_help: bool,
    /// Help ▸ About is open.
    #[serde(skip)]
    pub show_about: bool,
    /// The view last switched to (index into the summary's views).
    #[serde(skip)]
    pub active_view: Option<usize>,
    pub recent_files: Vec<PathBuf>,
    pub last_folder: Option<PathBuf>,
    /// Where screenshots go (the current directory when unset).
    pub screenshot_folder: Option<PathBuf>,
    /// Screenshot size in pixels (`None`: the 3D view's size).
    pub screenshot_size: Option<[u32; 2]>,
    /// Screenshots keep the skeleton, grid, axes and handles (off: the figure and the file's scene).
    pub screenshot_overlays: bool,
    /// Screenshots have a transparent background instead of the view's.
    pub screenshot_transparent: bool,
    /// The strip over the 3D view saying how to orbit, pan and zoom (until the user hides it).
    pub show_nav_hint: bool,
    /// The Problems window (load warnings, failed references) is open.
    #[serde(skip)]
    pub show_problems: bool,
    /// Widths of the resizable side panels, in points.
    pub joints_panel_width: f32,
    pub side_panel_width: f32,
    /// Draw frames continuously (to measure fps) instead of on input only.
    #[serde(skip)]
    pub continuous_redraw: bool,
    /// View ▸ Skin inspection: the colouring drawn instead of the materials (this session only).
    #[serde(skip)]
    pub skin_overlay: crate::pose::skin_inspection::OverlayMode,
    /// Each joint's local axes at its centre.
    #[serde(skip)]
    pub show_joint_axes: bool,
    /// Every Site drawn, its name shown under the pointer.
    #[serde(skip)]
    pub show_sites: bool,
    /// The skin point last picked in the 3D view with a colouring on.
    #[serde(skip)]
    pub picked_vertex: Option<super::panels::skin_inspection::PickedVertex>,
    /// The name of the Site or joint under the pointer (shown with the Sites overlay).
    #[serde(skip)]
    pub hovered_name: Option<String>,
    /// File ▸ Export animation…'s choices (this session only).
    #[serde(skip)]
    pub export: super::export::ExportSettings,
    /// View ▸ Limits over the clip (this session only).
    #[serde(skip)]
    pub limit_report: super::limit_report::LimitReportPanel,
    /// The pose library window (this session only).
    #[serde(skip)]
    pub pose_library: super::pose_library::LibraryState,
    /// File ▸ Save as X3D…'s choices (this session only).
    #[serde(skip)]
    pub save_x3d: super::save_x3d::SaveX3dSettings,
    /// The 3D view has the window's width (F11): no side panels, no status bar.
    #[serde(skip)]
    pub view_maximised: bool,
    /// The side panel's tab (the scene, or a docked tool).
    #[serde(skip)]
    pub side_tab: super::layout::SideTab,
    /// Whether the pose library and the motion capture were docked last frame (a tool just opened
    /// becomes the side panel's tab).
    #[serde(skip)]
    pub docked_last_frame: (bool, bool),
    /// Where the selected joint lies in the 3D view (the app projects it each frame).
    #[serde(skip)]
    pub view_marks: super::view::ViewMarks,
}

impl Default for UiState {
    fn default() -> Self {
        Self {
            selected_joint: None,
            joint_search: String::new(),
            ignore_limits: false,
            human_size: None,
            pins: Vec::new(),
            show_grid: true,
            show_axes: true,
            show_skeleton: true,
            studio_lighting: false,
            show_joints_panel: true,
            show_side_panel: true,
            show_help: false,
            show_about: false,
            active_view: None,
            recent_files: Vec::new(),
            last_folder: None,
            screenshot_folder: None,
            screenshot_size: None,
            joints_panel_width: super::layout::DEFAULT_JOINTS_WIDTH,
            side_panel_width: super::layout::DEFAULT_SIDE_WIDTH,
            screenshot_overlays: false,
            screenshot_transparent: false,
            show_nav_hint: true,
            show_problems: false,
            continuous_redraw: false,
            skin_overlay: Default::default(),
            show_joint_axes: false,
            show_sites: false,
            picked_vertex: None,
            hovered_name: None,
            export: Default::default(),
            limit_report: Default::default(),
            pose_library: Default::default(),
            save_x3d: Default::default(),
            view_maximised: false,
            side_tab: Default::default(),
            docked_last_frame: (false, false),
            view_marks: Default::default(),
        }
    }
}

impl UiState {
    /// Puts `path` first in the recent files and remembers its folder.
    pub fn remember_file(&mut self, path: &std::path::Path) {
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        self.recent_files.retain(|p| p != &path);
        self.recent_files.insert(0, path.clone());
        self.recent_files.truncate(MAX_RECENT_FILES);
        self.last_folder = path.parent().map(|p| p.to_path_buf());
    }

    /// Takes in files another window of the program opened since (a file manager starts a new process
    /// per file): they join the front of this window's recent list, newest first.
    pub fn merge_recent_files(&mut self, other: &[std::path::PathBuf]) {
        let mut merged: Vec<std::path::PathBuf> = other.to_vec();
        for p in &self.recent_files {
            if !merged.contains(p) {
                merged.push(p.clone());
            }
        }
        merged.truncate(MAX_RECENT_FILES);
        self.recent_files = merged;
    }

    /// What a new humanoid resets: selection, search, active view.
    pub fn forget_humanoid(&mut self) {
        self.selected_joint = None;
        self.picked_vertex = None;
        self.view_marks = Default::default();
        self.joint_search.clear();
        self.active_view = None;
        self.human_size = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_files_are_unique_newest_first_and_bounded() {
        let mut s = UiState::default();
        for i in 0..12 {
            s.remember_file(std::path::Path::new(&format!("/tmp/f{i}.x3d")));
        }
        s.remember_file(std::path::Path::new("/tmp/f5.x3d"));
        assert_eq!(s.recent_files.len(), MAX_RECENT_FILES);
        assert_eq!(s.recent_files[0], PathBuf::from("/tmp/f5.x3d"));
        assert_eq!(s.recent_files.iter().filter(|p| p.ends_with("f5.x3d")).count(), 1);
        assert_eq!(s.last_folder, Some(PathBuf::from("/tmp")));
    }
}
