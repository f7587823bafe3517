// Skinning and morphing of a humanoid, the GPU twin of the CPU reference in `src/pose/skinning.rs`
// (semantics note §2.4, §2.5, §3, §9). Gather, never scatter: one invocation per output element, so
// any number of influences per point works without atomics and results are deterministic.
//
// Data layout (mirrored by the `Gpu*` structs in `src/gpu/layout.rs`, checked by a test):
// - per point `ranges[i]` = (first influence, first displacement) of point i; `ranges[i + 1]` ends them
//   (compressed rows, built once per humanoid from the per-joint skinCoordIndex/Weight lists);
// - `influences` = (joint, weight) pairs, `displacements` = (delta, displacer) entries, both in the
//   order the CPU reference sums them;
// - per frame only `skin_matrices` (M_j), `normal_matrices` (N_j, three vec4 columns) and `displacers`
//   (weight and owning joint) are written.
// Instances: one set of static buffers skins `instance_count` copies of the humanoid in one dispatch per
// kernel (a crowd, `bench --copies`). Instance k reads its joint matrices from `k · joint_count` on and its
// displacer weights from `k · displacer_count` on, and writes its outputs from `k · point_count`
// (`k · corner_count`, `k · segment_point_count`) on. One instance is the usual case.
// Workgroup size: 64 (WORKGROUP_SIZE, set from Rust through the pipeline constants), a multiple of every
// vendor's SIMD width; dispatch = ceil(count / 64) with an early return past the end.

override WORKGROUP_SIZE: u32 = 64u;

struct SkinParams {
    point_count: u32,
    corner_count: u32,
    segment_point_count: u32,
    // The joint whose weight `skin_overlay` reports; u32 max: none.
    overlay_joint: u32,
    instance_count: u32,
    // Per-instance strides of `skin_matrices`/`normal_matrices` and of `displacers`.
    joint_count: u32,
    displacer_count: u32,
    _pad: u32,
}

struct Influence {
    joint: u32,
    weight: f32,
}

struct Displacement {
    delta: vec3<f32>,
    displacer: u32,
}

struct DisplacerFrame {
    weight: f32,
    // Joint whose M_j rotates the displacement; u32 max for segment displacers (not rotated).
    owner_joint: u32,
}

struct NormalMatrix {
    c0: vec4<f32>,
    c1: vec4<f32>,
    c2: vec4<f32>,
}

struct Corner {
    normal: vec3<f32>,
    source_point: u32,
}

@group(0) @binding(0) var<uniform> params: SkinParams;
@group(0) @binding(1) var<storage, read> rest_points: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> ranges: array<vec2<u32>>;
@group(0) @binding(3) var<storage, read> influences: array<Influence>;
@group(0) @binding(4) var<storage, read> displacements: array<Displacement>;
@group(0) @binding(5) var<storage, read> skin_matrices: array<mat4x4<f32>>;
@group(0) @binding(6) var<storage, read> displacers: array<DisplacerFrame>;
@group(0) @binding(7) var<storage, read_write> out_points: array<vec4<f32>>;
@group(0) @binding(8) var<storage, read> corners: array<Corner>;
@group(0) @binding(9) var<storage, read> normal_matrices: array<NormalMatrix>;
@group(0) @binding(10) var<storage, read_write> out_normals: array<vec4<f32>>;
@group(0) @binding(11) var<storage, read> segment_rest_points: array<vec4<f32>>;
@group(0) @binding(12) var<storage, read> segment_ranges: array<u32>;
@group(0) @binding(13) var<storage, read> segment_displacements: array<Displacement>;
@group(0) @binding(14) var<storage, read_write> out_segment_points: array<vec4<f32>>;
@group(0) @binding(15) var<storage, read_write> out_overlay: array<vec4<f32>>;

// Large skins are dispatched as a 2D grid of workgroups (one dimension is limited to
// max_compute_workgroups_per_dimension, 65535 by default): rows of groups.x workgroups.
fn linear_index(id: vec3<u32>, groups: vec3<u32>) -> u32 {
    return id.x + id.y * groups.x * WORKGROUP_SIZE;
}

// p' = p + Σ w·(M_j·p − p) + Σ_d weight_d · M_owner[3×3] · δ_d   (§9)
@compute @workgroup_size(WORKGROUP_SIZE)
fn skin_points(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let g = linear_index(id, groups);
    if g >= params.point_count * params.instance_count {
        return;
    }
    let instance = g / params.point_count;
    let i = g - instance * params.point_count;
    let joints = instance * params.joint_count;
    let frames = instance * params.displacer_count;
    let p = rest_points[i].xyz;
    let begin = ranges[i];
    let end = ranges[i + 1u];
    var skinned = p;
    for (var k = begin.x; k < end.x; k++) {
        let influence = influences[k];
        let m = skin_matrices[joints + influence.joint];
        skinned += ((m * vec4<f32>(p, 1.0)).xyz - p) * influence.weight;
    }
    for (var k = begin.y; k < end.y; k++) {
        let d = displacements[k];
        let frame = displacers[frames + d.displacer];
        if frame.weight == 0.0 {
            continue;
        }
        let m = skin_matrices[joints + frame.owner_joint];
        let a = mat3x3<f32>(m[0].xyz, m[1].xyz, m[2].xyz);
        skinned += (a * d.delta) * frame.weight;
    }
    out_points[g] = vec4<f32>(skinned, 1.0);
}

// n' = normalize(n + Σ w·(N_j·n − n)) per corner, with the influences of the corner's point (§2.5).
@compute @workgroup_size(WORKGROUP_SIZE)
fn skin_normals(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let g = linear_index(id, groups);
    if g >= params.corner_count * params.instance_count {
        return;
    }
    let instance = g / params.corner_count;
    let c = g - instance * params.corner_count;
    let joints = instance * params.joint_count;
    let corner = corners[c];
    let n = corner.normal;
    var skinned = n;
    if corner.source_point < params.point_count {
        let begin = ranges[corner.source_point].x;
        let end = ranges[corner.source_point + 1u].x;
        for (var k = begin; k < end; k++) {
            let influence = influences[k];
            let nm = normal_matrices[joints + influence.joint];
            let rotated = mat3x3<f32>(nm.c0.xyz, nm.c1.xyz, nm.c2.xyz) * n;
            skinned += (rotated - n) * influence.weight;
        }
    }
    // normalize_or_zero: a normal that cancels out stays zero rather than NaN.
    let len2 = dot(skinned, skinned);
    var unit = vec3<f32>(0.0);
    if len2 > 0.0 {
        unit = skinned / sqrt(len2);
    }
    out_normals[g] = vec4<f32>(unit, 0.0);
}

// Segment displacers, in segment space and not rotated: q' = q + Σ_d weight_d · δ_d   (§3.2)
@compute @workgroup_size(WORKGROUP_SIZE)
fn morph_segments(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let g = linear_index(id, groups);
    if g >= params.segment_point_count * params.instance_count {
        return;
    }
    let instance = g / params.segment_point_count;
    let i = g - instance * params.segment_point_count;
    let frames = instance * params.displacer_count;
    var q = segment_rest_points[i].xyz;
    for (var k = segment_ranges[i]; k < segment_ranges[i + 1u]; k++) {
        let d = segment_displacements[k];
        let frame = displacers[frames + d.displacer];
        if frame.weight == 0.0 {
            continue;
        }
        q += d.delta * frame.weight;
    }
    out_segment_points[g] = vec4<f32>(q, 1.0);
}

// Skin inspection (`src/pose/skin_inspection.rs` is the CPU twin): per skin point, the selected joint's
// weight, how many joints weigh the point and the sum of their weights, (weight, count, sum, 0). Entries
// are distinct joints (the loader sums repeated pairs), added in list order like the CPU. The render
// pass colours these values (`shaders/humanoid.wgsl`); dispatched only while an overlay is shown. The
// values depend on the static influences alone, so every instance shares the first instance's.
@compute @workgroup_size(WORKGROUP_SIZE)
fn skin_overlay(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = linear_index(id, groups);
    if i >= params.point_count {
        return;
    }
    let begin = ranges[i].x;
    let end = ranges[i + 1u].x;
    var weight = 0.0;
    var sum = 0.0;
    for (var k = begin; k < end; k++) {
        let influence = influences[k];
        sum += influence.weight;
        if influence.joint == params.overlay_joint {
            weight += influence.weight;
        }
    }
    out_overlay[i] = vec4<f32>(weight, f32(end - begin), sum, 0.0);
}
