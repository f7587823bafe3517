//! Loader features on small hand-written files: UNIT, prototypes (ROUTEs through their interfaces too),
//! Inline, containerField, DEF/USE sharing, version defaults, info fields and joint binding fields.

mod common;

use std::path::{Path, PathBuf};

use glam::{Mat4, Quat, Vec3};
use hanim_viewer::hanim::{self, BindingMode, SiteParent};
use hanim_viewer::pose::{self, Pose};
use hanim_viewer::x3d::{self, LoadOptions};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

fn doc(text: &str) -> hanim::Document {
    hanim::load_str(text, Path::new("inline-test.x3d")).unwrap_or_else(|e| panic!("{e}"))
}

fn close(a: Vec3, b: Vec3) -> bool {
    (a - b).abs().max_element() < 1e-5
}

#[test]
fn unit_statements_scale_lengths_and_angles() {
    // centimetres and degrees: center 100 cm → 1 m, rotation 90° → π/2, limits in degrees → radians;
    // skin points and displacements are lengths too.
    let d = doc(r#"<X3D version='4.0'><head>
        <unit category='length' name='centimetre' conversionFactor='0.01'/>
        <unit category='angle' name='degree' conversionFactor='0.017453292519943295'/></head><Scene>
      <HAnimHumanoid name='u' translation='0 50 0'>
        <HAnimJoint containerField='skeleton' name='humanoid_root' center='0 100 0' rotation='0 0 1 90'
            llimit='-45 0 0' ulimit='45 0 0' skinCoordIndex='0' skinCoordWeight='1'>
          <HAnimDisplacer name='d_feature' coordIndex='0' displacements='10 0 0' weight='1'/>
        </HAnimJoint>
        <Coordinate containerField='skinCoord' point='100 100 0'/>
      </HAnimHumanoid></Scene></X3D>"#);
    let h = &d.humanoids[0];
    let j = &h.joints[0];
    assert!(close(j.rest.center, Vec3::new(0.0, 1.0, 0.0)));
    assert!(close(h.transform.translation, Vec3::new(0.0, 0.5, 0.0)));
    let (axis, angle) = j.rest.rotation.to_axis_angle();
    assert!(close(axis, Vec3::Z) && (angle - std::f32::consts::FRAC_PI_2).abs() < 1e-5);
    assert!((j.llimit[0] + std::f32::consts::FRAC_PI_4).abs() < 1e-5);
    assert!(close(h.skin.as_ref().unwrap().points[0], Vec3::new(1.0, 1.0, 0.0)));
    assert!(close(h.displacers[0].displacements[0], Vec3::new(0.1, 0.0, 0.0)));
}

#[test]
fn bad_unit_factor_is_an_error_with_position() {
    let e = hanim::load_str(
        "<X3D>\n<head><unit category='length' name='x' conversionFactor='-1'/></head><Scene/></X3D>",
        Path::new("u.x3d"),
    )
    .unwrap_err()
    .to_string();
    assert!(e.starts_with("u.x3d:2:") && e.contains("conversionFactor must be > 0"), "{e}");
}

#[test]
fn hanim1_prototypes_become_native_nodes() {
    // H-Anim 1.x style in XML: Humanoid/Joint/Segment/Site prototypes; `humanoidBody` holds the skeleton.
    let d = hanim::load(&data("proto_humanoid.x3d")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.humanoids.len(), 1);
    let h = &d.humanoids[0];
    assert_eq!(h.name, "protoman");
    let names: Vec<&str> = h.joints.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["HumanoidRoot", "sacroiliac", "l_hip"]);
    assert_eq!(h.joints[2].parent, Some(1));
    assert!(close(h.joints[2].rest.center, Vec3::new(0.1, 0.9, 0.0)));
    // Interface default applies where the instance gives no value.
    assert!(close(h.joints[0].rest.center, Vec3::ZERO));
    assert_eq!(h.segments.len(), 1);
    assert_eq!(h.segments[0].joint, Some(2));
    assert_eq!(h.sites.len(), 1);
    assert!(matches!(h.sites[0].parent, SiteParent::Segment(0)));
    assert_eq!(h.info, vec![("authorName".to_string(), "Test Author".to_string())]);
}

#[test]
fn generic_prototype_expansion_fills_is_connections() {
    // BvhSeamless3dExport1: `PAnim` body = TimeSensor (cycleInterval IS period) + Script.
    let path = common::corpus("x3d/BvhSeamless3dExport1.x3d");
    let scene = x3d::load_file(&path, &LoadOptions::default()).unwrap();
    let id = scene.defs["t02de8af0"];
    let node = scene.node(id);
    assert_eq!(node.type_name, "TimeSensor");
    assert_eq!(node.proto.as_deref(), Some("PAnim"));
    assert_eq!(scene.sf_double(id, "cycleInterval", 0.0).unwrap(), 4.750095);
    // `loop` comes from the interface default (false), not from a fieldValue.
    assert!(!scene.sf_bool(id, "loop", true).unwrap(), "{:?}", node.fields);
    let extra: Vec<_> = node.children_in("__proto_extra").collect();
    assert_eq!(extra.len(), 1);
    assert_eq!(scene.node(extra[0]).type_name, "Script");
    // The copy's Script field refers to the copied TimeSensor, not the declaration's.
    let script_ts: Vec<_> = scene.node(extra[0]).children_in("timeSensor").collect();
    assert_eq!(script_ts, vec![id]);
}

/// The ROUTEs of `scene` as `(from DEF or type, from field, to DEF or type, to field)`.
fn route_names(scene: &x3d::Scene) -> Vec<(String, String, String, String)> {
    let name = |id| {
        let node = scene.node(id);
        node.def.clone().unwrap_or_else(|| node.type_name.clone())
    };
    scene
        .routes
        .iter()
        .map(|r| (name(r.from_node), r.from_field.clone(), name(r.to_node), r.to_field.clone()))
        .collect()
}

#[test]
fn routes_through_an_instance_interface_reach_its_body_or_warn_at_the_route() {
    // The instance I of P stands for its body's ScalarInterpolator (DEF Lerp in the body; the instance's
    // DEF replaces it): a ROUTE from I.out_changed leaves from Lerp.value_changed, one into I.set_in reaches
    // Lerp.set_fraction (X3D 4.0 clause 4.4.4). A field P does not declare, and a field used against its
    // access type, are warnings at the ROUTE, in either encoding, and the ROUTE is dropped.
    let xml = "<X3D version='4.0'><Scene>
<ProtoDeclare name='P'><ProtoInterface>
  <field accessType='outputOnly' name='out_changed' type='SFFloat'/>
  <field accessType='inputOnly' name='set_in' type='SFFloat'/>
</ProtoInterface><ProtoBody>
  <ScalarInterpolator DEF='Lerp' key='0 1' keyValue='0 1'><IS>
    <connect nodeField='value_changed' protoField='out_changed'/><connect nodeField='set_fraction' protoField='set_in'/>
  </IS></ScalarInterpolator>
</ProtoBody></ProtoDeclare>
<ProtoInstance DEF='I' name='P'/><TimeSensor DEF='T'/><ScalarInterpolator DEF='S'/>
<ROUTE fromNode='I' fromField='out_changed' toNode='S' toField='set_fraction'/>
<ROUTE fromNode='T' fromField='fraction_changed' toNode='I' toField='set_in'/>
<ROUTE fromNode='I' fromField='out_chaged' toNode='S' toField='set_fraction'/>
  <ROUTE fromNode='I' fromField='set_in' toNode='S' toField='set_fraction'/>
</Scene></X3D>";
    let classic = "#X3D V4.0 utf8
PROTO P [ outputOnly SFFloat out_changed inputOnly SFFloat set_in ] {
  DEF Lerp ScalarInterpolator { key [ 0 1 ] keyValue [ 0 1 ] value_changed IS out_changed set_fraction IS set_in }
}
DEF I P { } DEF T TimeSensor { } DEF S ScalarInterpolator { }
ROUTE I.out_changed TO S.set_fraction
ROUTE T.fraction_changed TO I.set_in
ROUTE I.out_chaged TO S.set_fraction
  ROUTE I.set_in TO S.set_fraction
";
    let field = |a: &str, b: &str, c: &str, d: &str| (a.to_string(), b.to_string(), c.to_string(), d.to_string());
    for (text, path, first_bad) in [(xml, "t.x3d", 13), (classic, "t.x3dv", 8)] {
        let scene = x3d::load_str(text, Path::new(path), &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            route_names(&scene),
            [field("I", "value_changed", "S", "set_fraction"), field("T", "fraction_changed", "I", "set_fraction")],
            "{path}"
        );
        let warnings: Vec<String> = scene.warnings.iter().map(|w| w.to_string()).collect();
        assert_eq!(
            warnings,
            [
                format!(
                    "{path}:{first_bad}:1: warning: ROUTE I.out_chaged TO S.set_fraction: prototype 'P' declares no \
                     interface field 'out_chaged'; close names: out_changed; ignored"
                ),
                format!(
                    "{path}:{}:3: warning: ROUTE I.set_in TO S.set_fraction: interface field 'set_in' of prototype \
                     'P' is inputOnly: it sends no events; ignored",
                    first_bad + 1
                ),
            ],
            "{path}"
        );
    }
}

#[test]
fn routes_through_proto_interfaces_are_the_same_in_classic_vrml_as_in_xml() {
    // vrml/proto_events.x3dv is proto_events.x3d in ClassicVRML: the ROUTEs naming PROTO instance fields
    // become the same ROUTEs between body nodes: Outside into both interpolators behind set_arm_fraction,
    // SWING's three outputs from their interpolators, OUTER's from its nested Swing's, and each Swing
    // body's own Clock ROUTE (8).
    let load = |name| x3d::load_file(&data(name), &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let (classic, xml) = (load("vrml/proto_events.x3dv"), load("proto_events.x3d"));
    let mut routes = route_names(&classic);
    routes.sort();
    let mut xml_routes = route_names(&xml);
    xml_routes.sort();
    assert_eq!(routes, xml_routes);
    assert_eq!(routes.len(), 8);
    let into_swing: Vec<_> = routes.iter().filter(|r| r.0 == "Outside").map(|r| (r.2.as_str(), r.3.as_str())).collect();
    assert_eq!(into_swing, [("ElbowTurn", "set_fraction"), ("WristTurn", "set_fraction")]);
}

#[test]
fn inline_of_a_local_file_is_read_and_a_self_inline_is_stopped() {
    let d = hanim::load(&data("inline_outer.x3d")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.humanoids.len(), 1, "the humanoid comes from the Inlined file");
    assert_eq!(d.humanoids[0].name, "inlined");
    // The Inline's Transform places the humanoid.
    assert!(close(d.humanoids[0].world_from_parent.transform_point3(Vec3::ZERO), Vec3::new(2.0, 0.0, 0.0)));
    let messages: Vec<&str> = d.warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(messages.iter().any(|m| m.contains("a cycle: the file is already being read")), "{messages:?}");
    assert!(messages.iter().any(|m| m.contains("remote URLs are never fetched")), "{messages:?}");
    // Positions in the inlined file name that file.
    assert!(d.scene.files.iter().any(|f| f.path.ends_with("inline_inner.x3d")));
}

#[test]
fn use_shares_the_node_and_container_field_overrides_default() {
    let d = doc(r#"<X3D version='3.3'><Scene>
      <HAnimHumanoid name='s'>
        <HAnimJoint DEF='hanim_root' containerField='skeleton' name='humanoid_root'/>
        <HAnimJoint USE='hanim_root' containerField='joints'/>
        <Coordinate DEF='pts' containerField='skinCoord' point='0 0 0 1 0 0 0 1 0'/>
        <Shape containerField='skin'><IndexedFaceSet coordIndex='0 1 2 -1'><Coordinate USE='pts'/></IndexedFaceSet></Shape>
      </HAnimHumanoid></Scene></X3D>"#);
    let h = &d.humanoids[0];
    assert_eq!(h.skin_joints, vec![0]);
    assert_eq!(h.version, "", "X3D 3.x humanoids have an empty version by default");
    let skin = h.skin.as_ref().unwrap();
    assert!(skin.shapes[0].deforms, "the IndexedFaceSet USEs the skinCoord node");
    assert_eq!(skin.shapes[0].indices, vec![0, 1, 2, -1]);
    let d4 = doc("<X3D version='4.0'><Scene><HAnimHumanoid name='v'/></Scene></X3D>");
    assert_eq!(d4.humanoids[0].version, "2.0");
}

#[test]
fn mfstring_info_and_quoting() {
    let d = doc(r#"<X3D version='3.3'><Scene>
      <HAnimHumanoid name='q' info='"authorName=A \"Quoted\" Name" "copyright=2024, Somebody" "gender=female"'/>
      </Scene></X3D>"#);
    let info = &d.humanoids[0].info;
    assert_eq!(info[0], ("authorName".into(), "A \"Quoted\" Name".into()));
    assert_eq!(info[1], ("copyright".into(), "2024, Somebody".into()));
    assert_eq!(info.len(), 3);
}

/// A two-joint chain whose rest pose is given with `translation` (glTF style) and whose binding fields
/// are the inverse bind matrices (X_ITE's reading): the rest pose must reproduce the skin points.
#[test]
fn joint_binding_fields_inverse_bind_reading() {
    let d = doc(r#"<X3D version='4.0'><Scene>
      <HAnimHumanoid name='g' skeletalConfiguration='GLTF'
          jointBindingPositions='0 -1 0  0 -2 0' jointBindingRotations='0 0 1 0  0 0 1 0' jointBindingScales='1 1 1  1 1 1'>
        <HAnimJoint DEF='a' containerField='skeleton' name='a' translation='0 1 0' skinCoordIndex='0' skinCoordWeight='1'>
          <HAnimJoint DEF='b' name='b' translation='0 1 0' skinCoordIndex='1' skinCoordWeight='1'/>
        </HAnimJoint>
        <HAnimJoint USE='a' containerField='joints'/><HAnimJoint USE='b' containerField='joints'/>
        <Coordinate containerField='skinCoord' point='0.5 1 0  0.5 2 0'/>
      </HAnimHumanoid></Scene></X3D>"#);
    let h = &d.humanoids[0];
    assert_eq!(h.binding_mode, BindingMode::InverseBindMatrix);
    let rest = pose::deform_skin(h, &Pose::rest(h)).unwrap();
    assert!(close(rest.points[0], Vec3::new(0.5, 1.0, 0.0)) && close(rest.points[1], Vec3::new(0.5, 2.0, 0.0)));
    assert!(h.warnings.is_empty(), "{:?}", h.warnings);
    // Rotating joint a by 90° about Z (about its origin at y=1) swings b's point to x=-1.
    let mut pose = Pose::rest(h);
    pose.rotation_offsets[0] = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    let bent = pose::deform_skin(h, &pose).unwrap();
    assert!(close(bent.points[1], Vec3::new(-1.0, 1.5, 0.0)), "{}", bent.points[1]);
}

/// The same skeleton with binding fields written as the bind-pose local TRS (19774's reading).
#[test]
fn joint_binding_fields_bind_pose_reading() {
    let d = doc(r#"<X3D version='4.0'><Scene>
      <HAnimHumanoid name='g' skeletalConfiguration='ARMATURE'
          jointBindingPositions='0 1 0  0 1 0' jointBindingRotations='0 0 1 0' jointBindingScales='1 1 1'>
        <HAnimJoint DEF='a' containerField='skeleton' name='a' translation='0 1 0' skinCoordIndex='0' skinCoordWeight='1'>
          <HAnimJoint DEF='b' name='b' translation='0 1 0' skinCoordIndex='1' skinCoordWeight='1'/>
        </HAnimJoint>
        <HAnimJoint USE='a' containerField='joints'/><HAnimJoint USE='b' containerField='joints'/>
        <Coordinate containerField='skinCoord' point='0.5 1 0  0.5 2 0'/>
      </HAnimHumanoid></Scene></X3D>"#);
    let h = &d.humanoids[0];
    assert_eq!(h.binding_mode, BindingMode::BindPose);
    // B_b = (G_b^bind)⁻¹ = T(0,-2,0)
    assert!(h.binding[1].abs_diff_eq(Mat4::from_translation(Vec3::new(0.0, -2.0, 0.0)), 1e-6));
    let rest = pose::deform_skin(h, &Pose::rest(h)).unwrap();
    assert!(close(rest.points[1], Vec3::new(0.5, 2.0, 0.0)));
}

#[test]
fn sites_wrapped_in_transforms_keep_the_offset() {
    // As in Pirouette.x3d: a Transform inside the segment places the site.
    let path = common::corpus("x3d/Pirouette.x3d");
    let d = hanim::load(&path).unwrap();
    let h = &d.humanoids[0];
    let site = h.sites.iter().find(|s| s.name == "skullbase_to_leftEye_tip").unwrap();
    let offset = site.offset.transform_point3(Vec3::ZERO);
    assert!(close(offset, Vec3::new(3.90144, 69.69987, 5.85216)), "{offset}");
}

#[test]
fn loading_reports_its_progress_for_both_encodings() {
    // What the window's status bar shows while a big file loads: the parsers report the share of the
    // main file read (each 1/200 of it), then the humanoids are built.
    use std::sync::Arc;

    use hanim_viewer::x3d::{LoadProgress, LoadStage};
    let dir = tempfile::tempdir().unwrap();
    let groups = 40_000;
    let humanoid =
        "<HAnimHumanoid name='h'><HAnimJoint containerField='skeleton' name='humanoid_root'/></HAnimHumanoid>";
    let xml = format!("<X3D version='4.0'><Scene>{}{humanoid}</Scene></X3D>", "<Group/>".repeat(groups));
    let classic = format!(
        "#X3D V4.0 utf8\nPROFILE Immersive\nCOMPONENT HAnim:1\n{}HAnimHumanoid {{ name \"h\" skeleton [ HAnimJoint {{ name \"humanoid_root\" }} ] }}\n",
        "Group { }\n".repeat(groups)
    );
    for (name, text) in [("big.x3d", xml), ("big.x3dv", classic)] {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let progress = Arc::new(LoadProgress::default());
        assert_eq!(progress.describe(), "reading");
        let doc = hanim_viewer::hanim::load_with_progress(&path, Arc::clone(&progress)).unwrap();
        assert_eq!(doc.humanoids.len(), 1, "{name}");
        // A report per 1/200 of the text (the Groups are most of it).
        let expected = (LoadProgress::STEPS * 9 / 10) as u32;
        assert!(progress.updates() >= expected, "{name}: {} reports, expected at least {expected}", progress.updates());
        assert_eq!(progress.stage(), LoadStage::Building);
        assert_eq!(progress.parsed(), 1.0);
        assert_eq!(progress.describe(), "building the humanoids");
    }
    let half = LoadProgress::default();
    half.set_stage(LoadStage::Parsing);
    half.set_parsed(450, 1000);
    assert_eq!(half.describe(), "parsing 45%");
}

#[test]
fn import_and_export_are_statements_not_nodes_in_every_encoding() {
    // Among a Group's children (XML and JSON allow it) and in the Scene: reported, not used, and not
    // nodes, as the classic parser reads them.
    let xml = "<X3D version='4.0'><Scene><Group><Inline DEF='I'/><IMPORT inlineDEF='I' importedDEF='E' AS='L'/>\
               </Group><TimeSensor DEF='T'/><EXPORT localDEF='T'/></Scene></X3D>";
    let json = r#"{"X3D": {"@version": "4.0", "Scene": {"-children": [
        {"Group": {"-children": [{"Inline": {"@DEF": "I"}},
            {"IMPORT": {"@inlineDEF": "I", "@importedDEF": "E", "@AS": "L"}}]}},
        {"TimeSensor": {"@DEF": "T"}}, {"EXPORT": {"@localDEF": "T"}}]}}}"#;
    let classic =
        "#X3D V4.0 utf8\nGroup { children [ DEF I Inline { } ] }\nIMPORT I.E AS L\nDEF T TimeSensor { }\nEXPORT T\n";
    for (text, name) in [(xml, "ie.x3d"), (json, "ie.x3dj"), (classic, "ie.x3dv")] {
        let scene = x3d::load_str(text, Path::new(name), &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let roots: Vec<&str> = scene.roots.iter().map(|&r| scene.node(r).type_name.as_str()).collect();
        assert_eq!(roots, ["Group", "TimeSensor"], "{name}");
        assert!(scene.nodes.iter().all(|n| n.type_name != "IMPORT" && n.type_name != "EXPORT"), "{name}");
        let warnings: Vec<&str> = scene.warnings.iter().map(|w| w.message.as_str()).collect();
        for word in ["IMPORT", "EXPORT"] {
            let message = format!("{word} statements are not supported; ignored");
            assert_eq!(warnings.iter().filter(|w| **w == message).count(), 1, "{name}: {warnings:?}");
        }
    }
}

#[test]
fn an_inlined_files_bindable_nodes_are_not_bound_at_load() {
    // VRML97 4.6.10 (kept by X3D): the nodes of an inlined file are not candidates for the first
    // Viewpoint, NavigationInfo or Background bound at load. A crowd of Inlines of a file whose
    // NavigationInfo turns the headlight off is lit by the headlight unless the crowd's file says otherwise,
    // and it opens at the crowd's own Viewpoint even where that comes after the Inlines.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("figure.x3d"),
        "<X3D version='4.0'><Scene><NavigationInfo headlight='false'/><Background skyColor='1 0 0'/>\
         <Viewpoint description='inner'/><HAnimHumanoid name='h' version='2.0'>\
         <HAnimJoint DEF='r' name='humanoid_root' containerField='skeleton'/>\
         <HAnimJoint USE='r' containerField='joints'/></HAnimHumanoid></Scene></X3D>",
    )
    .unwrap();
    let crowd = |own: &str| {
        let text = format!(
            "<X3D version='4.0'><Scene><Transform translation='-1 0 0'><Inline url='\"figure.x3d\"'/></Transform>\
             <Transform translation='1 0 0'><Inline url='\"figure.x3d\"'/></Transform>{own}</Scene></X3D>"
        );
        hanim::load_str(&text, &dir.path().join("crowd.x3d")).unwrap_or_else(|e| panic!("{e}"))
    };
    let d = crowd("<Viewpoint description='crowd'/>");
    assert_eq!(d.humanoids.len(), 2);
    let labels: Vec<&str> = d.viewpoints.iter().map(|(v, _)| v.description.as_str()).collect();
    assert_eq!(labels, ["inner", "inner", "crowd"], "the inlined Viewpoints are listed");
    assert_eq!(d.initial_viewpoint, Some(2), "the crowd's own Viewpoint is the one bound at load");
    assert!(d.settings.headlight, "the inlined NavigationInfo is not bound");
    assert!(d.settings.background.is_none(), "the inlined Background is not bound");
    // The window's list: the file's own Viewpoint before the computed views, the inlined ones last.
    let views = hanim_viewer::views::humanoid_views(&d, 0);
    let order: Vec<(&str, bool)> = views.iter().map(|v| (v.label.as_str(), v.inlined)).collect();
    assert_eq!(order.first(), Some(&("crowd", false)), "{order:?}");
    assert_eq!(&order[order.len() - 2..], [("inner", true), ("inner", true)], "{order:?}");
    assert!(order[1..order.len() - 2].iter().all(|(_, inlined)| !inlined), "{order:?}");

    let d = crowd("<NavigationInfo headlight='false'/>");
    assert_eq!(d.initial_viewpoint, None, "only inlined Viewpoints: none is bound at load");
    assert!(!d.settings.headlight, "the crowd's own NavigationInfo is bound");

    // The inlined file opened on its own binds its own nodes.
    let alone = hanim::load(&dir.path().join("figure.x3d")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(alone.initial_viewpoint, Some(0));
    assert!(!alone.settings.headlight);
    assert!(alone.settings.background.is_some());
}
