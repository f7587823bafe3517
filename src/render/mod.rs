//! Drawing documents into images: the offscreen renderer ([`PosedRenderer`]) that the commands, tests and
//! benches share with the window's passes, what to render ([`SceneRequest`]) and what comes back
//! ([`RenderedImage`]), rendering a clip over time ([`render_times`]) and a turntable around a pose
//! ([`render_turntable`]).
//!
//! Below: `gpu` (passes, draws, targets), `views` (cameras and framing), `pose`, `animation`. Above: the
//! window (`app`) and `commands`.

mod as_file;
pub mod bench;
mod offscreen;
mod sequence;
mod turntable;

pub use as_file::render_as_file;
pub use offscreen::{
    DisplayOptions, DocumentDraw, ImageSize, LentRenderer, NEUTRAL_GREY, Offscreen, PoseRenderer, PosedRenderer,
    RenderedImage, SceneRequest, ViewRequest, camera_for, render_document, render_posed, scene_bounds,
};
pub use sequence::{render_times, render_times_with};
pub use turntable::{render_turntable, render_turntable_with, turntable_cameras};

use crate::gpu::GpuError;
use crate::gpu::scene_draw::SceneDrawError;
use crate::names::NotFound;
use crate::views::ViewError;
use crate::x3d::X3dError;

/// Why an image could not be rendered; each message says what it concerns (humanoid, view, name).
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error(transparent)]
    Gpu(#[from] GpuError),
    #[error(transparent)]
    Draw(#[from] SceneDrawError),
    #[error(transparent)]
    View(#[from] ViewError),
    #[error(transparent)]
    Name(#[from] NotFound),
    /// The scene's Shapes could not be placed at a time (a Transform field the events leave unreadable).
    #[error("placing the scene: {0}")]
    Placement(X3dError),
    #[error("bounds of humanoid '{humanoid}': {error}")]
    Bounds { humanoid: String, error: X3dError },
    /// A request that cannot be rendered (no humanoid, no frames).
    #[error("{0}")]
    Request(String),
}
