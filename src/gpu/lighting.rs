//! The lights every view is drawn with, packed into the per-view uniform, in one of two models:
//!
//! - [`Lighting::Standard`] (the default): the X3D lighting equations (ISO/IEC 19775-1 X3D 4.0, 17.2.2.4
//!   "Lighting equations"; VRML97 4.14.4) and nothing else: the NavigationInfo headlight (a white
//!   DirectionalLight along the view, intensity 1, ambientIntensity 0, 23.4.4), the file's
//!   DirectionalLight/PointLight/SpotLight nodes with their own ambientIntensity (ambient term
//!   `Iₐ(light) × Oₐ(material) × diffuse`), emissive; no extra ambient or key light. The equations are
//!   evaluated on the colour values as the file writes them and the result is the pixel's value (X_ITE
//!   and view3dscene do the same for Material). An RGB ImageTexture multiplies the diffuse colour in an
//!   X3D 4 file (Table 17.3 of 4.0) and replaces it in X3D 3.x and VRML97 files (Table 17.3 of 3.3).
//!   Without a Background the background is black.
//! - [`Lighting::Studio`]: the viewer's earlier look, kept for catalogue pictures of dark or unlit files:
//!   lighting in linear light, a dimmer headlight plus a soft key light from the upper left, a white
//!   ambient light scaled by each Material's ambientIntensity, textures always replacing the diffuse
//!   colour, and a grey background without a Background.

use super::layout::humanoid::{GpuFrame, GpuLight, MAX_SCENE_LIGHTS};
use crate::views::Camera;

/// Which lighting model a frame is drawn with (see the module comment).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lighting {
    #[default]
    Standard,
    Studio,
}

impl Lighting {
    /// `standard` or `studio` (as `--lighting` takes them).
    pub fn from_name(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "standard" => Some(Self::Standard),
            "studio" => Some(Self::Studio),
            _ => None,
        }
    }

    /// The background without a Background node: black in the standard model (X3D's default skyColor),
    /// `studio` in the studio look.
    pub fn default_background(self, studio: [f32; 3]) -> [f32; 3] {
        match self {
            Self::Standard => [0.0; 3],
            Self::Studio => studio,
        }
    }
}

impl GpuFrame {
    /// The per-view uniform with the viewer's own lights only (no file): camera matrix and a headlight
    /// along the view (X3D's NavigationInfo default), plus the studio look's key and ambient light.
    pub fn from_camera(camera: &Camera, aspect: f32, lighting: Lighting) -> GpuFrame {
        let backward = -camera.forward();
        let (headlight, key, ambient, standard) = match lighting {
            Lighting::Standard => (1.0, 0.0, 0.0, 1),
            Lighting::Studio => (STUDIO_HEADLIGHT, STUDIO_KEY_LIGHT, STUDIO_AMBIENT, 0),
        };
        let key_direction = (backward * 0.6 + camera.up() * 0.65 - camera.right() * 0.45).normalize_or_zero();
        GpuFrame {
            clip_from_world: camera.clip_from_world(aspect).to_cols_array(),
            camera_position: camera.position().extend(1.0).to_array(),
            headlight: backward.extend(headlight).to_array(),
            key_light: key_direction.extend(key).to_array(),
            ambient: [ambient, ambient, ambient, 0.0],
            light_count: [0; 4],
            model: [standard, 0, 0, 0],
            lights: [<GpuLight as bytemuck::Zeroable>::zeroed(); MAX_SCENE_LIGHTS],
        }
    }

    /// [`Self::from_camera`] with the file's lighting: its light nodes (the first
    /// [`MAX_SCENE_LIGHTS`]), NavigationInfo `headlight='false'`, and (standard model) the texture rule of
    /// its version. In the studio look, with the headlight off the key light goes too when the file has
    /// lights of its own; a file with no light at all keeps it, so that its figures stay visible.
    pub fn lit(camera: &Camera, aspect: f32, settings: &crate::hanim::SceneSettings, lighting: Lighting) -> GpuFrame {
        let mut frame = Self::from_camera(camera, aspect, lighting);
        if !settings.headlight {
            frame.headlight[3] = 0.0;
            if !settings.lights.is_empty() {
                frame.key_light[3] = 0.0;
            }
        }
        if lighting == Lighting::Standard {
            frame.model[1] = u32::from(settings.texture_times_diffuse);
        }
        // The lights that reach the whole scene; scoped ones are each draw's (`MeshDraw::set_scoped_lights`).
        let whole_scene = settings.lights.iter().filter(|l| l.scope.is_none());
        let count = whole_scene.clone().count().min(MAX_SCENE_LIGHTS);
        for (slot, light) in frame.lights.iter_mut().zip(whole_scene) {
            *slot = GpuLight::from_scene(light, lighting == Lighting::Standard);
        }
        frame.light_count[0] = count as u32;
        frame
    }
}

/// Studio look: a headlight slightly below X3D's 1, leaving room for the key light.
const STUDIO_HEADLIGHT: f32 = 0.75;
/// Studio look: a soft key light, so that surfaces facing the viewer are not uniformly flat.
const STUDIO_KEY_LIGHT: f32 = 0.35;
/// Studio look: ambient light, multiplied by each material's ambientIntensity (X3D default 0.2).
const STUDIO_AMBIENT: f32 = 1.0;
