//! Bad inputs: every file in `tests/data/bad/` with the outcome it must have. A file either fails to load
//! with an error whose text names the file, the `line:column` and what is wrong, or loads with a warning
//! (and the documented fallback, checked on the model). Nothing may panic, hang or overflow the stack.
//!
//! Each file starts with an XML comment saying what is wrong and what is expected (except `empty.x3d`).
//! Generated inputs (10,000-deep joint and Group chains, every prefix of a valid file) are at the end.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use glam::{Quat, Vec3};
use hanim_viewer::hanim::{self, Document, Humanoid};
use hanim_viewer::x3d::{self, LoadOptions};

/// What loading one file must give.
enum Expect {
    /// The X3D reader rejects the file (and so does the model builder, with the same message).
    /// `at` is the `line:column` the message must start with; `has` are substrings of the message.
    LoadErr { at: &'static str, has: &'static [&'static str] },
    /// The X3D reader accepts the file, the H-Anim model builder rejects it (bad field values).
    ModelErr { at: &'static str, has: &'static [&'static str] },
    /// The file loads; one warning is at `at` and contains every string of `has`; `check` tests the
    /// fallback on the model.
    Warn { at: &'static str, has: &'static [&'static str], check: fn(&Document) },
    /// The file loads (quickly) and `check` holds: inputs that are odd but legal.
    Loads { check: fn(&Document) },
}

use Expect::*;

struct Case {
    file: &'static str,
    expect: Expect,
}

const fn case(file: &'static str, expect: Expect) -> Case {
    Case { file, expect }
}

fn humanoid(doc: &Document) -> &Humanoid {
    assert_eq!(doc.humanoids.len(), 1, "expected one humanoid");
    &doc.humanoids[0]
}

/// The influences `(joint, weight)` of every skin point.
fn influences(doc: &Document) -> Vec<Vec<(u32, f32)>> {
    let skin = humanoid(doc).skin.as_ref().expect("a skin");
    (0..skin.points.len()).map(|i| skin.influences.of(i).to_vec()).collect()
}

const CASES: &[Case] = &[
    // ------------------------------------------------------------------ malformed XML
    case("unclosed_element.x3d", LoadErr { at: "6:1", has: &["malformed XML", "expected `</Group>`", "`</Scene>`"] }),
    case("mismatched_end_tag.x3d", LoadErr { at: "6:1", has: &["expected `</Group>`", "`</Transform>` was found"] }),
    case("unquoted_attribute.x3d", LoadErr { at: "5:24", has: &["malformed attribute in <Transform>", "enclosed in"] }),
    case("mismatched_quotes.x3d", LoadErr { at: "5:1", has: &["malformed XML", "attribute value not closed"] }),
    case("duplicate_attribute.x3d", LoadErr { at: "5:32", has: &["malformed attribute in <Transform>", "twice"] }),
    case("garbage_after_root.x3d", LoadErr { at: "7:1", has: &["text after the <X3D> root element", "garbage here"] }),
    case("second_root_element.x3d", LoadErr { at: "7:1", has: &["<X3D> after the end of the <X3D> root element"] }),
    case("text_before_root.x3d", LoadErr { at: "3:1", has: &["text before the <X3D> root element", "stray text"] }),
    case(
        "truncated_mid_element.x3d",
        LoadErr { at: "8:1", has: &["unexpected end of file", "<HAnimJoint> opened at 7:1 is not closed"] },
    ),
    case("truncated_mid_tag.x3d", LoadErr { at: "6:1", has: &["malformed XML", "tag not closed"] }),
    case("truncated_mid_attribute.x3d", LoadErr { at: "6:1", has: &["malformed XML", "attribute value not closed"] }),
    case("empty.x3d", LoadErr { at: "1:1", has: &["expected an <X3D> root element"] }),
    case("comment_only.x3d", LoadErr { at: "1:1", has: &["expected an <X3D> root element"] }),
    case("non_x3d_root.x3d", LoadErr { at: "3:1", has: &["expected an <X3D> root element, found <html>"] }),
    case(
        "unknown_entity.x3d",
        LoadErr { at: "5:29", has: &["unknown entity reference '&jerry;'", "attribute 'title'"] },
    ),
    case(
        "doctype_internal_entity.x3d",
        LoadErr { at: "8:25", has: &["unknown entity reference '&pos;'", "attribute 'translation'", "DOCTYPE"] },
    ),
    // ------------------------------------------------------------------ UNIT
    case("unit_zero.x3d", LoadErr { at: "5:58", has: &["conversionFactor must be > 0, found 0", "'length'"] }),
    case("unit_negative.x3d", LoadErr { at: "5:56", has: &["conversionFactor must be > 0, found -0.0174"] }),
    case("unit_not_a_number.x3d", LoadErr { at: "5:55", has: &["conversionFactor", "'inch'"] }),
    // ------------------------------------------------------------------ field values
    case(
        "bad_number_sfvec3f.x3d",
        ModelErr { at: "6:78", has: &["SFVec3f value '1.x' at 6:78 in center of HAnimJoint DEF 'r'"] },
    ),
    case(
        "bad_number_mfint32.x3d",
        ModelErr { at: "6:88", has: &["MFInt32 value 'x' at 6:88 in skinCoordIndex of HAnimJoint DEF 'r'"] },
    ),
    case(
        "bad_number_mffloat.x3d",
        ModelErr { at: "6:110", has: &["MFFloat value 'O.5' at 6:110 in skinCoordWeight of HAnimJoint DEF 'r'"] },
    ),
    case(
        "bad_number_sfrotation.x3d",
        ModelErr { at: "6:84", has: &["SFRotation value 'ninety' at 6:84 in rotation of HAnimJoint DEF 'r'"] },
    ),
    case(
        "sfvec3f_two_numbers.x3d",
        ModelErr { at: "6:84", has: &["SFVec3f value at 6:84 in translation", "expected 3 numbers, found 2"] },
    ),
    case(
        "sfvec3f_four_numbers.x3d",
        ModelErr { at: "6:87", has: &["SFVec3f value '4' at 6:87 in translation", "exactly 3 numbers"] },
    ),
    case(
        "mfvec3f_not_multiple_of_3.x3d",
        ModelErr {
            at: "7:64",
            has: &["MFVec3f value at 7:64 in point of Coordinate DEF 'skin'", "not a multiple of 3"],
        },
    ),
    case(
        "sfrotation_three_numbers.x3d",
        ModelErr { at: "6:83", has: &["SFRotation value at 6:83 in rotation", "expected 4 numbers, found 3"] },
    ),
    case("nan_value.x3d", ModelErr { at: "6:78", has: &["SFVec3f value 'NaN' at 6:78 in center", "finite number"] }),
    case(
        "inf_value.x3d",
        ModelErr { at: "6:108", has: &["MFFloat value '-INF' at 6:108 in skinCoordWeight", "finite number"] },
    ),
    case("float_overflow.x3d", ModelErr { at: "6:78", has: &["SFVec3f value '1e39' at 6:78 in center", "finite"] }),
    case(
        "int32_out_of_range.x3d",
        ModelErr { at: "6:86", has: &["MFInt32 value '2147483648' at 6:86 in skinCoordIndex", "32-bit range"] },
    ),
    case(
        "int32_huge.x3d",
        ModelErr { at: "6:86", has: &["MFInt32 value '99999999999999999999' at 6:86", "32-bit range"] },
    ),
    case("bad_sfint32.x3d", ModelErr { at: "5:38", has: &["SFInt32 value 'two' at 5:38 in loa of HAnimHumanoid"] }),
    case("bad_sfbool.x3d", ModelErr { at: "7:64", has: &["SFBool value 'yes' at 7:64 in loop of HAnimMotion"] }),
    // Positions are right whatever the encoding details: a BOM, CR LF inside a value, non-ASCII text.
    case("bom_bad_number.x3d", ModelErr { at: "6:78", has: &["SFVec3f value '1.x' at 6:78 in center"] }),
    case("crlf_multiline_bad_number.x3d", ModelErr { at: "8:5", has: &["MFInt32 value 'x' at 8:5 in skinCoordIndex"] }),
    case("non_ascii_column.x3d", ModelErr { at: "6:45", has: &["SFVec3f value '1.x' at 6:45 in center"] }),
    // ------------------------------------------------------------------ DEF / USE
    // A USE of no DEF before it (19775-1 4.4.3) is dropped with a warning, as X_ITE drops it.
    case(
        "use_unknown_def.x3d",
        Warn {
            at: "6:17",
            has: &["USE 'nowhere' refers to no DEF", "the USE is dropped"],
            check: |doc| {
                let g = doc.scene.nodes.iter().find(|n| n.def.as_deref() == Some("g")).expect("Group g");
                assert!(g.children.is_empty(), "the dropped USE is not a child of g");
            },
        },
    ),
    case(
        "use_before_def.x3d",
        Warn {
            at: "6:18",
            has: &["USE 'r' refers to no DEF before this point", "a DEF later in the file does not count"],
            check: |doc| assert!(humanoid(doc).joints.iter().all(|j| j.name == "humanoid_root")),
        },
    ),
    case("use_cycle.x3d", LoadErr { at: "8:18", has: &["USE 'r' is inside its own DEF (opened at 6:1)", "cycle"] }),
    case(
        "use_exponential_scene.x3d",
        ModelErr { at: "5:17", has: &["the scene graph expands to more than", "node instances through USE"] },
    ),
    case(
        "use_exponential_in_joint.x3d",
        Loads {
            check: |doc| {
                let h = humanoid(doc);
                assert_eq!(h.sites.len(), 1);
                assert_eq!(h.sites[0].name, "skull_tip");
            },
        },
    ),
    case(
        "use_exponential_in_skin.x3d",
        Loads {
            check: |doc| {
                let skin = humanoid(doc).skin.as_ref().expect("a skin");
                assert_eq!(skin.shapes.len(), 1);
                assert!(skin.shapes[0].deforms);
            },
        },
    ),
    // ------------------------------------------------------------------ skin weights (§2.2)
    case(
        "skin_index_out_of_range.x3d",
        Warn {
            at: "6:1",
            has: &["joint 'humanoid_root'", "2 skinCoordIndex entries outside 0..3; skipped"],
            check: |doc| assert_eq!(influences(doc), vec![vec![(0, 1.0)], vec![], vec![]]),
        },
    ),
    case(
        "skin_index_negative.x3d",
        Warn {
            at: "6:1",
            has: &["1 skinCoordIndex entries outside 0..3; skipped"],
            check: |doc| assert_eq!(influences(doc), vec![vec![], vec![(0, 1.0)], vec![]]),
        },
    ),
    case(
        "weight_negative.x3d",
        Warn {
            at: "6:1",
            has: &["1 weights outside [0, 1]; kept as given"],
            check: |doc| assert_eq!(influences(doc), vec![vec![(0, -0.5)], vec![(0, 1.0)], vec![]]),
        },
    ),
    case(
        "weight_above_one.x3d",
        Warn {
            at: "6:1",
            has: &["1 weights outside [0, 1]; kept as given"],
            check: |doc| assert_eq!(influences(doc), vec![vec![(0, 1.5)], vec![(0, 1.0)], vec![]]),
        },
    ),
    case(
        "fewer_weights.x3d",
        Warn {
            at: "6:1",
            has: &["1 skinCoordWeight values for 3 skinCoordIndex entries; the last weight repeats"],
            check: |doc| assert_eq!(influences(doc), vec![vec![(0, 0.25)]; 3]),
        },
    ),
    case(
        "duplicate_skin_entries.x3d",
        Warn {
            at: "6:1",
            has: &["1 points listed more than once; their weights are summed"],
            check: |doc| assert_eq!(influences(doc), vec![vec![], vec![(0, 0.75)], vec![(0, 1.0)]]),
        },
    ),
    // ------------------------------------------------------------------ transforms
    case(
        "zero_axis_rotation.x3d",
        Warn {
            at: "6:78",
            has: &["rotation has a zero-length axis; using no rotation"],
            check: |doc| assert_eq!(humanoid(doc).joints[0].rest.rotation, Quat::IDENTITY),
        },
    ),
    case(
        "zero_scale.x3d",
        Warn {
            at: "6:75",
            has: &["scale 0 2 1 must be > 0; using 1 2 1"],
            check: |doc| assert_eq!(humanoid(doc).joints[0].rest.scale, Vec3::new(1.0, 2.0, 1.0)),
        },
    ),
    case(
        "negative_scale.x3d",
        Warn {
            at: "6:75",
            has: &["scale -2 1 1 must be > 0; using 2 1 1"],
            check: |doc| assert_eq!(humanoid(doc).joints[0].rest.scale, Vec3::new(2.0, 1.0, 1.0)),
        },
    ),
    // ------------------------------------------------------------------ displacers, motions
    case(
        "displacer_short.x3d",
        Warn {
            at: "7:1",
            has: &["HAnimDisplacer DEF 'd'", "3 coordIndex entries but 1 displacements; missing ones are zero"],
            check: |doc| {
                let d = &humanoid(doc).displacers[0];
                assert_eq!(d.displacements, vec![Vec3::new(0.1, 0.0, 0.0), Vec3::ZERO, Vec3::ZERO]);
            },
        },
    ),
    case(
        "displacer_twice.x3d",
        Warn {
            at: "7:1",
            has: &["HAnimDisplacer DEF 'd' appears twice"],
            check: |doc| {
                let h = humanoid(doc);
                assert_eq!(h.displacers.len(), 1);
                assert_eq!(h.joints[0].displacers, vec![0]);
            },
        },
    ),
    case(
        "motion_values_not_multiple.x3d",
        Warn {
            at: "7:96",
            has: &["HAnimMotion DEF 'm'", "values has 4 numbers, not a whole number of frames of 3 channels"],
            check: |doc| {
                let m = &humanoid(doc).motions[0];
                assert_eq!((m.channel_count, m.values.len(), m.frame_count), (3, 4, 0));
            },
        },
    ),
    case(
        "motion_bad_channels.x3d",
        Warn {
            at: "7:55",
            has: &["HAnimMotion DEF 'm'", "channels: joint group 1 announces 3 channels but the string ends after 2"],
            check: |doc| {
                let m = &humanoid(doc).motions[0];
                assert_eq!((m.channel_count, m.frame_count), (0, 0));
            },
        },
    ),
    // ------------------------------------------------------------------ prototypes, Inline, ROUTE
    case(
        "unknown_proto_instance.x3d",
        Warn {
            at: "5:1",
            has: &["ProtoInstance 'Mystery' cannot be expanded: it is not declared"],
            check: |doc| {
                let root = doc.scene.node(doc.scene.roots[0]);
                assert_eq!((root.type_name.as_str(), root.def.as_deref()), ("Mystery", Some("m")));
                assert!(doc.humanoids.is_empty());
            },
        },
    ),
    case(
        "inline_missing_file.x3d",
        Warn {
            at: "5:1",
            has: &["Inline url 'no_such_file.x3d': not found"],
            check: |doc| assert!(doc.scene.node(doc.scene.roots[0]).children.is_empty()),
        },
    ),
    case(
        "inline_remote_url.x3d",
        Warn {
            at: "5:1",
            has: &["remote URLs are never fetched", "https://example.com/humanoid.x3d"],
            check: |doc| {
                assert!(doc.scene.node(doc.scene.roots[0]).children.is_empty());
                assert_eq!(doc.scene.files.len(), 1, "no other file was read");
            },
        },
    ),
    case(
        "route_unknown_def.x3d",
        Warn {
            at: "6:1",
            has: &["ROUTE refers to unknown DEF 'ghost'; ignored"],
            check: |doc| assert!(doc.scene.routes.is_empty()),
        },
    ),
    // ------------------------------------------------------------------ skeleton lists
    case(
        "joint_not_in_skeleton.x3d",
        Warn {
            at: "8:1",
            has: &["HAnimJoint DEF 'stray' is listed in `joints` but is not in the skeleton"],
            check: |doc| {
                let h = humanoid(doc);
                assert_eq!(h.joints.len(), 1);
                assert_eq!(h.skin_joints, vec![0]);
                assert!(h.joint_index("l_hip").is_none());
            },
        },
    ),
    case(
        "joint_twice_in_skeleton.x3d",
        Warn {
            at: "7:1",
            has: &["HAnimJoint DEF 's' appears twice in the skeleton; the second place is ignored"],
            check: |doc| {
                let h = humanoid(doc);
                let names: Vec<_> = h.joints.iter().map(|j| (j.name.as_str(), j.parent)).collect();
                assert_eq!(names, vec![("humanoid_root", None), ("sacroiliac", Some(0))]);
            },
        },
    ),
    // ------------------------------------------------------------------ encoding
    case(
        "non_utf8.x3d",
        Warn {
            at: "5:22",
            has: &["file is not valid UTF-8; invalid bytes were replaced"],
            check: |doc| {
                let info = doc.scene.node(doc.scene.roots[0]);
                assert_eq!(info.field("title").map(|f| f.value.as_str()), Some("caf\u{FFFD}"));
            },
        },
    ),
];

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bad")
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "(non-string panic)".into())
}

/// Runs `f`, turning a panic into an error that names `what`.
fn no_panic<T>(what: &str, f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p| format!("{what}: PANICKED: {}", panic_text(&*p)))
}

/// Checks an error message: it starts with `<path>:<at>: ` and contains every substring.
fn check_error(path: &Path, message: &str, at: &str, has: &[&str]) -> Result<(), String> {
    let file = path.file_name().unwrap().to_string_lossy();
    let prefix = format!("{}:{at}: ", path.display());
    if !message.starts_with(&prefix) {
        return Err(format!("{file}: error does not start at {at} (want '{prefix}'): {message}"));
    }
    match has.iter().find(|s| !message.contains(**s)) {
        Some(missing) => Err(format!("{file}: error lacks '{missing}': {message}")),
        None => Ok(()),
    }
}

fn run_case(case: &Case) -> Result<(), String> {
    let path = data_dir().join(case.file);
    let file = case.file;
    let model = no_panic(&format!("{file}: hanim::load"), || hanim::load(&path))?;
    let scene = no_panic(&format!("{file}: x3d::load_file"), || x3d::load_file(&path, &LoadOptions::default()))?;
    match &case.expect {
        LoadErr { at, has } => {
            let e = match scene {
                Ok(_) => return Err(format!("{file}: x3d::load_file accepted the file; expected an error at {at}")),
                Err(e) => e.to_string(),
            };
            check_error(&path, &e, at, has)?;
            match model {
                Err(m) if m.to_string() == e => Ok(()),
                Err(m) => Err(format!("{file}: hanim::load error differs from the reader's: {m}")),
                Ok(_) => Err(format!("{file}: hanim::load accepted what the reader rejects")),
            }
        }
        ModelErr { at, has } => {
            if let Err(e) = scene {
                return Err(format!("{file}: the X3D reader already rejects it (expected the model to): {e}"));
            }
            match model {
                Ok(_) => Err(format!("{file}: loaded; expected an error at {at}")),
                Err(e) => check_error(&path, &e.to_string(), at, has),
            }
        }
        Warn { at, has, check } => {
            let doc = model.map_err(|e| format!("{file}: expected to load with a warning, got: {e}"))?;
            let prefix = format!("{}:{at}: warning: ", path.display());
            let found = doc
                .warnings
                .iter()
                .map(|w| w.to_string())
                .any(|w| w.starts_with(&prefix) && has.iter().all(|s| w.contains(s)));
            if !found {
                let all: Vec<String> = doc.warnings.iter().map(|w| format!("\n    {w}")).collect();
                return Err(format!("{file}: no warning at {at} containing {has:?}; warnings:{}", all.concat()));
            }
            no_panic(&format!("{file}: fallback check failed"), || check(&doc))
        }
        Loads { check } => {
            let doc = model.map_err(|e| format!("{file}: expected to load, got: {e}"))?;
            no_panic(&format!("{file}: check failed"), || check(&doc))
        }
    }
}

#[test]
fn bad_inputs_fail_cleanly_or_warn() {
    let failures: Vec<String> = CASES.iter().filter_map(|c| run_case(c).err()).collect();
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), CASES.len(), failures.join("\n"));
}

/// Every checked-in file has a row in the table, and explains itself in a comment.
#[test]
fn every_bad_file_is_in_the_table_and_documented() {
    let mut problems = Vec::new();
    for entry in std::fs::read_dir(data_dir()).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if !name.ends_with(".x3d") {
            continue;
        }
        if !CASES.iter().any(|c| c.file == name) {
            problems.push(format!("{name}: no case in CASES"));
        }
        let bytes = std::fs::read(data_dir().join(&name)).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        if name != "empty.x3d" && !(text.contains("<!--") && text.contains("WRONG") && text.contains("EXPECT")) {
            problems.push(format!("{name}: no <!-- WRONG ... EXPECT ... --> comment"));
        }
    }
    for c in CASES {
        if !data_dir().join(c.file).is_file() {
            problems.push(format!("{}: listed in CASES but missing", c.file));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(CASES.len() >= 30);
}

const DEPTH: usize = 10_000;

/// A 10,000-deep HAnimJoint chain is valid and loads; joints come parent before child. Runs on the test
/// thread itself (libtest's 2 MiB stack unless RUST_MIN_STACK says otherwise), so any recursion over the
/// depth would overflow it.
#[test]
fn deep_joint_chain_loads_without_stack_overflow() {
    let mut text = String::from("<X3D version='4.0'><Scene><HAnimHumanoid DEF='h' name='h'>\n");
    for i in 0..DEPTH {
        let container = if i == 0 { " containerField='skeleton'" } else { "" };
        text.push_str(&format!("<HAnimJoint DEF='j{i}' name='j{i}' center='0 {} 0'{container}>\n", i as f32 * 1e-3));
    }
    text.push_str(&"</HAnimJoint>".repeat(DEPTH));
    text.push_str("\n<HAnimJoint USE='j0' containerField='joints'/></HAnimHumanoid></Scene></X3D>\n");
    let doc = hanim::load_str(&text, Path::new("deep_joints.x3d")).expect("a deep chain is valid");
    let h = humanoid(&doc);
    assert_eq!(h.joints.len(), DEPTH);
    assert_eq!(h.joints[0].parent, None);
    for (i, joint) in h.joints.iter().enumerate().skip(1) {
        let parent = joint.parent.expect("every joint but the root has a parent");
        assert!(parent < i, "joint {i} has parent {parent}");
        assert_eq!(joint.name, format!("j{i}"));
        assert_eq!(parent, i - 1, "a chain");
    }
}

/// A 10,000-deep chain of nested Groups with a Shape at the bottom loads, on the 2 MiB test thread.
#[test]
fn deep_group_chain_loads_without_stack_overflow() {
    let mut text = String::from("<X3D version='4.0'><Scene>\n");
    text.push_str(&"<Group>".repeat(DEPTH));
    text.push_str("<Transform translation='1 2 3'><Shape><Box/></Shape></Transform>");
    text.push_str(&"</Group>".repeat(DEPTH));
    text.push_str("\n</Scene></X3D>\n");
    let scene = x3d::load_str(&text, Path::new("deep_groups.x3d"), &LoadOptions::default()).expect("valid");
    assert_eq!(scene.nodes.len(), DEPTH + 3);
    assert_eq!(scene.reachable().len(), DEPTH + 3);
    let doc = hanim::build_document(scene).expect("valid");
    assert_eq!(doc.other_shapes.len(), 1);
    let world = doc.other_shapes[0].1;
    assert_eq!(world.transform_point3(Vec3::ZERO), Vec3::new(1.0, 2.0, 3.0));
}

/// Every prefix of a small valid file either is the whole document or fails with a positioned error.
#[test]
fn every_truncation_of_a_valid_file_fails_with_a_position() {
    let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
        <!DOCTYPE X3D PUBLIC \"ISO//Web3D//DTD X3D 4.0//EN\" \"https://www.web3d.org/specifications/x3d-4.0.dtd\">\n\
        <X3D profile='Immersive' version='4.0'>\n<head><unit category='length' name='cm' conversionFactor='0.01'/></head>\n\
        <Scene>\n<!-- a comment -->\n<HAnimHumanoid DEF='h' name='h' info='\"authorName=Jürgen\"'>\n\
        <HAnimJoint DEF='r' name='humanoid_root' containerField='skeleton' center='0 82.4 0' \
        skinCoordIndex='0 1' skinCoordWeight='1 0.5'>\n\
        <HAnimSegment DEF='s' name='sacrum'><Shape><Box size='1 2 3'/></Shape></HAnimSegment>\n</HAnimJoint>\n\
        <HAnimJoint USE='r' containerField='joints'/>\n\
        <Coordinate DEF='c' containerField='skinCoord' point='0 0 0 1 1 1'/>\n\
        <HAnimMotion DEF='m' joints='humanoid_root' channels='1 Xrotation' values='0 10 20'/>\n\
        </HAnimHumanoid>\n</Scene>\n</X3D>\n";
    let whole = hanim::load_str(text, Path::new("prefix.x3d")).expect("the whole file is valid");
    assert_eq!(humanoid(&whole).joints.len(), 1);
    let end_of_root = text.rfind("</X3D>").unwrap() + "</X3D>".len();
    let mut failures = Vec::new();
    for cut in (0..text.len()).filter(|&i| text.is_char_boundary(i)) {
        let prefix = &text[..cut];
        let result = match no_panic(&format!("cut at byte {cut}"), || hanim::load_str(prefix, Path::new("prefix.x3d")))
        {
            Ok(r) => r,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        match result {
            Ok(_) if cut >= end_of_root => {}
            Ok(_) => {
                failures.push(format!("cut at byte {cut}: loaded ...{:?}", &prefix[prefix.len().saturating_sub(20)..]))
            }
            Err(hanim::HanimError::X3d(e)) if e.pos.at.is_some() && e.to_string().starts_with("prefix.x3d:") => {}
            Err(e) => failures.push(format!("cut at byte {cut}: error without a position: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
