//! What the frame benchmarks share: JoeKick (skin + material) set up as the viewer draws it, into a
//! 1280x720 offscreen target with the headless formats (4× MSAA), framed from the front.

use std::path::Path;

use hanim_viewer::gpu::render_pass::{self, FrameUniform, GpuFrame, HumanoidRenderer, MeshDraw};
use hanim_viewer::gpu::target::{RenderTarget, TargetFormats};
use hanim_viewer::gpu::{GpuContext, GpuSkin, SkinCorners};
use hanim_viewer::hanim::{self, Document, Humanoid};
use hanim_viewer::pose::Pose;
use hanim_viewer::views::Camera;

pub fn corpus_x3d(name: &str) -> Document {
    hanim::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/x3d").join(name)).unwrap()
}

/// JoeKick's skin pass, render pass and target.
pub struct JoeKickFrame {
    pub doc: Document,
    skin: GpuSkin,
    renderer: HumanoidRenderer,
    target: RenderTarget,
    frame: FrameUniform,
    draw: MeshDraw,
    camera: Camera,
}

impl JoeKickFrame {
    pub fn new(ctx: &GpuContext) -> JoeKickFrame {
        let doc = corpus_x3d("JoeKick.x3d");
        let jh = &doc.humanoids[0];
        let mesh = hanim_viewer::mesh::skin_mesh_from_humanoid(&doc.scene, jh).unwrap();
        let (source, normals) = mesh.concatenated_corners();
        let skin = GpuSkin::new(ctx, jh, SkinCorners { source_point: &source, normals: &normals }).unwrap();
        let renderer = HumanoidRenderer::new(&ctx.device, TargetFormats::HEADLESS).unwrap();
        let target = RenderTarget::new(ctx, 1280, 720, TargetFormats::HEADLESS).unwrap();
        let frame = renderer.create_frame(&ctx.device);
        let bounds = hanim_viewer::pose::bounds::humanoid_bounds(&doc.scene, jh, &Pose::rest(jh)).unwrap();
        let aspect = 1280.0 / 720.0;
        let camera =
            hanim_viewer::views::framed_camera(&bounds, glam::Quat::IDENTITY, std::f32::consts::FRAC_PI_4, aspect);
        frame.write(&ctx.queue, &GpuFrame::from_camera(&camera, aspect));
        let textures = hanim_viewer::gpu::textures::TextureCache::new(&ctx.device, &ctx.queue);
        let rest = &jh.skin.as_ref().expect("a skin").points;
        let draw = renderer.create_mesh(&ctx.device, &mesh, &skin, rest, &textures).unwrap();
        draw.set_world_from_humanoid(&ctx.queue, jh.world_from_humanoid());
        JoeKickFrame { doc, skin, renderer, target, frame, draw, camera }
    }

    pub fn humanoid(&self) -> &Humanoid {
        &self.doc.humanoids[0]
    }

    /// One frame at `pose`: joint matrix uploads, the skin dispatch and the render pass, waiting for the
    /// GPU to finish (no read-back, no present).
    pub fn draw(&self, ctx: &GpuContext, pose: &Pose) {
        self.skin.update(&ctx.queue, self.humanoid(), pose);
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        self.skin.encode(&mut encoder);
        {
            let mut pass = render_pass::begin_scene_pass(&mut encoder, self.target.views(), wgpu::Color::BLACK);
            self.renderer.draw(&mut pass, &self.frame, &[&self.draw], self.camera.position());
        }
        ctx.queue.submit([encoder.finish()]);
        ctx.device.poll(wgpu::PollType::Wait { submission_index: None, timeout: None }).unwrap();
    }
}
