// The fuzz harnesses' bodies, shared by the cargo-fuzz targets (fuzz/fuzz_targets) and the regression
// test that replays every input the fuzzers found (tests/fuzz_regressions.rs). Included with `include!`,
// so it names everything by full path.

/// Any bytes → X3D loader → H-Anim model → CPU reference deformation (rest pose and a bent pose).
/// Must never panic, hang or run out of memory; errors are fine.
pub fn fuzz_load_document(data: &[u8]) {
    use hanim_viewer::{hanim, pose};
    let text = String::from_utf8_lossy(data);
    let Ok(doc) = hanim::load_str(&text, std::path::Path::new("fuzz.x3d")) else { return };
    for h in &doc.humanoids {
        let mut bent = pose::Pose::rest(h);
        for (i, r) in bent.rotations.iter_mut().enumerate() {
            *r = glam::Quat::from_rotation_y(0.3 * i as f32) * *r;
        }
        for p in [pose::Pose::rest(h), bent] {
            let g = pose::humanoid_from_joint(h, &p);
            let _ = pose::world_from_joint(h, &p, &g);
            let _ = pose::deform_skin(h, &p);
            for s in 0..h.segments.len() {
                let _ = pose::deform_segment(h, s, &p);
            }
        }
    }
}

/// HAnimMotion channel strings, joint lists, values and frame fields from arbitrary bytes, played on a
/// small skeleton: parsing, validation against the skeleton, and sampling at several times (smooth and
/// stepped, every root mode) must never panic, hang or run out of memory.
pub fn fuzz_motion_channels(data: &[u8]) {
    use hanim_viewer::animation::{self, Animations, Interpolation, RootMode, SampleOptions};
    // Keeps a field value inside an XML attribute: no quotes, angle brackets or ampersands.
    fn attribute(bytes: &[u8]) -> String {
        String::from_utf8_lossy(bytes).chars().filter(|c| !matches!(c, '\'' | '"' | '<' | '>' | '&')).collect()
    }
    // The channel parser on its own.
    let _ = animation::motion::parse_channels(&String::from_utf8_lossy(data));

    // Fields separated by 0x00: channels, joints, values, frameDuration, frameIncrement, startFrame,
    // endFrame, loop, channelsEnabled.
    let parts: Vec<String> = data.split(|&b| b == 0).map(attribute).collect();
    let field = |i: usize, default: &str| parts.get(i).cloned().unwrap_or_else(|| default.to_string());
    let text = format!(
        "<X3D version='4.0'><Scene><HAnimHumanoid DEF='h' name='h' motionsEnabled='true'>\
         <HAnimJoint DEF='r' name='humanoid_root' containerField='skeleton'>\
         <HAnimJoint DEF='a' name='sacroiliac' center='0 1 0'><HAnimJoint DEF='b' name='l_hip' center='0.1 0.9 0'/>\
         </HAnimJoint></HAnimJoint>\
         <HAnimJoint USE='r' containerField='joints'/><HAnimJoint USE='a' containerField='joints'/>\
         <HAnimJoint USE='b' containerField='joints'/>\
         <HAnimMotion DEF='m' name='m' enabled='true' channels='{}' joints='{}' values='{}' frameDuration='{}' \
         frameIncrement='{}' startFrame='{}' endFrame='{}' loop='{}' channelsEnabled='{}'/>\
         </HAnimHumanoid></Scene></X3D>",
        field(0, "6 Xposition Yposition Zposition Zrotation Xrotation Yrotation 3 Zrotation Xrotation Yrotation"),
        field(1, "humanoid_root sacroiliac"),
        field(2, "0 0 0 0 0 0 10 20 30 1 1 1 5 5 5 0 0 0"),
        field(3, "0.1"),
        field(4, "1"),
        field(5, "0"),
        field(6, "-1"),
        field(7, "true"),
        field(8, ""),
    );
    let Ok(doc) = hanim_viewer::hanim::load_str(&text, std::path::Path::new("motion.x3d")) else { return };
    let animations = Animations::from_document(&doc);
    for interpolation in [Interpolation::Smooth, Interpolation::Stepped] {
        for root_mode in [RootMode::AsGiven, RootMode::RelativeToFirst, RootMode::InPlace] {
            let options = SampleOptions { interpolation, root_mode };
            for tau in [0.0, 0.05, 1.0, 17.3, -2.0, 1e9] {
                let _ = animations.sample(&doc, tau, &options);
            }
        }
    }
}

/// Motion capture text from arbitrary bytes: all of it as a BVH, and split at the first 0x00 into an ASF
/// and an AMC for that skeleton. Whatever parses becomes a rig and a clip and is retargeted onto a small
/// humanoid with the built-in mapping; parsing, forward kinematics and retargeting must never panic, hang
/// or run out of memory.
pub fn fuzz_mocap_files(data: &[u8]) {
    use hanim_viewer::mocap::{amc, asf, bvh, mapping, retarget, rig};
    let path = std::path::Path::new("fuzz");
    let humanoid = fuzz_humanoid();
    let h = &humanoid.humanoids[0];
    let play = |rig: &rig::Rig, clip: &rig::RigClip| {
        let map = mapping::default_mapping(rig.joints.iter().map(|j| j.name.as_str()));
        for frame in [0, clip.frame_count() / 2, clip.frame_count().saturating_sub(1)] {
            if frame < clip.frame_count() {
                let _ = clip.positions(rig, frame);
            }
        }
        if let Ok(result) = retarget::retarget(rig, clip, h, &map) {
            for frame in 0..result.frame_count().min(3) {
                let _ = result.pose(h, frame);
            }
        }
    };
    let text = String::from_utf8_lossy(data);
    if let Ok(b) = bvh::parse_bvh(&text, path) {
        let unit = rig::guess_bvh_metres_per_unit(&b);
        play(&rig::rig_from_bvh(&b, unit), &rig::clip_from_bvh(&b, unit));
    }
    let split = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let (skeleton, motion) = (String::from_utf8_lossy(&data[..split]), String::from_utf8_lossy(&data[split..]));
    if let Ok(a) = asf::parse_asf(&skeleton, path) {
        let skeleton_rig = rig::rig_from_asf(&a);
        let clip = match amc::parse_amc(motion.trim_start_matches('\0'), path, &a) {
            Ok(m) => rig::clip_from_amc(&a, &m, 120.0),
            Err(_) => hanim_viewer::mocap::rest_clip(&skeleton_rig, 1.0 / 120.0),
        };
        play(&skeleton_rig, &clip);
    }
}

/// A token that only the fuzz harness's "secret" file holds: no message may ever contain it.
const FUZZ_SECRET: &str = "Zq7-SECRET-nW4x";

/// References: the bytes split at NUL into a main file and up to three files it may refer to
/// (`r1.x3d`, `r2.x3d.gz` (gzip-compressed), `r3.x3d`), written into a scratch folder beside a
/// `secret.txt`, a folder `dir` and links to `/dev/zero`; seeds name them in Inline, EXTERNPROTO and
/// ImageTexture urls. Loading must never panic, hang or run out of memory, and no warning or error may
/// quote `secret.txt` (unless the fuzzer wrote the token itself).
pub fn fuzz_references(data: &[u8]) {
    use std::io::Write;
    use std::sync::OnceLock;
    static DIR: OnceLock<std::path::PathBuf> = OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("hanim-fuzz-references-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("dir")).expect("scratch folder");
        std::fs::write(dir.join("secret.txt"), format!("{FUZZ_SECRET}\n<X3D>{FUZZ_SECRET}")).expect("secret");
        #[cfg(unix)]
        let _ = std::os::unix::fs::symlink("/dev/zero", dir.join("zero.x3d"));
        dir
    });
    let mut parts = data.splitn(4, |&b| b == 0);
    let main = parts.next().unwrap_or_default();
    let names = ["r1.x3d", "r2.x3d.gz", "r3.x3d"];
    for (i, name) in names.iter().enumerate() {
        let bytes = parts.next().unwrap_or_default();
        let bytes = if i == 1 {
            let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            encoder.write_all(bytes).expect("in memory");
            encoder.finish().expect("in memory")
        } else {
            bytes.to_vec()
        };
        std::fs::write(dir.join(name), bytes).expect("scratch file");
    }
    let main_path = dir.join("main.x3d");
    std::fs::write(&main_path, main).expect("scratch file");
    let options = hanim_viewer::x3d::LoadOptions {
        max_reference_bytes: 1 << 20,
        max_decompressed_bytes: 1 << 20,
        ..Default::default()
    };
    let messages: Vec<String> = match hanim_viewer::x3d::load_file(&main_path, &options) {
        Ok(scene) => match hanim_viewer::hanim::build_document(scene) {
            Ok(doc) => doc.warnings.iter().map(|w| w.to_string()).collect(),
            Err(e) => vec![e.to_string()],
        },
        Err(e) => vec![e.to_string()],
    };
    let token = FUZZ_SECRET.as_bytes();
    if !data.windows(token.len()).any(|w| w == token) {
        for m in &messages {
            assert!(!m.contains(FUZZ_SECRET), "a message quotes secret.txt: {m}");
        }
    }
}

/// Compressed and encoded input: the first byte picks how the rest reaches the loader (as is; gzip-
/// compressed; gzip-compressed then cut or corrupted at a place the next bytes give; UTF-16 LE or BE
/// with a byte-order mark; behind an XML declaration naming an 8-bit or unknown encoding), with a
/// 1 MiB decompression limit. Must never panic, hang or run out of memory; errors are fine.
pub fn fuzz_compressed_input(data: &[u8]) {
    use std::io::Write;
    let Some((&mode, rest)) = data.split_first() else { return };
    let gzip = |bytes: &[u8]| {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(bytes).expect("in memory");
        encoder.finish().expect("in memory")
    };
    let input: Vec<u8> = match mode % 8 {
        0 => rest.to_vec(),
        1 => gzip(rest),
        2 | 3 => {
            let (&at, body) = rest.split_first().unwrap_or((&0, &[]));
            let mut compressed = gzip(body);
            let at = at as usize % compressed.len().max(1);
            if mode % 8 == 2 {
                compressed.truncate(at);
            } else if let Some(b) = compressed.get_mut(at) {
                *b ^= 0x5a;
            }
            compressed
        }
        4 | 5 => {
            let text = String::from_utf8_lossy(rest);
            let little = mode % 8 == 4;
            let bom: [u8; 2] = if little { [0xFF, 0xFE] } else { [0xFE, 0xFF] };
            let units = text.encode_utf16().flat_map(|u| if little { u.to_le_bytes() } else { u.to_be_bytes() });
            bom.into_iter().chain(units).collect()
        }
        6 => [&b"<?xml version='1.0' encoding='ISO-8859-1'?>"[..], rest].concat(),
        _ => {
            let (label, body) = rest.split_at(rest.len().min(12));
            let label: String = label.iter().map(|&b| (b % 26 + b'a') as char).collect();
            [format!("<?xml version='1.0' encoding='{label}'?>").as_bytes(), body].concat()
        }
    };
    let options = hanim_viewer::x3d::LoadOptions { max_decompressed_bytes: 1 << 20, ..Default::default() };
    if let Ok(scene) = hanim_viewer::x3d::load_bytes(&input, std::path::Path::new("fuzz.x3d.gz"), &options) {
        let _ = hanim_viewer::hanim::build_document(scene);
    }
}

/// Any bytes → the loader as an X3D JSON file (`fuzz.x3dj`, so even bytes that do not start with `{`
/// go to the JSON reader) → the H-Anim model → the CPU reference deformation. Syntax errors, values of
/// every kind in every place, deep nesting and bad field values must end in errors, never in a panic,
/// a hang, a stack overflow or running out of memory.
pub fn fuzz_json_document(data: &[u8]) {
    use hanim_viewer::{hanim, pose, x3d};
    let options = x3d::LoadOptions { max_decompressed_bytes: 1 << 20, ..Default::default() };
    let Ok(scene) = x3d::load_bytes(data, std::path::Path::new("fuzz.x3dj"), &options) else { return };
    // Every field of every node, read as each type the model reads: bad values are errors with a
    // position in the JSON text, whatever text they were rebuilt into.
    for id in (0..scene.nodes.len() as u32).map(x3d::NodeId) {
        for field in &scene.node(id).fields {
            let _ = scene.mf_rotation(id, &field.name);
            let _ = scene.mf_length3(id, &field.name);
            let _ = scene.mf_string(id, &field.name);
            let _ = scene.sf_bool(id, &field.name, false);
        }
    }
    let Ok(doc) = hanim::build_document(scene) else { return };
    for h in &doc.humanoids {
        let p = pose::Pose::rest(h);
        let g = pose::humanoid_from_joint(h, &p);
        let _ = pose::world_from_joint(h, &p, &g);
        let _ = pose::deform_skin(h, &p);
    }
}

/// A small humanoid (legs, a spine joint, a shoulder) that captures, mappings and pose files are applied to.
pub fn fuzz_humanoid() -> hanim_viewer::hanim::Document {
    hanim_viewer::hanim::load_str(
        "<X3D version='4.0'><Scene><HAnimHumanoid name='h'>\
         <HAnimJoint DEF='r' name='humanoid_root' containerField='skeleton' center='0 1 0'>\
         <HAnimJoint DEF='s' name='sacroiliac' center='0 1 0'>\
         <HAnimJoint DEF='lh' name='l_hip' center='0.1 0.9 0'><HAnimJoint DEF='lk' name='l_knee' center='0.1 0.5 0'>\
         <HAnimJoint DEF='la' name='l_talocrural' center='0.1 0.1 0'/></HAnimJoint></HAnimJoint>\
         <HAnimJoint DEF='rh' name='r_hip' center='-0.1 0.9 0'><HAnimJoint DEF='rk' name='r_knee' center='-0.1 0.5 0'>\
         <HAnimJoint DEF='ra' name='r_talocrural' center='-0.1 0.1 0'/></HAnimJoint></HAnimJoint></HAnimJoint>\
         <HAnimJoint DEF='v' name='vl5' center='0 1.1 0'><HAnimJoint DEF='ls' name='l_shoulder' center='0.2 1.4 0'/>\
         </HAnimJoint></HAnimJoint></HAnimHumanoid></Scene></X3D>",
        std::path::Path::new("fuzz-humanoid.x3d"),
    )
    .expect("the fuzz humanoid loads")
}

/// Any bytes as a pose file (`--pose-file`, the window's Load pose…): parsed and checked, then applied
/// to a small humanoid with and without its limits, and written back: what reads must write a file that
/// reads again. Must never panic, hang or run out of memory.
pub fn fuzz_pose_files(data: &[u8]) {
    use hanim_viewer::pose::{Pose, file::PoseFile, file::apply_to_document};
    let text = String::from_utf8_lossy(data);
    let Ok(file) = PoseFile::parse(&text, std::path::Path::new("fuzz.json")) else { return };
    let doc = fuzz_humanoid();
    for respect_limits in [true, false] {
        let mut poses: Vec<Pose> = doc.humanoids.iter().map(Pose::rest).collect();
        let _ = apply_to_document(&doc, &file, &mut poses, respect_limits);
    }
    let again = PoseFile::parse(&file.to_json(), std::path::Path::new("again.json"));
    assert!(again.is_ok(), "a pose file that reads writes one that does not: {again:?}");
}

/// Any bytes as a window script (`--script`): parsed into steps. Must never panic, hang or run out of
/// memory; errors are fine.
pub fn fuzz_scripts(data: &[u8]) {
    let _ = hanim_viewer::app::script::parse_script(&String::from_utf8_lossy(data));
}

/// Any bytes as a bone mapping (`--map`): parsed, written back and read again (the same mapping), and
/// used to retarget a small capture onto a small humanoid. Must never panic, hang or run out of memory.
pub fn fuzz_mappings(data: &[u8]) {
    use hanim_viewer::mocap::{bvh, mapping, retarget, rig};
    let path = std::path::Path::new("fuzz.map");
    let Ok(map) = mapping::parse_mapping(&String::from_utf8_lossy(data), path) else { return };
    // Written out, a mapping reads back to the same entries; their line numbers are those of the text
    // read (a placeholder line writes out as two lines), so they are not compared.
    let again = mapping::parse_mapping(&map.to_text(), path);
    let entries = |m: &mapping::Mapping| -> Vec<(String, Vec<String>)> {
        m.entries.iter().map(|e| (e.source.clone(), e.targets.clone())).collect()
    };
    assert_eq!(again.as_ref().ok().map(entries), Some(entries(&map)), "a mapping reads back differently: {again:?}");
    let capture = "HIERARCHY\nROOT hip\n{\nOFFSET 0 10 0\nCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n\
                   JOINT lfemur\n{\nOFFSET 1 0 0\nCHANNELS 3 Zrotation Xrotation Yrotation\nEnd Site\n{\nOFFSET 0 -5 0\n}\n}\n}\n\
                   MOTION\nFrames: 2\nFrame Time: 0.1\n0 10 0 0 0 0 0 0 0\n0 10 0 10 20 30 40 50 60\n";
    let b = bvh::parse_bvh(capture, std::path::Path::new("fuzz.bvh")).expect("the fuzz capture parses");
    let unit = rig::guess_bvh_metres_per_unit(&b);
    let (r, clip) = (rig::rig_from_bvh(&b, unit), rig::clip_from_bvh(&b, unit));
    let doc = fuzz_humanoid();
    let h = &doc.humanoids[0];
    if let Ok(result) = retarget::retarget(&r, &clip, h, &map) {
        for frame in 0..result.frame_count() {
            let _ = result.pose(h, frame);
        }
    }
}

/// Any bytes as a catalogue shard's `catalog.json`: parsed and checked, its page written, and merged
/// with itself. Must never panic, hang or run out of memory, and a page written from a manifest never
/// holds markup the manifest's strings brought in.
pub fn fuzz_manifests(data: &[u8]) {
    use hanim_viewer::commands::catalog::Manifest;
    let text = String::from_utf8_lossy(data);
    let Ok(manifest) = Manifest::from_json(&text, std::path::Path::new("catalog.json")) else { return };
    let html = manifest.html();
    assert!(!html.to_ascii_lowercase().contains("<script"), "a manifest's string became markup:\n{html}");
    let _ = Manifest::merge(&[("a".into(), manifest.clone()), ("b".into(), manifest)]);
}
