//! Recovering from a lost GPU device: a new device from the same instance and every GPU resource built
//! again from what the CPU side keeps.

use anyhow::{Result, anyhow};

use super::Viewer;
use crate::gpu::GpuContext;
use crate::gpu::scene_renderer::SceneRenderer;

impl Viewer {
    /// After the device was lost (a driver reset, a removed GPU, or `lose-device` in a script): a new device
    /// from the same instance, and every GPU resource built again from what the CPU side keeps. The
    /// document, pose, transport, capture, camera and UI stay as they were. When no device can be had,
    /// the program ends with that error.
    pub(super) fn recover_device(&mut self, reason: &str) {
        log::error!("GPU device lost ({reason}); creating a new one");
        match self.rebuild_gpu() {
            Ok(()) => self.toast(format!(
                "The GPU device was lost ({reason}); the view was restored on {}",
                self.gpu.summary.name
            )),
            // Nothing can be drawn without a device, not even the error window: the program ends with it.
            Err(e) => {
                self.exit_failure =
                    Some(anyhow!("the GPU device was lost ({reason}) and a new one could not be created: {e:#}"))
            }
        }
    }

    fn rebuild_gpu(&mut self) -> Result<()> {
        let gpu = pollster::block_on(GpuContext::with_instance(
            self.gpu.instance.clone(),
            self.adapter_filter.as_deref(),
            Some(&self.surface.surface),
        ))?;
        self.surface.reconfigure_for(&gpu)?;
        let renderer = SceneRenderer::new(&gpu, super::view3d::formats_for(&gpu, &self.surface))?;
        if let Some(scene) = &mut self.scene {
            let rest: Vec<crate::pose::Pose> = scene.doc.humanoids.iter().map(crate::pose::Pose::rest).collect();
            scene.draws = crate::gpu::scene_draw::SceneDraw::new(&gpu, renderer.mesh_pipelines(), &scene.doc, &rest)?;
        }
        self.egui = self.egui.rebuilt(&self.surface.window, &gpu.device, self.surface.format());
        self.library.forget_scene();
        self.viewport = None;
        self.direct = super::view3d::direct_view(&self.surface);
        self.renderer = renderer;
        self.gpu = gpu;
        log::info!("window adapter after the device loss: {}", self.gpu.summary);
        Ok(())
    }
}
