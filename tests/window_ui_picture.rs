//! The window keeps its UI as a picture and repaints only what changed (`app::viewer::ui_cache`): after
//! each kind of change a scripted `check-ui-picture` compares the kept picture with the same frame's UI
//! painted whole, pixel for pixel. Needs `xvfb-run` (skips loudly without; fails under `CI=true`).

mod common;

test_main!(the_kept_ui_picture_equals_a_full_repaint_after_every_kind_of_change);

use common::window::run_script;

/// The `(repainted, window)` pixel counts of each passing check in `log`.
fn checks(log: &str) -> Vec<(u64, u64)> {
    log.lines()
        .filter_map(|l| l.split_once("equals a full repaint (")?.1.split_once(" pixels repainted").map(|(s, _)| s))
        .map(|s| {
            let (a, b) = s.split_once(" of ").unwrap();
            (a.parse().unwrap(), b.parse().unwrap())
        })
        .collect()
}

fn the_kept_ui_picture_equals_a_full_repaint_after_every_kind_of_change() {
    let test = "the_kept_ui_picture_equals_a_full_repaint_after_every_kind_of_change";
    let file = common::corpus("x3d/JoeKick.x3d");
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("script.txt");
    // The clip's time moving (slider, time field, the displacer it drives), a joint selected and turned
    // (the joint panel), a view chosen, the window resized (a new picture), each checked on the frame
    // that shows it and on the frame after (only the status bar changes then).
    let text = "motion KickTimer 0.5\nwait 3\ncheck-ui-picture\n\
                time 1.0\ncheck-ui-picture\ncheck-ui-picture\n\
                select l_shoulder\nrotate l_shoulder 0 0 40\ncheck-ui-picture\n\
                view front\nwait 2\ncheck-ui-picture\n\
                time 2.0\ncheck-ui-picture\n\
                resize 800 600\nwait 2\ncheck-ui-picture\nquit\n";
    std::fs::write(&script, text).unwrap();
    let log = run_script(test, Some(&file), &script, dir.path());
    let checks = checks(&log);
    assert_eq!(checks.len(), 7, "every check passed and logged\n{log}");
    // Between frames where little changes, only a small part of the window was repainted.
    let smallest = checks.iter().map(|&(repainted, window)| repainted as f64 / window as f64).fold(1.0, f64::min);
    assert!(smallest < 0.1, "some frame repainted under 10% of the window: {checks:?}");
}
