//! Any bytes → X3D loader → H-Anim model → CPU reference deformation (rest pose and a bent pose).
//! Must never panic, hang or run out of memory; errors are fine.
#![no_main]

use std::path::Path;

use glam::Quat;
use hanim_viewer::{hanim, pose};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(doc) = hanim::load_str(&text, Path::new("fuzz.x3d")) else { return };
    for h in &doc.humanoids {
        let mut bent = pose::Pose::rest(h);
        for (i, r) in bent.rotations.iter_mut().enumerate() {
            *r = Quat::from_rotation_y(0.3 * i as f32) * *r;
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
});
