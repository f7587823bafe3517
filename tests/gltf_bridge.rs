//! The glTF bridge on the corpus humanoids: a humanoid written as glTF and read back keeps its joints
//! (names, hierarchy, centres, rest values), its skin weights (within 1e-6 after normalisation), its
//! clips (sampled poses) and its displacers; the Khronos glTF-Validator reports no error on the export of
//! any corpus humanoid; an imported asset saved as X3D validates against the X3D 4.0 schema; bad glTF
//! input is a clear error.

mod common;

test_main!(
    corpus_humanoids_survive_a_round_trip_through_gltf,
    the_khronos_validator_finds_no_error_in_any_corpus_export,
    an_imported_asset_saved_as_x3d_validates,
    bad_gltf_input_is_a_clear_error_and_writes_nothing,
    vrm_avatars_open_with_hanim_joint_names_and_their_expressions
);

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use glam::Vec3;
use hanim_viewer::animation::{Animations, SampleOptions};
use hanim_viewer::gltf::export::{ExportOptions, export_document};
use hanim_viewer::hanim::{self, DisplacerOwner, Document, Humanoid};

/// Humanoids with a skin, displacers, HAnimMotions and interpolator clips between them.
const ROUND_TRIP: [&str; 6] = [
    "x3d/JoeSkinTexcoordDisplacerKick.x3d",
    "x3d/JoeKick.x3d",
    "x3d/KoreanCharacterMotionAnnexD01Jin.x3d",
    "x3d/JoeSkeletonSkinSiteSaluteWalk.x3d",
    "x3d/BvhSeamless3dExport1.x3d",
    "x3d/Pirouette.x3d",
];

fn export_to(doc: &Document, out: &Path, binary: bool) -> hanim_viewer::gltf::export::ExportReport {
    let animations = Animations::from_document(doc);
    let options = ExportOptions { binary, ..ExportOptions::default() };
    let exported = export_document(doc, &animations, &options).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    std::fs::write(out, &exported.bytes).unwrap();
    exported.report
}

fn joint_name(h: &Humanoid, j: usize) -> &str {
    &h.joints[j].name
}

/// `(joint name, weight / Σw)` of skin point `p`, sorted by name.
fn normalised(h: &Humanoid, p: usize) -> Vec<(String, f32)> {
    let skin = h.skin.as_ref().unwrap();
    let list = skin.influences.of(p);
    let sum: f32 = list.iter().map(|e| e.1).sum();
    let mut out: Vec<(String, f32)> =
        list.iter().map(|&(j, w)| (joint_name(h, j as usize).to_string(), w / sum)).collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn weight_difference(a: &[(String, f32)], b: &[(String, f32)]) -> f32 {
    if a.len() != b.len() || a.iter().zip(b).any(|(x, y)| x.0 != y.0) {
        return f32::INFINITY;
    }
    a.iter().zip(b).map(|(x, y)| (x.1 - y.1).abs()).fold(0.0, f32::max)
}

/// How far apart two unit quaternions are, either sign (about half the angle between them; unlike
/// `angle_between` it does not lose precision for nearly equal rotations).
fn quat_distance(a: glam::Quat, b: glam::Quat) -> f32 {
    (a - b).length().min((a + b).length())
}

fn bits(v: Vec3) -> [u32; 3] {
    [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()]
}

fn check_joints(file: &str, a: &Humanoid, b: &Humanoid) {
    assert_eq!(a.joints.len(), b.joints.len(), "{file}: joint count");
    for (ja, jb) in a.joints.iter().zip(&b.joints) {
        assert_eq!(ja.name, jb.name, "{file}: joint order");
        let parent = |h: &Humanoid, p: Option<usize>| p.map(|p| h.joints[p].name.clone());
        assert_eq!(parent(a, ja.parent), parent(b, jb.parent), "{file}: parent of {}", ja.name);
        assert!((ja.rest.center - jb.rest.center).length() < 1e-5, "{file}: centre of {}", ja.name);
        assert!((ja.rest.translation - jb.rest.translation).length() < 1e-5, "{file}: translation of {}", ja.name);
        assert!(quat_distance(ja.rest.rotation, jb.rest.rotation) < 1e-5, "{file}: rotation of {}", ja.name);
        assert_eq!(ja.llimit, jb.llimit, "{file}: llimit of {}", ja.name);
        assert_eq!(ja.ulimit, jb.ulimit, "{file}: ulimit of {}", ja.name);
    }
}

/// Every skin point a deforming face uses comes back at the same position with the same weights.
fn check_weights(file: &str, doc: &Document, a: &Humanoid, b: &Humanoid) -> usize {
    let Some(skin) = &a.skin else { return 0 };
    let faces = hanim_viewer::mesh::skin_mesh_from_humanoid(&doc.scene, a).unwrap();
    let mut used = vec![false; skin.points.len()];
    for part in faces.parts.iter().filter(|p| p.topology == hanim_viewer::mesh::Topology::Triangles) {
        part.source_point.iter().for_each(|&s| used[s as usize] = true);
    }
    let back = b.skin.as_ref().unwrap_or_else(|| panic!("{file}: the skin did not come back"));
    let mut at: HashMap<[u32; 3], Vec<usize>> = HashMap::new();
    for (i, p) in back.points.iter().enumerate() {
        at.entry(bits(*p)).or_default().push(i);
    }
    let mut checked = 0;
    for p in (0..skin.points.len()).filter(|&p| used[p] && !skin.influences.of(p).is_empty()) {
        let candidates = at.get(&bits(skin.points[p])).unwrap_or_else(|| panic!("{file}: skin point {p} lost"));
        let want = normalised(a, p);
        let best =
            candidates.iter().map(|&q| weight_difference(&want, &normalised(b, q))).fold(f32::INFINITY, f32::min);
        assert!(best <= 1e-6, "{file}: point {p}: weights {want:?} came back {best} apart");
        // The raw weights too (a sum under 1 is kept through the static joint).
        let raw: f32 = skin.influences.of(p).iter().map(|e| e.1).sum();
        let raw_back = candidates
            .iter()
            .map(|&q| (back.influences.of(q).iter().map(|e| e.1).sum::<f32>() - raw).abs())
            .fold(f32::INFINITY, f32::min);
        assert!(raw_back <= 1e-6, "{file}: point {p}: weight sum {raw} came back {raw_back} apart");
        checked += 1;
    }
    checked
}

fn check_displacers(file: &str, a: &Humanoid, b: &Humanoid) -> usize {
    let mut checked = 0;
    for d in a.displacers.iter().filter(|d| matches!(d.owner, DisplacerOwner::Joint(_))) {
        let e = b
            .displacers
            .iter()
            .find(|e| e.name == d.name)
            .unwrap_or_else(|| panic!("{file}: displacer {} lost", d.name));
        assert_eq!(d.weight, e.weight, "{file}: weight of {}", d.name);
        let owner = |h: &Humanoid, o: DisplacerOwner| match o {
            DisplacerOwner::Joint(j) => h.joints[j].name.clone(),
            DisplacerOwner::Segment(s) => h.segments[s].name.clone(),
        };
        assert_eq!(owner(a, d.owner), owner(b, e.owner), "{file}: owner of {}", d.name);
        let skin_a = a.skin.as_ref().unwrap();
        let skin_b = b.skin.as_ref().unwrap();
        let moved: HashMap<[u32; 3], Vec3> = e
            .coord_index
            .iter()
            .zip(&e.displacements)
            .map(|(&i, &delta)| (bits(skin_b.points[i as usize]), delta))
            .collect();
        for (&i, &delta) in d.coord_index.iter().zip(&d.displacements) {
            if delta == Vec3::ZERO {
                continue;
            }
            let got = moved.get(&bits(skin_a.points[i as usize])).copied().unwrap_or(Vec3::ZERO);
            assert!((got - delta).length() < 1e-6, "{file}: {} at point {i}: {delta} came back {got}", d.name);
        }
        checked += 1;
    }
    checked
}

/// Each clip, sampled alone at five times, poses the humanoid read back as it poses the original.
fn check_clips(file: &str, a_doc: &Document, b_doc: &Document) -> usize {
    let a_clips = Animations::from_document(a_doc);
    let b_clips = Animations::from_document(b_doc);
    let options = SampleOptions::default();
    let mut checked = 0;
    for (i, clip) in a_clips.clips.iter().enumerate().filter(|(_, c)| c.unsupported().is_none()) {
        let Some(j) = b_clips.find(clip.name()) else {
            // A clip that moves nothing is not exported (the export says so); anything else must be back.
            let moves = [0.25, 0.5, 1.0].iter().any(|f| {
                let mut solo = a_clips.clone();
                solo.solo(i);
                solo.sample(a_doc, clip.duration(Default::default()) * f, &options)[0]
                    != hanim_viewer::pose::Pose::rest(&a_doc.humanoids[0])
            });
            assert!(!moves, "{file}: clip {} lost", clip.name());
            continue;
        };
        let (mut solo_a, mut solo_b) = (a_clips.clone(), b_clips.clone());
        solo_a.solo(i);
        solo_b.solo(j);
        solo_a.clips[i].looping = false;
        solo_b.clips[j].looping = false;
        let duration = clip.duration(Default::default());
        for k in 0..=4 {
            let t = duration * f64::from(k) / 4.0;
            let pa = &solo_a.sample(a_doc, t, &options)[0];
            let pb = &solo_b.sample(b_doc, t, &options)[0];
            let (ha, hb) = (&a_doc.humanoids[0], &b_doc.humanoids[0]);
            for (ja, joint) in ha.joints.iter().enumerate() {
                let jb = hb.joint_index(&joint.name).unwrap();
                let (ra, rb) = (pa.effective_rotation(ha, ja), pb.effective_rotation(hb, jb));
                assert!(
                    quat_distance(ra, rb) < 5e-4,
                    "{file}: clip {} at {t:.3}s: {} turned {ra} vs {rb}",
                    clip.name(),
                    joint.name
                );
                let (ta, tb) = (pa.effective_translation(ha, ja), pb.effective_translation(hb, jb));
                assert!(
                    (ta - tb).length() < 1e-4,
                    "{file}: clip {} at {t:.3}s: {} moved {ta} vs {tb}",
                    clip.name(),
                    joint.name
                );
            }
            for (d, displacer) in ha.displacers.iter().enumerate() {
                if let Some(e) = hb.displacers.iter().position(|e| e.name == displacer.name) {
                    let (wa, wb) = (pa.displacer_weight(ha, d), pb.displacer_weight(hb, e));
                    assert!(
                        (wa - wb).abs() < 1e-4,
                        "{file}: clip {} at {t:.3}s: {} weight {wa} vs {wb}",
                        clip.name(),
                        displacer.name
                    );
                }
            }
        }
        checked += 1;
    }
    checked
}

fn corpus_humanoids_survive_a_round_trip_through_gltf() {
    let dir = tempfile::tempdir().unwrap();
    let mut totals = (0, 0, 0);
    for file in ROUND_TRIP {
        let path = common::corpus(file);
        let doc = hanim::load(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        for binary in [true, false] {
            let out = dir.path().join(format!(
                "{}.{}",
                path.file_stem().unwrap().to_string_lossy(),
                if binary { "glb" } else { "gltf" }
            ));
            export_to(&doc, &out, binary);
            let back = hanim::load(&out).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
            assert_eq!(back.humanoids.len(), 1, "{file}");
            let (a, b) = (&doc.humanoids[0], &back.humanoids[0]);
            check_joints(file, a, b);
            let weights = check_weights(file, &doc, a, b);
            let displacers = check_displacers(file, a, b);
            let clips = check_clips(file, &doc, &back);
            if binary {
                eprintln!(
                    "{file}: {} joints, {weights} skin points, {displacers} displacers, {clips} clips",
                    a.joints.len()
                );
                totals = (totals.0 + weights, totals.1 + displacers, totals.2 + clips);
            }
        }
    }
    // The list holds skins, a displacer and clips of both kinds: the checks above ran on real data.
    assert!(totals.0 > 5000 && totals.1 >= 2 && totals.2 >= 4, "{totals:?}");
}

fn node_modules() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/gltf/node_modules")
}

/// Every humanoid of the corpus exported, and the Khronos validator run over them all at once.
fn the_khronos_validator_finds_no_error_in_any_corpus_export() {
    let node = Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    let installed = node_modules().join("gltf-validator").is_dir();
    if !(node && installed) {
        let why = if node {
            "tools/gltf/node_modules lacks gltf-validator (npm ci --prefix tools/gltf)"
        } else {
            "node is not installed"
        };
        common::harness::skip(why);
    }
    let dir = tempfile::tempdir().unwrap();
    let mut outputs = Vec::new();
    for folder in ["x3d", "vrml"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(common::corpus_folder(folder))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "x3d" || e == "x3dv" || e == "wrl"))
            .collect();
        files.sort();
        for file in files {
            let doc = hanim::load(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            if doc.humanoids.is_empty() {
                continue;
            }
            let out = dir.path().join(format!("{}.glb", file.file_name().unwrap().to_string_lossy()));
            export_to(&doc, &out, true);
            outputs.push(out);
        }
    }
    assert!(outputs.len() >= 15, "{} humanoids exported", outputs.len());
    // Every lit triangle primitive carries its normals: without them a reader shades it flat (glTF 2.0,
    // 3.7.2.1), which one zero smooth normal used to cause for JoeKick's whole skin.
    for out in &outputs {
        let bytes = std::fs::read(out).unwrap();
        let json_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
        let json: serde_json::Value = serde_json::from_slice(&bytes[20..20 + json_len]).unwrap();
        let unlit = |m: &serde_json::Value| {
            m.as_u64().and_then(|m| json["materials"][m as usize]["extensions"].get("KHR_materials_unlit")).is_some()
        };
        for mesh in json["meshes"].as_array().into_iter().flatten() {
            for primitive in mesh["primitives"].as_array().into_iter().flatten() {
                let triangles = primitive.get("mode").and_then(|m| m.as_u64()).unwrap_or(4) == 4;
                if triangles && !unlit(&primitive["material"]) {
                    assert!(
                        primitive["attributes"].get("NORMAL").is_some(),
                        "{}: mesh {} has a lit primitive without normals",
                        out.display(),
                        mesh["name"]
                    );
                }
            }
        }
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/gltf/validate.mjs");
    let run = Command::new("node").arg(&script).args(&outputs).output().unwrap();
    let report = String::from_utf8_lossy(&run.stdout);
    eprintln!("{report}");
    let lines: Vec<serde_json::Value> = report.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), outputs.len(), "{}", String::from_utf8_lossy(&run.stderr));
    for line in &lines {
        assert_eq!(line["errors"], 0, "{line}");
    }
    assert!(run.status.success());
}

/// An asset this program wrote, read back and saved as X3D XML by `convert`, validates against the X3D
/// 4.0 schema.
fn an_imported_asset_saved_as_x3d_validates() {
    let Some(schemas) = common::schema::schemas_dir() else {
        common::harness::skip("../shared/schemas/x3d-4.0.xsd is not there");
    };
    let dir = tempfile::tempdir().unwrap();
    let mut written = Vec::new();
    for file in
        ["x3d/JoeSkinTexcoordDisplacerKick.x3d", "x3d/KoreanCharacterMotionAnnexD01Jin.x3d", "x3d/JohnJoint20.x3d"]
    {
        let stem = Path::new(file).file_stem().unwrap().to_string_lossy().into_owned();
        let glb = dir.path().join(format!("{stem}.glb"));
        let x3d = dir.path().join(format!("{stem}.x3d"));
        let bin = env!("CARGO_BIN_EXE_hanim-viewer");
        let run = Command::new(bin).arg("convert").arg(common::corpus(file)).arg("--out").arg(&glb).output().unwrap();
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        let run = Command::new(bin).arg("convert").arg(&glb).arg("--out").arg(&x3d).output().unwrap();
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        written.push(x3d);
    }
    let Some(log) = common::schema::xmllint_report(&schemas, &written) else {
        common::harness::skip("xmllint cannot be run");
    };
    for file in &written {
        assert!(log.contains(&format!("{} validates", file.display())), "{log}");
    }
}

fn bad_gltf_input_is_a_clear_error_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("broken.glb");
    std::fs::write(&bad, b"glTF\x02\0\0\0\x10\0\0\0garbage!").unwrap();
    let out = dir.path().join("out.x3d");
    let run = Command::new(env!("CARGO_BIN_EXE_hanim-viewer"))
        .arg("convert")
        .arg(&bad)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(!run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("broken.glb") && stderr.contains("glTF"), "{stderr}");
    assert!(!out.exists());
    let json = dir.path().join("broken.gltf");
    std::fs::write(&json, b"{\"asset\": {\"version\": \"2.0\"}, \"nodes\": [{\"mesh\": 5}]}").unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_hanim-viewer")).arg("info").arg(&json).output().unwrap();
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("broken.gltf"));
}

/// The JSON and binary chunks of a `.glb`.
fn glb_chunks(bytes: &[u8]) -> (serde_json::Value, Vec<u8>) {
    let json_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let json = serde_json::from_slice(&bytes[20..20 + json_len]).unwrap();
    let bin_at = 20 + json_len;
    let bin_len = u32::from_le_bytes(bytes[bin_at..bin_at + 4].try_into().unwrap()) as usize;
    (json, bytes[bin_at + 8..bin_at + 8 + bin_len].to_vec())
}

fn glb(json: &serde_json::Value, bin: &[u8]) -> Vec<u8> {
    let mut text = serde_json::to_vec(json).unwrap();
    while !text.len().is_multiple_of(4) {
        text.push(b' ');
    }
    let total = 12 + 8 + text.len() + 8 + bin.len();
    let mut out = b"glTF".to_vec();
    out.extend(2u32.to_le_bytes());
    out.extend((total as u32).to_le_bytes());
    out.extend((text.len() as u32).to_le_bytes());
    out.extend(b"JSON");
    out.extend(&text);
    out.extend((bin.len() as u32).to_le_bytes());
    out.extend(b"BIN\0");
    out.extend(bin);
    out
}

/// A VRM avatar made from an exported humanoid: its joints renamed as VRoid and Mixamo name them, this
/// program's H-Anim `extras` removed, a `VRMC_vrm` (1.0) or `VRM` (0.x) extension naming the bones and
/// an expression that sets the morph target at half weight. Read back, the bones carry their H-Anim
/// names, the expression is a displacer named by it, the weights are the original ones, and a 0.x avatar
/// (which faces −Z) is turned to face +Z.
fn vrm_avatars_open_with_hanim_joint_names_and_their_expressions() {
    let doc = hanim::load(&common::corpus("x3d/JoeKick.x3d")).unwrap();
    let original = &doc.humanoids[0];
    let dir = tempfile::tempdir().unwrap();
    let exported = dir.path().join("joe.glb");
    export_to(&doc, &exported, true);
    let (json, bin) = glb_chunks(&std::fs::read(&exported).unwrap());
    let node_of = |name: &str| json["nodes"].as_array().unwrap().iter().position(|n| n["name"] == name).unwrap();
    let skin_node = json["nodes"].as_array().unwrap().iter().position(|n| n.get("skin").is_some()).unwrap();
    let displacer = &original.displacers[0];
    for version0 in [false, true] {
        let mut json = json.clone();
        for (hanim, vroid) in [
            ("humanoid_root", "J_Bip_C_Hips"),
            ("skullbase", "J_Bip_C_Head"),
            ("l_hip", "J_Bip_L_UpperLeg"),
            ("l_knee", "mixamorig:LeftLeg"),
        ] {
            let n = node_of(hanim);
            json["nodes"][n]["name"] = vroid.into();
        }
        for node in json["nodes"].as_array_mut().unwrap() {
            if matches!(
                node.pointer("/extras/hanim/type").and_then(|t| t.as_str()),
                Some("HAnimJoint" | "HAnimHumanoid")
            ) {
                node.as_object_mut().unwrap().remove("extras");
            }
        }
        let mesh = json["nodes"][skin_node]["mesh"].as_u64().unwrap();
        json["extensions"] = if version0 {
            serde_json::json!({"VRM": {
                "meta": {"title": "Joe"},
                "humanoid": {"humanBones": [
                    {"bone": "hips", "node": node_of("humanoid_root")},
                    {"bone": "head", "node": node_of("skullbase")},
                    {"bone": "leftUpperLeg", "node": node_of("l_hip")}]},
                "blendShapeMaster": {"blendShapeGroups": [
                    {"name": "Joy", "presetName": "joy", "binds": [{"mesh": mesh, "index": 0, "weight": 50}]}]}}})
        } else {
            serde_json::json!({"VRMC_vrm": {
                "specVersion": "1.0",
                "meta": {"name": "Joe"},
                "humanoid": {"humanBones": {
                    "hips": {"node": node_of("humanoid_root")},
                    "head": {"node": node_of("skullbase")},
                    "leftUpperLeg": {"node": node_of("l_hip")}}},
                "expressions": {"preset": {"happy": {"morphTargetBinds": [{"node": skin_node, "index": 0, "weight": 0.5}]}}}}})
        };
        json["extensionsUsed"] = serde_json::json!([if version0 { "VRM" } else { "VRMC_vrm" }]);
        let vrm = dir.path().join(if version0 { "joe0.vrm" } else { "joe1.vrm" });
        std::fs::write(&vrm, glb(&json, &bin)).unwrap();
        let back = hanim::load(&vrm).unwrap_or_else(|e| panic!("{}: {e}", vrm.display()));
        let h = &back.humanoids[0];
        assert_eq!(h.name, "Joe");
        for name in ["humanoid_root", "skullbase", "l_hip", "l_knee", "r_hip"] {
            assert!(
                h.joint_index(name).is_some(),
                "{name} missing: {:?}",
                h.joints.iter().map(|j| &j.name).collect::<Vec<_>>()
            );
        }
        let expression = if version0 { "joy" } else { "happy" };
        let e =
            h.displacers.iter().find(|d| d.name == expression).unwrap_or_else(|| panic!("no displacer {expression}"));
        assert!(!h.displacers.iter().any(|d| d.name == displacer.name), "the bound morph target is the expression's");
        let (skin_a, skin_b) = (original.skin.as_ref().unwrap(), h.skin.as_ref().unwrap());
        for (&i, &delta) in displacer.coord_index.iter().zip(&displacer.displacements) {
            let p = skin_a.points[i as usize];
            let k = e.coord_index.iter().position(|&q| skin_b.points[q as usize] == p);
            let got = k.map_or(Vec3::ZERO, |k| e.displacements[k]);
            assert!((got - delta * 0.5).length() < 1e-6, "{expression} at {p}: {got} for {delta}");
        }
        check_weights("vrm", &doc, original, h);
        let facing = h.transform.rotation * Vec3::Z;
        let expected = if version0 { -Vec3::Z } else { Vec3::Z };
        assert!((facing - expected).length() < 1e-6, "VRM 0.x: {version0}, the humanoid's +Z is {facing}");
    }
}
