//! Property tests over random scenes in the three encodings: a random X3D scene (grouping nodes nested at
//! random, shapes with every kind of field value — every SF and MF type the HAnim and rendering nodes use,
//! strings with quotes, backslashes, markup characters, line breaks and characters beyond ASCII — DEF and
//! USE, comments, a PROTO with an instance, ROUTEs, COMPONENT/UNIT/META) is written as X3D XML, read into
//! the syntax tree and printed in each encoding. Each printing
//! - loads to the same scene as the XML original (node for node, field for field, the same sharing and
//!   ROUTEs: `common::scene_compare`),
//! - keeps every comment, and
//! - is a fixed point once read: printed, read and printed again in its own encoding, it is the same text.
//!
//! The chain XML → JSON → ClassicVRML → XML holds the same scene too.

mod common;

use std::path::Path;

use common::scene_compare::assert_same_scene;
use hanim_viewer::x3d::syntax::{self, Content, Element};
use hanim_viewer::x3d::{self, Encoding, LoadOptions, Scene, field_types};
use proptest::prelude::*;

/// One generated node: its type, its non-node fields as XML attribute text (unescaped), its child nodes
/// with the field that holds each (None: the type's default containerField), a DEF, and whether it is
/// to become a USE of the latest earlier DEF of its type.
#[derive(Debug, Clone)]
struct RandomNode {
    type_name: &'static str,
    fields: Vec<(&'static str, String)>,
    children: Vec<(Option<&'static str>, RandomNode)>,
    def: bool,
    reuse: bool,
    comment: Option<String>,
}

impl RandomNode {
    fn new(type_name: &'static str, fields: Vec<(&'static str, String)>) -> Self {
        Self { type_name, fields, children: Vec::new(), def: false, reuse: false, comment: None }
    }

    fn with(mut self, container: Option<&'static str>, child: RandomNode) -> Self {
        self.children.push((container, child));
        self
    }
}

#[derive(Debug, Clone)]
struct RandomScene {
    roots: Vec<RandomNode>,
    component_level: u8,
    unit_factor: f64,
    meta: (String, String),
    proto_size: Option<String>,
}

// ---- values, as the XML encoding writes them ----

fn float() -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        (-1000i32..1000).prop_map(|i| i.to_string()),
        (-1.0e3f32..1.0e3).prop_map(|f| f.to_string()),
        (-1.0e3f32..1.0e3).prop_map(|f| format!("{f:e}")),
        prop::num::f32::NORMAL.prop_map(|f| format!("{f:e}")),
        Just("-0".to_string()),
        Just("1E-7".to_string()),
    ]
}

fn double() -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        prop::num::f64::NORMAL.prop_map(|f| format!("{f:e}")),
        (-1.0e9f64..1.0e9).prop_map(|f| f.to_string()),
        (0i64..4_000_000_000).prop_map(|i| i.to_string()),
    ]
}

fn floats(n: usize) -> impl Strategy<Value = String> + Clone {
    proptest::collection::vec(float(), n).prop_map(|v| v.join(" "))
}

/// `count` tuples of `arity` floats, tuples separated by commas as X3D XML allows.
fn mf_floats(arity: usize, count: std::ops::Range<usize>) -> impl Strategy<Value = String> + Clone {
    proptest::collection::vec(floats(arity), count).prop_map(|v| v.join(", "))
}

fn unit_float() -> impl Strategy<Value = String> + Clone {
    (0.0f32..=1.0).prop_map(|f| f.to_string())
}

fn colour() -> impl Strategy<Value = String> + Clone {
    proptest::collection::vec(unit_float(), 3).prop_map(|v| v.join(" "))
}

fn boolean() -> impl Strategy<Value = String> + Clone {
    any::<bool>().prop_map(|b| b.to_string())
}

fn int32() -> impl Strategy<Value = String> + Clone {
    any::<i32>().prop_map(|i| i.to_string())
}

fn rotation() -> impl Strategy<Value = String> + Clone {
    (floats(3), float()).prop_map(|(axis, angle)| format!("{axis} {angle}"))
}

/// Text for an SFString or one string of an MFString: the characters every encoding escapes or spells
/// differently, beyond ASCII, line breaks included.
fn text() -> impl Strategy<Value = String> + Clone {
    let chars = prop_oneof![
        8 => prop::char::range('a', 'z'),
        1 => prop::sample::select(vec![
            ' ', '"', '\\', '\'', '&', '<', '>', '#', '{', '}', '[', ']', ',', '\n', '\t', 'é', 'Ж', '日', '😀',
        ]),
    ];
    proptest::collection::vec(chars, 0..24).prop_map(|c| c.into_iter().collect())
}

/// An MFString as XML attribute text: each string quoted, `"` and `\` escaped with a backslash.
fn mf_string() -> impl Strategy<Value = String> + Clone {
    proptest::collection::vec(text(), 0..4).prop_map(|strings| {
        strings
            .iter()
            .map(|s| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\"")))
            .collect::<Vec<_>>()
            .join(" ")
    })
}

/// Comment text: what all three encodings can hold (no line break, no `--`, no trailing `-`).
fn comment() -> impl Strategy<Value = Option<String>> + Clone {
    proptest::option::weighted(
        0.3,
        proptest::collection::vec(
            prop_oneof![6 => prop::char::range('a', 'z'), 1 => prop::sample::select(vec![' ', '"', '&', '<', '#', 'é', '}'])],
            1..20,
        )
        .prop_map(|c| c.into_iter().collect::<String>().trim().to_string())
        .prop_filter("a comment with some text", |t| !t.is_empty()),
    )
}

fn image() -> impl Strategy<Value = String> + Clone {
    (0u32..4, 0u32..4, 1u32..5).prop_flat_map(|(w, h, c)| {
        let max = 1u64 << (8 * c);
        proptest::collection::vec(0..max, (w * h) as usize).prop_map(move |pixels| {
            let mut s = format!("{w} {h} {c}");
            for p in pixels {
                s.push_str(&format!(" {p:#x}"));
            }
            s
        })
    })
}

// ---- nodes ----

fn material() -> impl Strategy<Value = RandomNode> {
    (colour(), unit_float(), unit_float(), colour()).prop_map(|(diffuse, transparency, shininess, emissive)| {
        RandomNode::new(
            "Material",
            vec![
                ("diffuseColor", diffuse),
                ("transparency", transparency),
                ("shininess", shininess),
                ("emissiveColor", emissive),
            ],
        )
    })
}

fn texture() -> impl Strategy<Value = RandomNode> {
    prop_oneof![
        (image(), boolean()).prop_map(|(image, repeat)| {
            RandomNode::new("PixelTexture", vec![("image", image), ("repeatS", repeat)])
        }),
        (mf_string(), proptest::collection::vec(unit_float(), 4)).prop_map(|(url, border)| {
            RandomNode::new("ImageTexture", vec![("url", url)])
                .with(None, RandomNode::new("TextureProperties", vec![("borderColor", border.join(" "))]))
        }),
    ]
}

fn geometry() -> impl Strategy<Value = RandomNode> {
    prop_oneof![
        (float()).prop_map(|r| RandomNode::new("Sphere", vec![("radius", r)])),
        (
            proptest::collection::vec(-1i32..8, 0..24),
            boolean(),
            float(),
            mf_floats(3, 0..8),
            prop_oneof![
                mf_floats(3, 0..6).prop_map(|c| ("Color", c)),
                proptest::collection::vec(proptest::collection::vec(unit_float(), 4), 0..6)
                    .prop_map(|c| ("ColorRGBA", c.into_iter().map(|v| v.join(" ")).collect::<Vec<_>>().join(" "))),
            ],
            mf_floats(2, 0..6),
        )
            .prop_map(|(index, solid, crease, points, (colour_type, colours), texcoords)| {
                let index = index.iter().map(i32::to_string).collect::<Vec<_>>().join(" ");
                RandomNode::new(
                    "IndexedFaceSet",
                    vec![("coordIndex", index), ("solid", solid), ("creaseAngle", crease)],
                )
                .with(None, RandomNode::new("Coordinate", vec![("point", points)]))
                .with(None, RandomNode::new(colour_type, vec![("color", colours)]))
                .with(None, RandomNode::new("TextureCoordinate", vec![("point", texcoords)]))
            }),
    ]
}

fn shape() -> impl Strategy<Value = RandomNode> {
    (material(), proptest::option::of(texture()), floats(2), float(), geometry()).prop_map(
        |(material, texture, translation, angle, geometry)| {
            let mut appearance = RandomNode::new("Appearance", vec![]).with(None, material);
            if let Some(texture) = texture {
                appearance = appearance.with(None, texture);
            }
            appearance = appearance.with(
                None,
                RandomNode::new("TextureTransform", vec![("translation", translation), ("rotation", angle)]),
            );
            RandomNode::new("Shape", vec![]).with(None, appearance).with(None, geometry)
        },
    )
}

fn metadata() -> impl Strategy<Value = RandomNode> {
    prop_oneof![
        (text(), proptest::collection::vec(double(), 0..5))
            .prop_map(|(name, v)| RandomNode::new("MetadataDouble", vec![("name", name), ("value", v.join(" "))])),
        (text(), proptest::collection::vec(boolean(), 0..5))
            .prop_map(|(name, v)| RandomNode::new("MetadataBoolean", vec![("name", name), ("value", v.join(" "))])),
        (text(), proptest::collection::vec(int32(), 0..5))
            .prop_map(|(name, v)| RandomNode::new("MetadataInteger", vec![("name", name), ("value", v.join(" "))])),
        (text(), mf_string())
            .prop_map(|(name, v)| RandomNode::new("MetadataString", vec![("name", name), ("value", v)])),
    ]
}

/// A node that may stand in a `children` list (or a humanoid's skeleton, for joints).
fn leaf() -> impl Strategy<Value = RandomNode> {
    prop_oneof![
        4 => shape(),
        1 => (text(), mf_string()).prop_map(|(title, info)| RandomNode::new("WorldInfo", vec![("title", title), ("info", info)])),
        1 => (double(), boolean(), double()).prop_map(|(cycle, r#loop, start)| {
            RandomNode::new("TimeSensor", vec![("cycleInterval", cycle), ("loop", r#loop), ("startTime", start)])
        }),
        1 => (proptest::collection::vec(float(), 0..5), proptest::collection::vec(rotation(), 0..5)).prop_map(|(key, value)| {
            RandomNode::new("OrientationInterpolator", vec![("key", key.join(" ")), ("keyValue", value.join(", "))])
        }),
        1 => (proptest::collection::vec(float(), 0..5), mf_floats(3, 0..5)).prop_map(|(key, value)| {
            RandomNode::new("PositionInterpolator", vec![("key", key.join(" ")), ("keyValue", value)])
        }),
        1 => (floats(3), rotation(), text(), float()).prop_map(|(position, orientation, description, fov)| {
            RandomNode::new(
                "Viewpoint",
                vec![("position", position), ("orientation", orientation), ("description", description), ("fieldOfView", fov)],
            )
        }),
        1 => (floats(4)).prop_map(|plane| RandomNode::new("ClipPlane", vec![("plane", plane)])),
        1 => (floats(16)).prop_map(|m| {
            RandomNode::new("Shape", vec![]).with(
                None,
                RandomNode::new("Appearance", vec![])
                    .with(None, RandomNode::new("TextureTransformMatrix3D", vec![("matrix", m)])),
            )
        }),
    ]
}

/// A humanoid: a joint chain with segments, the `skeleton` and `skin`-free shape H-Anim files have.
fn humanoid() -> impl Strategy<Value = RandomNode> {
    (text(), proptest::collection::vec((floats(3), proptest::option::of(shape())), 1..5)).prop_map(|(name, chain)| {
        let mut inner: Option<RandomNode> = None;
        for (i, (centre, segment_shape)) in chain.into_iter().enumerate().rev() {
            let joint_name = if i == 0 { "humanoid_root".to_string() } else { format!("joint_{i}") };
            let mut joint = RandomNode::new("HAnimJoint", vec![("name", joint_name), ("center", centre)]);
            if let Some(shape) = segment_shape {
                joint = joint.with(
                    None,
                    RandomNode::new("HAnimSegment", vec![("name", format!("segment_{i}"))]).with(None, shape),
                );
            }
            if let Some(child) = inner.take() {
                joint = joint.with(None, child);
            }
            inner = Some(joint);
        }
        let root = inner.expect("at least one joint");
        RandomNode::new("HAnimHumanoid", vec![("name", name), ("version", "2.0".to_string())])
            .with(Some("skeleton"), root)
    })
}

fn node() -> impl Strategy<Value = RandomNode> {
    let leaf = (leaf(), any::<bool>(), any::<bool>(), comment()).prop_map(|(mut n, def, reuse, comment)| {
        n.def = def;
        n.reuse = reuse;
        n.comment = comment;
        n
    });
    leaf.prop_recursive(4, 40, 6, |inner| {
        (
            prop::sample::select(vec!["Transform", "Group", "Switch", "Collision"]),
            proptest::collection::vec(inner, 0..6),
            floats(3),
            rotation(),
            proptest::option::of(metadata()),
            any::<bool>(),
            comment(),
        )
            .prop_map(|(kind, children, translation, rotation, metadata, def, comment)| {
                let fields = match kind {
                    "Transform" => vec![("translation", translation), ("rotation", rotation)],
                    "Switch" => vec![("whichChoice", "-1".to_string())],
                    _ => vec![],
                };
                let mut n = RandomNode::new(kind, fields);
                if let Some(m) = metadata {
                    n = n.with(None, m);
                }
                for child in children {
                    n = n.with(Some("children"), child);
                }
                n.def = def;
                n.comment = comment;
                n
            })
    })
}

fn scene() -> impl Strategy<Value = RandomScene> {
    (
        proptest::collection::vec(prop_oneof![6 => node(), 1 => humanoid()], 1..5),
        1u8..4,
        (0.001f64..1000.0),
        (text(), text()),
        proptest::option::of(floats(3)),
    )
        .prop_map(|(roots, component_level, unit_factor, meta, proto_size)| RandomScene {
            roots,
            component_level,
            unit_factor,
            meta,
            proto_size,
        })
}

// ---- the XML text of a random scene ----

fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\'' => out.push_str("&apos;"),
            '"' => out.push_str("&quot;"),
            '\n' => out.push_str("&#10;"),
            '\t' => out.push_str("&#9;"),
            c => out.push(c),
        }
    }
    out
}

struct XmlPrinter {
    out: String,
    /// Every DEF so far, with its node type, in document order.
    defs: Vec<(String, &'static str)>,
}

impl XmlPrinter {
    fn node(&mut self, n: &RandomNode, container: Option<&str>) {
        if let Some(c) = &n.comment {
            // Markup characters are literal inside an XML comment; the generator leaves out `--`.
            self.out.push_str(&format!("<!--{c}-->\n"));
        }
        let container_attr = container.map(|c| format!(" containerField='{c}'")).unwrap_or_default();
        if n.reuse
            && let Some((name, _)) = self.defs.iter().rev().find(|(_, t)| *t == n.type_name)
        {
            self.out.push_str(&format!("<{} USE='{name}'{container_attr}/>\n", n.type_name));
            return;
        }
        self.out.push('<');
        self.out.push_str(n.type_name);
        if n.def {
            let name = format!("N{}_{}", self.defs.len(), n.type_name.to_ascii_lowercase());
            self.out.push_str(&format!(" DEF='{name}'"));
            self.defs.push((name, n.type_name));
        }
        for (field, value) in &n.fields {
            assert!(
                field_types::field_type(n.type_name, field).is_some(),
                "{}.{field} is no standard field",
                n.type_name
            );
            self.out.push_str(&format!(" {field}='{}'", escape(value)));
        }
        self.out.push_str(&container_attr);
        if n.children.is_empty() {
            self.out.push_str("/>\n");
            return;
        }
        self.out.push_str(">\n");
        for (c, child) in &n.children {
            self.node(child, *c);
        }
        self.out.push_str(&format!("</{}>\n", n.type_name));
    }
}

fn xml_of(scene: &RandomScene) -> String {
    let mut p = XmlPrinter { out: String::new(), defs: Vec::new() };
    p.out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<X3D profile='Immersive' version='4.0'>\n<head>\n");
    p.out.push_str(&format!("<component level='{}' name='HAnim'/>\n", scene.component_level));
    p.out.push_str(&format!(
        "<unit category='length' conversionFactor='{}' name='unit_{}'/>\n",
        scene.unit_factor, scene.component_level
    ));
    p.out.push_str(&format!("<meta content='{}' name='{}'/>\n", escape(&scene.meta.1), escape(&scene.meta.0)));
    p.out.push_str("</head>\n<Scene>\n");
    if let Some(size) = &scene.proto_size {
        p.out.push_str(
            "<ProtoDeclare name='Block'><ProtoInterface>\
             <field accessType='inputOutput' name='size' type='SFVec3f' value='2 2 2'/>\
             </ProtoInterface><ProtoBody><Shape><Box><IS><connect nodeField='size' protoField='size'/></IS></Box>\
             </Shape></ProtoBody></ProtoDeclare>\n",
        );
        p.out.push_str(&format!(
            "<ProtoInstance DEF='Block1' name='Block'><fieldValue name='size' value='{}'/></ProtoInstance>\n",
            escape(size)
        ));
    }
    for root in &scene.roots {
        p.node(root, None);
    }
    // ROUTEs between what the scene DEFined: timers to interpolators, interpolators to transforms.
    let first = |t: &str| p.defs.iter().find(|(_, ty)| *ty == t).map(|(n, _)| n.clone());
    let mut routes = Vec::new();
    if let Some(timer) = first("TimeSensor") {
        for interpolator in ["OrientationInterpolator", "PositionInterpolator"] {
            if let Some(i) = first(interpolator) {
                routes.push((timer.clone(), "fraction_changed", i, "set_fraction"));
            }
        }
    }
    if let (Some(i), Some(t)) = (first("PositionInterpolator"), first("Transform")) {
        routes.push((i, "value_changed", t, "set_translation"));
    }
    if let (Some(i), Some(t)) = (first("OrientationInterpolator"), first("Transform")) {
        routes.push((i, "value_changed", t, "rotation"));
    }
    for (from, from_field, to, to_field) in routes {
        p.out.push_str(&format!(
            "<ROUTE fromField='{from_field}' fromNode='{from}' toField='{to_field}' toNode='{to}'/>\n"
        ));
    }
    p.out.push_str("</Scene>\n</X3D>\n");
    p.out
}

// ---- the checks ----

const ENCODINGS: [Encoding; 3] = [Encoding::Xml, Encoding::Json, Encoding::Classic];

fn name(encoding: Encoding) -> &'static Path {
    Path::new(match encoding {
        Encoding::Xml => "random.x3d",
        Encoding::Json => "random.x3dj",
        Encoding::Classic => "random.x3dv",
    })
}

fn load(text: &str, encoding: Encoding) -> Result<Scene, String> {
    let options = LoadOptions { follow_inlines: false, ..LoadOptions::default() };
    x3d::load_str(text, name(encoding), &options).map_err(|e| format!("{encoding:?}: {e}\n--- text ---\n{text}"))
}

fn comments(e: &Element, out: &mut Vec<String>) {
    for c in &e.content {
        match c {
            Content::Comment(text) => out.push(text.trim().to_string()),
            Content::Element(child) => comments(child, out),
            Content::SourceCode(_) => {}
        }
    }
}

fn sorted_comments(document: &syntax::SyntaxDocument) -> Vec<String> {
    let mut out = Vec::new();
    comments(&document.root, &mut out);
    out.sort();
    out
}

fn check(scene: &RandomScene) -> Result<(), TestCaseError> {
    let xml = xml_of(scene);
    let original = load(&xml, Encoding::Xml).map_err(TestCaseError::fail)?;
    let document =
        syntax::read(&xml, Encoding::Xml, name(Encoding::Xml)).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let expected_comments = sorted_comments(&document);
    for encoding in ENCODINGS {
        let text = syntax::write(&document, encoding);
        let loaded = load(&text, encoding).map_err(TestCaseError::fail)?;
        assert_same_scene(&original, &loaded, &format!("{encoding:?}\n--- text ---\n{text}"));
        let again =
            syntax::read(&text, encoding, name(encoding)).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(sorted_comments(&again), expected_comments.clone(), "{:?}: comments", encoding);
        // Reading may settle a form once (a ClassicVRML hexadecimal pixel is read as its decimal value);
        // from then on, printing what was read is a fixed point.
        let settled = syntax::write(&again, encoding);
        let reread = syntax::read(&settled, encoding, name(encoding))
            .map_err(|e| TestCaseError::fail(format!("{e}\n{settled}")))?;
        let reprinted = syntax::write(&reread, encoding);
        if let Some((line, (a, b))) = reprinted.lines().zip(settled.lines()).enumerate().find(|(_, (a, b))| a != b) {
            return Err(TestCaseError::fail(format!(
                "{encoding:?}: printing what was read back changes line {}: '{b}' became '{a}'\n--- text ---\n{settled}",
                line + 1
            )));
        }
        prop_assert_eq!(reprinted.len(), settled.len(), "{:?}: printing what was read back changes the text", encoding);
    }
    // The long way round, each step from the previous step's text.
    let mut text = xml;
    let mut from = Encoding::Xml;
    for to in [Encoding::Json, Encoding::Classic, Encoding::Xml] {
        let document =
            syntax::read(&text, from, name(from)).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        text = syntax::write(&document, to);
        from = to;
    }
    let back = load(&text, Encoding::Xml).map_err(TestCaseError::fail)?;
    assert_same_scene(&original, &back, "XML → JSON → ClassicVRML → XML");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_scenes_read_back_the_same_in_every_encoding(scene in scene()) {
        check(&scene)?;
    }
}
