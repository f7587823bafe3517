//! Cameras that frame a set of points: the computed standard views and the face view, and near/far
//! planes for file cameras.

use glam::{Mat4, Quat, Vec3};

use super::Camera;
use crate::pose::bounds::Aabb;

/// X3D's default Viewpoint field of view.
pub const DEFAULT_FIELD_OF_VIEW: f32 = std::f32::consts::FRAC_PI_4;
/// The framed points fill at most 1/FRAME_MARGIN of the image in each direction.
pub const FRAME_MARGIN: f32 = 1.1;

/// A box that is never empty or flat: a unit cube around the origin for an empty box, and a minimum
/// thickness otherwise.
pub fn usable_box(bounds: &Aabb) -> Aabb {
    if bounds.is_empty() {
        return Aabb { min: Vec3::splat(-0.5), max: Vec3::splat(0.5) };
    }
    let pad = (bounds.size().max_element() * 1e-3).max(1e-4);
    Aabb { min: bounds.min - pad, max: bounds.max + pad }
}

/// The eight corners of `b`.
pub fn corners_of(b: &Aabb) -> [Vec3; 8] {
    std::array::from_fn(|i| {
        Vec3::new(
            if i & 1 == 0 { b.min.x } else { b.max.x },
            if i & 2 == 0 { b.min.y } else { b.max.y },
            if i & 4 == 0 { b.min.z } else { b.max.z },
        )
    })
}

/// The tangents of the horizontal and vertical half-angles of view for an image of `aspect`.
fn half_tangents(field_of_view: f32, aspect: f32) -> (f32, f32) {
    let probe = Camera { world_from_camera: Mat4::IDENTITY, field_of_view, near: 1.0, far: 2.0 };
    let tan_y = (probe.fov_y(aspect) * 0.5).tan();
    (tan_y * aspect, tan_y)
}

/// The camera oriented by `orientation` (looking down its −Z) that sees every point of `points` with
/// [`FRAME_MARGIN`] to spare, centred on their extent across the view, as close as that allows.
/// `points` must not be empty.
pub fn frame_points(points: &[Vec3], orientation: Quat, field_of_view: f32, aspect: f32) -> Camera {
    let (tan_x, tan_y) = half_tangents(field_of_view, aspect);
    let inverse = orientation.inverse();
    let local: Vec<Vec3> = points.iter().map(|p| inverse * *p).collect();
    let mut extent = Aabb::default();
    for p in &local {
        extent.add(*p);
    }
    let centre = extent.center();
    // Camera at (cx, cy, d) in this frame looking down −Z: a point is d − z in front of it and must lie
    // within the half-angles, with the margin.
    let mut distance = f32::NEG_INFINITY;
    for p in &local {
        let across = ((p.x - centre.x).abs() / tan_x).max((p.y - centre.y).abs() / tan_y);
        distance = distance.max(p.z + FRAME_MARGIN * across);
    }
    let size = extent.size().max_element().max(1e-3);
    let nearest = (distance - extent.max.z).max(size * 0.05);
    let farthest = distance - extent.min.z;
    Camera {
        world_from_camera: Mat4::from_rotation_translation(
            orientation,
            orientation * Vec3::new(centre.x, centre.y, distance),
        ),
        field_of_view,
        near: nearest * 0.5,
        // Room for the ground grid, which reaches 1.5 sizes around the box.
        far: farthest.max(nearest) * 2.0 + 4.0 * size,
    }
}

/// The camera of a standard view of `bounds`: oriented as `orientation` says, looking through the box
/// centre `m` from `m + orientation·(0, 0, d)`, with `d` the smallest distance at which every box corner
/// lies inside the image with [`FRAME_MARGIN`] to spare.
pub fn framed_camera(bounds: &Aabb, orientation: Quat, field_of_view: f32, aspect: f32) -> Camera {
    frame_points(&corners_of(&usable_box(bounds)), orientation, field_of_view, aspect)
}

/// A camera at `world_from_camera` (rigid), with near and far planes chosen around `bounds`.
pub fn camera_around(world_from_camera: Mat4, field_of_view: f32, bounds: &Aabb) -> Camera {
    let b = usable_box(bounds);
    let position = world_from_camera.transform_point3(Vec3::ZERO);
    let radius = b.size().length() * 0.5;
    let distance = position.distance(b.center());
    let size = b.size().max_element();
    Camera {
        world_from_camera,
        field_of_view,
        near: (distance - radius).max(radius * 0.01) * 0.5,
        far: (distance + radius) * 2.0 + 4.0 * size,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::views::StandardView;

    #[test]
    fn standard_views_sit_where_the_semantics_note_puts_them() {
        let mut bounds = Aabb::default();
        bounds.add(Vec3::new(-0.5, 0.0, -0.2));
        bounds.add(Vec3::new(0.5, 1.8, 0.2));
        let m = bounds.center();
        for view in StandardView::BODY {
            let direction = view.direction();
            let camera = framed_camera(&bounds, view.orientation(), DEFAULT_FIELD_OF_VIEW, 1.5);
            let offset = (camera.position() - m).normalize();
            assert!(offset.abs_diff_eq(direction, 1e-4), "{view:?}: {offset}");
            assert!(camera.forward().abs_diff_eq(-direction, 1e-4), "{view:?} looks at the centre");
            // Every corner projects inside the image, and the box fills it to within the margin.
            let (mut min_x, mut max_x, mut min_y, mut max_y) = (f32::MAX, f32::MIN, f32::MAX, f32::MIN);
            for c in corners_of(&bounds) {
                let (x, y) = camera.project_to_pixel(c, 300, 200).unwrap();
                assert!((0.0..=300.0).contains(&x) && (0.0..=200.0).contains(&y), "{view:?}: {x},{y}");
                (min_x, max_x, min_y, max_y) = (min_x.min(x), max_x.max(x), min_y.min(y), max_y.max(y));
            }
            let fill = ((max_x - min_x) / 300.0).max((max_y - min_y) / 200.0);
            assert!(fill > 0.85 && fill < 0.95, "{view:?} fills {fill}");
            assert!(camera.near > 0.0 && camera.near < camera.far);
        }
    }

    #[test]
    fn framed_points_are_centred_in_a_tall_image() {
        let points = [Vec3::new(2.0, 0.0, 0.0), Vec3::new(2.2, 1.0, 0.1)];
        let camera = frame_points(&points, Quat::IDENTITY, DEFAULT_FIELD_OF_VIEW, 0.5);
        for p in points {
            let (x, y) = camera.project_to_pixel(p, 100, 200).unwrap();
            assert!((0.0..=100.0).contains(&x) && (0.0..=200.0).contains(&y), "{x},{y}");
        }
        let (x, _) = camera.project_to_pixel(Vec3::new(2.1, 0.5, 0.05), 100, 200).unwrap();
        assert!((x - 50.0).abs() < 1.0, "{x}");
    }
}
