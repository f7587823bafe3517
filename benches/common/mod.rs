//! What the frame benchmarks share: JoeKick drawn as the window and headless rendering draw it — its
//! document's draws ([`SceneDraw`]) through the shared [`SceneRenderer`] — into a 1280x720 offscreen
//! target with the headless formats (4× MSAA), framed from the front.

#![allow(dead_code)] // each benchmark uses its own subset

use std::path::{Path, PathBuf};

use hanim_viewer::gpu::GpuContext;
use hanim_viewer::gpu::lighting::Lighting;
use hanim_viewer::gpu::overlay::OverlayLines;
use hanim_viewer::gpu::scene_draw::SceneDraw;
use hanim_viewer::gpu::scene_renderer::{FrameInputs, SceneRenderer};
use hanim_viewer::gpu::target::{RenderTarget, TargetFormats};
use hanim_viewer::hanim::{self, Background, Document, Humanoid};
use hanim_viewer::pose::Pose;
use hanim_viewer::pose::skin_inspection::OverlayMode;
use hanim_viewer::views::Camera;

/// A corpus file, looked up as the tests do (`tests/common/mod.rs`): the repository's `tests/corpus/`, then
/// `$HANIM_CORPUS`, then `../shared/corpus`. Every file the benchmarks read is in `tests/corpus/`.
pub fn corpus(relative: &str) -> PathBuf {
    let project = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut roots = vec![project.join("tests/corpus")];
    if let Some(dir) = std::env::var_os("HANIM_CORPUS").filter(|d| !d.is_empty()) {
        roots.push(PathBuf::from(dir));
    }
    roots.push(project.join("../shared/corpus"));
    roots
        .iter()
        .map(|root| root.join(relative))
        .find(|p| p.exists())
        .unwrap_or_else(|| panic!("corpus file {relative} not found in {roots:?}"))
}

pub fn corpus_x3d(name: &str) -> Document {
    hanim::load(&corpus(&format!("x3d/{name}"))).unwrap()
}

/// JoeKick's draws, the scene renderer and the target.
pub struct JoeKickFrame {
    pub doc: Document,
    scene: SceneDraw,
    renderer: SceneRenderer,
    target: RenderTarget,
    camera: Camera,
}

impl JoeKickFrame {
    pub fn new(ctx: &GpuContext) -> JoeKickFrame {
        let doc = corpus_x3d("JoeKick.x3d");
        let rest: Vec<Pose> = doc.humanoids.iter().map(Pose::rest).collect();
        let renderer = SceneRenderer::new(ctx, TargetFormats::HEADLESS).unwrap();
        let scene = SceneDraw::new(ctx, renderer.mesh_pipelines(), &doc, &rest).unwrap();
        let target = RenderTarget::new(ctx, 1280, 720, TargetFormats::HEADLESS).unwrap();
        let jh = &doc.humanoids[0];
        let bounds = hanim_viewer::pose::bounds::humanoid_bounds(&doc.scene, jh, &rest[0]).unwrap();
        let camera = hanim_viewer::views::framed_camera(
            &bounds,
            glam::Quat::IDENTITY,
            std::f32::consts::FRAC_PI_4,
            1280.0 / 720.0,
        );
        JoeKickFrame { doc, scene, renderer, target, camera }
    }

    pub fn humanoid(&self) -> &Humanoid {
        &self.doc.humanoids[0]
    }

    /// One frame at `pose`: joint matrix uploads, the skin dispatch and the render pass, waiting for the
    /// GPU to finish (no read-back, no present).
    pub fn draw(&mut self, ctx: &GpuContext, pose: &Pose) {
        self.scene.update_humanoid(&ctx.queue, hanim_viewer::hanim::HumanoidIndex::FIRST, &self.doc.humanoids[0], pose);
        let draws = self.scene.humanoid_draws();
        let lines = OverlayLines::default();
        let inputs = FrameInputs {
            camera: &self.camera,
            aspect: 1280.0 / 720.0,
            settings: None,
            lighting: Lighting::Standard,
            background: &Background::uniform([0.0; 3]),
            draws: &draws,
            lines: &lines,
            overlay: OverlayMode::Off,
            timer: None,
            transparent: false,
        };
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        self.renderer.encode(ctx, &mut encoder, self.target.views(), Some(&self.scene), &inputs);
        ctx.queue.submit([encoder.finish()]);
        ctx.device.poll(wgpu::PollType::Wait { submission_index: None, timeout: None }).unwrap();
    }
}
