//! The background dome's uniform (`Dome` in `shaders/background.wgsl`), mirrored field for field; its
//! size is asserted at compile time and a naga test compares size and member offsets with the WGSL.

use bytemuck::{Pod, Zeroable};

/// How many colours of each table (sky, ground) the dome shader reads; the rest are dropped.
pub const MAX_DOME_COLORS: usize = 16;

/// The Background of one frame: where each pixel looks, and the sky and ground tables (X3D 4.0, 24.2.1).
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable, PartialEq)]
pub struct GpuDome {
    /// Inverse of the camera's clip-from-world matrix: a pixel's view direction is the difference of its
    /// far and near points.
    pub world_from_clip: [f32; 16],
    /// x: sky colours used (≥ 1), y: ground colours used (0: no ground); zw unused.
    pub counts: [u32; 4],
    /// sRGB as written, w unused; colour i + 1 is at `sky_angles[i]` radians from the zenith.
    pub sky_colors: [[f32; 4]; MAX_DOME_COLORS],
    /// Angle `i` is `sky_angles[i / 4][i % 4]` (16 floats packed in vec4s for uniform layout).
    pub sky_angles: [[f32; 4]; MAX_DOME_COLORS / 4],
    /// sRGB as written; colour i + 1 is at `ground_angles[i]` radians from the nadir.
    pub ground_colors: [[f32; 4]; MAX_DOME_COLORS],
    pub ground_angles: [[f32; 4]; MAX_DOME_COLORS / 4],
}
const _: () = assert!(size_of::<GpuDome>() == 64 + 16 + 2 * (16 * MAX_DOME_COLORS + 4 * MAX_DOME_COLORS));

impl GpuDome {
    /// The uniform for `background` seen through `world_from_clip`.
    pub fn new(background: &crate::hanim::Background, world_from_clip: glam::Mat4) -> Self {
        let mut out = <Self as Zeroable>::zeroed();
        out.world_from_clip = world_from_clip.to_cols_array();
        let (sky, sky_n) = table(&background.sky_colors, &background.sky_angles);
        let (ground, ground_n) = if background.ground_angles.is_empty() {
            // No groundAngle: the ground covers nothing (24.2.1), so none is drawn.
            ((out.ground_colors, out.ground_angles), 0)
        } else {
            table(&background.ground_colors, &background.ground_angles)
        };
        (out.sky_colors, out.sky_angles) = sky;
        (out.ground_colors, out.ground_angles) = ground;
        out.counts = [sky_n.max(1), ground_n, 0, 0];
        out
    }
}

type Table = ([[f32; 4]; MAX_DOME_COLORS], [[f32; 4]; MAX_DOME_COLORS / 4]);

/// The first [`MAX_DOME_COLORS`] colours, their angles, and how many colours.
fn table(colors: &[[f32; 3]], angles: &[f32]) -> (Table, u32) {
    let mut c = [[0.0; 4]; MAX_DOME_COLORS];
    let mut a = [[0.0; 4]; MAX_DOME_COLORS / 4];
    let n = colors.len().min(MAX_DOME_COLORS);
    for (slot, color) in c.iter_mut().zip(colors.iter().take(n)) {
        *slot = [color[0], color[1], color[2], 1.0];
    }
    for (i, angle) in angles.iter().take(n.saturating_sub(1)).enumerate() {
        a[i / 4][i % 4] = *angle;
    }
    ((c, a), n as u32)
}

#[cfg(test)]
mod tests {
    use std::mem::offset_of;

    use super::*;

    #[test]
    fn dome_matches_the_wgsl_layout() {
        let source = crate::gpu::shaders::BACKGROUND;
        let module = naga::front::wgsl::parse_str(source).unwrap_or_else(|e| panic!("{}", e.emit_to_string(source)));
        let mut layouter = naga::proc::Layouter::default();
        layouter.update(module.to_ctx()).unwrap();
        let (span, members) = module
            .types
            .iter()
            .find_map(|(_, ty)| match &ty.inner {
                naga::TypeInner::Struct { members, span } if ty.name.as_deref() == Some("Dome") => Some((
                    *span as usize,
                    members.iter().map(|m| (m.name.clone().unwrap_or_default(), m.offset as usize)).collect::<Vec<_>>(),
                )),
                _ => None,
            })
            .expect("struct Dome");
        assert_eq!(span, size_of::<GpuDome>());
        let expected = [
            ("world_from_clip", offset_of!(GpuDome, world_from_clip)),
            ("counts", offset_of!(GpuDome, counts)),
            ("sky_colors", offset_of!(GpuDome, sky_colors)),
            ("sky_angles", offset_of!(GpuDome, sky_angles)),
            ("ground_colors", offset_of!(GpuDome, ground_colors)),
            ("ground_angles", offset_of!(GpuDome, ground_angles)),
        ];
        let members: Vec<(&str, usize)> = members.iter().map(|(n, o)| (n.as_str(), *o)).collect();
        assert_eq!(members, expected);
    }
}
