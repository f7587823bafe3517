//! The one assembly of the scene's passes, shared by the window, screenshots, offscreen rendering and
//! benches. As in re_renderer, what lives long is kept apart from what changes each frame:
//! [`SceneRenderer`] holds the pipelines (meshes and overlay lines, for one [`TargetFormats`]) and the
//! per-view uniform and line buffers it rewrites; everything that changes per frame — camera, lights,
//! background, which draws, overlay lines — comes in a [`FrameInputs`] and is passed, not stored.
//! A document's own GPU data (skins, meshes, textures) is its [`SceneDraw`], posed by the caller before
//! [`SceneRenderer::encode`].

use super::GpuContext;
use super::background::DomeRenderer;
use super::error::GpuError;
use super::layout::humanoid::{GpuFrame, linear_from_srgb};
use super::lighting::Lighting;
use super::overlay::{OverlayBuffers, OverlayLines, OverlayRenderer};
use super::render_pass::{DrawLook, FrameUniform, HumanoidRenderer, MeshDraw, begin_scene_pass};
use super::scene_draw::SceneDraw;
use super::target::{FrameViews, TargetFormats};
use super::timing::{self, GpuTimer};
use crate::hanim::{Background, SceneSettings};
use crate::pose::skin_inspection::OverlayMode;
use crate::views::Camera;

/// What one frame draws, as the caller decided it this frame.
pub struct FrameInputs<'a> {
    pub camera: &'a Camera,
    /// Width / height of the target.
    pub aspect: f32,
    /// The file's lights, headlight choice and version; `None`: the viewer's own lights only.
    pub settings: Option<&'a SceneSettings>,
    /// Which lighting model ([`Lighting::Standard`] unless the user chose the studio look).
    pub lighting: Lighting,
    /// The dome drawn behind the scene: the file's Background, else one colour
    /// ([`Lighting::default_background`]).
    pub background: &'a Background,
    /// The meshes to draw ([`SceneDraw::draws`] or a selection of them).
    pub draws: &'a [&'a MeshDraw],
    pub lines: &'a OverlayLines,
    /// The skin overlay drawn instead of the materials (its values written into the draws by
    /// [`SceneDraw::set_overlay`]).
    pub overlay: OverlayMode,
    /// Timestamps at the frame's marks ([`timing::MARK_START`] … [`timing::MARK_SCENE_DRAWN`]), where
    /// the adapter writes them (`bench`, the window's statistics).
    pub timer: Option<&'a GpuTimer>,
    /// The background left transparent (alpha 0, no dome): a screenshot to lay over something else.
    pub transparent: bool,
}

/// The long-lived part of drawing a scene on one device, for one set of target formats.
pub struct SceneRenderer {
    meshes: HumanoidRenderer,
    overlay: OverlayRenderer,
    dome: DomeRenderer,
    frame: FrameUniform,
    overlay_buffers: OverlayBuffers,
}

impl SceneRenderer {
    pub fn new(ctx: &GpuContext, formats: TargetFormats) -> Result<Self, GpuError> {
        let meshes = HumanoidRenderer::new(&ctx.device, formats)?;
        let overlay = OverlayRenderer::new(&ctx.device, formats, meshes.frame_layout())?;
        Ok(Self {
            dome: DomeRenderer::new(&ctx.device, formats)?,
            frame: meshes.create_frame(&ctx.device),
            overlay_buffers: OverlayBuffers::new(&ctx.device),
            meshes,
            overlay,
        })
    }

    /// The formats of the targets this renderer draws into.
    pub fn formats(&self) -> TargetFormats {
        self.meshes.formats
    }

    /// The mesh pipelines, which a document's [`SceneDraw`] is built against.
    pub fn mesh_pipelines(&self) -> &HumanoidRenderer {
        &self.meshes
    }

    /// Records `scene`'s skin/morph passes (its poses must already be written), then the scene pass into
    /// `views`: the background dome, the draws, the overlay lines.
    pub fn encode(
        &mut self,
        ctx: &GpuContext,
        encoder: &mut wgpu::CommandEncoder,
        views: FrameViews<'_>,
        scene: Option<&SceneDraw>,
        frame: &FrameInputs<'_>,
    ) {
        Self::encode_skin(encoder, scene, frame.timer);
        self.encode_scene_pass(ctx, encoder, views, frame);
    }

    /// Records `scene`'s skin/morph passes alone (the first half of [`Self::encode`]; `bench` submits the
    /// halves apart to time them on adapters without timestamps).
    pub fn encode_skin(encoder: &mut wgpu::CommandEncoder, scene: Option<&SceneDraw>, timer: Option<&GpuTimer>) {
        if let Some(timer) = timer {
            timer.mark(encoder, timing::MARK_START);
        }
        if let Some(scene) = scene {
            scene.encode(encoder);
        }
        if let Some(timer) = timer {
            timer.mark(encoder, timing::MARK_SKINNED);
        }
    }

    /// Records the scene pass into `views` (the second half of [`Self::encode`]).
    pub fn encode_scene_pass(
        &mut self,
        ctx: &GpuContext,
        encoder: &mut wgpu::CommandEncoder,
        views: FrameViews<'_>,
        frame: &FrameInputs<'_>,
    ) {
        let mut uniform = match frame.settings {
            Some(settings) => GpuFrame::lit(frame.camera, frame.aspect, settings, frame.lighting),
            None => GpuFrame::from_camera(frame.camera, frame.aspect, frame.lighting),
        };
        uniform.model[2] = frame.overlay.shader_code();
        self.frame.write(&ctx.queue, &uniform);
        self.dome.write(&ctx.queue, frame.background, frame.camera, frame.aspect);
        self.overlay_buffers.update(&ctx.device, &ctx.queue, frame.lines);
        let [r, g, b] = frame.background.zenith().map(|c| f64::from(linear_from_srgb(c)));
        {
            let clear = if frame.transparent { wgpu::Color::TRANSPARENT } else { wgpu::Color { r, g, b, a: 1.0 } };
            let mut pass = begin_scene_pass(encoder, views, clear);
            // A one-colour dome is the clear colour: drawing it would only shade every pixel again.
            if !frame.background.is_uniform() && !frame.transparent {
                self.dome.draw(&mut pass);
            }
            self.meshes.draw(&mut pass, &self.frame, frame.draws, frame.camera.position(), DrawLook::of(&uniform));
            self.overlay.draw(&mut pass, &self.frame, &self.overlay_buffers);
        }
        if let Some(timer) = frame.timer {
            timer.mark(encoder, timing::MARK_SCENE_DRAWN);
        }
    }
}
