// The Background dome (`src/gpu/background.rs`): one full-screen triangle drawn first in the scene pass,
// behind everything (no depth test or write). Each pixel's view direction comes from the inverse
// clip-from-world matrix; its angle from the zenith picks the colour (X3D 4.0, 24.2.1 and 24.4.1
// Background): sky colours from the zenith at `skyAngle`s, linearly interpolated, the last one clamped to
// the nadir; ground colours from the nadir at `groundAngle`s, drawn over the sky up to the last ground
// angle only. The dome is at infinity, so only the camera's rotation matters. Colours are interpolated
// as the file writes them (sRGB values) and decoded for the sRGB target, which encodes them back.
// `Dome` is mirrored by `GpuDome` in `src/gpu/layout/background.rs` (size and offsets checked there);
// `hanim::Background::color_towards` is the same rule on the CPU.
//
// The colour and angle counts reach the fragment shader as flat varyings, not from the uniform: lavapipe
// (Mesa 22.3) compiles a fresh copy of a fragment shader whose branches and loop bounds read uniform
// values, with those values inlined, at every draw, and keeps each copy, so an offscreen sequence grew by
// about 0.8 MB per frame. A loop bounded by a varying is compiled once.

struct Dome {
    world_from_clip: mat4x4<f32>,
    // x: sky colours used (≥ 1), y: ground colours used (0: no ground).
    counts: vec4<u32>,
    sky_colors: array<vec4<f32>, 16>,
    // Angle i is sky_angles[i / 4][i % 4] (radians from the zenith; colour i + 1 is at it).
    sky_angles: array<vec4<f32>, 4>,
    ground_colors: array<vec4<f32>, 16>,
    // Radians from the nadir.
    ground_angles: array<vec4<f32>, 4>,
}

@group(0) @binding(0) var<uniform> dome: Dome;

struct DomeOut {
    @builtin(position) clip_position: vec4<f32>,
    @location(0) ndc: vec2<f32>,
    // `dome.counts.xy`, the same for every pixel (see the note above).
    @location(1) @interpolate(flat) counts: vec2<u32>,
}

// A triangle covering the viewport: vertices (−1,−1), (3,−1), (−1,3).
@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> DomeOut {
    let ndc = vec2<f32>(f32((index << 1u) & 2u) * 2.0 - 1.0, f32(index & 2u) * 2.0 - 1.0);
    var out: DomeOut;
    out.clip_position = vec4<f32>(ndc, 1.0, 1.0);
    out.ndc = ndc;
    out.counts = dome.counts.xy;
    return out;
}

fn sky_angle(i: u32) -> f32 {
    return dome.sky_angles[i / 4u][i % 4u];
}

fn ground_angle(i: u32) -> f32 {
    return dome.ground_angles[i / 4u][i % 4u];
}

fn srgb_to_linear(c: vec3<f32>) -> vec3<f32> {
    let x = clamp(c, vec3<f32>(0.0), vec3<f32>(1.0));
    return select(pow((x + 0.055) / 1.055, vec3<f32>(2.4)), x / 12.92, x <= vec3<f32>(0.04045));
}

@fragment
fn fs_main(in: DomeOut) -> @location(0) vec4<f32> {
    let near = dome.world_from_clip * vec4<f32>(in.ndc, 0.0, 1.0);
    let far = dome.world_from_clip * vec4<f32>(in.ndc, 1.0, 1.0);
    let direction = normalize(far.xyz / far.w - near.xyz / near.w);
    let from_zenith = acos(clamp(direction.y, -1.0, 1.0));
    let from_nadir = 3.14159265 - from_zenith;
    let ground_n = min(in.counts.y, 16u);
    if ground_n > 1u && from_nadir <= ground_angle(ground_n - 2u) {
        var color = dome.ground_colors[ground_n - 1u].rgb;
        var below = 0.0;
        for (var i = 0u; i + 1u < ground_n; i++) {
            let a = ground_angle(i);
            if from_nadir <= a {
                let t = select(1.0, clamp((from_nadir - below) / (a - below), 0.0, 1.0), a > below);
                color = mix(dome.ground_colors[i].rgb, dome.ground_colors[i + 1u].rgb, t);
                break;
            }
            below = a;
        }
        return vec4<f32>(srgb_to_linear(color), 1.0);
    }
    let sky_n = clamp(in.counts.x, 1u, 16u);
    var color = dome.sky_colors[sky_n - 1u].rgb;
    var below = 0.0;
    for (var i = 0u; i + 1u < sky_n; i++) {
        let a = sky_angle(i);
        if from_zenith <= a {
            let t = select(1.0, clamp((from_zenith - below) / (a - below), 0.0, 1.0), a > below);
            color = mix(dome.sky_colors[i].rgb, dome.sky_colors[i + 1u].rgb, t);
            break;
        }
        below = a;
    }
    return vec4<f32>(srgb_to_linear(color), 1.0);
}
