//! Issue 34, problems 4 and 7 — the panels say what sets a value the user did not set, and a field cut to
//! fit gives its whole text on hover (egui_kittest over the whole window UI, JoeKick and the
//! specification model):
//! - a joint and a displacer that a playing clip sets are marked "driven by clip 'KickTimer'" once the
//!   transport drives the figure (not before); paused, the joint's slider overrides the clip's angle and
//!   the override holds over the next frames' sampling; a joint an IK reach turned is marked
//!   "set by IK (reach of …)", and the mark goes when the slider sets it;
//! - a displacer's name beside its slider, the adapter's name and a long viewpoint label are cut to the
//!   panel and show their whole text in a tooltip on hover (the slider is still found by its name).

mod common;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable, by};
use hanim_viewer::animation::Transport;
use hanim_viewer::hanim::{self, Document, HumanoidIndex, JointIndex};
use hanim_viewer::ui::drivers::{displacer_driver_lines, joint_driver_lines};
use hanim_viewer::ui::{self, FrameInfo, PoseEditor, SceneSummary, UiCommand, UiState};

struct App {
    path: std::path::PathBuf,
    doc: Document,
    summary: SceneSummary,
    editor: PoseEditor,
    ui: UiState,
    transport: Transport,
    adapter: String,
}

/// The whole UI over `file`, with a frame as the window runs it: the transport's clips sampled into the
/// pose (the user's offsets on top), the drivers computed as the window does, the panels' commands
/// applied to the pose editor.
fn harness(file: &str, size: [f32; 2], adapter: &str) -> Harness<'static, App> {
    let path = common::corpus(&format!("x3d/{file}"));
    let doc = hanim::load(&path).expect("corpus file loads");
    let summary = SceneSummary::new(&doc, &doc.humanoids[0]);
    let editor = PoseEditor::new(&doc.humanoids[0]);
    let transport = Transport::for_window(&doc);
    let app = App { path, doc, summary, editor, ui: UiState::default(), transport, adapter: adapter.to_string() };
    Harness::builder().with_size(egui::vec2(size[0], size[1])).build_ui_state(
        |ui, app: &mut App| {
            if app.transport.engaged {
                app.transport.apply(&app.doc, std::slice::from_mut(&mut app.editor.pose));
            }
            let humanoid = HumanoidIndex(0);
            let joints = joint_driver_lines(&app.transport, humanoid, None, &app.editor.reached);
            let displacers = displacer_driver_lines(&app.transport, humanoid);
            let info = FrameInfo {
                file: Some(&app.path),
                adapter: &app.adapter,
                driven_displacers: &displacers,
                joint_drivers: &joints,
                ..Default::default()
            };
            let (commands, _) = ui::app_ui(ui, &mut app.ui, Some((&app.summary, &app.editor.pose)), &info, None);
            for c in commands {
                app.editor.apply(&app.doc.humanoids[0], &mut app.ui, c);
            }
        },
        app,
    )
}

fn joint(h: &Harness<'_, App>, name: &str) -> JointIndex {
    JointIndex(h.state().summary.joints.iter().position(|j| j.name == name).expect(name))
}

fn degrees(h: &Harness<'_, App>, j: JointIndex) -> [f32; 3] {
    ui::panels::joint_degrees(&h.state().summary, &h.state().editor.pose, j)
}

fn marks(h: &Harness<'_, App>, text: &str) -> usize {
    h.query_all_by_label_contains(text).count()
}

#[test]
fn sliders_a_clip_drives_say_so_and_a_paused_joint_can_be_overridden() {
    let mut h = harness("JoeKick.x3d", [1280.0, 800.0], "test");
    let knee = joint(&h, "r_knee");
    h.state_mut().ui.selected_joint = Some(knee);
    h.run();
    assert_eq!(marks(&h, "driven by clip"), 0, "nothing is driven while the window shows the file's pose");

    // The kick, paused at 1 s: the knee and the displacer follow it, and say so.
    h.state_mut().transport.show("KickTimer", 1.0).expect("JoeKick has the KickTimer clip");
    h.run();
    let driven = marks(&h, "driven by clip 'KickTimer'");
    assert!(driven >= 2, "the knee and the displacer are not both marked ({driven} marks)");
    assert!(
        h.state().transport.animations.joint_drivers(HumanoidIndex(0)).iter().any(|(j, _)| *j == knee.0),
        "KickTimer does not drive r_knee"
    );
    let clip_angle = degrees(&h, knee);

    // Paused, the slider sets the angle over the clip's, and it holds frame after frame.
    let wanted = if clip_angle[0] > 30.0 { 5.0 } else { 60.0 };
    h.get_by_role_and_label(Role::Slider, "X rotation").set_value_accesskit(f64::from(wanted));
    h.run();
    for _ in 0..3 {
        h.state_mut().editor.pose.rotations[knee.0] = glam::Quat::IDENTITY; // the next frame samples again
        h.run();
    }
    let now = degrees(&h, knee);
    eprintln!("r_knee: clip {clip_angle:?}, overridden {now:?}");
    assert!((now[0] - wanted).abs() < 0.2, "the override did not hold: {now:?}, wanted X {wanted}");
    assert!(marks(&h, "driven by clip 'KickTimer'") >= 2, "the marks stay while the clip drives");
}

#[test]
fn a_joint_an_ik_reach_turned_says_so_until_the_slider_sets_it() {
    let mut h = harness("JoeKick.x3d", [1280.0, 800.0], "test");
    h.run();
    let wrist = h.state().doc.humanoids[0].joints.iter().position(|j| j.name == "l_radiocarpal").unwrap();
    let target = hanim_viewer::pose::humanoid_from_joint(&h.state().doc.humanoids[0], &h.state().editor.pose)[wrist]
        .transform_point3(glam::Vec3::ZERO)
        + glam::Vec3::new(0.0, 0.25, 0.15);
    let reach = UiCommand::Reach { effector: "l_radiocarpal".into(), target, to_root: false };
    let h0 = h.state().doc.humanoids[0].clone();
    let app = h.state_mut();
    app.editor.apply(&h0, &mut app.ui, reach);
    app.editor.apply(&h0, &mut app.ui, UiCommand::EndEdit);
    let elbow = joint(&h, "l_elbow");
    assert!(
        h.state().editor.reached.contains_key(&elbow.0),
        "the reach did not turn l_elbow: {:?}",
        h.state().editor.reached
    );
    h.state_mut().ui.selected_joint = Some(elbow);
    h.run();
    assert_eq!(marks(&h, "set by IK (reach of l_radiocarpal)"), 1, "the elbow is not marked as set by IK");
    h.get_by_role_and_label(Role::Slider, "Y rotation").set_value_accesskit(10.0);
    h.run();
    h.run();
    assert_eq!(marks(&h, "set by IK"), 0, "the slider set the elbow: the IK mark stays");
}

/// The text nodes (labels, buttons: not the slider and value box a label names) showing exactly `text`.
fn shown(h: &Harness<'_, App>, text: &str) -> Vec<egui::Rect> {
    let text_node = |n: &egui_kittest::kittest::AccessKitNode<'_>| !matches!(n.role(), Role::Slider | Role::SpinButton);
    h.query_all(by().label(text).include_labels().predicate(text_node)).map(|n| n.rect()).collect()
}

/// Hovers the one widget showing `text` (cut or not) and tells whether a tooltip then gives `text` whole.
fn tooltip_on_hover(h: &mut Harness<'_, App>, text: &str) -> bool {
    let before = shown(h, text);
    assert_eq!(before.len(), 1, "{text:?} is shown {} times before hovering", before.len());
    h.hover_at(before[0].center());
    // Tooltips wait a moment after the pointer stops.
    for _ in 0..40 {
        h.step();
    }
    h.run();
    let after = shown(h, text).len();
    h.hover_at(egui::pos2(1.0, 1.0));
    h.run();
    after > 1
}

#[test]
fn cut_names_give_their_whole_text_on_hover() {
    let adapter = "llvmpipe (LLVM 19.1.7, 256 bits) (Vulkan, Cpu, driver llvmpipe: Mesa 25.0.7-2 (LLVM 19.1.7))";
    let mut h = harness("JoeKick.x3d", [1024.0, 640.0], adapter);
    // A displacer named as H-Anim's long feature names run (JoeKick's own name fits the panel).
    let name = "skull_tip_raiser_action_and_l_eyebrow_inner_raiser_action";
    h.state_mut().summary.displacers[0].label = name.into();
    h.run();
    // The slider has no text of its own: it is named by the label over it.
    let slider = h.get_by_role_and_label(Role::Slider, name).rect();
    let label = shown(&h, name)[0];
    eprintln!("displacer slider {slider:?}, its name {label:?}");
    assert!(
        label.bottom() <= slider.top() + 1.0 && slider.top() - label.bottom() < 8.0,
        "the name is not over its slider"
    );
    let full = h
        .ctx
        .fonts_mut(|f| f.layout_no_wrap(name.into(), egui::FontId::proportional(14.0), egui::Color32::WHITE).size().x);
    assert!(
        label.width() + 1.0 < full,
        "the name is not cut ({} of {full} points): the test proves nothing",
        label.width()
    );
    assert!(tooltip_on_hover(&mut h, name), "the cut displacer name has no tooltip");
    assert!(tooltip_on_hover(&mut h, adapter), "the cut adapter name has no tooltip");

    let mut h = harness("HAnim2SpecificationLOA3Illustrated.x3d", [1024.0, 640.0], "test");
    h.run();
    let views: Vec<String> = h.state().summary.views.iter().map(|v| v.label.clone()).collect();
    let longest = views.iter().max_by_key(|v| v.len()).unwrap().clone();
    let row = h
        .query_all_by_label_contains(&longest)
        .next()
        .expect("the longest view is listed")
        .accesskit_node()
        .label()
        .unwrap();
    assert!(tooltip_on_hover(&mut h, &row), "the cut viewpoint label {row:?} has no tooltip");

    // JinLOA4's finger joints, 12 levels down, are cut at the Joints panel's edge: the row gives the
    // joint's whole path from the root, which ends with its whole name.
    let mut h = harness("JinLOA4.x3d", [1024.0, 640.0], "test");
    let deep = "l_carpal_proximal_interphalangeal_5";
    let j = joint(&h, deep);
    let app = h.state_mut();
    app.editor.apply(&app.doc.humanoids[0], &mut app.ui, UiCommand::SelectJoint(Some(j)));
    h.run();
    let row = h.get_by_role_and_label(Role::Button, deep).rect();
    let full = h
        .ctx
        .fonts_mut(|f| f.layout_no_wrap(deep.into(), egui::FontId::proportional(14.0), egui::Color32::WHITE).size().x);
    assert!(row.width() < full, "the row of {deep} is not cut ({} of {full} points)", row.width());
    let path = hanim_viewer::ui::panels::joint_tree::path_text(&h.state().summary, j.0);
    assert!(path.ends_with(deep));
    assert!(shown(&h, &path).is_empty());
    h.hover_at(row.center());
    for _ in 0..40 {
        h.step();
    }
    h.run();
    assert_eq!(shown(&h, &path).len(), 1, "hovering the cut row of {deep} does not give its path");
}
