//! H-Anim model: a validated humanoid built from an X3D scene.

pub mod model;

pub use model::*;
