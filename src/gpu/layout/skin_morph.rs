//! Structs whose bytes reach the GPU, mirrored field for field by `shaders/skin_morph.wgsl`. Sizes are
//! asserted here at compile time, and a naga test compares sizes and member offsets with the WGSL.

use bytemuck::{Pod, Zeroable};

/// Invocations per compute workgroup; reaches the shader through its `WORKGROUP_SIZE` override.
pub const SKIN_WORKGROUP_SIZE: u32 = 64;

/// Counts for the kernels and the skin overlay's selected joint (`SkinParams` in WGSL).
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable, PartialEq)]
pub struct GpuSkinParams {
    pub point_count: u32,
    pub corner_count: u32,
    pub segment_point_count: u32,
    /// The joint whose weights `skin_overlay` reads ([`NO_OVERLAY_JOINT`]: none); rewritten when the
    /// selection changes.
    pub overlay_joint: u32,
    /// Copies of the humanoid skinned by one dispatch per kernel (1 for a single humanoid).
    pub instance_count: u32,
    /// Joint matrices per instance (the stride of `skin_matrices` and `normal_matrices`).
    pub joint_count: u32,
    /// Displacer frames per instance (the stride of `displacers`).
    pub displacer_count: u32,
    /// Pads the struct to 32 bytes (uniform structs are multiples of 16).
    pub _pad: u32,
}

/// [`GpuSkinParams::overlay_joint`] when no joint is selected.
pub const NO_OVERLAY_JOINT: u32 = u32::MAX;
const _: () = assert!(size_of::<GpuSkinParams>() == 32);

/// One joint influence of a point (`Influence`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable, PartialEq)]
pub struct GpuInfluence {
    pub joint: u32,
    pub weight: f32,
}
const _: () = assert!(size_of::<GpuInfluence>() == 8);

/// One displacement of a point (`Displacement`): `vec3<f32>` then the displacer index in its fourth lane.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable, PartialEq)]
pub struct GpuDisplacement {
    pub delta: [f32; 3],
    pub displacer: u32,
}
const _: () = assert!(size_of::<GpuDisplacement>() == 16);

/// Per-frame state of one displacer (`DisplacerFrame`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable, PartialEq)]
pub struct GpuDisplacerFrame {
    pub weight: f32,
    /// Joint whose `M_j` rotates the displacement; `u32::MAX` for segment displacers.
    pub owner_joint: u32,
}
const _: () = assert!(size_of::<GpuDisplacerFrame>() == 8);

/// `N_j` as three `vec4` columns (`NormalMatrix`); a `mat3x3` would have the same padding but this keeps
/// the layout explicit.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable, PartialEq)]
pub struct GpuNormalMatrix {
    pub columns: [[f32; 4]; 3],
}
const _: () = assert!(size_of::<GpuNormalMatrix>() == 48);

/// A render corner (`Corner`): its binding normal and the skin point it draws.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable, PartialEq)]
pub struct GpuCorner {
    pub normal: [f32; 3],
    pub source_point: u32,
}
const _: () = assert!(size_of::<GpuCorner>() == 16);

/// Skinned and rest points are `vec4<f32>` (xyz, 1): a `vec3` array would have a 16-byte stride anyway.
pub type GpuPoint = [f32; 4];
