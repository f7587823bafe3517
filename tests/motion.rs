//! Motion playback on real corpus files: interpolator clips and HAnimMotion channel data sampled by the
//! player agree with values worked out here by hand from the files' own numbers (keys slerped with the
//! textbook formula, Euler channels multiplied in their listed order), and sampled frames deform the same
//! on the GPU as on the CPU reference.

mod common;

test_main!(
    nancy_and_allen_list_four_touch_started_clips_and_play_them_by_the_keys,
    joe_kick_clips_play_rotations_translations_and_the_displacer_weight_by_the_keys,
    joe_salute_walk_lists_three_looping_clips,
    pirouette_plays_in_real_time_and_through_its_frame_stepper_chain,
    a_script_driven_animation_is_listed_as_unsupported,
    jin_motion_has_its_frames_and_duration_and_plays_the_channel_data,
    jin_motion_loops_backwards_with_a_negative_increment,
    jin_motion_euler_channels_multiply_in_the_listed_order_and_frame_index,
    an_interpolator_with_more_keys_than_values_is_warned_and_cut,
    jin_motion_honours_start_and_end_frames,
    root_modes_place_the_travelling_root,
    a_values_array_that_is_not_channels_times_frames_is_rejected,
    several_enabled_motions_combine_per_joint_and_kind_and_user_offsets_stay_on_top,
    sampled_motion_frames_deform_the_same_on_the_gpu,
    a_rendered_sequence_of_a_corpus_motion_moves_and_stays_in_frame,
    an_empty_corpus_motion_is_listed_with_no_frames_and_drives_nothing
);

use common::by_hand::{assert_same_rotation, def, direct_interpolator, key_pair, load, slerp_by_hand};
use glam::{Quat, Vec3};
use hanim_viewer::animation::{Animations, ClipSource, Interpolation, RootMode, SampleOptions};
use hanim_viewer::commands::args::PlaybackArgs;
use hanim_viewer::commands::pose as pose_command;
use hanim_viewer::commands::render::MotionRenderArgs;
use hanim_viewer::hanim::{self, Document, quat_from_axis_angle};
use hanim_viewer::pose::Pose;
use hanim_viewer::x3d::NodeId;

fn orientation_by_hand(doc: &Document, interpolator: NodeId, fraction: f32) -> Quat {
    let keys = doc.scene.mf_float(interpolator, "key").unwrap();
    let values: Vec<Quat> =
        doc.scene.mf_rotation(interpolator, "keyValue").unwrap().into_iter().map(quat_from_axis_angle).collect();
    let (a, b, t) = key_pair(&keys, fraction);
    slerp_by_hand(values[a], values[b], t)
}

fn position_by_hand(doc: &Document, interpolator: NodeId, fraction: f32) -> Vec3 {
    let keys = doc.scene.mf_float(interpolator, "key").unwrap();
    let values: Vec<Vec3> = doc.scene.mf_vec3f(interpolator, "keyValue").unwrap().into_iter().map(Vec3::from).collect();
    let (a, b, t) = key_pair(&keys, fraction);
    values[a] + (values[b] - values[a]) * t
}

fn scalar_by_hand(doc: &Document, interpolator: NodeId, fraction: f32) -> f32 {
    let keys = doc.scene.mf_float(interpolator, "key").unwrap();
    let values = doc.scene.mf_float(interpolator, "keyValue").unwrap();
    let (a, b, t) = key_pair(&keys, fraction);
    values[a] + (values[b] - values[a]) * t
}

/// The player's poses with clip `name` playing alone at `tau`.
fn sample(doc: &Document, name: &str, tau: f64, options: &SampleOptions) -> Vec<Pose> {
    let mut animations = Animations::from_document_strict(doc).unwrap();
    let index = animations.find(name).unwrap_or_else(|| panic!("no clip {name}"));
    animations.solo(index);
    animations.sample(doc, tau, options)
}

/// Name, duration, loop flag and TouchSensors of every clip.
fn clip_list(doc: &Document) -> Vec<(String, f64, bool, Vec<String>)> {
    Animations::from_document(doc)
        .clips
        .iter()
        .map(|c| {
            let started = match &c.source {
                ClipSource::Interpolators(i) => i.started_by.clone(),
                ClipSource::Motion { .. } | ClipSource::Authored { .. } => Vec::new(),
            };
            (c.name().to_string(), c.duration(Interpolation::Smooth), c.looping, started)
        })
        .collect()
}

/// Every joint rotation routed from `sensor` agrees with the hand-slerped keys at each of `times`
/// (seconds; the fraction is worked out here: `fract(t / cycle)` looping, else clamped to 1).
fn check_rotations_by_hand(relative: &str, sensor: &str, cycle: f64, looping: bool, times: &[f64]) -> usize {
    let doc = load(relative);
    let h = &doc.humanoids[0];
    let mut checked = 0;
    for &tau in times {
        let poses = sample(&doc, sensor, tau, &SampleOptions::default());
        let fraction = if looping { (tau / cycle).fract() as f32 } else { (tau / cycle).min(1.0) as f32 };
        for (j, joint) in h.joints.iter().enumerate() {
            let Some(target) = joint.def.as_deref() else { continue };
            if let Some(i) = direct_interpolator(&doc, sensor, target, "set_rotation") {
                let want = orientation_by_hand(&doc, i, fraction);
                assert_same_rotation(poses[0].rotations[j], want, &format!("{relative} {sensor} {target} at {tau} s"));
                checked += 1;
            }
            if let Some(i) = direct_interpolator(&doc, sensor, target, "set_translation") {
                let want = position_by_hand(&doc, i, fraction);
                let got = poses[0].translations[j];
                assert!(got.abs_diff_eq(want, 1e-5), "{relative} {sensor} {target} at {tau} s: {got} != {want}");
                checked += 1;
            }
        }
    }
    assert!(checked > times.len(), "{relative} {sensor}: only {checked} values checked");
    checked
}

fn names(list: &[(String, f64, bool, Vec<String>)]) -> Vec<&str> {
    list.iter().map(|c| c.0.as_str()).collect()
}

fn nancy_and_allen_list_four_touch_started_clips_and_play_them_by_the_keys() {
    for file in ["x3d/NancyNativeTags.x3d", "x3d/AllenDutton.x3d"] {
        if !common::corpus_listed(file) {
            continue;
        }
        let list = clip_list(&load(file));
        assert_eq!(names(&list), ["Stand_Time", "Walk_Time", "Run_Time", "Jump_Time"], "{file}");
        let durations: Vec<f64> = list.iter().map(|c| c.1).collect();
        // Run_Time has no cycleInterval: the X3D default of 1 s.
        assert_eq!(durations, [0.009999999776482582, 2.0, 1.0, 2.0], "{file}");
        assert_eq!(list.iter().map(|c| c.2).collect::<Vec<_>>(), [false, true, true, false], "{file}");
        assert_eq!(list[1].3, ["Walk_Touch"], "{file}");
        // Walk loops: 2.7 s is 0.35 of the second cycle; Jump does not: past its end it holds fraction 1.
        check_rotations_by_hand(file, "Walk_Time", 2.0, true, &[0.0, 0.3, 1.234, 2.7]);
        check_rotations_by_hand(file, "Run_Time", 1.0, true, &[0.1, 0.55]);
        check_rotations_by_hand(file, "Jump_Time", 2.0, false, &[0.77, 5.0]);
    }
}

fn joe_kick_clips_play_rotations_translations_and_the_displacer_weight_by_the_keys() {
    for file in ["x3d/JoeKick.x3d", "x3d/JoeSkinTexcoordDisplacerKick.x3d"] {
        let doc = load(file);
        let list = clip_list(&doc);
        assert_eq!(names(&list), ["KickTimer"], "{file}");
        assert_eq!((list[0].1, list[0].2), (3.73, true), "{file}");
        let checked = check_rotations_by_hand(file, "KickTimer", 3.73, true, &[0.5, 1.9, 3.73 + 1.0]);
        assert!(checked >= 3 * 20, "{file}: {checked}");

        // The displacer weight follows its ScalarInterpolator.
        let h = &doc.humanoids[0];
        let d = h.displacers.iter().position(|d| d.def.as_deref() == Some("Joe_skull_tip_raiser_action")).unwrap();
        let i = direct_interpolator(&doc, "KickTimer", "Joe_skull_tip_raiser_action", "weight").unwrap();
        for tau in [0.4, 2.2] {
            let poses = sample(&doc, "KickTimer", tau, &SampleOptions::default());
            let want = scalar_by_hand(&doc, i, (tau / 3.73) as f32);
            assert!((poses[0].displacer_weights[d] - want).abs() < 1e-6, "{file} at {tau}");
        }
    }
}

fn joe_salute_walk_lists_three_looping_clips() {
    let file = "x3d/JoeSkeletonSkinSiteSaluteWalk.x3d";
    let list = clip_list(&load(file));
    assert_eq!(names(&list), ["Time1", "Time2", "Time3"]);
    assert_eq!(list.iter().map(|c| c.1).collect::<Vec<_>>(), [2.86, 5.72, 5.8]);
    assert!(list.iter().all(|c| c.2));
    check_rotations_by_hand(file, "Time1", 2.86, true, &[0.7, 2.0]);
    check_rotations_by_hand(file, "Time2", 5.72, true, &[1.1, 6.0]);
    check_rotations_by_hand(file, "Time3", 5.8, true, &[0.2, 4.4]);
}

fn pirouette_plays_in_real_time_and_through_its_frame_stepper_chain() {
    let file = "x3d/Pirouette.x3d";
    let doc = load(file);
    let list = clip_list(&doc);
    assert_eq!(names(&list), ["RealTimer", "StepTimer"]);
    assert_eq!((list[0].1, list[1].1), (4.933, 592.0));
    let animations = Animations::from_document(&doc);
    assert!(animations.clips[0].enabled && !animations.clips[1].enabled, "StepTimer is disabled in the file");
    check_rotations_by_hand(file, "RealTimer", 4.933, true, &[0.0, 1.0, 3.21, 7.0]);

    // StepTimer's fraction goes through the ScalarInterpolator FrameStepper before reaching the joints.
    let h = &doc.humanoids[0];
    let stepper = def(&doc, "FrameStepper");
    let j = h.joints.iter().position(|j| j.def.as_deref() == Some("BvhPirouette_vl5")).unwrap();
    let interpolator = doc
        .scene
        .routes
        .iter()
        .filter(|r| r.from_node == stepper && r.to_field == "set_fraction")
        .map(|r| r.to_node)
        .find(|&i| doc.scene.routes.iter().any(|r| r.from_node == i && r.to_node == h.joints[j].node))
        .unwrap();
    for tau in [37.0, 300.5] {
        let poses = sample(&doc, "StepTimer", tau, &SampleOptions::default());
        let stepped = scalar_by_hand(&doc, stepper, (tau / 592.0) as f32);
        let want = orientation_by_hand(&doc, interpolator, stepped);
        assert_same_rotation(poses[0].rotations[j], want, &format!("vl5 through FrameStepper at {tau} s"));
    }
}

fn a_script_driven_animation_is_listed_as_unsupported() {
    let animations = Animations::from_document(&load("x3d/BvhSeamless3dExport1.x3d"));
    assert_eq!(animations.clips.len(), 1);
    let clip = &animations.clips[0];
    let reason = clip.unsupported().expect("the Script clip is unsupported");
    assert!(reason.contains("Script") && reason.contains("not run"), "{reason}");
    assert!(!clip.enabled);
    let error = animations.resolve(clip.name(), None, Some(1.0)).unwrap_err();
    assert!(error.to_string().contains("cannot be played"), "{error}");
}

// ---------------------------------------------------------------------------------------------------
// HAnimMotion: KoreanCharacterMotionAnnexD01Jin (392 frames × 57 channels, 18 joint groups)

const JIN: &str = "x3d/KoreanCharacterMotionAnnexD01Jin.x3d";
const JIN_CHANNELS: usize = 57;

/// The `values` numbers, read straight from the file's text.
fn jin_values() -> Vec<f32> {
    let text = std::fs::read_to_string(common::corpus(JIN)).unwrap();
    let start = text.find("<HAnimMotion").unwrap();
    let values = &text[start..];
    let open = values.find(" values='").unwrap() + " values='".len();
    let close = values[open..].find('\'').unwrap();
    values[open..open + close].split_whitespace().map(|v| v.parse().unwrap()).collect()
}

/// The rotation of a 3-channel group `Zrotation Xrotation Yrotation` (degrees) at `frame`:
/// `Rz·Rx·Ry` in the listed order.
fn zxy_by_hand(values: &[f32], frame: usize, offset: usize) -> Quat {
    let v = &values[frame * JIN_CHANNELS + offset..];
    Quat::from_axis_angle(Vec3::Z, v[0].to_radians())
        * Quat::from_axis_angle(Vec3::X, v[1].to_radians())
        * Quat::from_axis_angle(Vec3::Y, v[2].to_radians())
}

fn jin_with(attributes: &str) -> Document {
    let path = common::corpus(JIN);
    let text = std::fs::read_to_string(&path).unwrap().replacen(" enabled='false'", attributes, 1);
    hanim::load_str(&text, &path).unwrap()
}

fn joint(doc: &Document, name: &str) -> usize {
    doc.humanoids[0].joint_index(name).unwrap_or_else(|| panic!("no joint {name}"))
}

fn jin_motion_has_its_frames_and_duration_and_plays_the_channel_data() {
    let doc = load(JIN);
    let animations = Animations::from_document_strict(&doc).unwrap();
    let clip = &animations.clips[0];
    assert_eq!(clip.name(), "motion_animation");
    assert!(!clip.enabled, "enabled='false' in the file");
    let ClipSource::Motion { motion, .. } = &clip.source else { panic!() };
    assert_eq!((motion.frame_count, motion.channel_count, motion.groups.len()), (392, 57, 18));
    assert_eq!(motion.frame_duration, 0.1);
    assert!((clip.duration(Interpolation::Smooth) - 39.1).abs() < 1e-9);
    assert!((clip.duration(Interpolation::Stepped) - 39.2).abs() < 1e-9);
    // Three IGNORED groups drive nothing; HumanoidRoot found through its H-Anim 2 name.
    assert_eq!(motion.groups.iter().filter(|g| g.joint.is_none()).count(), 3);
    assert_eq!(motion.groups[0].joint, Some(joint(&doc, "humanoid_root")));

    let values = jin_values();
    assert_eq!(values.len(), 392 * 57);
    // Offsets: root 0..6, l_hip 6, l_knee 9, ..., skullbase (last group) 54.
    let (l_hip, l_knee, skullbase, root) =
        (joint(&doc, "l_hip"), joint(&doc, "l_knee"), joint(&doc, "skullbase"), joint(&doc, "humanoid_root"));
    for frame in [0usize, 1, 123, 250, 391] {
        let poses = sample(&doc, "motion_animation", 0.1 * frame as f64, &SampleOptions::default());
        let p = &poses[0];
        assert_same_rotation(p.rotations[l_hip], zxy_by_hand(&values, frame, 6), &format!("l_hip frame {frame}"));
        assert_same_rotation(p.rotations[l_knee], zxy_by_hand(&values, frame, 9), &format!("l_knee frame {frame}"));
        assert_same_rotation(p.rotations[skullbase], zxy_by_hand(&values, frame, 54), &format!("skullbase {frame}"));
        assert_same_rotation(p.rotations[root], zxy_by_hand(&values, frame, 3), &format!("root frame {frame}"));
        let t = Vec3::from_slice(&values[frame * 57..frame * 57 + 3]);
        assert!(p.translations[root].abs_diff_eq(t, 1e-4), "root position frame {frame}");
    }

    // Between frames 123 and 124, a quarter of the way: slerp and lerp.
    let poses = sample(&doc, "motion_animation", 12.325, &SampleOptions::default());
    let want = slerp_by_hand(zxy_by_hand(&values, 123, 6), zxy_by_hand(&values, 124, 6), 0.25);
    assert_same_rotation(poses[0].rotations[l_hip], want, "l_hip at frame 123.25");
    let (a, b) = (Vec3::from_slice(&values[123 * 57..]), Vec3::from_slice(&values[124 * 57..]));
    assert!(poses[0].translations[root].abs_diff_eq(a.lerp(b, 0.25), 1e-4));
    // Stepped: frame 123 as written.
    let stepped = SampleOptions { interpolation: Interpolation::Stepped, ..SampleOptions::default() };
    let poses = sample(&doc, "motion_animation", 12.325, &stepped);
    assert_same_rotation(poses[0].rotations[l_hip], zxy_by_hand(&values, 123, 6), "stepped frame 123");

    // The pose command reports the same frame (with --frame) and the joint's world centre.
    let args = pose_args(Some("motion_animation"), Some(123), None);
    let report = pose_command::build_report(&doc, &args).unwrap();
    assert_eq!(report.frame, Some(123.0));
    let hip = report.humanoids[0].joints.iter().find(|j| j.name == "l_hip").unwrap();
    assert_same_rotation(Quat::from_array(hip.quaternion), zxy_by_hand(&values, 123, 6), "pose --frame 123");
    let [x, y, z, a] = hip.axis_angle;
    assert_same_rotation(Quat::from_axis_angle(Vec3::new(x, y, z), a), zxy_by_hand(&values, 123, 6), "axis-angle");
}

fn pose_args(motion: Option<&str>, frame: Option<usize>, time: Option<f64>) -> pose_command::PoseArgs {
    pose_command::PoseArgs {
        file: common::corpus(JIN),
        motion: motion.map(str::to_string),
        frame,
        time,
        playback: PlaybackArgs { stepped: false, root_mode: RootMode::AsGiven },
        as_file: Default::default(),
        reach: Default::default(),
        pose_file: Default::default(),
        json: true,
        list: false,
    }
}

fn jin_motion_loops_backwards_with_a_negative_increment() {
    let doc = jin_with(" enabled='true' loop='true' frameIncrement='-2'");
    let animations = Animations::from_document_strict(&doc).unwrap();
    let clip = &animations.clips[0];
    let ClipSource::Motion { motion, .. } = &clip.source else { panic!() };
    assert!(clip.enabled && clip.looping && motion.frame_increment == -2);
    // Two frames per frame duration: one pass over 391 spans takes 19.55 s, starting from the last frame.
    assert!((clip.duration(Interpolation::Smooth) - 19.55).abs() < 1e-9);
    assert_eq!(clip.frame_position(0.0, Interpolation::Smooth), Some(391.0));
    let u = clip.frame_position(0.1, Interpolation::Smooth).unwrap();
    assert!((u - 389.0).abs() < 1e-9, "{u}");
    // Past the start it wraps to the end: 19.65 s is 393 frames back from 391, i.e. frame 389 again.
    let u = clip.frame_position(19.65, Interpolation::Smooth).unwrap();
    assert!((u - 389.0).abs() < 1e-6, "{u}");

    let values = jin_values();
    let l_hip = joint(&doc, "l_hip");
    let options = SampleOptions::default();
    let before = animations.sample(&doc, 0.1, &options);
    let after = animations.sample(&doc, 19.65, &options);
    assert_same_rotation(before[0].rotations[l_hip], zxy_by_hand(&values, 389, 6), "frame 389");
    assert_same_rotation(after[0].rotations[l_hip], zxy_by_hand(&values, 389, 6), "frame 389 after the wrap");

    // next/previous step by the increment and wrap at the range ends.
    assert_eq!(motion.step_frame(1, 1), 391);
    assert_eq!(motion.step_frame(391, -1), 1);
    assert_eq!(motion.step_frame(10, 1), 8);

    // Without loop it stops at the first frame.
    let doc = jin_with(" enabled='true' frameIncrement='-2'");
    let animations = Animations::from_document_strict(&doc).unwrap();
    assert_eq!(animations.clips[0].frame_position(100.0, Interpolation::Smooth), Some(0.0));
    assert!(animations.clips[0].finished(19.55, Interpolation::Smooth));
}

fn jin_motion_euler_channels_multiply_in_the_listed_order_and_frame_index() {
    let doc = load(JIN);
    let values = jin_values();
    let root = joint(&doc, "humanoid_root");
    // The root group lists Zrotation Xrotation Yrotation (values 3, 4, 5): R = Rz·Rx·Ry, in the listed
    // order (what X_ITE 15 does as well: its HAnimMotion builds each key with setEuler(x, y, z, "ZXY"),
    // gl-matrix's product qz·qx·qy; docs/fidelity.md).
    let poses = sample(&doc, "motion_animation", 7.0, &SampleOptions::default());
    let v = &values[70 * 57..];
    let want = Quat::from_rotation_z(v[3].to_radians())
        * Quat::from_rotation_x(v[4].to_radians())
        * Quat::from_rotation_y(v[5].to_radians());
    assert_same_rotation(poses[0].rotations[root], want, "listed order at frame 70");
    let xyz = Quat::from_rotation_x(v[4].to_radians())
        * Quat::from_rotation_y(v[5].to_radians())
        * Quat::from_rotation_z(v[3].to_radians());
    assert!(poses[0].rotations[root].dot(xyz).abs() < 0.9999, "Rx·Ry·Rz would differ on this frame");

    // frameIndex is where the transport and `pose --motion` without a frame or time start.
    let doc = jin_with(" enabled='true' frameIndex='50'");
    let transport = hanim_viewer::animation::Transport::new(Animations::from_document(&doc));
    let u = transport.selected_clip().unwrap().frame_position(transport.time, Interpolation::Smooth).unwrap();
    assert!((u - 50.0).abs() < 1e-9, "{u}");
    let report = pose_command::build_report(&doc, &pose_args(Some("motion_animation"), None, None)).unwrap();
    assert!((report.frame.unwrap() - 50.0).abs() < 1e-9);
}

fn an_interpolator_with_more_keys_than_values_is_warned_and_cut() {
    let text = r#"<X3D version='4.0'><Scene>
      <HAnimHumanoid DEF='hanim_H' name='H'>
        <HAnimJoint DEF='hanim_humanoid_root' name='humanoid_root' containerField='skeleton'/>
      </HAnimHumanoid>
      <TimeSensor DEF='Clock' cycleInterval='2' loop='true'/>
      <OrientationInterpolator DEF='Turn' key='0 0.5 1' keyValue='0 1 0 0, 0 1 0 1.2'/>
      <ROUTE fromNode='Clock' fromField='fraction_changed' toNode='Turn' toField='set_fraction'/>
      <ROUTE fromNode='Turn' fromField='value_changed' toNode='hanim_humanoid_root' toField='set_rotation'/>
    </Scene></X3D>"#;
    let doc = hanim::load_str(text, std::path::Path::new("short_values.x3d")).unwrap();
    let animations = Animations::from_document(&doc);
    let warning = animations.warnings.iter().find(|w| w.message.contains("3 keys but 2 keyValues")).expect("warned");
    assert!(warning.to_string().contains("short_values.x3d:6:"), "{warning}");
    assert_eq!(animations.clips.len(), 1);
    // Keys 0 and 0.5 remain: at fraction 0.25 (0.5 s) halfway to 1.2 rad, past 0.5 held at 1.2 rad.
    let poses = sample(&doc, "Clock", 0.5, &SampleOptions::default());
    assert_same_rotation(poses[0].rotations[0], Quat::from_rotation_y(0.6), "halfway");
    let poses = sample(&doc, "Clock", 1.5, &SampleOptions::default());
    assert_same_rotation(poses[0].rotations[0], Quat::from_rotation_y(1.2), "held");
}

fn jin_motion_honours_start_and_end_frames() {
    let doc = jin_with(" enabled='true' loop='true' startFrame='200' endFrame='100'");
    let animations = Animations::from_document_strict(&doc).unwrap();
    let clip = &animations.clips[0];
    let ClipSource::Motion { motion, .. } = &clip.source else { panic!() };
    // Start may follow end: the range is min..max.
    assert_eq!((motion.first_frame, motion.last_frame), (100, 200));
    assert!((clip.duration(Interpolation::Smooth) - 10.0).abs() < 1e-9);
    assert_eq!(clip.frame_position(0.0, Interpolation::Smooth), Some(100.0));
    let u = clip.frame_position(10.5, Interpolation::Smooth).unwrap();
    assert!((u - 105.0).abs() < 1e-6, "{u}");
}

fn root_modes_place_the_travelling_root() {
    let doc = load(JIN);
    let values = jin_values();
    let root = joint(&doc, "humanoid_root");
    let rest = doc.humanoids[0].joints[root].rest.translation;
    let at = |mode: RootMode, tau: f64| {
        sample(&doc, "motion_animation", tau, &SampleOptions { root_mode: mode, ..SampleOptions::default() })[0]
            .translations[root]
    };
    let first = Vec3::from_slice(&values[0..3]);
    let later = Vec3::from_slice(&values[200 * 57..200 * 57 + 3]);
    assert!(at(RootMode::AsGiven, 20.0).abs_diff_eq(later, 1e-4));
    assert!(at(RootMode::RelativeToFirst, 0.0).abs_diff_eq(rest, 1e-4));
    assert!(at(RootMode::RelativeToFirst, 20.0).abs_diff_eq(rest + later - first, 1e-3));
    let in_place = at(RootMode::InPlace, 20.0);
    assert!(in_place.abs_diff_eq(Vec3::new(rest.x, rest.y + later.y - first.y, rest.z), 1e-3), "{in_place}");
}

fn a_values_array_that_is_not_channels_times_frames_is_rejected() {
    let path = common::test_data("motion_bad_values.x3d");
    let doc = hanim::load(&path).unwrap();
    let error = Animations::from_document_strict(&doc).unwrap_err().to_string();
    assert!(error.contains("values has 20 numbers"), "{error}");
    assert!(error.contains("9 channels × frames, i.e. 18 or 27 for 2 or 3 frames"), "{error}");
    assert!(error.contains("motion_bad_values.x3d:14:17:"), "names the values field's position: {error}");
    // The pose command refuses it with the same message.
    for name in ["hanim_broken", "broken"] {
        let mut args = pose_args(Some(name), None, None);
        args.file = path.clone();
        let error = pose_command::build_report(&doc, &args).unwrap_err().to_string();
        assert!(error.contains("values has 20 numbers"), "{name}: {error}");
    }
}

fn several_enabled_motions_combine_per_joint_and_kind_and_user_offsets_stay_on_top() {
    let doc = hanim::load(&common::test_data("motion_two.x3d")).unwrap();
    let animations = Animations::from_document_strict(&doc).unwrap();
    assert!(
        animations.warnings.iter().any(|w| w.message.contains("'missing'")),
        "absent joint warned: {:?}",
        animations.warnings
    );
    let (root, shoulder) = (joint(&doc, "humanoid_root"), joint(&doc, "l_shoulder"));
    let mut poses = vec![Pose::rest(&doc.humanoids[0])];
    let offset = Quat::from_rotation_y(0.3);
    poses[0].rotation_offsets[shoulder] = offset;
    animations.apply(&doc, 0.5, &SampleOptions::default(), &mut poses);
    let p = &poses[0];
    // walk moves the root (wave's root group is switched off by channelsEnabled).
    assert!(p.translations[root].abs_diff_eq(Vec3::new(2.0, 0.0, 4.0), 1e-6));
    assert_same_rotation(p.rotations[root], Quat::from_rotation_y(90f32.to_radians()), "root from walk");
    // wave is later in `motions`, so it wins l_shoulder.
    assert_same_rotation(p.rotations[shoulder], Quat::from_rotation_x(60f32.to_radians()), "shoulder from wave");
    // The user's offset is kept and composes after the motion: r_eff = r_base·Δ.
    assert_eq!(p.rotation_offsets[shoulder], offset);
    assert_same_rotation(
        p.effective_rotation(&doc.humanoids[0], shoulder),
        Quat::from_rotation_x(60f32.to_radians()) * offset,
        "effective",
    );
    // With wave disabled, walk drives the shoulder.
    let mut only_walk = animations.clone();
    only_walk.clips[1].enabled = false;
    only_walk.apply(&doc, 0.5, &SampleOptions::default(), &mut poses);
    assert_same_rotation(poses[0].rotations[shoulder], Quat::from_rotation_z(90f32.to_radians()), "from walk");
    // Nothing enabled: back to the file's values, offsets still there.
    only_walk.clips[0].enabled = false;
    only_walk.apply(&doc, 0.5, &SampleOptions::default(), &mut poses);
    assert_eq!(poses[0].translations[root], Vec3::new(0.0, 0.1, 0.0));
    assert_eq!(poses[0].rotation_offsets[shoulder], offset);
}

// ---------------------------------------------------------------------------------------------------
// GPU and rendering

/// Same tolerance as tests/gpu_skin.rs: 1e-5 of the skin's bounding-box diagonal.
const GPU_TOLERANCE: f32 = 1e-5;

fn sampled_motion_frames_deform_the_same_on_the_gpu() {
    let ctx = common::gpu();
    for (file, clip, cycle) in [
        ("x3d/JoeKick.x3d", "KickTimer", 3.73),
        ("x3d/JoeSkinTexcoordDisplacerKick.x3d", "KickTimer", 3.73),
        ("x3d/JoeSkeletonSkinSiteSaluteWalk.x3d", "Time2", 5.72),
    ] {
        let doc = load(file);
        let poses: Vec<Pose> = (0..8)
            .map(|i| sample(&doc, clip, cycle * f64::from(i) / 8.0, &SampleOptions::default()).remove(0))
            .collect();
        // The frames really differ from each other.
        assert!(poses.windows(2).all(|w| w[0] != w[1]), "{file}: frames repeat");
        let a = hanim_viewer::gpu::agreement::measure_poses(&ctx, &doc.humanoids[0], &poses, 7)
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        eprintln!("{file} {clip}: {a:?}");
        assert_eq!(a.poses, 8);
        assert!(a.max_point_error <= GPU_TOLERANCE, "{file}: point error {}", a.max_point_error);
        assert!(a.max_normal_error <= GPU_TOLERANCE, "{file}: normal error {}", a.max_normal_error);
        assert!(a.max_segment_error <= GPU_TOLERANCE, "{file}: segment error {}", a.max_segment_error);
    }
}

fn read_png(path: &std::path::Path) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// Renders `clip` of `file` as a sequence and checks that the figure moves and never touches the border.
fn check_sequence(file: &str, clip: &str, every: u32, expected_frames: usize) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("seq");
    let args = hanim_viewer::commands::render::RenderArgs {
        file: common::corpus(file),
        out: None,
        size: hanim_viewer::render::ImageSize { width: 160, height: 120 },
        view: None,
        poses: Vec::new(),
        displacers: Vec::new(),
        skeleton: false,
        grid: false,
        lighting: Default::default(),
        overlays: Vec::new(),
        adapter: None,
        motion: MotionRenderArgs {
            motion: Some(clip.into()),
            every: Some(every),
            out_dir: Some(out.clone()),
            ..Default::default()
        },
        animate: false,
        turntable: None,
        animation: Default::default(),
        reach: Default::default(),
        pose_file: Default::default(),
        camera_json: None,
    };
    hanim_viewer::commands::render::run(&args).unwrap_or_else(|e| panic!("{file}: {e:#}"));
    let mut names: Vec<String> =
        std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    let want: Vec<String> = (0..expected_frames).map(|i| format!("frame_{i:05}.png")).collect();
    assert_eq!(names, want, "{file}: numbered frames and no temporary files");

    let doc = load(file);
    // The standard lighting model's background: the file's Background (one colour here), else black.
    let background = doc
        .settings
        .background
        .as_ref()
        .map_or([0.0; 3], |b| b.zenith())
        .map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8);
    let mut images = Vec::new();
    for name in &names {
        let (w, h, rgba) = read_png(&out.join(name));
        assert_eq!((w, h), (160, 120));
        let px = |x: u32, y: u32| {
            let i = ((y * w + x) * 4) as usize;
            [rgba[i], rgba[i + 1], rgba[i + 2]]
        };
        let near = |p: [u8; 3]| p.iter().zip(background).all(|(a, b)| a.abs_diff(b) <= 1);
        let figure = (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).filter(|&(x, y)| !near(px(x, y))).count();
        assert!(figure > 100, "{file} {name}: the figure is drawn ({figure} pixels)");
        images.push(rgba);
    }
    // The figure stays in the picture: each frame's framed figure box (the humanoids' bodies; floors
    // and props are drawn but not framed) projects inside the image, by the same code the command runs.
    let mut animations = hanim_viewer::animation::Animations::from_document(&doc);
    let (index, _) = animations.resolve(clip, None, None).unwrap();
    animations.solo(index);
    animations.clips[index].looping = false;
    let options = hanim_viewer::animation::SampleOptions::default();
    let times = animations.sequence_times(index, every, options.interpolation);
    let request = hanim_viewer::render::SceneRequest::new(160, 120);
    let ctx = common::gpu();
    hanim_viewer::render::render_times(&ctx, &doc, &animations, &options, &request, &times, |i, image| {
        let corners = (0..8).map(|c| {
            let pick = |bit: usize, lo: f32, hi: f32| if c & bit == 0 { lo } else { hi };
            let b = &image.bounds;
            glam::Vec3::new(pick(1, b.min.x, b.max.x), pick(2, b.min.y, b.max.y), pick(4, b.min.z, b.max.z))
        });
        for corner in corners {
            let (x, y) = image.camera.project_to_pixel(corner, 160, 120).expect("in front of the camera");
            assert!((0.0..=160.0).contains(&x) && (0.0..=120.0).contains(&y), "{file} frame {i}: {corner} at {x},{y}");
        }
        Ok::<(), hanim_viewer::render::RenderError>(())
    })
    .unwrap();
    for (i, pair) in images.windows(2).enumerate() {
        let changed = pair[0].chunks(4).zip(pair[1].chunks(4)).filter(|(a, b)| a != b).count();
        assert!(changed > 50, "{file}: frames {i} and {} differ in only {changed} pixels", i + 1);
    }
}

fn a_rendered_sequence_of_a_corpus_motion_moves_and_stays_in_frame() {
    let _ctx = common::gpu();
    // 392 frames, every 56th: frames 0, 56, ..., 336 (7 images).
    check_sequence(JIN, "motion_animation", 56, 7);
    // 3.73 s at 30 frames/s, every 20th: 0, 0.667, ..., 3.333 s (6 images).
    check_sequence("x3d/JoeKick.x3d", "KickTimer", 20, 6);
}

fn an_empty_corpus_motion_is_listed_with_no_frames_and_drives_nothing() {
    // hanimmotion_containerfield.x3d: three empty HAnimMotions, one inside the humanoid (the others are
    // outside any humanoid and belong to none).
    let doc = load("x3d/hanimmotion_containerfield.x3d");
    let animations = Animations::from_document_strict(&doc).unwrap();
    assert_eq!(animations.clips.len(), 1);
    let clip = &animations.clips[0];
    assert_eq!(
        (clip.name(), clip.frame_count(), clip.duration(Interpolation::Smooth)),
        ("HAnimMotion #1", Some(0), 0.0)
    );
    let poses = animations.sample(&doc, 1.0, &SampleOptions::default());
    assert_eq!(poses[0], Pose::rest(&doc.humanoids[0]));
}
