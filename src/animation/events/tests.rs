//! The event model on hand-written scenes: every value below is worked out from the fixture's keys.

use std::path::Path;

use glam::{Quat, Vec3};

use super::*;
use crate::x3d::{LoadOptions, load_str};

fn scene(body: &str) -> Scene {
    let text = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<X3D profile=\"Immersive\" version=\"4.0\"><Scene>{body}</Scene></X3D>"
    );
    load_str(&text, Path::new("events.x3d"), &LoadOptions::default()).expect("test scene loads")
}

fn vec3(o: &Overrides, s: &Scene, def: &str, field: &str) -> Vec3 {
    o.get(s.defs[def], field).and_then(|v| v.as_vec3()).unwrap_or_else(|| panic!("{def}.{field} not set: {o:?}"))
}

const BALL: &str = "
  <Transform DEF='T'><Shape><Box/></Shape><Viewpoint DEF='V' description='ball'/></Transform>
  <TimeSensor DEF='Clock' cycleInterval='4' loop='true'/>
  <PositionInterpolator DEF='P' key='0 0.5 1' keyValue='0 0 0 2 0 0 2 4 0'/>
  <OrientationInterpolator DEF='R' key='0 1' keyValue='0 1 0 0 0 1 0 3'/>
  <ROUTE fromNode='Clock' fromField='fraction_changed' toNode='P' toField='set_fraction'/>
  <ROUTE fromNode='Clock' fromField='fraction_changed' toNode='R' toField='set_fraction'/>
  <ROUTE fromNode='P' fromField='value_changed' toNode='T' toField='set_translation'/>
  <ROUTE fromNode='P' fromField='value_changed' toNode='V' toField='position'/>
  <ROUTE fromNode='R' fromField='value_changed' toNode='T' toField='rotation'/>";

#[test]
fn one_sensor_fans_out_to_any_field() {
    let s = scene(BALL);
    let model = EventModel::new(&s);
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
    // t = 1: fraction 1/4 = 0.25, halfway between keys 0 and 0.5: (1, 0, 0).
    let o = model.evaluate_at(1.0);
    assert_eq!(vec3(&o, &s, "T", "translation"), Vec3::new(1.0, 0.0, 0.0));
    assert_eq!(vec3(&o, &s, "V", "position"), Vec3::new(1.0, 0.0, 0.0));
    // Rotation about Y by 0.25 · 3.
    let r = o.get(s.defs["T"], "rotation").and_then(|v| v.as_rotation()).unwrap();
    assert!((r.to_scaled_axis() - Vec3::new(0.0, 0.75, 0.0)).length() < 1e-5, "{r}");
    // t = 7: fraction 3/4 → halfway between (2,0,0) and (2,4,0).
    let o = model.evaluate_at(7.0);
    assert!((vec3(&o, &s, "T", "translation") - Vec3::new(2.0, 2.0, 0.0)).length() < 1e-5);
    // Before anything ran at t < 0 nothing is set.
    assert!(model.evaluate_at(-1.0).is_empty());
}

#[test]
fn non_looping_sensor_holds_its_last_key() {
    // Started after the load (scene clock), it runs one cycle and holds its last key.
    let s = scene(&BALL.replace("loop='true'", "loop='false' startTime='1'"));
    let o = EventModel::new(&s).evaluate_at(10.0);
    assert_eq!(vec3(&o, &s, "T", "translation"), Vec3::new(2.0, 4.0, 0.0));
    // Started at the load (startTime 0, absolute time: decades before it), it never ran.
    let s = scene(&BALL.replace("loop='true'", "loop='false'"));
    assert!(EventModel::new(&s).evaluate_at(10.0).is_empty());
    // Start and stop times: started at 2, stopped at 3 → fraction (3 − 2)/4.
    let s = scene(&BALL.replace("loop='true'", "loop='true' startTime='2' stopTime='3'"));
    let o = EventModel::new(&s).evaluate_at(10.0);
    assert_eq!(vec3(&o, &s, "T", "translation"), Vec3::new(1.0, 0.0, 0.0));
    // Disabled: nothing runs.
    let s = scene(&BALL.replace("loop='true'", "loop='true' enabled='false'"));
    assert!(EventModel::new(&s).evaluate_at(1.0).is_empty());
}

#[test]
fn placements_follow_overridden_transforms() {
    let text = format!(
        "<HAnimHumanoid name='h'><HAnimJoint containerField='skeleton' name='humanoid_root'/></HAnimHumanoid>{BALL}"
    );
    let doc = crate::hanim::load_str(
        &format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<X3D profile='Immersive' version='4.0'><Scene>{text}</Scene></X3D>"),
        Path::new("events.x3d"),
    )
    .expect("loads");
    let model = EventModel::new(&doc.scene);
    let o = model.evaluate_at(1.0);
    let placed = place_scene(&doc, &o).expect("placed");
    assert_eq!(placed.shapes.len(), doc.other_shapes.len());
    let m = placed.shapes[0].expect("shown");
    assert!((m.transform_point3(Vec3::ZERO) - Vec3::new(1.0, 0.0, 0.0)).length() < 1e-5);
    // The viewpoint inside T moves with T and by its own routed position: (1,0,0) + R·(1,0,0).
    let (vp, world) = &placed.viewpoints[0];
    let eye = world.transform_point3(vp.position);
    let expected = Vec3::new(1.0, 0.0, 0.0) + Quat::from_rotation_y(0.75) * Vec3::new(1.0, 0.0, 0.0);
    assert!((eye - expected).length() < 1e-5, "{eye} vs {expected}");
}

#[test]
fn fraction_chains_sequencers_and_switches() {
    let s = scene(
        "<Switch DEF='S' whichChoice='0'><Shape DEF='A'><Box/></Shape><Shape DEF='B'><Sphere/></Shape></Switch>
         <TimeSensor DEF='C' cycleInterval='1' loop='true'/>
         <ScalarInterpolator DEF='Ease' key='0 1' keyValue='1 0'/>
         <IntegerSequencer DEF='Seq' key='0 0.5' keyValue='0 1'/>
         <ROUTE fromNode='C' fromField='fraction_changed' toNode='Ease' toField='set_fraction'/>
         <ROUTE fromNode='Ease' fromField='value_changed' toNode='Seq' toField='set_fraction'/>
         <ROUTE fromNode='Seq' fromField='value_changed' toNode='S' toField='whichChoice'/>",
    );
    let model = EventModel::new(&s);
    // t = 0.25: fraction 0.25, reversed by Ease to 0.75 ≥ 0.5 → choice 1.
    assert_eq!(model.evaluate_at(0.25).get(s.defs["S"], "whichChoice"), Some(&FieldValue::Int(1)));
    // t = 0.75: 0.25 < 0.5 → choice 0.
    assert_eq!(model.evaluate_at(0.75).get(s.defs["S"], "whichChoice"), Some(&FieldValue::Int(0)));
}

#[test]
fn boolean_utilities_and_colours() {
    let s = scene(
        "<DirectionalLight DEF='L'/><Material DEF='M'/>
         <TimeSensor DEF='C' cycleInterval='2' loop='true'/>
         <BooleanSequencer DEF='B' key='0 0.5' keyValue='true false'/>
         <BooleanFilter DEF='F'/>
         <ColorInterpolator DEF='K' key='0 1' keyValue='1 0 0 0 1 0'/>
         <ROUTE fromNode='C' fromField='fraction_changed' toNode='B' toField='set_fraction'/>
         <ROUTE fromNode='B' fromField='value_changed' toNode='F' toField='set_boolean'/>
         <ROUTE fromNode='F' fromField='inputNegate' toNode='L' toField='on'/>
         <ROUTE fromNode='C' fromField='fraction_changed' toNode='K' toField='set_fraction'/>
         <ROUTE fromNode='K' fromField='value_changed' toNode='M' toField='diffuseColor'/>",
    );
    let model = EventModel::new(&s);
    // t = 0.5: fraction 0.25 → TRUE, negated → light off; colour a quarter of the way red → green in
    // HSV: hue 30°, full saturation and value = (1, 0.5, 0) (RGB blending would give (0.75, 0.25, 0)).
    let o = model.evaluate_at(0.5);
    assert_eq!(o.get(s.defs["L"], "on"), Some(&FieldValue::Bool(false)));
    assert!((vec3(&o, &s, "M", "diffuseColor") - Vec3::new(1.0, 0.5, 0.0)).length() < 1e-5);
    // t = 1.5: fraction 0.75 → FALSE → on.
    assert_eq!(model.evaluate_at(1.5).get(s.defs["L"], "on"), Some(&FieldValue::Bool(true)));
}

#[test]
fn loops_are_broken_and_scripts_listed() {
    let s = scene(
        "<Transform DEF='T'/>
         <TimeSensor DEF='C' cycleInterval='1' loop='true'/>
         <ScalarInterpolator DEF='A' key='0 1' keyValue='0 1'/>
         <ScalarInterpolator DEF='B' key='0 1' keyValue='1 0'/>
         <PositionInterpolator DEF='P' key='0 1' keyValue='0 0 0 1 0 0'/>
         <Script DEF='S'><field name='f' type='SFFloat' accessType='inputOnly'/></Script>
         <ROUTE fromNode='C' fromField='fraction_changed' toNode='A' toField='set_fraction'/>
         <ROUTE fromNode='A' fromField='value_changed' toNode='B' toField='set_fraction'/>
         <ROUTE fromNode='B' fromField='value_changed' toNode='A' toField='set_fraction'/>
         <ROUTE fromNode='B' fromField='value_changed' toNode='P' toField='set_fraction'/>
         <ROUTE fromNode='P' fromField='value_changed' toNode='T' toField='translation'/>
         <ROUTE fromNode='C' fromField='fraction_changed' toNode='S' toField='f'/>",
    );
    let model = EventModel::new(&s);
    assert!(model.warnings.iter().any(|w| w.message.contains("Script DEF 'S'") && w.message.contains("not run")));
    // C sends 0.25 → A sends 0.25 → B sends 0.75 → P: (0.75, 0, 0); B → A again is dropped there (A's
    // value_changed was already sent this timestamp).
    let o = model.evaluate_at(0.25);
    assert!((vec3(&o, &s, "T", "translation") - Vec3::new(0.75, 0.0, 0.0)).length() < 1e-6);
    assert!(o.get(s.defs["S"], "f").is_none());
}

#[test]
fn state_carries_toggles_and_active_changes_between_timestamps() {
    let s = scene(
        "<Switch DEF='Sw'/><DirectionalLight DEF='L'/>
         <TimeSensor DEF='C' cycleInterval='1' loop='false' startTime='1'/>
         <BooleanToggle DEF='G'/>
         <ROUTE fromNode='C' fromField='isActive' toNode='G' toField='set_boolean'/>
         <ROUTE fromNode='G' fromField='toggle_changed' toNode='L' toField='on'/>",
    );
    let model = EventModel::new(&s);
    let mut state = model.initial_state();
    let on = |state: &EventState| state.overrides.get(s.defs["L"], "on").cloned();
    model.advance(&mut state, 0.5);
    assert_eq!(on(&state), None);
    // isActive TRUE at 1.5 flips the toggle once; the next timestamp sends no isActive and keeps it.
    model.advance(&mut state, 1.5);
    assert_eq!(on(&state), Some(FieldValue::Bool(true)));
    model.advance(&mut state, 1.6);
    assert_eq!(on(&state), Some(FieldValue::Bool(true)));
    // isActive FALSE at the end does not flip it (only TRUE does).
    model.advance(&mut state, 3.0);
    assert_eq!(on(&state), Some(FieldValue::Bool(true)));
}

#[test]
fn a_proximity_sensor_reports_the_viewer_in_its_own_frame() {
    // Clause 22.4.1: inside the box (center ± size/2, in the sensor's coordinate system) the viewer's
    // position and orientation in that system; outside, or disabled, nothing. The sensor's frame: moved
    // by 10 along X and turned 90° about Y, so the world point (10, 0, -1) is local (1, 0, 0).
    let s = scene(
        "<Transform translation='10 0 0' rotation='0 1 0 1.5707963'>
           <ProximitySensor DEF='P' size='4 4 4'/></Transform>
         <Transform DEF='HUD'/>
         <ROUTE fromNode='P' fromField='position_changed' toNode='HUD' toField='set_translation'/>
         <ROUTE fromNode='P' fromField='orientation_changed' toNode='HUD' toField='set_rotation'/>",
    );
    let model = EventModel::new(&s);
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
    let turned = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
    let viewer = ViewerPose { position: Vec3::new(10.0, 0.0, -1.0), orientation: turned };
    let o = model.evaluate_seen_from(0.0, Some(viewer));
    assert!(vec3(&o, &s, "HUD", "translation").abs_diff_eq(Vec3::new(1.0, 0.0, 0.0), 1e-5));
    let r = o.get(s.defs["HUD"], "rotation").and_then(|v| v.as_rotation()).unwrap();
    assert!(r.dot(Quat::IDENTITY).abs() > 1.0 - 1e-6, "turned as the sensor's frame is: {r}");
    let outside = ViewerPose { position: Vec3::new(0.0, 0.0, 0.0), orientation: Quat::IDENTITY };
    assert!(model.evaluate_seen_from(0.0, Some(outside)).is_empty(), "outside the box nothing is sent");
    assert!(model.evaluate_at(0.0).is_empty(), "without a viewer nothing is sent");
}
