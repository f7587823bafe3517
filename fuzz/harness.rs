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
            let _ = pose::world_from_joint(h, &g);
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
    use hanim_viewer::animation::{self, Animations, EulerOrder, Interpolation, RootMode, SampleOptions};
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
            let options = SampleOptions { interpolation, euler_order: EulerOrder::Listed, root_mode };
            for tau in [0.0, 0.05, 1.0, 17.3, -2.0, 1e9] {
                let _ = animations.sample(&doc, tau, &options);
            }
        }
    }
}
