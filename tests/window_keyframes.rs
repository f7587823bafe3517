//! Keyframes end to end in the window: under Xvfb the real binary runs a `--script` on JoeKick.x3d that
//! poses the left wrist by IK and sets a key at 0 s, moves the clock to 1 s, poses the right wrist and
//! sets a second key, moves that key to 2 s (undone and redone), then saves the file as X3D (an
//! HAnimMotion, and interpolators; the motion also as ClassicVRML and X3D JSON) and reopens them all: at the key times the reopened clip puts the wrists
//! where they were keyed (`expect` steps) and the picture equals the one taken when keying.
//!
//! `HANIM_KEEP_SHOTS=DIR` copies the screenshots there, to look at them.
//!
//! Needs `xvfb-run` (package `xvfb`) and a Vulkan adapter (lavapipe). Under `CI=true` a missing display
//! or adapter fails the test; elsewhere it is reported ignored.

mod common;

test_main!(keys_set_in_the_window_are_saved_and_reopen_with_the_same_poses);

use std::path::Path;

use common::window::{read_rgba, run_script};
use glam::Vec3;
use hanim_viewer::hanim::load;
use hanim_viewer::pose::ik::find_effector;
use hanim_viewer::pose::{Pose, humanoid_from_joint};

fn rest_position(file: &Path, name: &str) -> Vec3 {
    let doc = load(file).expect("JoeKick loads");
    let h = &doc.humanoids[0];
    let pose = Pose::rest(h);
    let p = find_effector(h, name).expect("effector");
    pose.world_from_humanoid(h).transform_point3(humanoid_from_joint(h, &pose)[p.joint].transform_point3(p.point))
}

fn v(p: Vec3) -> String {
    format!("{} {} {}", p.x, p.y, p.z)
}

/// Pixels whose colour differs by more than 24 in a channel.
fn changed(a: &(u32, u32, Vec<u8>), b: &(u32, u32, Vec<u8>)) -> usize {
    assert_eq!((a.0, a.1), (b.0, b.1));
    a.2.chunks(4).zip(b.2.chunks(4)).filter(|(p, q)| (0..3).any(|c| p[c].abs_diff(q[c]) > 24)).count()
}

fn keys_set_in_the_window_are_saved_and_reopen_with_the_same_poses() {
    let file = common::corpus("x3d/JoeKick.x3d");
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name);
    let left = rest_position(&file, "l_wrist") + Vec3::new(0.12, 0.25, 0.0);
    let right = rest_position(&file, "r_wrist") + Vec3::new(-0.12, 0.25, 0.0);
    let (motion, interpolators) = (at("keys motion.x3d"), at("keys interpolators.x3d"));
    // The same keys saved as ClassicVRML and X3D JSON (the encoding from the file name).
    let (classic, json) = (at("keys motion.x3dv"), at("keys motion.x3dj"));
    let script = at("keys.txt");
    std::fs::write(
        &script,
        format!(
            "screenshot-size 320 420\n\
             view front\n\
             reach l_wrist {left}\n\
             expect l_wrist {left} 0.002\n\
             key\n\
             screenshot {k0}\n\
             time 1\n\
             reach r_wrist {right}\n\
             expect r_wrist {right} 0.002\n\
             key\n\
             screenshot {k1}\n\
             key-move 1 2\n\
             undo\n\
             redo\n\
             time 2\n\
             expect r_wrist {right} 0.002\n\
             expect l_wrist {left} 0.002\n\
             screenshot {k2}\n\
             export {motion}\n\
             export {interpolators} --as-interpolators\n\
             export {classic}\n\
             export {json}\n\
             open {motion}\n\
             view front\n\
             motion keys 0\n\
             expect l_wrist {left} 0.002\n\
             screenshot {r0}\n\
             motion keys 2\n\
             expect r_wrist {right} 0.002\n\
             expect l_wrist {left} 0.002\n\
             screenshot {r2}\n\
             open {interpolators}\n\
             view front\n\
             motion keys 2\n\
             expect r_wrist {right} 0.002\n\
             expect l_wrist {left} 0.002\n\
             screenshot {i2}\n\
             open {classic}\n\
             view front\n\
             motion keys 2\n\
             expect r_wrist {right} 0.002\n\
             screenshot {c2}\n\
             open {json}\n\
             view front\n\
             motion keys 2\n\
             expect r_wrist {right} 0.002\n\
             screenshot {j2}\n\
             quit\n",
            left = v(left),
            right = v(right),
            k0 = at("k0.png").display(),
            k1 = at("k1.png").display(),
            k2 = at("k2.png").display(),
            motion = motion.display(),
            interpolators = interpolators.display(),
            r0 = at("r0.png").display(),
            r2 = at("r2.png").display(),
            i2 = at("i2.png").display(),
            classic = classic.display(),
            json = json.display(),
            c2 = at("c2.png").display(),
            j2 = at("j2.png").display(),
        ),
    )
    .unwrap();
    let log = run_script("window_keyframes", Some(&file), &script, dir.path());
    if let Some(keep) = std::env::var_os("HANIM_KEEP_SHOTS") {
        for name in ["k0.png", "k1.png", "k2.png", "r0.png", "r2.png", "i2.png", "c2.png", "j2.png"] {
            let _ = std::fs::copy(at(name), Path::new(&keep).join(name));
        }
    }
    let shot = |name: &str| read_rgba(&at(name));
    let (k0, k1, k2) = (shot("k0.png"), shot("k1.png"), shot("k2.png"));
    assert!(changed(&k0, &k1) > 200, "the second key's pose differs from the first\n{log}");
    assert_eq!(changed(&k1, &k2), 0, "the moved key shows the same pose at its new time");
    for (keyed, reopened) in
        [("k0.png", "r0.png"), ("k2.png", "r2.png"), ("k2.png", "i2.png"), ("k2.png", "c2.png"), ("k2.png", "j2.png")]
    {
        let n = changed(&shot(keyed), &shot(reopened));
        let total = (k0.0 * k0.1) as usize;
        eprintln!("{reopened} vs {keyed}: {n} of {total} pixels differ");
        // The same pose through the same renderer and camera: at most a few edge pixels (f32 text).
        assert!(n * 1000 <= total, "{reopened} differs from {keyed} in {n} of {total} pixels\n{log}");
    }
    let text = std::fs::read_to_string(&motion).unwrap();
    assert!(text.contains("<HAnimMotion") && text.contains("name='keys'"), "the motion is in the file");
    assert!(std::fs::read_to_string(&classic).unwrap().starts_with("#X3D V"), "ClassicVRML by the file name");
    assert!(std::fs::read_to_string(&json).unwrap().trim_start().starts_with('{'), "X3D JSON by the file name");
    let text = std::fs::read_to_string(&interpolators).unwrap();
    assert!(
        text.contains("<TimeSensor DEF='keys'") && text.contains("set_rotation"),
        "the interpolators are in the file"
    );
}
