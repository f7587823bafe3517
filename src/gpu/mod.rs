//! Everything on the GPU: the device (`GpuContext`), the byte structs beside their WGSL (`layout`), the
//! skin/morph compute pass and its read-back, mesh pipelines and draws, a document's draws
//! (`scene_draw`), the one scene renderer both the window and headless rendering use
//! (`scene_renderer`), overlay lines, render targets, texture upload and lighting. Nothing upstream
//! (`x3d`, `hanim`, `pose`, `views`, `mesh`) depends on this module.

pub mod agreement;
pub mod appearance_events;
pub mod background;
pub mod context;
pub mod error;
pub mod geometry_events;
pub mod layout;
pub mod lighting;
pub mod material_bindings;
pub mod mesh_draw;
pub mod overlay;
pub mod readback;
pub mod render_pass;
pub mod scene_draw;
pub mod scene_renderer;
pub mod scoped_lights;
pub mod shaders;
pub mod skin_data;
pub mod skin_pass;
pub mod target;
pub mod textures;
pub mod timing;

pub use context::{AdapterSummary, GpuContext, SkinCapacity};
pub use error::GpuError;
pub use skin_pass::{GpuSkin, SkinCorners, SkinPipelines, dispatch_grid};
