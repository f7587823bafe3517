//! End-to-end: the real binary opens a window under Xvfb (`xvfb-run -a`) and runs a `--script`: on
//! JoeKick.x3d a rest screenshot, the left arm raised, the top view, a resize and a screenshot at a
//! chosen size; then the built-in humanoid with a displacer slider and an eye view. The screenshots
//! differ where the pose and the view say they should. A destroyed GPU device is replaced and the
//! picture comes back the same.
//!
//! Needs `xvfb-run` (package `xvfb`) and a Vulkan adapter (lavapipe). Under `CI=true` a missing display
//! or adapter fails the test; elsewhere it is reported ignored.

mod common;

test_main!(
    scripted_session_poses_an_arm_and_switches_views,
    the_window_recovers_from_a_lost_gpu_device,
    the_second_humanoid_of_a_file_is_posed_after_choosing_it,
    an_idle_window_draws_no_frames_until_something_changes
);

use std::path::{Path, PathBuf};

use common::window::{read_rgba, run_script};

struct Image {
    width: u32,
    height: u32,
    rgba: Vec<u8>,
}

impl Image {
    fn read(path: &Path) -> Image {
        let (width, height, rgba) = read_rgba(path);
        Image { width, height, rgba }
    }

    fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        let i = ((y * self.width + x) * 4) as usize;
        [self.rgba[i], self.rgba[i + 1], self.rgba[i + 2], self.rgba[i + 3]]
    }
}

/// Pixels whose colour differs by more than `threshold` in some channel.
fn changed(a: &Image, b: &Image, threshold: u8) -> Vec<(u32, u32)> {
    assert_eq!((a.width, a.height), (b.width, b.height), "screenshots have the same size");
    let mut out = Vec::new();
    for y in 0..a.height {
        for x in 0..a.width {
            let (p, q) = (a.pixel(x, y), b.pixel(x, y));
            if p.iter().zip(q).any(|(u, v)| u.abs_diff(v) > threshold) {
                out.push((x, y));
            }
        }
    }
    out
}

fn scripted_session_poses_an_arm_and_switches_views() {
    let file = common::corpus("x3d/JoeKick.x3d");
    assert!(file.exists(), "corpus file {} is missing", file.display());
    let dir = tempfile::tempdir().unwrap();
    let shot = |name: &str| -> PathBuf { dir.path().join(name) };
    let script = dir.path().join("session.txt");
    std::fs::write(
        &script,
        format!(
            "# rest pose from the front, then raise the left arm outwards\n\
             view front\n\
             screenshot {rest}\n\
             select l_shoulder\n\
             rotate l_shoulder 0 0 80\n\
             screenshot {posed}\n\
             view top\n\
             screenshot {top}\n\
             resize 640 480\n\
             screenshot {small}\n\
             screenshot-size 320 200\n\
             screenshot {sized}\n\
             screenshot-size view\n\
             # the built-in humanoid: a displacer slider and an eye view\n\
             resize 900 640\n\
             open {default}\n\
             view side\n\
             screenshot {default_rest}\n\
             displacer hanim_vl5_belly_config 1\n\
             screenshot {belly}\n\
             view left eye\n\
             screenshot {eye}\n\
             quit\n",
            rest = shot("rest.png").display(),
            posed = shot("posed.png").display(),
            top = shot("top.png").display(),
            small = shot("small.png").display(),
            sized = shot("sized.png").display(),
            default = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/humanoids/default.x3d").display(),
            default_rest = shot("default_rest.png").display(),
            belly = shot("belly.png").display(),
            eye = shot("eye.png").display(),
        ),
    )
    .unwrap();

    let log = run_script("window_e2e", Some(&file), &script, dir.path());
    for name in
        ["rest.png", "posed.png", "top.png", "small.png", "sized.png", "default_rest.png", "belly.png", "eye.png"]
    {
        assert!(shot(name).exists(), "{name} was not written\n{log}");
    }
    let rest = Image::read(&shot("rest.png"));
    let posed = Image::read(&shot("posed.png"));
    let top = Image::read(&shot("top.png"));
    let (w, h) = (rest.width, rest.height);
    assert!(w > 200 && h > 200, "the 3D view is {w}x{h}");

    // The rest view shows the figure: many pixels differ from the background in the centre column.
    let background = rest.pixel(2, 2);
    let figure = (0..h).filter(|&y| rest.pixel(w / 2, y) != background).count();
    assert!(figure > (h / 4) as usize, "the figure covers the middle column ({figure} of {h} pixels)");

    // Raising the left arm (on the image's right, seen from the front) changes pixels there, above the
    // hips, and nothing in the legs or on the image's left third.
    let diff = changed(&rest, &posed, 24);
    assert!(diff.len() > 200, "the pose changed {} pixels", diff.len());
    let right_upper = diff.iter().filter(|&&(x, y)| x > w / 2 && y < h * 6 / 10).count();
    assert!(
        right_upper * 10 >= diff.len() * 9,
        "{right_upper} of {} changed pixels are in the upper right (the raised left arm)",
        diff.len()
    );
    let left_third = diff.iter().filter(|&&(x, _)| x < w / 3).count();
    assert!(left_third * 100 <= diff.len(), "{left_third} changed pixels on the left third");
    let legs = diff.iter().filter(|&&(_, y)| y > h * 3 / 4).count();
    assert!(legs * 100 <= diff.len(), "{legs} changed pixels in the legs");

    // The top view is a different picture altogether.
    let view_diff = changed(&posed, &top, 24);
    assert!(view_diff.len() > (w * h / 20) as usize, "the top view changed only {} pixels", view_diff.len());
    // After a resize the 3D view follows the smaller window.
    let small = Image::read(&shot("small.png"));
    assert!(small.width < w && small.height < h, "after the resize the view is {}x{}", small.width, small.height);
    // A chosen screenshot size renders the same view offscreen at that size.
    let sized = Image::read(&shot("sized.png"));
    assert_eq!((sized.width, sized.height), (320, 200));
    let sized_figure = (0..sized.width * sized.height)
        .filter(|&i| sized.pixel(i % sized.width, i / sized.width) != sized.pixel(2, 2))
        .count();
    assert!(sized_figure > 320 * 200 / 50, "the sized screenshot shows the figure ({sized_figure} pixels)");

    // The belly displacer pushes the belly forward (seen from the side): pixels change, only in the middle
    // band of the figure.
    let default_rest = Image::read(&shot("default_rest.png"));
    let belly = Image::read(&shot("belly.png"));
    let (dw, dh) = (default_rest.width, default_rest.height);
    let belly_diff = changed(&default_rest, &belly, 8);
    assert!(belly_diff.len() > 20, "the displacer changed {} pixels", belly_diff.len());
    let outside = belly_diff.iter().filter(|&&(_, y)| y < dh / 5 || y > dh * 4 / 5).count();
    assert!(
        outside * 20 <= belly_diff.len(),
        "{outside} of {} changed pixels are far from the belly",
        belly_diff.len()
    );
    // The eye view looks out of the head, forwards: the figure seen from the side is gone.
    let eye = Image::read(&shot("eye.png"));
    let eye_diff = changed(&belly, &eye, 24);
    assert!(eye_diff.len() > (dw * dh / 50) as usize, "the eye view changed only {} pixels", eye_diff.len());
    eprintln!(
        "rest {w}x{h}: pose changed {} pixels, top view {}; displacer {} pixels, eye view {}",
        diff.len(),
        view_diff.len(),
        belly_diff.len(),
        eye_diff.len()
    );
}

fn the_window_recovers_from_a_lost_gpu_device() {
    // A posed, textured humanoid; the device is destroyed as a driver reset would (`lose-device`). The
    // viewer builds a new device and every GPU resource from what it keeps: the next picture is the same
    // pixel for pixel, and posing goes on.
    let file = common::corpus("x3d/JinLOA1.x3d");
    let dir = tempfile::tempdir().unwrap();
    let shot = |name: &str| dir.path().join(name);
    let script = dir.path().join("lose.txt");
    std::fs::write(
        &script,
        format!(
            "rotate l_shoulder 0 0 60\nview front\nscreenshot {}\nlose-device\nscreenshot {}\n\
             rotate l_shoulder 0 0 90\nscreenshot {}\nquit\n",
            shot("before.png").display(),
            shot("after.png").display(),
            shot("posed.png").display()
        ),
    )
    .unwrap();
    let log = run_script("window_e2e", Some(&file), &script, dir.path());
    assert!(log.contains("GPU device lost (Destroyed)"), "the loss was noticed:\n{log}");
    assert!(log.contains("the view was restored on"), "and recovered from:\n{log}");
    let (before, after, posed) =
        (Image::read(&shot("before.png")), Image::read(&shot("after.png")), Image::read(&shot("posed.png")));
    let same = changed(&before, &after, 0).len();
    let moved = changed(&after, &posed, 24).len();
    eprintln!(
        "{}x{}: {same} pixels differ across the loss; posing after it changed {moved}",
        before.width, before.height
    );
    assert_eq!(same, 0, "the same picture after the new device");
    assert!(moved > 300, "the arm still poses after the recovery ({moved} pixels)");
}

fn the_second_humanoid_of_a_file_is_posed_after_choosing_it() {
    // Two copies of the built-in figure side by side (tests/data/two_humanoids.x3d). The front view frames
    // the humanoid chosen for posing, as it stands when the view is chosen. Raising humanoid 2's left arm changes its own figure; humanoid 1,
    // chosen again, poses on its own; humanoid 2, chosen once more, still has its arm raised.
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/two_humanoids.x3d");
    let dir = tempfile::tempdir().unwrap();
    let shot = |name: &str| dir.path().join(name);
    let script = dir.path().join("two.txt");
    std::fs::write(
        &script,
        format!(
            "view front\nscreenshot {}\nhumanoid 2\nview front\nscreenshot {}\nrotate l_shoulder 0 0 120\n\
             screenshot {}\nview front\nscreenshot {}\nhumanoid 1\nview front\nscreenshot {}\n\
             rotate r_shoulder 0 0 -120\nscreenshot {}\nhumanoid 2\nview front\nscreenshot {}\nquit\n",
            shot("first.png").display(),
            shot("second.png").display(),
            shot("second_posed.png").display(),
            shot("second_framed.png").display(),
            shot("first_again.png").display(),
            shot("first_posed.png").display(),
            shot("second_again.png").display(),
        ),
    )
    .unwrap();
    let _log = run_script("window_e2e", Some(&file), &script, dir.path());
    let read = |name: &str| Image::read(&shot(name));
    let (first, second, second_posed) = (read("first.png"), read("second.png"), read("second_posed.png"));
    let (first_again, first_posed, second_again) =
        (read("first_again.png"), read("first_posed.png"), read("second_again.png"));
    let w = first.width;
    let columns =
        |px: &[(u32, u32)]| (px.iter().map(|p| p.0).min().unwrap_or(w), px.iter().map(|p| p.0).max().unwrap_or(0));
    assert!(changed(&first, &second, 24).len() > 500, "the front view moved to humanoid 2");
    let raised = changed(&second, &second_posed, 24);
    let (left, right) = columns(&raised);
    eprintln!("{w}x{}: humanoid 2's arm changed {} pixels in columns {left}..={right}", first.height, raised.len());
    // Front view: a figure's left arm is on the picture's right.
    assert!(
        raised.len() > 300 && left > w / 2,
        "humanoid 2's left arm rose ({} pixels, {left}..={right})",
        raised.len()
    );
    // Humanoid 1 again: its picture is the first one, but for humanoid 2's raised arm at the right edge.
    let (left, _) = columns(&changed(&first, &first_again, 24));
    assert!(left > w * 3 / 4, "humanoid 1 is as it was (changes from column {left} of {w})");
    let own = changed(&first_again, &first_posed, 24);
    let (_, right) = columns(&own);
    assert!(own.len() > 300 && right < w / 2, "humanoid 1's right arm rose ({} pixels, to column {right})", own.len());
    // Humanoid 2 once more: the arm raised before is still raised (the front view frames the pose it has
    // when chosen, so the picture to compare with is the one framed after the arm rose).
    let second_framed = read("second_framed.png");
    let (_, right) = columns(&changed(&second_framed, &second_again, 24));
    assert!(right < w / 4, "humanoid 2 kept its pose (changes up to column {right} of {w})");
}

fn an_idle_window_draws_no_frames_until_something_changes() {
    // With nothing playing and no input the window sleeps: `rest 3 0` lets it be for 3 s and fails the
    // script when it drew any frame meanwhile (it drew ~25 a second when egui's repaint wish after each
    // redraw was taken as a new change). Each longer rest before lets what a change starts settle: the
    // toast a load shows fades in over a few frames and takes one more to go after 4 s; a screenshot's
    // toast (with its button to open the folder) stays 8 s, wraps its path inside the view and fades in
    // and out as egui animates it. How many frames those fades take follows the machine's frame rate and
    // the moment the first frame lands (7 were seen on a loaded CI machine where 4 are usual), so the
    // settling rests only bound the count far below a window that never rests (a continuously drawing
    // window draws 10–60 a second here); the two `rest 3 0` are the check.
    // A pose change in between is drawn, and the window rests again after it. The built-in humanoid
    // and a 146-joint file with a textured skin.
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("posed.png");
    let script = dir.path().join("rest.txt");
    std::fs::write(
        &script,
        format!(
            "rest 5 30\nrest 3 0\nrotate l_shoulder 0 0 60\nscreenshot {}\nrest 9 45\nrest 3 0\nquit\n",
            shot.display()
        ),
    )
    .unwrap();
    let jin = common::corpus("x3d/JinLOA4.x3d");
    for file in [None, Some(jin.as_path())] {
        let log = run_script("window_e2e", file, &script, dir.path());
        let rests: Vec<&str> = log.lines().filter(|l| l.contains(" rested ")).collect();
        eprintln!("{file:?}: {rests:#?}");
        assert_eq!(rests.len(), 4, "every rest ran:\n{log}");
        assert_eq!(rests.iter().filter(|l| l.contains("rested 3 s, 0 frames drawn")).count(), 2, "{rests:#?}");
        assert!(Image::read(&shot).width > 0, "the pose change was drawn");
    }
}
