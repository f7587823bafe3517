//! Issue 34, problem 1 — a selection the user can see, on JinLOA4 (146 joints): a joint selected outside
//! the tree (as a click in the 3D view, a script's `select` or an IK drag does) opens the tree down to
//! its row and scrolls that row into sight; the path from the root stands above the sliders, each
//! ancestor a link; the joint under the pointer in the 3D view is named there.

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use hanim_viewer::hanim::{self, Document, JointIndex};
use hanim_viewer::ui::{self, FrameInfo, PoseEditor, SceneSummary, UiState};

struct App {
    doc: Document,
    summary: SceneSummary,
    editor: PoseEditor,
    ui: UiState,
}

impl App {
    fn new(file: &str) -> Self {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/x3d").join(file);
        let doc = hanim::load(&path).expect("corpus file loads");
        let summary = SceneSummary::new(&doc, &doc.humanoids[0]);
        let editor = PoseEditor::new(&doc.humanoids[0]);
        Self { doc, summary, editor, ui: UiState::default() }
    }

    fn joint(&self, name: &str) -> JointIndex {
        JointIndex(self.summary.joints.iter().position(|j| j.name == name).expect(name))
    }
}

fn harness(file: &str) -> Harness<'static, App> {
    Harness::builder().with_size(egui::vec2(1280.0, 800.0)).build_ui_state(
        |ui, app: &mut App| {
            let info = FrameInfo { adapter: "test", ..Default::default() };
            let (commands, _) = ui::app_ui(ui, &mut app.ui, Some((&app.summary, &app.editor.pose)), &info, None);
            let h = &app.doc.humanoids[0];
            for c in commands {
                app.editor.apply(h, &mut app.ui, c);
            }
        },
        App::new(file),
    )
}

/// The deepest joint of JinLOA4: the little finger's last joint, 12 levels down.
const DEEP: &str = "l_carpal_distal_interphalangeal_5";

#[test]
fn a_joint_selected_in_the_view_is_revealed_in_the_tree_and_its_path_shown() {
    let mut h = harness("JinLOA4.x3d");
    h.run();
    let deep = h.state().joint(DEEP);
    assert!(h.state().summary.joints[deep.0].depth >= 10);
    assert!(h.query_by_role_and_label(Role::Button, DEEP).is_none(), "{DEEP} is not shown before it is selected");

    // Selected as a click in the 3D view selects: the UI state changes, the tree was not touched.
    let app = h.state_mut();
    app.editor.apply(&app.doc.humanoids[0], &mut app.ui, ui::UiCommand::SelectJoint(Some(deep)));
    h.run();

    // The path from the root: its root and the joint's parent are links.
    let root = h.get_by_role_and_label(Role::Link, "humanoid_root");
    let parent = "l_carpal_proximal_interphalangeal_5";
    assert!(h.query_by_role_and_label(Role::Link, parent).is_some(), "no link to the parent {parent}");

    // The row is in the tree, between the filter box and the path (the tree's scrolled area).
    let row = h.get_by_role_and_label(Role::Button, DEEP);
    let filter = h.get_by_role(Role::TextInput);
    let (row, top, bottom) = (row.rect(), filter.rect().bottom(), root.rect().top());
    assert!(row.top() >= top - 1.0 && row.bottom() <= bottom + 1.0, "row {row:?} not between {top} and {bottom}");

    // A crumb selects its joint.
    let link = h.get_by_role_and_label(Role::Link, parent);
    link.click();
    h.run();
    assert_eq!(h.state().ui.selected_joint, Some(h.state().joint(parent)));
}

/// Every text painted this frame.
fn painted_texts(h: &Harness<'_, App>) -> Vec<String> {
    fn walk(shape: &egui::Shape, out: &mut Vec<String>) {
        match shape {
            egui::Shape::Text(t) => out.push(t.galley.text().to_owned()),
            egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| walk(s, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for clipped in &h.output().shapes {
        walk(&clipped.shape, &mut out);
    }
    out
}

#[test]
fn the_joint_under_the_pointer_is_named_in_the_view() {
    let mut h = harness("JinLOA4.x3d");
    h.run();
    // The app names what lies under the pointer (a joint centre within the pick radius); the view
    // draws the name by the pointer, with no overlay switched on.
    h.state_mut().ui.hovered_name = Some("r_shoulder".to_string());
    h.hover_at(egui::pos2(640.0, 400.0));
    h.run();
    assert!(!h.state().ui.show_sites);
    assert!(painted_texts(&h).iter().any(|t| t == "r_shoulder"), "no name drawn by the pointer");
}
