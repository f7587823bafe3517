//! The GPU context shared by the window and headless work: instance, adapter, device, queue.
//!
//! The adapter is wgpu's choice, high performance first (`WGPU_POWER_PREF` overrides), restricted to the
//! backends in `WGPU_BACKEND`; `--adapter NAME` picks the first adapter whose name contains NAME. The
//! device asks for the adapter's own limits so large skins fit where the hardware allows; uncaptured
//! errors and device loss are recorded instead of panicking.

use std::sync::{Arc, Mutex};

use super::error::GpuError;

/// What the user sees of the adapter (`info --gpu`, logs, check reports).
#[derive(Debug, Clone, serde::Serialize)]
pub struct AdapterSummary {
    pub name: String,
    pub backend: String,
    pub device_type: String,
    pub driver: String,
}

impl std::fmt::Display for AdapterSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}, {}", self.name, self.backend, self.device_type)?;
        if !self.driver.is_empty() {
            write!(f, ", {}", self.driver)?;
        }
        write!(f, ")")
    }
}

impl AdapterSummary {
    fn of(info: &wgpu::AdapterInfo) -> Self {
        Self {
            name: info.name.clone(),
            backend: format!("{:?}", info.backend),
            device_type: format!("{:?}", info.device_type),
            driver: [info.driver.as_str(), info.driver_info.as_str()]
                .iter()
                .filter(|s| !s.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join(" "),
        }
    }
}

/// The largest skin the GPU path accepts on a device (`info --gpu`): each storage buffer must fit one
/// binding, each dispatch the workgroup grid.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SkinCapacity {
    /// Bytes one storage buffer may hold: min(max_storage_buffer_binding_size, max_buffer_size).
    pub max_storage_bytes: u64,
    /// Skin points (16 bytes each on the GPU).
    pub max_skin_points: u64,
    /// Joint influences over all points (8 bytes each).
    pub max_influences: u64,
    /// Displacements over all displacers (16 bytes each).
    pub max_displacements: u64,
    /// Vertices one compute dispatch covers (a 2D grid of 64-wide workgroups).
    pub max_dispatch_vertices: u64,
}

/// Errors the device reported outside any error scope, and whether it was lost.
#[derive(Debug, Default)]
pub struct DeviceHealth {
    pub uncaptured: Vec<String>,
    pub lost: Option<String>,
}

pub struct GpuContext {
    pub instance: wgpu::Instance,
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub adapter_info: wgpu::AdapterInfo,
    pub summary: AdapterSummary,
    pub health: Arc<Mutex<DeviceHealth>>,
}

impl GpuContext {
    /// A context without a window. `adapter_filter` selects an adapter by (part of) its name.
    pub fn headless(adapter_filter: Option<&str>) -> Result<Self, GpuError> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        pollster::block_on(Self::with_instance(instance, adapter_filter, None))
    }

    /// A context for `instance`, compatible with `surface` when one is given (the window's case).
    pub async fn with_instance(
        instance: wgpu::Instance,
        adapter_filter: Option<&str>,
        surface: Option<&wgpu::Surface<'_>>,
    ) -> Result<Self, GpuError> {
        Self::with_limits(instance, adapter_filter, surface, None).await
    }

    /// A headless context whose device has `limits` instead of the adapter's own (tests use this to
    /// play a small GPU on a big one).
    pub fn headless_with_limits(adapter_filter: Option<&str>, limits: wgpu::Limits) -> Result<Self, GpuError> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        pollster::block_on(Self::with_limits(instance, adapter_filter, None, Some(limits)))
    }

    /// As [`Self::with_instance`], with the device's limits given (`None`: all the adapter offers).
    pub async fn with_limits(
        instance: wgpu::Instance,
        adapter_filter: Option<&str>,
        surface: Option<&wgpu::Surface<'_>>,
        limits: Option<wgpu::Limits>,
    ) -> Result<Self, GpuError> {
        let adapter = match adapter_filter {
            Some(filter) => {
                let wanted = filter.to_lowercase();
                let adapters = instance.enumerate_adapters(wgpu::Backends::all()).await;
                let names: Vec<String> = adapters.iter().map(|a| a.get_info().name).collect();
                adapters.into_iter().find(|a| a.get_info().name.to_lowercase().contains(&wanted)).ok_or_else(|| {
                    GpuError::NoAdapter(format!(" whose name contains '{filter}' (available: {})", names.join(", ")))
                })?
            }
            None => instance
                .request_adapter(&wgpu::RequestAdapterOptions {
                    power_preference: wgpu::PowerPreference::from_env()
                        .unwrap_or(wgpu::PowerPreference::HighPerformance),
                    force_fallback_adapter: false,
                    compatible_surface: surface,
                    apply_limit_buckets: false,
                })
                .await
                .map_err(|e| GpuError::NoAdapter(format!(": {e}")))?,
        };
        let adapter_info = adapter.get_info();
        let summary = AdapterSummary::of(&adapter_info);
        log::info!("GPU adapter: {summary}");
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("hanim::device"),
                // Timestamps for `bench` and the window's frame statistics, where the adapter has them.
                required_features: adapter.features() & super::timing::TIMER_FEATURES,
                required_limits: limits.unwrap_or_else(|| adapter.limits()),
                ..Default::default()
            })
            .await
            .map_err(|source| GpuError::RequestDevice { adapter: summary.name.clone(), source })?;
        let health = Arc::new(Mutex::new(DeviceHealth::default()));
        let errors = Arc::clone(&health);
        device.on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
            let message = error.to_string();
            log::error!("GPU error: {message}");
            if let Ok(mut h) = errors.lock() {
                // Keep each distinct message once, so a broken pipeline does not flood memory.
                if !h.uncaptured.contains(&message) {
                    h.uncaptured.push(message);
                }
            }
        }));
        let lost = Arc::clone(&health);
        device.set_device_lost_callback(move |reason, message| {
            log::error!("GPU device lost ({reason:?}): {message}");
            if let Ok(mut h) = lost.lock() {
                h.lost =
                    Some(if message.is_empty() { format!("{reason:?}") } else { format!("{reason:?}: {message}") });
            }
        });
        Ok(Self { instance, adapter, device, queue, adapter_info, summary, health })
    }

    /// Fails if the device was lost or reported an error nobody caught.
    pub fn check_health(&self) -> Result<(), GpuError> {
        let Ok(health) = self.health.lock() else { return Ok(()) };
        if let Some(lost) = &health.lost {
            return Err(GpuError::DeviceLost(lost.clone()));
        }
        match health.uncaptured.first() {
            Some(message) => {
                Err(GpuError::Validation { context: "an earlier GPU call".into(), message: message.clone() })
            }
            None => Ok(()),
        }
    }

    /// What the device's limits allow (see [`SkinCapacity`]).
    pub fn skin_capacity(&self) -> SkinCapacity {
        let limits = self.device.limits();
        let bytes = limits.max_storage_buffer_binding_size.min(limits.max_buffer_size);
        let groups = u64::from(limits.max_compute_workgroups_per_dimension).pow(2);
        SkinCapacity {
            max_storage_bytes: bytes,
            max_skin_points: (bytes / 16).min(groups * u64::from(crate::gpu::layout::SKIN_WORKGROUP_SIZE)),
            max_influences: bytes / 8,
            max_displacements: bytes / 16,
            max_dispatch_vertices: groups * u64::from(crate::gpu::layout::SKIN_WORKGROUP_SIZE),
        }
    }

    /// The largest storage buffer this device binds, for up-front size checks.
    pub fn max_storage_binding(&self) -> u64 {
        self.device.limits().max_storage_buffer_binding_size
    }
}
