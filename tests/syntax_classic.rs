//! The ClassicVRML encoding against the syntax tree `convert` works on: every classic file of the corpus
//! and of the fixtures reads into a tree that writes back as text reading into the same tree, and that
//! text loads with the real loader into the same scene as the original; the tree of a small file is the
//! XML-shaped one, element by element; hand-built trees write the expected text; malformed files fail
//! where they are wrong.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use hanim_viewer::x3d::syntax::{self, Attribute, Content, Element, SyntaxDocument};
use hanim_viewer::x3d::{self, Encoding, LoadOptions, NodeId, Scene, fields};

fn project() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every classic file of the corpus and of the fixtures that load without error.
fn classic_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["tests/corpus/vrml", "tests/data/vrml", "tests/data/classic_syntax"] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(project().join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "wrl" || e == "x3dv"))
            .collect();
        found.sort();
        files.extend(found);
    }
    assert!(files.len() >= 17, "{files:?}");
    files
}

fn text_of(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap();
    let text = x3d::decode_to_utf8(&bytes, path).unwrap();
    String::from_utf8(text.into_owned()).unwrap()
}

fn read(text: &str, path: &Path) -> SyntaxDocument {
    syntax::read(text, Encoding::Classic, path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The tree with every byte offset zeroed, for comparing trees read from different texts.
fn without_offsets(mut document: SyntaxDocument) -> SyntaxDocument {
    fn clear(e: &mut Element) {
        e.offset = 0;
        for a in &mut e.attributes {
            a.offset = 0;
        }
        for c in &mut e.content {
            if let Content::Element(child) = c {
                clear(child);
            }
        }
    }
    clear(&mut document.root);
    document
}

/// Builds an element: `el("Transform", &[("DEF", "T")], vec![…])`.
fn el(name: &str, attributes: &[(&str, &str)], content: Vec<Content>) -> Content {
    Content::Element(Element {
        name: name.to_string(),
        attributes: attributes
            .iter()
            .map(|(n, v)| Attribute { name: n.to_string(), value: v.to_string(), offset: 0 })
            .collect(),
        content,
        offset: 0,
    })
}

fn comment(text: &str) -> Content {
    Content::Comment(text.to_string())
}

fn document(content: Vec<Content>, attributes: &[(&str, &str)]) -> SyntaxDocument {
    match el("X3D", attributes, content) {
        Content::Element(root) => SyntaxDocument { root },
        _ => unreachable!(),
    }
}

#[test]
fn every_classic_file_reads_writes_and_reads_back_the_same_tree() {
    for path in classic_files() {
        let tree = without_offsets(read(&text_of(&path), &path));
        let written = syntax::write(&tree, Encoding::Classic);
        let again = without_offsets(read(&written, &path));
        if again != tree {
            panic!("{}: the tree read back differs\n--- written:\n{written}", path.display());
        }
        // Written again, the text is the same: the writer is a function of the tree.
        assert_eq!(syntax::write(&again, Encoding::Classic), written, "{}", path.display());
    }
}

#[test]
fn written_text_loads_into_the_same_scene_as_the_original() {
    let mut compared = 0;
    for path in classic_files() {
        let text = text_of(&path);
        let original =
            x3d::load_str(&text, &path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let written = syntax::write(&read(&text, &path), Encoding::Classic);
        let loaded = x3d::load_str(&written, &path, &LoadOptions::default())
            .unwrap_or_else(|e| panic!("{}: the written text does not load: {e}\n{written}", path.display()));
        compared += SceneComparison::new(&original, &loaded, &path).compare();
    }
    assert!(compared > 400, "{compared} nodes compared");
}

/// Two loaded scenes compared node by node from their roots: types, DEFs, prototype names, IS
/// connections, fields (numbers by value, booleans in either case), children in order, shared nodes
/// shared alike, ROUTEs, and the document's profile, components, META and units.
struct SceneComparison<'a> {
    a: &'a Scene,
    b: &'a Scene,
    what: String,
    pairs: HashMap<NodeId, NodeId>,
}

impl<'a> SceneComparison<'a> {
    fn new(a: &'a Scene, b: &'a Scene, path: &Path) -> Self {
        Self { a, b, what: path.display().to_string(), pairs: HashMap::new() }
    }

    /// Compares the scenes; returns how many nodes were compared.
    fn compare(mut self) -> usize {
        let what = self.what.clone();
        let version = |s: &Scene| if s.version == "VRML97" { "3.0".to_string() } else { s.version.clone() };
        assert_eq!(version(self.a), version(self.b), "{what}: version");
        if self.a.version != "VRML97" {
            assert_eq!(self.a.profile, self.b.profile, "{what}: profile");
        }
        assert_eq!(self.a.components.len(), self.b.components.len(), "{what}: components");
        for (x, y) in self.a.components.iter().zip(&self.b.components) {
            assert_eq!((&x.name, x.level), (&y.name, y.level), "{what}: component");
        }
        assert_eq!(self.a.meta, self.b.meta, "{what}: META");
        let (ua, ub) = (&self.a.files[0].units, &self.b.files[0].units);
        assert_eq!((ua.length, ua.angle, ua.mass, ua.force), (ub.length, ub.angle, ub.mass, ub.force), "{what}: units");
        assert_eq!(self.a.roots.len(), self.b.roots.len(), "{what}: roots");
        for (i, (&x, &y)) in self.a.roots.iter().zip(&self.b.roots).enumerate() {
            self.nodes(x, y, &format!("root {i}"));
        }
        assert_eq!(self.a.routes.len(), self.b.routes.len(), "{what}: routes");
        for (x, y) in self.a.routes.iter().zip(&self.b.routes) {
            assert_eq!((&x.from_field, &x.to_field), (&y.from_field, &y.to_field), "{what}: route");
            for (from, to) in [(x.from_node, y.from_node), (x.to_node, y.to_node)] {
                match self.pairs.get(&from) {
                    Some(&paired) => assert_eq!(paired, to, "{what}: route ends"),
                    None => assert_eq!(self.a.node(from).def, self.b.node(to).def, "{what}: route ends"),
                }
            }
        }
        self.pairs.len()
    }

    fn nodes(&mut self, x: NodeId, y: NodeId, at: &str) {
        let what = format!("{} at {at}", self.what);
        if let Some(&paired) = self.pairs.get(&x) {
            assert_eq!(paired, y, "{what}: a node shared in one scene and not in the other");
            return;
        }
        self.pairs.insert(x, y);
        let (a, b) = (self.a.node(x), self.b.node(y));
        let here = format!("{at}/{}", a.type_name);
        assert_eq!(a.type_name, b.type_name, "{what}: type");
        assert_eq!(a.def, b.def, "{what}: DEF");
        assert_eq!(a.proto, b.proto, "{what}: prototype");
        assert_eq!(a.is_connections, b.is_connections, "{what}: IS");
        let mut names_a: Vec<&str> = a.fields.iter().map(|f| f.name.as_str()).collect();
        let mut names_b: Vec<&str> = b.fields.iter().map(|f| f.name.as_str()).collect();
        names_a.sort();
        names_b.sort();
        assert_eq!(names_a, names_b, "{what}: fields");
        for f in &a.fields {
            let g = b.field(&f.name).unwrap();
            assert!(same_value(&f.value, &g.value), "{what}: field {}: {:?} vs {:?}", f.name, f.value, g.value);
        }
        assert_eq!(a.children.len(), b.children.len(), "{what}: children");
        let pairs: Vec<(String, NodeId, NodeId)> =
            a.children.iter().zip(&b.children).map(|(c, d)| (c.field.clone(), c.node, d.node)).collect();
        for ((field, c, d), e) in pairs.into_iter().zip(&b.children) {
            assert_eq!(field, e.field, "{what}: child field");
            self.nodes(c, d, &format!("{here}.{field}"));
        }
    }
}

/// Field texts equal token by token: numbers by value (hexadecimal too), booleans in either case.
fn same_value(a: &str, b: &str) -> bool {
    let number = |t: &str| -> Option<f64> {
        let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
        let magnitude = match digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
            Some(hex) => i64::from_str_radix(hex, 16).ok()? as f64,
            None if digits.starts_with(|c: char| c.is_ascii_digit() || c == '.') => digits.parse().ok()?,
            None => return None,
        };
        Some(if t.starts_with('-') { -magnitude } else { magnitude })
    };
    let ta: Vec<&str> = fields::tokens(a).map(|(_, t)| t).collect();
    let tb: Vec<&str> = fields::tokens(b).map(|(_, t)| t).collect();
    ta.len() == tb.len()
        && ta.iter().zip(&tb).all(|(x, y)| {
            x == y
                || number(x).is_some_and(|p| number(y) == Some(p))
                || (x.eq_ignore_ascii_case(y) && matches!(x.to_ascii_lowercase().as_str(), "true" | "false"))
        })
}

#[test]
fn a_small_file_reads_into_the_tree_the_xml_encoding_gives() {
    let text = r#"#VRML V2.0 utf8
PROTO Joint [ exposedField SFString name "" exposedField MFNode children [ ] eventIn SFFloat pulse ]
{ Transform { children IS children } }
# the root
DEF R Joint { name "a\"b" children [ DEF S Shape { geometry Box { size 1, 2 0x3 } } ] }
DEF H HAnimHumanoid { skeleton USE S info "x" joints [ ] skin NULL }
Segment { name "undeclared" mass 2 }
ROUTE R.name_changed TO H.set_name
"#;
    let tree = without_offsets(read(text, Path::new("small.wrl")));
    let expected = document(
        vec![el(
            "Scene",
            &[],
            vec![
                el(
                    "ProtoDeclare",
                    &[("name", "Joint")],
                    vec![
                        el(
                            "ProtoInterface",
                            &[],
                            vec![
                                el(
                                    "field",
                                    &[
                                        ("name", "name"),
                                        ("type", "SFString"),
                                        ("accessType", "inputOutput"),
                                        ("value", ""),
                                    ],
                                    vec![],
                                ),
                                el(
                                    "field",
                                    &[("name", "children"), ("type", "MFNode"), ("accessType", "inputOutput")],
                                    vec![],
                                ),
                                el(
                                    "field",
                                    &[("name", "pulse"), ("type", "SFFloat"), ("accessType", "inputOnly")],
                                    vec![],
                                ),
                            ],
                        ),
                        el(
                            "ProtoBody",
                            &[],
                            vec![el(
                                "Transform",
                                &[],
                                vec![el(
                                    "IS",
                                    &[],
                                    vec![el(
                                        "connect",
                                        &[("nodeField", "children"), ("protoField", "children")],
                                        vec![],
                                    )],
                                )],
                            )],
                        ),
                    ],
                ),
                comment("the root"),
                el(
                    "ProtoInstance",
                    &[("name", "Joint"), ("DEF", "R")],
                    vec![
                        el("fieldValue", &[("name", "name"), ("value", "a\"b")], vec![]),
                        el(
                            "fieldValue",
                            &[("name", "children")],
                            vec![el("Shape", &[("DEF", "S")], vec![el("Box", &[("size", "1 2 3")], vec![])])],
                        ),
                    ],
                ),
                el(
                    "HAnimHumanoid",
                    &[("DEF", "H"), ("info", "\"x\"")],
                    vec![el("Shape", &[("USE", "S"), ("containerField", "skeleton")], vec![])],
                ),
                // An H-Anim 1.x name used without a PROTO is an instance (as the loader reads it), its
                // fields typed by the H-Anim node it stands for.
                el(
                    "ProtoInstance",
                    &[("name", "Segment")],
                    vec![
                        el("fieldValue", &[("name", "name"), ("value", "undeclared")], vec![]),
                        el("fieldValue", &[("name", "mass"), ("value", "2")], vec![]),
                    ],
                ),
                el(
                    "ROUTE",
                    &[("fromNode", "R"), ("fromField", "name_changed"), ("toNode", "H"), ("toField", "set_name")],
                    vec![],
                ),
            ],
        )],
        &[("version", "3.0"), ("profile", "Immersive")],
    );
    assert_eq!(tree, expected);
}

#[test]
fn head_statements_script_fields_and_comments_have_their_elements_and_places() {
    let text = r#"#X3D V3.3 utf8
# before the profile
PROFILE Interchange
# before the component
COMPONENT HAnim:1
UNIT length millimetre 0.001
META "n" "c \"q\""
# before the first node
DEF T Transform { # after the brace
  translation 1 2 3 # after a value
  children [
    # before the shape
    Shape { }
  ]
}
DEF S Script {
  inputOutput SFFloat x 0.5
  field MFString s [ "a b" "c" ]
  eventOut SFNode n
  initializeOnly SFNode m USE T
  url "ecmascript: x"
}
Group { metadata MetadataBoolean { value [ TRUE FALSE ] } }
# at the end
"#;
    let tree = without_offsets(read(text, Path::new("head.x3dv")));
    let expected = document(
        vec![
            el(
                "head",
                &[],
                vec![
                    comment("before the profile"),
                    comment("before the component"),
                    el("component", &[("name", "HAnim"), ("level", "1")], vec![]),
                    el(
                        "unit",
                        &[("category", "length"), ("name", "millimetre"), ("conversionFactor", "0.001")],
                        vec![],
                    ),
                    el("meta", &[("name", "n"), ("content", "c \"q\"")], vec![]),
                ],
            ),
            el(
                "Scene",
                &[],
                vec![
                    comment("before the first node"),
                    el(
                        "Transform",
                        &[("DEF", "T"), ("translation", "1 2 3")],
                        vec![
                            comment("after the brace"),
                            comment("after a value"),
                            comment("before the shape"),
                            el("Shape", &[], vec![]),
                        ],
                    ),
                    el(
                        "Script",
                        &[("DEF", "S"), ("url", "\"ecmascript: x\"")],
                        vec![
                            el(
                                "field",
                                &[("name", "x"), ("type", "SFFloat"), ("accessType", "inputOutput"), ("value", "0.5")],
                                vec![],
                            ),
                            el(
                                "field",
                                &[
                                    ("name", "s"),
                                    ("type", "MFString"),
                                    ("accessType", "initializeOnly"),
                                    ("value", "\"a b\" \"c\""),
                                ],
                                vec![],
                            ),
                            el("field", &[("name", "n"), ("type", "SFNode"), ("accessType", "outputOnly")], vec![]),
                            el(
                                "field",
                                &[("name", "m"), ("type", "SFNode"), ("accessType", "initializeOnly")],
                                vec![el("Transform", &[("USE", "T")], vec![])],
                            ),
                        ],
                    ),
                    el("Group", &[], vec![el("MetadataBoolean", &[("value", "true false")], vec![])]),
                    comment("at the end"),
                ],
            ),
        ],
        &[("version", "3.3"), ("profile", "Interchange")],
    );
    assert_eq!(tree, expected);
}

#[test]
fn values_are_typed_by_their_field() {
    let text = r#"#X3D V4.0 utf8
WorldInfo { title "one \\ two" info "single" }
IndexedFaceSet { coordIndex [ 0x0A, -0x1 2 ] solid FALSE creaseAngle .5 }
PixelTexture { image 1 1 3 0xFF00FF }
Anchor { url [ ] parameter [ "a\"b" ] }
Unknown { n 1 2, 3 b TRUE s "plain" l [ "x" ] e [ ] node Shape { } list [ Group { } ] }
"#;
    let tree = without_offsets(read(text, Path::new("values.x3dv")));
    let scene = tree.root.child("Scene").unwrap();
    let attrs = |i: usize| -> Vec<(String, String)> {
        scene.elements().nth(i).unwrap().attributes.iter().map(|a| (a.name.clone(), a.value.clone())).collect()
    };
    let pairs = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect()
    };
    assert_eq!(attrs(0), pairs(&[("title", "one \\ two"), ("info", "\"single\"")]));
    assert_eq!(attrs(1), pairs(&[("coordIndex", "10 -1 2"), ("solid", "false"), ("creaseAngle", ".5")]));
    assert_eq!(attrs(2), pairs(&[("image", "1 1 3 16711935")]));
    assert_eq!(attrs(3), pairs(&[("url", ""), ("parameter", "\"a\\\"b\"")]));
    // Not in the standard's table: typed by what is written.
    assert_eq!(attrs(4), pairs(&[("n", "1 2 3"), ("b", "true"), ("s", "plain"), ("l", "\"x\""), ("e", "")]));
    let unknown = scene.elements().nth(4).unwrap();
    let children: Vec<(&str, Option<&str>)> =
        unknown.elements().map(|e| (e.name.as_str(), e.attribute("containerField"))).collect();
    assert_eq!(children, vec![("Shape", Some("node")), ("Group", Some("list"))]);
}

#[test]
fn a_hand_built_tree_writes_the_expected_text() {
    let tree = document(
        vec![
            el(
                "head",
                &[],
                vec![
                    el("component", &[("name", "HAnim"), ("level", "2")], vec![]),
                    el("unit", &[("category", "length"), ("name", "centimetre"), ("conversionFactor", "0.01")], vec![]),
                    el("meta", &[("name", "title"), ("content", "a \"b\"")], vec![]),
                    comment("head comment"),
                ],
            ),
            el(
                "Scene",
                &[],
                vec![
                    comment(" two\n  lines "),
                    el(
                        "ProtoDeclare",
                        &[("name", "P")],
                        vec![
                            el(
                                "ProtoInterface",
                                &[],
                                vec![
                                    el(
                                        "field",
                                        &[
                                            ("name", "at"),
                                            ("type", "SFVec3f"),
                                            ("accessType", "inputOutput"),
                                            ("value", "0 0 0"),
                                        ],
                                        vec![],
                                    ),
                                    el(
                                        "field",
                                        &[("name", "kids"), ("type", "MFNode"), ("accessType", "inputOutput")],
                                        vec![el("Box", &[], vec![])],
                                    ),
                                    el(
                                        "field",
                                        &[("name", "flag"), ("type", "SFBool"), ("accessType", "initializeOnly")],
                                        vec![],
                                    ),
                                    el(
                                        "field",
                                        &[("name", "hit"), ("type", "SFTime"), ("accessType", "inputOnly")],
                                        vec![],
                                    ),
                                ],
                            ),
                            el(
                                "ProtoBody",
                                &[],
                                vec![el(
                                    "Transform",
                                    &[],
                                    vec![
                                        el(
                                            "IS",
                                            &[],
                                            vec![el(
                                                "connect",
                                                &[("nodeField", "translation"), ("protoField", "at")],
                                                vec![],
                                            )],
                                        ),
                                        el(
                                            "Group",
                                            &[],
                                            vec![el(
                                                "IS",
                                                &[],
                                                vec![el(
                                                    "connect",
                                                    &[("nodeField", "children"), ("protoField", "kids")],
                                                    vec![],
                                                )],
                                            )],
                                        ),
                                    ],
                                )],
                            ),
                        ],
                    ),
                    el(
                        "ExternProtoDeclare",
                        &[("name", "E"), ("url", "\"e.x3dv#E\" \"https://example.org/e.x3dv#E\"")],
                        vec![el(
                            "field",
                            &[("name", "label"), ("type", "SFString"), ("accessType", "inputOutput")],
                            vec![],
                        )],
                    ),
                    el(
                        "Transform",
                        &[("DEF", "T"), ("translation", "1 2 3"), ("rotation", "0,1,0,1.57"), ("visible", "true")],
                        vec![
                            el(
                                "Shape",
                                &[],
                                vec![
                                    el("Appearance", &[], vec![el("Material", &[("diffuseColor", "1 0 0")], vec![])]),
                                    comment("the geometry"),
                                    el("Box", &[("size", "1 1 1")], vec![]),
                                ],
                            ),
                            el("MetadataString", &[("name", "m"), ("value", "\"v\"")], vec![]),
                        ],
                    ),
                    el(
                        "ProtoInstance",
                        &[("name", "P"), ("DEF", "I")],
                        vec![
                            el("fieldValue", &[("name", "at"), ("value", "4 5 6")], vec![]),
                            el("fieldValue", &[("name", "kids")], vec![el("Transform", &[("USE", "T")], vec![])]),
                        ],
                    ),
                    el(
                        "Script",
                        &[("DEF", "S")],
                        vec![
                            el("field", &[("name", "t"), ("type", "SFTime"), ("accessType", "inputOnly")], vec![]),
                            el(
                                "field",
                                &[
                                    ("name", "s"),
                                    ("type", "MFString"),
                                    ("accessType", "initializeOnly"),
                                    ("value", "\"a\" \"b\\\"c\""),
                                ],
                                vec![],
                            ),
                            el(
                                "field",
                                &[("name", "n"), ("type", "SFNode"), ("accessType", "initializeOnly")],
                                vec![el("Transform", &[("USE", "T")], vec![])],
                            ),
                            Content::SourceCode("\nfunction t(v) { print(\"t\"); }\n".to_string()),
                        ],
                    ),
                    el("Foo", &[("a", "1 2"), ("b", "true"), ("c", "hello \"world\""), ("d", "")], vec![]),
                    el(
                        "HAnimHumanoid",
                        &[("name", "h")],
                        vec![
                            el(
                                "HAnimJoint",
                                &[("DEF", "J"), ("name", "humanoid_root"), ("containerField", "skeleton")],
                                vec![],
                            ),
                            el("HAnimJoint", &[("USE", "J"), ("containerField", "joints")], vec![]),
                        ],
                    ),
                    el(
                        "ROUTE",
                        &[
                            ("fromNode", "T"),
                            ("fromField", "translation_changed"),
                            ("toNode", "I"),
                            ("toField", "set_at"),
                        ],
                        vec![],
                    ),
                    el("IMPORT", &[("inlineDEF", "L"), ("importedDEF", "E1"), ("AS", "Local")], vec![]),
                    el("EXPORT", &[("localDEF", "T")], vec![]),
                ],
            ),
        ],
        &[
            ("profile", "Immersive"),
            ("version", "4.0"),
            ("xmlns:xsd", "http://www.w3.org/2001/XMLSchema-instance"),
            ("xsd:noNamespaceSchemaLocation", "https://www.web3d.org/specifications/x3d-4.0.xsd"),
        ],
    );
    let expected = r#"#X3D V4.0 utf8
PROFILE Immersive
COMPONENT HAnim:2
UNIT length centimetre 0.01
META "title" "a \"b\""
# head comment

# two
# lines
PROTO P [
  inputOutput SFVec3f at 0 0 0
  inputOutput MFNode kids [
    Box { }
  ]
  initializeOnly SFBool flag FALSE
  inputOnly SFTime hit
]
{
  Transform {
    translation IS at
    children [
      Group {
        children IS kids
      }
    ]
  }
}
EXTERNPROTO E [
  inputOutput SFString label
] [ "e.x3dv#E" "https://example.org/e.x3dv#E" ]
DEF T Transform {
  translation 1 2 3
  rotation 0 1 0 1.57
  visible TRUE
  children [
    Shape {
      appearance Appearance {
        material Material {
          diffuseColor 1 0 0
        }
      }
      geometry
        # the geometry
        Box {
          size 1 1 1
        }
    }
  ]
  metadata MetadataString {
    name "m"
    value [ "v" ]
  }
}
DEF I P {
  at 4 5 6
  kids [
    USE T
  ]
}
DEF S Script {
  url [ "ecmascript:
function t(v) { print(\"t\"); }
" ]
  inputOnly SFTime t
  initializeOnly MFString s [ "a" "b\"c" ]
  initializeOnly SFNode n USE T
}
Foo {
  a [ 1 2 ]
  b TRUE
  c "hello \"world\""
  d ""
}
HAnimHumanoid {
  name "h"
  skeleton [
    DEF J HAnimJoint {
      name "humanoid_root"
    }
  ]
  joints [
    USE J
  ]
}
ROUTE T.translation_changed TO I.set_at
IMPORT L.E1 AS Local
EXPORT T
"#;
    let written = syntax::write(&tree, Encoding::Classic);
    assert_eq!(written, expected, "\n{written}");
    // The text reads back into the tree, the inline source now the Script's url.
    let again = without_offsets(read(&written, Path::new("hand.x3dv")));
    let script = again.root.child("Scene").unwrap().elements().find(|e| e.name == "Script").unwrap();
    assert_eq!(script.attribute("url"), Some("\"ecmascript:\nfunction t(v) { print(\\\"t\\\"); }\n\""));
    let transform = again.root.child("Scene").unwrap().child("Transform").unwrap();
    assert_eq!(transform.attribute("rotation"), Some("0 1 0 1.57"));
    assert!(x3d::load_str(&written, Path::new("hand.x3dv"), &LoadOptions::default()).is_ok());
}

#[test]
fn a_script_with_a_url_keeps_it_and_says_the_inline_source_is_left_out() {
    let tree = document(
        vec![el(
            "Scene",
            &[],
            vec![el("Script", &[("url", "\"run.js\"")], vec![Content::SourceCode("function f() {}".to_string())])],
        )],
        &[],
    );
    assert_eq!(
        syntax::write(&tree, Encoding::Classic),
        "#X3D V4.0 utf8\n\nScript {\n  url [ \"run.js\" ]\n  # the inline source code is not written: the node has a url\n}\n"
    );
}

#[test]
fn a_route_among_the_nodes_of_a_list_is_read_and_written_where_the_loader_takes_it() {
    let text = "#X3D V4.0 utf8\nDEF G Group { children [ DEF A TimeSensor { } ROUTE A.fraction_changed TO B.set_fraction \
                DEF B ScalarInterpolator { } ] }\n";
    let tree = without_offsets(read(text, Path::new("list.x3dv")));
    let group = tree.root.child("Scene").unwrap().child("Group").unwrap();
    let names: Vec<&str> = group.elements().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["TimeSensor", "ROUTE", "ScalarInterpolator"]);
    // Written in the Group's body, after its children.
    let written = syntax::write(&tree, Encoding::Classic);
    assert!(written.contains("  ]\n  ROUTE A.fraction_changed TO B.set_fraction\n}"), "{written}");
    let scene = x3d::load_str(&written, Path::new("list.x3dv"), &LoadOptions::default()).unwrap();
    assert_eq!(scene.routes.len(), 1);
}

#[test]
fn every_component_spacing_reads_into_the_same_component_element() {
    // The loader reads all four (tests/classic_grammar.rs); X_ITE writes `COMPONENT HAnim : 1`.
    for spelling in ["HAnim:1", "HAnim: 1", "HAnim :1", "HAnim : 1"] {
        let text = format!("#X3D V4.0 utf8\nPROFILE Immersive\nCOMPONENT {spelling}\nCOMPONENT Text:1\nGroup {{ }}\n");
        let tree = read(&text, Path::new("component.x3dv"));
        let components: Vec<(Option<&str>, Option<&str>)> =
            tree.root.child("head").unwrap().elements().map(|c| (c.attribute("name"), c.attribute("level"))).collect();
        assert_eq!(components, [(Some("HAnim"), Some("1")), (Some("Text"), Some("1"))], "{spelling}");
        let written = syntax::write(&tree, Encoding::Classic);
        assert!(written.contains("COMPONENT HAnim:1\nCOMPONENT Text:1\n"), "{spelling}:\n{written}");
    }
    let error = syntax::read("#X3D V4.0 utf8\nCOMPONENT HAnim : x\n", Encoding::Classic, Path::new("bad.x3dv"))
        .unwrap_err()
        .to_string();
    assert!(error.contains("bad.x3dv:2:19") && error.contains("expected the support level"), "{error}");
}

#[test]
fn import_and_export_inside_a_node_are_written_after_its_statement() {
    // XML and JSON allow them among a grouping node's children; a classic node body does not (X_ITE
    // refuses such a file): they follow the top-level statement that holds them, with their comments.
    let xml = "<X3D version='4.0'><Scene><Group DEF='G'><Inline DEF='I' url='\"a.x3d\"'/>\
               <!-- the name the Inline exports --><IMPORT inlineDEF='I' importedDEF='E' AS='L'/>\
               <Transform><EXPORT localDEF='G' AS='Out'/></Transform></Group><Shape/></Scene></X3D>";
    let tree = syntax::read(xml, Encoding::Xml, Path::new("import.x3d")).unwrap();
    let written = syntax::write(&tree, Encoding::Classic);
    let expected = "#X3D V4.0 utf8\n\nDEF G Group {\n  children [\n    DEF I Inline {\n      url [ \"a.x3d\" ]\n    }\n    \
                    Transform { }\n  ]\n}\n# the name the Inline exports\nIMPORT I.E AS L\nEXPORT G AS Out\nShape { }\n";
    assert_eq!(written, expected, "\n{written}");
    // The text reads back, and the loader takes it without reading anything beyond the grammar.
    let again = read(&written, Path::new("import.x3dv"));
    let statements: Vec<&str> = again.root.child("Scene").unwrap().elements().map(|e| e.name.as_str()).collect();
    assert_eq!(statements, ["Group", "IMPORT", "EXPORT", "Shape"]);
    let scene = x3d::load_str(&written, Path::new("import.x3dv"), &LoadOptions::default()).unwrap();
    let warnings: Vec<String> = scene.warnings.iter().map(|w| w.message.clone()).collect();
    assert!(warnings.iter().all(|w| !w.contains("inside the body")), "{warnings:?}");
}

#[test]
fn malformed_files_fail_at_the_place_with_what_was_expected() {
    let cases = [
        ("#X3D V4.0 utf8\nDEF T Transform { children [ USE T ] }\n", "2:34", "inside its own DEF"),
        ("#X3D V4.0 utf8\nGroup {\n  children [ Shape { }\n", "4:1", "'children [' opened at 3:12 is not closed"),
        ("VRML V2.0 utf8\n", "1:1", "expected a '#VRML V2.0 utf8' or '#X3D V4.0 utf8' header line"),
        ("#VRML V1.0 ascii\n", "1:1", "VRML 1.0 files are not supported"),
        (
            "#X3D V4.0 utf8\nTransform { translation \"a\" }\n",
            "2:25",
            "field 'translation' (SFVec3f): expected a number",
        ),
        ("#X3D V4.0 utf8\nShape { geometry 1 2 }\n", "2:18", "expected a node, NULL or USE for field 'geometry'"),
        ("#X3D V4.0 utf8\nFoo { x 1 \"a\" }\n", "2:9", "mixes strings and other values"),
        ("#X3D V4.0 utf8\nTransform { translation IS t }\n", "2:28", "outside a PROTO body"),
        ("#X3D V4.0 utf8\nPROTO P [ inputOutput SFFloat f ] { }\n", "2:33", "needs an initial value"),
        ("#X3D V4.0 utf8\nScript { field SFVec9f x 1 }\n", "2:16", "unknown field type 'SFVec9f'"),
        ("#X3D V4.0 utf8\nROUTE A.b C.d\n", "2:11", "expected TO after 'ROUTE A.b'"),
        ("#X3D V4.0 utf8\nGroup { META \"a\" \"b\" }\n", "2:9", "expected a field name or '}' in 'Group'"),
        ("#X3D V4.0 utf8\nPROTO P [ ] { COMPONENT A:1 }\n", "2:15", "COMPONENT is only allowed at the top of the file"),
        ("#X3D V4.0 utf8\nUNIT length metre -1\n", "2:19", "conversion factor must be > 0"),
        ("#X3D V4.0 utf8\nWorldInfo { title \"open }\n", "2:19", "string is not closed"),
    ];
    for (text, at, message) in cases {
        let error = syntax::read(text, Encoding::Classic, Path::new("bad.x3dv")).unwrap_err().to_string();
        assert!(error.contains(&format!("bad.x3dv:{at}")) && error.contains(message), "{text:?}: {error}");
    }
}

#[test]
fn nesting_is_bounded_and_the_deepest_allowed_file_round_trips() {
    let nested = |depth: usize| {
        let mut text = String::from("#X3D V4.0 utf8\n");
        text.push_str(&"Transform { children [\n".repeat(depth - 1));
        text.push_str("Shape { }\n");
        text.push_str(&"] }\n".repeat(depth - 1));
        text
    };
    // On a thread with the default stack of a spawned thread (2 MiB): reading, writing, comparing and
    // dropping the deepest tree all fit, with room to spare.
    let handle = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(move || {
            let deepest = nested(500);
            let tree = without_offsets(read(&deepest, Path::new("deep.x3dv")));
            let written = syntax::write(&tree, Encoding::Classic);
            let same = without_offsets(read(&written, Path::new("deep.x3dv"))) == tree;
            let error = syntax::read(&nested(501), Encoding::Classic, Path::new("deeper.x3dv")).unwrap_err();
            (same, error.to_string())
        })
        .unwrap();
    let (same, error) = handle.join().unwrap();
    assert!(same);
    assert!(error.contains("deeper.x3dv:502:1: nodes nested more than 500 deep"), "{error}");
}
