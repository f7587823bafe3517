//! End-to-end IK in the window: under Xvfb the real binary runs a `--script` on JoeKick.x3d that drags
//! the left wrist (a `drag` step: pressed on its pixel, moved to the target's pixel through the 3D view's
//! drag path, released) to a point above and beside it in the plane facing the front camera; `expect`
//! steps check the wrist is at the target, that one undo puts it back (one drag = one undo step), and
//! that a pinned right wrist holds while the left one is dragged with its chain to the root.
//!
//! Needs `xvfb-run` (package `xvfb`) and a Vulkan adapter (lavapipe). Under `CI=true` a missing display
//! or adapter fails the test; elsewhere it is reported ignored.

mod common;

test_main!(dragging_the_wrist_reaches_the_target_and_undoes_in_one_step);

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

fn dragging_the_wrist_reaches_the_target_and_undoes_in_one_step() {
    let file = common::corpus("x3d/JoeKick.x3d");
    let dir = tempfile::tempdir().unwrap();
    let shot = |name: &str| dir.path().join(name);
    let wrist = rest_position(&file, "l_wrist");
    let other = rest_position(&file, "r_wrist");
    // The front view looks along −Z: the target stays in the wrist's plane z = const, raised and moved
    // outward (the figure's left is +X), within the arm's reach from the shoulder.
    let target = wrist + Vec3::new(0.12, 0.25, 0.0);
    let high = wrist + Vec3::new(0.0, 0.2, 0.0);
    let script = dir.path().join("ik.txt");
    std::fs::write(
        &script,
        format!(
            "view front\n\
             screenshot {rest}\n\
             drag l_wrist {target}\n\
             expect l_wrist {target} 0.002\n\
             screenshot {dragged}\n\
             undo\n\
             expect l_wrist {wrist} 0.00001\n\
             screenshot {undone}\n\
             pin r_wrist\n\
             drag l_wrist {high} root\n\
             expect l_wrist {high} 0.002\n\
             expect r_wrist {other} 0.002\n\
             quit\n",
            rest = shot("rest.png").display(),
            target = v(target),
            dragged = shot("dragged.png").display(),
            wrist = v(wrist),
            undone = shot("undone.png").display(),
            high = v(high),
            other = v(other),
        ),
    )
    .unwrap();
    let log = run_script("window_ik", Some(&file), &script, dir.path());
    let rest = read_rgba(&shot("rest.png"));
    let dragged = read_rgba(&shot("dragged.png"));
    let undone = read_rgba(&shot("undone.png"));
    let (w, h) = (rest.0, rest.1);
    let changed = |a: &[u8], b: &[u8]| -> Vec<(u32, u32)> {
        (0..w * h)
            .filter(|&i| {
                let k = (i * 4) as usize;
                (0..3).any(|c| a[k + c].abs_diff(b[k + c]) > 24)
            })
            .map(|i| (i % w, i / w))
            .collect()
    };
    let diff = changed(&rest.2, &dragged.2);
    assert!(diff.len() > 200, "the drag changed {} pixels\n{log}", diff.len());
    // The left arm is on the image's right, seen from the front: nothing on the left third moved.
    let left_third = diff.iter().filter(|&&(x, _)| x < w / 3).count();
    assert!(left_third * 100 <= diff.len(), "{left_third} of {} changed pixels on the left third", diff.len());
    assert!(changed(&rest.2, &undone.2).is_empty(), "undo gives the rest picture back");
}
