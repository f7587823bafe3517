//! The three encodings hold the same scene: every corpus X3D XML file written as X3D JSON, that JSON
//! written as ClassicVRML and that ClassicVRML written back as XML (`hanim-viewer convert`'s path, the
//! syntax tree) loads to the same scene as the original — node for node, field for field, the same
//! ROUTEs — at every step, builds the same humanoids, and renders the same picture pixel for pixel.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use hanim_viewer::hanim;
use hanim_viewer::render::{self as headless, SceneRequest};
use hanim_viewer::x3d::syntax;
use hanim_viewer::x3d::{self, Encoding, LoadOptions, NodeId, Scene, field_types};

/// Every X3D XML file of the vendored corpus.
fn corpus_xml_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for folder in ["x3d", "vrml"] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus").join(folder);
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("folder entry").path();
            if path.extension().is_some_and(|e| e == "x3d") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 15, "the corpus lost files: {files:?}");
    files
}

/// The text of one encoding converted into another through the syntax tree.
fn convert(text: &str, from: Encoding, to: Encoding, path: &Path) -> String {
    let document = syntax::read(text, from, path).unwrap_or_else(|e| panic!("reading {from:?}: {e}"));
    syntax::write(&document, to)
}

/// The four writings of a file: the XML original, JSON from it, ClassicVRML from the JSON, XML from that.
fn writings(path: &Path) -> [(Encoding, String); 4] {
    let xml = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let json = convert(&xml, Encoding::Xml, Encoding::Json, path);
    let classic = convert(&json, Encoding::Json, Encoding::Classic, path);
    let back = convert(&classic, Encoding::Classic, Encoding::Xml, path);
    [(Encoding::Xml, xml), (Encoding::Json, json), (Encoding::Classic, classic), (Encoding::Xml, back)]
}

/// Loads a writing from memory, named as a file beside the original so that its references resolve the
/// same way.
fn load(text: &str, encoding: Encoding, original: &Path) -> Scene {
    let extension = match encoding {
        Encoding::Xml => "x3d",
        Encoding::Classic => "x3dv",
        Encoding::Json => "x3dj",
    };
    let path = original.with_extension(extension);
    x3d::load_str(text, &path, &LoadOptions::default())
        .unwrap_or_else(|e| panic!("{} as {encoding:?}: {e}\n--- text ---\n{}", original.display(), head(text)))
}

fn head(text: &str) -> String {
    text.lines().take(40).collect::<Vec<_>>().join("\n")
}

/// Two field values are the same when their tokens are: numbers within a relative 1e-6 (encodings write
/// `1.0`, `1.` and `1` alike), booleans whatever their case (XML `true`, ClassicVRML `TRUE`), strings by
/// their characters (an MFString by its parsed strings).
fn same_value(node_type: &str, field: &str, a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let ty = field_types::field_type(node_type, field).unwrap_or("");
    if ty == "MFString" {
        return x3d::fields::parse_mf_string(a).ok() == x3d::fields::parse_mf_string(b).ok();
    }
    if ty == "SFString" {
        return false;
    }
    let split = |s: &str| {
        s.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    let (ta, tb) = (split(a), split(b));
    ta.len() == tb.len()
        && ta.iter().zip(&tb).all(|(x, y)| {
            if x.eq_ignore_ascii_case(y) {
                return true;
            }
            match (x.parse::<f64>(), y.parse::<f64>()) {
                (Ok(p), Ok(q)) => (p - q).abs() <= 1e-6 * p.abs().max(q.abs()).max(1.0),
                _ => false,
            }
        })
}

/// Walks both scenes from their roots in step and asserts the same nodes, DEF names, fields, children
/// and sharing (a USE in one is a USE of the corresponding node in the other), and the same ROUTEs.
fn assert_same_scene(a: &Scene, b: &Scene, what: &str) {
    assert_eq!(a.roots.len(), b.roots.len(), "{what}: number of root nodes");
    let mut pairs: HashMap<NodeId, NodeId> = HashMap::new();
    let mut stack: Vec<(NodeId, NodeId, String)> =
        a.roots.iter().zip(&b.roots).map(|(x, y)| (*x, *y, "Scene".to_string())).collect();
    while let Some((x, y, place)) = stack.pop() {
        if let Some(seen) = pairs.get(&x) {
            assert_eq!(*seen, y, "{what}: {place}: a node shared in one scene is not the same node in the other");
            continue;
        }
        pairs.insert(x, y);
        let (nx, ny) = (a.node(x), b.node(y));
        let place = format!("{place} > {}", a.describe(x));
        assert_eq!(nx.type_name, ny.type_name, "{what}: {place}: node type");
        assert_eq!(nx.def, ny.def, "{what}: {place}: DEF");
        // A Script's inline source (XML character data, JSON #sourceCode) has no place in ClassicVRML but
        // its url (`"ecmascript: …"`, X3D clause 29.2.2), so `url` may appear on the way round.
        let kept = |f: &&x3d::Field| !(nx.type_name == "Script" && f.name == "url");
        let mut fx: Vec<_> = nx.fields.iter().filter(kept).map(|f| (f.name.as_str(), f.value.as_str())).collect();
        let mut fy: Vec<_> = ny.fields.iter().filter(kept).map(|f| (f.name.as_str(), f.value.as_str())).collect();
        fx.sort();
        fy.sort();
        let names = |f: &[(&str, &str)]| f.iter().map(|(n, _)| n.to_string()).collect::<Vec<_>>();
        assert_eq!(names(&fx), names(&fy), "{what}: {place}: field names");
        for ((name, vx), (_, vy)) in fx.iter().zip(&fy) {
            assert!(
                same_value(&nx.type_name, name, vx, vy),
                "{what}: {place}: field {name}: '{}' vs '{}'",
                vx.chars().take(120).collect::<String>(),
                vy.chars().take(120).collect::<String>()
            );
        }
        assert_eq!(nx.children.len(), ny.children.len(), "{what}: {place}: number of children");
        // Order matters within a field, not across fields (JSON groups a node's children by field).
        let by_field = |children: &[x3d::Child]| {
            let mut sorted: Vec<x3d::Child> = children.to_vec();
            sorted.sort_by(|p, q| p.field.cmp(&q.field));
            sorted
        };
        for (cx, cy) in by_field(&nx.children).iter().zip(&by_field(&ny.children)) {
            assert_eq!(cx.field, cy.field, "{what}: {place}: field holding a child");
            stack.push((cx.node, cy.node, place.clone()));
        }
    }
    let routes = |s: &Scene, map: Option<&HashMap<NodeId, NodeId>>| {
        let mut r: Vec<_> = s
            .routes
            .iter()
            .map(|r| {
                let (from, to) = match map {
                    Some(m) => (m.get(&r.from_node).copied(), m.get(&r.to_node).copied()),
                    None => (Some(r.from_node), Some(r.to_node)),
                };
                (from, r.from_field.clone(), to, r.to_field.clone())
            })
            .collect();
        r.sort_by_key(|(f, ff, t, tf)| (f.map(|n| n.0), ff.clone(), t.map(|n| n.0), tf.clone()));
        r
    };
    assert_eq!(routes(a, Some(&pairs)), routes(b, None), "{what}: ROUTEs");
    assert_eq!(a.components.len(), b.components.len(), "{what}: components");
    assert_eq!(a.units_of_main(), b.units_of_main(), "{what}: UNIT statements");
}

trait MainUnits {
    fn units_of_main(&self) -> x3d::Units;
}

impl MainUnits for Scene {
    fn units_of_main(&self) -> x3d::Units {
        self.files.first().map(|f| f.units).unwrap_or_default()
    }
}

#[test]
fn every_corpus_file_is_the_same_scene_in_every_encoding() {
    for path in corpus_xml_files() {
        let writings = writings(&path);
        let original = load(&writings[0].1, Encoding::Xml, &path);
        for (step, (encoding, text)) in writings.iter().enumerate().skip(1) {
            let scene = load(text, *encoding, &path);
            let what = format!("{} step {step} ({encoding:?})", path.display());
            assert_same_scene(&original, &scene, &what);
        }
    }
}

#[test]
fn every_corpus_file_builds_the_same_humanoids_after_the_round_trip() {
    for path in corpus_xml_files() {
        let [(_, xml), _, _, (_, back)] = writings(&path);
        let a = hanim::build_document(load(&xml, Encoding::Xml, &path));
        let b = hanim::build_document(load(&back, Encoding::Xml, &path));
        match (a, b) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.humanoids.len(), b.humanoids.len(), "{}", path.display());
                for (ha, hb) in a.humanoids.iter().zip(&b.humanoids) {
                    let names = |h: &hanim::Humanoid| h.joints.iter().map(|j| j.name.clone()).collect::<Vec<_>>();
                    assert_eq!(names(ha), names(hb), "{}: joints", path.display());
                    let points = |h: &hanim::Humanoid| h.skin.as_ref().map(|s| s.points.clone());
                    assert_eq!(points(ha), points(hb), "{}: skin points", path.display());
                    assert_eq!(ha.segments.len(), hb.segments.len(), "{}: segments", path.display());
                    assert_eq!(ha.sites.len(), hb.sites.len(), "{}: sites", path.display());
                    assert_eq!(ha.displacers.len(), hb.displacers.len(), "{}: displacers", path.display());
                    assert_eq!(ha.motions.len(), hb.motions.len(), "{}: motions", path.display());
                }
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{}", path.display()),
            (a, b) => panic!("{}: one writing builds, the other not: {:?} / {:?}", path.display(), a.err(), b.err()),
        }
    }
}

#[test]
fn every_corpus_file_renders_the_same_picture_after_the_round_trip() {
    let Some(ctx) = common::gpu_or_skip() else { return };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/render-tests/roundtrip");
    std::fs::create_dir_all(&dir).expect("output folder");
    for path in corpus_xml_files() {
        let [(_, xml), _, _, (_, back)] = writings(&path);
        let Ok(a) = hanim::build_document(load(&xml, Encoding::Xml, &path)) else { continue };
        let b = hanim::build_document(load(&back, Encoding::Xml, &path)).expect("the round trip builds");
        let request = SceneRequest::new(96, 96);
        // A scene without a humanoid (a coordinate-axes file) renders nothing: the same refusal both ways.
        let ia = match headless::render_document(&ctx, &a, &request) {
            Ok(image) => image,
            Err(e) => {
                let again = headless::render_document(&ctx, &b, &request).err().map(|e| e.to_string());
                assert_eq!(again, Some(e.to_string()), "{}", path.display());
                continue;
            }
        };
        let ib = headless::render_document(&ctx, &b, &request).expect("render round trip");
        let stem = path.file_stem().unwrap_or_default().to_string_lossy().into_owned();
        hanim_viewer::output::write_png_atomically(
            &dir.join(format!("{stem}-back.png")),
            ib.width,
            ib.height,
            &ib.rgba,
        )
        .expect("png");
        let differing = ia.rgba.chunks(4).zip(ib.rgba.chunks(4)).filter(|(p, q)| p != q).count();
        assert_eq!(differing, 0, "{}: {differing} pixels differ after XML → JSON → ClassicVRML → XML", path.display());
    }
}
