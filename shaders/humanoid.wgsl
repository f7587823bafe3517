// The skinned humanoid: vertex + fragment shaders of the render pass (`src/gpu/render_pass.rs`).
//
// Positions are gathered, not streamed: each corner carries the index of the skin point it draws
// (`source_point`), and the vertex shader reads that point from the skin pass's output buffer
// (`points`, one vec4 per skin point, humanoid space). The corner's skinned normal arrives as a vertex
// attribute straight from the skin pass's per-corner normal buffer. `Placement` moves both to world
// space (H = W_parent·L(humanoid), semantics note §1.2).
//
// Lighting is X3D's Phong model in linear RGB (colours are converted from the file's sRGB values on the
// CPU; the target is an sRGB format, so the output is encoded back by the hardware): emissive, plus an
// ambient term, plus a headlight along the view direction and a soft key light from the upper left.
//
// `Light`, `Frame` and group 0 come from `frame.wgsl`, which `src/gpu/shaders.rs` puts before this file.
// Structs are mirrored by `GpuPlacement`, `GpuMaterial` in `src/gpu/render_pass.rs` (sizes and offsets
// checked by a test there).

struct Placement {
    world_from_humanoid: mat4x4<f32>,
    // (H[3×3])⁻ᵀ as three columns (w unused).
    normal_from_humanoid: array<vec4<f32>, 3>,
}

struct Material {
    // rgb: linear diffuse colour; a: opacity (1 − transparency).
    diffuse: vec4<f32>,
    // rgb: linear specular colour; w: specular exponent (128·shininess).
    specular: vec4<f32>,
    // rgb: linear emissive colour; w: ambientIntensity.
    emissive: vec4<f32>,
    // x: lit (1) or unlit (0); y: vertex colours replace the diffuse/emissive colour; z: two-sided lighting;
    // w: texture (0 none, 1 its colour replaces the material/vertex colour, 2 intensity modulates it).
    flags: vec4<u32>,
}

@group(1) @binding(0) var<uniform> placement: Placement;
@group(1) @binding(1) var<storage, read> points: array<vec4<f32>>;
@group(2) @binding(0) var<uniform> material: Material;
// The shape's ImageTexture (sRGB texels, sampled as linear), or 1×1 white when it has none.
@group(2) @binding(1) var image: texture_2d<f32>;
@group(2) @binding(2) var image_sampler: sampler;

struct CornerIn {
    // Skinned normal of this corner, humanoid space (w = 0).
    @location(0) normal: vec4<f32>,
    @location(1) source_point: u32,
    // Linear RGBA of this corner (white without a colour node).
    @location(2) color: vec4<f32>,
    // X3D texture coordinate (t grows upwards, image rows downwards).
    @location(3) uv: vec2<f32>,
}

struct VertexOut {
    @builtin(position) clip_position: vec4<f32>,
    @location(0) world_position: vec3<f32>,
    @location(1) world_normal: vec3<f32>,
    @location(2) color: vec4<f32>,
    @location(3) uv: vec2<f32>,
}

@vertex
fn vs_main(corner: CornerIn) -> VertexOut {
    let p = points[corner.source_point];
    let world = placement.world_from_humanoid * vec4<f32>(p.xyz, 1.0);
    let n = placement.normal_from_humanoid;
    let normal = mat3x3<f32>(n[0].xyz, n[1].xyz, n[2].xyz) * corner.normal.xyz;
    var out: VertexOut;
    out.clip_position = frame.clip_from_world * world;
    out.world_position = world.xyz;
    out.world_normal = normal;
    out.color = corner.color;
    out.uv = corner.uv;
    return out;
}

// Diffuse + Blinn-Phong specular of one directional light (X3D lighting equation, no attenuation).
fn light(n: vec3<f32>, v: vec3<f32>, l: vec3<f32>, intensity: f32, base: vec3<f32>) -> vec3<f32> {
    let n_dot_l = dot(n, l);
    if n_dot_l <= 0.0 {
        return vec3<f32>(0.0);
    }
    let h = normalize(l + v);
    let spec = pow(max(dot(n, h), 0.0), max(material.specular.w, 1.0));
    return intensity * (base * n_dot_l + material.specular.rgb * spec);
}

// One X3D light node's contribution (ambient + diffuse + specular), with its attenuation, radius and
// spot cone (full inside beamWidth, fading linearly to zero at cutOffAngle).
fn scene_light(l: Light, p: vec3<f32>, n: vec3<f32>, v: vec3<f32>, base: vec3<f32>) -> vec3<f32> {
    var to_light = -l.position.xyz;
    var factor = 1.0;
    if l.position.w > 0.5 {
        let offset = l.position.xyz - p;
        let d = length(offset);
        if d > l.attenuation.w {
            return vec3<f32>(0.0);
        }
        to_light = offset / max(d, 1e-6);
        let a = l.attenuation.xyz;
        factor = 1.0 / max(a.x + a.y * d + a.z * d * d, 1.0);
        if l.position.w > 1.5 {
            let angle = acos(clamp(dot(-to_light, l.direction.xyz), -1.0, 1.0));
            let beam = l.cone.x;
            let cut_off = l.cone.y;
            if angle >= cut_off {
                return vec3<f32>(0.0);
            }
            if angle > beam && cut_off > beam {
                factor *= (cut_off - angle) / (cut_off - beam);
            }
        }
    }
    let ambient = l.color.w * material.emissive.w * l.color.rgb * base;
    let lit = light(n, v, normalize(to_light), 1.0, base) * l.color.rgb;
    return factor * (ambient + lit);
}

@fragment
fn fs_main(in: VertexOut, @builtin(front_facing) front_facing: bool) -> @location(0) vec4<f32> {
    // Sampled before any branch: implicit derivatives need uniform control flow.
    let texel = textureSample(image, image_sampler, vec2<f32>(in.uv.x, 1.0 - in.uv.y));
    let vertex_colors = material.flags.y != 0u;
    let texture_mode = material.flags.w;
    var alpha = material.diffuse.a * in.color.a;
    if texture_mode != 0u {
        alpha *= texel.a;
    }
    if material.flags.x == 0u {
        // Unlit (no Material, UnlitMaterial, lines and points): the colour as given.
        var unlit = select(material.emissive.rgb, in.color.rgb, vertex_colors);
        if texture_mode == 1u {
            unlit = texel.rgb;
        } else if texture_mode == 2u {
            unlit *= texel.r;
        }
        return vec4<f32>(unlit, alpha);
    }
    var n = in.world_normal;
    let length_n = length(n);
    let v = normalize(frame.camera_position.xyz - in.world_position);
    if length_n > 0.0 {
        n = n / length_n;
    } else {
        // No normal could be had (degenerate input): light it as if it faced the viewer.
        n = v;
    }
    if !front_facing && material.flags.z != 0u {
        n = -n;
    }
    var base = select(material.diffuse.rgb, in.color.rgb, vertex_colors);
    if texture_mode == 1u {
        // X3D: an RGB(A) texture's colour replaces the diffuse and colour-node colour.
        base = texel.rgb;
    } else if texture_mode == 2u {
        base *= texel.r;
    }
    var color = material.emissive.rgb + frame.ambient.rgb * material.emissive.w * base;
    color += light(n, v, frame.headlight.xyz, frame.headlight.w, base);
    color += light(n, v, frame.key_light.xyz, frame.key_light.w, base);
    for (var i = 0u; i < min(frame.light_count.x, 8u); i++) {
        color += scene_light(frame.lights[i], in.world_position, n, v, base);
    }
    return vec4<f32>(min(color, vec3<f32>(1.0)), alpha);
}
