//! Drawing documents' draws into an offscreen picture, for tests that compare ways of drawing the same
//! scene (instanced copies, twins, merged rigid shapes) pixel for pixel.

use glam::Quat;
use hanim_viewer::gpu::GpuContext;
use hanim_viewer::gpu::lighting::Lighting;
use hanim_viewer::gpu::overlay::OverlayLines;
use hanim_viewer::gpu::render_pass::MeshDraw;
use hanim_viewer::gpu::scene_draw::SceneDraw;
use hanim_viewer::gpu::scene_renderer::{FrameInputs, SceneRenderer};
use hanim_viewer::gpu::target::RenderTarget;
use hanim_viewer::hanim::{Background, Document};
use hanim_viewer::pose::bounds::Aabb;
use hanim_viewer::pose::skin_inspection::OverlayMode;
use hanim_viewer::views;

/// RGBA8 pixels of `scenes` (their skin passes, then every draw) at `width`x`height`, framing `bounds`
/// from a little to the side, on a dark grey background.
pub fn render_scenes(
    ctx: &GpuContext,
    renderer: &mut SceneRenderer,
    doc: &Document,
    scenes: &[SceneDraw],
    bounds: &Aabb,
    (width, height): (u32, u32),
) -> Vec<u8> {
    let target = RenderTarget::new(ctx, width, height, renderer.formats()).unwrap();
    let aspect = width as f32 / height as f32;
    let camera = views::framed_camera(bounds, Quat::from_rotation_y(0.3), views::DEFAULT_FIELD_OF_VIEW, aspect);
    let background = Background::uniform([0.1, 0.1, 0.1]);
    let draws: Vec<&MeshDraw> = scenes.iter().flat_map(SceneDraw::draws).collect();
    let lines = OverlayLines::default();
    let inputs = FrameInputs {
        camera: &camera,
        aspect,
        settings: Some(&doc.settings),
        lighting: Lighting::Standard,
        background: &background,
        draws: &draws,
        lines: &lines,
        overlay: OverlayMode::Off,
        timer: None,
        transparent: false,
    };
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    for scene in scenes {
        SceneRenderer::encode_skin(&mut encoder, Some(scene), None);
    }
    renderer.encode_scene_pass(ctx, &mut encoder, target.views(), &inputs);
    ctx.queue.submit([encoder.finish()]);
    target.read_rgba8(ctx).unwrap()
}
