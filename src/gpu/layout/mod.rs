//! Every struct whose bytes reach the GPU, one module per shader it mirrors: [`skin_morph`]
//! (`shaders/skin_morph.wgsl`), [`humanoid`] (`shaders/humanoid.wgsl`), [`lines`] (`shaders/lines.wgsl`)
//! and [`background`] (`shaders/background.wgsl`).
//! Each asserts its sizes at compile time and checks sizes and member offsets against the WGSL with naga.

pub mod background;
pub mod humanoid;
pub mod lines;
pub mod skin_morph;

pub use skin_morph::*;
