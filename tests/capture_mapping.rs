//! Retargeting a capture onto a loaded humanoid with a mapping edited in the Motion capture window:
//! the clip the transport plays equals the retargeting, an edit in a row (typed, or from the row's joint
//! menu) retargets, and mappings round-trip through the window's rows and the text form.

mod common;

test_main!(
    capture_files_find_their_partner,
    the_clip_in_the_transport_is_the_retargeted_walk,
    a_mapping_edit_retargets_and_only_moves_what_it_names,
    rows_round_trip_every_built_in_table_and_a_saved_mapping_reloads,
    typing_in_a_row_and_pressing_enter_retargets,
    the_joint_menu_adds_a_target_and_the_buttons_reach_the_app,
    every_corpus_humanoid_takes_a_walk_and_a_bvh,
    typing_a_frame_rate_asks_the_app_to_retime_the_capture
);

use std::path::Path;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use hanim_viewer::animation::{Animations, Transport};
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::mocap::mapping;
use hanim_viewer::mocap::session::{CaptureRequest, CaptureSession, MappingOrigin, capture_pair};
use hanim_viewer::pose::Pose;
use hanim_viewer::ui::UiCommand;
use hanim_viewer::ui::capture::{CaptureEditor, CapturePanel, capture_ui};

use common::corpus;

fn jin() -> Document {
    hanim::load(&corpus("x3d/JinLOA1.x3d")).expect("JinLOA1 loads")
}

fn walk_on(doc: &Document) -> CaptureSession {
    let request = CaptureRequest::for_file(&corpus("asf/07_05.amc"), None).expect("07_05.amc finds 07.asf");
    CaptureSession::load(doc, hanim_viewer::hanim::HumanoidIndex::FIRST, &request, None)
        .expect("the walk retargets onto Jin")
}

/// The pose the transport gives at frame `frame` of the session's clip (played alone).
fn transport_pose(doc: &Document, session: &CaptureSession, frame: usize) -> Pose {
    let mut transport = Transport::new(Animations::default());
    let index = transport.put_clip(session.clip(doc).expect("the clip plays"), None);
    // Looping, the time of the last frame is the start of the next pass.
    transport.animations.clips[index].looping = false;
    transport.seek_frame(frame);
    let mut poses = vec![Pose::rest(&doc.humanoids[0])];
    transport.apply(doc, &mut poses);
    poses.remove(0)
}

fn assert_same_rotations(doc: &Document, session: &CaptureSession, frame: usize) -> f32 {
    let h = &doc.humanoids[0];
    let expected = session.result.pose(h, frame);
    let played = transport_pose(doc, session, frame);
    let mut worst = 0.0f32;
    for &j in &session.result.joints {
        // Quaternion distance (sign-free); angle_between's acos is too coarse near 0 in f32.
        let (a, b) = (expected.rotations[j], played.rotations[j]);
        worst = worst.max((a - b).length().min((a + b).length()));
    }
    let root = session.result.joints[0];
    let dt = (expected.translations[root] - played.translations[root]).length();
    assert!(worst < 1e-5 && dt < 1e-5, "frame {frame}: worst quaternion distance {worst}, root {dt}");
    worst
}

fn capture_files_find_their_partner() {
    let (asf, amc) = capture_pair(&corpus("asf/07_05.amc")).unwrap();
    assert_eq!(asf, corpus("asf/07.asf"));
    assert_eq!(amc, Some(corpus("asf/07_05.amc")));
    let (asf, amc) = capture_pair(&corpus("asf/131.asf")).unwrap();
    assert_eq!((asf, amc), (corpus("asf/131.asf"), Some(corpus("asf/131_04.amc"))));
    assert_eq!(capture_pair(&corpus("bvh/01_01.bvh")).unwrap(), (corpus("bvh/01_01.bvh"), None));
    let e = capture_pair(&corpus("x3d/JinLOA1.x3d")).unwrap_err().to_string();
    assert!(e.contains("JinLOA1.x3d: expected a motion capture file"), "{e}");
    let dir = tempfile::tempdir().unwrap();
    let lonely = dir.path().join("99_01.amc");
    std::fs::write(&lonely, ":FULLY-SPECIFIED\n:DEGREES\n").unwrap();
    let e = capture_pair(&lonely).unwrap_err().to_string();
    assert!(e.contains("99_01.amc: no .asf skeleton beside it"), "{e}");
}

fn the_clip_in_the_transport_is_the_retargeted_walk() {
    let doc = jin();
    let session = walk_on(&doc);
    assert_eq!(session.result.frame_count(), 517);
    assert_eq!(session.origin, MappingOrigin::BuiltIn);
    let mut worst = 0.0f32;
    for frame in [0, 1, 130, 258, 516] {
        worst = worst.max(assert_same_rotations(&doc, &session, frame));
    }
    eprintln!("07_05 on JinLOA1: transport vs retargeting, worst quaternion distance {worst:.2e} over 5 frames");
    // Driven and listed as the built-in CMU table says.
    let femur = session.statuses.iter().find(|s| s.source == "lfemur").unwrap();
    assert_eq!(femur.driven, ["l_hip"]);
    let upper = session.statuses.iter().find(|s| s.source == "upperback").unwrap();
    assert!(upper.driven.is_empty() && upper.missing == ["vl3"], "JinLOA1 has no vl3: {upper:?}");
}

fn a_mapping_edit_retargets_and_only_moves_what_it_names() {
    let doc = jin();
    let h = &doc.humanoids[0];
    let mut editor = CaptureEditor::new(walk_on(&doc), &doc);
    let shoulder = h.joint_index("l_shoulder").unwrap();
    let knee = h.joint_index("r_knee").unwrap();
    assert!(editor.session.result.joints.contains(&shoulder));
    let before = transport_pose(&doc, &editor.session, 200);

    // lhumerus drives nothing: the left shoulder keeps its file rotation, the legs do not change.
    let mapping = editor.panel.set_targets("lhumerus", &[]).expect("the capture has lhumerus");
    editor.set_mapping(&doc, mapping, MappingOrigin::Edited).unwrap();
    assert!(!editor.session.result.joints.contains(&shoulder));
    let status = editor.summary.statuses.iter().find(|s| s.source == "lhumerus").unwrap();
    assert!(status.driven.is_empty() && status.listed.as_deref() == Some(&[][..]), "{status:?}");
    let after = transport_pose(&doc, &editor.session, 200);
    assert_eq!(after.rotations[shoulder], h.joints[shoulder].rest.rotation);
    assert!(before.rotations[shoulder].angle_between(after.rotations[shoulder]) > 0.05);
    assert!(before.rotations[knee].angle_between(after.rotations[knee]) < 1e-6, "the right knee is untouched");
    assert_same_rotations(&doc, &editor.session, 200);

    // A name the humanoid lacks is reported, and the previous mapping survives a failed retargeting.
    let mapping = editor.panel.set_targets("ltibia", &["l_knee_typo".into()]).unwrap();
    editor.set_mapping(&doc, mapping, MappingOrigin::Edited).unwrap();
    let tibia = editor.summary.statuses.iter().find(|s| s.source == "ltibia").unwrap();
    assert_eq!(tibia.missing, ["l_knee_typo"]);
    // (Unlisted, it would fall back to a joint named 'ltibia'; Jin has none, so it drives nothing.)
    assert!(tibia.driven.is_empty());
}

fn rows_round_trip_every_built_in_table_and_a_saved_mapping_reloads() {
    let doc = jin();
    let session = walk_on(&doc);
    let panel = CapturePanel::new(session.source_names(), &session.mapping, 120.0);
    let round = panel.mapping();
    for source in session.source_names() {
        assert_eq!(round.targets_of(source), session.mapping.targets_of(source), "{source}");
    }
    // A table listing joints the capture lacks keeps them (saving loses nothing).
    let bvh_names = ["Hips", "LeftUpLeg", "RightUpLeg"];
    let table = mapping::parse_mapping(mapping::CMU_BVH_MOTIONBUILDER, Path::new("t")).unwrap();
    let panel = CapturePanel::new(bvh_names, &table, 120.0);
    assert_eq!(panel.rows.len(), 3);
    let back = panel.mapping();
    assert_eq!(back.entries.len(), table.entries.len());
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("m.txt");
    std::fs::write(&file, back.to_text()).unwrap();
    let reloaded = mapping::load_mapping(&file).unwrap();
    for e in &table.entries {
        assert_eq!(reloaded.targets_of(&e.source), Some(e.targets.as_slice()), "{}", e.source);
    }
}

/// The window's content with the app's handling of its commands (retarget on SetMapping).
struct Window {
    doc: Document,
    editor: CaptureEditor,
    other: Vec<UiCommand>,
}

fn window() -> Harness<'static, Window> {
    let doc = jin();
    let editor = CaptureEditor::new(walk_on(&doc), &doc);
    Harness::builder().with_size(egui::vec2(900.0, 1400.0)).build_ui_state(
        |ui, w: &mut Window| {
            let commands = capture_ui(ui, &mut w.editor.panel, &w.editor.summary);
            for c in commands {
                match c {
                    UiCommand::SetMapping(m) => w.editor.set_mapping(&w.doc, m, MappingOrigin::Edited).unwrap(),
                    UiCommand::SetCaptureFps(fps) => {
                        // As the app does: the same capture and mapping again, at that rate.
                        let request = CaptureRequest::of(&w.editor.session);
                        let session = CaptureSession::load(
                            &w.doc,
                            hanim_viewer::hanim::HumanoidIndex::FIRST,
                            &request,
                            Some(fps),
                        )
                        .unwrap();
                        w.editor = CaptureEditor::new(session, &w.doc);
                        w.other.push(UiCommand::SetCaptureFps(fps));
                    }
                    other => w.other.push(other),
                }
            }
        },
        Window { doc, editor, other: Vec::new() },
    )
}

fn targets(w: &Window, source: &str) -> Option<Vec<String>> {
    w.editor.session.mapping.targets_of(source).map(<[String]>::to_vec)
}

fn typing_in_a_row_and_pressing_enter_retargets() {
    let mut h = window();
    h.run();
    let rows: Vec<_> = h.get_all_by_role(Role::TextInput).collect();
    assert_eq!(rows.len(), 31, "one row per 07.asf joint");
    // Row 2 is lfemur (root, lhipjoint, lfemur …).
    let femur = h.get_all_by_role(Role::TextInput).nth(2).unwrap();
    femur.click();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_all_by_role(Role::TextInput).nth(2).unwrap().type_text("l_hip sacroiliac");
    h.run();
    assert_eq!(targets(h.state(), "lfemur"), Some(vec!["l_hip".into()]), "not applied before Enter");
    h.key_press(egui::Key::Enter);
    h.run();
    let w = h.state();
    assert_eq!(w.editor.session.origin, MappingOrigin::Edited);
    assert_eq!(targets(w, "lfemur"), Some(vec!["l_hip".into(), "sacroiliac".into()]));
    // No other capture joint names sacroiliac, so the femur drives both.
    let status = w.editor.summary.statuses.iter().find(|s| s.source == "lfemur").unwrap();
    assert_eq!(status.driven, ["l_hip", "sacroiliac"]);
    assert!(h.query_by_label("drives l_hip, sacroiliac").is_some(), "the row shows it");
}

fn the_joint_menu_adds_a_target_and_the_buttons_reach_the_app() {
    let mut h = window();
    h.run();
    // Rows are in 07.asf order.
    let index = h.state().editor.panel.rows.iter().position(|r| r.source == "lhumerus").unwrap();
    // Clear it first (typed), so the menu's joint is the only target.
    h.get_all_by_role(Role::TextInput).nth(index).unwrap().click();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.key_press(egui::Key::Backspace);
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(targets(h.state(), "lhumerus"), Some(vec![]));
    let shoulder = h.state().doc.humanoids[0].joint_index("l_shoulder").unwrap();
    assert!(!h.state().editor.session.result.joints.contains(&shoulder));
    h.get_all_by_label("+").nth(index).unwrap().click();
    h.run();
    h.get_by_label("l_shoulder").click();
    h.run();
    assert_eq!(targets(h.state(), "lhumerus"), Some(vec!["l_shoulder".into()]));
    assert!(h.state().editor.session.result.joints.contains(&shoulder));
    h.get_by_label("Built-in mapping").click();
    h.get_by_label("Load mapping…").click();
    h.get_by_label("Save mapping…").click();
    h.get_by_label("Remove capture").click();
    h.run();
    assert_eq!(
        h.state().other,
        [
            UiCommand::BuiltInMapping,
            UiCommand::LoadMappingDialog,
            UiCommand::SaveMappingDialog,
            UiCommand::RemoveCapture
        ]
    );
}

fn every_corpus_humanoid_takes_a_walk_and_a_bvh() {
    // What the window does on File ▸ Apply motion capture, for each humanoid of the corpus (both
    // encodings): the capture retargets, the clip plays as the retargeting, and humanoids with limbs
    // have their hips and knees driven.
    let mut humanoids: Vec<_> = ["x3d", "vrml"]
        .iter()
        .flat_map(|d| std::fs::read_dir(common::corpus_folder(d)).unwrap().map(|e| e.unwrap().path()))
        .filter(|p| {
            hanim_viewer::x3d::SUPPORTED_EXTENSIONS.iter().any(|e| p.to_string_lossy().to_lowercase().ends_with(e))
        })
        .collect();
    humanoids.sort();
    let captures = [corpus("asf/07_05.amc"), corpus("bvh/01_01.bvh")];
    let mut applied = 0;
    for path in &humanoids {
        let Ok(doc) = hanim::load(path) else { continue };
        if doc.humanoids.is_empty() || doc.humanoids[0].joints.is_empty() {
            continue;
        }
        let h = &doc.humanoids[0];
        let has_legs = ["l_hip", "r_knee"].iter().all(|n| h.joint_index(n).is_some());
        for capture in &captures {
            let request = CaptureRequest::for_file(capture, None).unwrap();
            let session = CaptureSession::load(&doc, hanim_viewer::hanim::HumanoidIndex::FIRST, &request, None)
                .unwrap_or_else(|e| panic!("{} ← {}: {e:#}", path.display(), capture.display()));
            let (sources, driven) = session.coverage();
            if has_legs {
                let driven_names: Vec<&str> =
                    session.statuses.iter().flat_map(|s| s.driven.iter().map(String::as_str)).collect();
                assert!(
                    driven_names.contains(&"l_hip") && driven_names.contains(&"r_knee"),
                    "{} ← {}: {driven_names:?}",
                    path.display(),
                    capture.display()
                );
            }
            let last = session.result.frame_count() - 2;
            assert_same_rotations(&doc, &session, last);
            eprintln!(
                "{} ← {}: {sources} capture joints drive {driven} joints",
                path.file_name().unwrap().to_string_lossy(),
                capture.file_name().unwrap().to_string_lossy()
            );
            applied += 1;
        }
    }
    assert!(applied >= 30, "{applied} humanoid × capture pairs");
}

fn typing_a_frame_rate_asks_the_app_to_retime_the_capture() {
    let mut h = window();
    h.run();
    assert_eq!(h.state().editor.panel.fps, 120.0, "CMU's rate by default");
    h.get_by_role(Role::SpinButton).click();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_role(Role::SpinButton).type_text("60");
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(h.state().other, [UiCommand::SetCaptureFps(60.0)]);
    // Loaded again at that rate: the same 517 frames, each 1/60 s, and the window shows it.
    let w = h.state();
    assert_eq!(w.editor.session.result.frame_time, 1.0 / 60.0);
    assert_eq!(w.editor.session.result.frame_count(), 517);
    assert_eq!(w.editor.panel.fps, 60.0);
    assert!(h.query_by_label("(8.60 s)").is_some(), "516 frame steps at 60 fps");
}
