//! egui panels driven by simulated input (egui_kittest): the joint tree, a rotation slider, a displacer
//! slider, the viewpoint list and keyboard shortcuts; the commands they return change the pose.

use std::path::Path;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use glam::Quat;
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::ui::{self, FrameInfo, PoseEditor, SceneSummary, UiCommand, UiState};

const FIXTURE: &str = include_str!("ui_fixture.x3d");

struct Panels {
    doc: Document,
    summary: SceneSummary,
    editor: PoseEditor,
    ui: UiState,
    /// Commands the app would handle (views, files, screenshots).
    passed_on: Vec<UiCommand>,
}

impl Panels {
    fn new() -> Self {
        let doc = hanim::load_str(FIXTURE, Path::new("ui_fixture.x3d")).expect("fixture loads");
        let summary = SceneSummary::new(&doc, &doc.humanoids[0]);
        let editor = PoseEditor::new(&doc.humanoids[0]);
        Self { doc, summary, editor, ui: UiState::default(), passed_on: Vec::new() }
    }

    fn joint(&self, name: &str) -> hanim_viewer::hanim::JointIndex {
        hanim_viewer::hanim::JointIndex(self.summary.joints.iter().position(|j| j.name == name).expect(name))
    }

    fn apply(&mut self, commands: Vec<UiCommand>) {
        let h = &self.doc.humanoids[0];
        for c in commands {
            if let Some(rest) = self.editor.apply(h, &mut self.ui, c) {
                self.passed_on.push(rest);
            }
        }
    }
}

/// The whole window UI, as the app lays it out (without a 3D texture).
fn whole_ui(ui: &mut egui::Ui, p: &mut Panels) {
    let info = FrameInfo { adapter: "test", ..Default::default() };
    let (commands, _) = ui::app_ui(ui, &mut p.ui, Some((&p.summary, &p.editor.pose)), &info, None);
    p.apply(commands);
}

fn harness() -> Harness<'static, Panels> {
    Harness::builder().with_size(egui::vec2(1200.0, 800.0)).build_ui_state(whole_ui, Panels::new())
}

#[test]
fn clicking_a_joint_in_the_tree_selects_it_and_the_slider_poses_it() {
    let mut h = harness();
    h.run();
    h.get_by_label("l_elbow").click();
    h.run();
    let elbow = h.state().joint("l_elbow");
    assert_eq!(h.state().ui.selected_joint, Some(elbow));

    // Drag the X rotation slider (0..150°, clamped) to the right with the mouse.
    let slider = h.get_by_role_and_label(Role::Slider, "X rotation");
    let rect = slider.rect();
    let start = egui::pos2(rect.left() + 2.0, rect.center().y);
    h.hover_at(start);
    h.drag_at(start);
    h.run();
    h.hover_at(egui::pos2(rect.center().x, rect.center().y));
    h.run();
    h.drop_at(egui::pos2(rect.center().x, rect.center().y));
    h.run();
    let p = h.state();
    let q = p.editor.pose.rotation_offsets[elbow];
    assert!(q.angle_between(Quat::IDENTITY) > 0.2, "the elbow turned: {q:?}");
    let degrees = ui::panels::joint_degrees(&p.summary, &p.editor.pose, elbow);
    assert!(degrees[0] > 10.0 && degrees[0] <= 150.0, "{degrees:?}");
    assert!(p.editor.history.can_undo());
}

#[test]
fn slider_values_set_by_accessibility_are_clamped_and_undone_with_ctrl_z() {
    let mut h = harness();
    h.run();
    h.get_by_label("l_elbow").click();
    h.run();
    let elbow = h.state().joint("l_elbow");
    h.get_by_role_and_label(Role::Slider, "X rotation").set_value_accesskit(90.0);
    h.run();
    let d = ui::panels::joint_degrees(&h.state().summary, &h.state().editor.pose, elbow);
    assert!((d[0] - 90.0).abs() < 0.1, "{d:?}");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(h.state().editor.pose.rotation_offsets[elbow], Quat::IDENTITY, "Ctrl+Z undid the edit");
    h.key_press_modifiers(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, egui::Key::Z);
    h.run();
    let d = ui::panels::joint_degrees(&h.state().summary, &h.state().editor.pose, elbow);
    assert!((d[0] - 90.0).abs() < 0.1, "Ctrl+Shift+Z redid it: {d:?}");
}

#[test]
fn searching_filters_the_tree() {
    let mut h = harness();
    h.run();
    h.get_by_role(Role::TextInput).click();
    h.run();
    h.get_by_role(Role::TextInput).type_text("skull");
    h.run();
    assert_eq!(h.state().ui.joint_search, "skull");
    assert!(h.query_by_label("l_elbow").is_none());
    h.get_by_label("skullbase").click();
    h.run();
    assert_eq!(h.state().ui.selected_joint, Some(h.state().joint("skullbase")));
}

#[test]
fn displacer_slider_changes_the_weight_and_reset_restores_it() {
    let mut h = harness();
    h.run();
    h.get_by_role_and_label(Role::Slider, "l_shoulder_bulge_action").set_value_accesskit(0.6);
    h.run();
    assert!((h.state().editor.pose.displacer_weights[0] - 0.6).abs() < 1e-6);
    h.get_by_label("Reset all displacers").click();
    h.run();
    assert_eq!(h.state().editor.pose.displacer_weights[0], 0.0);
}

#[test]
fn viewpoints_switch_by_click_and_by_number_key() {
    let mut h = harness();
    h.run();
    h.get_by_label_contains("Left eye").click();
    h.run();
    assert_eq!(h.state().ui.active_view, Some(0));
    h.key_press(egui::Key::Num3);
    h.run();
    assert_eq!(h.state().ui.active_view, Some(2));
    assert_eq!(h.state().passed_on, vec![UiCommand::SelectView(0), UiCommand::SelectView(2)]);
    h.key_press(egui::Key::F);
    h.key_press(egui::Key::F12);
    h.run();
    assert!(h.state().passed_on.ends_with(&[UiCommand::FitView, UiCommand::Screenshot(None)]));
}

#[test]
fn a_file_with_two_humanoids_offers_a_choice_of_humanoid() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/two_humanoids.x3d");
    let doc = hanim::load(&path).unwrap();
    assert_eq!(doc.humanoids.len(), 2);
    let summary = SceneSummary::new(&doc, &doc.humanoids[0]);
    assert_eq!((summary.humanoid_names.len(), summary.humanoid_index), (2, 0));
    let pose = hanim_viewer::pose::Pose::rest(&doc.humanoids[0]);
    let mut h = Harness::builder().with_size(egui::vec2(400.0, 600.0)).build_ui_state(
        |ui, chosen: &mut Vec<UiCommand>| {
            let mut state = UiState::default();
            chosen.extend(ui::panels::joints_ui(ui, &mut state, &summary, &pose, &[]));
        },
        Vec::new(),
    );
    h.run();
    h.get_by_role(Role::ComboBox).click();
    h.run();
    h.get_by_label("2: hanim").click();
    h.run();
    assert_eq!(h.state().as_slice(), [UiCommand::SelectHumanoid(hanim_viewer::hanim::HumanoidIndex(1))]);
    // The summary of the second humanoid knows it is the second.
    assert_eq!(SceneSummary::new(&doc, &doc.humanoids[1]).humanoid_index, 1);
}

/// What a first-run window shows: the built-in humanoid, a hint to open a file, the recent files as links
/// (a click opens one); Help ▸ About with the commit and the adapter; errors with a Copy button.
struct FirstRun {
    ui: UiState,
    first_run: bool,
    error: Option<String>,
    commands: Vec<UiCommand>,
}

fn first_run_harness(first_run: bool, error: Option<&str>) -> Harness<'static, FirstRun> {
    let mut ui = UiState::default();
    ui.remember_file(Path::new("/data/humanoids/JinLOA4.x3d"));
    ui.remember_file(Path::new("/data/humanoids/JoeKick.x3d"));
    let state = FirstRun { ui, first_run, error: error.map(str::to_string), commands: Vec::new() };
    Harness::builder().with_size(egui::vec2(1000.0, 700.0)).build_ui_state(
        |ui, s: &mut FirstRun| {
            let info = FrameInfo {
                adapter: "llvmpipe (test)",
                first_run: s.first_run,
                error: s.error.as_deref(),
                ..Default::default()
            };
            let (commands, _) = ui::app_ui(ui, &mut s.ui, None, &info, None);
            s.commands.extend(commands);
        },
        state,
    )
}

#[test]
fn the_first_run_hint_offers_open_and_the_recent_files() {
    let mut h = first_run_harness(true, None);
    h.run();
    let hint = h.get_by_label("Open a humanoid (Ctrl+O) or drop a file here").rect();
    // Right of the middle of the 1000-wide window, where the figure's head is not.
    assert!(hint.left() > 500.0 && hint.right() < 1000.0, "the first-run box stays aside: {hint:?}");
    h.get_by_label("JoeKick.x3d").click();
    h.run();
    assert_eq!(h.state().commands, [UiCommand::Open("/data/humanoids/JoeKick.x3d".into())]);
    // Once a file is open, no hint.
    let mut h = first_run_harness(false, None);
    h.run();
    assert!(h.query_by_label("Open a humanoid (Ctrl+O) or drop a file here").is_none());
}

#[test]
fn help_about_shows_the_version_commit_and_adapter() {
    let mut h = first_run_harness(false, None);
    h.run();
    h.get_by_label("Help").click();
    h.run();
    h.get_by_label("About hanim-viewer").click();
    h.run();
    assert!(h.state().ui.show_about);
    assert!(h.query_by_label(hanim_viewer::GIT_COMMIT).is_some(), "the commit is shown");
    // In the About window and in the status bar.
    assert!(h.query_all_by_label("llvmpipe (test)").count() >= 2, "the adapter is shown");
    let text = ui::about_text("llvmpipe (test)");
    assert!(text.contains(hanim_viewer::GIT_COMMIT) && text.contains(env!("CARGO_PKG_VERSION")), "{text}");
}

#[test]
fn an_error_can_be_copied_as_text() {
    let message = "broken.x3d:12:7: expected '>' after the attributes of <Transform>";
    let mut h = first_run_harness(false, Some(message));
    h.run();
    h.get_by_label("Copy").click();
    // The frame that handles the click is the one whose output carries the copy.
    h.step();
    let copied: Vec<String> = h
        .output()
        .platform_output
        .commands
        .iter()
        .filter_map(|c| match c {
            egui::OutputCommand::CopyText(text) => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(copied, [message.to_string()]);
}

/// The status bar gives the figure's height; a figure modelled in centimetres (the test fixture inside a
/// Transform scaled 100×, as files converted without their unit open) is pointed out, and the offer to
/// read it at human size is taken with one click, the file untouched.
#[test]
fn the_status_bar_gives_the_height_and_offers_human_size_for_a_centimetre_figure() {
    let scaled = FIXTURE.replacen("<Scene>", "<Scene><Transform scale='100 100 100'>", 1).replacen(
        "</Scene>",
        "</Transform></Scene>",
        1,
    );
    let doc = hanim::load_str(&scaled, Path::new("ui_fixture_cm.x3d")).expect("fixture loads");
    let h = &doc.humanoids[0];
    let pose = hanim_viewer::pose::Pose::rest(h);
    let height = hanim_viewer::pose::bounds::humanoid_bounds(&doc.scene, h, &pose).unwrap().size().y;
    assert!(height > 10.0, "the scaled fixture is {height} m tall");
    let mut harness = Harness::builder().with_size(egui::vec2(1200.0, 800.0)).build_ui_state(
        move |ui, state: &mut UiState| {
            let info = FrameInfo { adapter: "test", figure_height: Some(height), ..Default::default() };
            ui::app_ui(ui, state, None, &info, None);
        },
        UiState::default(),
    );
    harness.run();
    let metres = format!("{height:.2} m tall");
    assert!(
        harness.query_by_label_contains(&format!("{metres}: not a human size, modelled in centimetres?")).is_some(),
        "no warning for {metres}"
    );
    harness.get_by_label("View at human size (×0.01)").click();
    harness.run();
    assert_eq!(harness.state().human_size, Some(0.01));
    // The fixture is 0.7 m tall: read at ×0.01 its height is given in centimetres.
    let human = format!("{:.1} cm tall at ×0.01 (the file: {height:.2} m)", height);
    assert!(harness.query_by_label_contains(&human).is_some(), "no '{human}'");
    harness.get_by_label("File size").click();
    harness.run();
    assert_eq!(harness.state().human_size, None);
}

#[test]
fn an_inlined_files_viewpoints_are_folded_after_the_files_own() {
    // A file that inlines a humanoid file twice and has a Viewpoint of its own: the two inlined copies of
    // the humanoid file's Viewpoint wait, folded, under "From inlined files (2)", after the computed views;
    // opening the fold offers them, each selectable.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("figure.x3d"),
        "<X3D version='4.0'><Scene><Viewpoint description='inner view'/><HAnimHumanoid name='h' version='2.0'>\
         <HAnimJoint DEF='r' name='humanoid_root' containerField='skeleton'/>\
         <HAnimJoint USE='r' containerField='joints'/></HAnimHumanoid></Scene></X3D>",
    )
    .unwrap();
    let text = "<X3D version='4.0'><Scene><Inline url='\"figure.x3d\"'/>\
                <Transform translation='1 0 0'><Inline url='\"figure.x3d\"'/></Transform>\
                <Viewpoint description='the pair'/></Scene></X3D>";
    let doc = hanim::load_str(text, &dir.path().join("pair.x3d")).unwrap();
    let summary = SceneSummary::new(&doc, &doc.humanoids[0]);
    let own = summary.views.iter().take_while(|v| !v.inlined).count();
    assert_eq!(summary.views.len() - own, 2, "two inlined views, last");
    assert_eq!(summary.views[0].label, "the pair");
    let mut h = Harness::builder().with_size(egui::vec2(300.0, 600.0)).build_ui_state(
        |ui, chosen: &mut Vec<UiCommand>| {
            chosen.extend(ui::panels::viewpoints_ui(ui, &UiState::default(), &summary));
        },
        Vec::new(),
    );
    h.run();
    assert!(h.query_by_label_contains("the pair").is_some());
    assert!(h.query_by_label_contains("inner view").is_none(), "folded away at first");
    h.get_by_label_contains("From inlined files (2)").click();
    h.run();
    h.get_all_by_label_contains("inner view").last().expect("shown once unfolded").click();
    h.run();
    assert_eq!(h.state().as_slice(), [UiCommand::SelectView(summary.views.len() - 1)]);
}
