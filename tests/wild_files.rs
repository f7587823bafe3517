//! Six humanoid files from the wild, vendored in `tests/corpus/wild/` (sources and licences in
//! `tests/corpus/MANIFEST.md`): X3D JSON and ClassicVRML as their authors' tools wrote them, with what such
//! files carry and the corpus's XML files do not — a face of 49 segments and 43 displacers on two joints
//! (JinBlink, an EXPORT), a foot alone (HAnimModelFootLeft), a humanoid stub whose skeleton is IMPORTed
//! from an Inline published elsewhere, under a panel of Text (HAnimPoseExample, X3D 4.1, IMPORT inside a
//! Group), skin in several shapes and an ExternProtoDeclare whose walk animation is not vendored
//! (BoxMan: the loader says so and goes on), a UTF-8 byte-order mark, an X3D 3.0 header and sites listed
//! but not in the skeleton (JoeHAnimKick1a_sitesFound), X_ITE's header and `COMPONENT HAnim : 1` and skin
//! points no joint moves (JoeDemo5JoeSkin5).
//!
//! Each file loads (`x3d::load_file`) and builds (`hanim::build_document`) with the joint and skin point
//! counts `hanim-viewer info` reports for it (facts of the files, hard-coded); written as XML, that XML as
//! JSON, the JSON as ClassicVRML and that as XML again through the syntax tree (`convert`'s path), every
//! writing loads to the same scene as the file and the last builds the same counts; and it renders
//! headless at its first Viewpoint (X3D's default view for the foot, which has none) to a picture holding
//! the figure — at least half the non-background pixels measured on lavapipe when the test was written;
//! the pictures are written to `target/render-tests/wild/` to look at. HAnimPoseExample's picture is its Text panel (its figure is
//! the Inline's), JinBlink's head is untextured (its JinImageAtlas.jpg is not published beside it).
//! HAnimPoseExample's FontStyles keep their `style` (BOLD) in the loaded scene and at every step of the
//! round trip: the XML and JSON readers once dropped it as HTML decoration. Every file of the folder and its
//! subfolders (the rest of the survey's files, rendered by `tests/wild_survey.rs`) has its row in
//! `tests/corpus/MANIFEST.md`, with its size; a gzip-compressed copy decompresses to the source's size.

mod common;

test_main!(
    jin_blink_json_a_face_of_segments_and_displacers,
    hanim_model_foot_left_json_a_foot_alone,
    hanim_pose_example_x3dj_a_humanoid_stub_under_a_text_panel,
    boxman_json_skin_in_several_shapes_and_an_externprotodeclare,
    joe_hanim_kick1a_sites_found_x3dv_bom_and_x3d_3_header,
    joe_demo5_joe_skin5_x3dv_x_ite_writing_with_a_spaced_component,
    humanoid0_json_a_use_of_no_def_in_joints_and_an_unbound_transparent_skin,
    bvh_conversion1_illustrated_x3d_a_use_of_no_def_among_its_site_markers,
    hanim_pose_example_font_styles_keep_their_bold_style,
    every_wild_file_has_its_manifest_row_with_its_size
);

use std::io::Read;
use std::path::{Path, PathBuf};

use common::scene_compare::assert_same_scene;
use hanim_viewer::gpu::GpuContext;
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::render::{self as headless, SceneRequest, ViewRequest};
use hanim_viewer::x3d::{self, Encoding, LoadOptions, Scene, syntax};

/// Picture size: lavapipe is slow, and every figure is recognisable at this size.
const SIZE: u32 = 256;

/// Colour distance (per channel) above which a pixel is not background (sRGB rounding is ±1).
const BACKGROUND_TOLERANCE: u8 = 3;

/// What a wild file is known to hold.
struct Wild {
    /// Under `tests/corpus/`.
    file: &'static str,
    /// `hanim-viewer info`: one humanoid with this many joints …
    joints: usize,
    /// … and this many skin points.
    skin_points: usize,
    /// The DEF (else the description) of the file's first Viewpoint; `None`: the file has no Viewpoint,
    /// and X3D's default view (0 0 10 looking down −Z) is what a browser shows.
    first_viewpoint: Option<&'static str>,
    /// Fewest non-background pixels of the picture at that view: half of those measured on lavapipe.
    min_foreground: usize,
}

const JIN_BLINK: Wild = Wild {
    file: "wild/JinBlink.json",
    joints: 2,
    skin_points: 0,
    first_viewpoint: Some("HelloJin"),
    min_foreground: 9000, // 18763 measured
};
const FOOT_LEFT: Wild = Wild {
    file: "wild/HAnimModelFootLeft.json",
    joints: 27,
    skin_points: 0,
    first_viewpoint: None,
    min_foreground: 130, // 270 measured
};
const POSE_EXAMPLE: Wild = Wild {
    file: "wild/HAnimPoseExample.x3dj",
    joints: 0,
    skin_points: 0,
    first_viewpoint: Some("HAnimPose for HumanoidInline IMPORT model"),
    min_foreground: 3300, // 6685 measured
};
const BOXMAN: Wild = Wild {
    file: "wild/BoxMan.json",
    joints: 17,
    skin_points: 224,
    first_viewpoint: Some("Inclined_View"),
    min_foreground: 3700, // 7470 measured
};
const KICK_SITES_FOUND: Wild = Wild {
    file: "wild/JoeHAnimKick1a_sitesFound.x3dv",
    joints: 89,
    skin_points: 390,
    first_viewpoint: Some("Joe_InclinedView"),
    min_foreground: 2800, // 5615 measured
};
const JOE_DEMO5: Wild = Wild {
    file: "wild/JoeDemo5JoeSkin5.x3dv",
    joints: 89,
    skin_points: 390,
    first_viewpoint: Some("JinLOA4"),
    min_foreground: 2600, // 5274 measured
};

const HUMANOID0: Wild = Wild {
    file: "wild/Humanoid0.json",
    joints: 1,
    skin_points: 390,
    first_viewpoint: Some("default"),
    min_foreground: 16, // 33 measured (the axis lines: the skin is transparent)
};
const BVH_ILLUSTRATED: Wild = Wild {
    file: "wild/BvhConversion1Illustrated.x3d",
    joints: 21,
    skin_points: 0,
    first_viewpoint: Some("BvhConversion1Invisible model BVH to X3D conversion, from 8m"),
    min_foreground: 310, // 629 measured
};

fn load(path: &Path) -> Scene {
    x3d::load_file(path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn build(scene: Scene, what: &str) -> Document {
    hanim::build_document(scene).unwrap_or_else(|e| panic!("{what}: {e}"))
}

/// The one humanoid's joint and skin point counts.
fn counts(doc: &Document, what: &str) -> (usize, usize) {
    assert_eq!(doc.humanoids.len(), 1, "{what}: one humanoid");
    let h = &doc.humanoids[0];
    (h.joints.len(), h.skin.as_ref().map_or(0, |s| s.points.len()))
}

/// The file's text as `convert` reads it (UTF-8, without a byte-order mark) and its encoding.
fn text_of(path: &Path) -> (String, Encoding) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let text = x3d::decode_to_utf8(&bytes, path).unwrap_or_else(|e| panic!("{e}"));
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&text);
    let encoding = x3d::detect_encoding(text, path);
    (String::from_utf8(text.to_vec()).expect("UTF-8"), encoding)
}

fn convert(text: &str, from: Encoding, to: Encoding, path: &Path) -> String {
    let mut document =
        syntax::read(text, from, path).unwrap_or_else(|e| panic!("{} read as {from:?}: {e}", path.display()));
    // As `convert` does: a USE of no DEF before it is left out (Humanoid0, BvhConversion1Illustrated).
    syntax::undefined_uses::drop_undefined_uses(&mut document);
    syntax::write(&document, to)
}

/// The file written as XML, that XML as JSON, the JSON as ClassicVRML and the ClassicVRML back as XML.
fn writings(path: &Path) -> [(Encoding, String); 4] {
    let (text, encoding) = text_of(path);
    let xml = convert(&text, encoding, Encoding::Xml, path);
    let json = convert(&xml, Encoding::Xml, Encoding::Json, path);
    let classic = convert(&json, Encoding::Json, Encoding::Classic, path);
    let back = convert(&classic, Encoding::Classic, Encoding::Xml, path);
    [(Encoding::Xml, xml), (Encoding::Json, json), (Encoding::Classic, classic), (Encoding::Xml, back)]
}

/// Loads a writing from memory, named as a file beside the original so that its references (Inline,
/// textures, EXTERNPROTO) resolve the same way.
fn load_writing(text: &str, encoding: Encoding, original: &Path) -> Scene {
    let extension = match encoding {
        Encoding::Xml => "x3d",
        Encoding::Classic => "x3dv",
        Encoding::Json => "x3dj",
    };
    let head = || text.lines().take(40).collect::<Vec<_>>().join("\n");
    x3d::load_str(text, &original.with_extension(extension), &LoadOptions::default())
        .unwrap_or_else(|e| panic!("{} as {encoding:?}: {e}\n--- text ---\n{}", original.display(), head()))
}

/// The view of the file's first Viewpoint (in file order), checked against what the table says.
fn first_viewpoint(scene: &Scene, wild: &Wild) -> ViewRequest {
    let first =
        scene.nodes.iter().filter(|n| n.type_name == "Viewpoint" && n.loc.file == 0).min_by_key(|n| n.loc.offset);
    match (first, wild.first_viewpoint) {
        (None, None) => ViewRequest::Named("x3d-default".into()),
        (Some(vp), Some(name)) => {
            let description = vp.field("description").map(|f| f.value.as_str());
            assert!(
                vp.def.as_deref() == Some(name) || description == Some(name),
                "{}: the first Viewpoint is DEF {:?} description {description:?}, not '{name}'",
                wild.file,
                vp.def
            );
            ViewRequest::Named(name.into())
        }
        (first, expected) => {
            panic!("{}: first Viewpoint {:?}, expected {expected:?}", wild.file, first.map(|n| &n.def))
        }
    }
}

fn foreground_pixels(image: &headless::RenderedImage) -> usize {
    (0..image.height)
        .flat_map(|y| (0..image.width).map(move |x| (x, y)))
        .filter(|&(x, y)| image.is_foreground(x, y, BACKGROUND_TOLERANCE))
        .count()
}

/// Renders the document at the file's first Viewpoint, writes the picture to `target/render-tests/wild/`
/// and checks it holds the figure.
fn render_at_first_viewpoint(ctx: &GpuContext, doc: &Document, wild: &Wild) {
    let mut request = SceneRequest::new(SIZE, SIZE);
    request.view = first_viewpoint(&doc.scene, wild);
    let image =
        headless::render_document(ctx, doc, &request).unwrap_or_else(|e| panic!("{}: render: {e:#}", wild.file));
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/render-tests/wild");
    std::fs::create_dir_all(&dir).expect("output folder");
    let stem = Path::new(wild.file).file_stem().unwrap_or_default().to_string_lossy().into_owned();
    let png = dir.join(format!("{stem}.png"));
    hanim_viewer::output::write_png_atomically(&png, image.width, image.height, &image.rgba).expect("png");
    let foreground = foreground_pixels(&image);
    eprintln!("{}: {foreground} non-background pixels of {} ({})", wild.file, SIZE * SIZE, png.display());
    assert!(
        foreground >= wild.min_foreground,
        "{}: {foreground} non-background pixels at {:?}, expected at least {} (see {})",
        wild.file,
        request.view,
        wild.min_foreground,
        png.display()
    );
}

/// Loads, builds, round-trips and renders one wild file.
fn exercise(wild: &Wild) {
    let path: PathBuf = common::corpus(wild.file);

    // Loads and builds, with the counts `info` reports.
    let doc = build(load(&path), wild.file);
    assert_eq!(counts(&doc, wild.file), (wild.joints, wild.skin_points), "{}: (joints, skin points)", wild.file);

    // XML → JSON → ClassicVRML → XML: the same scene at every step, and the last builds the same figure.
    let original = load(&path);
    let steps = writings(&path);
    for (step, (encoding, text)) in steps.iter().enumerate() {
        let scene = load_writing(text, *encoding, &path);
        assert_same_scene(&original, &scene, &format!("{} step {} ({encoding:?})", wild.file, step + 1));
    }
    let (encoding, back) = &steps[3];
    let rebuilt = build(load_writing(back, *encoding, &path), wild.file);
    assert_eq!(counts(&rebuilt, wild.file), (wild.joints, wild.skin_points), "{}: after the round trip", wild.file);

    // The picture at the first Viewpoint.
    let ctx = common::gpu();
    render_at_first_viewpoint(&ctx, &doc, wild);
}

fn jin_blink_json_a_face_of_segments_and_displacers() {
    exercise(&JIN_BLINK);
}

fn hanim_model_foot_left_json_a_foot_alone() {
    exercise(&FOOT_LEFT);
}

fn hanim_pose_example_x3dj_a_humanoid_stub_under_a_text_panel() {
    exercise(&POSE_EXAMPLE);
}

fn boxman_json_skin_in_several_shapes_and_an_externprotodeclare() {
    exercise(&BOXMAN);
}

fn joe_hanim_kick1a_sites_found_x3dv_bom_and_x3d_3_header() {
    exercise(&KICK_SITES_FOUND);
}

fn joe_demo5_joe_skin5_x3dv_x_ite_writing_with_a_spaced_component() {
    exercise(&JOE_DEMO5);
}

fn humanoid0_json_a_use_of_no_def_in_joints_and_an_unbound_transparent_skin() {
    exercise(&HUMANOID0);
}

fn bvh_conversion1_illustrated_x3d_a_use_of_no_def_among_its_site_markers() {
    exercise(&BVH_ILLUSTRATED);
}

fn hanim_pose_example_font_styles_keep_their_bold_style() {
    let path = common::corpus(POSE_EXAMPLE.file);
    let original = load(&path);
    let mut scenes = vec![("the file".to_string(), original)];
    for (step, (encoding, text)) in writings(&path).iter().enumerate() {
        scenes.push((format!("round-trip step {} ({encoding:?})", step + 1), load_writing(text, *encoding, &path)));
    }
    for (what, scene) in &scenes {
        // Two DEFed FontStyles (the header's and the one the pose buttons USE), both BOLD.
        let font_styles: Vec<_> = scene.nodes.iter().filter(|n| n.type_name == "FontStyle").collect();
        let defs: Vec<&str> = font_styles.iter().map(|n| n.def_name()).collect();
        assert_eq!(defs, ["HeaderFont", "SharedFont"], "{what}: FontStyle nodes");
        for node in font_styles {
            assert_eq!(
                node.field("style").map(|f| f.value.as_str()),
                Some("BOLD"),
                "{what}: FontStyle {} lost its style",
                node.def_name()
            );
        }
    }
}

/// Every file under `dir` (recursively), named `prefix/relative/path`.
fn files_under(dir: &Path, prefix: &str) -> Vec<String> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let entry = entry.expect("entry");
        let name = format!("{prefix}/{}", entry.file_name().to_string_lossy());
        if entry.file_type().expect("file type").is_dir() {
            files.extend(files_under(&entry.path(), &name));
        } else {
            files.push(name);
        }
    }
    files
}

/// The source blob's size a MANIFEST.md row gives for a file stored gzip-compressed ("stored
/// gzip-compressed (…; the source blob is N bytes)"), `None` for a byte-exact copy.
fn gzip_source_size(notice: &str) -> Option<usize> {
    let rest = notice.strip_prefix("stored gzip-compressed")?;
    let after = &rest[rest.find("the source blob is ")? + "the source blob is ".len()..];
    after.split(' ').next()?.parse().ok()
}

fn every_wild_file_has_its_manifest_row_with_its_size() {
    // `tests/corpus/MANIFEST.md`: one row per vendored file, its size in bytes (the copies are byte-exact,
    // or the gzip compression of the source blob; `.gitattributes` keeps git from converting line endings).
    let manifest = std::fs::read_to_string(common::corpus("MANIFEST.md")).expect("MANIFEST.md");
    let rows: Vec<Vec<&str>> = manifest
        .lines()
        .filter(|l| l.starts_with("| wild/"))
        .map(|l| l.trim_matches('|').split(" | ").map(str::trim).collect())
        .collect();
    let mut files = files_under(&common::corpus("wild"), "wild");
    // The peers' pictures are the survey's, not files of a source repository (`tests/wild_survey.rs`).
    files.retain(|f| !f.starts_with("wild/peers/"));
    files.sort();
    let mut listed: Vec<String> = rows.iter().map(|r| r[0].to_string()).collect();
    listed.sort();
    assert_eq!(files, listed, "files in tests/corpus/wild/ and their MANIFEST.md rows");
    for row in &rows {
        let bytes = std::fs::metadata(common::corpus(row[0])).expect("file").len();
        assert_eq!(bytes.to_string(), row[4], "{}: size", row[0]);
        if let Some(source_bytes) = gzip_source_size(row[7]) {
            // A compressed copy gives back the source blob's bytes, as many as the row says.
            let stored = std::fs::read(common::corpus(row[0])).expect("file");
            let mut text = Vec::new();
            flate2::read::GzDecoder::new(stored.as_slice()).read_to_end(&mut text).expect("gzip data");
            assert_eq!(text.len(), source_bytes, "{}: decompressed size", row[0]);
        }
    }
    for wild in
        [&JIN_BLINK, &FOOT_LEFT, &POSE_EXAMPLE, &BOXMAN, &KICK_SITES_FOUND, &JOE_DEMO5, &HUMANOID0, &BVH_ILLUSTRATED]
    {
        assert!(listed.iter().any(|f| f == wild.file), "{} has no MANIFEST.md row", wild.file);
    }
}
