//! ROUTEs and interpolators of the classic encodings play as interpolator clips, as in XML files: the
//! clips of `nancy_h-anim.wrl` (VRML97, H-Anim 1.1 PROTOs) are those of `NancyNativeTags.x3d`, its joint
//! rotations at chosen times are its keys slerped by hand (and equal the XML file's), and interpolator
//! clips of VRML files render frames that differ, with the GPU deformation agreeing with the CPU
//! reference.

mod common;

test_main!(
    nancy_in_vrml97_lists_the_clips_of_nancy_in_xml,
    nancy_in_vrml97_plays_her_keys_slerped_by_hand_and_as_in_xml,
    vrml_interpolator_clips_render_frames_that_differ_and_deform_like_the_cpu_reference
);

use common::by_hand::{assert_same_rotation, direct_interpolator, key_pair, load, slerp_by_hand};
use glam::Quat;
use hanim_viewer::animation::{Animations, ClipSource, Interpolation, SampleOptions};
use hanim_viewer::hanim::{Document, quat_from_axis_angle};
use hanim_viewer::pose::Pose;
use hanim_viewer::render::{self as headless, SceneRequest, render_times};
use hanim_viewer::x3d::NodeId;

/// The OrientationInterpolator fed by TimeSensor `sensor` and routed into `set_rotation` of the node
/// DEF'd `target`, if the file has one.
fn rotation_interpolator(doc: &Document, sensor: &str, target: &str) -> Option<NodeId> {
    if !doc.scene.defs.contains_key(sensor) || !doc.scene.defs.contains_key(target) {
        return None;
    }
    direct_interpolator(doc, sensor, target, "set_rotation")
}

/// Clip `name` playing alone at `tau`, default options.
fn sample(doc: &Document, name: &str, tau: f64) -> Vec<Pose> {
    let mut animations = Animations::from_document(doc);
    let index = animations.find(name).unwrap_or_else(|| panic!("no clip {name}"));
    animations.solo(index);
    animations.sample(doc, tau, &SampleOptions::default())
}

/// Name, kind, duration, loop and enabled flags, TouchSensors and track count of one clip.
type ClipFacts = (String, &'static str, f64, bool, bool, Vec<String>, usize);

fn clip_list(doc: &Document) -> Vec<ClipFacts> {
    Animations::from_document(doc)
        .clips
        .iter()
        .map(|c| {
            let ClipSource::Interpolators(i) = &c.source else { panic!("{}: not an interpolator clip", c.name()) };
            (
                c.name().to_string(),
                c.kind(),
                c.duration(Interpolation::Smooth),
                c.looping,
                c.enabled,
                i.started_by.clone(),
                i.tracks.len(),
            )
        })
        .collect()
}

fn nancy_in_vrml97_lists_the_clips_of_nancy_in_xml() {
    common::needs_corpus(&["vrml/nancy_h-anim.wrl", "x3d/NancyNativeTags.x3d"]);
    let wrl = clip_list(&load("vrml/nancy_h-anim.wrl"));
    let xml = clip_list(&load("x3d/NancyNativeTags.x3d"));
    let names: Vec<&str> = wrl.iter().map(|c| c.0.as_str()).collect();
    assert_eq!(names, ["Stand_Time", "Walk_Time", "Run_Time", "Jump_Time"]);
    // The same clips, loop flags, sensors and tracks in both encodings; the durations agree to the digits
    // written (the .x3d writes Stand_Time's `0.01` as `0.009999999776482582`, an f32 printed as a double).
    let without_duration =
        |list: &[ClipFacts]| list.iter().map(|c| (c.0.clone(), c.1, c.3, c.4, c.5.clone(), c.6)).collect::<Vec<_>>();
    assert_eq!(without_duration(&wrl), without_duration(&xml));
    for (a, b) in wrl.iter().zip(&xml) {
        assert!((a.2 - b.2).abs() < 1e-9, "{}: {} s in VRML, {} s in XML", a.0, a.2, b.2);
    }
    let durations: Vec<f64> = wrl.iter().map(|c| c.2).collect();
    assert_eq!(durations, [0.01, 2.0, 1.0, 2.0]);
    assert!(wrl.iter().all(|c| c.6 == 18 && !c.4), "18 tracks each, none playing at load: {wrl:?}");
}

fn nancy_in_vrml97_plays_her_keys_slerped_by_hand_and_as_in_xml() {
    common::needs_corpus(&["vrml/nancy_h-anim.wrl", "x3d/NancyNativeTags.x3d"]);
    let wrl = load("vrml/nancy_h-anim.wrl");
    let xml = load("x3d/NancyNativeTags.x3d");
    let h = &wrl.humanoids[0];
    let mut checked = 0;
    for (sensor, cycle, looping, times) in [
        ("Walk_Time", 2.0, true, &[0.0, 0.3, 1.234, 2.7][..]),
        ("Run_Time", 1.0, true, &[0.1, 0.55, 1.8][..]),
        ("Jump_Time", 2.0, false, &[0.4, 1.5, 3.0][..]),
    ] {
        for &tau in times {
            let poses = sample(&wrl, sensor, tau);
            let fraction = if looping { (tau / cycle).fract() as f32 } else { (tau / cycle).min(1.0) as f32 };
            for (j, joint) in h.joints.iter().enumerate() {
                let Some(target) = joint.def.as_deref() else { continue };
                let Some(i) = rotation_interpolator(&wrl, sensor, target) else { continue };
                let keys = wrl.scene.mf_float(i, "key").unwrap();
                let values: Vec<Quat> =
                    wrl.scene.mf_rotation(i, "keyValue").unwrap().into_iter().map(quat_from_axis_angle).collect();
                let (a, b, t) = key_pair(&keys, fraction);
                let what = format!("{sensor} {target} at {tau} s");
                assert_same_rotation(poses[0].rotations[j], slerp_by_hand(values[a], values[b], t), &what);
                checked += 1;
            }
            // The same rotations as the XML Nancy at the same time, joint by joint (the root renamed).
            let in_xml = sample(&xml, sensor, tau);
            let x = &xml.humanoids[0];
            for (j, joint) in h.joints.iter().enumerate() {
                let name = if joint.name == "HumanoidRoot" { "humanoid_root" } else { joint.name.as_str() };
                let k = x.joints.iter().position(|xj| xj.name == name).unwrap_or_else(|| panic!("{name}"));
                assert_same_rotation(poses[0].rotations[j], in_xml[0].rotations[k], &format!("{sensor} {name} xml"));
                assert!(poses[0].translations[j].abs_diff_eq(in_xml[0].translations[k], 1e-6), "{sensor} {name}");
            }
        }
    }
    eprintln!("{checked} joint rotations checked by hand");
    assert!(checked >= 60, "only {checked} rotations checked");
}

fn foreground(image: &headless::RenderedImage) -> usize {
    let background = image.background_rgba8();
    (0..image.width * image.height)
        .filter(|i| (0..3).any(|c| image.pixel(i % image.width, i / image.width)[c].abs_diff(background[c]) > 3))
        .count()
}

/// Renders clip `name` of `relative` every `every`/30 s through the `render --motion --every` path;
/// returns the sampled poses of the first humanoid and the images.
fn render_clip(
    ctx: &hanim_viewer::gpu::GpuContext,
    relative: &str,
    name: &str,
    every: u32,
) -> (Vec<Pose>, Vec<headless::RenderedImage>) {
    let doc = load(relative);
    let mut animations = Animations::from_document(&doc);
    let index = animations.find(name).unwrap();
    animations.solo(index);
    let options = SampleOptions::default();
    let times = animations.sequence_times(index, every, options.interpolation);
    let mut images = Vec::new();
    render_times(ctx, &doc, &animations, &options, &SceneRequest::new(160, 120), &times, |_, image| {
        images.push(image);
        Ok::<(), headless::RenderError>(())
    })
    .unwrap();
    assert_eq!(images.len(), times.len());
    let poses = times.iter().map(|&t| animations.sample(&doc, t, &options).swap_remove(0)).collect();
    (poses, images)
}

fn vrml_interpolator_clips_render_frames_that_differ_and_deform_like_the_cpu_reference() {
    let ctx = common::gpu();
    // Nancy's walk (VRML97) and Joe's kick (ClassicVRML, skinned).
    for (file, clip, every) in [("vrml/nancy_h-anim.wrl", "Walk_Time", 10), ("vrml/JoeHAnimKick1a.x3dv", "Ex_Time", 20)]
    {
        if !common::corpus_listed(file) {
            continue;
        }
        let (poses, images) = render_clip(&ctx, file, clip, every);
        assert!(images.len() >= 4, "{file}: {} frames", images.len());
        for (i, image) in images.iter().enumerate() {
            assert!(foreground(image) > 300, "{file} frame {i} is nearly blank");
        }
        // Successive frames differ, and so do the first and the middle one.
        let changed = |a: &headless::RenderedImage, b: &headless::RenderedImage| {
            (0..a.width * a.height)
                .filter(|i| a.pixel(i % a.width, i / a.width) != b.pixel(i % b.width, i / b.width))
                .count()
        };
        let steps: Vec<usize> = images.windows(2).map(|w| changed(&w[0], &w[1])).collect();
        eprintln!("{file} {clip}: {} frames, pixels changed per step {steps:?}", images.len());
        assert!(steps.iter().all(|&n| n > 20), "{file}: some frames do not differ: {steps:?}");
        assert!(changed(&images[0], &images[images.len() / 2]) > 200, "{file}");
        // The GPU deforms the sampled poses as the CPU reference does (1e-5 of the bounding-box diagonal).
        // Nancy's segments are rigid Shapes with no skin or segment coords: there is nothing to deform.
        let doc = load(file);
        if doc.humanoids[0].skin.is_none() {
            continue;
        }
        let a = hanim_viewer::gpu::agreement::measure_poses(&ctx, &doc.humanoids[0], &poses, 7).unwrap();
        eprintln!("{file} {clip}: {a:?}");
        assert_eq!(a.poses, poses.len());
        assert!(a.max_error() <= 1e-5 && a.bbox_diagonal > 1.0, "{file}: {a:?}");
    }
    // Joe's skin is what the agreement measured: it has points.
    let joe = load("vrml/JoeHAnimKick1a.x3dv");
    assert!(joe.humanoids[0].skin.as_ref().is_some_and(|s| s.points.len() == 390));
}
