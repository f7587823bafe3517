//! UI logic without a window: selection, clamped rotation edits, undo/redo, viewpoint switching, the
//! script language.

use std::path::Path;

use glam::{Quat, Vec3};
use hanim_viewer::app::camera::ViewerCamera;
use hanim_viewer::app::script::{ScriptStep, commands_for, find_view, parse_script};
use hanim_viewer::hanim::JointIndex;
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::ui::panels::joint_degrees;
use hanim_viewer::ui::scene::view_placement;
use hanim_viewer::ui::{PoseEditor, SceneSummary, UiCommand, UiState, ViewSource};

const FIXTURE: &str = include_str!("ui_fixture.x3d");

fn fixture() -> (Document, SceneSummary) {
    let doc = hanim::load_str(FIXTURE, Path::new("ui_fixture.x3d")).expect("fixture loads");
    let summary = SceneSummary::new(&doc, &doc.humanoids[0]);
    (doc, summary)
}

fn joint(summary: &SceneSummary, name: &str) -> JointIndex {
    JointIndex(summary.joints.iter().position(|j| j.name == name).expect(name))
}

#[test]
fn summary_has_the_tree_displacers_and_views() {
    let (_, s) = fixture();
    assert_eq!(s.roots, vec![0]);
    let root = &s.joints[0];
    assert_eq!(root.name, "humanoid_root");
    assert_eq!(root.children.len(), 2);
    assert_eq!(s.joints[joint(&s, "l_elbow")].depth, 2);
    assert_eq!(s.displacers.len(), 1);
    assert_eq!(s.displacers[0].label, "l_shoulder_bulge_action", "humanoid prefix stripped");
    assert_eq!(s.displacers[0].owner, "l_shoulder");
    let labels: Vec<&str> = s.views.iter().map(|v| v.label.as_str()).collect();
    assert_eq!(labels, ["Left eye", "Front", "Side", "Top", "Inclined", "Face"]);
    assert!(s.views[0].follows_joint());
    assert_eq!(s.search_joints("SHOULD"), vec![joint(&s, "l_shoulder")]);
    assert_eq!(s.search_joints("l_"), vec![joint(&s, "l_shoulder"), joint(&s, "l_elbow")]);
}

#[test]
fn selection_accepts_only_existing_joints() {
    let (doc, s) = fixture();
    let h = &doc.humanoids[0];
    let mut editor = PoseEditor::new(h);
    let mut state = UiState::default();
    assert_eq!(editor.apply(h, &mut state, UiCommand::SelectJoint(Some(JointIndex(2)))), None);
    assert_eq!(state.selected_joint, Some(JointIndex(2)));
    let _ = editor.apply(h, &mut state, UiCommand::SelectJoint(Some(JointIndex(99))));
    assert_eq!(state.selected_joint, None);
    let _ = editor.apply(h, &mut state, UiCommand::SelectJoint(Some(joint(&s, "l_elbow"))));
    assert_eq!(state.selected_joint, Some(joint(&s, "l_elbow")));
    assert_eq!(editor.revision, 0, "selecting does not change the pose");
}

#[test]
fn rotation_edits_are_clamped_to_proper_limits_unless_ignored() {
    let (doc, s) = fixture();
    let h = &doc.humanoids[0];
    let elbow = joint(&s, "l_elbow");
    let mut editor = PoseEditor::new(h);
    let mut state = UiState::default();
    // 170° about X is past the 150° upper limit; Y and Z are locked to ±0.57°.
    let _ = editor.apply(h, &mut state, UiCommand::SetJointAngles { joint: elbow, degrees: [170.0, 30.0, -30.0] });
    let d = joint_degrees(&s, &editor.pose, elbow);
    assert!((d[0] - 150.0).abs() < 0.01, "{d:?}");
    assert!(d[1].abs() <= 0.58 && d[2].abs() <= 0.58, "{d:?}");
    // Below the lower limit.
    let _ = editor.apply(h, &mut state, UiCommand::SetJointAngles { joint: elbow, degrees: [-20.0, 0.0, 0.0] });
    assert!(joint_degrees(&s, &editor.pose, elbow)[0].abs() < 0.01);
    // Ignoring limits lets the value through.
    state.ignore_limits = true;
    let _ = editor.apply(h, &mut state, UiCommand::SetJointAngles { joint: elbow, degrees: [170.0, 30.0, -30.0] });
    let d = joint_degrees(&s, &editor.pose, elbow);
    assert!((d[0] - 170.0).abs() < 0.01 && (d[1] - 30.0).abs() < 0.01 && (d[2] + 30.0).abs() < 0.01, "{d:?}");
    // l_shoulder's llimit == ulimit: free, even with limits on.
    state.ignore_limits = false;
    let shoulder = joint(&s, "l_shoulder");
    let _ = editor.apply(h, &mut state, UiCommand::SetJointAngles { joint: shoulder, degrees: [0.0, 0.0, 120.0] });
    assert!((joint_degrees(&s, &editor.pose, shoulder)[2] - 120.0).abs() < 0.01);
    // The edit is the offset Δ (§1.4): base rotations are untouched.
    assert_eq!(editor.pose.rotations[shoulder], Quat::IDENTITY);
    assert!(editor.pose.rotation_offsets[shoulder].dot(Quat::from_rotation_z(120f32.to_radians())).abs() > 0.99999);
}

#[test]
fn undo_redo_restores_edits_and_a_drag_is_one_step() {
    let (doc, s) = fixture();
    let h = &doc.humanoids[0];
    let shoulder = joint(&s, "l_shoulder");
    let mut editor = PoseEditor::new(h);
    let mut state = UiState::default();
    let rest = editor.pose.clone();
    // One drag: many values from the same slider, then the drag ends.
    for z in [10.0, 20.0, 30.0, 40.0] {
        let _ = editor.apply(h, &mut state, UiCommand::SetJointAngles { joint: shoulder, degrees: [0.0, 0.0, z] });
    }
    let _ = editor.apply(h, &mut state, UiCommand::EndEdit);
    let after_drag = editor.pose.clone();
    let _ = editor.apply(h, &mut state, UiCommand::SetDisplacerWeight { displacer: 0, weight: 0.7 });
    let _ = editor.apply(
        h,
        &mut state,
        UiCommand::SetJointTranslation { joint: JointIndex(0), translation: Vec3::new(0.1, 0.0, 0.0) },
    );
    assert_eq!(editor.pose.translation_offsets[0], Vec3::new(0.1, 0.0, 0.0));
    let full = editor.pose.clone();

    let _ = editor.apply(h, &mut state, UiCommand::Undo);
    let _ = editor.apply(h, &mut state, UiCommand::Undo);
    assert_eq!(editor.pose, after_drag, "two undos remove the translation and the displacer edit");
    let _ = editor.apply(h, &mut state, UiCommand::Undo);
    assert_eq!(editor.pose, rest, "the whole drag is one step");
    assert!(!editor.history.can_undo());
    let _ = editor.apply(h, &mut state, UiCommand::Undo);
    assert_eq!(editor.pose, rest, "undo with nothing to undo is harmless");
    for _ in 0..3 {
        let _ = editor.apply(h, &mut state, UiCommand::Redo);
    }
    assert_eq!(editor.pose, full);
    assert!(!editor.history.can_redo());
    // Reset all is undoable; a new edit clears the redo list.
    let _ = editor.apply(h, &mut state, UiCommand::ResetAllJoints);
    let _ = editor.apply(h, &mut state, UiCommand::ResetDisplacers);
    assert_eq!(editor.pose, rest);
    let _ = editor.apply(h, &mut state, UiCommand::Undo);
    let _ = editor.apply(h, &mut state, UiCommand::Undo);
    assert_eq!(editor.pose, full);
    let _ = editor.apply(h, &mut state, UiCommand::Undo);
    let _ = editor.apply(h, &mut state, UiCommand::SetDisplacerWeight { displacer: 0, weight: 0.2 });
    assert!(!editor.history.can_redo());
    // Out-of-range commands change nothing.
    let before = editor.pose.clone();
    let _ = editor.apply(h, &mut state, UiCommand::SetJointAngles { joint: JointIndex(42), degrees: [1.0, 2.0, 3.0] });
    let _ = editor.apply(h, &mut state, UiCommand::SetDisplacerWeight { displacer: 9, weight: 1.0 });
    let _ =
        editor.apply(h, &mut state, UiCommand::SetJointAngles { joint: JointIndex(0), degrees: [f32::NAN, 0.0, 0.0] });
    assert_eq!(editor.pose, before);
}

#[test]
fn switching_views_sets_the_active_view_and_eye_views_follow_the_head() {
    let (doc, s) = fixture();
    let h = &doc.humanoids[0];
    let mut editor = PoseEditor::new(h);
    let mut state = UiState::default();
    // The view switch is recorded and passed on to the app (which moves the camera).
    assert_eq!(editor.apply(h, &mut state, UiCommand::SelectView(0)), Some(UiCommand::SelectView(0)));
    assert_eq!(state.active_view, Some(0));
    let ViewSource::Site { .. } = s.views[0].source else { panic!("the eye view comes from a site") };
    let bounds = hanim_viewer::pose::bounds::humanoid_bounds(&doc.scene, h, &editor.pose).unwrap();
    let at = |pose: &hanim_viewer::pose::Pose| {
        let g = hanim_viewer::pose::humanoid_from_joint(h, pose);
        view_placement(&doc, h, &g, h.world_from_humanoid(), &bounds, s.views[0].source)
            .unwrap()
            .world_from_camera
            .transform_point3(Vec3::ZERO)
    };
    let rest_eye = at(&editor.pose);
    assert!((rest_eye - Vec3::new(0.03, 1.7, 0.08)).length() < 1e-5, "{rest_eye:?}");
    // Turning the head moves the eye camera with it.
    let skull = joint(&s, "skullbase");
    state.ignore_limits = true;
    let _ = editor.apply(h, &mut state, UiCommand::SetJointAngles { joint: skull, degrees: [0.0, 90.0, 0.0] });
    let turned_eye = at(&editor.pose);
    assert!((turned_eye - rest_eye).length() > 0.05, "{turned_eye:?}");

    // The camera transitions to the view, then stays locked to it until the user orbits.
    let mut camera = ViewerCamera::default();
    let g = hanim_viewer::pose::humanoid_from_joint(h, &editor.pose);
    let placement = view_placement(&doc, h, &g, h.world_from_humanoid(), &bounds, s.views[0].source).unwrap();
    camera.set_view(0, placement, true);
    assert!(camera.in_transition());
    for _ in 0..60 {
        camera.update(Some(placement), 1.0 / 60.0);
    }
    assert!(!camera.in_transition());
    assert_eq!(camera.fixed_view(), Some(0));
    assert!((camera.update(Some(placement), 0.0).position() - turned_eye).length() < 1e-4);
    // Standard views are found by name (case-insensitive) or 1-based number.
    assert_eq!(find_view(&s, "front"), Some(1));
    assert_eq!(find_view(&s, "left EYE"), Some(0));
    assert_eq!(find_view(&s, "5"), Some(4));
    assert_eq!(find_view(&s, "face"), Some(5));
    assert_eq!(find_view(&s, "7"), None);
}

#[test]
fn script_steps_resolve_against_the_humanoid() {
    let (_, s) = fixture();
    let steps =
        parse_script("select l_elbow\nrotate hanim_l_elbow 90 0 0\ndisplacer l_shoulder_bulge_action 0.5\nview Top\n")
            .unwrap();
    let shoulder_bulge = commands_for(&steps[2].step, &s, steps[2].line).unwrap();
    assert_eq!(shoulder_bulge[0], UiCommand::SetDisplacerWeight { displacer: 0, weight: 0.5 });
    let elbow = joint(&s, "l_elbow");
    assert_eq!(commands_for(&steps[0].step, &s, 1).unwrap(), vec![UiCommand::SelectJoint(Some(elbow))]);
    assert_eq!(commands_for(&steps[3].step, &s, 4).unwrap(), vec![UiCommand::SelectView(3)]);
    let err = commands_for(&ScriptStep::Select("tail".into()), &s, 7).unwrap_err();
    assert!(err.to_string().contains("line 7: no joint named 'tail'"), "{err}");
}

#[test]
fn the_built_in_humanoid_loads_with_displacers_limits_and_eye_views() {
    let doc = hanim::load_str(
        hanim_viewer::app::viewer::DEFAULT_HUMANOID,
        Path::new(hanim_viewer::app::viewer::DEFAULT_HUMANOID_NAME),
    )
    .expect("the built-in humanoid loads");
    assert!(doc.warnings.is_empty(), "{:?}", doc.warnings);
    let h = &doc.humanoids[0];
    let s = SceneSummary::new(&doc, h);
    assert_eq!(s.joints.len(), 17);
    assert!(h.skin.as_ref().is_some_and(|skin| skin.points.len() > 100));
    let displacers: Vec<&str> = s.displacers.iter().map(|d| d.label.as_str()).collect();
    assert_eq!(displacers, ["vl5_belly_config", "skullbase_nose_feature"]);
    let labels: Vec<&str> = s.views.iter().map(|v| v.label.as_str()).collect();
    assert_eq!(labels[..3], ["Left eye", "Right eye", "Front (site)"]);
    assert!(s.views[0].follows_joint() && !s.views[2].follows_joint());
    // The elbow's limits clamp: it bends one way only.
    let elbow = joint(&s, "l_elbow");
    let mut editor = PoseEditor::new(h);
    let mut state = UiState::default();
    let _ = editor.apply(h, &mut state, UiCommand::SetJointAngles { joint: elbow, degrees: [45.0, 0.0, 0.0] });
    assert!(joint_degrees(&s, &editor.pose, elbow)[0].abs() < 0.01);
}

#[test]
fn files_opened_by_another_window_join_the_front_of_the_recent_list() {
    let mut state = UiState::default();
    state.remember_file(std::path::Path::new("/a/one.x3d"));
    state.remember_file(std::path::Path::new("/a/two.x3d"));
    // Another process opened three.x3d (and saw two.x3d before).
    let other = vec![std::path::PathBuf::from("/a/three.x3d"), std::path::PathBuf::from("/a/two.x3d")];
    state.merge_recent_files(&other);
    let names: Vec<_> = state.recent_files.iter().map(|p| p.display().to_string()).collect();
    assert_eq!(names, ["/a/three.x3d", "/a/two.x3d", "/a/one.x3d"]);
}
