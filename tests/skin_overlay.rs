//! Skin inspection overlays against the CPU data (`pose::skin_inspection`, the skin's influences, the CPU
//! deformation): the per-point values the GPU kernel writes are read back and compared point by point;
//! `render --overlay` images of JoeKick (skinned) and JinLOA1 (segmented) are checked pixel by pixel
//! against regions and colours computed on the CPU: hot heatmap pixels lie only where the joint's
//! weighted triangles project, and every visible vertex shows (nearest) the colour of its influence count.
//! Runs on lavapipe in CI.

mod common;

test_main!(
    gpu_overlay_values_equal_the_cpu_influences,
    joekick_heatmap_is_hot_only_where_the_joint_weighs,
    joekick_influence_colours_match_the_cpu_counts_at_visible_vertices,
    every_count_and_weight_sum_shows_its_colour,
    segmented_figure_is_coloured_segment_by_segment,
    bad_overlays_are_clear_errors_and_write_nothing,
    axes_and_sites_are_drawn_where_the_cpu_places_joints_and_sites
);

use glam::{Mat4, Vec3};
use hanim_viewer::gpu::{GpuSkin, SkinCorners};
use hanim_viewer::hanim::{self, Document, Humanoid};
use hanim_viewer::mesh::{Topology, render_mesh_from_rigid_shape, rigid_shapes, skin_mesh_from_humanoid};
use hanim_viewer::pose::skin_inspection::{
    INFLUENCE_COLORS, OverlayMode, OverlaySet, PointInfluence, WeightSum, point_influences,
};
use hanim_viewer::pose::{Pose, deform_skin, humanoid_from_joint};
use hanim_viewer::render::{RenderedImage, SceneRequest, render_document};

fn load(name: &str) -> Document {
    hanim::load(&common::corpus(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn gpu_overlay_values_equal_the_cpu_influences() {
    let ctx = common::gpu();
    for name in ["x3d/JoeKick.x3d", "x3d/JoeSkinTexcoordDisplacerKick.x3d", "x3d/BvhSeamless3dExport1.x3d"] {
        let doc = load(name);
        let h = &doc.humanoids[0];
        let mut skin = GpuSkin::new(&ctx, h, SkinCorners { source_point: &[], normals: &[] }).unwrap();
        let weighted: Vec<usize> = (0..h.joints.len())
            .filter(|&j| h.skin.as_ref().is_some_and(|s| s.influences.entries.iter().any(|e| e.0 as usize == j)))
            .collect();
        assert!(weighted.len() >= 5, "{name}: only {} weighted joints", weighted.len());
        let mut checked = 0;
        for selected in [None, Some(weighted[0]), Some(weighted[weighted.len() / 2]), Some(*weighted.last().unwrap())] {
            skin.set_overlay(&ctx.queue, Some(selected.map(|j| j as u32)));
            skin.deform(&ctx, h, &Pose::rest(h));
            let gpu = skin.read_overlay_values(&ctx).unwrap();
            let cpu = point_influences(h, selected);
            assert_eq!(gpu.len(), cpu.len(), "{name}");
            for (i, (g, c)) in gpu.iter().zip(&cpu).enumerate() {
                assert_eq!(g[1], c.count as f32, "{name}: point {i} count");
                assert!((g[0] - c.weight).abs() <= 1e-6, "{name}: point {i} weight {} vs {}", g[0], c.weight);
                assert!((g[2] - c.sum).abs() <= 1e-6, "{name}: point {i} sum {} vs {}", g[2], c.sum);
            }
            if let Some(j) = selected {
                assert!(cpu.iter().any(|p| p.weight > 0.0), "{name}: joint {j} weighs nothing");
            }
            checked += cpu.len();
        }
        eprintln!("{name}: {checked} point values equal");
        // Turning the overlay off drops its dispatch.
        let shown = skin.dispatch_count();
        skin.set_overlay(&ctx.queue, None);
        assert_eq!(skin.dispatch_count(), shown - 1);
    }
}

/// A pixel mask of triangles and lines projected by `image`'s camera, grown by `grow` pixels.
struct Mask {
    width: u32,
    height: u32,
    inside: Vec<bool>,
}

impl Mask {
    fn new(image: &RenderedImage) -> Self {
        Mask { width: image.width, height: image.height, inside: vec![false; (image.width * image.height) as usize] }
    }

    fn project(&self, image: &RenderedImage, p: Vec3) -> Option<(f32, f32)> {
        image.camera.project_to_pixel(p, self.width, self.height)
    }

    fn mark(&mut self, x: i64, y: i64, grow: i64) {
        for yy in (y - grow).max(0)..=(y + grow).min(self.height as i64 - 1) {
            for xx in (x - grow).max(0)..=(x + grow).min(self.width as i64 - 1) {
                self.inside[(yy as u32 * self.width + xx as u32) as usize] = true;
            }
        }
    }

    fn triangle(&mut self, image: &RenderedImage, corners: [Vec3; 3], grow: i64) {
        let Some(a) = self.project(image, corners[0]) else { return };
        let Some(b) = self.project(image, corners[1]) else { return };
        let Some(c) = self.project(image, corners[2]) else { return };
        let (x0, x1) = (a.0.min(b.0).min(c.0).floor() as i64, a.0.max(b.0).max(c.0).ceil() as i64);
        let (y0, y1) = (a.1.min(b.1).min(c.1).floor() as i64, a.1.max(b.1).max(c.1).ceil() as i64);
        let edge = |p: (f32, f32), q: (f32, f32), r: (f32, f32)| (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0);
        let area = edge(a, b, c);
        for y in y0.max(0)..=y1.min(self.height as i64 - 1) {
            for x in x0.max(0)..=x1.min(self.width as i64 - 1) {
                let p = (x as f32 + 0.5, y as f32 + 0.5);
                let (u, v, w) = (edge(b, c, p), edge(c, a, p), edge(a, b, p));
                let inside =
                    if area >= 0.0 { u >= 0.0 && v >= 0.0 && w >= 0.0 } else { u <= 0.0 && v <= 0.0 && w <= 0.0 };
                if inside {
                    self.mark(x, y, grow);
                }
            }
        }
        // Degenerate or sub-pixel triangles still cover their corners.
        for p in [a, b, c] {
            self.mark(p.0 as i64, p.1 as i64, grow);
        }
    }

    fn line(&mut self, image: &RenderedImage, a: Vec3, b: Vec3, grow: i64) {
        for k in 0..=64 {
            let p = a.lerp(b, k as f32 / 64.0);
            if let Some((x, y)) = self.project(image, p) {
                self.mark(x as i64, y as i64, grow);
            }
        }
    }

    fn contains(&self, x: u32, y: u32) -> bool {
        self.inside[(y * self.width + x) as usize]
    }
}

/// The heatmap's upper half: red high and blue low, which no blend of the cold end with the background
/// (black) or of neighbouring cold pixels reaches.
fn is_hot(p: [u8; 4]) -> bool {
    p[0] >= 150 && p[2] <= 110
}

fn srgb8(c: [f32; 3]) -> [u8; 3] {
    c.map(|v| (v * 255.0).round() as u8)
}

/// World-space triangles of the posed skin, with their skin point indices.
fn skin_triangles(doc: &Document, h: &Humanoid, pose: &Pose) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let mesh = skin_mesh_from_humanoid(&doc.scene, h).unwrap();
    let deformed = deform_skin(h, pose).unwrap();
    let world = pose.world_from_humanoid(h);
    let points: Vec<Vec3> = deformed.points.iter().map(|p| world.transform_point3(*p)).collect();
    let mut triangles = Vec::new();
    for part in mesh.parts.iter().filter(|p| p.topology == Topology::Triangles) {
        for t in part.indices.chunks_exact(3) {
            triangles.push([0, 1, 2].map(|k| part.source_point[t[k] as usize]));
        }
    }
    (points, triangles)
}

/// Each rigid shape of `h` at `pose`, world space: its joint, triangles and line segments.
type RigidWorld = (Option<usize>, Vec<[Vec3; 3]>, Vec<[Vec3; 2]>);

fn rigid_world(doc: &Document, h: &Humanoid, pose: &Pose) -> Vec<RigidWorld> {
    let globals = humanoid_from_joint(h, pose);
    let world_from_humanoid = pose.world_from_humanoid(h);
    let mut out = Vec::new();
    for shape in rigid_shapes(&doc.scene, h).unwrap() {
        let Some((mesh, points)) = render_mesh_from_rigid_shape(&doc.scene, h, &shape, &mut Vec::new()).unwrap() else {
            continue;
        };
        let place = world_from_humanoid * shape.joint.map_or(Mat4::IDENTITY, |j| globals[j]);
        let corner = |i: u32| place.transform_point3(points[mesh.source_point[i as usize] as usize]);
        let (mut triangles, mut lines) = (Vec::new(), Vec::new());
        match mesh.topology {
            Topology::Triangles => {
                triangles.extend(mesh.indices.chunks_exact(3).map(|t| [corner(t[0]), corner(t[1]), corner(t[2])]))
            }
            Topology::Lines => lines.extend(mesh.indices.chunks_exact(2).map(|l| [corner(l[0]), corner(l[1])])),
            Topology::Points => {}
        }
        out.push((shape.joint, triangles, lines));
    }
    out
}

fn render(doc: &Document, mode: OverlayMode, joint: Option<&str>) -> RenderedImage {
    render_sized(doc, mode, joint, (360, 480))
}

fn render_sized(doc: &Document, mode: OverlayMode, joint: Option<&str>, (w, h): (u32, u32)) -> RenderedImage {
    let ctx = common::gpu();
    let mut request = SceneRequest::new(w, h);
    request.overlay = OverlaySet { mode, joint: joint.map(str::to_string), axes: false, sites: false };
    render_document(&ctx, doc, &request).unwrap()
}

fn save(image: &RenderedImage, name: &str) {
    if let Some(dir) = std::env::var_os("HANIM_OVERLAY_PICTURES") {
        let path = std::path::Path::new(&dir).join(name);
        hanim_viewer::output::write_png_atomically(&path, image.width, image.height, &image.rgba).unwrap();
    }
}

/// Hot pixels (and their count) that fall outside `region`.
fn hot_outside(image: &RenderedImage, region: &Mask) -> (usize, usize) {
    let (mut hot, mut outside) = (0, 0);
    for y in 0..image.height {
        for x in 0..image.width {
            if is_hot(image.pixel(x, y)) {
                hot += 1;
                if !region.contains(x, y) {
                    outside += 1;
                }
            }
        }
    }
    (hot, outside)
}

fn joekick_heatmap_is_hot_only_where_the_joint_weighs() {
    common::needs_gpu();
    let doc = load("x3d/JoeKick.x3d");
    let h = &doc.humanoids[0];
    let pose = Pose::rest(h);
    for joint in ["l_shoulder", "r_hip", "skullbase"] {
        let image = render(&doc, OverlayMode::Heatmap, Some(joint));
        save(&image, &format!("joekick-heatmap-{joint}.png"));
        let j = h.joint_index(joint).unwrap();
        let values = point_influences(h, Some(j));
        let (points, triangles) = skin_triangles(&doc, h, &pose);
        let mut region = Mask::new(&image);
        let mut weighted_triangles = 0;
        for t in &triangles {
            if t.iter().any(|&i| values[i as usize].weight > 0.0) {
                region.triangle(&image, t.map(|i| points[i as usize]), 1);
                weighted_triangles += 1;
            }
        }
        for (owner, tris, lines) in rigid_world(&doc, h, &pose) {
            if owner == Some(j) {
                tris.iter().for_each(|t| region.triangle(&image, *t, 1));
                lines.iter().for_each(|l| region.line(&image, l[0], l[1], 1));
            }
        }
        let (hot, outside) = hot_outside(&image, &region);
        eprintln!("{joint}: {weighted_triangles} weighted triangles, {hot} hot pixels, {outside} outside");
        assert!(hot >= 100, "{joint}: only {hot} hot pixels");
        assert_eq!(outside, 0, "{joint}: {outside} of {hot} hot pixels lie outside the joint's weighted triangles");
        // And the weighted region is not hot everywhere: a joint colours its own part, not the figure.
        let foreground = (0..image.height)
            .flat_map(|y| (0..image.width).map(move |x| (x, y)))
            .filter(|&(x, y)| image.is_foreground(x, y, 8))
            .count();
        assert!(hot * 4 < foreground, "{joint}: {hot} hot of {foreground} figure pixels");
    }
}

/// Möller–Trumbore, either side: the distance along `dir`.
fn ray_triangle(origin: Vec3, dir: Vec3, [a, b, c]: [Vec3; 3]) -> Option<f32> {
    let (e1, e2) = (b - a, c - a);
    let p = dir.cross(e2);
    let det = e1.dot(p);
    if det.abs() < 1e-12 {
        return None;
    }
    let s = origin - a;
    let u = s.dot(p) / det;
    let q = s.cross(e1);
    let v = dir.dot(q) / det;
    if !(0.0..=1.0).contains(&u) || v < 0.0 || u + v > 1.0 {
        return None;
    }
    let t = e2.dot(q) / det;
    (t > 0.0).then_some(t)
}

/// Whether all 5×5 pixels around (x, y) have one colour (away from edges and colour boundaries).
fn uniform_around(image: &RenderedImage, x: u32, y: u32) -> bool {
    if x < 2 || y < 2 || x + 2 >= image.width || y + 2 >= image.height {
        return false;
    }
    let centre = image.pixel(x, y);
    (y - 2..=y + 2).all(|yy| (x - 2..=x + 2).all(|xx| (0..3).all(|c| image.pixel(xx, yy)[c].abs_diff(centre[c]) <= 2)))
}

fn joekick_influence_colours_match_the_cpu_counts_at_visible_vertices() {
    common::needs_gpu();
    let doc = load("x3d/JoeKick.x3d");
    let image = render_sized(&doc, OverlayMode::Influences, None, (720, 960));
    save(&image, "joekick-influences.png");
    let seen = check_visible_vertices(&doc, &image, &INFLUENCE_COLORS, |p| (p.count as usize).min(5));
    assert!(seen.len() >= 2, "one influence count only: {seen:?}");
}

/// Six patches weighted by 0 to 5 joints, with sums 0, 0.5, 1 and 1.75 (`tests/data/skin_weight_sums.x3d`):
/// every class of both colourings appears, each vertex in its own colour.
fn every_count_and_weight_sum_shows_its_colour() {
    common::needs_gpu();
    let doc = hanim::load(&common::test_data("skin_weight_sums.x3d")).unwrap();
    let image = render_sized(&doc, OverlayMode::WeightSums, None, (480, 360));
    save(&image, "weight-sums-unweighted.png");
    let palette = WeightSum::ALL.map(WeightSum::color);
    let seen = check_visible_vertices(&doc, &image, &palette, |p| {
        WeightSum::ALL.iter().position(|&s| s == WeightSum::of(p)).unwrap()
    });
    assert_eq!(seen.len(), WeightSum::ALL.len(), "weight-sum classes seen: {seen:?}");
    let image = render_sized(&doc, OverlayMode::Influences, None, (480, 360));
    save(&image, "weight-sums-influences.png");
    let seen = check_visible_vertices(&doc, &image, &INFLUENCE_COLORS, |p| (p.count as usize).min(5));
    assert_eq!(seen, (0..=5).collect(), "influence counts seen");
}

/// Every skin vertex of `doc`'s first humanoid that the camera sees (no triangle nearer along the ray,
/// away from the silhouette) shows, of `palette`, nearest the colour `class` gives its CPU values.
/// Returns the classes seen.
fn check_visible_vertices(
    doc: &Document,
    image: &RenderedImage,
    palette: &[[f32; 3]],
    class: impl Fn(&PointInfluence) -> usize,
) -> std::collections::BTreeSet<usize> {
    let h = &doc.humanoids[0];
    let pose = Pose::rest(h);
    let values = point_influences(h, None);
    let (points, triangles) = skin_triangles(doc, h, &pose);
    let used: std::collections::BTreeSet<u32> = triangles.iter().flatten().copied().collect();
    let eye = image.camera.position();
    let world_triangles: Vec<[Vec3; 3]> = triangles.iter().map(|t| t.map(|i| points[i as usize])).collect();
    let (mut checked, mut mismatched) = (0, Vec::new());
    let mut counts_seen = std::collections::BTreeSet::new();
    for &i in &used {
        let p = points[i as usize];
        let Some((x, y)) = image.camera.project_to_pixel(p, image.width, image.height) else { continue };
        let (x, y) = (x.floor() as u32, y.floor() as u32);
        // Away from the silhouette, where the background blends in.
        if x < 2 || y < 2 || x + 2 >= image.width || y + 2 >= image.height {
            continue;
        }
        if !(y - 2..=y + 2).all(|yy| (x - 2..=x + 2).all(|xx| image.is_foreground(xx, yy, 8))) {
            continue;
        }
        let distance = (p - eye).length();
        let dir = (p - eye) / distance;
        if world_triangles.iter().any(|t| ray_triangle(eye, dir, *t).is_some_and(|d| d < distance * 0.995)) {
            continue;
        }
        // Colours are interpolated between vertices: the pixel at a vertex is nearest its own colour.
        let expected = class(&values[i as usize]);
        let got = image.pixel(x, y);
        let distance = |c: [f32; 3]| {
            let c = srgb8(c);
            (0..3).map(|k| (i32::from(got[k]) - i32::from(c[k])).pow(2)).sum::<i32>()
        };
        let nearest = (0..palette.len()).min_by_key(|&k| distance(palette[k])).unwrap();
        checked += 1;
        counts_seen.insert(expected);
        if nearest != expected {
            mismatched.push((i, expected, got, nearest));
        }
    }
    eprintln!("{checked} visible vertices checked, classes {counts_seen:?}, {} mismatched", mismatched.len());
    assert!(checked >= 20, "only {checked} vertices could be checked");
    assert!(
        mismatched.is_empty(),
        "vertices not of their class's colour: {:?}",
        &mismatched[..mismatched.len().min(8)]
    );
    counts_seen
}

fn segmented_figure_is_coloured_segment_by_segment() {
    common::needs_gpu();
    let doc = load("x3d/JinLOA1.x3d");
    let h = &doc.humanoids[0];
    assert!(h.skin.is_none(), "JinLOA1 is a segmented figure");
    let pose = Pose::rest(h);
    let j = h.joint_index("l_shoulder").unwrap();
    let image = render(&doc, OverlayMode::Heatmap, Some("l_shoulder"));
    save(&image, "jinloa1-heatmap-l_shoulder.png");
    let mut region = Mask::new(&image);
    for (owner, tris, lines) in rigid_world(&doc, h, &pose) {
        if owner == Some(j) {
            tris.iter().for_each(|t| region.triangle(&image, *t, 1));
            lines.iter().for_each(|l| region.line(&image, l[0], l[1], 1));
        }
    }
    let (hot, outside) = hot_outside(&image, &region);
    eprintln!("JinLOA1 l_shoulder: {hot} hot pixels, {outside} outside its segment");
    assert!(hot >= 50, "only {hot} hot pixels");
    assert_eq!(outside, 0);

    // Influence counts: every segment is 100 % its joint's, so flat areas are the colour of one influence
    // (or of none, for geometry no joint carries).
    let image = render(&doc, OverlayMode::Influences, None);
    save(&image, "jinloa1-influences.png");
    let one = srgb8(INFLUENCE_COLORS[1]);
    let none = srgb8(INFLUENCE_COLORS[0]);
    let (mut flat, mut ones, mut others) = (0, 0, 0);
    for y in 0..image.height {
        for x in 0..image.width {
            if !image.is_foreground(x, y, 8) || !uniform_around(&image, x, y) {
                continue;
            }
            flat += 1;
            let p = image.pixel(x, y);
            let is = |c: [u8; 3]| (0..3).all(|k| p[k].abs_diff(c[k]) <= 2);
            if is(one) {
                ones += 1;
            } else if !is(none) {
                others += 1;
            }
        }
    }
    eprintln!("JinLOA1 influences: {flat} flat figure pixels, {ones} one-influence, {others} other");
    assert!(flat >= 1000 && ones * 10 >= flat * 9, "{ones} of {flat}");
    assert_eq!(others, 0);
    assert_eq!(PointInfluence::rigid(Some(j), Some(j)).weight, 1.0);
}

fn bad_overlays_are_clear_errors_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("never.png");
    let file = common::corpus("x3d/JoeKick.x3d");
    let run = |overlays: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_hanim-viewer"))
            .arg("render")
            .arg(&file)
            .arg("--out")
            .arg(&out)
            .arg("--overlay")
            .args(overlays)
            .output()
            .unwrap();
        assert!(!output.status.success(), "{overlays:?} was accepted");
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let unknown = run(&["heatmap:l_shouldr"]);
    assert!(unknown.contains("no joint named 'l_shouldr'") && unknown.contains("l_shoulder"), "{unknown}");
    let two = run(&["influences", "unweighted"]);
    assert!(two.contains("one colouring at a time"), "{two}");
    let bare = run(&["heatmap"]);
    assert!(bare.contains("heatmap:JOINT"), "{bare}");
    let typo = run(&["weights"]);
    assert!(typo.contains("not an overlay"), "{typo}");
    assert!(!out.exists());
}

/// `axes` and `sites` draw only around the joint centres and the Sites, as the CPU places them.
fn axes_and_sites_are_drawn_where_the_cpu_places_joints_and_sites() {
    common::needs_gpu();
    let doc = load("x3d/JoeSkeletonSkinSiteSaluteWalk.x3d");
    let h = &doc.humanoids[0];
    let pose = Pose::rest(h);
    let plain = render(&doc, OverlayMode::Off, None);
    let ctx = common::gpu();
    let draw_with = |axes: bool, sites: bool| {
        let mut request = SceneRequest::new(360, 480);
        request.overlay = OverlaySet { mode: OverlayMode::Off, joint: None, axes, sites };
        render_document(&ctx, &doc, &request).unwrap()
    };
    let centres = hanim_viewer::gpu::overlay::joint_centres(h, &pose);
    let sites: Vec<Vec3> = hanim_viewer::gpu::overlay::site_positions(h, &pose).into_iter().map(|(_, p)| p).collect();
    assert!(!sites.is_empty(), "the file has Sites");
    for (what, image, marks) in [("axes", draw_with(true, false), &centres), ("sites", draw_with(false, true), &sites)]
    {
        save(&image, &format!("overlay-{what}.png"));
        assert_eq!(image.camera.position(), plain.camera.position(), "one camera for both");
        let projected: Vec<(f32, f32)> =
            marks.iter().filter_map(|p| image.camera.project_to_pixel(*p, image.width, image.height)).collect();
        // Axis lines are 3 × 1.2 % of the figure long, site diamonds 1 %: a few pixels at this size.
        let reach = 0.05 * image.height as f32;
        let (mut changed, mut far) = (0, 0);
        for y in 0..image.height {
            for x in 0..image.width {
                let (a, b) = (image.pixel(x, y), plain.pixel(x, y));
                if (0..3).all(|c| a[c].abs_diff(b[c]) <= 16) {
                    continue;
                }
                changed += 1;
                let near = projected.iter().any(|&(px, py)| (px - x as f32).hypot(py - y as f32) <= reach);
                if !near {
                    far += 1;
                }
            }
        }
        eprintln!("{what}: {changed} pixels drawn, {far} away from every mark");
        assert!(changed >= 20, "{what}: {changed} pixels drawn");
        assert_eq!(far, 0, "{what}: {far} pixels drawn away from the marks");
    }
}
