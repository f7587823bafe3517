//! H-Anim model: a validated humanoid built from an X3D scene.

pub mod background;
mod binding;
pub mod build;
pub mod influences;
pub mod light_scope;
pub mod model;
pub mod motion_rules;
pub mod twins;

pub use background::Background;
pub use build::{HanimError, build_document, count_channels, load, load_str, load_with_progress};
pub use light_scope::Ancestry;
pub use model::*;
pub use motion_rules::{MotionDefect, motion_defects};
