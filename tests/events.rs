//! The X3D event model on real files and a hand-written fixture: Joe's ball, moved by the same
//! TimeSensor as the kick, against positions worked out by hand from the file's keys; the events' joint
//! values against the transport's interpolator clips; the cascade's last writer; events through PROTO
//! interfaces in the three encodings; the ball rendered moving;
//! ProximitySensor HUDs (one screen place in two views, not clipped 8 cm ahead); a touch starting Nancy's walk.

mod common;

test_main!(
    joes_ball_follows_its_position_interpolator,
    event_joint_values_agree_with_the_interpolator_clips,
    the_last_route_of_the_cascade_writes_the_joint,
    events_pass_through_prototype_interfaces,
    the_ball_moves_in_the_rendered_scene,
    a_proximity_sensor_hud_stays_at_one_screen_place_in_two_views,
    diamond_mans_key_label_turns_toward_the_viewer,
    a_touch_on_nancys_walk_label_starts_her_walk,
    a_hud_centimetres_in_front_of_the_viewer_is_not_clipped,
    a_one_shot_timer_that_started_at_the_load_leaves_its_joint_at_rest
);

use glam::{Quat, Vec3};
use hanim_viewer::animation::events::{EventModel, FilePlayback, place_scene};
use hanim_viewer::animation::{Animations, SampleOptions};
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::pose::Pose;
use hanim_viewer::render::{RenderedImage, SceneRequest, ViewRequest, render_as_file};

const JOE: &str = "x3d/JoeKick.x3d";

fn load(path: &std::path::Path) -> Document {
    hanim::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The ball's world position (its Transform `SBall` is a child of a root Group, so world = translation).
fn ball_at(doc: &Document, t: f64) -> Vec3 {
    let overrides = EventModel::new(&doc.scene).evaluate_at(t);
    let placed = place_scene(doc, &overrides).expect("placed");
    let ball = doc.scene.defs["SBall"];
    let routed = overrides.get(ball, "translation").and_then(|v| v.as_vec3()).expect("SBall.translation routed");
    let index = doc.other_shapes.iter().position(|(id, _)| *id == doc.scene.defs["ball_Shape"]).expect("ball shape");
    let world = placed.shapes[index].expect("shown").transform_point3(Vec3::ZERO);
    assert!((world - routed).length() < 1e-5, "placement {world} vs routed translation {routed}");
    world
}

fn joes_ball_follows_its_position_interpolator() {
    // JoeKick.x3d: <TimeSensor DEF='KickTimer' cycleInterval='3.73' loop='true'/> (startTime 0), and
    // <PositionInterpolator DEF='ball_TranslationInterpolator' key='0 0.4 0.409 1'
    //   keyValue='-1 0.4 -1, 0 0.07 0, 0.05 0.06 0.05, 2 4 10'/> routed into SBall.set_translation.
    // By hand, f = t / 3.73 (first cycle), u = (f − k_i) / (k_i+1 − k_i), p = v_i + u (v_i+1 − v_i):
    //   t = 0.5: f = 0.134048, keys 0..0.4,     u = 0.335121 → (−1 + u, 0.4 − 0.33u, −1 + u)
    //            = (−0.664879, 0.289410, −0.664879)
    //   t = 1.5: f = 0.402145, keys 0.4..0.409, u = 0.238290 → (0.05u, 0.07 − 0.01u, 0.05u)
    //            = (0.011915, 0.067617, 0.011915)
    //   t = 3.0: f = 0.804290, keys 0.409..1,   u = 0.668849 → (0.05 + 1.95u, 0.06 + 3.94u, 0.05 + 9.95u)
    //            = (1.354256, 2.695265, 6.705048)
    let doc = load(&common::corpus(JOE));
    let by_hand = [
        (0.5, Vec3::new(-0.664879, 0.289410, -0.664879)),
        (1.5, Vec3::new(0.011915, 0.067617, 0.011915)),
        (3.0, Vec3::new(1.354256, 2.695265, 6.705048)),
    ];
    for (t, want) in by_hand {
        let got = ball_at(&doc, t);
        eprintln!("t = {t}: ball at {got} (by hand {want})");
        assert!((got - want).length() < 1e-4, "t = {t}: {got} vs {want}");
    }
    // The skinned variant animates its ball the same way.
    let skinned = load(&common::corpus("x3d/JoeSkinTexcoordDisplacerKick.x3d"));
    assert!((ball_at(&skinned, 1.5) - by_hand[1].1).length() < 1e-4);
    // The Ball View viewpoint inside SBall moves with it: its frame's origin is the ball's centre (its
    // own position, the default 0 0 10, is then scaled and turned by SBall).
    let overrides = EventModel::new(&doc.scene).evaluate_at(3.0);
    let placed = place_scene(&doc, &overrides).unwrap();
    let (vp, world) = placed.viewpoints.iter().find(|(v, _)| v.description == "Ball View").expect("Ball View");
    let origin = world.transform_point3(Vec3::ZERO);
    assert!((origin - by_hand[2].1).length() < 1e-4, "Ball View's frame at {origin}");
    assert!(world.transform_point3(vp.position).distance(origin) > 1.0, "the eye stays 10 × 0.23 from the ball");
}

fn event_joint_values_agree_with_the_interpolator_clips() {
    // JoeKick has one TimeSensor: playing its clip alone and playing the file as it says must pose the
    // humanoid identically (the events write joints through the same Pose path).
    let doc = load(&common::corpus(JOE));
    let animations = Animations::from_document(&doc);
    let playback = FilePlayback::new(&doc);
    let options = SampleOptions::default();
    for t in [0.3, 1.2, 2.9] {
        let clips = animations.sample(&doc, t, &options);
        let mut events: Vec<Pose> = doc.humanoids.iter().map(Pose::rest).collect();
        playback.apply(&doc, t, &options, &mut events);
        for (a, b) in clips.iter().zip(&events) {
            for (j, (qa, qb)) in a.rotations.iter().zip(&b.rotations).enumerate() {
                assert!(qa.dot(*qb).abs() > 1.0 - 1e-6, "t = {t}, joint {j}: {qa} vs {qb}");
            }
            for (ta, tb) in a.translations.iter().zip(&b.translations) {
                assert!((*ta - *tb).length() < 1e-6, "t = {t}: {ta} vs {tb}");
            }
            assert_eq!(a.displacer_weights, b.displacer_weights, "t = {t}");
        }
    }
}

fn the_last_route_of_the_cascade_writes_the_joint() {
    // tests/data/events_two_clips.x3d (see its comment): l_shoulder ends with FastShoulder's value,
    // l_elbow with SlowElbowB's. By hand (Slow: cycle 4 s, Fast: cycle 2 s, both loop from 0):
    //   t = 1.0:  Slow f = 0.25,  Fast f = 0.5
    //     l_shoulder = FastShoulder(0.5) = 0.5 · 1.2 = 0.6 rad about Z
    //     l_elbow    = SlowElbowB(0.25)  = 0.25 · 2  = 0.5 rad about Z
    //   t = 2.5:  Slow f = 0.625, Fast f = 0.25
    //     l_shoulder = 0.25 · 1.2 = 0.3 rad about Z;  l_elbow = 0.625 · 2 = 1.25 rad about Z
    let doc = load(&common::test_data("events_two_clips.x3d"));
    let playback = FilePlayback::new(&doc);
    let h = &doc.humanoids[0];
    let (shoulder, elbow) = (h.joint_index("l_shoulder").unwrap(), h.joint_index("l_elbow").unwrap());
    for (t, s, e) in [(1.0, 0.6, 0.5), (2.5, 0.3, 1.25)] {
        let mut poses = vec![Pose::rest(h)];
        playback.apply(&doc, t, &SampleOptions::default(), &mut poses);
        let near = |q: Quat, angle: f32| q.dot(Quat::from_rotation_z(angle)).abs() > 1.0 - 1e-6;
        assert!(near(poses[0].rotations[shoulder], s), "t = {t}: l_shoulder {}", poses[0].rotations[shoulder]);
        assert!(near(poses[0].rotations[elbow], e), "t = {t}: l_elbow {}", poses[0].rotations[elbow]);
    }
}

/// The same scene in the three encodings: events through PROTO interfaces (tests/data/proto_events.x3d).
const PROTO_EVENTS: [&str; 3] = ["proto_events.x3d", "vrml/proto_events.x3dv", "json/proto_events.x3dj"];

fn events_pass_through_prototype_interfaces() {
    // tests/data/proto_events.x3d (see its comment; the .x3dv and .x3dj are the same scene). X3D 4.0
    // clause 4.4.4: a body field IS-connected to an outputOnly interface field sends out of the instance;
    // an event to an inputOnly interface field reaches every body field IS-connected to it. By hand,
    // about Z: l_shoulder = 2·frac(t/4) (SWING's own Clock), l_elbow = frac(t/2) and l_wrist = 0.5·frac(t/2)
    // (the Outside clock sent into SWING.set_arm_fraction, one interface field to two interpolators),
    // r_shoulder = 2·frac(t/8) (OUTER.turn_changed IS its body's Swing instance's shoulder_changed, whose
    // Clock runs 8 s from the fieldValue):
    //   t = 1.0: 0.5, 0.5, 0.25, 0.25      t = 2.5: 1.25, 0.25, 0.125, 0.625
    for file in PROTO_EVENTS {
        let doc = load(&common::test_data(file));
        let unexpected: Vec<String> = doc.scene.warnings.iter().map(|w| w.to_string()).collect();
        assert!(unexpected.is_empty(), "{file}: {unexpected:#?}");
        let playback = FilePlayback::new(&doc);
        let h = &doc.humanoids[0];
        let joints = ["l_shoulder", "l_elbow", "l_wrist", "r_shoulder"].map(|n| h.joint_index(n).expect(n));
        for (t, want) in [(1.0, [0.5, 0.5, 0.25, 0.25]), (2.5, [1.25, 0.25, 0.125, 0.625])] {
            let mut poses = vec![Pose::rest(h)];
            playback.apply(&doc, t, &SampleOptions::default(), &mut poses);
            for (joint, angle) in joints.iter().zip(want) {
                let got = poses[0].rotations[*joint];
                assert!(
                    got.dot(Quat::from_rotation_z(angle)).abs() > 1.0 - 1e-6,
                    "{file}, t = {t}: {} is {got}, by hand {angle} rad about Z",
                    h.joints[*joint].name
                );
            }
        }
    }
}

/// The fraction of the 5×5 pixels around `(x, y)` that differ from the background.
fn foreground_near(image: &RenderedImage, (x, y): (f32, f32)) -> f32 {
    let mut hits = 0;
    for dy in -2i32..=2 {
        for dx in -2i32..=2 {
            let (px, py) = (x as i32 + dx, y as i32 + dy);
            if px >= 0 && py >= 0 && (px as u32) < image.width && (py as u32) < image.height {
                hits += image.is_foreground(px as u32, py as u32, 12) as i32;
            }
        }
    }
    hits as f32 / 25.0
}

fn the_ball_moves_in_the_rendered_scene() {
    let ctx = common::gpu();
    let doc = load(&common::corpus(JOE));
    let mut request = SceneRequest::new(200, 200);
    request.view = ViewRequest::Named("Scene_Inclined View".into());
    let mut images = Vec::new();
    render_as_file(&ctx, &doc, &request, &SampleOptions::default(), &[0.5, 1.5], |_, image| {
        images.push(image);
        Ok::<(), hanim_viewer::render::RenderError>(())
    })
    .expect("rendered");
    // Where the ball's centre is at each time (its interpolated translation; the ball is 0.107 in radius).
    let (a, b) = (ball_at(&doc, 0.5), ball_at(&doc, 1.5));
    let pa = images[0].camera.project_to_pixel(a, 200, 200).expect("in front");
    let pb = images[1].camera.project_to_pixel(b, 200, 200).expect("in front");
    eprintln!("ball at {pa:?} then {pb:?}");
    assert!((pa.0 - pb.0).hypot(pa.1 - pb.1) > 15.0, "the ball should travel across the picture");
    assert!(foreground_near(&images[0], pa) > 0.9, "ball drawn at {pa:?} at t = 0.5");
    assert!(foreground_near(&images[1], pb) > 0.9, "ball drawn at {pb:?} at t = 1.5");
    assert!(foreground_near(&images[1], pa) < 0.1, "the ball has left {pa:?} at t = 1.5");
}

/// The bounding box (min x, min y, max x, max y) of the strongly red pixels, and how many there are.
fn red_box(image: &RenderedImage) -> ([u32; 4], usize) {
    let (mut b, mut n) = ([u32::MAX, u32::MAX, 0, 0], 0);
    for (i, p) in image.rgba.chunks(4).enumerate() {
        if p[0] > 150 && p[1] < 80 && p[2] < 80 {
            let (x, y) = (i as u32 % image.width, i as u32 / image.width);
            b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
            n += 1;
        }
    }
    (b, n)
}

fn a_proximity_sensor_hud_stays_at_one_screen_place_in_two_views() {
    // proximity_hud.x3d: a ProximitySensor (size 1000³) routes position_changed/orientation_changed into
    // the Transform HUD, whose red Box sits 1 m in front of the viewer (clause 22.4.1: the viewer's
    // position and orientation in the sensor's coordinate system, here the world's).
    let ctx = common::gpu();
    let doc = load(&common::test_data("proximity_hud.x3d"));
    let mut boxes = Vec::new();
    for view in ["View A", "View B"] {
        let mut request = SceneRequest::new(160, 120);
        request.view = ViewRequest::Named(view.into());
        render_as_file(&ctx, &doc, &request, &SampleOptions::default(), &[0.0], |_, image| {
            let (b, n) = red_box(&image);
            eprintln!("{view}: HUD pixels {n} in {b:?}, camera at {}", image.camera.position());
            boxes.push((b, n, image.camera.position()));
            Ok::<(), hanim_viewer::render::RenderError>(())
        })
        .expect("rendered");
    }
    let ((a, na, eye_a), (b, nb, eye_b)) = (boxes[0], boxes[1]);
    assert!(eye_a.distance(eye_b) > 1.0, "two different viewpoints");
    assert!(na > 20 && nb > 20, "the HUD is drawn in both views ({na}, {nb} pixels)");
    // A 0.1 m box 1 m ahead, centred: about 160 / 2 / tan(π/8) · 0.1 ≈ 19 pixels wide, in the middle.
    let centre = |r: [u32; 4]| ((r[0] + r[2]) as f32 / 2.0, (r[1] + r[3]) as f32 / 2.0);
    assert!((centre(a).0 - 80.0).abs() < 3.0 && (centre(a).1 - 60.0).abs() < 3.0, "centred: {a:?}");
    for k in 0..4 {
        assert!(a[k].abs_diff(b[k]) <= 1, "the same screen place in both views: {a:?} and {b:?}");
    }
    // Without a viewer the sensor sends nothing and the HUD stays where the file put it.
    let overrides = EventModel::new(&doc.scene).evaluate_at(0.0);
    assert!(overrides.is_empty(), "{overrides:?}");
}

fn diamond_mans_key_label_turns_toward_the_viewer() {
    // DiamondManLOA2: <Transform translation='1.0 1.5 0'><Billboard> (axisOfRotation 0 1 0 by default)
    // holding the Text "Diamond Man Key". Clause 10.4.1: its local +Z turns about +Y toward the viewer.
    use hanim_viewer::animation::events::{Overrides, ViewerPose, place_scene_seen_from};
    // DiamondManLOA2 is not redistributed with the repository (see tests/corpus/MANIFEST.md).
    common::needs_corpus(&["x3d/DiamondManLOA2.x3d"]);
    let doc = load(&common::corpus("x3d/DiamondManLOA2.x3d"));
    let scene = &doc.scene;
    let label = doc
        .other_shapes
        .iter()
        .position(|(id, _)| scene.node(*id).children_in("geometry").any(|g| scene.node(g).type_name == "Text"))
        .expect("the key's Text shape");
    for (eye, want) in [(Vec3::new(1.0, 1.5, 5.0), Vec3::Z), (Vec3::new(6.0, 3.0, 0.0), Vec3::X)] {
        let viewer = ViewerPose { position: eye, orientation: Quat::IDENTITY };
        let placed = place_scene_seen_from(&doc, &Overrides::default(), Some(viewer)).unwrap();
        let world = placed.shapes[label].expect("shown");
        let z = world.transform_vector3(Vec3::Z).normalize();
        assert!(z.abs_diff_eq(want, 1e-4), "viewer at {eye}: the label's +Z is {z}, not {want}");
        assert!(world.transform_point3(Vec3::ZERO).abs_diff_eq(Vec3::new(1.0, 1.5, 0.0), 1e-5));
    }
}

fn a_touch_on_nancys_walk_label_starts_her_walk() {
    // NancyNativeTags: <TimeSensor DEF='Walk_Time' cycleInterval='2.0' loop='true' startTime='-1.0'/> is
    // over before the scene loads (stopTime 0), so she stands until ROUTE Walk_Touch.touchTime →
    // Walk_Time.startTime. A click at 1 s starts the walk: at 2.5 s it is 1.5 s in (fraction 0.75), the
    // pose of the transport's Walk_Time clip played alone at 1.5 s, for every joint the walk drives. A
    // second click at 2 s, while the walk runs, is ignored (clause 8.4.1).
    use hanim_viewer::animation::events::Touch;
    // Nancy is not redistributed with the repository (see tests/corpus/MANIFEST.md).
    common::needs_corpus(&["x3d/NancyNativeTags.x3d"]);
    let doc = load(&common::corpus("x3d/NancyNativeTags.x3d"));
    let h = &doc.humanoids[0];
    let mut playback = FilePlayback::new(&doc);
    let sensor = doc.scene.defs["Walk_Touch"];
    assert!(playback.events.touch.iter().any(|t| t.node == sensor), "Walk_Touch is a live TouchSensor");
    let at = |playback: &FilePlayback, t: f64| {
        let mut poses = vec![Pose::rest(h)];
        playback.apply(&doc, t, &SampleOptions::default(), &mut poses);
        poses.remove(0)
    };
    let standing = at(&playback, 2.5);
    let touch =
        |time: f64| Touch { sensor, time, hit_point: Vec3::ZERO, hit_normal: Vec3::Z, hit_tex_coord: glam::Vec2::ZERO };
    playback.touch(touch(1.0));
    let walking = at(&playback, 2.5);
    // Before the click nothing has changed.
    assert_eq!(at(&playback, 0.9).rotations, at(&FilePlayback::new(&doc), 0.9).rotations);
    let mut animations = Animations::from_document(&doc);
    let walk = animations.find("Walk_Time").expect("the walk clip");
    let driven: Vec<usize> = match &animations.clips[walk].source {
        hanim_viewer::animation::ClipSource::Interpolators(c) => c
            .tracks
            .iter()
            .filter_map(|t| match t.target {
                hanim_viewer::animation::TargetField::JointRotation(j) => Some(j),
                _ => None,
            })
            .collect(),
        other => panic!("{other:?}"),
    };
    animations.solo(walk);
    let clip = animations.sample(&doc, 1.5, &SampleOptions::default()).remove(0);
    let mut moved = 0;
    for &j in &driven {
        let (got, want) = (walking.rotations[j], clip.rotations[j]);
        assert!(got.dot(want).abs() > 1.0 - 1e-6, "joint {j}: {got} vs the clip's {want}");
        moved += usize::from(got.dot(standing.rotations[j]).abs() < 0.9999);
    }
    eprintln!("the walk drives {} joints; {moved} differ from standing at 2.5 s", driven.len());
    assert!(moved > 10, "the click should move her ({moved} joints moved)");
    playback.touch(touch(2.0));
    assert_eq!(at(&playback, 2.5).rotations, walking.rotations, "a click while walking does not restart it");
}

fn a_hud_centimetres_in_front_of_the_viewer_is_not_clipped() {
    // proximity_hud.x3d with its HUD box 8 cm ahead and a tenth of the size (as NancyNativeTags' menu
    // sits), and a NavigationInfo avatarSize of 0.15: the near clipping plane lies at half the collision
    // distance at most (7.5 cm), so the box shows, the same size on screen as the 10 cm box 1 m ahead.
    let ctx = common::gpu();
    let text = std::fs::read_to_string(common::test_data("proximity_hud.x3d")).unwrap();
    let near = text
        .replace("<Transform translation='0 0 -1'>", "<Transform translation='0 0 -0.08'>")
        .replace("<Box size='0.1 0.1 0.1'/>", "<Box size='0.008 0.008 0.008'/>")
        .replace("<Scene>", "<Scene><NavigationInfo avatarSize='0.15 1.6 0.75'/>");
    assert_ne!(near, text);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("near_hud.x3d");
    std::fs::write(&path, near).unwrap();
    let doc = load(&path);
    assert_eq!(doc.settings.near_clip_distance(), 0.075);
    let mut request = SceneRequest::new(160, 120);
    request.view = ViewRequest::Named("View A".into());
    render_as_file(&ctx, &doc, &request, &SampleOptions::default(), &[0.0], |_, image| {
        let (b, n) = red_box(&image);
        eprintln!("HUD 8 cm ahead: {n} pixels in {b:?}, near plane {}", image.camera.near);
        assert!(n > 20, "the HUD is drawn ({n} pixels)");
        assert!(image.camera.near <= 0.075);
        Ok::<(), hanim_viewer::render::RenderError>(())
    })
    .expect("rendered");
}

fn a_one_shot_timer_that_started_at_the_load_leaves_its_joint_at_rest() {
    // one_shot_clock.x3d: AtLoad (loop FALSE, startTime 0) never runs under X3D's absolute time
    // (clauses 8.2.2, 8.4.1; Walking_AlienX_ITE's walk, which X_ITE leaves at rest); AfterLoad (startTime
    // 0.5) runs 0.5–1.5 s and holds its last key; Looping (startTime 0, loop TRUE) runs from the load.
    let doc = load(&common::test_data("one_shot_clock.x3d"));
    let h = &doc.humanoids[0];
    let joint = |name: &str| h.joints.iter().position(|j| j.name == name).expect(name);
    let playback = FilePlayback::new(&doc);
    let at = |t: f64| {
        let mut poses = vec![Pose::rest(h)];
        playback.apply(&doc, t, &SampleOptions::default(), &mut poses);
        poses.remove(0)
    };
    let rest = Pose::rest(h);
    for t in [0.0, 0.25, 0.5, 1.0, 3.0] {
        let pose = at(t);
        let left = pose.rotations[joint("l_shoulder")];
        assert!(
            left.dot(rest.rotations[joint("l_shoulder")]).abs() > 1.0 - 1e-6,
            "t = {t}: l_shoulder moved to {left}"
        );
    }
    let right_at = |t: f64| at(t).rotations[joint("r_shoulder")];
    assert!(right_at(0.25).dot(Quat::IDENTITY).abs() > 1.0 - 1e-6, "AfterLoad has not started at 0.25 s");
    let half = Quat::from_axis_angle(Vec3::Z, -0.75);
    assert!(right_at(1.0).dot(half).abs() > 1.0 - 1e-5, "half way at 1 s: {}", right_at(1.0));
    let last = Quat::from_axis_angle(Vec3::Z, -1.5);
    assert!(right_at(3.0).dot(last).abs() > 1.0 - 1e-5, "holds its last key: {}", right_at(3.0));
    let head = at(1.0).rotations[joint("skullbase")];
    let quarter = Quat::from_axis_angle(Vec3::Y, 0.5);
    assert!(head.dot(quarter).abs() > 1.0 - 1e-5, "the looping timer runs from the load: {head}");
}
