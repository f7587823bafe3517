// Overlay lines (`src/gpu/overlay.rs`): the skeleton (bones and joint crosses) and the ground grid.
// World-space line lists with a linear RGBA colour per vertex; no lighting. `Frame` (group 0, shared with
// the humanoid pass) comes from `frame.wgsl`, which `src/gpu/shaders.rs` puts before this file.

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
