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
pub mod gltf;
pub mod gpu;
pub mod hanim;
pub mod input;
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

/// The git commit this binary was built from (`git rev-parse --short HEAD` when it was built, by
/// `build.rs`), or `unknown` when built outside a git checkout or without git.
pub const GIT_COMMIT: &str = env!("HANIM_GIT_COMMIT");

/// What `--version` prints after the program's name: the package version and the commit.
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("HANIM_GIT_COMMIT"), ")");
