//! The vertex of `shaders/lines.wgsl` (the overlay's lines); its `Frame` is the humanoid pass's
//! [`GpuFrame`](super::humanoid::GpuFrame).

use bytemuck::{Pod, Zeroable};

/// One line vertex (`LineIn` in `lines.wgsl`): world position and linear RGBA.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable, PartialEq)]
pub struct GpuLineVertex {
    pub position: [f32; 3],
    pub color: [f32; 4],
}
const _: () = assert!(size_of::<GpuLineVertex>() == 28);
