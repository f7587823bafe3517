//! GPU timestamps around the stages of a frame (skin/morph pass, scene pass, UI pass), for `bench` and the
//! window's own statistics. Only on adapters that can write timestamps between passes
//! (`TIMESTAMP_QUERY` and `TIMESTAMP_QUERY_INSIDE_ENCODERS`); elsewhere [`GpuTimer::new`] gives `None` and
//! callers time stages on the CPU instead.

use super::context::GpuContext;
use super::readback;

/// The features a [`GpuTimer`] needs, requested at device creation when the adapter offers both.
pub const TIMER_FEATURES: wgpu::Features =
    wgpu::Features::TIMESTAMP_QUERY.union(wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS);

/// Before the skin/morph passes.
pub const MARK_START: u32 = 0;
/// After the skin/morph passes, before the scene pass.
pub const MARK_SKINNED: u32 = 1;
/// After the scene pass.
pub const MARK_SCENE_DRAWN: u32 = 2;
/// After the window's UI pass.
pub const MARK_UI_DRAWN: u32 = 3;

/// Timestamps written at numbered marks of one frame; the time between consecutive marks is a stage.
pub struct GpuTimer {
    queries: wgpu::QuerySet,
    resolved: wgpu::Buffer,
    marks: u32,
    /// Nanoseconds per timestamp tick.
    period_ns: f64,
}

impl GpuTimer {
    /// A timer with `marks` marks, or `None` when the device cannot write timestamps inside encoders.
    pub fn new(ctx: &GpuContext, marks: u32) -> Option<Self> {
        if !ctx.device.features().contains(TIMER_FEATURES) || marks < 2 {
            return None;
        }
        let queries = ctx.device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("timing::queries"),
            ty: wgpu::QueryType::Timestamp,
            count: marks,
        });
        let resolved = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("timing::resolved"),
            size: u64::from(marks) * 8,
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        Some(Self { queries, resolved, marks, period_ns: f64::from(ctx.queue.get_timestamp_period()) })
    }

    /// Writes the timestamp of mark `index` at this point of `encoder`'s commands.
    pub fn mark(&self, encoder: &mut wgpu::CommandEncoder, index: u32) {
        if index < self.marks {
            encoder.write_timestamp(&self.queries, index);
        }
    }

    /// Resolves every mark into the timer's buffer (call at the end of the frame's last encoder).
    pub fn resolve(&self, encoder: &mut wgpu::CommandEncoder) {
        encoder.resolve_query_set(&self.queries, 0..self.marks, &self.resolved, 0);
    }

    /// Milliseconds between consecutive marks of the last resolved frame (`marks − 1` values); waits for
    /// the GPU. `None` if the read-back failed or a mark was not written (a timestamp of 0).
    pub fn read_stages_ms(&self, ctx: &GpuContext) -> Option<Vec<f64>> {
        let ticks: Vec<u64> = readback::read_buffer(ctx, &self.resolved, self.marks as usize).ok()?;
        if ticks.contains(&0) {
            return None;
        }
        Some(ticks.windows(2).map(|w| w[1].saturating_sub(w[0]) as f64 * self.period_ns / 1e6).collect())
    }
}
