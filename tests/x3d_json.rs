//! X3D JSON (ISO/IEC 19776-5) loads into the same scene as X3D XML: the JSON twins of XML fixtures and
//! X_ITE's JSON writing of corpus humanoids (tests/data/json/, see its README) give the same nodes, DEF
//! names, field values, children and ROUTEs as their XML, and the same H-Anim model; errors (JSON syntax,
//! bad values, deep nesting, a missing root, USE before DEF) carry the JSON file's line:column.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use glam::Mat4;
use hanim_viewer::animation::{Animations, SampleOptions};
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::pose::{self, Pose};
use hanim_viewer::x3d::{self, Encoding, LoadOptions, NodeId, Scene, fields};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

fn json(name: &str) -> PathBuf {
    data("json").join(name)
}

fn load_scene(path: &Path) -> Scene {
    x3d::load_file(path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn load_doc(path: &Path) -> Document {
    hanim::load(path).unwrap_or_else(|e| panic!("{e}"))
}

/// The error of loading `text` as `name`.
fn json_error(name: &str, text: &str) -> String {
    x3d::load_str(text, Path::new(name), &LoadOptions::default()).map(|_| ()).unwrap_err().to_string()
}

/// Whether two field texts hold the same value: the same text, the same strings of an MFString, or the
/// same tokens with numbers compared as numbers (`1.50` and `1.5`, `-2e-1` and `-0.2`).
fn same_value(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    if a.trim_start().starts_with('"') || b.trim_start().starts_with('"') {
        return matches!((fields::parse_mf_string(a), fields::parse_mf_string(b)), (Ok(x), Ok(y)) if x == y);
    }
    let (ta, tb): (Vec<_>, Vec<_>) = (fields::tokens(a).collect(), fields::tokens(b).collect());
    ta.len() == tb.len()
        && ta.iter().zip(&tb).all(|((_, x), (_, y))| match (x.parse::<f64>(), y.parse::<f64>()) {
            (Ok(p), Ok(q)) => (p - q).abs() <= 1e-9 * p.abs().max(q.abs()).max(1.0),
            _ => x == y,
        })
}

/// Asserts that two scenes hold the same graph: from the roots, node for node, the same types, DEF
/// names, prototypes, fields (compared by [`same_value`]) and children in each field, shared nodes
/// shared alike; then the same ROUTEs between corresponding nodes.
fn assert_same_scene(a: &Scene, b: &Scene, what: &str) {
    assert_same_scene_but(a, b, what, |_| false, "");
}

/// [`assert_same_scene`], where a field that only `b` has is allowed when `b_only_allowed` says so, and
/// the values of nodes of type `free_values` are not compared.
fn assert_same_scene_but(
    a: &Scene,
    b: &Scene,
    what: &str,
    b_only_allowed: impl Fn(&x3d::Field) -> bool,
    free_values: &str,
) {
    assert_eq!(a.roots.len(), b.roots.len(), "{what}: roots");
    let mut pairs: HashMap<NodeId, NodeId> = HashMap::new();
    let mut stack: Vec<(NodeId, NodeId, String)> =
        a.roots.iter().zip(&b.roots).map(|(x, y)| (*x, *y, "Scene".to_string())).collect();
    while let Some((x, y, path)) = stack.pop() {
        if let Some(seen) = pairs.get(&x) {
            assert_eq!(*seen, y, "{what}: {path}: a node shared in one scene is not shared alike in the other");
            continue;
        }
        pairs.insert(x, y);
        let (nx, ny) = (a.node(x), b.node(y));
        let path =
            format!("{path} > {}{}", nx.type_name, nx.def.as_ref().map(|d| format!(" '{d}'")).unwrap_or_default());
        assert_eq!(nx.type_name, ny.type_name, "{what}: {path}");
        assert_eq!(nx.def, ny.def, "{what}: {path}");
        assert_eq!(nx.proto, ny.proto, "{what}: {path}");
        let names = |n: &x3d::Node, other: &x3d::Node| {
            let mut v: Vec<String> = n
                .fields
                .iter()
                .filter(|f| other.field(&f.name).is_some() || !b_only_allowed(f))
                .map(|f| f.name.clone())
                .collect();
            v.sort();
            v
        };
        assert_eq!(names(nx, ny), names(ny, nx), "{what}: {path}: field names");
        for f in nx.fields.iter().filter(|_| nx.type_name != free_values) {
            let Some(g) = ny.field(&f.name) else { continue };
            assert!(same_value(&f.value, &g.value), "{what}: {path}.{}: '{}' vs '{}'", f.name, f.value, g.value);
        }
        let by_field = |n: &x3d::Node| {
            let mut m: HashMap<String, Vec<NodeId>> = HashMap::new();
            for c in &n.children {
                m.entry(c.field.clone()).or_default().push(c.node);
            }
            m
        };
        let (cx, cy) = (by_field(nx), by_field(ny));
        let mut keys: Vec<&String> = cx.keys().collect();
        keys.sort();
        let mut other: Vec<&String> = cy.keys().collect();
        other.sort();
        assert_eq!(keys, other, "{what}: {path}: fields holding nodes");
        for key in keys {
            assert_eq!(cx[key].len(), cy[key].len(), "{what}: {path}.{key}: node count");
            for (p, q) in cx[key].iter().zip(&cy[key]) {
                stack.push((*p, *q, format!("{path}.{key}")));
            }
        }
    }
    assert_eq!(a.routes.len(), b.routes.len(), "{what}: ROUTEs");
    for (r, s) in a.routes.iter().zip(&b.routes) {
        assert_eq!(pairs.get(&r.from_node), Some(&s.from_node), "{what}: ROUTE from {}", r.from_field);
        assert_eq!(pairs.get(&r.to_node), Some(&s.to_node), "{what}: ROUTE to {}", r.to_field);
        // `set_weight` and `weight` name the same inputOutput field.
        let plain = |f: &str| {
            let f = f.strip_prefix("set_").unwrap_or(f);
            f.strip_suffix("_changed").unwrap_or(f).to_string()
        };
        assert_eq!(
            (plain(&r.from_field), plain(&r.to_field)),
            (plain(&s.from_field), plain(&s.to_field)),
            "{what}: ROUTE fields"
        );
    }
}

fn close(a: Mat4, b: Mat4) -> bool {
    a.abs_diff_eq(b, 1e-5)
}

/// Asserts that two documents hold the same H-Anim model: humanoids, joints, segments, sites and
/// displacers by name with the same fields, the same skin, the same joint matrices and deformed skin at
/// rest, and the same poses sampled from their clips over time.
fn assert_same_model(a: &Document, b: &Document, what: &str) {
    assert_eq!(a.humanoids.len(), b.humanoids.len(), "{what}: humanoids");
    for (h, k) in a.humanoids.iter().zip(&b.humanoids) {
        assert_eq!((&h.name, &h.version, h.loa, &h.info), (&k.name, &k.version, k.loa, &k.info), "{what}");
        let joints = |h: &hanim::Humanoid| -> Vec<_> {
            h.joints
                .iter()
                .map(|j| {
                    (
                        j.name.clone(),
                        j.parent,
                        j.skin_coord_index.clone(),
                        j.skin_coord_weight.clone(),
                        j.llimit.clone(),
                    )
                })
                .collect()
        };
        assert_eq!(joints(h), joints(k), "{what}: joints");
        let segments = |h: &hanim::Humanoid| -> Vec<_> {
            h.segments.iter().map(|s| (s.name.clone(), s.joint, s.mass, s.coord_points.clone())).collect()
        };
        assert_eq!(segments(h), segments(k), "{what}: segments");
        let sites =
            |h: &hanim::Humanoid| -> Vec<_> { h.sites.iter().map(|s| (s.name.clone(), s.in_viewpoints)).collect() };
        assert_eq!(sites(h), sites(k), "{what}: sites");
        for (s, t) in h.sites.iter().zip(&k.sites) {
            assert!(close(s.offset, t.offset), "{what}: site {}", s.name);
        }
        let displacers = |h: &hanim::Humanoid| -> Vec<_> {
            h.displacers
                .iter()
                .map(|d| (d.name.clone(), d.coord_index.clone(), d.displacements.clone(), d.weight))
                .collect()
        };
        assert_eq!(displacers(h), displacers(k), "{what}: displacers");
        assert_eq!(h.skin.as_ref().map(|s| &s.points), k.skin.as_ref().map(|s| &s.points), "{what}: skin points");
        assert_eq!(h.motions.len(), k.motions.len(), "{what}: motions");
        let (p, q) = (Pose::rest(h), Pose::rest(k));
        let (gp, gq) = (pose::humanoid_from_joint(h, &p), pose::humanoid_from_joint(k, &q));
        for ((m, n), j) in gp.iter().zip(&gq).zip(&h.joints) {
            assert!(close(*m, *n), "{what}: joint {} at rest", j.name);
        }
        assert!(close(h.world_from_humanoid(), k.world_from_humanoid()), "{what}: humanoid placement");
        let (sp, sq) = (pose::deform_skin(h, &p), pose::deform_skin(k, &q));
        assert_eq!(sp.is_some(), sq.is_some(), "{what}: skin");
        if let (Some(sp), Some(sq)) = (sp, sq) {
            for (u, v) in sp.points.iter().zip(&sq.points) {
                assert!(u.abs_diff_eq(*v, 1e-5), "{what}: deformed skin {u} vs {v}");
            }
        }
    }
    assert_eq!(a.viewpoints.len(), b.viewpoints.len(), "{what}: viewpoints");
    let (ca, cb) = (Animations::from_document(a), Animations::from_document(b));
    assert_eq!(ca.clips.len(), cb.clips.len(), "{what}: clips");
    for tau in [0.0, 0.37, 1.1, 2.9] {
        let (pa, pb) = (ca.sample(a, tau, &SampleOptions::default()), cb.sample(b, tau, &SampleOptions::default()));
        for ((p, q), h) in pa.iter().zip(&pb).zip(&a.humanoids) {
            for ((r, s), j) in p.rotations.iter().zip(&q.rotations).zip(&h.joints) {
                assert!(r.abs_diff_eq(*s, 1e-5), "{what}: {} at {tau} s: {r} vs {s}", j.name);
            }
        }
    }
}

/// A JSON fixture and its XML twin load to the same scene and the same model.
fn assert_twins(json_file: &Path, xml_file: &Path) {
    let what = json_file.file_name().unwrap().to_string_lossy().into_owned();
    let (j, x) = (load_scene(json_file), load_scene(xml_file));
    assert_eq!(j.encoding, Encoding::Json, "{what}");
    assert_eq!((&j.version, &j.profile), (&x.version, &x.profile), "{what}");
    let components = |s: &Scene| s.components.iter().map(|c| (c.name.clone(), c.level)).collect::<Vec<_>>();
    assert_eq!(components(&j), components(&x), "{what}");
    assert_same_scene(&j, &x, &what);
    let warnings = |s: &Scene| s.warnings.iter().map(|w| w.message.clone()).collect::<Vec<_>>();
    assert_eq!(warnings(&j), warnings(&x), "{what}: warnings");
    assert_same_model(&load_doc(json_file), &load_doc(xml_file), &what);
}

#[test]
fn a_segmented_humanoid_with_def_use_loads_as_its_xml_twin() {
    assert_twins(&json("segmented.x3dj"), &json("segmented.x3d"));
    let doc = load_doc(&json("segmented.x3dj"));
    let h = &doc.humanoids[0];
    assert_eq!(h.joints.iter().map(|j| j.name.as_str()).collect::<Vec<_>>(), ["humanoid_root", "l_hip"]);
    assert_eq!(h.info[1], ("copyright".to_string(), "none, \"quoted\"".to_string()));
    // The Shape USEd in the thigh is the pelvis's node, shared.
    let scene = &doc.scene;
    let pelvis_shape = scene.defs["PelvisShape"];
    let holders = scene.nodes.iter().filter(|n| n.children.iter().any(|c| c.node == pelvis_shape)).count();
    assert_eq!(holders, 2);
    // The Script's node field holds the USEd segment; its source and comments are not part of the scene.
    let script = scene.node(scene.defs["Note"]);
    assert_eq!(script.children_in("target").collect::<Vec<_>>(), [scene.defs["hanim_pelvis"]]);
    assert_eq!(scene.mf_string(scene.defs["Note"], "labels").unwrap(), ["a", "b c"]);
}

#[test]
fn prototypes_and_instances_load_as_their_xml_twin() {
    assert_twins(&json("proto_humanoid.x3dj"), &data("proto_humanoid.x3d"));
    let h = &load_doc(&json("proto_humanoid.x3dj")).humanoids[0];
    assert_eq!(h.joints.len(), 3);
    assert_eq!(h.sites[0].name, "l_knee_pt");
}

#[test]
fn a_skinned_humanoid_with_displacers_loads_as_its_xml_twin() {
    assert_twins(&json("cpu_displacer.x3dj"), &data("cpu_displacer.x3d"));
    // The deformation the XML fixture documents: p0' = (0 2.1 0).
    let doc = load_doc(&json("cpu_displacer.x3dj"));
    let h = &doc.humanoids[0];
    let skin = pose::deform_skin(h, &Pose::rest(h)).unwrap();
    assert!(skin.points[0].abs_diff_eq(glam::Vec3::new(0.0, 2.1, 0.0), 1e-5), "{}", skin.points[0]);
}

#[test]
fn routes_time_sensors_and_interpolators_load_as_their_xml_twin() {
    assert_twins(&json("events_two_clips.x3dj"), &data("events_two_clips.x3d"));
    assert_eq!(load_scene(&json("events_two_clips.x3dj")).routes.len(), 8);
}

#[test]
fn routes_through_prototype_interfaces_load_as_their_xml_twin() {
    // proto_events: the ROUTEs naming instance interface fields (an `IS` in a nested ProtoInstance among
    // them) become the same 8 ROUTEs between body nodes as in XML (see tests/data/proto_events.x3d).
    assert_twins(&json("proto_events.x3dj"), &data("proto_events.x3d"));
    assert_eq!(load_scene(&json("proto_events.x3dj")).routes.len(), 8);
}

#[test]
fn units_apply_as_in_xml() {
    assert_twins(&json("keys_units.x3dj"), &data("keys_units.x3d"));
    let scene = load_scene(&json("keys_units.x3dj"));
    assert_eq!(scene.files[0].units.length, 0.01);
    let h = &load_doc(&json("keys_units.x3dj")).humanoids[0];
    assert!(h.joints[0].rest.center.abs_diff_eq(glam::Vec3::new(0.0, 0.9, 0.0), 1e-6));
}

#[test]
fn inlines_cross_encodings_both_ways() {
    // A JSON file Inlining an XML one.
    let doc = load_doc(&json("inline_outer.x3dj"));
    assert_eq!(doc.humanoids.len(), 1, "{:?}", doc.warnings);
    assert!(doc.humanoids[0].world_from_parent.abs_diff_eq(Mat4::from_translation(glam::Vec3::X * 2.0), 1e-6));
    assert!(doc.warnings.iter().any(|w| w.message.contains("remote URLs are never fetched")));
    // An XML file Inlining a JSON one: its UNIT statements apply to its own nodes.
    let doc = load_doc(&json("inline_of_json.x3d"));
    assert_eq!(doc.humanoids.len(), 1, "{:?}", doc.warnings);
    let h = &doc.humanoids[0];
    assert_eq!(h.name, "units");
    assert!(h.joints[0].rest.center.abs_diff_eq(glam::Vec3::new(0.0, 0.9, 0.0), 1e-6));
    assert_eq!(doc.scene.files[1].units.length, 0.01);
}

/// X_ITE's JSON writing of corpus files (tests/data/json/README.md), compressed or not.
const CONVERTED: &[(&str, &str)] = &[
    ("DiamondManLOA0.x3dj", "x3d/DiamondManLOA0.x3d"),
    ("JoeKick.x3dj.gz", "x3d/JoeKick.x3d"),
    ("JoeSkinTexcoordDisplacerKick.x3dj.gz", "x3d/JoeSkinTexcoordDisplacerKick.x3d"),
    ("BvhSeamless3dExport1.x3dj.gz", "x3d/BvhSeamless3dExport1.x3d"),
];

/// `scene` without the fields that ROUTEs write: X_ITE writes a scene as it holds it while its sensors
/// run, so those hold whatever value the animation had reached.
fn without_routed_fields(mut scene: Scene) -> Scene {
    for route in scene.routes.clone() {
        let field = route.to_field.strip_prefix("set_").unwrap_or(&route.to_field);
        let field = field.strip_suffix("_changed").unwrap_or(field).to_string();
        scene.nodes[route.to_node.0 as usize].fields.retain(|f| f.name != field);
    }
    scene
}

#[test]
fn corpus_humanoids_written_as_json_load_as_their_xml() {
    for (converted, original) in CONVERTED {
        let (j, x) = (json(converted), common::corpus(original));
        let (j, x) = (without_routed_fields(load_scene(&j)), without_routed_fields(load_scene(&x)));
        assert_eq!(j.encoding, Encoding::Json);
        // X_ITE leaves out a value equal to its field's default (BvhSeamless3dExport1 writes a prototype
        // field `loop` as `false`, `ccw` and `solid` as `true`); the original may keep it. It also writes a Script's fields as the
        // Script has set them (BvhSeamless3dExport1's `initialize` sets `pause`).
        let default = |f: &x3d::Field| matches!(f.value.as_str(), "true" | "false" | "0" | "");
        assert_same_scene_but(&j, &x, converted, default, "Script");
        let routed = !x.routes.is_empty();
        let model = |s: Scene| hanim::build_document(s).unwrap_or_else(|e| panic!("{e}"));
        let (j, x) = (model(j), model(x));
        // Files that animate through ROUTEs have clips, so the poses sampled from them are compared.
        assert_eq!(routed, !Animations::from_document(&x).clips.is_empty(), "{converted}: clips");
        assert_same_model(&j, &x, converted);
    }
}

#[test]
fn json_syntax_errors_are_reported_at_their_line_and_column() {
    let e = json_error("syntax.x3dj", "{\"X3D\": {\n  \"Scene\": {\n    \"-children\": [1, 2,]\n  }\n}}");
    assert!(e.starts_with("syntax.x3dj:3:24: malformed JSON: a trailing comma"), "{e}");
    let e = json_error("syntax.x3dj", "{\"X3D\": {\"Scene\": {}}\n/* note */");
    assert!(e.starts_with("syntax.x3dj:2:1: malformed JSON: comments are not allowed"), "{e}");
    let e = json_error("syntax.x3dj", "{\"X3D\": {\"Scene\": {\"-children\": [\n");
    assert!(e.starts_with("syntax.x3dj:2:1: malformed JSON: unexpected end of file: the array opened at 1:33"), "{e}");
}

#[test]
fn a_missing_x3d_root_is_an_error() {
    let e = json_error("pose.json", "{\n  \"format\": \"hanim-pose\", \"joints\": {}\n}");
    assert!(e.starts_with("pose.json:1:1: expected an \"X3D\" member"), "{e}");
    let e = json_error("list.x3dj", "[{\"X3D\": {}}]");
    assert!(e.starts_with("list.x3dj:1:1: expected a JSON object"), "{e}");
}

#[test]
fn kinds_that_do_not_belong_are_errors_at_their_json_element() {
    let text = "{\"X3D\": {\"Scene\": {\"-children\": [\n  {\"Transform\": {\"@translation\": {\"x\": 1}}}]}}}";
    let e = json_error("kind.x3dj", text);
    assert!(e.starts_with("kind.x3dj:2:34: an object where a value belongs: \"@translation\""), "{e}");
    let e = json_error("kind.x3dj", "{\"X3D\": {\"Scene\": {\"-children\": [\n  {\"Transform\": [1]}]}}}");
    assert!(e.starts_with("kind.x3dj:2:17: expected an object for \"Transform\", found an array of values"), "{e}");
    let e = json_error("kind.x3dj", "{\"X3D\": {\"Scene\": {\"-children\": [\n  \"Transform\"]}}}");
    assert!(
        e.starts_with("kind.x3dj:2:3: malformed JSON: a value in an array of objects")
            || e.starts_with("kind.x3dj:2:3: expected node objects"),
        "{e}"
    );
}

/// A humanoid whose `l_hip` center is `value` (JSON), loaded into a model.
fn humanoid_with_center(value: &str) -> Result<Document, String> {
    let text = format!(
        "{{\"X3D\": {{\"Scene\": {{\"-children\": [\n{{\"HAnimHumanoid\": {{\"@name\": \"h\", \"-skeleton\": [\n\
         {{\"HAnimJoint\": {{\"@name\": \"humanoid_root\", \"-children\": [\n\
         {{\"HAnimJoint\": {{\"@name\": \"l_hip\",\n    \"@center\": {value}}}}}]}}}}]}}}}]}}}}}}"
    );
    hanim::load_str(&text, Path::new("values.x3dj")).map_err(|e| e.to_string())
}

#[test]
fn bad_values_are_reported_at_the_json_element_they_came_from() {
    assert!(humanoid_with_center("[0.1, 0.9, 0]").is_ok());
    // A string where a number belongs: at the string, not at the rebuilt text's offset.
    let e = humanoid_with_center("[0.1,\n      \"x\", 0]").unwrap_err();
    assert!(e.contains("values.x3dj:6:7:") && e.contains("'\"x\"'") && e.contains("center"), "{e}");
    // A bad number after some whitespace the rebuilt text does not have.
    let e = humanoid_with_center("[0.1,     0.9,       1e999]").unwrap_err();
    assert!(e.contains("values.x3dj:5:37:"), "{e}");
    // Too few numbers: at the closing bracket.
    let e = humanoid_with_center("[0.1,  0.9 ]").unwrap_err();
    assert!(e.contains("values.x3dj:5:27:"), "{e}");
    // Nested arrays count their scalars in order.
    let e = humanoid_with_center("[[0.1], [true, 0]]").unwrap_err();
    assert!(e.contains("values.x3dj:5:25:") && e.contains("'true'"), "{e}");
    // A string value: at its character.
    let e = humanoid_with_center("\"0.1 0.9 oops\"").unwrap_err();
    assert!(e.contains("values.x3dj:5:25:") && e.contains("'oops'"), "{e}");
    // A boolean where numbers belong.
    let e = humanoid_with_center("false").unwrap_err();
    assert!(e.contains("values.x3dj:5:16:"), "{e}");
}

#[test]
fn a_hundred_thousand_nested_arrays_are_an_error_not_a_crash() {
    let deep = format!("{{\"X3D\": {{\"Scene\": {{\"-children\": {}", "[".repeat(100_000));
    let e = json_error("deep.x3dj", &deep);
    assert!(e.contains("nested more than") && e.contains("refused"), "{e}");
    // Nested nodes too: a chain of Groups as deep as the limit allows loads, one deeper is refused.
    let nodes = |n: usize| {
        let mut text = String::from("{\"X3D\": {\"Scene\": {\"-children\": [");
        text.push_str(&"{\"Group\": {\"-children\": [".repeat(n));
        text.push_str(&"]}}".repeat(n));
        text.push_str("]}}}");
        text
    };
    assert!(x3d::load_str(&nodes(300), Path::new("chain.x3dj"), &LoadOptions::default()).is_ok());
    assert!(json_error("chain.x3dj", &nodes(400)).contains("nested more than"));
}

#[test]
fn a_use_before_its_def_is_dropped_with_a_warning_at_the_use() {
    // ISO/IEC 19775-1 4.4.3: the later DEF does not count; X_ITE drops the node and loads the rest.
    let text = "{\"X3D\": {\"Scene\": {\"-children\": [\n  {\"Group\": {\"@USE\": \"later\"}},\n  {\"Group\": {\"@DEF\": \"later\"}}]}}}";
    let scene = x3d::load_str(text, Path::new("use.x3dj"), &LoadOptions::default()).unwrap();
    let warnings: Vec<String> = scene.warnings.iter().map(|w| w.to_string()).collect();
    assert!(
        warnings
            .iter()
            .any(|w| w.starts_with("use.x3dj:2:22: warning: USE 'later' refers to no DEF before this point")),
        "{warnings:?}"
    );
    assert_eq!(scene.roots.len(), 1, "the DEF Group alone is in the scene");
}

#[test]
fn gzip_json_loads_by_content_whatever_its_name() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read(json("keys_units.x3dj")).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&text).unwrap();
    let gz = gz.finish().unwrap();
    for name in ["a.x3dj.gz", "b.x3djz", "c.x3d", "d.json"] {
        let path = dir.path().join(name);
        std::fs::write(&path, &gz).unwrap();
        assert!(x3d::is_supported_path(&path), "{name}");
        let doc = load_doc(&path);
        assert_eq!(doc.scene.encoding, Encoding::Json, "{name}");
        assert_eq!(doc.humanoids[0].joints.len(), 3, "{name}");
    }
    // An error inside compressed JSON still has its line:column, and gzip's size limit holds.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(b"{\"X3D\":\n {\"Scene\": 5}}").unwrap();
    let path = dir.path().join("bad.x3dj.gz");
    std::fs::write(&path, gz.finish().unwrap()).unwrap();
    let e = x3d::load_file(&path, &LoadOptions::default()).unwrap_err().to_string();
    assert!(e.contains("bad.x3dj.gz:2:12: \"Scene\" in \"X3D\" must be an object"), "{e}");
    let small = LoadOptions { max_decompressed_bytes: 64, ..LoadOptions::default() };
    let e = x3d::load_file(&dir.path().join("a.x3dj.gz"), &small).unwrap_err().to_string();
    assert!(e.contains("decompresses to more than"), "{e}");
}

mod harness {
    #![allow(dead_code)]
    include!("../fuzz/harness.rs");
}

#[test]
fn the_fuzz_harness_survives_its_seeds_cut_and_corrupted() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds_json");
    let mut seeds = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        harness::fuzz_json_document(&bytes);
        // Cut short, and with one byte changed, at 40 places each.
        for k in 1..40 {
            let at = bytes.len() * k / 40;
            harness::fuzz_json_document(&bytes[..at]);
            let mut changed = bytes.clone();
            changed[at] = b"{}[],:\"0-@#x"[k % 12];
            harness::fuzz_json_document(&changed);
        }
        seeds += 1;
    }
    assert!(seeds >= 10, "fuzz/seeds_json holds {seeds} seeds");
}

#[test]
fn font_style_keeps_its_style_field_where_other_nodes_drop_the_html_attribute() {
    // `style` is HTML decoration on most elements, but FontStyle's own field (clause 15).
    let xml = "<X3D><Scene><Shape style='color:red'><Text string='\"A\"'><FontStyle DEF='F' style='BOLD'/></Text>\
               </Shape></Scene></X3D>";
    let json = r#"{"X3D": {"Scene": {"-children": [{"Shape": {"@style": "color:red", "-geometry": {"Text": {
        "@string": ["A"], "-fontStyle": {"FontStyle": {"@DEF": "F", "@style": "BOLD"}}}}}}]}}}"#;
    for (text, name) in [(xml, "f.x3d"), (json, "f.x3dj")] {
        let scene = x3d::load_str(text, Path::new(name), &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let style = scene.node(scene.defs["F"]).fields.iter().find(|f| f.name == "style").map(|f| f.value.clone());
        assert_eq!(style.as_deref(), Some("BOLD"), "{name}");
        let shape = scene.roots[0];
        assert!(scene.node(shape).fields.iter().all(|f| f.name != "style"), "{name}: Shape's HTML style kept");
    }
}
