//! The whole VRML97 (ISO/IEC 14772-1 annex A) and ClassicVRML (ISO/IEC 19776-2 annex A) grammar in the
//! loader, and what it reads beyond the grammar (docs/classic-grammar.md): one hand-made fixture per
//! group of productions in `tests/data/classic/`, checked node by node; every COMPONENT spacing; each
//! statement read outside its place with the warning at its line:column; the corpus's classic files; and
//! malformed statements refused with FILE:LINE:COLUMN and what was expected.

mod common;

test_main!(
    head_statements_with_every_component_spacing,
    component_name_colon_level_takes_any_spacing_and_comments,
    route_among_the_nodes_of_a_list_is_read_and_reported,
    statements_among_the_nodes_of_a_list_and_null_statements,
    vrml97_productions_load_without_a_word_of_the_grammar_missing,
    x3d_productions_load_without_a_word_of_the_grammar_missing,
    every_lexical_form_of_the_grammar,
    every_number_form_reads_as_its_value,
    interface_keywords_of_the_other_standard_are_read_and_reported_once,
    import_and_export_inside_a_node_body_are_read_and_reported,
    lower_case_words,
    x3d_head_statements_in_a_vrml97_file_are_read_and_reported,
    the_corpus_classic_files_need_nothing_beyond_the_grammar,
    malformed_statements_give_a_clear_error_at_file_line_column,
    statements_beyond_the_grammar_keep_errors_inside_them_at_their_position,
    an_empty_list_is_a_value_or_a_node_list_as_the_field_is_declared
);

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use glam::Vec3;
use hanim_viewer::hanim;
use hanim_viewer::x3d::{self, LoadOptions, NodeId, Scene};

fn fixture(name: &str) -> PathBuf {
    common::test_data(&format!("classic/{name}"))
}

fn load(name: &str) -> Scene {
    let path = fixture(name);
    x3d::load_file(&path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn load_text(text: &str) -> Result<Scene, x3d::X3dError> {
    x3d::load_str(text, Path::new("inline.x3dv"), &LoadOptions::default())
}

fn def(scene: &Scene, name: &str) -> NodeId {
    *scene.defs.get(name).unwrap_or_else(|| panic!("no DEF {name}"))
}

fn type_of(scene: &Scene, id: NodeId) -> &str {
    &scene.node(id).type_name
}

fn children_types<'a>(scene: &'a Scene, id: NodeId, field: &'a str) -> Vec<&'a str> {
    scene.node(id).children_in(field).map(|c| type_of(scene, c)).collect()
}

/// The ROUTEs as `from.field -> to.field`, nodes named by DEF.
fn routes(scene: &Scene) -> Vec<String> {
    let name = |id: NodeId| scene.node(id).def_name().to_string();
    scene
        .routes
        .iter()
        .map(|r| format!("{}.{} -> {}.{}", name(r.from_node), r.from_field, name(r.to_node), r.to_field))
        .collect()
}

/// The warnings as `line:column message`.
fn warnings(scene: &Scene) -> Vec<String> {
    scene
        .warnings
        .iter()
        .map(|w| format!("{} {}", w.pos.at.map(|a| a.to_string()).unwrap_or_default(), w.message))
        .collect()
}

/// The warnings that say a statement stands where the grammar has no place for it (or belongs to the
/// other standard), as `line:column`.
fn beyond_grammar_at(scene: &Scene) -> Vec<String> {
    scene
        .warnings
        .iter()
        .filter(|w| {
            w.message.contains("outside the grammar")
                || w.message.contains("belongs to the other standard")
                || w.message.contains("is an X3D statement")
                || w.message.contains("is written NULL")
        })
        .map(|w| w.pos.at.map(|a| a.to_string()).unwrap_or_default())
        .collect()
}

fn components(scene: &Scene) -> Vec<(String, i32)> {
    scene.components.iter().map(|c| (c.name.clone(), c.level)).collect()
}

fn close(a: Vec3, b: Vec3) -> bool {
    (a - b).length() < 1e-5
}

fn head_statements_with_every_component_spacing() {
    let scene = load("head_statements.x3dv");
    assert_eq!(scene.version, "4.0");
    assert_eq!(scene.profile, "Immersive");
    let expected = [("HAnim", 1), ("Texturing", 3), ("Shaders", 1), ("Text", 2), ("Grouping", 3), ("Interpolation", 2)];
    assert_eq!(components(&scene), expected.map(|(n, l)| (n.to_string(), l)));
    let units = scene.files[0].units;
    assert_eq!((units.length, units.angle, units.mass, units.force), (0.01, 0.0174532925199433, 1.0, 1.0));
    let meta: Vec<(&str, &str)> = scene.meta.iter().map(|(n, c)| (n.as_str(), c.as_str())).collect();
    assert_eq!(meta, [("title", "head_statements.x3dv"), ("creator", "hand")]);
    assert!(scene.warnings.is_empty(), "{:?}", warnings(&scene));
    // The units reach the humanoid: centimetres to metres, degrees to radians.
    let doc = hanim::build_document(scene).unwrap();
    let h = &doc.humanoids[0];
    assert_eq!(h.joints.iter().map(|j| j.name.as_str()).collect::<Vec<_>>(), ["humanoid_root", "l_hip"]);
    assert!(close(h.joints[1].rest.center, Vec3::new(0.1, 0.9, 0.0)), "{}", h.joints[1].rest.center);
    let (axis, angle) = h.joints[1].rest.rotation.to_axis_angle();
    assert!(close(axis, Vec3::Y) && (angle - std::f32::consts::FRAC_PI_2).abs() < 1e-5, "{axis} {angle}");
}

fn component_name_colon_level_takes_any_spacing_and_comments() {
    for spelling in [
        "HAnim:2",
        "HAnim :2",
        "HAnim: 2",
        "HAnim : 2",
        "HAnim\t:\n2",
        "HAnim # name\n : # colon\n 2",
        "HAnim:+2",
        "HAnim : 0x2",
    ] {
        let text = format!("#X3D V4.0 utf8\nPROFILE Immersive\nCOMPONENT {spelling}\nCOMPONENT Text:1\nGroup {{ }}\n");
        let scene = load_text(&text).unwrap_or_else(|e| panic!("{spelling:?}: {e}"));
        assert_eq!(components(&scene), [("HAnim".to_string(), 2), ("Text".to_string(), 1)], "{spelling:?}");
        assert_eq!(scene.roots.len(), 1, "{spelling:?}");
        assert!(scene.warnings.is_empty(), "{spelling:?}: {:?}", warnings(&scene));
    }
    // A hyphen belongs to the name (X3D 3.0's component was called H-Anim).
    let scene = load_text("#X3D V3.0 utf8\nPROFILE Immersive\nCOMPONENT H-Anim : 1\n").unwrap();
    assert_eq!(components(&scene), [("H-Anim".to_string(), 1)]);
}

fn route_among_the_nodes_of_a_list_is_read_and_reported() {
    let scene = load("route_in_children.x3dv");
    assert_eq!(
        routes(&scene),
        [
            "Clock.fraction_changed -> HipTurn.set_fraction",
            "HipTurn.value_changed -> hanim_l_hip.set_rotation",
            "Clock.fraction_changed -> RootMove.set_fraction",
            "RootMove.value_changed -> hanim_humanoid_root.set_translation",
        ]
    );
    // The two ROUTEs among the nodes of `children` are reported; the two in node bodies are grammar.
    assert_eq!(beyond_grammar_at(&scene), ["14:7", "22:7"], "{:?}", warnings(&scene));
    assert!(warnings(&scene)[0].contains("ROUTE among the nodes of 'children' is outside the grammar"));
    assert!(warnings(&scene)[0].contains("view3dscene stops reading the file here"));
    assert_eq!(scene.warnings.len(), 2, "{:?}", warnings(&scene));
    // Every node after each ROUTE is read, in order, and the field after the ROUTE in l_hip's body too.
    let root = def(&scene, "hanim_humanoid_root");
    assert_eq!(
        children_types(&scene, root, "children"),
        ["TimeSensor", "OrientationInterpolator", "HAnimJoint", "PositionInterpolator"]
    );
    let hip = def(&scene, "hanim_l_hip");
    assert_eq!(scene.sf_vec3f(hip, "center", [0.0; 3]).unwrap(), [0.1, 0.9, 0.0]);
    let doc = hanim::build_document(scene).unwrap();
    let h = &doc.humanoids[0];
    assert_eq!((h.joints.len(), h.segments.len()), (2, 1));
}

fn statements_among_the_nodes_of_a_list_and_null_statements() {
    let scene = load("statements_in_lists.x3dv");
    assert_eq!(beyond_grammar_at(&scene), ["8:5", "10:5", "11:5", "13:5", "14:5", "18:1"], "{:?}", warnings(&scene));
    let all = warnings(&scene).join("\n");
    for word in
        ["PROTO among", "EXTERNPROTO among", "EXPORT among", "IMPORT among", "NULL among", "NULL as a statement"]
    {
        assert!(all.contains(word), "{word}: {all}");
    }
    // The PROTO declared in the list serves the nodes after it, in the list and outside.
    let root = def(&scene, "Root");
    assert_eq!(children_types(&scene, root, "children"), ["Shape", "Shape", "Inline", "Shape"]);
    let small = def(&scene, "Small");
    let big = def(&scene, "Big");
    for (instance, size) in [(small, 0.5), (big, 2.0)] {
        assert_eq!(scene.node(instance).proto.as_deref(), Some("Boxy"));
        let shape_box = scene.node(instance).children_in("geometry").next().unwrap();
        assert_eq!(type_of(&scene, shape_box), "Box");
        assert_eq!(scene.sf_vec3f(shape_box, "size", [0.0; 3]).unwrap(), [size; 3]);
    }
    assert_eq!(scene.roots, [root, big], "NULL adds no root");
    // The EXTERNPROTO, IMPORT and EXPORT are read (and reported as such).
    assert!(all.contains("EXTERNPROTO 'Far' is not available locally"), "{all}");
    assert!(all.contains("IMPORT statements are not supported") && all.contains("EXPORT statements are not supported"));
}

fn vrml97_productions_load_without_a_word_of_the_grammar_missing() {
    let scene = load("vrml97_statements.wrl");
    assert_eq!(scene.version, "VRML97");
    assert_eq!(scene.encoding, x3d::Encoding::Classic);
    // Only the absent EXTERNPROTO library is reported (its url, then the fallback).
    let all = warnings(&scene);
    assert_eq!(all.len(), 2, "{all:?}");
    assert!(all.iter().all(|w| w.starts_with("38:1 EXTERNPROTO 'Site'")), "{all:?}");
    assert!(all[1].contains("is not available locally"), "{all:?}");
    // The ROUTE inside Spinner's PROTO body is copied for its instance; the ROUTE in Stage's body and
    // the top-level ones follow.
    assert_eq!(
        routes(&scene),
        [
            "Turner.rotation_changed -> Spin.set_rotation",
            "Clock.cycleTime -> Clock.set_startTime",
            "Clock.fraction_changed -> Turn.set_fraction",
            "Turn.value_changed -> hanim_l_hip.set_rotation",
        ]
    );
    // The PROTO declared inside Stage's body, the field after a comment, the Script's declarations.
    let stage = def(&scene, "Stage");
    assert_eq!(scene.sf_vec3f(stage, "translation", [9.0; 3]).unwrap(), [0.0, -1.0, 0.0]);
    let marker = def(&scene, "M");
    assert_eq!(type_of(&scene, marker), "Transform");
    assert_eq!(scene.sf_vec3f(marker, "translation", [9.0; 3]).unwrap(), [1.0, 2.0, 3.0]);
    let spin = def(&scene, "Spin");
    assert_eq!((type_of(&scene, spin), scene.node(spin).proto.as_deref()), ("Transform", Some("Spinner")));
    assert_eq!(scene.routes[0].to_node, spin, "the ROUTE reaches the instance's own copy of T");
    let turner = scene.routes[0].from_node;
    assert_eq!(type_of(&scene, turner), "Script");
    assert_eq!(scene.node(turner).is_connections.len(), 0, "IS resolved at expansion");
    assert_eq!(scene.string(turner, "gain"), Some("1.5"));
    let target = scene.node(turner).children_in("target").next().unwrap();
    assert_eq!(target, scene.routes[0].to_node, "USE T inside the PROTO body is that body's T");
    let doc = hanim::build_document(scene).unwrap();
    let h = &doc.humanoids[0];
    assert_eq!(h.name, "ninety_seven");
    assert_eq!(h.joints.iter().map(|j| j.name.as_str()).collect::<Vec<_>>(), ["HumanoidRoot", "l_hip"]);
    assert!(close(h.joints[1].rest.center, Vec3::new(0.1, 0.9, 0.0)));
}

fn x3d_productions_load_without_a_word_of_the_grammar_missing() {
    let scene = load("x3d_statements.x3dv");
    assert_eq!(scene.version, "3.3");
    assert_eq!(components(&scene), [("HAnim".to_string(), 1), ("Shaders".to_string(), 1)]);
    assert!(beyond_grammar_at(&scene).is_empty(), "{:?}", warnings(&scene));
    let all = warnings(&scene).join("\n");
    assert!(all.contains("EXTERNPROTO 'Gadget' is not available locally"), "{all}");
    assert_eq!(all.matches("IMPORT statements are not supported").count(), 2, "{all}");
    assert_eq!(all.matches("EXPORT statements are not supported").count(), 2, "{all}");
    // The ComposedShader's own fields, the ROUTE to one of them, and NULL for a node field.
    let glow = def(&scene, "Glow");
    assert_eq!(scene.string(glow, "intensity"), Some("0.5"));
    assert_eq!(scene.string(glow, "tint"), Some("1 0.5 0"));
    assert_eq!(children_types(&scene, glow, "parts"), ["ShaderPart"]);
    let look = def(&scene, "Look");
    let appearance = scene.node(look).children_in("appearance").next().unwrap();
    assert_eq!(scene.node(appearance).children_in("material").count(), 0);
    assert_eq!(
        routes(&scene),
        ["LimbScript.touched -> LimbScript.set_active", "Pulse.fraction_changed -> Glow.set_level"]
    );
    let script = scene.routes[0].from_node;
    assert_eq!(scene.string(script, "active"), Some("TRUE"));
    // The humanoid's second joint is a PROTO instance whose body is an HAnimJoint with IS fields.
    let doc = hanim::build_document(scene).unwrap();
    let h = &doc.humanoids[0];
    assert_eq!(h.joints.iter().map(|j| j.name.as_str()).collect::<Vec<_>>(), ["humanoid_root", "l_hip"]);
    assert!(close(h.joints[1].rest.center, Vec3::new(0.1, 0.9, 0.0)));
}

fn every_lexical_form_of_the_grammar() {
    let scene = load("lexical.x3dv");
    assert!(scene.warnings.is_empty(), "{:?}", warnings(&scene));
    let arm = def(&scene, "left-arm+1");
    assert_eq!(scene.sf_vec3f(arm, "translation", [9.0; 3]).unwrap(), [1.0, -0.5, 1.0]);
    assert_eq!(scene.sf_vec3f(arm, "scale", [9.0; 3]).unwrap(), [1.0, 1.0, 5.0]);
    assert_eq!(scene.sf_rotation(arm, "rotation", [9.0; 4]).unwrap(), [0.0, 1.0, 0.0, -1.5]);
    let tile = def(&scene, "Tile");
    let appearance = scene.node(tile).children_in("appearance").next().unwrap();
    let texture = scene.node(appearance).children_in("texture").next().unwrap();
    let image: Vec<&str> = scene.string(texture, "image").unwrap().split_whitespace().collect();
    assert_eq!(image, ["2", "1", "4", "0xFF0000FF", "0X00ff00FF"]);
    let faces = scene.node(tile).children_in("geometry").next().unwrap();
    assert_eq!(scene.mf_int32(faces, "coordIndex").unwrap(), [0, 1, 2, -1]);
    let coord = scene.node(faces).children_in("coord").next().unwrap();
    assert_eq!(scene.mf_vec3f(coord, "point").unwrap(), [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]);
    assert_eq!(scene.sf_int32(def(&scene, "Pick"), "whichChoice", -1).unwrap(), 1);
    let info = def(&scene, "Info");
    assert_eq!(scene.string(info, "title"), Some(r#"a "quoted" word, a backslash \ and a # that is no comment"#));
    // A backslash before another character than '"' or '\' is kept, as X_ITE and view3dscene keep it.
    assert_eq!(scene.mf_string(info, "info").unwrap(), [r"C:\models\arm.x3dv", r"two\\ backslashes", "new\nline"]);
    let seq = def(&scene, "Seq");
    assert_eq!(scene.parse_field(seq, "keyValue", x3d::fields::parse_mf_bool).unwrap(), Some(vec![true, false, true]));
    assert!(!scene.sf_bool(def(&scene, "Flag"), "enabled", true).unwrap());
}

fn every_number_form_reads_as_its_value() {
    for (written, value) in [
        ("+1", 1.0),
        ("-.5", -0.5),
        ("1.", 1.0),
        ("1e5", 1e5),
        ("1E-5", 1e-5),
        (".5e+3", 500.0),
        ("-0", 0.0),
        ("0.25", 0.25),
    ] {
        let text = format!("#X3D V4.0 utf8\nDEF T Transform {{ translation {written},0,0 }}\n");
        let scene = load_text(&text).unwrap_or_else(|e| panic!("{written}: {e}"));
        assert_eq!(scene.sf_vec3f(def(&scene, "T"), "translation", [9.0; 3]).unwrap(), [value, 0.0, 0.0], "{written}");
    }
    let scene = load_text("#X3D V4.0 utf8\nDEF F IndexedFaceSet { coordIndex [ 0x1F 0X1f -0x1 +7 ] }\n").unwrap();
    assert_eq!(scene.mf_int32(def(&scene, "F"), "coordIndex").unwrap(), [31, 31, -1, 7]);
    let scene = load_text("#X3D V4.0 utf8\nDEF S Switch { whichChoice 0X0 }\n").unwrap();
    assert_eq!(scene.sf_int32(def(&scene, "S"), "whichChoice", -1).unwrap(), 0);
}

fn interface_keywords_of_the_other_standard_are_read_and_reported_once() {
    for (file, first_at, keyword) in
        [("keywords_crossed.x3dv", "4:14", "'field'"), ("keywords_crossed.wrl", "3:14", "'initializeOnly'")]
    {
        let scene = load(file);
        assert_eq!(beyond_grammar_at(&scene), [first_at], "{file}: {:?}", warnings(&scene));
        assert!(warnings(&scene)[0].contains(keyword), "{file}: {:?}", warnings(&scene));
        assert_eq!(scene.warnings.len(), 1, "{file}: {:?}", warnings(&scene));
        let ball = def(&scene, "B");
        assert_eq!(type_of(&scene, ball), "Shape");
        let sphere = scene.node(ball).children_in("geometry").next().unwrap();
        assert_eq!(scene.sf_float(sphere, "radius", 0.0).unwrap(), 2.0, "{file}");
        assert_eq!(scene.string(def(&scene, "S"), "scale"), Some("2"), "{file}");
    }
}

fn import_and_export_inside_a_node_body_are_read_and_reported() {
    let scene = load("import_export_in_body.x3dv");
    assert_eq!(beyond_grammar_at(&scene), ["7:3", "9:3"], "{:?}", warnings(&scene));
    assert!(warnings(&scene)[0].contains("IMPORT inside the body of 'Group'"), "{:?}", warnings(&scene));
    let group = def(&scene, "G");
    assert_eq!(children_types(&scene, group, "children"), ["Shape"]);
}

fn lower_case_words() {
    // true/false: both players read them, so no warning.
    let scene =
        load_text("#X3D V4.0 utf8\nDEF C Collision { enabled false }\nDEF S Shape { geometry Box { solid true } }\n")
            .unwrap();
    assert!(scene.warnings.is_empty(), "{:?}", warnings(&scene));
    assert!(!scene.sf_bool(def(&scene, "C"), "enabled", true).unwrap());
    // null: X_ITE reads it, view3dscene stops; read as NULL and reported.
    let scene = load("lower_case_null.x3dv");
    assert_eq!(beyond_grammar_at(&scene), ["4:26"], "{:?}", warnings(&scene));
    let shape = def(&scene, "S");
    assert_eq!(scene.node(shape).children_in("appearance").count(), 0);
    assert_eq!(children_types(&scene, shape, "geometry"), ["Box"]);
    assert_eq!(scene.roots.len(), 2);
    // A PROTO named `null` keeps its instances, at the top level and in a list.
    let scene = load_text(
        "#X3D V4.0 utf8\nPROTO null [ ] { Group { } }\nDEF N null { }\nDEF G Group { children [ null { } ] }\n",
    )
    .unwrap();
    assert!(scene.warnings.is_empty(), "{:?}", warnings(&scene));
    assert_eq!(type_of(&scene, def(&scene, "N")), "Group");
    assert_eq!(children_types(&scene, def(&scene, "G"), "children"), ["Group"]);
}

fn x3d_head_statements_in_a_vrml97_file_are_read_and_reported() {
    let scene = load("vrml97_head_statements.wrl");
    assert_eq!(beyond_grammar_at(&scene), ["3:1", "4:1", "5:1"], "{:?}", warnings(&scene));
    assert_eq!(scene.version, "VRML97");
    assert_eq!(scene.profile, "Immersive");
    assert_eq!(components(&scene), [("HAnim".to_string(), 1)]);
    assert_eq!(scene.roots.len(), 1);
}

fn the_corpus_classic_files_need_nothing_beyond_the_grammar() {
    // (file, header version, PROFILE, COMPONENTs, META count)
    type Head = (&'static str, &'static str, &'static str, &'static [(&'static str, i32)], usize);
    const HEADS: &[Head] = &[
        ("JoeHAnimKick1a.x3dv", "3.0", "Immersive", &[("H-Anim", 1)], 1),
        ("JointCoordinateAxes.x3dv", "4.0", "Immersive", &[("Texturing", 3), ("Text", 1)], 0),
        ("hanim_transforms.x3dv", "3.2", "Interchange", &[], 0),
        ("nancy_h-anim.wrl", "VRML97", "", &[], 0),
        ("SphereMan_1.1.wrl", "VRML97", "", &[], 0),
        ("dork-proto.wrl", "VRML97", "", &[], 0),
    ];
    let dir = common::corpus_folder("vrml");
    let mut seen = BTreeSet::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !x3d::is_supported_path(&path) || name.ends_with(".x3d") {
            continue;
        }
        let (_, version, profile, comps, metas) =
            HEADS.iter().find(|h| h.0 == name).unwrap_or_else(|| panic!("{name} has no expectation here"));
        let scene = x3d::load_file(&path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(scene.encoding, x3d::Encoding::Classic, "{name}");
        assert_eq!((scene.version.as_str(), scene.profile.as_str()), (*version, *profile), "{name}");
        let expected: Vec<(String, i32)> = comps.iter().map(|(n, l)| (n.to_string(), *l)).collect();
        assert_eq!(components(&scene), expected, "{name}");
        assert_eq!(scene.meta.len(), *metas, "{name}");
        assert!(beyond_grammar_at(&scene).is_empty(), "{name}: {:?}", warnings(&scene));
        seen.insert(name);
    }
    let absent: BTreeSet<String> =
        common::corpus_missing("vrml").iter().map(|f| f.trim_start_matches("vrml/").to_string()).collect();
    let listed: BTreeSet<String> = HEADS.iter().map(|h| h.0.to_string()).collect();
    assert_eq!(&seen | &(&listed & &absent), listed, "every classic corpus file is checked");
}

/// (file under tests/data/classic/bad, line:column, words the message must contain)
const BAD: &[(&str, &str, &[&str])] = &[
    ("component_without_level.x3dv", "4:1", &["expected ':' and the support level after 'COMPONENT HAnim'"]),
    ("component_without_name.x3dv", "3:11", &["COMPONENT ':1'", "expected a component name before ':'"]),
    ("component_level_missing.x3dv", "4:1", &["expected the support level", "'COMPONENT HAnim:'", "end of the file"]),
    ("component_level_not_integer.x3dv", "3:11", &["COMPONENT 'HAnim:one'", "must be an integer"]),
    ("unit_before_component.x3dv", "4:1", &["COMPONENT after UNIT", "PROFILE (once), COMPONENT, UNIT, META"]),
    ("component_after_nodes.x3dv", "4:1", &["COMPONENT after the scene's first node or statement"]),
    ("profile_twice.x3dv", "3:1", &["PROFILE after PROFILE"]),
    ("meta_in_proto_body.x3dv", "3:3", &["META is only allowed at the top of the file"]),
    ("declaration_in_transform.x3dv", "4:3", &["field declaration ('initializeOnly') in 'Transform'", "Script"]),
    ("declaration_in_instance.wrl", "3:5", &["field declaration ('field') in an instance of PROTO 'P'"]),
    ("route_in_list_without_to.x3dv", "4:28", &["expected TO after 'ROUTE A.fraction_changed'", "found 'A'"]),
    ("proto_in_list_without_body.x3dv", "4:3", &["expected '{' (the body) after the interface of PROTO 'P'"]),
    ("import_without_period.x3dv", "3:10", &["expected '.' between the Inline name and the exported name"]),
    ("export_as_without_name.x3dv", "4:1", &["expected a name after AS", "end of the file"]),
    ("script_unknown_type.x3dv", "3:13", &["unknown field type 'SFVec5f'"]),
    ("script_is_outside_proto.x3dv", "3:33", &["'set_touch IS touch' outside a PROTO body"]),
    ("exponent_without_digits.x3dv", "2:29", &["malformed number '3e+'"]),
    ("hex_with_fraction.x3dv", "2:22", &["malformed number '0x1.5'"]),
    ("name_starts_with_digit.x3dv", "2:5", &["malformed number '3arm'", "a name cannot start with a digit"]),
    ("image_short_of_pixels.x3dv", "2:57", &["SFImage value in field 'image'", "2 x 2 = 4 pixels, found 2"]),
    ("null_in_list_then_value.x3dv", "2:25", &["expected a node", "in 'children'", "found number '1'"]),
    ("header_vrml_v1.wrl", "1:1", &["VRML 1.0 files are not supported"]),
    ("string_not_closed.x3dv", "2:19", &["string is not closed"]),
];

fn malformed_statements_give_a_clear_error_at_file_line_column() {
    let dir = fixture("bad");
    let mut failures = Vec::new();
    for (file, at, words) in BAD {
        let path = dir.join(file);
        let message = match x3d::load_file(&path, &LoadOptions::default()) {
            Ok(_) => {
                failures.push(format!("{file}: loaded without an error"));
                continue;
            }
            Err(e) => e.to_string(),
        };
        let prefix = format!("{}:{at}: ", path.display());
        if !message.starts_with(&prefix) {
            failures.push(format!("{file}: expected position '{prefix}' in: {message}"));
        }
        for w in *words {
            if !message.contains(w) {
                failures.push(format!("{file}: '{w}' missing from: {message}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let listed: BTreeSet<&str> = BAD.iter().map(|(f, ..)| *f).collect();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(listed.contains(name.as_str()), "{name} in {} has no expectation here", dir.display());
    }
}

fn statements_beyond_the_grammar_keep_errors_inside_them_at_their_position() {
    // An unknown DEF in a ROUTE among list nodes is reported like any ROUTE's, after the placement.
    let scene = load_text("#X3D V4.0 utf8\nGroup { children [ ROUTE A.b TO C.d ] }\n").unwrap();
    let all = warnings(&scene);
    assert_eq!(all.len(), 2, "{all:?}");
    assert!(all[0].starts_with("2:20 ROUTE among the nodes of 'children'"), "{all:?}");
    assert!(all[1].starts_with("2:20 ROUTE refers to unknown DEF 'A'"), "{all:?}");
    // A PROTO among list nodes whose body is not closed: the list's ']' is inside the body.
    let e = load_text("#X3D V4.0 utf8\nGroup { children [\n PROTO P [ ] { Group { }\n] }\n").unwrap_err();
    assert!(e.to_string().contains(":4:1: expected a node (a node type, DEF or USE), found ']'"), "{e}");
    let e = load_text("#X3D V4.0 utf8\nGroup { children [\n PROTO P [ ] { Group { }").unwrap_err();
    assert!(e.to_string().contains(":3:25: unexpected end of file: PROTO body '{' opened at 3:14"), "{e}");
}

fn an_empty_list_is_a_value_or_a_node_list_as_the_field_is_declared() {
    // `color [ ]`: Color's `color` is an MFColor (an empty value, kept), IndexedFaceSet's holds a node.
    let scene = load_text(
        "#X3D V4.0 utf8\nShape { geometry DEF F IndexedFaceSet { coordIndex [ ] color DEF C Color { color [ ] } } }\n\
         DEF G Group { children [ ] }",
    )
    .expect("loads");
    let colour = scene.node(def(&scene, "C"));
    assert_eq!(colour.fields.iter().find(|f| f.name == "color").map(|f| f.value.as_str()), Some(""));
    assert_eq!(children_types(&scene, def(&scene, "F"), "color"), vec!["Color"]);
    let face_set = scene.node(def(&scene, "F"));
    assert_eq!(face_set.fields.iter().find(|f| f.name == "coordIndex").map(|f| f.value.as_str()), Some(""));
    assert!(children_types(&scene, def(&scene, "G"), "children").is_empty());
}
