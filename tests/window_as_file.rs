//! End-to-end: the real window under Xvfb plays JoeKick "as the file says" (`play-as-file on`, `time
//! SECONDS` script steps): the ball, a scene Shape whose Transform the kick's TimeSensor moves through a
//! PositionInterpolator, is drawn where the events put it. One clip at a time poses the figure the same
//! way at the same time (the clip is the same interpolators) but leaves the ball where the file put it.
//! Scripted clicks on TouchSensor geometry start the clips their `touchTime` is routed to (a hand-written
//! fixture, and NancyNativeTags' menu).
//!
//! Needs `xvfb-run` (package `xvfb`) and a Vulkan adapter (lavapipe). Under `CI=true` a missing display
//! or adapter fails the test; elsewhere it is reported ignored.

mod common;

test_main!(
    joes_ball_moves_when_the_window_plays_as_the_file_says,
    a_click_on_a_touch_sensor_starts_its_clip,
    clicking_nancys_walk_label_in_the_window_starts_her_walk
);

use common::window::{read_rgba, run_script};

fn changed_pixels(a: &[u8], b: &[u8]) -> usize {
    a.chunks(4).zip(b.chunks(4)).filter(|(p, q)| p.iter().zip(q.iter()).any(|(u, v)| u.abs_diff(*v) > 24)).count()
}

fn joes_ball_moves_when_the_window_plays_as_the_file_says() {
    let file = common::corpus("x3d/JoeKick.x3d");
    let dir = tempfile::tempdir().unwrap();
    let shot = |name: &str| dir.path().join(name);
    // KickTimer: cycleInterval 3.73 s; the ball's keys 0 → 0.4 roll it from (-1 0.4 -1) to the origin.
    // At 0.2 s (fraction 0.054) it is near where the file puts it, at 1.3 s (0.35) near Joe's feet.
    let script = dir.path().join("as_file.txt");
    std::fs::write(
        &script,
        format!(
            "view front\nmotion KickTimer 1.3\nscreenshot {}\nplay-as-file on\nscreenshot {}\ntime 0.2\nscreenshot {}\nquit\n",
            shot("clip.png").display(),
            shot("file_late.png").display(),
            shot("file_early.png").display()
        ),
    )
    .unwrap();
    let _log = run_script("window_as_file", Some(&file), &script, dir.path());
    let (w, h, clip) = read_rgba(&shot("clip.png"));
    let (w1, h1, late) = read_rgba(&shot("file_late.png"));
    let (w2, h2, early) = read_rgba(&shot("file_early.png"));
    assert!((w, h) == (w1, h1) && (w, h) == (w2, h2), "same view size: {w}x{h}, {w1}x{h1}, {w2}x{h2}");
    // The same pose at 1.3 s in both modes (KickTimer's clip is the interpolators the events run): only
    // the ball differs, drawn at its load place by one clip, near Joe's feet as the file says.
    let ball_only = changed_pixels(&clip, &late);
    let area = (w * h) as usize;
    let figure_and_ball = changed_pixels(&late, &early);
    eprintln!(
        "{w}x{h}: one clip → as file at 1.3 s changed {ball_only} pixels; as file 1.3 s → 0.2 s {figure_and_ball}"
    );
    assert!(ball_only > 300, "as the file says, the ball is not where one clip leaves it ({ball_only} pixels)");
    assert!(ball_only < area / 10, "only the ball differs between the modes at one time ({ball_only} pixels)");
    assert!(figure_and_ball > ball_only, "two times as the file says differ ({figure_and_ball} pixels)");
}

/// A scripted click on TouchSensor geometry starts the clip its `touchTime` is routed to (X3D 4.0
/// clauses 20.2.1, 20.4.4; fixture `tests/data/touch_starts_clip.x3d`): before the click, and after a
/// click on empty space or on the unsensed Plate, the arm hangs as authored; 1.5 s after a click on the
/// Button (a one-second clip, so it has ended at its last key) the arm is raised, and only the arm's
/// pixels changed. A click by name on geometry no sensor senses is a script error.
fn a_click_on_a_touch_sensor_starts_its_clip() {
    let file = common::test_data("touch_starts_clip.x3d");
    let dir = tempfile::tempdir().unwrap();
    let shot = |name: &str| dir.path().join(name);
    let script = dir.path().join("touch.txt");
    std::fs::write(
        &script,
        format!(
            "view Front\nplay-as-file on\ntime 2\nscreenshot {}\nclick 3 3\ntime 3.5\nscreenshot {}\nclick Press\n\
             time 5\nscreenshot {}\nquit\n",
            shot("before.png").display(),
            shot("missed.png").display(),
            shot("raised.png").display()
        ),
    )
    .unwrap();
    let log = run_script("window_touch", Some(&file), &script, dir.path());
    let (w, h, before) = read_rgba(&shot("before.png"));
    let (_, _, missed) = read_rgba(&shot("missed.png"));
    let (_, _, raised) = read_rgba(&shot("raised.png"));
    let not_started = changed_pixels(&before, &missed);
    let moved = changed_pixels(&before, &raised);
    eprintln!("{w}x{h}: a click on nothing changed {not_started} pixels; the Button's click {moved}");
    assert_eq!(not_started, 0, "a click on empty space starts nothing");
    assert!(moved > 500, "the arm should rise after the click ({moved} pixels)");
    assert!(moved < (w * h) as usize / 5, "only the arm moves ({moved} pixels)");
    assert!(log.contains("touch: TouchSensor 'Press'") || log.contains("touch:"), "the click is logged");

    // Clicking the unsensed Plate by name is a script error that names it.
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "view Front\nplay-as-file on\nclick Plate\nquit\n").unwrap();
    let stderr = common::window::run_script_expecting_failure("window_touch", Some(&file), &bad, dir.path());
    assert!(stderr.contains("line 3: click: 'Plate'") && stderr.contains("no enabled TouchSensor"), "{stderr}");
}

/// NancyNativeTags' menu, a HUD that a ProximitySensor keeps in front of the camera: a scripted click on
/// the Walk label (its TouchSensor `Walk_Touch`) starts her walk, so 1.5 s later her figure has moved.
fn clicking_nancys_walk_label_in_the_window_starts_her_walk() {
    // Nancy is not redistributed with the repository (see tests/corpus/MANIFEST.md).
    common::needs_corpus(&["x3d/NancyNativeTags.x3d"]);
    let file = common::corpus("x3d/NancyNativeTags.x3d");
    let dir = tempfile::tempdir().unwrap();
    let shot = |name: &str| dir.path().join(name);
    let script = dir.path().join("nancy.txt");
    std::fs::write(
        &script,
        format!(
            "play-as-file on\ntime 1\nscreenshot {}\ntime 2.5\nscreenshot {}\ntime 1\nclick Walk_Touch\ntime 2.5\n\
             screenshot {}\nquit\n",
            shot("standing.png").display(),
            shot("still_standing.png").display(),
            shot("walking.png").display()
        ),
    )
    .unwrap();
    let log = run_script("window_touch_nancy", Some(&file), &script, dir.path());
    let (w, h, standing) = read_rgba(&shot("standing.png"));
    let (_, _, still) = read_rgba(&shot("still_standing.png"));
    let (_, _, walking) = read_rgba(&shot("walking.png"));
    let idle = changed_pixels(&standing, &still);
    let walked = changed_pixels(&standing, &walking);
    eprintln!("{w}x{h}: 1 s → 2.5 s without a click {idle} pixels; with the click at 1 s {walked}");
    assert!(log.contains("touch:"), "the click reached a TouchSensor");
    assert!(walked > 300, "the walk should move her ({walked} pixels)");
    assert!(walked > 4 * idle.max(1), "the click, not the clock, moves her ({walked} vs {idle} pixels)");
}
