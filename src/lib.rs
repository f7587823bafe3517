//! hanim-viewer: a desktop viewer for X3D H-Anim humanoids.
//!
//! Data flows one way: [`x3d`] (file → generic node tree) → [`hanim`] (validated humanoid model) →
//! [`pose`] (CPU reference deformation, the oracle for the GPU path) → GPU → app. [`inspect`] and
//! [`cli`] report on a loaded document.

pub mod animation;
pub mod app;
pub mod cli;
pub mod gpu;
pub mod hanim;
pub mod headless;
pub mod inspect;
pub mod mesh;
pub mod mocap;
pub mod output;
pub mod pose;
pub mod ui;
pub mod views;
pub mod x3d;
