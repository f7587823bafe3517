//! The three encodings hold the same scene: every corpus X3D XML file written as X3D JSON, that JSON
//! written as ClassicVRML and that ClassicVRML written back as XML (`hanim-viewer convert`'s path, the
//! syntax tree) loads to the same scene as the original — node for node, field for field, the same
//! ROUTEs — at every step, builds the same humanoids, and renders the same picture pixel for pixel.

mod common;

test_main!(
    every_corpus_file_is_the_same_scene_in_every_encoding,
    every_corpus_file_builds_the_same_humanoids_after_the_round_trip,
    every_corpus_file_renders_the_same_picture_after_the_round_trip
);

use std::path::{Path, PathBuf};

use common::scene_compare::assert_same_scene;
use hanim_viewer::hanim;
use hanim_viewer::render::{self as headless, SceneRequest};
use hanim_viewer::x3d::syntax;
use hanim_viewer::x3d::{self, Encoding, LoadOptions, Scene};

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

fn every_corpus_file_renders_the_same_picture_after_the_round_trip() {
    let ctx = common::gpu();
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
