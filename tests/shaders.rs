//! Every WGSL file in `shaders/` is embedded, every shader module (a pass's file after the shared files
//! it uses) parses and validates with naga, and the structs the skin kernel reads have the sizes and
//! member offsets of their `Gpu*` mirrors in `src/gpu/layout.rs`.

use std::mem::offset_of;

use hanim_viewer::gpu::layout::*;
use hanim_viewer::gpu::shaders::{SHADER_FILES, SHADERS};

fn validate(name: &str, source: &str) -> naga::Module {
    let module =
        naga::front::wgsl::parse_str(source).unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(source)));
    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
        .validate(&module)
        .unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(source)));
    module
}

#[test]
fn every_shader_file_is_embedded_and_every_module_validates() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "wgsl") {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let source = std::fs::read_to_string(&path).unwrap();
            let embedded = SHADER_FILES.iter().find(|(n, _)| *n == name).map(|(_, s)| *s);
            assert_eq!(embedded, Some(source.as_str()), "{name} is not in gpu::shaders::SHADER_FILES");
            files += 1;
        }
    }
    assert_eq!(files, SHADER_FILES.len(), "SHADER_FILES lists a file that shaders/ does not have");
    for (name, source) in SHADERS {
        validate(name, source);
    }
    // The shared frame uniform is a valid module on its own too.
    validate("frame.wgsl", SHADER_FILES[0].1);
}

/// (size, [(member, offset)]) of a WGSL struct, as naga lays it out.
fn layout_of(module: &naga::Module, name: &str) -> (u32, Vec<(String, u32)>) {
    let mut layouter = naga::proc::Layouter::default();
    layouter.update(module.to_ctx()).unwrap();
    for (_, ty) in module.types.iter() {
        if ty.name.as_deref() == Some(name)
            && let naga::TypeInner::Struct { members, span } = &ty.inner
        {
            return (*span, members.iter().map(|m| (m.name.clone().unwrap_or_default(), m.offset)).collect());
        }
    }
    panic!("struct {name} not found");
}

#[test]
fn gpu_structs_match_the_wgsl_layout() {
    let source = hanim_viewer::gpu::shaders::SKIN_MORPH;
    let module = validate("skin_morph.wgsl", source);
    let check = |name: &str, size: usize, offsets: &[(&str, usize)]| {
        let (wgsl_size, members) = layout_of(&module, name);
        assert_eq!(wgsl_size as usize, size, "{name} size");
        assert_eq!(members.len(), offsets.len(), "{name} member count");
        for ((wgsl_name, wgsl_offset), (rust_name, rust_offset)) in members.iter().zip(offsets) {
            assert_eq!((wgsl_name.as_str(), *wgsl_offset as usize), (*rust_name, *rust_offset), "{name}");
        }
    };
    check(
        "SkinParams",
        size_of::<GpuSkinParams>(),
        &[
            ("point_count", offset_of!(GpuSkinParams, point_count)),
            ("corner_count", offset_of!(GpuSkinParams, corner_count)),
            ("segment_point_count", offset_of!(GpuSkinParams, segment_point_count)),
            ("overlay_joint", offset_of!(GpuSkinParams, overlay_joint)),
            ("instance_count", offset_of!(GpuSkinParams, instance_count)),
            ("joint_count", offset_of!(GpuSkinParams, joint_count)),
            ("displacer_count", offset_of!(GpuSkinParams, displacer_count)),
            ("_pad", offset_of!(GpuSkinParams, _pad)),
        ],
    );
    check(
        "Influence",
        size_of::<GpuInfluence>(),
        &[("joint", offset_of!(GpuInfluence, joint)), ("weight", offset_of!(GpuInfluence, weight))],
    );
    check(
        "Displacement",
        size_of::<GpuDisplacement>(),
        &[("delta", offset_of!(GpuDisplacement, delta)), ("displacer", offset_of!(GpuDisplacement, displacer))],
    );
    check(
        "DisplacerFrame",
        size_of::<GpuDisplacerFrame>(),
        &[
            ("weight", offset_of!(GpuDisplacerFrame, weight)),
            ("owner_joint", offset_of!(GpuDisplacerFrame, owner_joint)),
        ],
    );
    check("NormalMatrix", size_of::<GpuNormalMatrix>(), &[("c0", 0), ("c1", 16), ("c2", 32)]);
    check(
        "Corner",
        size_of::<GpuCorner>(),
        &[("normal", offset_of!(GpuCorner, normal)), ("source_point", offset_of!(GpuCorner, source_point))],
    );
}

#[test]
fn workgroup_size_reaches_the_shader_as_an_override() {
    let module = validate("skin_morph.wgsl", hanim_viewer::gpu::shaders::SKIN_MORPH);
    assert!(module.overrides.iter().any(|(_, o)| o.name.as_deref() == Some("WORKGROUP_SIZE")));
    assert_eq!(SKIN_WORKGROUP_SIZE, 64);
}
