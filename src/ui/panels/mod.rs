//! One file per panel; each returns the commands its controls produced.

pub mod body_regions;
pub mod displacers;
pub mod joint_tree;
pub mod joints;
pub mod skin_inspection;
pub mod viewpoints;

pub use displacers::displacers_ui;
pub use joints::{joint_degrees, joints_ui};
pub use viewpoints::viewpoints_ui;
