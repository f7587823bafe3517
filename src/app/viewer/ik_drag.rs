//! Posing by dragging: a primary drag that starts on an effector handle (a Site, or a joint's centre)
//! moves that effector in the plane facing the camera, solved by inverse kinematics every frame
//! ([`UiCommand::Reach`]); Alt runs the chain to the skeleton's root; a right click pins or unpins. One
//! drag is one undo step ([`UiCommand::EndEdit`] when it ends).

use glam::Vec3;

use super::Viewer;
use crate::ui::{UiCommand, ViewportInput};
use crate::views::Camera;

/// Pick radius around a handle, in points.
const HANDLE_RADIUS: f32 = 12.0;

/// An IK drag under way.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct IkDrag {
    pub effector: String,
    /// The plane the pointer moves the effector in: through the effector where the drag started,
    /// facing the camera.
    plane_point: Vec3,
    plane_normal: Vec3,
    /// Effector minus the pointer's point on the plane at the start, so the effector does not jump to
    /// the pointer.
    grab_offset: Vec3,
    to_root: bool,
}

/// Where the ray through `pixel` meets the plane, if in front of the camera.
fn on_plane(camera: &Camera, pixel: (f32, f32), size: (u32, u32), point: Vec3, normal: Vec3) -> Option<Vec3> {
    let (origin, dir) = camera.pixel_ray(pixel.0, pixel.1, size.0, size.1);
    let denominator = dir.dot(normal);
    if denominator.abs() < 1e-6 {
        return None;
    }
    let t = (point - origin).dot(normal) / denominator;
    (t > 0.0 && t.is_finite()).then(|| origin + dir * t)
}

impl Viewer {
    /// The handle nearest `pixel` within the pick radius (Sites before joints at equal distance).
    pub(super) fn handle_at(
        &self,
        camera: &Camera,
        pixel: (f32, f32),
        pixels_per_point: f32,
    ) -> Option<(String, Vec3)> {
        let (scene, (width, height)) = (self.scene.as_ref()?, self.view_size()?);
        scene
            .effector_handles()
            .into_iter()
            .enumerate()
            .filter_map(|(order, (name, p))| {
                let (x, y) = camera.project_to_pixel(p, width, height)?;
                let d = ((x - pixel.0).powi(2) + (y - pixel.1).powi(2)).sqrt();
                (d <= HANDLE_RADIUS * pixels_per_point).then_some((d, order, name, p))
            })
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
            .map(|(_, _, name, p)| (name, p))
    }

    /// Starts dragging `effector` (now at `at`, world) from `pixel`.
    pub(super) fn begin_ik_drag(
        &mut self,
        camera: &Camera,
        effector: String,
        at: Vec3,
        pixel: (f32, f32),
        to_root: bool,
    ) {
        let Some(size) = self.view_size() else { return };
        // Dragging a joint selects it (its sliders and its place in the tree show what the drag does).
        if let Some(j) = self.scene.as_ref().and_then(|s| s.summary.joints.iter().position(|j| j.name == effector)) {
            self.apply(UiCommand::SelectJoint(Some(crate::hanim::JointIndex(j))));
        }
        let normal = camera.forward();
        let grab_offset = on_plane(camera, pixel, size, at, normal).map_or(Vec3::ZERO, |hit| at - hit);
        self.ik_drag = Some(IkDrag { effector, plane_point: at, plane_normal: normal, grab_offset, to_root });
    }

    /// Moves the dragged effector under `pixel`.
    pub(super) fn move_ik_drag(&mut self, camera: &Camera, pixel: (f32, f32)) {
        let (Some(drag), Some(size)) = (self.ik_drag.clone(), self.view_size()) else { return };
        if let Some(hit) = on_plane(camera, pixel, size, drag.plane_point, drag.plane_normal) {
            let target = hit + drag.grab_offset;
            self.apply(UiCommand::Reach { effector: drag.effector, target, to_root: drag.to_root });
        }
    }

    /// Ends the drag: the next edit is a new undo step.
    pub(super) fn end_ik_drag(&mut self) {
        if self.ik_drag.take().is_some() {
            self.apply(UiCommand::EndEdit);
        }
    }

    /// The mouse's part in IK posing this frame; `true` while an IK drag holds the primary button (the
    /// camera then does not orbit).
    pub(super) fn ik_input(&mut self, input: &ViewportInput, pixels_per_point: f32) -> bool {
        if self.scene.is_none() {
            self.ik_drag = None;
            return false;
        }
        let camera = self.camera.update(None, 0.0);
        let pixel = |v: egui::Vec2| (v.x * pixels_per_point, v.y * pixels_per_point);
        self.hovered_handle =
            input.hover.and_then(|h| self.handle_at(&camera, pixel(h), pixels_per_point)).map(|(name, _)| name);
        self.ui.hovered_name = self.hovered_handle.clone();
        if let Some(at) = input.secondary_click
            && let Some((name, _)) = self.handle_at(&camera, pixel(at), pixels_per_point)
        {
            self.apply(UiCommand::TogglePin(name));
        }
        if let Some(press) = input.press
            && self.ik_drag.is_none()
            && let Some((name, at)) = self.handle_at(&camera, pixel(press), pixels_per_point)
        {
            self.begin_ik_drag(&camera, name, at, pixel(press), input.alt);
        }
        if self.ik_drag.is_none() {
            return false;
        }
        if let Some(p) = input.pointer {
            self.move_ik_drag(&camera, pixel(p));
        }
        if input.drag_released {
            self.end_ik_drag();
        }
        true
    }

    /// A scripted drag of `effector` to `target` (world) as the last frame's camera sees it: pressed on
    /// the effector's pixel, moved in eight steps to the target's pixel, released. The target is reached
    /// where it lies in the plane through the effector facing the camera.
    pub(super) fn scripted_drag(&mut self, effector: &str, target: Vec3, to_root: bool) -> Result<(), String> {
        let (Some(camera), Some(size), Some(scene)) = (self.last_camera, self.view_size(), self.scene.as_ref()) else {
            return Err("drag: no humanoid is loaded or no frame drawn yet".to_string());
        };
        let at = scene.effector_position(effector)?;
        let start = camera.project_to_pixel(at, size.0, size.1).ok_or("drag: the effector is behind the camera")?;
        let end = camera.project_to_pixel(target, size.0, size.1).ok_or("drag: the target is behind the camera")?;
        self.begin_ik_drag(&camera, effector.to_string(), at, start, to_root);
        const STEPS: usize = 8;
        for k in 1..=STEPS {
            let f = k as f32 / STEPS as f32;
            self.move_ik_drag(&camera, (start.0 + (end.0 - start.0) * f, start.1 + (end.1 - start.1) * f));
        }
        self.end_ik_drag();
        Ok(())
    }
}
