//! GPU deformation: the context, the `Gpu*` data layout, the skin/morph compute pass and read-back.
//! Nothing upstream (`x3d`, `hanim`, `pose`) depends on this module.

pub mod agreement;
pub mod background;
pub mod context;
pub mod error;
pub mod layout;
pub mod lighting;
pub mod overlay;
pub mod readback;
pub mod render_pass;
pub mod scene_draw;
pub mod scene_renderer;
pub mod shaders;
pub mod skin_pass;
pub mod target;
pub mod textures;

pub use context::{AdapterSummary, GpuContext, SkinCapacity};
pub use error::GpuError;
pub use skin_pass::{GpuSkin, SkinCorners, SkinPipelines, dispatch_grid};
