//! Segment geometry (semantics note §6): Shapes under segments, joints and sites drawn rigidly with
//! `H · G_j` on the GPU. Every corpus humanoid renders and, for segmented figures, the projected centre
//! of each joint whose segment has geometry lands on (or next to) drawn pixels; rotating one joint of a
//! segmented figure changes pixels only near that joint's subtree; a segment's morphed coord is drawn and
//! boxed where the Transforms inside the segment put each Shape using it. Small images: lavapipe is slow.
//! Without an adapter the GPU tests are reported ignored, except under `CI=true`, where they fail.

mod common;

test_main!(
    every_corpus_humanoid_renders_and_segment_joints_lie_on_their_geometry,
    posing_one_joint_of_a_segmented_figure_changes_only_its_subtree,
    segment_shapes_are_found_through_grouping_nodes,
    a_segment_displacer_moves_the_drawn_segment_like_the_cpu_reference,
    the_box_of_a_morphing_segment_holds_its_points_where_its_shapes_place_them,
    each_shape_sharing_a_segment_coord_draws_the_morphed_points_under_its_own_transform
);

use std::path::Path;

use glam::{Mat4, Quat, Vec3};
use hanim_viewer::gpu::GpuContext;
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::mesh::{render_mesh_from_rigid_shape, rigid_shapes};
use hanim_viewer::pose;
use hanim_viewer::pose::bounds::{Aabb, humanoid_bounds};
use hanim_viewer::pose::{DisplacerWeight, JointRotation, poses_for};
use hanim_viewer::render::{self as headless, RenderedImage, SceneRequest, ViewRequest};
use hanim_viewer::views::{DEFAULT_FIELD_OF_VIEW, framed_camera};

const SIZE: u32 = 160;

/// Per-channel distance above which a pixel counts as foreground (the background is cleared exactly).
const BACKGROUND_TOLERANCE: u8 = 3;

fn load(path: &Path) -> Document {
    hanim::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn render(ctx: &GpuContext, doc: &Document, request: &SceneRequest) -> RenderedImage {
    headless::render_document(ctx, doc, request).unwrap_or_else(|e| panic!("render failed: {e:#}"))
}

fn is_foreground(image: &RenderedImage, x: u32, y: u32) -> bool {
    image.is_foreground(x, y, BACKGROUND_TOLERANCE)
}

/// Foreground within `radius` pixels of `(x, y)`.
fn foreground_near(image: &RenderedImage, x: f32, y: f32, radius: i32) -> bool {
    let (cx, cy) = (x.floor() as i32, y.floor() as i32);
    (-radius..=radius).any(|dy| {
        (-radius..=radius).any(|dx| {
            let (px, py) = (cx + dx, cy + dy);
            px >= 0
                && py >= 0
                && (px as u32) < image.width
                && (py as u32) < image.height
                && is_foreground(image, px as u32, py as u32)
        })
    })
}

fn save(image: &RenderedImage, name: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/render-tests");
    std::fs::create_dir_all(&dir).unwrap();
    hanim_viewer::output::write_png_atomically(&dir.join(name), image.width, image.height, &image.rgba).unwrap();
}

fn corpus_files() -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(common::corpus_folder("x3d"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "x3d"))
        .collect();
    files.sort();
    files
}

/// Joints with at least one drawable rigid shape at least `min_extent` across, per humanoid (tiny markers
/// vanish at test image sizes).
fn joints_with_geometry(doc: &Document, h: usize, min_extent: f32) -> Vec<usize> {
    let humanoid = &doc.humanoids[h];
    let mut joints = Vec::new();
    for shape in rigid_shapes(&doc.scene, humanoid).unwrap() {
        let mut notes = Vec::new();
        let drawable = render_mesh_from_rigid_shape(&doc.scene, humanoid, &shape, &mut notes).unwrap().is_some_and(
            |(mesh, points)| {
                let used = || mesh.source_point.iter().map(|&i| points[i as usize]);
                let lo = used().fold(Vec3::splat(f32::MAX), Vec3::min);
                let hi = used().fold(Vec3::splat(f32::MIN), Vec3::max);
                !mesh.indices.is_empty() && (hi - lo).max_element() >= min_extent
            },
        );
        if let (true, Some(j)) = (drawable, shape.joint)
            && !joints.contains(&j)
        {
            joints.push(j);
        }
    }
    joints
}

fn every_corpus_humanoid_renders_and_segment_joints_lie_on_their_geometry() {
    let ctx = common::gpu();
    let mut checked = 0;
    for path in corpus_files() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let doc = load(&path);
        if doc.humanoids.is_empty() {
            continue;
        }
        let image = render(&ctx, &doc, &SceneRequest::new(SIZE, SIZE));
        save(&image, &format!("segments.{name}.png"));
        let poses = poses_for(&doc, &[], &[]).unwrap();
        let mut total = 0;
        let mut missed = Vec::new();
        for (h, humanoid) in doc.humanoids.iter().enumerate() {
            let globals = pose::humanoid_from_joint(humanoid, &poses[h]);
            let min_extent = image.bounds.size().length() * 0.03;
            for j in joints_with_geometry(&doc, h, min_extent) {
                let centre = humanoid.world_from_humanoid()
                    * globals[j]
                    * Mat4::from_translation(humanoid.joints[j].rest.center);
                let p = centre.transform_point3(Vec3::ZERO);
                let Some((x, y)) = image.camera.project_to_pixel(p, SIZE, SIZE) else { continue };
                total += 1;
                if !foreground_near(&image, x, y, 2) {
                    missed.push(humanoid.joints[j].name.clone());
                }
            }
        }
        if total > 0 {
            checked += 1;
            // A joint centre sits between its segment and its parent's: allow a few at the seams (and
            // files whose Transforms place parts away from their joints, e.g. NancyNativeTags' arms).
            assert!(
                missed.len() * 4 <= total,
                "{name}: {} of {total} joint centres with segment geometry are on background: {missed:?}",
                missed.len()
            );
            eprintln!("{name}: {total} segment joints, off geometry: {missed:?}");
        }
    }
    assert!(checked >= 5, "only {checked} corpus files have segment geometry");
}

fn posing_one_joint_of_a_segmented_figure_changes_only_its_subtree() {
    let ctx = common::gpu();
    let doc = load(&common::corpus("x3d/JinLOA1.x3d"));
    let h = &doc.humanoids[0];
    assert!(h.skin.is_none() && !h.segments.is_empty(), "JinLOA1 is a segmented figure");
    let rest = render(&ctx, &doc, &SceneRequest::new(SIZE, SIZE));
    let joint = h.joints.iter().position(|j| j.name.ends_with("l_shoulder")).expect("l_shoulder");
    let mut request = SceneRequest::new(SIZE, SIZE);
    request.view = ViewRequest::Camera(rest.camera);
    request.joint_rotations =
        vec![JointRotation { joint: h.joints[joint].name.clone(), axis: Vec3::Z, angle: std::f32::consts::FRAC_PI_2 }];
    let raised = render(&ctx, &doc, &request);
    save(&raised, "segments.JinLOA1.l_shoulder.png");
    let mut changed = Vec::new();
    for y in 0..SIZE {
        for x in 0..SIZE {
            let (p, q) = (rest.pixel(x, y), raised.pixel(x, y));
            if (0..3).any(|c| p[c].abs_diff(q[c]) > BACKGROUND_TOLERANCE) {
                changed.push((x, y));
            }
        }
    }
    assert!(changed.len() > 30, "rotating l_shoulder changed only {} pixels", changed.len());
    // The figure's left is +X: a front camera sees it on the image's right, beyond the centre line.
    let (centre_x, _) = rest.camera.project_to_pixel(rest.bounds.center(), SIZE, SIZE).unwrap();
    let left: Vec<_> = changed.iter().filter(|(x, _)| (*x as f32) < centre_x - 2.0).collect();
    assert!(
        left.is_empty(),
        "{} changed pixels left of x = {centre_x}, e.g. {:?}",
        left.len(),
        &left[..left.len().min(5)]
    );
}

fn segment_shapes_are_found_through_grouping_nodes() {
    common::needs_corpus(&["x3d/NancyNativeTags.x3d"]);
    let doc = load(&common::corpus("x3d/NancyNativeTags.x3d"));
    let h = &doc.humanoids[0];
    let shapes = rigid_shapes(&doc.scene, h).unwrap();
    assert!(shapes.len() >= 10, "{} rigid shapes", shapes.len());
    // Nancy wraps each segment's Shape in a Transform: the offset is not the identity.
    assert!(shapes.iter().any(|s| s.offset != Mat4::IDENTITY));
    assert!(shapes.iter().all(|s| s.joint.is_some()));
}

/// A segment displacer morphs the segment's coord in the skin pass and the segment's Shape draws the
/// morphed points: with the displacer at weight 4, the CPU reference puts the triangle's tip 0.4 higher,
/// and the render shows geometry there that the weight-0 render does not have.
fn a_segment_displacer_moves_the_drawn_segment_like_the_cpu_reference() {
    let ctx = common::gpu();
    let doc = load(&common::test_data("cpu_segment_displacer.x3d"));
    let h = &doc.humanoids[0];
    let name = "l_upperarm_bulge_action";
    let mut request = SceneRequest::new(SIZE, SIZE);
    request.displacer_weights = vec![DisplacerWeight { name: name.into(), weight: 4.0 }];
    let bulged = render(&ctx, &doc, &request);
    save(&bulged, "segments.segment_displacer.png");
    request.view = ViewRequest::Camera(bulged.camera);
    request.displacer_weights[0].weight = 0.0;
    let flat = render(&ctx, &doc, &request);

    let poses = poses_for(&doc, &[], &[DisplacerWeight { name: name.into(), weight: 4.0 }]).unwrap();
    let segment = h.segments.iter().position(|s| s.coord.is_some()).unwrap();
    let joint = h.segments[segment].joint.unwrap();
    let placed = h.world_from_humanoid() * pose::humanoid_from_joint(h, &poses[0])[joint];
    let morphed = pose::deform_segment(h, segment, &poses[0]);
    let rest = &h.segments[segment].coord_points;
    assert!((morphed[2] - rest[2]).length() > 0.3, "the reference moves point 2");
    // A point just inside the morphed triangle near its moved tip.
    let centroid = (morphed[0] + morphed[1] + morphed[2]) / 3.0;
    let near_tip = placed.transform_point3(morphed[2] + (centroid - morphed[2]) * 0.15);
    let (x, y) = bulged.camera.project_to_pixel(near_tip, SIZE, SIZE).unwrap();
    assert!(foreground_near(&bulged, x, y, 1), "the morphed tip at ({x}, {y}) is not drawn");
    assert!(!foreground_near(&flat, x, y, 1), "the unmorphed segment already covers ({x}, {y})");
}

/// A segment whose `coord` is the Coordinate of an IndexedFaceSet under a Transform inside the segment,
/// shared by a second Shape under another Transform (JinBlink's layout). X3D 4.0 clause 26: Transforms
/// inside a segment position the body part, so each Shape draws the morphed points where its own
/// Transform puts them.
const SHARED_COORD: &str = "segment_coord_in_transform.x3d";
const TIP_UP: &str = "sacrum_tip_up_action";

fn assert_box(got: Aabb, min: Vec3, max: Vec3, what: &str) {
    assert!(
        got.min.abs_diff_eq(min, 1e-5) && got.max.abs_diff_eq(max, 1e-5),
        "{what}: box {:?} … {:?}, expected {min:?} … {max:?}",
        got.min,
        got.max
    );
}

/// The box holds the placed points (y from 2), not the coord's own (y from 0), and follows the
/// displacer's tip to y 4 under both Transforms.
fn the_box_of_a_morphing_segment_holds_its_points_where_its_shapes_place_them() {
    let doc = load(&common::test_data(SHARED_COORD));
    let h = &doc.humanoids[0];
    let rest = poses_for(&doc, &[], &[]).unwrap();
    let got = humanoid_bounds(&doc.scene, h, &rest[0]).unwrap();
    assert_box(got, Vec3::new(-0.5, 2.0, 0.0), Vec3::new(2.5, 3.0, 0.0), "at rest");
    let raised = poses_for(&doc, &[], &[DisplacerWeight { name: TIP_UP.into(), weight: 1.0 }]).unwrap();
    let got = humanoid_bounds(&doc.scene, h, &raised[0]).unwrap();
    assert_box(got, Vec3::new(-0.5, 2.0, 0.0), Vec3::new(2.5, 4.0, 0.0), "tip raised by the displacer");
}

/// The GPU draws each Shape from the segment's morphed points under its own Transform, where the CPU
/// reference (`deform_segment`, placed by the Shape's offset and the joint) puts them; nothing is drawn
/// at the coord's own, untransformed points.
fn each_shape_sharing_a_segment_coord_draws_the_morphed_points_under_its_own_transform() {
    let ctx = common::gpu();
    let doc = load(&common::test_data(SHARED_COORD));
    let h = &doc.humanoids[0];
    let weight = DisplacerWeight { name: TIP_UP.into(), weight: 1.0 };
    let mut request = SceneRequest::new(SIZE, SIZE);
    // One camera that sees both the placed triangles and the coord's own place.
    let seen = Aabb { min: Vec3::new(-1.0, -0.5, 0.0), max: Vec3::new(3.0, 4.5, 0.0) };
    request.view = ViewRequest::Camera(framed_camera(&seen, Quat::IDENTITY, DEFAULT_FIELD_OF_VIEW, 1.0));
    request.displacer_weights = vec![weight.clone()];
    let image = render(&ctx, &doc, &request);
    save(&image, "segments.segment_coord_in_transform.png");

    let poses = poses_for(&doc, &[], &[weight]).unwrap();
    let segment = 0;
    let morphed = pose::deform_segment(h, segment, &poses[0]);
    assert!((morphed[2] - h.segments[segment].coord_points[2]).length() > 0.9, "the reference raises the tip");
    let joint = h.segments[segment].joint.unwrap();
    let by_joint = h.world_from_humanoid() * pose::humanoid_from_joint(h, &poses[0])[joint];
    let centroid = (morphed[0] + morphed[1] + morphed[2]) / 3.0;
    let near_tip = morphed[2] + (centroid - morphed[2]) * 0.15;
    let project = |p: Vec3| image.camera.project_to_pixel(p, SIZE, SIZE).expect("in front of the camera");
    let shapes: Vec<_> =
        rigid_shapes(&doc.scene, h).unwrap().into_iter().filter(|s| s.morph_segment == Some(segment)).collect();
    assert_eq!(shapes.len(), 2, "both Shapes draw the segment's coord");
    for shape in &shapes {
        let placed = by_joint * shape.offset;
        for (what, p) in [("centroid", centroid), ("raised tip", near_tip)] {
            let (x, y) = project(placed.transform_point3(p));
            assert!(
                foreground_near(&image, x, y, 1),
                "the {what} of the Shape placed by {:?} is not drawn at ({x}, {y})",
                shape.offset.w_axis
            );
        }
    }
    let (x, y) = project(by_joint.transform_point3(centroid));
    assert!(!foreground_near(&image, x, y, 1), "something is drawn at the coord's own points ({x}, {y})");
}
