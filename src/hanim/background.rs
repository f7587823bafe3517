//! The scene's Background or TextureBackground as a dome of colours (X3D 4.0, 24.2.1 "Backgrounds" and
//! 24.4.1 Background; VRML97 6.5): sky colours at angles from the zenith, ground colours at angles from
//! the nadir, linearly interpolated between the angles, the ground drawn over the sky. The dome is at
//! infinity and turns with the viewer only. The shader `shaders/background.wgsl` evaluates the same rule
//! per pixel; [`Background::color_towards`] is its CPU statement (tests compare against it).

use glam::Vec3;

use crate::x3d::{NodeId, Scene, X3dError, fields};

/// Sky and ground colours with their angles, as written (sRGB) and made consistent: one more colour
/// than angles in each table (extra values of the longer list are dropped, as the standard requires
/// "one more skyColor value than there are skyAngle values").
#[derive(Debug, Clone, PartialEq)]
pub struct Background {
    /// At least one colour: the first is the zenith's.
    pub sky_colors: Vec<[f32; 3]>,
    /// Radians from the zenith, non-decreasing, `sky_colors.len() - 1` of them.
    pub sky_angles: Vec<f32>,
    /// The first is the nadir's; empty: no ground.
    pub ground_colors: Vec<[f32; 3]>,
    /// Radians from the nadir, `ground_colors.len() - 1` of them (or none with no ground).
    pub ground_angles: Vec<f32>,
}

impl Background {
    /// A background of one colour (the viewer's own when the file has none).
    pub fn uniform(color: [f32; 3]) -> Self {
        Self { sky_colors: vec![color], sky_angles: Vec::new(), ground_colors: Vec::new(), ground_angles: Vec::new() }
    }

    /// Whether every direction shows the zenith's colour: one sky colour and no ground drawn (a ground
    /// needs an angle and two colours). Such a dome is the pass's clear colour; nothing need be drawn.
    pub fn is_uniform(&self) -> bool {
        self.sky_colors.len() <= 1 && (self.ground_angles.is_empty() || self.ground_colors.len() <= 1)
    }

    /// Reads a Background or TextureBackground node's colour fields (their defaults: a black sky, no
    /// ground). The textures of a TextureBackground and the six urls of a Background are not drawn.
    pub fn read(scene: &Scene, id: NodeId) -> Result<Self, X3dError> {
        let mf_float = |name: &str| -> Result<Vec<f32>, X3dError> {
            Ok(scene.parse_field(id, name, fields::parse_mf_float)?.unwrap_or_default())
        };
        let mf_color = |name: &str| -> Result<Vec<[f32; 3]>, X3dError> {
            Ok(scene.parse_field(id, name, fields::parse_mf_color)?.unwrap_or_default())
        };
        let mut sky_colors = scene.parse_field(id, "skyColor", fields::parse_mf_color)?.unwrap_or(vec![[0.0; 3]]);
        if sky_colors.is_empty() {
            sky_colors.push([0.0; 3]);
        }
        let (sky_colors, sky_angles) = consistent(sky_colors, mf_float("skyAngle")?, std::f32::consts::PI);
        let ground_colors = mf_color("groundColor")?;
        let (ground_colors, ground_angles) = if ground_colors.is_empty() {
            (Vec::new(), Vec::new())
        } else {
            consistent(ground_colors, mf_float("groundAngle")?, std::f32::consts::FRAC_PI_2)
        };
        Ok(Self { sky_colors, sky_angles, ground_colors, ground_angles })
    }

    /// The colour seen looking along `direction` (world space, Y up), sRGB.
    pub fn color_towards(&self, direction: Vec3) -> [f32; 3] {
        let d = direction.normalize_or_zero();
        let from_zenith = d.y.clamp(-1.0, 1.0).acos();
        let from_nadir = std::f32::consts::PI - from_zenith;
        // 24.2.1: "If the last groundAngle is less than π/2, the region between the last groundAngle
        // and the equator is invisible": the ground covers only up to its last angle, so a groundColor
        // without any groundAngle draws nothing.
        if let Some(&last) = self.ground_angles.last()
            && from_nadir <= last
        {
            return interpolate(&self.ground_colors, &self.ground_angles, from_nadir);
        }
        interpolate(&self.sky_colors, &self.sky_angles, from_zenith)
    }

    /// The zenith colour (what a one-colour clear would use).
    pub fn zenith(&self) -> [f32; 3] {
        self.sky_colors[0]
    }
}

/// Colours and angles with one more colour than angles, angles clamped to `[0, max]` and made
/// non-decreasing (a decreasing value is raised to its predecessor).
fn consistent(mut colors: Vec<[f32; 3]>, mut angles: Vec<f32>, max: f32) -> (Vec<[f32; 3]>, Vec<f32>) {
    let n = colors.len().min(angles.len() + 1);
    colors.truncate(n);
    angles.truncate(n - 1);
    let mut previous = 0.0f32;
    for a in &mut angles {
        let value = if a.is_finite() { a.clamp(0.0, max) } else { max };
        *a = value.max(previous);
        previous = *a;
    }
    (colors, angles)
}

/// Linear interpolation of `colors[0]` at angle 0, `colors[i + 1]` at `angles[i]`; the last colour
/// beyond the last angle (24.2.1: "the colour band between the last skyAngle and the nadir is clamped to
/// the last skyColor").
fn interpolate(colors: &[[f32; 3]], angles: &[f32], angle: f32) -> [f32; 3] {
    let mut below = (0.0f32, colors[0]);
    for (i, &a) in angles.iter().enumerate() {
        let above = colors[i + 1];
        if angle <= a {
            let span = a - below.0;
            let t = if span > 0.0 { ((angle - below.0) / span).clamp(0.0, 1.0) } else { 1.0 };
            return std::array::from_fn(|c| below.1[c] + (above[c] - below.1[c]) * t);
        }
        below = (a, above);
    }
    below.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_one_colour_without_a_drawn_ground_is_uniform() {
        assert!(Background::uniform([0.1, 0.2, 0.3]).is_uniform());
        assert!(!dome().is_uniform());
        let mut one_sky_with_ground = Background::uniform([0.0; 3]);
        one_sky_with_ground.ground_colors = vec![[0.1; 3], [0.2; 3]];
        one_sky_with_ground.ground_angles = vec![1.0];
        assert!(!one_sky_with_ground.is_uniform());
        // A ground colour without an angle covers nothing (X3D 24.2.1).
        one_sky_with_ground.ground_angles.clear();
        assert!(one_sky_with_ground.is_uniform());
    }

    fn dome() -> Background {
        Background {
            sky_colors: vec![[0.0, 0.0, 1.0], [1.0, 1.0, 1.0]],
            sky_angles: vec![1.5],
            ground_colors: vec![[0.2, 0.1, 0.0], [0.4, 0.3, 0.0]],
            ground_angles: vec![1.0],
        }
    }

    #[test]
    fn sky_interpolates_from_the_zenith_and_clamps_after_the_last_angle() {
        let b = dome();
        assert_eq!(b.color_towards(Vec3::Y), [0.0, 0.0, 1.0]);
        let halfway = Vec3::new(0.75f32.sin(), 0.75f32.cos(), 0.0);
        let c = b.color_towards(halfway);
        assert!((c[0] - 0.5).abs() < 1e-4 && (c[2] - 1.0).abs() < 1e-4, "{c:?}");
        // Between 1.5 rad and the ground's edge (π − 1): the last sky colour.
        assert_eq!(b.color_towards(Vec3::new(1.0, -0.1, 0.0)), [1.0, 1.0, 1.0]);
    }

    #[test]
    fn ground_covers_only_up_to_its_last_angle() {
        let b = dome();
        assert_eq!(b.color_towards(-Vec3::Y), [0.2, 0.1, 0.0]);
        let c = b.color_towards(Vec3::new(0.5f32.sin(), -0.5f32.cos(), 0.0));
        assert!((c[0] - 0.3).abs() < 1e-4 && (c[1] - 0.2).abs() < 1e-4, "{c:?}");
        let no_angles = Background { ground_colors: vec![[1.0, 0.0, 0.0]], ..Background::uniform([0.0; 3]) };
        assert_eq!(no_angles.color_towards(-Vec3::Y), [0.0; 3]);
    }

    #[test]
    fn tables_are_made_consistent() {
        let (c, a) = consistent(vec![[0.0; 3], [1.0; 3], [0.5; 3]], vec![1.0], 3.0);
        assert_eq!((c.len(), a), (2, vec![1.0]));
        let (c, a) = consistent(vec![[0.0; 3], [1.0; 3]], vec![2.0, 1.0, 0.5], 1.5);
        assert_eq!((c.len(), a), (2, vec![1.5]));
    }
}
