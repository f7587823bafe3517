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
    let humanoid = hanim_viewer::hanim::load_str(
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
    .expect("the fuzz humanoid loads");
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
