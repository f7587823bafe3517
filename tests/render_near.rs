//! Geometry between the viewer and what a view frames is drawn: the near clipping plane follows X3D's
//! NavigationInfo collision distance, not the framed figure's box. Rendered headless (lavapipe in CI).

mod common;

test_main!(a_viewpoint_marker_in_front_of_the_camera_is_not_clipped);

use glam::Vec3;
use hanim_viewer::hanim;
use hanim_viewer::render::{self as headless, SceneRequest, ViewRequest};

/// `tests/data/near_marker.x3d`: a red ball 1.1 m in front of the camera, the figure about 4 m away.
/// Before, the near plane sat at half the distance to the figure's box (about 1.5 m) and cut the ball.
fn a_viewpoint_marker_in_front_of_the_camera_is_not_clipped() {
    let ctx = common::gpu();
    let path = common::test_data("near_marker.x3d");
    let doc = hanim::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!((doc.settings.near_clip_distance() - 0.125).abs() < 1e-6, "X3D's default avatarSize[0] / 2");
    let mut request = SceneRequest::new(240, 240);
    request.view = ViewRequest::Named("FrontCam".into());
    let image = headless::render_document(&ctx, &doc, &request).unwrap_or_else(|e| panic!("{e:#}"));
    assert!(image.camera.near <= 0.125 + 1e-6, "near plane {}", image.camera.near);
    let (x, y) = image.camera.project_to_pixel(Vec3::new(0.0, 1.0, 2.9), 240, 240).expect("in front");
    let p = image.pixel(x as u32, y as u32);
    assert!(p[0] > 200 && p[1] < 60 && p[2] < 60, "the red ball at ({x}, {y}), got {p:?}");
    // Beside the ball, the grey box behind it.
    let (bx, by) = image.camera.project_to_pixel(Vec3::new(0.2, 0.5, 0.15), 240, 240).expect("in front");
    let q = image.pixel(bx as u32, by as u32);
    assert!(q[0] == q[1] && q[1] == q[2] && q[0] < 230, "the grey box at ({bx}, {by}), got {q:?}");
}
