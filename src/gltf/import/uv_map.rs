//! `KHR_texture_transform` read as X3D. glTF maps a texture coordinate `uv` to `offset + R·(scale ⊙ uv)`,
//! `R` turning by `rotation` counter-clockwise in glTF's image space, whose v runs down. In X3D's
//! coordinates `(s, t) = (u, 1 − v)` that is `p' = b + R_θ·S·p`, `R_θ` X3D's counter-clockwise turn by the
//! same angle and `b = (o_u + sin θ·s_v, 1 − o_v − cos θ·s_v)`. A TextureTransform with its centre at the
//! origin gives `S·R_θ·(p + T)`: the same map whenever `S` and `R_θ` commute (no rotation, or equal
//! scales), with `T = (R_θ·S)⁻¹·b`. Any other map (a rotation with unequal scales) is applied to the
//! texture coordinates themselves.

use glam::{Affine2, Mat2, Vec2};

/// One texture's transform, as the glTF extension gives it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct UvMap {
    pub offset: Vec2,
    pub rotation: f32,
    pub scale: Vec2,
}

/// The fields of the TextureTransform that draws a [`UvMap`] (its centre is the origin).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct TextureTransformFields {
    pub translation: Vec2,
    pub rotation: f32,
    pub scale: Vec2,
}

impl UvMap {
    /// The transform of a texture reference, if it has one other than the identity.
    pub fn of(info: &gltf::texture::Info) -> Option<UvMap> {
        let t = info.texture_transform()?;
        let map = UvMap { offset: Vec2::from(t.offset()), rotation: t.rotation(), scale: Vec2::from(t.scale()) };
        (map != UvMap { offset: Vec2::ZERO, rotation: 0.0, scale: Vec2::ONE }).then_some(map)
    }

    /// The map on X3D texture coordinates.
    pub fn on_x3d_coordinates(&self) -> Affine2 {
        let (sin, cos) = self.rotation.sin_cos();
        let b = Vec2::new(self.offset.x + sin * self.scale.y, 1.0 - self.offset.y - cos * self.scale.y);
        Affine2::from_mat2_translation(Mat2::from_angle(self.rotation) * Mat2::from_diagonal(self.scale), b)
    }

    /// The TextureTransform that draws this map, where one can (see the module's note).
    pub fn texture_transform(&self) -> Option<TextureTransformFields> {
        let largest = self.scale.abs().max_element();
        let commute = self.rotation == 0.0 || (self.scale.x - self.scale.y).abs() <= 1e-6 * largest;
        let linear = Mat2::from_angle(self.rotation) * Mat2::from_diagonal(self.scale);
        if !commute || linear.determinant().abs() < 1e-12 {
            return None;
        }
        let translation = linear.inverse() * self.on_x3d_coordinates().translation;
        Some(TextureTransformFields { translation, rotation: self.rotation, scale: self.scale })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// X3D's `S·R·(p + T)` with the centre at the origin (`crate::mesh` reads it in the same order).
    fn x3d(f: TextureTransformFields, p: Vec2) -> Vec2 {
        Mat2::from_diagonal(f.scale) * (Mat2::from_angle(f.rotation) * (p + f.translation))
    }

    /// glTF's map on `(u, v)`, v down: `offset + R·(scale ⊙ uv)`, R = [[cos, sin], [−sin, cos]].
    fn gltf(m: UvMap, uv: Vec2) -> Vec2 {
        let (sin, cos) = m.rotation.sin_cos();
        let s = uv * m.scale;
        m.offset + Vec2::new(cos * s.x + sin * s.y, -sin * s.x + cos * s.y)
    }

    #[test]
    fn the_extension_s_example_picks_the_lower_left_quadrant() {
        // KHR_texture_transform's README: offset (0, 1), rotation 90°, scale 0.5 "utilizes only the lower
        // left quadrant of the source image": u in [0, 0.5], v in [0.5, 1] (v runs down).
        let m = UvMap { offset: Vec2::new(0.0, 1.0), rotation: std::f32::consts::FRAC_PI_2, scale: Vec2::splat(0.5) };
        for uv in [Vec2::ZERO, Vec2::X, Vec2::Y, Vec2::ONE] {
            let out = gltf(m, uv);
            assert!((-1e-6..=0.5 + 1e-6).contains(&out.x) && (0.5 - 1e-6..=1.0 + 1e-6).contains(&out.y), "{out}");
        }
    }

    #[test]
    fn the_texture_transform_draws_what_gltf_draws() {
        let maps = [
            UvMap { offset: Vec2::new(0.25, -0.5), rotation: 0.0, scale: Vec2::new(2.0, 0.5) },
            UvMap { offset: Vec2::new(0.1, 0.7), rotation: 0.6, scale: Vec2::splat(1.5) },
            UvMap { offset: Vec2::new(0.0, 1.0), rotation: std::f32::consts::FRAC_PI_2, scale: Vec2::splat(0.5) },
        ];
        for m in maps {
            let fields = m.texture_transform().expect("representable");
            for uv in [Vec2::ZERO, Vec2::new(0.3, 0.9), Vec2::new(1.0, 0.2)] {
                let want = gltf(m, uv);
                let st = Vec2::new(uv.x, 1.0 - uv.y);
                let got = x3d(fields, st);
                assert!(got.abs_diff_eq(Vec2::new(want.x, 1.0 - want.y), 1e-5), "{m:?} at {uv}: {got} vs {want}");
                assert!(m.on_x3d_coordinates().transform_point2(st).abs_diff_eq(got, 1e-5));
            }
        }
    }

    #[test]
    fn a_rotation_with_unequal_scales_is_no_texture_transform() {
        let m = UvMap { offset: Vec2::ZERO, rotation: 0.4, scale: Vec2::new(1.0, 2.0) };
        assert!(m.texture_transform().is_none());
        let uv = Vec2::new(0.3, 0.6);
        let want = gltf(m, uv);
        let got = m.on_x3d_coordinates().transform_point2(Vec2::new(uv.x, 1.0 - uv.y));
        assert!(got.abs_diff_eq(Vec2::new(want.x, 1.0 - want.y), 1e-5));
    }
}
