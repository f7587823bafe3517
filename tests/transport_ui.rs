//! The transport panel driven by simulated input (egui_kittest) on the Jin HAnimMotion: enabling the
//! motion, Space to play, the clock advancing only by the elapsed time given, the arrow keys stepping frames,
//! dragging the scrubber while playing, stop; and the sampled pose following the transport with the
//! user's offsets on top.

mod common;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use glam::Quat;
use hanim_viewer::animation::{Animations, ClipSource, Transport};
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::pose::Pose;

struct State {
    doc: Document,
    transport: Transport,
}

fn harness() -> Harness<'static, State> {
    let doc = hanim::load(&common::corpus("x3d/KoreanCharacterMotionAnnexD01Jin.x3d")).unwrap();
    let transport = Transport::new(Animations::from_document(&doc));
    Harness::builder().with_size(egui::vec2(1100.0, 300.0)).build_ui_state(
        |ui, s: &mut State| hanim_viewer::ui::transport::transport_panel(ui, &mut s.transport),
        State { doc, transport },
    )
}

fn frame(s: &State) -> f64 {
    s.transport.selected_clip().unwrap().frame_position(s.transport.time, s.transport.options.interpolation).unwrap()
}

#[test]
fn the_panel_enables_plays_steps_scrubs_and_stops_the_motion() {
    let mut h = harness();
    h.run();
    assert!(!h.state().transport.engaged, "the window opens on the rest pose");
    assert_eq!(h.state().transport.selected, Some(0), "the only clip is shown on the timeline");
    assert!(!h.state().transport.animations.clips[0].enabled, "disabled in the file");
    h.get_by_role_and_label(Role::CheckBox, "enabled").click();
    h.run();
    assert!(h.state().transport.animations.clips[0].enabled, "the list's toggle enables it");
    assert!(h.state().transport.engaged, "from now on the transport drives the pose");

    // Space plays; the clock moves only when the app advances it.
    h.key_press(egui::Key::Space);
    h.run();
    assert!(h.state().transport.playing);
    h.state_mut().transport.advance(1.0);
    assert!((frame(h.state()) - 10.0).abs() < 1e-9, "1 s at 0.1 s per frame is frame 10");
    h.get_by_label("Pause").click();
    h.run();
    assert!(!h.state().transport.playing);

    // Right and Left step one frame (frameIncrement 1).
    h.key_press(egui::Key::ArrowRight);
    h.run();
    assert!((frame(h.state()) - 11.0).abs() < 1e-9, "{}", frame(h.state()));
    h.key_press(egui::Key::ArrowLeft);
    h.key_press(egui::Key::ArrowLeft);
    h.run();
    assert!((frame(h.state()) - 9.0).abs() < 1e-9, "{}", frame(h.state()));

    // Drag the frame scrubber to its middle while playing: the clock jumps there and keeps playing.
    h.state_mut().transport.playing = true;
    let slider = h.get_by_role_and_label(Role::Slider, "frame");
    let rect = slider.rect();
    let start = egui::pos2(rect.left() + 1.0, rect.center().y);
    let middle = egui::pos2(rect.center().x, rect.center().y);
    h.hover_at(start);
    h.drag_at(start);
    h.run();
    h.hover_at(middle);
    h.run();
    h.drop_at(middle);
    h.run();
    let s = h.state();
    let f = frame(s);
    assert!(f > 100.0 && f < 300.0, "scrubbed to the middle: frame {f}");
    assert!(s.transport.playing, "still playing after the drag");

    // The pose follows the transport; a user offset stays on top.
    let ClipSource::Motion { motion, .. } = &s.transport.animations.clips[0].source else { panic!() };
    let hip = motion.groups[1].joint.unwrap();
    let mut poses = vec![Pose::rest(&s.doc.humanoids[0])];
    poses[0].rotation_offsets[hip] = Quat::from_rotation_x(0.2);
    s.transport.apply(&s.doc, &mut poses);
    let sampled = s.transport.animations.sample(&s.doc, s.transport.time, &s.transport.options);
    assert_eq!(poses[0].rotations[hip], sampled[0].rotations[hip]);
    assert_ne!(poses[0].rotations[hip], s.doc.humanoids[0].joints[hip].rest.rotation);
    assert_eq!(poses[0].rotation_offsets[hip], Quat::from_rotation_x(0.2));

    h.get_by_label("Stop").click();
    h.run();
    assert!(!h.state().transport.playing);
    assert_eq!(h.state().transport.time, 0.0);
}

#[test]
fn a_finished_non_looping_motion_stops_and_plays_again_from_the_start() {
    let doc = hanim::load(&common::corpus("x3d/KoreanCharacterMotionAnnexD01Jin.x3d")).unwrap();
    let mut t = Transport::new(Animations::from_document(&doc));
    t.animations.clips[0].enabled = true;
    t.set_speed(10.0);
    assert_eq!(t.speed, 4.0, "speed is clamped to 4×");
    t.toggle_play();
    t.advance(5.0); // 20 s of motion
    assert!(t.playing);
    t.advance(5.0); // 40 s > 39.1 s
    assert!(!t.playing, "a non-looping motion stops at its end");
    assert_eq!(frame_of(&t), 391.0);
    t.toggle_play();
    assert_eq!(t.time, 0.0, "play after the end starts over");
}

fn frame_of(t: &Transport) -> f64 {
    t.selected_clip().unwrap().frame_position(t.time, t.options.interpolation).unwrap()
}

#[test]
fn the_camera_target_jumps_onto_the_root_then_moves_with_it() {
    let doc = hanim::load(&common::corpus("x3d/KoreanCharacterMotionAnnexD01Jin.x3d")).unwrap();
    let h = &doc.humanoids[0];
    let mut t = Transport::new(Animations::from_document(&doc));
    t.show("motion_animation", 5.0).unwrap();
    let mut poses = vec![Pose::rest(h)];
    let world = h.world_from_humanoid();
    let root_centre = |p: &Pose| {
        world.transform_point3(
            hanim_viewer::pose::humanoid_from_joint(h, p)[0].transform_point3(h.joints[0].rest.center),
        )
    };
    assert!(t.follow_root, "on by default, so a walk stays in view");
    t.follow_root = false;
    assert_eq!(
        t.follow(&doc, hanim_viewer::hanim::HumanoidIndex(0), &poses[0], world, glam::Vec3::ZERO),
        None,
        "nothing when turned off"
    );
    t.follow_root = true;
    t.apply(&doc, &mut poses);
    let first = t
        .follow(&doc, hanim_viewer::hanim::HumanoidIndex(0), &poses[0], world, glam::Vec3::new(9.0, 9.0, 9.0))
        .unwrap();
    assert!(first.abs_diff_eq(root_centre(&poses[0]), 1e-5), "starts on the root");
    // The user panned the target away; following keeps that offset and adds the root's step.
    let panned = first + glam::Vec3::X;
    let before = root_centre(&poses[0]);
    t.time = 6.0;
    t.apply(&doc, &mut poses);
    let next = t.follow(&doc, hanim_viewer::hanim::HumanoidIndex(0), &poses[0], world, panned).unwrap();
    let step = root_centre(&poses[0]) - before;
    assert!(step.length() > 1e-3, "the root travels in this motion");
    assert!(next.abs_diff_eq(panned + step, 1e-5));
}

#[test]
fn the_mode_switch_plays_the_scene_as_the_file_says() {
    use hanim_viewer::animation::PlayMode;
    let doc = hanim::load(&common::corpus("x3d/JoeKick.x3d")).unwrap();
    let transport = Transport::new(Animations::from_document(&doc)).with_scene_animation(true);
    assert_eq!(transport.mode, PlayMode::OneClip, "a file with a clip to pick opens on one clip at a time");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1100.0, 300.0))
        .build_ui_state(|ui, t: &mut Transport| hanim_viewer::ui::transport::transport_panel(ui, t), transport);
    h.run();
    h.get_by_label("as the file says").click();
    h.run();
    assert_eq!(h.state().mode, PlayMode::AsFile);
    assert!(h.state().engaged, "the transport drives the scene from the switch on");
    // The scene clock runs on past every clip's end and steps by 1/30 s.
    h.state_mut().toggle_play();
    h.state_mut().advance(10.0);
    assert!(h.state().playing && (h.state().time - 10.0).abs() < 1e-9, "{}", h.state().time);
    h.state_mut().playing = false;
    h.key_press(egui::Key::ArrowRight);
    h.run();
    assert!((h.state().time - (10.0 + 1.0 / 30.0)).abs() < 1e-9, "{}", h.state().time);
    h.get_by_label("one clip").click();
    h.run();
    assert_eq!(h.state().mode, PlayMode::OneClip);

    // With no humanoid clip to pick but scene animation, as the file says is where the transport starts.
    let none = Transport::new(Animations::default()).with_scene_animation(true);
    assert_eq!(none.mode, PlayMode::AsFile);
    assert!(none.engaged && !none.playing, "the scene at time 0, paused");
    assert_eq!(Transport::new(Animations::default()).with_scene_animation(false).mode, PlayMode::OneClip);
}

/// The key row: on a file without clips the panel still offers Set key; K sets a key too; once a key
/// is set at the current time, Delete key asks to delete that key (the app hands key commands to the
/// pose editor, `tests/keyframes.rs` covers what they do).
#[test]
fn set_key_and_delete_key_ask_for_key_edits() {
    use hanim_viewer::ui::keys::KeyCommand;
    use hanim_viewer::ui::transport::{TransportCommand, transport_commands};
    struct Keys {
        doc: Document,
        transport: Transport,
        asked: Vec<TransportCommand>,
    }
    let doc = hanim::load(&common::corpus("x3d/JinLOA4.x3d")).unwrap();
    let transport = Transport::new(Animations::from_document(&doc));
    let mut h = Harness::builder().with_size(egui::vec2(1100.0, 300.0)).build_ui_state(
        |ui, s: &mut Keys| {
            let asked = transport_commands(ui, &s.transport);
            s.asked.extend(asked);
        },
        Keys { doc, transport, asked: Vec::new() },
    );
    h.run();
    h.get_by_label("Set key").click();
    h.run();
    assert_eq!(h.state().asked, [TransportCommand::Key(KeyCommand::Set)]);
    h.state_mut().asked.clear();
    h.key_press(egui::Key::K);
    h.run();
    assert_eq!(h.state().asked, [TransportCommand::Key(KeyCommand::Set)], "K sets a key");
    // A key at 0 s, as the pose editor would set it.
    {
        let s = h.state_mut();
        s.asked.clear();
        let pose = Pose::rest(&s.doc.humanoids[0]);
        s.transport.set_key(&s.doc.humanoids[0], hanim::HumanoidIndex(0), &pose).unwrap();
    }
    h.run();
    h.get_by_label("Delete key").click();
    h.run();
    assert_eq!(h.state().asked, [TransportCommand::Key(KeyCommand::Delete(0.0))]);
}
