//! X3D XML ↔ syntax tree, the XML and JSON writers, and `hanim-viewer convert`, on every X3D XML file of
//! the corpus: the tree read back from the XML written is the tree read from the file; the XML loads to
//! the same scene; the XML validates against the X3D 4.0 XML Schema (xmllint) and the JSON against the
//! X3D JSON schema (python3 with jsonschema). Without xmllint or jsonschema those two tests are reported ignored,
//! and fail under `CI=true`.

mod common;

test_main!(
    xml_written_from_every_corpus_file_reads_back_to_the_same_tree,
    the_tree_keeps_comments_source_and_attribute_offsets,
    malformed_xml_gets_the_loaders_message_and_position,
    absurdly_deep_nesting_is_refused_cleanly,
    xml_written_from_every_corpus_file_loads_to_the_same_scene,
    xml_written_from_every_corpus_file_validates_against_the_x3d_4_0_schema,
    json_written_from_every_corpus_file_validates_against_the_x3d_json_schema,
    convert_writes_xml_json_and_gzip_by_extension,
    convert_refuses_bad_arguments_and_never_overwrites_its_input,
    convert_of_bad_input_names_line_and_column_and_writes_nothing,
    convert_refuses_text_that_is_not_utf8_at_its_line_and_column,
    convert_of_classic_input_converts_or_fails_cleanly
);

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use hanim_viewer::x3d::syntax::{self, Content, Element, SyntaxDocument};
use hanim_viewer::x3d::{self, Encoding, LoadOptions, Scene, field_types};

// ---------------------------------------------------------------------------------------------------
// Corpus and helpers
// ---------------------------------------------------------------------------------------------------

/// Every X3D XML file of the corpus: `x3d/*.x3d` and `vrml/*.x3d`.
fn xml_corpus() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for folder in ["x3d", "vrml"] {
        let dir = common::corpus_folder(folder);
        let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "x3d"))
            .collect();
        found.sort();
        files.extend(found);
    }
    assert!(files.len() >= 16, "the corpus has at least 16 X3D XML files, found {files:?}");
    files
}

fn file_name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// A file's syntax tree, read as `convert` reads it.
fn read_tree(path: &Path) -> SyntaxDocument {
    let bytes = std::fs::read(path).unwrap();
    let bytes = x3d::decompress_if_gzip(&bytes, path, 1 << 30).unwrap();
    let bytes = x3d::decode_to_utf8(&bytes, path).unwrap();
    let text = std::str::from_utf8(&bytes).unwrap();
    syntax::read(text, x3d::detect_encoding(&bytes, path), path).unwrap_or_else(|e| panic!("{e}"))
}

/// The tree as its meaning goes: offsets zeroed, and of the `X3D` element's attributes, which the
/// writers put in an order of their own after their namespace attributes, the others in name order.
fn comparable(document: &SyntaxDocument) -> Element {
    fn strip(element: &Element) -> Element {
        Element {
            name: element.name.clone(),
            attributes: element
                .attributes
                .iter()
                .map(|a| syntax::Attribute { name: a.name.clone(), value: a.value.clone(), offset: 0 })
                .collect(),
            content: element
                .content
                .iter()
                .map(|c| match c {
                    Content::Element(e) => Content::Element(strip(e)),
                    other => other.clone(),
                })
                .collect(),
            offset: 0,
        }
    }
    let mut root = strip(&document.root);
    root.attributes.retain(|a| !a.name.contains(':') && a.name != "xmlns");
    root.attributes.sort_by(|a, b| a.name.cmp(&b.name));
    root
}

/// Where two trees first differ (element path and what), or `None` when they are the same.
fn first_difference(a: &Element, b: &Element, path: &str) -> Option<String> {
    let here = format!("{path}/{}", a.name);
    if a.name != b.name {
        return Some(format!("{path}: <{}> became <{}>", a.name, b.name));
    }
    if a.attributes != b.attributes {
        let show = |e: &Element| e.attributes.iter().map(|a| format!("{}={:?}", a.name, a.value)).collect::<Vec<_>>();
        return Some(format!("{here}: attributes {:?} became {:?}", show(a), show(b)));
    }
    if a.content.len() != b.content.len() {
        return Some(format!("{here}: {} content items became {}", a.content.len(), b.content.len()));
    }
    for (i, (x, y)) in a.content.iter().zip(&b.content).enumerate() {
        match (x, y) {
            (Content::Element(x), Content::Element(y)) => {
                if let Some(d) = first_difference(x, y, &format!("{here}[{i}]")) {
                    return Some(d);
                }
            }
            (x, y) if x != y => return Some(format!("{here}[{i}]: {x:?} became {y:?}")),
            _ => {}
        }
    }
    None
}

fn assert_same_tree(original: &SyntaxDocument, read_back: &SyntaxDocument, what: &str) {
    let (a, b) = (comparable(original), comparable(read_back));
    if let Some(difference) = first_difference(&a, &b, "") {
        panic!("{what}: {difference}");
    }
    assert_eq!(a, b, "{what}");
}

fn xml_of(document: &SyntaxDocument) -> String {
    syntax::write(document, Encoding::Xml)
}

fn has_program(name: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {name}"))
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

// ---------------------------------------------------------------------------------------------------
// The tree and the writers
// ---------------------------------------------------------------------------------------------------

/// read → XML write → read gives the same tree, and writing that tree again gives the same text.
fn xml_written_from_every_corpus_file_reads_back_to_the_same_tree() {
    for path in xml_corpus() {
        let name = file_name(&path);
        let original = read_tree(&path);
        let xml = xml_of(&original);
        let read_back = syntax::read(&xml, Encoding::Xml, &path).unwrap_or_else(|e| panic!("{name}: {e}\n"));
        assert_same_tree(&original, &read_back, &name);
        assert_eq!(xml_of(&read_back), xml, "{name}: writing the tree read back changes the text");
    }
}

/// The tree holds what the file says: comments in place, Script source, unescaped attributes with the
/// offsets where their values start.
fn the_tree_keeps_comments_source_and_attribute_offsets() {
    let text = "<?xml version='1.0'?>\n<!-- before -->\n<X3D profile='Full' version='4.0'>\n<Scene>\n\
                <!-- first -->\n<Transform DEF='a&amp;b' translation='1\r\n2 3'/>\n<Script DEF='S'>\n\
                <field name='f' type='SFFloat' accessType='initializeOnly' value='1'/>\n\
                <![CDATA[\necmascript: function f() { return 1 < 2; }\n]]>\n</Script>\n</Scene>\n</X3D>\n<!-- after -->\n";
    let document = syntax::read(text, Encoding::Xml, Path::new("t.x3d")).unwrap();
    let root = &document.root;
    assert_eq!(root.content.first(), Some(&Content::Comment(" before ".into())));
    assert_eq!(root.content.last(), Some(&Content::Comment(" after ".into())));
    let scene = root.child("Scene").unwrap();
    assert_eq!(scene.content[0], Content::Comment(" first ".into()));
    let transform = scene.child("Transform").unwrap();
    assert_eq!(transform.offset as usize, text.find("<Transform").unwrap());
    assert_eq!(transform.attribute("DEF"), Some("a&b"));
    let translation = transform.attributes.iter().find(|a| a.name == "translation").unwrap();
    assert_eq!(translation.value, "1  2 3", "CR LF is two spaces, as the loader reads it");
    assert_eq!(translation.offset as usize, text.find("1\r\n2").unwrap());
    let script = scene.child("Script").unwrap();
    assert_eq!(script.content[1], Content::SourceCode("\necmascript: function f() { return 1 < 2; }\n".into()));
    // The source and comments survive the XML writer.
    let read_back = syntax::read(&xml_of(&document), Encoding::Xml, Path::new("t.x3d")).unwrap();
    assert_same_tree(&document, &read_back, "hand-made");
}

/// The XML reader refuses what the loader refuses, with the same message at the same line:column: for
/// every file of `tests/data/bad/`, a malformed-XML error of the loader is the reader's, and any error
/// of the reader is the loader's.
fn malformed_xml_gets_the_loaders_message_and_position() {
    const XML_LEVEL: &[&str] = &[
        "malformed XML",
        "malformed attribute",
        "unknown entity reference",
        "bad character or entity reference",
        "text before the <X3D>",
        "text after the <X3D>",
        "CDATA section outside",
        "expected an <X3D> root element",
        "unexpected end of file",
        "after the end of the <X3D> root element",
    ];
    let dir = common::test_data("bad");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "x3d"))
        .collect();
    files.sort();
    let mut xml_errors = 0;
    for path in files {
        let name = file_name(&path);
        let bytes = std::fs::read(&path).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let ours = syntax::read(&text, Encoding::Xml, &path).err();
        let loader = x3d::load_file(&path, &LoadOptions::default()).err();
        let loader_xml_level = loader.as_ref().filter(|e| XML_LEVEL.iter().any(|k| e.message.contains(k)));
        if let Some(expected) = loader_xml_level {
            xml_errors += 1;
            let ours =
                ours.unwrap_or_else(|| panic!("{name}: the loader says '{expected}', the syntax reader nothing"));
            assert_eq!(ours.to_string(), expected.to_string(), "{name}");
        } else if let Some(ours) = ours {
            panic!("{name}: the syntax reader says '{ours}', the loader {loader:?}");
        }
    }
    assert!(xml_errors >= 12, "only {xml_errors} files of tests/data/bad are malformed XML");
}

/// Elements nested beyond the limit are refused with a message, not a crashed stack.
fn absurdly_deep_nesting_is_refused_cleanly() {
    let depth = 5000;
    let text = format!("<X3D><Scene>{}{}</Scene></X3D>", "<Group>".repeat(depth), "</Group>".repeat(depth));
    let error = syntax::read(&text, Encoding::Xml, Path::new("deep.x3d")).unwrap_err();
    assert!(error.message.contains("nested more than"), "{error}");
    assert!(error.to_string().starts_with("deep.x3d:1:"), "{error}");
    // Just under the limit, every writer copes.
    let text = format!(
        "<X3D profile='Full' version='4.0'><Scene>{}{}</Scene></X3D>",
        "<Group>".repeat(490),
        "</Group>".repeat(490)
    );
    let document = syntax::read(&text, Encoding::Xml, Path::new("deep.x3d")).unwrap();
    let xml = xml_of(&document);
    assert_same_tree(&document, &syntax::read(&xml, Encoding::Xml, Path::new("deep.x3d")).unwrap(), "deep");
    let json = syntax::write(&document, Encoding::Json);
    assert_eq!(json.matches("\"Group\"").count(), 490);
}

// ---------------------------------------------------------------------------------------------------
// The XML written loads to the same scene
// ---------------------------------------------------------------------------------------------------

/// Numbers where the field is typed numeric, text elsewhere.
fn same_field_value(node_type: &str, field: &str, a: &str, b: &str) -> bool {
    let numeric = field_types::field_type(node_type, field)
        .is_some_and(|t| !matches!(t, "SFString" | "MFString" | "SFBool" | "MFBool" | "SFNode" | "MFNode"));
    if !numeric {
        return a == b;
    }
    let numbers = |s: &str| -> Option<Vec<f64>> {
        s.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(|t| t.parse::<f64>().ok())
            .collect()
    };
    match (numbers(a), numbers(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

fn assert_same_scene(a: &Scene, b: &Scene, what: &str) {
    assert_eq!((&a.version, &a.profile), (&b.version, &b.profile), "{what}: version/profile");
    assert_eq!(a.meta, b.meta, "{what}: meta");
    let components = |s: &Scene| s.components.iter().map(|c| (c.name.clone(), c.level)).collect::<Vec<_>>();
    assert_eq!(components(a), components(b), "{what}: components");
    assert_eq!(a.files[0].units, b.files[0].units, "{what}: units");
    assert_eq!(a.nodes.len(), b.nodes.len(), "{what}: node count");
    assert_eq!(a.roots, b.roots, "{what}: roots");
    for (i, (x, y)) in a.nodes.iter().zip(&b.nodes).enumerate() {
        let at = format!("{what}: node {i} ({} DEF '{}')", x.type_name, x.def_name());
        assert_eq!((&x.type_name, &x.def, &x.proto), (&y.type_name, &y.def, &y.proto), "{at}");
        assert_eq!(x.fields.len(), y.fields.len(), "{at}: fields");
        for (f, g) in x.fields.iter().zip(&y.fields) {
            assert_eq!(f.name, g.name, "{at}");
            assert!(
                same_field_value(&x.type_name, &f.name, &f.value, &g.value),
                "{at}: {} {:?} vs {:?}",
                f.name,
                f.value,
                g.value
            );
        }
        let children = |n: &x3d::Node| n.children.iter().map(|c| (c.field.clone(), c.node)).collect::<Vec<_>>();
        assert_eq!(children(x), children(y), "{at}: children");
        assert_eq!(x.is_connections, y.is_connections, "{at}: IS");
    }
    let routes = |s: &Scene| {
        s.routes.iter().map(|r| (r.from_node, r.from_field.clone(), r.to_node, r.to_field.clone())).collect::<Vec<_>>()
    };
    assert_eq!(routes(a), routes(b), "{what}: routes");
    let defs = |s: &Scene| s.defs.iter().map(|(k, v)| (k.clone(), *v)).collect::<BTreeMap<_, _>>();
    assert_eq!(defs(a), defs(b), "{what}: DEFs");
}

fn xml_written_from_every_corpus_file_loads_to_the_same_scene() {
    for path in xml_corpus() {
        let name = file_name(&path);
        let original = x3d::load_file(&path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let xml = xml_of(&read_tree(&path));
        let written = x3d::load_str(&xml, &path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_same_scene(&original, &written, &name);
        assert!(!original.nodes.is_empty(), "{name}");
    }
}

// ---------------------------------------------------------------------------------------------------
// Schema validation
// ---------------------------------------------------------------------------------------------------

/// xmllint's schema errors per file, each without its `FILE:LINE:` prefix (empty when it validates).
fn xmllint_errors(schemas: &Path, files: &[PathBuf]) -> BTreeMap<PathBuf, BTreeSet<String>> {
    let log = common::schema::xmllint_report(schemas, files).expect("running xmllint");
    let mut out = BTreeMap::new();
    for file in files {
        let shown = file.display().to_string();
        let validates = log.lines().any(|l| l == format!("{shown} validates"));
        let errors: BTreeSet<String> = log
            .lines()
            .filter_map(|l| l.strip_prefix(&format!("{shown}:")))
            .map(|rest| rest.split_once(": ").map_or(rest, |(_, message)| message).to_string())
            .collect();
        assert!(
            validates != (!errors.is_empty() || log.contains(&format!("{shown} fails"))),
            "xmllint on {shown}:\n{log}"
        );
        out.insert(file.clone(), errors);
    }
    out
}

/// Every file the XML writer writes validates, except where the original breaks the schema in its
/// content (JohnJoint20: a Transform after the HAnimDisplacers of a segment): then the written file has
/// no error the original does not have. Errors of the original's `X3D` attributes (Pirouette's
/// `https://` XSI namespace) are the writer's to fix, so the written file must not have them.
fn xml_written_from_every_corpus_file_validates_against_the_x3d_4_0_schema() {
    if !has_program("xmllint") {
        common::harness::skip("xmllint not on PATH (apt-get install libxml2-utils)");
    }
    let Some(schemas) = common::schema::schemas_dir() else {
        common::harness::skip("../shared/schemas/x3d-4.0.xsd not found beside the project");
    };
    let dir = tempfile::tempdir().unwrap();
    let originals = xml_corpus();
    let written: Vec<PathBuf> = originals
        .iter()
        .map(|path| {
            let out = dir.path().join(file_name(path));
            std::fs::write(&out, xml_of(&read_tree(path))).unwrap();
            out
        })
        .collect();
    let original_errors = xmllint_errors(&schemas, &originals);
    let written_errors = xmllint_errors(&schemas, &written);
    let mut valid = 0;
    for (original, out) in originals.iter().zip(&written) {
        let expected: BTreeSet<&String> =
            original_errors[original].iter().filter(|e| !e.contains("Element 'X3D'")).collect();
        let got: BTreeSet<&String> = written_errors[out].iter().collect();
        assert!(
            got.is_subset(&expected),
            "{}: errors the original does not have: {:?}",
            file_name(original),
            got.difference(&expected)
        );
        if got.is_empty() {
            valid += 1;
        }
    }
    let content_invalid =
        originals.iter().filter(|p| original_errors[*p].iter().any(|e| !e.contains("Element 'X3D'"))).count();
    assert_eq!(valid, originals.len() - content_invalid, "every file without content errors validates");
    assert!(valid >= originals.len() - 1, "{valid} of {} validate", originals.len());
}

const VALIDATE_JSON: &str = r#"
import json, sys
from jsonschema import Draft202012Validator
validators = {v: Draft202012Validator(json.load(open(p, encoding="utf-8"))) for v, p in (("4.0", sys.argv[1]), ("4.1", sys.argv[2]))}
for path in sys.argv[3:]:
    doc = json.load(open(path, encoding="utf-8"))
    version = "4.1" if doc.get("X3D", {}).get("@version") == "4.1" else "4.0"
    errors = list(validators[version].iter_errors(doc))
    print(path + "\t" + ("valid" if not errors else str(len(errors)) + " errors; first: " + errors[0].json_path + " " + errors[0].message[:300]))
"#;

fn json_written_from_every_corpus_file_validates_against_the_x3d_json_schema() {
    let has_jsonschema = Command::new("python3")
        .args(["-c", "import jsonschema"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !has_jsonschema {
        common::harness::skip("python3 with jsonschema not found (python3 -m pip install jsonschema)");
    }
    let Some(schemas) = common::schema::schemas_dir() else {
        common::harness::skip("../shared/schemas not found beside the project");
    };
    let dir = tempfile::tempdir().unwrap();
    let written: Vec<PathBuf> = xml_corpus()
        .iter()
        .map(|path| {
            let out = dir.path().join(file_name(path)).with_extension("x3dj");
            let json = syntax::write(&read_tree(path), Encoding::Json);
            let value: serde_json::Value =
                serde_json::from_str(&json).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
            assert_eq!(value["X3D"]["encoding"], "UTF-8");
            std::fs::write(&out, json).unwrap();
            out
        })
        .collect();
    let output = Command::new("python3")
        .args(["-c", VALIDATE_JSON])
        .arg(schemas.join("x3d-4.0-JSONSchema.json"))
        .arg(schemas.join("x3d-4.1-JSONSchema.json"))
        .args(&written)
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{log}\n{}", String::from_utf8_lossy(&output.stderr));
    for out in &written {
        let line =
            log.lines().find(|l| l.starts_with(&format!("{}\t", out.display()))).unwrap_or_else(|| panic!("{log}"));
        assert!(line.ends_with("\tvalid"), "{line}");
    }
}

// ---------------------------------------------------------------------------------------------------
// The command
// ---------------------------------------------------------------------------------------------------

fn convert(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hanim-viewer")).arg("convert").args(args).output().unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn convert_writes_xml_json_and_gzip_by_extension() {
    let input = common::corpus("x3d/DiamondManLOA0.x3d");
    let dir = tempfile::tempdir().unwrap();
    let original = read_tree(&input);
    for (name, encoding, gzip) in [
        ("a.x3d", Encoding::Xml, false),
        ("b.x3dj", Encoding::Json, false),
        ("c.x3dz", Encoding::Xml, true),
        ("d.x3djz", Encoding::Json, true),
        ("e.x3d.gz", Encoding::Xml, true),
    ] {
        let out = dir.path().join(name);
        let result = convert(&[input.as_os_str(), "--out".as_ref(), out.as_os_str()]);
        assert!(result.status.success(), "{name}: {}", stderr(&result));
        let bytes = std::fs::read(&out).unwrap();
        assert_eq!(bytes.starts_with(&[0x1f, 0x8b]), gzip, "{name}: gzip magic");
        let mut text = String::new();
        if gzip {
            flate2::read::GzDecoder::new(&bytes[..]).read_to_string(&mut text).unwrap();
        } else {
            text = String::from_utf8(bytes).unwrap();
        }
        match encoding {
            Encoding::Xml => {
                assert!(text.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<X3D "), "{name}");
                assert_same_tree(&original, &syntax::read(&text, Encoding::Xml, &out).unwrap(), name);
            }
            _ => {
                let value: serde_json::Value = serde_json::from_str(&text).unwrap();
                assert_eq!(value["X3D"]["@version"], "4.0", "{name}");
                assert!(value["X3D"]["Scene"]["-children"].is_array(), "{name}");
            }
        }
    }
    // --to when the extension says nothing; a gzip-compressed input reads like the plain one.
    let gz_input = dir.path().join("in.x3d.gz");
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(&std::fs::read(&input).unwrap()).unwrap();
    std::fs::write(&gz_input, encoder.finish().unwrap()).unwrap();
    let out = dir.path().join("plain.txt");
    let result = convert(&[gz_input.as_os_str(), "--out".as_ref(), out.as_os_str(), "--to".as_ref(), "xml".as_ref()]);
    assert!(result.status.success(), "{}", stderr(&result));
    assert_same_tree(
        &original,
        &syntax::read(&std::fs::read_to_string(&out).unwrap(), Encoding::Xml, &out).unwrap(),
        "--to xml",
    );
}

fn convert_refuses_bad_arguments_and_never_overwrites_its_input() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.x3d");
    std::fs::copy(common::corpus("x3d/DiamondManLOA0.x3d"), &input).unwrap();
    let before = std::fs::read(&input).unwrap();

    let same = convert(&[input.as_os_str(), "--out".as_ref(), input.as_os_str()]);
    assert_eq!(same.status.code(), Some(1));
    assert!(stderr(&same).contains("is the input file"), "{}", stderr(&same));
    assert_eq!(std::fs::read(&input).unwrap(), before, "the input is untouched");

    let unnamed = dir.path().join("out.bin");
    let silent = convert(&[input.as_os_str(), "--out".as_ref(), unnamed.as_os_str()]);
    assert_eq!(silent.status.code(), Some(1));
    assert!(stderr(&silent).contains("give --to"), "{}", stderr(&silent));
    assert!(!unnamed.exists());

    let json = dir.path().join("out.x3dj");
    let clash = convert(&[input.as_os_str(), "--out".as_ref(), json.as_os_str(), "--to".as_ref(), "xml".as_ref()]);
    assert_eq!(clash.status.code(), Some(1));
    assert!(stderr(&clash).contains("--to asks for X3D XML"), "{}", stderr(&clash));
    assert!(!json.exists());

    let missing = convert(&[dir.path().join("nope.x3d").as_os_str(), "--out".as_ref(), json.as_os_str()]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(!json.exists());
}

/// Malformed input: exit 1 with FILE:LINE:COLUMN, and no OUT (an OUT already there is left as it was).
fn convert_of_bad_input_names_line_and_column_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for (fixture, at) in
        [("mismatched_end_tag.x3d", None), ("text_before_root.x3d", Some(":3:1: ")), ("unknown_entity.x3d", None)]
    {
        let input = common::test_data("bad").join(fixture);
        let expected = syntax::read(&std::fs::read_to_string(&input).unwrap(), Encoding::Xml, &input).unwrap_err();
        let out = dir.path().join(fixture).with_extension("x3dj");
        let result = convert(&[input.as_os_str(), "--out".as_ref(), out.as_os_str()]);
        assert_eq!(result.status.code(), Some(1), "{fixture}");
        let message = stderr(&result);
        let position = expected.pos.at.expect("a position");
        let prefix = format!("{}:{}:{}: ", input.display(), position.line, position.column);
        assert!(message.contains(&prefix), "{fixture}: {message} lacks {prefix}");
        if let Some(at) = at {
            assert!(message.contains(at), "{fixture}: {message}");
        }
        assert!(!out.exists(), "{fixture}: a failed convert leaves no output");
        let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert!(leftovers.is_empty(), "{fixture}: {leftovers:?}");
    }
    // An OUT that exists already stays as it was.
    let out = dir.path().join("kept.x3d");
    std::fs::write(&out, "old").unwrap();
    let result =
        convert(&[common::test_data("bad/truncated_mid_element.x3d").as_os_str(), "--out".as_ref(), out.as_os_str()]);
    assert_eq!(result.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "old");
}

/// Not UTF-8 and no declared encoding: refused at the first bad byte, not guessed.
fn convert_refuses_text_that_is_not_utf8_at_its_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("latin.x3d");
    std::fs::write(
        &input,
        b"<X3D profile='Full' version='4.0'>\n<Scene>\n<WorldInfo title='caf\xe9'/>\n</Scene></X3D>\n",
    )
    .unwrap();
    let out = dir.path().join("out.x3d");
    let result = convert(&[input.as_os_str(), "--out".as_ref(), out.as_os_str()]);
    assert_eq!(result.status.code(), Some(1));
    assert!(stderr(&result).contains(&format!("{}:3:22: not valid UTF-8", input.display())), "{}", stderr(&result));
    assert!(!out.exists());
}

/// A ClassicVRML input goes through its reader: converted when that reader reads it, else refused with
/// the reader's error (file and line:column) and no output, never a crash.
fn convert_of_classic_input_converts_or_fails_cleanly() {
    let input = common::corpus("vrml/hanim_transforms.x3dv");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.x3d");
    let result = convert(&[input.as_os_str(), "--out".as_ref(), out.as_os_str()]);
    match result.status.code() {
        Some(0) => {
            let text = std::fs::read_to_string(&out).unwrap();
            let scene = x3d::load_str(&text, &input, &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
            assert!(!scene.nodes.is_empty());
        }
        Some(1) => {
            let message = stderr(&result);
            assert!(message.starts_with(&format!("error: {}:", input.display())), "{message}");
            assert!(!out.exists());
        }
        other => panic!("exit {other:?}: {}", stderr(&result)),
    }
}
