//! The Background dome: a full-screen triangle drawn first in the scene pass, before every mesh, with no
//! depth test or write, so it is behind everything (X3D 4.0, 24.2.1: backgrounds are at infinity).
//! Shader: `shaders/background.wgsl`; its uniform is [`GpuDome`].

use super::error::{CreationScope, GpuError};
use super::layout::background::GpuDome;
use super::render_pass::{depth_state, uniform_entry};
use super::shaders;
use super::target::TargetFormats;
use crate::hanim::Background;
use crate::views::Camera;

/// The dome's pipeline and uniform; long-lived, built for one set of target formats.
pub struct DomeRenderer {
    pipeline: wgpu::RenderPipeline,
    buffer: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
}

impl DomeRenderer {
    pub fn new(device: &wgpu::Device, formats: TargetFormats) -> Result<Self, GpuError> {
        let module = shaders::create_module(device, "background::shader", shaders::BACKGROUND)?;
        let scope = CreationScope::push(device, "background pipeline");
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("background::layout"),
            // The vertex stage hands the colour counts to the fragment stage (see the shader's note).
            entries: &[uniform_entry(0, wgpu::ShaderStages::VERTEX_FRAGMENT, size_of::<GpuDome>())],
        });
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("background::dome"),
            size: size_of::<GpuDome>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("background::bind_group"),
            layout: &layout,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: buffer.as_entire_binding() }],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("background::pipeline_layout"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("background::pipeline"),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: Some(depth_state(formats, false, wgpu::CompareFunction::Always)),
            multisample: wgpu::MultisampleState { count: formats.sample_count, ..Default::default() },
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs_main"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format: formats.color,
                    blend: None,
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        scope.finish()?;
        Ok(Self { pipeline, buffer, bind_group })
    }

    /// Writes this frame's dome: `background` seen by `camera` in an image of `aspect`.
    pub fn write(&self, queue: &wgpu::Queue, background: &Background, camera: &Camera, aspect: f32) {
        let dome = GpuDome::new(background, camera.clip_from_world(aspect).inverse());
        queue.write_buffer(&self.buffer, 0, bytemuck::bytes_of(&dome));
    }

    /// Records the dome (call first in the pass).
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        pass.push_debug_group("background::draw");
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.bind_group, &[]);
        pass.draw(0..3, 0..1);
        pass.pop_debug_group();
    }
}
