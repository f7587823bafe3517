// Group 0 of both render passes, the frame uniform: camera, headlight, key light, ambient light, the
// lighting model and the file's lights. `src/gpu/shaders.rs` puts this file before `humanoid.wgsl` and
// `lines.wgsl`, which use it; it is mirrored by `GpuFrame` and `GpuLight` in
// `src/gpu/layout/humanoid.rs` (sizes and offsets checked by a test there).

struct Light {
    // xyz: position (point, spot) or the direction the light travels (directional); w: 0 directional,
    // 1 point, 2 spot.
    position: vec4<f32>,
    // rgb: the colour as the lighting model takes it (the file's value in the standard model, linear in the
    // studio look: `GpuLight::from_scene`); w: ambientIntensity.
    color: vec4<f32>,
    // xyz: unit direction of a spot light; w: intensity (diffuse and specular terms only, 17.2.2.4).
    direction: vec4<f32>,
    // xyz: attenuation (constant, linear, quadratic); w: radius.
    attenuation: vec4<f32>,
    // x: beamWidth, y: cutOffAngle (radians).
    cone: vec4<f32>,
}

struct Frame {
    clip_from_world: mat4x4<f32>,
    // xyz: camera position in world space.
    camera_position: vec4<f32>,
    // xyz: unit direction towards the headlight (the camera's backward axis); w: its intensity.
    headlight: vec4<f32>,
    // xyz: unit direction towards the key light; w: its intensity.
    key_light: vec4<f32>,
    // rgb: ambient light colour (scaled by each material's ambientIntensity; zero in the standard model);
    // w: unused.
    ambient: vec4<f32>,
    // x: how many of `lights` are used.
    light_count: vec4<u32>,
    // x: 1 = X3D lighting equations on the file's colour values (standard), 0 = in linear light (studio);
    // y: 1 = an RGB texture multiplies the diffuse colour (X3D 4), 0 = it replaces it (X3D 3, VRML97);
    // z: the skin overlay drawn instead of the materials (0 none, 1 heatmap, 2 influence count, 3 weight sum).
    model: vec4<u32>,
    // The file's DirectionalLight, PointLight and SpotLight nodes, world space.
    lights: array<Light, 8>,
}

@group(0) @binding(0) var<uniform> frame: Frame;

