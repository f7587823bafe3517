// Overlay lines (`src/gpu/overlay.rs`): the skeleton (bones and joint crosses) and the ground grid.
// World-space line lists with a linear RGBA colour per vertex; no lighting. `Frame` is the humanoid
// shader's group 0, shared by both passes (mirrored by `GpuFrame` in `src/gpu/render_pass.rs`).

struct Light {
    // xyz: position (point, spot) or the direction the light travels (directional); w: 0 directional,
    // 1 point, 2 spot.
    position: vec4<f32>,
    // rgb: linear colour × intensity; w: ambientIntensity.
    color: vec4<f32>,
    // xyz: unit direction of a spot light.
    direction: vec4<f32>,
    // xyz: attenuation (constant, linear, quadratic); w: radius.
    attenuation: vec4<f32>,
    // x: beamWidth, y: cutOffAngle (radians).
    cone: vec4<f32>,
}

struct Frame {
    clip_from_world: mat4x4<f32>,
    camera_position: vec4<f32>,
    headlight: vec4<f32>,
    key_light: vec4<f32>,
    ambient: vec4<f32>,
    light_count: vec4<u32>,
    lights: array<Light, 8>,
}

@group(0) @binding(0) var<uniform> frame: Frame;

struct LineIn {
    @location(0) position: vec3<f32>,
    @location(1) color: vec4<f32>,
}

struct LineOut {
    @builtin(position) clip_position: vec4<f32>,
    @location(0) color: vec4<f32>,
}

@vertex
fn vs_main(vertex: LineIn) -> LineOut {
    var out: LineOut;
    out.clip_position = frame.clip_from_world * vec4<f32>(vertex.position, 1.0);
    out.color = vertex.color;
    return out;
}

@fragment
fn fs_main(in: LineOut) -> @location(0) vec4<f32> {
    return in.color;
}
