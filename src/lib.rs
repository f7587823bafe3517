//! hanim-viewer: a desktop viewer for X3D H-Anim humanoids.
//!
//! Data flows one way: [`x3d`] (file → generic node tree) → [`hanim`] (validated humanoid model) →
//! [`pose`] (CPU reference deformation, the oracle for the GPU path) → [`gpu`] → [`render`] / [`app`]
//! (the window); [`commands`] sit on top, reached only from [`cli`]. ARCHITECTURE.md draws the layers.

pub mod animation;
pub mod app;
pub mod cli;
pub mod commands;
pub mod font;
pub mod gpu;
pub mod hanim;
pub mod inspect;
pub mod mesh;
pub mod mocap;
pub mod names;
pub mod output;
pub mod pose;
pub mod render;
pub mod ui;
pub mod views;
pub mod x3d;
