//! Drawing documents into images: the offscreen renderer ([`PosedRenderer`]) that the commands, tests and
//! benches share with the window's passes, what to render ([`SceneRequest`]) and what comes back
//! ([`RenderedImage`]), and rendering a clip over time ([`render_times`]).
//!
//! Below: `gpu` (passes, draws, targets), `views` (cameras and framing), `pose`, `animation`. Above: the
//! window (`app`) and `commands`.

mod offscreen;
mod sequence;

pub use offscreen::{
    DisplayOptions, DocumentDraw, ImageSize, NEUTRAL_GREY, Offscreen, PosedRenderer, RenderedImage, SceneRequest,
    ViewRequest, camera_for, render_document, render_posed, scene_bounds,
};
pub use sequence::render_times;
