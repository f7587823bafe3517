//! Skin inspection in the window, end to end under Xvfb on JoeKick.x3d: `overlay influences` colours the
//! 3D view by influence count (the colours of the CPU counts appear), `overlay heatmap:l_shoulder` makes
//! a small part hot, `overlay axes` / `overlay sites` draw on top, `window-screenshot` keeps the window
//! with its legend; then `pick-vertex X Y` on a flat-coloured pixel reports a skin point whose
//! influences (names and weights) are the CPU's, and whose count has the colour seen at that pixel.
//!
//! Needs `xvfb-run` (package `xvfb`) and a Vulkan adapter (lavapipe). Under `CI=true` a missing display
//! or adapter fails the test; elsewhere it is reported ignored.

mod common;

test_main!(influence_overlay_and_vertex_pick_agree_with_the_cpu);

use common::window::{read_rgba, run_script};
use hanim_viewer::hanim::load;
use hanim_viewer::pose::skin_inspection::{INFLUENCE_COLORS, point_influences};

fn srgb8(c: [f32; 3]) -> [u8; 3] {
    c.map(|v| (v * 255.0).round() as u8)
}

fn pixel(image: &(u32, u32, Vec<u8>), x: u32, y: u32) -> [u8; 3] {
    let i = ((y * image.0 + x) * 4) as usize;
    [image.2[i], image.2[i + 1], image.2[i + 2]]
}

/// The palette entry nearest `p`, if one is near (colours blend between vertices of different counts;
/// the background is far from all of them).
fn nearest_palette(p: [u8; 3]) -> Option<usize> {
    let distance = |c: [f32; 3]| {
        let c = srgb8(c);
        (0..3).map(|k| (i32::from(p[k]) - i32::from(c[k])).pow(2)).sum::<i32>()
    };
    let k = (0..INFLUENCE_COLORS.len()).min_by_key(|&k| distance(INFLUENCE_COLORS[k]))?;
    (distance(INFLUENCE_COLORS[k]) < 40 * 40).then_some(k)
}

fn influence_overlay_and_vertex_pick_agree_with_the_cpu() {
    let file = common::corpus("x3d/JoeKick.x3d");
    let dir = tempfile::tempdir().unwrap();
    let shot = |name: &str| dir.path().join(name);
    let script = dir.path().join("overlay.txt");
    std::fs::write(
        &script,
        format!(
            "view front\n\
             overlay influences\n\
             screenshot {influences}\n\
             window-screenshot {window}\n\
             overlay heatmap:l_shoulder\n\
             screenshot {heat}\n\
             overlay off\n\
             overlay axes\n\
             overlay sites\n\
             screenshot {lines}\n\
             quit\n",
            influences = shot("influences.png").display(),
            window = shot("window.png").display(),
            heat = shot("heat.png").display(),
            lines = shot("lines.png").display(),
        ),
    )
    .unwrap();
    let _ = run_script("window_overlay", Some(&file), &script, dir.path());
    if let Some(keep) = std::env::var_os("HANIM_OVERLAY_PICTURES") {
        for name in ["influences.png", "window.png", "heat.png", "lines.png"] {
            std::fs::copy(shot(name), std::path::Path::new(&keep).join(format!("window-{name}"))).unwrap();
        }
    }

    // The influence colours of the CPU counts are what the figure shows (JoeKick: 1 and 2).
    let doc = load(&file).unwrap();
    let h = &doc.humanoids[0];
    let counts = point_influences(h, None);
    let influences = read_rgba(&shot("influences.png"));
    let (w, hgt) = (influences.0, influences.1);
    let mut per_colour = [0usize; 6];
    for y in 0..hgt {
        for x in 0..w {
            if let Some(k) = nearest_palette(pixel(&influences, x, y)) {
                per_colour[k] += 1;
            }
        }
    }
    eprintln!("pixels per influence colour (none, 1, 2, 3, 4, 5+): {per_colour:?}");
    for count in counts.iter().map(|c| (c.count as usize).min(5)).collect::<std::collections::BTreeSet<_>>() {
        if count > 0 {
            assert!(per_colour[count] > 0, "no pixel has the colour of {count} influences");
        }
    }
    assert!(per_colour[1..].iter().filter(|&&n| n >= 20).count() >= 2, "{per_colour:?}");

    // The heatmap of l_shoulder is hot on a part of the figure only; without colouring the axes and Sites
    // draw on the materials.
    let heat = read_rgba(&shot("heat.png"));
    let hot = (0..hgt).flat_map(|y| (0..w).map(move |x| (x, y))).filter(|&(x, y)| {
        let p = pixel(&heat, x, y);
        p[0] >= 150 && p[2] <= 110
    });
    let hot = hot.count();
    let figure: usize = per_colour.iter().sum();
    eprintln!("heatmap: {hot} hot pixels, figure about {figure}");
    assert!(hot >= 30 && hot * 4 < figure, "{hot} hot pixels of {figure}");
    let lines = read_rgba(&shot("lines.png"));
    let cyan = (0..hgt)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let p = pixel(&lines, x, y);
            p[0] < 90 && p[1] > 200 && p[2] > 200
        })
        .count();
    assert!(cyan > 0 || h.sites.is_empty(), "no Site diamond drawn");

    // Pick where a vertex weighed by two joints is drawn: the pixel nearest the pure colour of 2 (the
    // colour fades toward its neighbours' between vertices), inside the figure.
    let green = srgb8(INFLUENCE_COLORS[2]);
    let inside = |x: u32, y: u32| {
        // Not at the silhouette: no dark background pixel around.
        (y - 2..=y + 2).all(|yy| (x - 2..=x + 2).all(|xx| pixel(&influences, xx, yy).iter().any(|&c| c > 60)))
    };
    let (px, py) = (4..hgt - 4)
        .flat_map(|y| (4..w - 4).map(move |x| (x, y)))
        .filter(|&(x, y)| nearest_palette(pixel(&influences, x, y)) == Some(2) && inside(x, y))
        .min_by_key(|&(x, y)| {
            let p = pixel(&influences, x, y);
            (0..3).map(|k| (i32::from(p[k]) - i32::from(green[k])).pow(2)).sum::<i32>()
        })
        .expect("a pixel of the colour of 2 influences");
    let seen = nearest_palette(pixel(&influences, px, py)).unwrap();
    let script = dir.path().join("pick.txt");
    std::fs::write(
        &script,
        format!(
            "view front\noverlay influences\nwait 2\npick-vertex {x} {y}\nwindow-screenshot {window}\nquit\n",
            x = px as f32 + 0.5,
            y = py as f32 + 0.5,
            window = shot("picked.png").display()
        ),
    )
    .unwrap();
    let log = run_script("window_overlay", Some(&file), &script, dir.path());
    if let Some(keep) = std::env::var_os("HANIM_OVERLAY_PICTURES") {
        std::fs::copy(shot("picked.png"), std::path::Path::new(&keep).join("window-picked.png")).unwrap();
    }
    let line = log.lines().find(|l| l.contains("pick-vertex")).unwrap_or_else(|| panic!("no pick logged:\n{log}"));
    eprintln!("{line}");
    let reported = line.split(": point ").nth(1).expect("point N: …");
    let (point, list) = reported.split_once(": ").expect("point N: influences");
    let point: usize = point.parse().unwrap();
    let skin = h.skin.as_ref().unwrap();
    let expected: Vec<String> = skin
        .influences
        .of(point)
        .iter()
        .map(|&(j, weight)| format!("{} {weight:.4}", h.joints[j as usize].name))
        .collect();
    let list = list.split(" (sum").next().unwrap();
    let got: Vec<String> = list.split(", ").map(str::to_string).collect();
    assert_eq!(got, expected, "point {point}: reported influences differ from the CPU's");
    assert_eq!(
        (counts[point].count as usize).min(5),
        seen,
        "point {point} has {} influences but its pixel shows the colour of {seen}",
        counts[point].count
    );
}
