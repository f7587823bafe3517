//! Line and point sets in a humanoid's `skin` field share the skin coordinates and are deformed with them
//! on the GPU: a wireframe drawn over a skinned face follows the joint that moves its points. Rendered
//! headless (lavapipe in CI) like `tests/render.rs`.

mod common;

test_main!(a_wireframe_and_points_in_the_skin_follow_the_joints, a_line_through_a_joint_marker_stays_hidden_inside_it);

use std::path::Path;

use glam::Vec3;
use hanim_viewer::gpu::GpuContext;
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::pose::JointRotation;
use hanim_viewer::render::{self as headless, RenderedImage, SceneRequest, ViewRequest};

fn render(ctx: &GpuContext, doc: &Document, request: &SceneRequest) -> RenderedImage {
    headless::render_document(ctx, doc, request).unwrap_or_else(|e| panic!("render failed: {e:#}"))
}

fn save(image: &RenderedImage, name: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/render-tests");
    std::fs::create_dir_all(&dir).unwrap();
    hanim_viewer::output::write_png_atomically(&dir.join(name), image.width, image.height, &image.rgba).unwrap();
}

/// Whether a dark (line or point; under MSAA a 1-pixel line can cover half a pixel, so "dark" is below
/// 120 of 255 against the white sky and the grey face) pixel lies within `radius` pixels of where `p` projects.
fn dark_near(image: &RenderedImage, p: Vec3, radius: i32) -> bool {
    let (x, y) = image.camera.project_to_pixel(p, image.width, image.height).expect("in front");
    (-radius..=radius).any(|dy| {
        (-radius..=radius).any(|dx| {
            let (px, py) = (x as i32 + dx, y as i32 + dy);
            if px < 0 || py < 0 || px >= image.width as i32 || py >= image.height as i32 {
                return false;
            }
            let c = image.pixel(px as u32, py as u32);
            c[0] < 120 && c[1] < 120 && c[2] < 120
        })
    })
}

/// `tests/data/skin_wireframe.x3d`: point 2 at (1.5, 0, 0) follows `l_shoulder` (centre at the origin).
/// At rest the wireframe's edge 1→2 passes (1, −0.5, 0); after a quarter turn about +z point 2 is at
/// (0, 1.5, 0) and the edge 1→2 passes (0.25, 0.25, 0). Lines that were not skinned would stay at rest.
fn a_wireframe_and_points_in_the_skin_follow_the_joints() {
    let ctx = common::gpu();
    let path = common::test_data("skin_wireframe.x3d");
    let doc = hanim::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut request = SceneRequest::new(320, 320);
    request.view = ViewRequest::Named("WireCam".into());
    let rest = render(&ctx, &doc, &request);
    save(&rest, "skin_wireframe_rest.png");
    assert!(rest.notes.iter().all(|n| !n.contains("not drawn")), "{:?}", rest.notes);

    request.joint_rotations =
        vec![JointRotation { joint: "l_shoulder".into(), axis: Vec3::Z, angle: std::f32::consts::FRAC_PI_2 }];
    let posed = render(&ctx, &doc, &request);
    save(&posed, "skin_wireframe_posed.png");

    let rest_edge = Vec3::new(1.0, -0.5, 0.0);
    let posed_edge = Vec3::new(0.25, 0.25, 0.0);
    let rest_tip = Vec3::new(1.5, 0.0, 0.0);
    let posed_tip = Vec3::new(0.0, 1.5, 0.0);
    assert!(dark_near(&rest, rest_edge, 2), "the rest wireframe's edge 1→2 is drawn");
    assert!(dark_near(&rest, rest_tip, 2), "the rest point 2 is drawn");
    assert!(!dark_near(&rest, posed_tip, 4), "nothing dark where the posed tip will be");
    assert!(dark_near(&posed, posed_edge, 2), "the posed wireframe's edge 1→2 follows l_shoulder");
    assert!(dark_near(&posed, posed_tip, 2), "the posed point 2 follows l_shoulder");
    assert!(!dark_near(&posed, rest_tip, 4), "no line or point left at the rest tip");
    // The fixed edge 0→1 (both points on humanoid_root) stays.
    assert!(dark_near(&posed, Vec3::new(0.0, -1.0, 0.0), 2), "the root edge stays");
}

/// A line running through a small joint marker (a 2.5 cm blue ball seen from 10 m, as in
/// HAnimModelHandLeft) stays inside it: the nudge that lifts lines over the surface they lie on is a
/// fraction of the distance, far less than the ball's radius.
fn a_line_through_a_joint_marker_stays_hidden_inside_it() {
    let ctx = common::gpu();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("marker.x3d");
    std::fs::write(
        &path,
        "<X3D profile='Immersive' version='4.0'><Scene><Viewpoint DEF='Far' position='0 0 10'/>\
         <HAnimHumanoid name='M' version='2.0'><HAnimJoint DEF='r' name='humanoid_root' containerField='skeleton'>\
         <HAnimSegment name='sacrum'>\
         <Shape><Appearance><Material diffuseColor='0 0 0' emissiveColor='0 0 1'/></Appearance>\
         <Sphere radius='0.025'/></Shape>\
         <Shape><Appearance><Material emissiveColor='1 1 1'/></Appearance>\
         <LineSet vertexCount='2'><Coordinate point='-0.3 0 0 0.3 0 0'/></LineSet></Shape>\
         </HAnimSegment></HAnimJoint><HAnimJoint USE='r' containerField='joints'/></HAnimHumanoid></Scene></X3D>",
    )
    .unwrap();
    let doc = hanim::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let mut request = SceneRequest::new(400, 400);
    request.view = ViewRequest::Named("Far".into());
    let image = render(&ctx, &doc, &request);
    save(&image, "line_through_marker.png");
    let (x, y) = image.camera.project_to_pixel(Vec3::ZERO, 400, 400).expect("in front");
    let centre = image.pixel(x as u32, y as u32);
    assert!(centre[2] > 200 && centre[0] < 60, "the ball's centre is blue, got {centre:?}");
    // Beside the ball, the white line on the black background.
    let (lx, ly) = image.camera.project_to_pixel(Vec3::new(0.2, 0.0, 0.0), 400, 400).expect("in front");
    let line_lit = (-1i32..=1).any(|dy| image.pixel(lx as u32, (ly as i32 + dy) as u32)[0] > 100);
    assert!(line_lit, "the line is drawn beside the ball");
}
