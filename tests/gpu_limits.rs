//! The GPU path checks a skin against the device's limits before creating anything: a skin too large
//! for one storage binding is a clear `TooLarge` error, never a wgpu validation panic; skins needing more
//! workgroups than one dispatch dimension allows are dispatched as a 2D grid and still agree with the
//! CPU reference. A device with small limits is requested on the real adapter to play a small GPU.

mod common;

test_main!(
    dispatch_grid_covers_every_invocation_within_the_limit,
    a_skin_wider_than_one_dispatch_row_agrees_with_the_cpu_reference,
    a_skin_larger_than_a_storage_binding_is_a_clear_error,
    the_capacity_follows_the_device_limits,
    errors_while_creating_gpu_objects_come_back_as_errors_naming_what_was_created
);

use hanim_viewer::gpu::{GpuError, GpuSkin, SkinCorners, agreement, dispatch_grid};
use hanim_viewer::hanim;

fn dispatch_grid_covers_every_invocation_within_the_limit() {
    for (count, max) in [(0, 65535), (1, 65535), (64, 65535), (65, 65535), (6425, 16), (1 << 28, 65535)] {
        let (x, y) = dispatch_grid(count, max);
        assert!(x <= max && y <= max, "{count} on {max}: {x}x{y}");
        let covered = u64::from(x) * u64::from(y) * 64;
        assert!(covered >= u64::from(count), "{count}: {x}x{y} groups cover {covered}");
        // No whole row of workgroups is wasted.
        assert!(covered < u64::from(count) + u64::from(x) * 64 || count == 0, "{count}: {x}x{y}");
    }
}

fn a_skin_wider_than_one_dispatch_row_agrees_with_the_cpu_reference() {
    // BvhSeamless: 6,425 skin points = 101 workgroups of 64; at most 16 per dimension forces 16 x 7.
    let limits = wgpu::Limits { max_compute_workgroups_per_dimension: 16, ..wgpu::Limits::default() };
    let ctx = common::small_device(limits);
    let doc = hanim::load(&common::corpus("x3d/BvhSeamless3dExport1.x3d")).unwrap();
    let h = &doc.humanoids[0];
    assert_eq!(dispatch_grid(6425, 16), (16, 7));
    let a = agreement::measure(&ctx, h, 3, 7).unwrap();
    eprintln!("{a:?}");
    assert!(a.max_point_error <= 1e-5 && a.max_normal_error <= 1e-5, "{a:?}");
}

fn a_skin_larger_than_a_storage_binding_is_a_clear_error() {
    // 64 KiB per binding: BvhSeamless's 6,425 points need 102,800 bytes.
    let limits = wgpu::Limits { max_storage_buffer_binding_size: 64 << 10, ..wgpu::Limits::default() };
    let ctx = common::small_device(limits);
    let doc = hanim::load(&common::corpus("x3d/BvhSeamless3dExport1.x3d")).unwrap();
    let h = &doc.humanoids[0];
    let n = h.skin.as_ref().unwrap().points.len();
    let source: Vec<u32> = (0..n as u32).collect();
    let normals = vec![glam::Vec3::Y; n];
    let result = GpuSkin::new(&ctx, h, SkinCorners { source_point: &source, normals: &normals });
    match result {
        Err(e @ GpuError::TooLarge { .. }) => {
            let text = e.to_string();
            assert!(text.contains("the skin points needs 102800 bytes"), "{text}");
            assert!(text.contains("allows 65536"), "{text}");
        }
        Err(e) => panic!("expected TooLarge, got {e}"),
        Ok(_) => panic!("a 102,800-byte skin was accepted by a 64 KiB binding limit"),
    }
    ctx.check_health().expect("nothing reached wgpu validation");
}

fn the_capacity_follows_the_device_limits() {
    let limits = wgpu::Limits {
        max_storage_buffer_binding_size: 1 << 20,
        max_compute_workgroups_per_dimension: 100,
        ..wgpu::Limits::default()
    };
    let ctx = common::small_device(limits);
    let c = ctx.skin_capacity();
    assert_eq!(c.max_storage_bytes, 1 << 20);
    assert_eq!(c.max_skin_points, (1 << 20) / 16);
    assert_eq!(c.max_influences, (1 << 20) / 8);
    assert_eq!(c.max_dispatch_vertices, 100 * 100 * 64);
}

fn errors_while_creating_gpu_objects_come_back_as_errors_naming_what_was_created() {
    // A texture larger than the device allows is a validation error: the creation scope turns it into
    // an error value (the window keeps its previous humanoid), and nothing is left for the device's
    // uncaught-error handler.
    use hanim_viewer::gpu::error::CreationScope;
    let ctx = common::small_device(wgpu::Limits::default());
    let too_wide = ctx.device.limits().max_texture_dimension_2d + 1;
    let scope = CreationScope::push(&ctx.device, "a test texture");
    let _texture = ctx.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("too wide"),
        size: wgpu::Extent3d { width: too_wide, height: 1, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Unorm,
        usage: wgpu::TextureUsages::TEXTURE_BINDING,
        view_formats: &[],
    });
    match scope.finish() {
        Err(GpuError::Validation { context, message }) => {
            assert_eq!(context, "a test texture");
            assert!(!message.is_empty());
        }
        other => panic!("expected a validation error, got {other:?}"),
    }
    ctx.check_health().expect("the error was caught by the scope");
    // Nothing wrong: no error.
    let scope = CreationScope::push(&ctx.device, "a small buffer");
    let _buffer = ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 256,
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
    scope.finish().expect("a 256-byte buffer is fine");
}
