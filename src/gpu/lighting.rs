//! The lights every view is drawn with: X3D's headlight along the view (NavigationInfo `headlight`), a
//! soft key light, and the file's own light nodes, packed into the per-view uniform.

use super::layout::humanoid::{GpuFrame, GpuLight, MAX_SCENE_LIGHTS};
use crate::views::Camera;

impl GpuFrame {
    /// The per-view uniform: camera matrix and the viewer's lights (a headlight along the view, as X3D's
    /// NavigationInfo headlight, plus a soft key light from the upper left), for an image of `aspect`.
    pub fn from_camera(camera: &Camera, aspect: f32) -> GpuFrame {
        let backward = -camera.forward();
        let key = (backward * 0.6 + camera.up() * 0.65 - camera.right() * 0.45).normalize_or_zero();
        GpuFrame {
            clip_from_world: camera.clip_from_world(aspect).to_cols_array(),
            camera_position: camera.position().extend(1.0).to_array(),
            headlight: backward.extend(HEADLIGHT_INTENSITY).to_array(),
            key_light: key.extend(KEY_LIGHT_INTENSITY).to_array(),
            ambient: [AMBIENT_LIGHT, AMBIENT_LIGHT, AMBIENT_LIGHT, 0.0],
            light_count: [0; 4],
            lights: [<GpuLight as bytemuck::Zeroable>::zeroed(); MAX_SCENE_LIGHTS],
        }
    }

    /// [`Self::from_camera`] with the file's lighting: its light nodes (the first
    /// [`MAX_SCENE_LIGHTS`]) added, and NavigationInfo `headlight='false'` respected. With the headlight
    /// off the viewer's soft key light goes too when the file has lights of its own; a file with no light
    /// at all keeps it, so that its figures stay visible.
    pub fn lit(camera: &Camera, aspect: f32, settings: &crate::hanim::SceneSettings) -> GpuFrame {
        let mut frame = Self::from_camera(camera, aspect);
        if !settings.headlight {
            frame.headlight[3] = 0.0;
            if !settings.lights.is_empty() {
                frame.key_light[3] = 0.0;
            }
        }
        let count = settings.lights.len().min(MAX_SCENE_LIGHTS);
        for (slot, light) in frame.lights.iter_mut().zip(&settings.lights) {
            *slot = GpuLight::from_scene(light);
        }
        frame.light_count[0] = count as u32;
        frame
    }
}

/// Headlight intensity: X3D's headlight is 1; slightly less leaves room for the key light.
const HEADLIGHT_INTENSITY: f32 = 0.75;
/// A soft key light, so that surfaces facing the viewer are not uniformly flat.
const KEY_LIGHT_INTENSITY: f32 = 0.35;
/// Ambient light, multiplied by each material's ambientIntensity (X3D default 0.2).
const AMBIENT_LIGHT: f32 = 1.0;
