//! glTF features the importer reads beyond skins and skinned morph targets, each on a small glTF asset
//! written here (accessors over one base64 buffer) and, where the corpus has one, on a real file:
//! scale animation channels (left out where they hold the rest scale, else driving the joint's `scale`),
//! morph targets of meshes without a skin (segment displacers, their weights animated), and
//! `KHR_texture_transform` (a TextureTransform, or the texture coordinates mapped where none can draw it).

mod common;

test_main!(
    scale_channels_holding_the_rest_scale_are_left_out_and_others_drive_the_joint_scale,
    morph_targets_of_an_unskinned_mesh_become_segment_displacers,
    segment_displacers_survive_a_round_trip_through_gltf,
    texture_transforms_draw_as_gltf_maps_texture_coordinates
);

use std::path::Path;

use base64::Engine as _;
use glam::{Affine2, Vec2, Vec3};
use hanim_viewer::animation::{Animations, SampleOptions};
use hanim_viewer::gltf::import;
use hanim_viewer::hanim::{self, DisplacerOwner};
use hanim_viewer::mesh::TextureTransformFields;
use hanim_viewer::pose::{Pose, deform_segment, poses_for};
use hanim_viewer::x3d::syntax::Element;
use serde_json::{Value, json};

/// A glTF asset under construction: its JSON and the one buffer its accessors read.
#[derive(Default)]
struct Asset {
    bytes: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl Asset {
    /// An accessor over `values` (f32, `kind` "SCALAR"/"VEC2"/"VEC3"/"VEC4"); returns its index.
    fn floats(&mut self, kind: &str, values: &[f32], with_bounds: bool) -> usize {
        let width = match kind {
            "SCALAR" => 1,
            "VEC2" => 2,
            "VEC3" => 3,
            _ => 4,
        };
        let mut accessor = json!({
            "bufferView": self.view(values.iter().flat_map(|v| v.to_le_bytes()).collect()),
            "componentType": 5126, "count": values.len() / width, "type": kind,
        });
        if with_bounds {
            let column = |c: usize| values.iter().skip(c).step_by(width).copied();
            let min: Vec<f32> = (0..width).map(|c| column(c).fold(f32::MAX, f32::min)).collect();
            let max: Vec<f32> = (0..width).map(|c| column(c).fold(f32::MIN, f32::max)).collect();
            accessor["min"] = json!(min);
            accessor["max"] = json!(max);
        }
        self.accessors.push(accessor);
        self.accessors.len() - 1
    }

    fn indices(&mut self, values: &[u16]) -> usize {
        let view = self.view(values.iter().flat_map(|v| v.to_le_bytes()).collect());
        self.accessors
            .push(json!({"bufferView": view, "componentType": 5123, "count": values.len(), "type": "SCALAR"}));
        self.accessors.len() - 1
    }

    fn view(&mut self, mut data: Vec<u8>) -> usize {
        while !self.bytes.len().is_multiple_of(4) {
            self.bytes.push(0);
        }
        self.views.push(json!({"buffer": 0, "byteOffset": self.bytes.len(), "byteLength": data.len()}));
        self.bytes.append(&mut data);
        self.views.len() - 1
    }

    /// The whole asset: `rest` (nodes, meshes, …) with the buffer, views and accessors added.
    fn write(self, mut rest: Value, path: &Path) {
        let data = base64::engine::general_purpose::STANDARD.encode(&self.bytes);
        rest["asset"] = json!({"version": "2.0", "generator": "hanim-viewer tests"});
        rest["buffers"] =
            json!([{"byteLength": self.bytes.len(), "uri": format!("data:application/octet-stream;base64,{data}")}]);
        rest["bufferViews"] = json!(self.views);
        rest["accessors"] = json!(self.accessors);
        std::fs::write(path, serde_json::to_vec_pretty(&rest).unwrap()).unwrap();
    }
}

/// Every element named `name` in the document, depth first.
fn find<'a>(e: &'a Element, name: &str, out: &mut Vec<&'a Element>) {
    if e.name == name {
        out.push(e);
    }
    for c in e.elements() {
        find(c, name, out);
    }
}

fn elements<'a>(root: &'a Element, name: &str) -> Vec<&'a Element> {
    let mut out = Vec::new();
    find(root, name, &mut out);
    out
}

fn imported(path: &Path) -> import::Imported {
    import::import(&std::fs::read(path).unwrap(), path).unwrap_or_else(|e| panic!("{e}"))
}

/// Two joints (`hips` and `arm`, 1 m above), the arm with a triangle of its own (no skin).
fn two_joints_and_a_triangle(asset: &mut Asset, morph_target: bool) -> Value {
    let positions = asset.floats("VEC3", &[0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 0.5, 0.0], true);
    let indices = asset.indices(&[0, 1, 2]);
    let mut primitive = json!({"attributes": {"POSITION": positions}, "indices": indices});
    let mut mesh = json!({"name": "flap", "primitives": [primitive.clone()]});
    if morph_target {
        // Target 0 lifts vertex 2 by 0.25 along z; target 1 moves nothing and is left out.
        let lift = asset.floats("VEC3", &[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.25], true);
        let still = asset.floats("VEC3", &[0.0; 9], true);
        primitive["targets"] = json!([{"POSITION": lift}, {"POSITION": still}]);
        mesh = json!({"name": "flap", "primitives": [primitive], "weights": [0.5, 0.0],
                      "extras": {"targetNames": ["flap_open", "flap_still"]}});
    }
    json!({
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [
            {"name": "Armature", "children": [1]},
            {"name": "hips", "children": [2]},
            {"name": "arm", "translation": [0.0, 1.0, 0.0], "mesh": 0},
        ],
        "meshes": [mesh],
        // A skin naming the two joints (no mesh uses it): the arm is a joint though it holds no node.
        "skins": [{"joints": [1, 2]}],
    })
}

fn scale_channels_holding_the_rest_scale_are_left_out_and_others_drive_the_joint_scale() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("scales.gltf");
    let mut asset = Asset::default();
    let mut gltf = two_joints_and_a_triangle(&mut asset, false);
    let times = asset.floats("SCALAR", &[0.0, 1.0, 2.0], true);
    // The hips' scale stays 1 within COLLADA's rounding; the arm grows to 2 and back.
    let near_one = asset.floats("VEC3", &[1.0, 1.0, 0.99999994, 1.0000001, 1.0, 1.0, 1.0, 1.0, 1.0], false);
    let growing = asset.floats("VEC3", &[1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 1.0, 1.0, 1.0], false);
    let turning =
        asset.floats("VEC4", &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.38268343, 0.9238795, 0.0, 0.0, 0.0, 1.0], false);
    gltf["animations"] = json!([{
        "name": "Grow",
        "samplers": [
            {"input": times, "output": near_one},
            {"input": times, "output": growing},
            {"input": times, "output": turning},
        ],
        "channels": [
            {"sampler": 0, "target": {"node": 1, "path": "scale"}},
            {"sampler": 1, "target": {"node": 2, "path": "scale"}},
            {"sampler": 2, "target": {"node": 1, "path": "rotation"}},
        ],
    }]);
    asset.write(gltf, &path);
    let result = imported(&path);
    let root = &result.document.root;
    let scales: Vec<&Element> =
        elements(root, "ROUTE").into_iter().filter(|r| r.attribute("toField") == Some("set_scale")).collect();
    assert_eq!(scales.len(), 1, "one scale channel changes the scale");
    assert_eq!(scales[0].attribute("toNode"), Some("hanim_arm"));
    let interpolator = elements(root, "PositionInterpolator")
        .into_iter()
        .find(|p| p.attribute("DEF") == scales[0].attribute("fromNode"))
        .expect("the scale interpolator");
    assert_eq!(interpolator.attribute("key"), Some("0 0.5 1"));
    assert_eq!(interpolator.attribute("keyValue"), Some("1 1 1 2 2 2 1 1 1"));
    let said: Vec<&String> = result.warnings.iter().filter(|w| w.contains("scale")).collect();
    assert_eq!(said.len(), 1, "{:?}", result.warnings);
    assert!(said[0].contains("joint arm changes its scale"), "{said:?}");
    // The clip still plays its rotation, and the document (with the scale ROUTE) loads as X3D.
    let doc = hanim::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let animations = Animations::from_document(&doc);
    let grow = animations.find("Grow").expect("the clip");
    let mut solo = Animations::from_document(&doc);
    solo.solo(grow);
    let mut poses = poses_for(&doc, &[], &[]).unwrap();
    solo.apply(&doc, 1.0, &SampleOptions::default(), &mut poses);
    let hips = doc.humanoids[0].joint_index("hips").unwrap();
    assert!(poses[0].rotations[hips].angle_between(glam::Quat::IDENTITY) > 0.7, "the rotation channel plays");
}

fn morph_targets_of_an_unskinned_mesh_become_segment_displacers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("flap.gltf");
    let mut asset = Asset::default();
    let mut gltf = two_joints_and_a_triangle(&mut asset, true);
    let times = asset.floats("SCALAR", &[0.0, 2.0], true);
    let weights = asset.floats("SCALAR", &[0.0, 0.0, 1.0, 0.0], false);
    gltf["animations"] = json!([{
        "name": "Open",
        "samplers": [{"input": times, "output": weights}],
        "channels": [{"sampler": 0, "target": {"node": 2, "path": "weights"}}],
    }]);
    asset.write(gltf, &path);
    let result = imported(&path);
    assert!(!result.warnings.iter().any(|w| w.contains("morph")), "{:?}", result.warnings);
    let doc = hanim::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let h = &doc.humanoids[0];
    assert_eq!(h.displacers.len(), 1, "the target that moves nothing is left out");
    let d = &h.displacers[0];
    assert_eq!(d.name, "flap_open");
    assert_eq!(d.weight, 0.5, "the mesh's default weight");
    let DisplacerOwner::Segment(s) = d.owner else { panic!("{:?}", d.owner) };
    let segment = &h.segments[s];
    assert_eq!(segment.joint, h.joint_index("arm"));
    assert_eq!(segment.coord_points, vec![Vec3::ZERO, Vec3::new(0.5, 0.0, 0.0), Vec3::new(0.0, 0.5, 0.0)]);
    // Weight 1 lifts the third point by the target's delta; the rest weight by half of it.
    let mut pose = Pose::rest(h);
    assert!(deform_segment(h, s, &pose)[2].abs_diff_eq(Vec3::new(0.0, 0.5, 0.125), 1e-6));
    pose.displacer_weights[0] = 1.0;
    let full = deform_segment(h, s, &pose);
    assert!(full[2].abs_diff_eq(Vec3::new(0.0, 0.5, 0.25), 1e-6), "{full:?}");
    assert_eq!(full[..2], segment.coord_points[..2]);
    // The weights channel is a clip driving the displacer: from 0 to 1 over 2 s, 0.75 at 1.5 s.
    let animations = Animations::from_document(&doc);
    let open = animations.find("Open").expect("the clip");
    let mut solo = Animations::from_document(&doc);
    solo.solo(open);
    let mut poses = poses_for(&doc, &[], &[]).unwrap();
    solo.apply(&doc, 1.5, &SampleOptions::default(), &mut poses);
    assert!((poses[0].displacer_weights[0] - 0.75).abs() < 1e-5, "{:?}", poses[0].displacer_weights);
}

/// The hand-written segment displacer fixture (a displacer at weight 0.5 on a segment whose joint is turned
/// 90° at rest): written as glTF (a morph target of the joint's rigid mesh) and read back, it is again a
/// segment displacer of the same joint, name and weight, with the same displacements (the segment's
/// frame and the glTF node's differ by a translation only).
fn segment_displacers_survive_a_round_trip_through_gltf() {
    let file = common::test_data("cpu_segment_displacer.x3d");
    let original = hanim::load(&file).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("john.glb");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_hanim-viewer"))
        .arg("convert")
        .arg(&file)
        .arg("--out")
        .arg(&glb)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let back = hanim::load(&glb).unwrap_or_else(|e| panic!("{e}"));
    let (a, b) = (&original.humanoids[0], &back.humanoids[0]);
    let segment_displacers = |h: &hanim::Humanoid| -> Vec<(String, String, f32, Vec<[i64; 3]>)> {
        let mut out: Vec<_> = h
            .displacers
            .iter()
            .filter_map(|d| match d.owner {
                DisplacerOwner::Segment(s) => {
                    let joint = h.segments[s].joint.map_or_else(String::new, |j| h.joints[j].name.clone());
                    // Displacements in micrometres, deduplicated (glTF splits points at seams).
                    let mut moves: Vec<[i64; 3]> = d
                        .displacements
                        .iter()
                        .filter(|v| **v != Vec3::ZERO)
                        .map(|v| (*v * 1e6).round().as_i64vec3().to_array())
                        .collect();
                    moves.sort_unstable();
                    moves.dedup();
                    Some((d.name.clone(), joint, d.weight, moves))
                }
                DisplacerOwner::Joint(_) => None,
            })
            .collect();
        out.sort_by(|x, y| x.0.cmp(&y.0));
        out
    };
    let (before, after) = (segment_displacers(a), segment_displacers(b));
    assert_eq!(before.len(), 1, "the fixture has one segment displacer: {before:?}");
    assert_eq!(before[0].3.len(), 2, "{before:?}");
    assert_eq!(before, after);
}

/// glTF's map of `(u, v)` (v down): `offset + R·(scale ⊙ uv)`, R = [[cos, sin], [−sin, cos]] (the
/// extension's README: rotation turns the UVs counter-clockwise in the image).
fn gltf_map(offset: Vec2, rotation: f32, scale: Vec2, uv: Vec2) -> Vec2 {
    let (sin, cos) = rotation.sin_cos();
    let s = uv * scale;
    offset + Vec2::new(cos * s.x + sin * s.y, -sin * s.x + cos * s.y)
}

fn texture_transforms_draw_as_gltf_maps_texture_coordinates() {
    let dir = tempfile::tempdir().unwrap();
    let uvs = [Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.25), Vec2::new(0.3, 0.9)];
    // One material has a transform a TextureTransform can draw (equal scales), the other one it cannot.
    let cases = [(Vec2::new(0.25, 0.5), 0.4, Vec2::splat(1.5)), (Vec2::new(0.1, 0.0), 0.3, Vec2::new(1.0, 2.0))];
    for (case, &(offset, rotation, scale)) in cases.iter().enumerate() {
        let path = dir.path().join(format!("textured{case}.gltf"));
        let mut asset = Asset::default();
        let mut gltf = two_joints_and_a_triangle(&mut asset, false);
        let coords = asset.floats("VEC2", &uvs.iter().flat_map(|v| v.to_array()).collect::<Vec<_>>(), false);
        gltf["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_0"] = json!(coords);
        gltf["meshes"][0]["primitives"][0]["material"] = json!(0);
        let mut png = Vec::new();
        image::RgbImage::from_pixel(2, 2, image::Rgb([200, 40, 40]))
            .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        let png = base64::engine::general_purpose::STANDARD.encode(&png);
        gltf["images"] = json!([{"uri": format!("data:image/png;base64,{png}")}]);
        gltf["textures"] = json!([{"source": 0}]);
        gltf["materials"] = json!([{"name": "painted", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0,
            "extensions": {"KHR_texture_transform": {"offset": offset.to_array(), "rotation": rotation,
                                                     "scale": scale.to_array()}}}}}]);
        gltf["extensionsUsed"] = json!(["KHR_texture_transform"]);
        asset.write(gltf, &path);
        let result = imported(&path);
        let root = &result.document.root;
        let points: Vec<Vec2> = elements(root, "TextureCoordinate")[0]
            .attribute("point")
            .unwrap()
            .split_whitespace()
            .map(|v| v.parse::<f32>().unwrap())
            .collect::<Vec<_>>()
            .chunks(2)
            .map(|c| Vec2::new(c[0], c[1]))
            .collect();
        let transforms = elements(root, "TextureTransform");
        // What the renderer draws: the TextureTransform's map (ours, `mesh::TextureTransformFields`) of
        // the written coordinates. glTF draws the texel at `gltf_map(uv)`, X3D's `t` running up.
        let drawn: Affine2 = match transforms.first() {
            Some(t) => {
                let pair = |name: &str| {
                    let v: Vec<f32> =
                        t.attribute(name).unwrap().split_whitespace().map(|x| x.parse().unwrap()).collect();
                    Vec2::new(v[0], v[1])
                };
                let rotation: f32 = t.attribute("rotation").unwrap().parse().unwrap();
                TextureTransformFields {
                    center: Vec2::ZERO,
                    scale: pair("scale"),
                    rotation,
                    translation: pair("translation"),
                }
                .matrix()
            }
            None => Affine2::IDENTITY,
        };
        assert_eq!(transforms.len(), if case == 0 { 1 } else { 0 }, "case {case}");
        for (uv, written) in uvs.iter().zip(&points) {
            let want = gltf_map(offset, rotation, scale, *uv);
            let got = drawn.transform_point2(*written);
            assert!(got.abs_diff_eq(Vec2::new(want.x, 1.0 - want.y), 1e-5), "case {case}, uv {uv}: {got} vs {want}");
        }
        hanim::load(&path).unwrap_or_else(|e| panic!("{e}"));
    }
}
