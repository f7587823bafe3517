//! Issue 34, problem 2 — a layout that holds: the side panels keep the widths they are given whatever
//! the file (JinLOA4, JoeKick, the specification's model), the 3D view keeps at least half the window's
//! width at 1280x800, 1024x640 and 640x480 even with JinLOA4's deepest joint opened in the tree, F11
//! gives the view the whole width and back, the pose library docks as a tab (not a window over the
//! figure), dialogs open centred below the menu bar, and the transport does not move when Play becomes
//! Pause.

mod common;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use hanim_viewer::animation::{Animations, Transport};
use hanim_viewer::hanim::{self, Document, JointIndex};
use hanim_viewer::ui::{self, FrameInfo, PoseEditor, SceneSummary, UiState};

struct App {
    doc: Document,
    summary: SceneSummary,
    editor: PoseEditor,
    ui: UiState,
    /// The rectangle the window's UI is laid out in (the harness keeps a margin around it).
    window: egui::Rect,
    view: egui::Rect,
}

impl App {
    fn new(file: &str) -> Self {
        let doc = hanim::load(&common::corpus(&format!("x3d/{file}"))).expect("corpus file loads");
        let summary = SceneSummary::new(&doc, &doc.humanoids[0]);
        let editor = PoseEditor::new(&doc.humanoids[0]);
        Self { doc, summary, editor, ui: UiState::default(), window: egui::Rect::NOTHING, view: egui::Rect::NOTHING }
    }

    fn select(&mut self, name: &str) {
        let j = JointIndex(self.summary.joints.iter().position(|j| j.name == name).expect(name));
        self.editor.apply(&self.doc.humanoids[0], &mut self.ui, ui::UiCommand::SelectJoint(Some(j)));
    }
}

fn harness(file: &str, size: [f32; 2]) -> Harness<'static, App> {
    Harness::builder().with_size(egui::vec2(size[0], size[1])).build_ui_state(
        |ui, app: &mut App| {
            let info = FrameInfo { adapter: "test", ..Default::default() };
            app.window = ui.max_rect();
            let (commands, input) = ui::app_ui(ui, &mut app.ui, Some((&app.summary, &app.editor.pose)), &info, None);
            app.view = input.rect;
            for c in commands {
                app.editor.apply(&app.doc.humanoids[0], &mut app.ui, c);
            }
        },
        App::new(file),
    )
}

const FILES: [&str; 3] = ["JinLOA4.x3d", "JoeKick.x3d", "HAnim2SpecificationLOA3Illustrated.x3d"];

#[test]
fn the_side_panels_keep_their_widths_whatever_the_file() {
    let widths: Vec<(f32, f32)> = FILES
        .iter()
        .map(|file| {
            let mut h = harness(file, [1280.0, 800.0]);
            h.run();
            let s = h.state();
            eprintln!(
                "{file}: joints panel {:.0} pt, side panel {:.0} pt",
                s.ui.joints_panel_width, s.ui.side_panel_width
            );
            (s.ui.joints_panel_width, s.ui.side_panel_width)
        })
        .collect();
    for (file, w) in FILES.iter().zip(&widths) {
        assert!((w.0 - widths[0].0).abs() < 0.5 && (w.1 - widths[0].1).abs() < 0.5, "{file}: {w:?} vs {:?}", widths[0]);
    }
}

#[test]
fn the_3d_view_keeps_half_the_window_with_the_deepest_joint_open() {
    for size in [[1280.0, 800.0], [1024.0, 640.0], [640.0, 480.0]] {
        let mut h = harness("JinLOA4.x3d", size);
        h.run();
        h.state_mut().select("l_carpal_distal_interphalangeal_5");
        h.run();
        h.state_mut().select("skullbase");
        h.run();
        let (view, window) = (h.state().view, h.state().window);
        eprintln!("{size:?}: the 3D view is {:.0} of {:.0} pt", view.width(), window.width());
        assert!(window.width() >= size[0] - 20.0, "{window:?}");
        assert!(view.width() >= window.width() * 0.5 - 0.5, "{size:?}: the 3D view is {view:?} in {window:?}");
    }
}

#[test]
fn f11_gives_the_3d_view_the_whole_width_and_back() {
    let mut h = harness("JoeKick.x3d", [1024.0, 640.0]);
    h.run();
    let before = h.state().view.width();
    h.key_press(egui::Key::F11);
    h.run();
    let window = h.state().window;
    assert!((h.state().view.width() - window.width()).abs() < 0.5, "maximised: {:?} in {window:?}", h.state().view);
    h.key_press(egui::Key::F11);
    h.run();
    assert!((h.state().view.width() - before).abs() < 1.0, "restored: {:?}", h.state().view);
}

#[test]
fn the_pose_library_is_a_tab_beside_the_view_not_a_window_over_it() {
    let mut h = harness("JoeKick.x3d", [1024.0, 640.0]);
    h.run();
    let before = h.state().view;
    h.state_mut().ui.pose_library.open = true;
    h.run();
    h.get_by_role_and_label(Role::Button, "Poses");
    let save = h.get_by_label("Save current pose as").rect();
    assert!(!before.intersects(save), "the library's controls {save:?} lie over the 3D view {before:?}");
    assert_eq!(h.state().view, before, "the 3D view keeps its place");
}

#[test]
fn dialogs_open_centred_below_the_menu_bar() {
    let mut h = harness("JoeKick.x3d", [1024.0, 640.0]);
    h.run();
    let menu_bottom = h.get_by_role_and_label(Role::Button, "File").rect().bottom();
    h.state_mut().ui.show_about = true;
    h.run();
    let title = h.get_by_label("About hanim-viewer").rect();
    let version = h.get_by_label("Version").rect();
    assert!(
        title.top() > menu_bottom,
        "the About window's title {title:?} is over the menu bar (bottom {menu_bottom})"
    );
    // Centred across: its title's middle near the window's middle.
    assert!((title.center().x - 512.0).abs() < 60.0, "the About window is not centred: {title:?}");
    assert!(version.top() > menu_bottom);
}

#[test]
fn the_transport_does_not_move_when_play_becomes_pause() {
    let doc = hanim::load(&common::corpus("x3d/JoeKick.x3d")).unwrap();
    let mut h = Harness::builder().with_size(egui::vec2(1100.0, 300.0)).build_ui_state(
        |ui, t: &mut Transport| ui::transport::transport_panel(ui, t),
        Transport::new(Animations::from_document(&doc)),
    );
    h.run();
    let stop = h.get_by_role_and_label(Role::Button, "Stop").rect();
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run();
    assert!(h.state().playing);
    let stop_now = h.get_by_role_and_label(Role::Button, "Stop").rect();
    assert_eq!(stop, stop_now, "Stop moved when Play became Pause");
}
