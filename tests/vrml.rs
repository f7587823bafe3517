//! The classic encodings (VRML97 `.wrl`, ClassicVRML `.x3dv`, gzip-compressed or not) read into the same
//! scene and model as the XML encoding: every corpus file in `corpus/vrml` with its counts, the humanoids
//! that exist in both encodings compared joint by joint, ROUTEs and interpolators compared with the XML
//! ones, one fixture per syntax feature, malformed inputs with their messages, gzip detection and deep
//! nesting.

mod common;

test_main!(
    every_corpus_vrml_file_loads_with_its_counts,
    gzip_corpus_files_are_recognised_by_content,
    nancy_in_vrml97_is_the_same_humanoid_as_nancy_in_xml,
    nancy_routes_and_interpolators_are_the_same_in_both_encodings,
    joe_in_classic_vrml_matches_joe_in_xml,
    routes_and_interpolators_land_in_the_scene_as_in_xml,
    hanim_1_0_layout_with_root_joint_outside_the_humanoid,
    proto_with_is_expands_with_instance_values_and_defaults,
    nested_protos_pass_values_through_both_interfaces,
    externproto_without_a_local_file_falls_back_to_the_hanim_names,
    externproto_from_a_local_file_expands_its_definition,
    hanim_protos_under_other_names_are_recognised_by_their_fields,
    strings_with_escapes,
    unit_statements_scale_lengths_and_angles,
    gzip_files_load_whatever_their_name,
    classic_text_loads_through_load_str,
    classic_inlines_are_read,
    malformed_vrml_gives_a_clear_error_with_its_position,
    every_truncation_of_a_classic_file_fails_cleanly,
    deep_nesting_does_not_overflow_the_stack,
    the_cli_reads_classic_files,
    classic_skinned_humanoid_deforms_on_the_gpu_like_the_cpu_reference,
    classic_corpus_humanoids_render_and_a_joint_rotation_moves_only_its_side,
    protos_nested_to_an_exponential_size_are_refused,
    mutated_classic_files_never_panic,
    xml_extern_proto_declare_is_resolved_from_a_local_classic_file,
    a_part_file_without_a_header_line_is_inlined_with_a_warning
);

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use glam::{Quat, Vec3};
use hanim_viewer::hanim::{self, Document, Humanoid, SiteParent};
use hanim_viewer::pose::Pose;
use hanim_viewer::render as headless;
use hanim_viewer::views;
use hanim_viewer::x3d::{self, Encoding, LoadOptions, NodeId, Scene, fields};

fn load(path: &Path) -> Document {
    hanim::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn fixture(name: &str) -> PathBuf {
    common::test_data(&format!("vrml/{name}"))
}

fn only_humanoid(doc: &Document) -> &Humanoid {
    assert_eq!(doc.humanoids.len(), 1, "{}", doc.scene.main_path().display());
    &doc.humanoids[0]
}

fn node_by_def(scene: &Scene, def: &str) -> NodeId {
    *scene.defs.get(def).unwrap_or_else(|| panic!("no DEF {def}"))
}

/// Expected content of one corpus file, counted by hand from the file (joints, segments and sites are
/// the `Joint {` / `Segment {` / `Site {` instances or HAnim nodes in the file; viewpoints are the bare
/// Viewpoints in the humanoid's `viewpoints` field).
struct Expect {
    file: &'static str,
    encoding_header: &'static str,
    humanoid: Option<(&'static str, usize, usize, usize)>,
    humanoid_viewpoints: &'static [&'static str],
    scene_viewpoints: usize,
    routes: usize,
}

const CORPUS: &[Expect] = &[
    Expect {
        file: "nancy_h-anim.wrl",
        encoding_header: "VRML97",
        humanoid: Some(("nancy", 17, 16, 0)),
        humanoid_viewpoints: &["InclinedView", "FrontView", "SideView", "TopView"],
        scene_viewpoints: 0,
        routes: 162,
    },
    Expect {
        file: "SphereMan_1.1.wrl",
        encoding_header: "VRML97",
        humanoid: Some(("VRML Body Hierarchy - copyright LIG/EPFL", 77, 76, 0)),
        humanoid_viewpoints: &["FrontView", "SideView", "TopView", "InclinedView", "BodyVP1"],
        scene_viewpoints: 0,
        routes: 0,
    },
    Expect {
        file: "dork-proto.wrl",
        encoding_header: "VRML97",
        humanoid: Some(("hanim", 41, 40, 1)),
        humanoid_viewpoints: &[
            "hanim_FrontView",
            "hanim_LeftHandView",
            "hanim_InclinedView",
            "hanim_SideView",
            "hanim_TopView",
            "hanim_FaceView",
        ],
        scene_viewpoints: 0,
        routes: 46,
    },
    Expect {
        file: "JoeHAnimKick1a.x3dv",
        encoding_header: "3.0",
        humanoid: Some(("JoeHuman", 89, 0, 1)),
        humanoid_viewpoints: &[],
        // Five at the top of the file and `ballView` inside the kicked ball's Transform.
        scene_viewpoints: 6,
        routes: 40,
    },
    Expect {
        file: "hanim_transforms.x3dv",
        encoding_header: "3.2",
        humanoid: Some(("AnimatedHumanoid", 1, 1, 1)),
        humanoid_viewpoints: &[],
        scene_viewpoints: 1,
        routes: 8,
    },
    Expect {
        file: "JointCoordinateAxes.x3dv",
        encoding_header: "4.0",
        humanoid: None,
        humanoid_viewpoints: &[],
        scene_viewpoints: 0,
        routes: 0,
    },
    Expect {
        file: "axis_simple.x3d",
        encoding_header: "3.0",
        humanoid: None,
        humanoid_viewpoints: &[],
        scene_viewpoints: 0,
        routes: 0,
    },
];

fn every_corpus_vrml_file_loads_with_its_counts() {
    let dir = common::corpus_folder("vrml");
    let mut seen = BTreeSet::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if x3d::is_supported_path(&path) {
            seen.insert(path.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    let listed: BTreeSet<String> = CORPUS.iter().map(|e| e.file.to_string()).collect();
    // Files outside the repository's corpus that could not be found (reported by corpus_folder).
    let absent: BTreeSet<String> = common::corpus_missing("vrml")
        .iter()
        .map(|f| f.trim_start_matches("vrml/").to_string())
        .filter(|f| x3d::is_supported_path(Path::new(f)))
        .collect();
    assert_eq!(&seen | &absent, listed, "every scene file in corpus/vrml has an expectation here");

    for e in CORPUS.iter().filter(|e| !absent.contains(e.file)) {
        let doc = load(&dir.join(e.file));
        assert_eq!(doc.scene.version, e.encoding_header, "{}", e.file);
        let classic = !e.file.ends_with(".x3d");
        assert_eq!(doc.scene.encoding == Encoding::Classic, classic, "{}", e.file);
        assert_eq!(doc.scene.routes.len(), e.routes, "{} routes", e.file);
        assert_eq!(doc.viewpoints.len(), e.scene_viewpoints, "{} scene viewpoints", e.file);
        match e.humanoid {
            None => assert!(doc.humanoids.is_empty(), "{}", e.file),
            Some((name, joints, segments, sites)) => {
                let h = only_humanoid(&doc);
                assert_eq!(h.name, name, "{}", e.file);
                assert_eq!(
                    (h.joints.len(), h.segments.len(), h.sites.len()),
                    (joints, segments, sites),
                    "{} joints/segments/sites",
                    e.file
                );
                let vps: Vec<&str> = h.viewpoints.iter().map(|v| v.viewpoint.def.as_deref().unwrap_or("")).collect();
                assert_eq!(vps, e.humanoid_viewpoints, "{} humanoid viewpoints", e.file);
                // Every listed joint resolves (no "listed but not in the skeleton" warnings) and the skeleton
                // has one root.
                assert!(
                    !doc.warnings.iter().any(|w| w.message.contains("is not in the skeleton")),
                    "{}: {:?}",
                    e.file,
                    doc.warnings
                );
                assert_eq!(h.joints.iter().filter(|j| j.parent.is_none()).count(), 1, "{}", e.file);
                assert!(h.joints.iter().all(|j| !j.name.is_empty()), "{}", e.file);
            }
        }
    }
}

fn gzip_corpus_files_are_recognised_by_content() {
    common::needs_corpus(&["vrml/SphereMan_1.1.wrl", "vrml/dork-proto.wrl"]);
    for name in ["SphereMan_1.1.wrl", "dork-proto.wrl"] {
        let bytes = std::fs::read(common::corpus(&format!("vrml/{name}"))).unwrap();
        assert_eq!(&bytes[..2], &[0x1f, 0x8b], "{name} is stored gzip-compressed");
    }
    let h = only_humanoid(&load(&common::corpus("vrml/SphereMan_1.1.wrl"))).clone();
    // Joint names of the H-Anim 1.1 hierarchy, the centre of one of them as written in the file.
    let l_knee = &h.joints[h.joint_index("l_knee").expect("l_knee")];
    assert_eq!(h.joints[l_knee.parent.unwrap()].name, "l_hip");
    assert_eq!(h.joints[0].name, "HumanoidRoot");
}

/// Joint names, parents and centres of `a` and `b`, `rename` mapping names of `a` to those of `b`.
fn assert_same_skeleton(a: &Humanoid, b: &Humanoid, rename: &[(&str, &str)], what: &str) {
    let map = |n: &str| rename.iter().find(|(x, _)| *x == n).map_or(n.to_string(), |(_, y)| y.to_string());
    assert_eq!(a.joints.len(), b.joints.len(), "{what}: joint counts");
    for (ja, jb) in a.joints.iter().zip(&b.joints) {
        assert_eq!(map(&ja.name), jb.name, "{what}: joints in the same order");
        assert!((ja.rest.center - jb.rest.center).length() < 1e-6, "{what}: centre of {}", ja.name);
        let pa = ja.parent.map(|p| map(&a.joints[p].name));
        let pb = jb.parent.map(|p| b.joints[p].name.clone());
        assert_eq!(pa, pb, "{what}: parent of {}", ja.name);
    }
}

fn nancy_in_vrml97_is_the_same_humanoid_as_nancy_in_xml() {
    common::needs_corpus(&["vrml/nancy_h-anim.wrl", "x3d/NancyNativeTags.x3d"]);
    // nancy_h-anim.wrl (VRML97, H-Anim 1.1 PROTOs) and NancyNativeTags.x3d (X3D 3.3 native HAnim nodes) are
    // the same Nancy; the X3D translation renamed the root `HumanoidRoot` to `humanoid_root`.
    let wrl = load(&common::corpus("vrml/nancy_h-anim.wrl"));
    let xml = load(&common::corpus("x3d/NancyNativeTags.x3d"));
    let (a, b) = (only_humanoid(&wrl), only_humanoid(&xml));
    assert_same_skeleton(a, b, &[("HumanoidRoot", "humanoid_root")], "Nancy");
    let segs = |h: &Humanoid| h.segments.iter().map(|s| (s.name.clone(), s.joint)).collect::<Vec<_>>();
    assert_eq!(segs(a), segs(b), "segments and the joints holding them");
    // The same Shapes under the segments: same face count per segment.
    for (sa, sb) in a.segments.iter().zip(&b.segments) {
        assert_eq!(sa.geometry.len(), sb.geometry.len(), "geometry of {}", sa.name);
    }
    assert_eq!(a.info.len(), 6);
    assert_eq!(a.info[1], ("authorName".to_string(), "Cindy Ballreich".to_string()));

    // The four H-Anim 1.x standard views sit in the humanoid's `viewpoints` field in the .wrl and in one
    // viewpoints Site in the .x3d: the same cameras either way.
    let vp = |v: &hanim::Viewpoint| (v.description.clone(), v.position);
    let from_wrl: Vec<_> = a.viewpoints.iter().map(|h| vp(&h.viewpoint)).collect();
    let from_xml: Vec<_> = b.sites.iter().flat_map(|s| s.cameras.iter().map(|h| vp(&h.viewpoint))).collect();
    assert_eq!(from_wrl, from_xml);
}

/// `(from DEF, from field, to DEF, to field)` of every ROUTE.
fn routes(scene: &Scene) -> BTreeSet<(String, String, String, String)> {
    let def = |id: NodeId| scene.node(id).def.clone().unwrap_or_default();
    scene.routes.iter().map(|r| (def(r.from_node), r.from_field.clone(), def(r.to_node), r.to_field.clone())).collect()
}

fn nancy_routes_and_interpolators_are_the_same_in_both_encodings() {
    common::needs_corpus(&["vrml/nancy_h-anim.wrl", "x3d/NancyNativeTags.x3d"]);
    let wrl = load(&common::corpus("vrml/nancy_h-anim.wrl")).scene;
    let xml = load(&common::corpus("x3d/NancyNativeTags.x3d")).scene;
    // The X3D translation renamed the interpolators (`l_hipRotInterp_Jump` → `l_hip_RotationInterpolator_Jump`,
    // `…TranInterp_…` → `…_TranslationInterpolator_…`) and the root joint; everything else is as written.
    let rename = |def: &str| {
        if def == "hanim_HumanoidRoot" {
            return "hanim_humanoid_root".to_string();
        }
        def.replacen("RotInterp_", "_RotationInterpolator_", 1).replacen("TranInterp_", "_TranslationInterpolator_", 1)
    };
    let ra: BTreeSet<_> = routes(&wrl).into_iter().map(|(a, f, b, t)| (rename(&a), f, rename(&b), t)).collect();
    let rb = routes(&xml);
    assert_eq!(ra.len(), 162);
    assert_eq!(ra, rb, "ROUTE statements");
    // Every interpolator a ROUTE starts from: same type, same keys and key values.
    let mut compared = 0;
    for (from, ..) in &routes(&wrl) {
        let (na, nb) = (node_by_def(&wrl, from), node_by_def(&xml, &rename(from)));
        let t = wrl.node(na).type_name.clone();
        assert_eq!(t, xml.node(nb).type_name, "{from}");
        if t.ends_with("Interpolator") {
            assert_eq!(wrl.mf_float(na, "key").unwrap(), xml.mf_float(nb, "key").unwrap(), "{from} key");
            assert_eq!(wrl.mf_float(na, "keyValue").unwrap(), xml.mf_float(nb, "keyValue").unwrap(), "{from}");
            compared += 1;
        }
    }
    assert!(compared >= 68, "{compared} interpolators compared");
}

fn joe_in_classic_vrml_matches_joe_in_xml() {
    // JoeHAnimKick1a.x3dv (ClassicVRML, HAnim 1 names) is Joe Williams' Joe without the five face joints
    // (eyelids, eyebrows, temporomandibular) that JoeSkinTexcoordDisplacerKick.x3d adds; JoeKick.x3d is a
    // later version with HAnim 2 joint names (94 joints, none named as here), so it is not compared. Every
    // joint of the .x3dv is in the .x3d with the same centre, and the 390-point skin is the same.
    let classic = load(&common::corpus("vrml/JoeHAnimKick1a.x3dv"));
    let xml = load(&common::corpus("x3d/JoeSkinTexcoordDisplacerKick.x3d"));
    let (a, b) = (only_humanoid(&classic), only_humanoid(&xml));
    assert_eq!((a.joints.len(), b.joints.len()), (89, 94));
    let mut moved = Vec::new();
    for ja in &a.joints {
        let jb = &b.joints[b.joint_index(&ja.name).unwrap_or_else(|| panic!("{} missing in XML", ja.name))];
        assert!((ja.rest.center - jb.rest.center).length() < 1e-6, "centre of {}", ja.name);
        let parent = |h: &Humanoid, j: &hanim::Joint| j.parent.map(|p| h.joints[p].name.clone());
        if parent(a, ja) != parent(b, jb) {
            moved.push(format!("{}: {:?} -> {:?}", ja.name, parent(a, ja), parent(b, jb)));
        }
    }
    // The one difference in the hierarchy: the .x3dv closes one bracket too few after the eyeballs (its
    // indentation says vt1, its brackets say vc7), so the sternoclavicular joints hang from vc7 there.
    assert_eq!(
        moved,
        ["l_sternoclavicular: Some(\"vc7\") -> Some(\"vt1\")", "r_sternoclavicular: Some(\"vc7\") -> Some(\"vt1\")"]
    );
    let extra: Vec<&str> =
        b.joints.iter().filter(|j| a.joint_index(&j.name).is_none()).map(|j| j.name.as_str()).collect();
    assert_eq!(extra, ["l_eyelid_joint", "l_eyebrow_joint", "r_eyelid_joint", "r_eyebrow_joint", "temporomandibular"]);
    let (sa, sb) = (a.skin.as_ref().unwrap(), b.skin.as_ref().unwrap());
    assert_eq!(sa.points.len(), 390);
    assert_eq!(sa.points, sb.points, "skin points (the .x3dv writes a # comment after every point)");
}

/// Node types, DEF names, child fields and field values (compared token by token, booleans case-folded)
/// of everything reachable from the roots, in order.
fn scene_outline(scene: &Scene) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack: Vec<(NodeId, String)> = scene.roots.iter().rev().map(|&r| (r, "root".to_string())).collect();
    while let Some((id, field)) = stack.pop() {
        let node = scene.node(id);
        let mut fields: Vec<String> = node
            .fields
            .iter()
            .map(|f| {
                let tokens: Vec<String> = fields::tokens(&f.value)
                    .map(|(_, t)| {
                        if t.eq_ignore_ascii_case("true") || t.eq_ignore_ascii_case("false") {
                            t.to_lowercase()
                        } else {
                            t.to_string()
                        }
                    })
                    .collect();
                format!("{}={}", f.name, tokens.join(" "))
            })
            .collect();
        fields.sort();
        out.push(format!("{field}: {} {} [{}]", node.type_name, node.def_name(), fields.join("; ")));
        stack.extend(node.children.iter().rev().map(|c| (c.node, c.field.clone())));
    }
    out
}

fn routes_and_interpolators_land_in_the_scene_as_in_xml() {
    let classic = x3d::load_file(&fixture("routes.x3dv"), &LoadOptions::default()).unwrap();
    let xml = x3d::load_file(&fixture("routes.x3d"), &LoadOptions::default()).unwrap();
    assert_eq!(scene_outline(&classic), scene_outline(&xml));
    assert_eq!(routes(&classic), routes(&xml));
    assert_eq!(classic.routes.len(), 4);
    assert_eq!((classic.encoding, xml.encoding), (Encoding::Classic, Encoding::Xml));
    assert_eq!(classic.version, "4.0");
    assert_eq!(classic.profile, xml.profile);
    assert_eq!(classic.meta, xml.meta);
    let comps = |s: &Scene| s.components.iter().map(|c| (c.name.clone(), c.level)).collect::<Vec<_>>();
    assert_eq!(comps(&classic), comps(&xml));
    // ROUTE endpoints are the very nodes the skeleton uses.
    let doc = hanim::build_document(classic).unwrap();
    let h = only_humanoid(&doc);
    let hip = h.joints[h.joint_index("l_hip").unwrap()].node;
    assert!(doc.scene.routes.iter().any(|r| r.to_node == hip && r.to_field == "set_rotation"));
    let interp = node_by_def(&doc.scene, "HipTurn");
    assert_eq!(doc.scene.mf_rotation(interp, "keyValue").unwrap()[1], [1.0, 0.0, 0.0, 0.8]);
}

fn hanim_1_0_layout_with_root_joint_outside_the_humanoid() {
    let doc = load(&fixture("hanim10_layout.wrl"));
    let h = only_humanoid(&doc);
    let names: Vec<&str> = h.joints.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["HumanoidRoot", "sacroiliac", "vl5", "skullbase"]);
    assert_eq!(h.joints[3].parent, Some(2));
    assert_eq!(h.joints[3].ulimit, vec![0.5, 0.5, 0.5]);
    // The 1.0 interface default `ulimit [ 0 0 0 ]` reaches joints that do not set it.
    assert_eq!(h.joints[1].ulimit, vec![0.0, 0.0, 0.0]);
    assert_eq!(h.version, "1.0", "the Humanoid PROTO's default version");
    assert_eq!(h.segments.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["pelvis", "skull", "l5"]);
    assert_eq!(h.segments[0].mass, 10.5);
    assert_eq!(h.skin_joints.len(), 4, "the `joints` USE list");

    // Geometry: hexadecimal coordIndex with commas, a comment inside the point list.
    let shape = h.segments[0].geometry[0];
    let ifs = doc.scene.node(shape).children_in("geometry").next().unwrap();
    assert_eq!(doc.scene.mf_int32(ifs, "coordIndex").unwrap(), [0, 1, 2, 3, -1]);
    assert!(!doc.scene.sf_bool(ifs, "solid", true).unwrap());
    let coord = doc.scene.node(ifs).children_in("coord").next().unwrap();
    assert_eq!(doc.scene.mf_length3(coord, "point").unwrap().len(), 4);

    // The Viewpoints group: scene viewpoints. The eye and face views under skullbase: cameras that follow it.
    let scene_vps: Vec<&str> = doc.viewpoints.iter().map(|(v, _)| v.def.as_deref().unwrap()).collect();
    assert_eq!(scene_vps, ["FrontView", "SideView", "TopView", "InclinedView"]);
    // The eye and face views are Viewpoints among skullbase's (joint 3's) children: joint viewpoints.
    let held: Vec<(&str, Option<usize>)> =
        h.joint_viewpoints.iter().map(|v| (v.held.viewpoint.def.as_deref().unwrap(), v.joint)).collect();
    assert_eq!(held, [("hanim_LeftEyeView", Some(3)), ("hanim_RightEyeView", Some(3)), ("hanim_FaceView", Some(3))]);
    let at = |pose: &Pose, name: &str| -> Vec3 {
        let g = hanim_viewer::pose::humanoid_from_joint(h, pose);
        let figure = hanim_viewer::pose::bounds::humanoid_bounds(&doc.scene, h, pose).unwrap();
        let world_from_humanoid = doc.humanoids[0].world_from_humanoid();
        let ctx = views::PoseContext {
            doc: &doc,
            humanoid: hanim_viewer::hanim::HumanoidIndex(0),
            humanoid_from_joint: &g,
            world_from_humanoid,
            figure: &figure,
            aspect: 1.0,
        };
        let entry = views::document_views(&doc)
            .into_iter()
            .find(|v| v.def.as_deref() == Some(name))
            .unwrap_or_else(|| panic!("no view {name}"));
        views::placement(&ctx, entry.source).unwrap().position()
    };
    let rest = Pose::rest(h);
    assert!((at(&rest, "hanim_LeftEyeView") - Vec3::new(0.03, 1.6, 0.1)).length() < 1e-5);
    // The face view sits in a Transform (translation 0 0 0.2) under skullbase.
    assert!((at(&rest, "hanim_FaceView") - Vec3::new(0.0, 1.6, 0.5)).length() < 1e-5);
    // Turning the head moves the eyes: 90° about y at the skullbase centre (0 1.5 0).
    let mut turned = Pose::rest(h);
    turned.rotation_offsets[3] = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
    let moved = at(&turned, "hanim_LeftEyeView");
    assert!((moved - Vec3::new(0.1, 1.6, -0.03)).length() < 1e-5, "{moved}");
}

fn proto_with_is_expands_with_instance_values_and_defaults() {
    let scene = x3d::load_file(&fixture("proto_is.wrl"), &LoadOptions::default()).unwrap();
    let check = |def: &str, translation: [f32; 3], color: [f32; 3], radius: f32, extra: usize| {
        let t = node_by_def(&scene, def);
        assert_eq!(scene.node(t).type_name, "Transform", "{def}");
        assert_eq!(scene.node(t).proto.as_deref(), Some("Ball"));
        assert_eq!(scene.sf_vec3f(t, "translation", [9.0; 3]).unwrap(), translation, "{def}");
        let kids: Vec<NodeId> = scene.node(t).children_in("children").collect();
        let shape = kids[0];
        let app = scene.node(shape).children_in("appearance").next().unwrap();
        let mat = scene.node(app).children_in("material").next().unwrap();
        assert_eq!(scene.sf_color(mat, "diffuseColor", [9.0; 3]).unwrap(), color, "{def}");
        let sphere = scene.node(shape).children_in("geometry").next().unwrap();
        assert_eq!(scene.sf_float(sphere, "radius", 9.0).unwrap(), radius, "{def}");
        assert_eq!(scene.node(kids[1]).children_in("children").count(), extra, "{def}");
    };
    check("Green", [1.0, 2.0, 3.0], [0.0, 1.0, 0.0], 0.25, 1);
    check("Plain", [0.0, 0.0, 0.0], [1.0, 0.0, 0.0], 1.0, 0);
    // Two instances are two copies: the Green one's Shape is not the Plain one's.
    let shape = |def: &str| scene.node(node_by_def(&scene, def)).children[0].node;
    assert_ne!(shape("Green"), shape("Plain"));
    let tag = node_by_def(&scene, "Tag");
    assert_eq!(scene.string(tag, "title"), Some("tag"));
}

fn nested_protos_pass_values_through_both_interfaces() {
    let scene = x3d::load_file(&fixture("nested_protos.wrl"), &LoadOptions::default()).unwrap();
    let check = |def: &str, offset: [f32; 3], kids: usize| {
        let group = node_by_def(&scene, def);
        assert_eq!(scene.node(group).type_name, "Group");
        let children: Vec<NodeId> = scene.node(group).children_in("children").collect();
        let inner = children[0];
        assert_eq!(scene.node(inner).type_name, "Transform");
        assert_eq!(scene.node(inner).proto.as_deref(), Some("Inner"));
        assert_eq!(scene.sf_vec3f(inner, "translation", [9.0; 3]).unwrap(), offset, "{def}");
        let info = scene.node(inner).children_in("children").next().unwrap();
        assert_eq!(scene.string(info, "title"), Some("inner"), "the inner default");
        assert_eq!(scene.node(children[1]).children_in("children").count(), kids, "{def}");
        assert!(scene.node(inner).is_connections.is_empty(), "{def}: every IS resolved");
    };
    check("Given", [1.0, 2.0, 3.0], 1);
    check("Defaults", [5.0, 5.0, 5.0], 0);
}

fn externproto_without_a_local_file_falls_back_to_the_hanim_names() {
    let doc = load(&fixture("externproto_fallback.wrl"));
    let h = only_humanoid(&doc);
    assert_eq!(h.name, "fallback");
    assert_eq!(h.joints.iter().map(|j| j.name.as_str()).collect::<Vec<_>>(), ["HumanoidRoot", "l_hip"]);
    assert_eq!(h.joints[1].rest.center, Vec3::new(0.1, 0.9, 0.0));
    assert_eq!(h.segments[0].name, "l_thigh");
    let notes: Vec<&str> = doc.warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(notes.iter().filter(|m| m.contains("is not available locally")).count(), 3, "{notes:?}");
    assert!(notes.iter().any(|m| m.contains("remote URLs are never fetched") && m.contains("HAnimJoint")));
    assert!(notes.iter().any(|m| m.contains("missing_hanim_protos.wrl") && m.contains(": not found")), "{notes:?}");
}

fn externproto_from_a_local_file_expands_its_definition() {
    let doc = load(&fixture("externproto_local.wrl"));
    assert!(doc.warnings.is_empty(), "{:?}", doc.warnings);
    let marker = node_by_def(&doc.scene, "M");
    assert_eq!(doc.scene.node(marker).type_name, "Transform");
    assert_eq!(doc.scene.sf_vec3f(marker, "translation", [9.0; 3]).unwrap(), [0.0, 2.0, 0.0]);
    // The library's own scene content (a Sphere) is not part of this scene.
    assert_eq!(doc.other_shapes.len(), 1);
    let h = only_humanoid(&doc);
    assert_eq!(h.version, "1.1", "default from the library's Humanoid PROTO");
    assert_eq!(h.joints[0].rest.center, Vec3::new(0.0, 1.0, 0.0));
}

fn hanim_protos_under_other_names_are_recognised_by_their_fields() {
    let doc = load(&fixture("renamed_protos.wrl"));
    let h = only_humanoid(&doc);
    assert_eq!(h.name, "renamed");
    assert_eq!(h.joints[0].name, "HumanoidRoot");
    assert_eq!(h.segments[0].name, "pelvis");
    assert_eq!(h.segments[0].mass, 12.0);
    assert_eq!(h.displacers[0].name, "belly");
    assert_eq!(h.displacers[0].coord_index, [0]);
    assert_eq!(h.sites[0].name, "pelvis_tip");
    assert_eq!(h.sites[0].parent, SiteParent::Segment(0));
}

fn strings_with_escapes() {
    let doc = load(&fixture("strings.x3dv"));
    let scene = &doc.scene;
    let info = scene.roots[0];
    assert_eq!(scene.string(info, "title"), Some("A \"quoted\" title"));
    assert_eq!(scene.mf_string(info, "info").unwrap(), ["back\\slash", "hash # not a comment", "two\nlines"]);
    let h = only_humanoid(&doc);
    assert_eq!(h.name, "esc\"aped");
    assert_eq!(h.info, [("authorName".to_string(), "Some \"One\"".to_string())]);
    let shape = scene.roots[2];
    let text = scene.node(shape).children_in("geometry").next().unwrap();
    assert_eq!(scene.mf_string(text, "string").unwrap(), ["one"]);
    let anchor = scene.roots[3];
    assert!(scene.mf_string(anchor, "url").unwrap().is_empty());
    assert_eq!(scene.string(anchor, "description"), Some("no url"));
}

fn unit_statements_scale_lengths_and_angles() {
    let doc = load(&fixture("units.x3dv"));
    let h = only_humanoid(&doc);
    assert!((h.joints[0].rest.center - Vec3::new(0.0, 1.0, 0.0)).length() < 1e-6);
    assert!((h.joints[1].rest.center - Vec3::new(0.1, 0.9, 0.0)).length() < 1e-6);
    let expected = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
    assert!((h.joints[1].rest.rotation.dot(expected).abs() - 1.0).abs() < 1e-6, "{}", h.joints[1].rest.rotation);
    assert!((h.joints[1].ulimit[0] - std::f32::consts::FRAC_PI_4).abs() < 1e-6);
    let units = doc.scene.files[0].units;
    assert_eq!((units.length, units.angle), (0.01, 0.0174532925199433));
    assert_eq!(doc.scene.meta, [("description".to_string(), "lengths in centimetres, angles in degrees".to_string())]);
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

fn gzip_files_load_whatever_their_name() {
    let dir = tempfile::tempdir().unwrap();
    let joints = |path: &Path| load(path).humanoids[0].joints.len();
    let cases = [
        ("hanim10_layout.wrl", "layout.wrz", 4),
        ("routes.x3dv", "routes.x3dvz", 2),
        ("routes.x3d", "routes.x3dz", 2),
        ("routes.x3d", "routes.x3d.gz", 2),
        // Content decides: gzip magic, then the #VRML header, whatever the extension says.
        ("hanim10_layout.wrl", "layout_named_wrongly.x3d", 4),
    ];
    for (source, name, expected) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, gzip(&std::fs::read(fixture(source)).unwrap())).unwrap();
        assert_eq!(joints(&path), expected, "{name}");
        assert!(x3d::is_supported_path(&path), "{name}");
    }
    // An uncompressed classic file with an XML-looking name.
    let path = dir.path().join("plain.x3d");
    std::fs::copy(fixture("routes.x3dv"), &path).unwrap();
    assert_eq!(joints(&path), 2);
}

fn classic_text_loads_through_load_str() {
    let text = std::fs::read_to_string(fixture("routes.x3dv")).unwrap();
    let doc = hanim::load_str(&text, &fixture("routes.x3dv")).unwrap();
    assert_eq!(doc.humanoids[0].joints.len(), 2);
}

fn classic_inlines_are_read() {
    // JoeHAnimKick1a.x3dv inlines JointCoordinateAxes.x3dv; hanim_transforms.x3dv inlines an XML file.
    let doc = load(&common::corpus("vrml/JoeHAnimKick1a.x3dv"));
    assert_eq!(doc.scene.files.len(), 3, "two Inlines of the same file");
    assert!(doc.scene.files[1..].iter().all(|f| f.path.ends_with("JointCoordinateAxes.x3dv")));
    let doc = load(&common::corpus("vrml/hanim_transforms.x3dv"));
    assert!(doc.scene.files[1].path.ends_with("axis_simple.x3d"));
    assert_eq!(doc.other_shapes.len(), 3, "the three axes of the XML Inline");
}

/// (file, line:column, words the message must contain)
const BAD: &[(&str, &str, &[&str])] = &[
    ("bad_component.x3dv", "3:11", &["COMPONENT 'HAnim:one'", "must be an integer"]),
    ("bad_hex.wrl", "2:48", &["malformed number '0x1G'"]),
    ("bad_number.wrl", "2:27", &["malformed number '2.3.4'"]),
    ("bad_unit.x3dv", "3:19", &["UNIT length conversion factor must be > 0"]),
    ("extra_close.wrl", "3:1", &["expected a node", "found '}'"]),
    ("instance_wrong_type.wrl", "3:22", &["field 'center' (SFVec3f)", "found string \"middle\""]),
    ("is_outside_proto.wrl", "2:28", &["IS where", "outside a PROTO body"]),
    ("is_unknown_field.wrl", "4:30", &["IS 'there'", "no such interface field", "it has: where"]),
    ("list_not_closed_by_bracket.wrl", "3:11", &["expected a number", "']'", "found '}'"]),
    ("missing_brace.wrl", "2:11", &["expected '{' after node type 'Transform'", "found 'translation'"]),
    ("no_header.wrl", "1:1", &["expected a '#VRML V2.0 utf8'", "header line"]),
    ("numbers_for_nodes.wrl", "2:20", &["expected a node", "in 'children'", "found number '1'"]),
    ("proto_short_default.wrl", "3:33", &["SFVec3f", "'where'", "expected 3 numbers, found 2"]),
    ("route_missing_period.wrl", "3:9", &["expected '.' after 'A'"]),
    ("route_missing_to.wrl", "4:26", &["expected TO", "found 'B'"]),
    ("single_quotes.wrl", "2:19", &["unexpected character", "double quotes"]),
    ("stray_value.wrl", "5:32", &["expected a field name or '}' in 'Joint'", "found number '3'"]),
    ("truncated_gzip.wrz", "", &["gzip data but cannot be decompressed"]),
    ("unclosed_list.wrl", "5:1", &["unexpected end of file", "'children [' opened at 3:12", "missing ']'"]),
    ("unclosed_string.wrl", "3:9", &["string is not closed"]),
    ("unknown_field_type.wrl", "3:9", &["unknown field type 'SFVec3'"]),
    ("use_cycle.wrl", "3:39", &["USE 'Loop' is inside its own DEF", "opened at 2:1"]),
    ("value_too_short.x3dv", "3:45", &["SFVec3f", "center", "expected 3 numbers, found 1"]),
    ("vrml1.wrl", "1:1", &["VRML 1.0 files are not supported"]),
];

fn malformed_vrml_gives_a_clear_error_with_its_position() {
    let dir = common::test_data("bad_vrml");
    let mut failures = Vec::new();
    for (file, at, words) in BAD {
        let path = dir.join(file);
        let result = std::panic::catch_unwind(|| hanim::load(&path));
        let message = match result {
            Err(_) => {
                failures.push(format!("{file}: panicked"));
                continue;
            }
            Ok(Ok(_)) => {
                failures.push(format!("{file}: loaded without an error"));
                continue;
            }
            Ok(Err(e)) => e.to_string(),
        };
        let prefix = if at.is_empty() { format!("{}: ", path.display()) } else { format!("{}:{at}: ", path.display()) };
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
    // Every file in the folder is checked here.
    let listed: BTreeSet<&str> = BAD.iter().map(|(f, ..)| *f).collect();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(listed.contains(name.as_str()), "{name} has no expectation");
    }
    assert!(BAD.len() >= 15);
}

fn every_truncation_of_a_classic_file_fails_cleanly() {
    let text = std::fs::read_to_string(fixture("hanim10_layout.wrl")).unwrap();
    let path = fixture("hanim10_layout.wrl");
    let mut errors = 0;
    for end in (20..text.len()).step_by(7).filter(|&i| text.is_char_boundary(i)) {
        match std::panic::catch_unwind(|| hanim::load_str(&text[..end], &path)) {
            Err(_) => panic!("panic when cut at byte {end}"),
            Ok(Err(e)) => {
                // Every error names the file and a line:column.
                let message = e.to_string();
                assert!(message.starts_with(&format!("{}:", path.display())), "{message}");
                errors += 1;
            }
            Ok(Ok(_)) => {}
        }
    }
    assert!(errors > 100, "{errors}");
}

fn deep_nesting_does_not_overflow_the_stack() {
    // 100,000 nested Transforms and a 20,000-deep Joint chain, read on a thread with a small stack.
    let depth = 100_000;
    let mut text = String::from("#VRML V2.0 utf8\n");
    for _ in 0..depth {
        text.push_str("Transform { children [\n");
    }
    text.push_str("Shape { }\n");
    for _ in 0..depth {
        text.push_str("] }\n");
    }
    let joints = 20_000;
    let mut chain = String::from("#X3D V4.0 utf8\nDEF H HAnimHumanoid { skeleton ");
    for i in 0..joints {
        chain.push_str(&format!("DEF J{i} HAnimJoint {{ name \"j{i}\" center 0 {i} 0 children [ "));
    }
    for _ in 0..joints {
        chain.push_str("] } ");
    }
    chain.push_str("joints USE J0 }\n");
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let scene = x3d::load_str(&text, Path::new("deep.wrl"), &LoadOptions::default()).unwrap();
            let doc = hanim::load_str(&chain, Path::new("chain.x3dv")).unwrap();
            (scene.nodes.len(), doc.humanoids[0].joints.len())
        })
        .unwrap();
    assert_eq!(handle.join().unwrap(), (depth + 1, joints));
}

fn the_cli_reads_classic_files() {
    let exe = env!("CARGO_BIN_EXE_hanim-viewer");
    if common::corpus_listed("vrml/dork-proto.wrl") {
        let out =
            std::process::Command::new(exe).arg("info").arg(common::corpus("vrml/dork-proto.wrl")).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("joints: 41   segments: 40   sites: 1"), "{text}");
    }
    let out = std::process::Command::new(exe).arg("check").arg(fixture("routes.x3dv")).output().unwrap();
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let out =
        std::process::Command::new(exe).arg("info").arg(common::test_data("bad_vrml/bad_number.wrl")).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad_number.wrl:2:27: malformed number '2.3.4'"));
}

/// GPU deformation of the skinned classic-encoded humanoid agrees with the CPU reference (same bound as
/// gpu_skin.rs: 1e-5 of the bounding-box diagonal, f32 on both sides). The other corpus VRML humanoids
/// have no skin or segment coords to deform.
fn classic_skinned_humanoid_deforms_on_the_gpu_like_the_cpu_reference() {
    let ctx = common::gpu();
    let doc = load(&common::corpus("vrml/JoeHAnimKick1a.x3dv"));
    let a = hanim_viewer::gpu::agreement::measure(&ctx, only_humanoid(&doc), 4, 0x5EED).unwrap();
    eprintln!("JoeHAnimKick1a.x3dv: {a:?}");
    assert_eq!(a.poses, 5);
    assert!(a.max_error() <= 1e-5, "{a:?}");
}

fn foreground_pixels(image: &headless::RenderedImage) -> Vec<(u32, u32)> {
    let background = image.background_rgba8();
    let (w, h) = (image.width, image.height);
    (0..w * h)
        .map(|i| (i % w, i / w))
        .filter(|&(x, y)| {
            let p = image.pixel(x, y);
            (0..3).any(|c| p[c].abs_diff(background[c]) > 3)
        })
        .collect()
}

fn classic_corpus_humanoids_render_and_a_joint_rotation_moves_only_its_side() {
    let ctx = common::gpu();
    let (w, h) = (160, 120);
    for (name, min_pixels) in [
        ("nancy_h-anim.wrl", 800),
        ("JoeHAnimKick1a.x3dv", 800),
        // Spheres and Cylinders are not tessellated yet: these draw their skeleton, a few hundred pixels.
        ("SphereMan_1.1.wrl", 100),
        ("dork-proto.wrl", 100),
    ] {
        if !common::corpus_listed(&format!("vrml/{name}")) {
            continue;
        }
        let doc = load(&common::corpus(&format!("vrml/{name}")));
        let image = headless::render_document(&ctx, &doc, &headless::SceneRequest::new(w, h))
            .unwrap_or_else(|e| panic!("{name}: {e:#}"));
        let fg = foreground_pixels(&image);
        eprintln!("{name}: {} foreground pixels", fg.len());
        assert!(fg.len() >= min_pixels, "{name}: {} foreground pixels", fg.len());
        // The figure stands in the middle: foreground on both sides of the centre line.
        assert!(fg.iter().any(|&(x, _)| x < w / 2) && fg.iter().any(|&(x, _)| x > w / 2), "{name}");
    }
    // Raising Nancy's left arm (the humanoid's left is the image's right in the front view) changes pixels
    // on the right half only.
    if common::find_corpus("vrml/nancy_h-anim.wrl").is_none() {
        return; // reported above
    }
    let doc = load(&common::corpus("vrml/nancy_h-anim.wrl"));
    let rest = headless::render_document(&ctx, &doc, &headless::SceneRequest::new(w, h)).unwrap();
    let mut request = headless::SceneRequest::new(w, h);
    request.view = headless::ViewRequest::Camera(rest.camera);
    request.joint_rotations = vec![hanim_viewer::commands::args::parse_joint_rotation("l_shoulder=0,0,1,1.2").unwrap()];
    let posed = headless::render_document(&ctx, &doc, &request).unwrap();
    let changed: Vec<u32> =
        (0..w * h).filter(|i| rest.pixel(i % w, i / w) != posed.pixel(i % w, i / w)).map(|i| i % w).collect();
    assert!(changed.len() > 50, "{} pixels changed", changed.len());
    assert!(changed.iter().all(|&x| x >= w / 2 - 2), "changes left of the centre: {:?}", changed.iter().min());
}

fn protos_nested_to_an_exponential_size_are_refused() {
    // Each PROTO's body holds two instances of the previous one: 2^40 nodes if expanded.
    let mut text = String::from("#VRML V2.0 utf8\nPROTO P0 [ ] { Group { children [ Shape { } Shape { } ] } }\n");
    for i in 1..40 {
        text.push_str(&format!("PROTO P{i} [ ] {{ Group {{ children [ P{p} {{ }} P{p} {{ }} ] }} }}\n", p = i - 1));
    }
    text.push_str("P39 { }\n");
    let err = x3d::load_str(&text, Path::new("bomb.wrl"), &LoadOptions::default()).unwrap_err();
    assert!(err.to_string().contains("PROTO instances expand to more than"), "{err}");
}

fn mutated_classic_files_never_panic() {
    // Seeded single-byte edits, deletions and duplications of a fixture: every result is a scene or an
    // error with a position, never a panic.
    use rand::{Rng, SeedableRng};
    let original = std::fs::read(fixture("hanim10_layout.wrl")).unwrap();
    let path = fixture("hanim10_layout.wrl");
    let alphabet = b"{}[]\"#.,-+0x9eAZ \n\\IS DEF USE PROTO";
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x5EED);
    let mut errors = 0;
    for _ in 0..1500 {
        let mut bytes = original.clone();
        for _ in 0..rng.random_range(1..4) {
            let at = rng.random_range(0..bytes.len());
            match rng.random_range(0..3) {
                0 => bytes[at] = alphabet[rng.random_range(0..alphabet.len())],
                1 => {
                    bytes.remove(at);
                }
                _ => {
                    let end = (at + rng.random_range(1..40)).min(bytes.len());
                    let piece = bytes[at..end].to_vec();
                    bytes.splice(at..at, piece);
                }
            }
        }
        let result = std::panic::catch_unwind(|| {
            let scene = x3d::load_bytes(&bytes, &path, &LoadOptions::default()).map_err(|e| e.to_string())?;
            hanim::build_document(scene).map_err(|e| e.to_string())
        });
        match result {
            Err(_) => panic!("panic on mutated input:\n{}", String::from_utf8_lossy(&bytes)),
            Ok(Err(_)) => errors += 1,
            Ok(Ok(_)) => {}
        }
    }
    assert!(errors > 100, "{errors} of 1500 mutations were errors");
}

fn xml_extern_proto_declare_is_resolved_from_a_local_classic_file() {
    let doc = load(&fixture("externproto_from_xml.x3d"));
    // The remote url listed first is tried and reported (every failed url is a warning), then the local one.
    let messages: Vec<&str> = doc.warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(
        messages,
        ["EXTERNPROTO 'Marker' url 'https://example.org/lib.wrl#Marker': remote URLs are never fetched"]
    );
    let marker = node_by_def(&doc.scene, "M");
    assert_eq!(doc.scene.node(marker).type_name, "Transform");
    assert_eq!(doc.scene.sf_vec3f(marker, "translation", [9.0; 3]).unwrap(), [0.0, 3.0, 0.0]);
    assert_eq!(doc.other_shapes.len(), 1, "the Marker's box");
}

/// A part file an Inline refers to, written without the `#VRML V2.0 utf8` header line (VRML97 4.2.1 asks
/// for one; modelling tools leave it out of the parts a main file inlines, and X_ITE reads them): read
/// as VRML97 with a warning naming it, its geometry drawn. A main file without a header stays refused.
fn a_part_file_without_a_header_line_is_inlined_with_a_warning() {
    let path = fixture("headerless_inline.wrl");
    let scene = x3d::load_file(&path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let shapes = scene.reachable().iter().filter(|&&id| scene.node(id).type_name == "Shape").count();
    assert_eq!(shapes, 1, "the part's Shape is in the scene");
    let warning = scene.warnings.iter().find(|w| w.message.contains("no '#VRML V2.0 utf8' header line"));
    let warning = warning.unwrap_or_else(|| panic!("{:?}", scene.warnings));
    assert!(warning.pos.file.ends_with("parts/link.wrl"), "{:?}", warning.pos);
    let part = fixture("parts/link.wrl");
    let error = x3d::load_file(&part, &LoadOptions::default()).expect_err("a main file needs its header");
    assert!(error.to_string().contains("header line"), "{error}");
}
