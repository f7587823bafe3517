//! Examine-style camera: orbit about a target, pan, zoom; fixed views (viewpoints) with a short smooth
//! transition; eye views that follow their joint. Pure math, no window.

use glam::{Mat4, Quat, Vec3};

use crate::pose::bounds::Aabb;
use crate::ui::scene::{DEFAULT_FIELD_OF_VIEW, ViewPlacement, framing_distance};
use crate::views::Camera;

/// Seconds a view switch takes.
pub const TRANSITION_SECONDS: f32 = 0.4;
/// Radians of orbit per point of mouse drag.
const ORBIT_SPEED: f32 = 0.008;
/// Pitch stays short of the poles so "up" stays defined.
const MAX_PITCH: f32 = 1.55;

/// Orbit parameters: the camera looks at `target` from `distance`, turned `yaw` about +Y and `pitch`
/// about its X axis (pitch > 0 looks down).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Orbit {
    pub target: Vec3,
    pub distance: f32,
    pub yaw: f32,
    pub pitch: f32,
}

impl Orbit {
    pub fn orientation(&self) -> Quat {
        Quat::from_rotation_y(self.yaw) * Quat::from_rotation_x(-self.pitch)
    }

    pub fn world_from_camera(&self) -> Mat4 {
        let q = self.orientation();
        Mat4::from_rotation_translation(q, self.target + q * Vec3::Z * self.distance)
    }

    /// The orbit that reproduces `world_from_camera`, turning about the point `distance` ahead.
    pub fn from_matrix(world_from_camera: Mat4, distance: f32) -> Self {
        let (_, q, eye) = world_from_camera.to_scale_rotation_translation();
        let forward = (q * -Vec3::Z).normalize_or_zero();
        let pitch = (-forward.y).clamp(-1.0, 1.0).asin().clamp(-MAX_PITCH, MAX_PITCH);
        let yaw = (-forward.x).atan2(-forward.z);
        let distance = distance.max(1e-3);
        Self { target: eye + forward * distance, distance, yaw, pitch }
    }
}

/// What the camera is doing.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Mode {
    /// Free examine navigation.
    Orbit,
    /// Locked to view `index` of the summary: re-evaluated every frame (eye views follow the head).
    Fixed { index: usize },
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Transition {
    from: Mat4,
    from_fov: f32,
    elapsed: f32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ViewerCamera {
    pub orbit: Orbit,
    pub field_of_view: f32,
    mode: Mode,
    transition: Option<Transition>,
    /// The last matrix shown (transition start point).
    last: Mat4,
    /// Near/far follow the scene size.
    scene_size: f32,
}

impl Default for ViewerCamera {
    fn default() -> Self {
        let orbit = Orbit { target: Vec3::new(0.0, 1.0, 0.0), distance: 4.0, yaw: 0.0, pitch: 0.0 };
        Self {
            orbit,
            field_of_view: DEFAULT_FIELD_OF_VIEW,
            mode: Mode::Orbit,
            transition: None,
            last: orbit.world_from_camera(),
            scene_size: 2.0,
        }
    }
}

impl ViewerCamera {
    pub fn in_transition(&self) -> bool {
        self.transition.is_some()
    }

    /// The view the camera is locked to, if any.
    pub fn fixed_view(&self) -> Option<usize> {
        match self.mode {
            Mode::Fixed { index } => Some(index),
            Mode::Orbit => None,
        }
    }

    fn start_transition(&mut self, animate: bool) {
        self.transition = animate.then_some(Transition { from: self.last, from_fov: self.field_of_view, elapsed: 0.0 });
    }

    /// Frames `bounds` from the current direction.
    pub fn fit(&mut self, bounds: &Aabb, animate: bool) {
        self.start_transition(animate);
        self.scene_size = bounds.size().length().max(0.1);
        self.field_of_view = DEFAULT_FIELD_OF_VIEW;
        if !bounds.is_empty() {
            self.orbit.target = bounds.center();
        }
        self.orbit.distance = framing_distance(bounds, self.field_of_view);
        self.mode = Mode::Orbit;
    }

    /// Looks at `point` from the current direction at `distance`.
    pub fn frame_point(&mut self, point: Vec3, distance: f32) {
        self.start_transition(true);
        let base = self.current_orbit();
        self.orbit = Orbit { target: point, distance: distance.max(0.05), ..base };
        self.mode = Mode::Orbit;
    }

    /// Turns the camera about its target to look from direction `yaw`, `pitch` (the axis gizmo: front,
    /// side, top), keeping target and distance; a fixed view becomes free navigation.
    pub fn look_along(&mut self, yaw: f32, pitch: f32) {
        self.start_transition(true);
        let base = self.current_orbit();
        self.orbit = Orbit { yaw, pitch: pitch.clamp(-MAX_PITCH, MAX_PITCH), ..base };
        self.mode = Mode::Orbit;
    }

    /// Switches to view `index`, placed at `placement` now.
    pub fn set_view(&mut self, index: usize, placement: ViewPlacement, animate: bool) {
        self.start_transition(animate);
        self.mode = Mode::Fixed { index };
        self.field_of_view = placement.field_of_view;
        self.orbit = Orbit::from_matrix(placement.world_from_camera, self.orbit.distance);
    }

    /// The orbit that matches what is shown now (a fixed view becomes free navigation from where it is).
    fn current_orbit(&self) -> Orbit {
        match self.mode {
            Mode::Orbit => self.orbit,
            Mode::Fixed { .. } => Orbit::from_matrix(self.last, self.orbit.distance),
        }
    }

    fn unlock(&mut self) {
        if let Mode::Fixed { .. } = self.mode {
            self.orbit = self.current_orbit();
            self.mode = Mode::Orbit;
            self.transition = None;
        }
    }

    /// Mouse drag in points: orbit.
    pub fn orbit_by(&mut self, dx: f32, dy: f32) {
        if dx == 0.0 && dy == 0.0 {
            return;
        }
        self.unlock();
        self.orbit.yaw -= dx * ORBIT_SPEED;
        self.orbit.pitch = (self.orbit.pitch + dy * ORBIT_SPEED).clamp(-MAX_PITCH, MAX_PITCH);
    }

    /// Mouse drag in points on a view `height` points tall: the target moves with the cursor.
    pub fn pan_by(&mut self, dx: f32, dy: f32, height: f32) {
        if dx == 0.0 && dy == 0.0 {
            return;
        }
        self.unlock();
        let per_point = 2.0 * self.orbit.distance * (self.field_of_view * 0.5).tan() / height.max(1.0);
        let q = self.orbit.orientation();
        self.orbit.target += (q * Vec3::X) * (-dx * per_point) + (q * Vec3::Y) * (dy * per_point);
    }

    /// `amount > 0` moves closer (exponential, so it feels the same at every distance).
    pub fn zoom_by(&mut self, amount: f32) {
        if amount == 0.0 || !amount.is_finite() {
            return;
        }
        self.unlock();
        self.orbit.distance = (self.orbit.distance * (-amount).exp()).clamp(1e-3, 1e5);
    }

    /// The camera for this frame. `fixed` is the current placement of the locked view (re-evaluated by
    /// the caller each frame so eye views follow the head); `dt` advances the transition.
    pub fn update(&mut self, fixed: Option<ViewPlacement>, dt: f32) -> Camera {
        let (target, fov) = match (self.mode, fixed) {
            (Mode::Fixed { .. }, Some(p)) => (p.world_from_camera, p.field_of_view),
            _ => (self.orbit.world_from_camera(), self.field_of_view),
        };
        let (matrix, fov) = match &mut self.transition {
            Some(t) => {
                t.elapsed += dt.max(0.0);
                let s = (t.elapsed / TRANSITION_SECONDS).clamp(0.0, 1.0);
                let s = s * s * (3.0 - 2.0 * s);
                let (from_scale, from_q, from_p) = t.from.to_scale_rotation_translation();
                let _ = from_scale;
                let (_, to_q, to_p) = target.to_scale_rotation_translation();
                let m = Mat4::from_rotation_translation(from_q.slerp(to_q, s), from_p.lerp(to_p, s));
                let f = t.from_fov + (fov - t.from_fov) * s;
                if s >= 1.0 {
                    self.transition = None;
                }
                (m, f)
            }
            None => (target, fov),
        };
        self.last = matrix;
        let size = self.scene_size.max(self.orbit.distance * 0.1);
        Camera {
            world_from_camera: matrix,
            field_of_view: fov,
            near: (size * 0.002).max(1e-3),
            far: size * 50.0 + self.orbit.distance * 4.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbit_round_trips_through_its_matrix() {
        let o = Orbit { target: Vec3::new(0.1, 1.0, -0.2), distance: 3.0, yaw: 0.7, pitch: 0.3 };
        let back = Orbit::from_matrix(o.world_from_camera(), 3.0);
        assert!((back.target - o.target).length() < 1e-4, "{back:?}");
        assert!((back.yaw - o.yaw).abs() < 1e-4 && (back.pitch - o.pitch).abs() < 1e-4);
    }

    #[test]
    fn fit_puts_the_box_centre_in_front() {
        let mut b = Aabb::default();
        b.add(Vec3::new(-0.3, 0.0, -0.2));
        b.add(Vec3::new(0.3, 1.8, 0.2));
        let mut cam = ViewerCamera::default();
        cam.fit(&b, false);
        let c = cam.update(None, 0.016);
        let (x, y) = c.project_to_pixel(b.center(), 200, 100).unwrap_or_default();
        assert!((x - 100.0).abs() < 0.5 && (y - 50.0).abs() < 0.5);
    }

    #[test]
    fn view_switch_transitions_then_follows_the_view() {
        let mut cam = ViewerCamera::default();
        cam.update(None, 0.0);
        let placement =
            ViewPlacement { world_from_camera: Mat4::from_translation(Vec3::new(5.0, 0.0, 0.0)), field_of_view: 0.5 };
        cam.set_view(2, placement, true);
        assert_eq!(cam.fixed_view(), Some(2));
        let mid = cam.update(Some(placement), TRANSITION_SECONDS * 0.5);
        assert!(cam.in_transition());
        assert!(mid.position().x > 0.0 && mid.position().x < 5.0);
        let end = cam.update(Some(placement), TRANSITION_SECONDS);
        assert!(!cam.in_transition());
        assert!((end.position() - Vec3::new(5.0, 0.0, 0.0)).length() < 1e-4);
        // The view moves (an eye view following the head): the camera follows.
        let moved =
            ViewPlacement { world_from_camera: Mat4::from_translation(Vec3::new(5.0, 1.0, 0.0)), field_of_view: 0.5 };
        assert!((cam.update(Some(moved), 0.016).position().y - 1.0).abs() < 1e-5);
        // Orbiting unlocks the view.
        cam.orbit_by(10.0, 0.0);
        assert_eq!(cam.fixed_view(), None);
    }
}
