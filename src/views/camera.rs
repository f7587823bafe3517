//! The camera every view is drawn with: X3D Viewpoint semantics as plain data (no GPU types), so that
//! views, framing, the window's camera and the renderer share one definition.

use glam::{Mat4, Vec3};

/// A perspective camera: X3D Viewpoint semantics (looks down its −Z, +Y up; `field_of_view` spans the
/// smaller side of the image).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camera {
    pub world_from_camera: Mat4,
    pub field_of_view: f32,
    pub near: f32,
    pub far: f32,
}

impl Camera {
    /// The vertical field of view for an image of `aspect = width / height`.
    pub fn fov_y(&self, aspect: f32) -> f32 {
        if aspect >= 1.0 { self.field_of_view } else { 2.0 * ((self.field_of_view * 0.5).tan() / aspect).atan() }
    }

    pub fn clip_from_world(&self, aspect: f32) -> Mat4 {
        glam::camera::rh::proj::directx::perspective(self.fov_y(aspect), aspect, self.near, self.far)
            * self.world_from_camera.inverse()
    }

    pub fn position(&self) -> Vec3 {
        self.world_from_camera.transform_point3(Vec3::ZERO)
    }

    /// Unit view direction (the camera's −Z in world space).
    pub fn forward(&self) -> Vec3 {
        self.world_from_camera.transform_vector3(-Vec3::Z).normalize_or_zero()
    }

    pub fn up(&self) -> Vec3 {
        self.world_from_camera.transform_vector3(Vec3::Y).normalize_or_zero()
    }

    pub fn right(&self) -> Vec3 {
        self.world_from_camera.transform_vector3(Vec3::X).normalize_or_zero()
    }

    /// Pixel coordinates (x right, y down, origin at the top-left corner) of world point `p` in a
    /// `width × height` image, or `None` when it lies behind the camera.
    pub fn project_to_pixel(&self, p: Vec3, width: u32, height: u32) -> Option<(f32, f32)> {
        let aspect = width as f32 / height as f32;
        let clip = self.clip_from_world(aspect) * p.extend(1.0);
        if clip.w <= 0.0 {
            return None;
        }
        let ndc = clip.truncate() / clip.w;
        Some(((ndc.x + 1.0) * 0.5 * width as f32, (1.0 - ndc.y) * 0.5 * height as f32))
    }

    /// The ray through pixel `(x, y)` of a `width × height` image (the inverse of
    /// [`project_to_pixel`](Self::project_to_pixel)): its origin on the near plane and unit direction.
    pub fn pixel_ray(&self, x: f32, y: f32, width: u32, height: u32) -> (Vec3, Vec3) {
        let aspect = width as f32 / height as f32;
        let world_from_clip = self.clip_from_world(aspect).inverse();
        let ndc = glam::Vec2::new(x / width as f32 * 2.0 - 1.0, 1.0 - y / height as f32 * 2.0);
        let near = world_from_clip.project_point3(ndc.extend(0.0));
        let far = world_from_clip.project_point3(ndc.extend(1.0));
        (near, (far - near).normalize_or_zero())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camera_fov_spans_the_smaller_side_and_projects_the_centre_to_the_middle() {
        let camera = Camera {
            world_from_camera: Mat4::from_translation(Vec3::new(0.0, 1.0, 5.0)),
            field_of_view: 0.8,
            near: 0.1,
            far: 100.0,
        };
        assert_eq!(camera.fov_y(16.0 / 9.0), 0.8);
        let portrait = camera.fov_y(0.5);
        assert!(((portrait * 0.5).tan() * 0.5 - 0.4f32.tan()).abs() < 1e-6, "horizontal fov is 0.8");
        let (x, y) = camera.project_to_pixel(Vec3::new(0.0, 1.0, 0.0), 200, 100).unwrap();
        assert!((x - 100.0).abs() < 1e-3 && (y - 50.0).abs() < 1e-3);
        // +X world is to the right, +Y up (smaller pixel y).
        let (x, y) = camera.project_to_pixel(Vec3::new(0.5, 1.5, 0.0), 200, 100).unwrap();
        assert!(x > 100.0 && y < 50.0);
        assert!(camera.project_to_pixel(Vec3::new(0.0, 1.0, 10.0), 200, 100).is_none());
    }

    #[test]
    fn the_ray_through_a_pixel_passes_through_what_projects_there() {
        let camera = Camera {
            world_from_camera: Mat4::from_rotation_translation(
                glam::Quat::from_rotation_y(0.4),
                Vec3::new(0.5, 1.0, 5.0),
            ),
            field_of_view: 0.8,
            near: 0.1,
            far: 100.0,
        };
        let p = Vec3::new(0.3, 1.4, -0.7);
        let (x, y) = camera.project_to_pixel(p, 300, 200).unwrap();
        let (origin, dir) = camera.pixel_ray(x, y, 300, 200);
        let along = (p - origin).dot(dir);
        assert!(along > 0.0);
        assert!(
            (origin + dir * along - p).length() < 1e-4,
            "the ray misses by {}",
            (origin + dir * along - p).length()
        );
    }
}
