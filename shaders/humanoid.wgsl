// The skinned humanoid: vertex + fragment shaders of the render pass (`src/gpu/render_pass.rs`).
//
// Positions are gathered, not streamed: each corner carries the index of the skin point it draws
// (`source_point`), and the vertex shader reads that point from the skin pass's output buffer
// (`points`, one vec4 per skin point, humanoid space). The corner's skinned normal is read likewise from
// the skin pass's per-corner normal buffer (`normals`, indexed by the corner, i.e. the vertex index).
// `Placement` moves both to world space (H = W_parent·L(humanoid), semantics note §1.2).
//
// Instances: a draw holds one placement per instance (copies of a humanoid skinned together, see
// `skin_morph.wgsl`) and is drawn instanced; the placement arrives as instance-rate vertex attributes
// (`PlacementIn`, a buffer of `GpuPlacement`s), fetched once per instance rather than gathered from a
// storage buffer at every vertex. Instance k reads its points from `first.x` on and its normals from
// `first.y` on. A single humanoid is instance 0 with both at 0.
//
// Lighting (`src/gpu/lighting.rs`): the standard model is the X3D lighting equations (X3D 4.0, 17.2.2.4)
// on the file's colour values: emissive, plus each light's ambient (its ambientIntensity), diffuse and
// specular terms, the NavigationInfo headlight being a white DirectionalLight along the view. The studio
// look lights in linear RGB and adds a soft key light and a white ambient term. Colours reach the shader
// in linear light (converted on the CPU; textures sampled from sRGB formats) and the target is an sRGB
// format, so the hardware encodes the output.
//
// `Light`, `Frame` and group 0 come from `frame.wgsl`, which `src/gpu/shaders.rs` puts before this file.
// Structs are mirrored by `GpuPlacement`, `GpuMaterial` in `src/gpu/layout/humanoid.rs` (sizes and offsets
// checked by a test there).

// One instance's placement (`GpuPlacement` in `src/gpu/layout/humanoid.rs`, read as vertex attributes
// by `placement_attributes` in `src/gpu/render_pass.rs`).
struct PlacementIn {
    @location(4) world_0: vec4<f32>,
    @location(5) world_1: vec4<f32>,
    @location(6) world_2: vec4<f32>,
    @location(7) world_3: vec4<f32>,
    // (H[3×3])⁻ᵀ as three columns (w unused).
    @location(8) normal_0: vec4<f32>,
    @location(9) normal_1: vec4<f32>,
    @location(10) normal_2: vec4<f32>,
    // Skin overlay values for every point of this draw (x: the selected joint's weight, y: influence
    // count, z: weight sum) when w = 1 (a segment, 100 % its joint's); w = 0: read `overlay_values`.
    @location(11) overlay: vec4<f32>,
    // x: this instance's first entry in `points`, y: its first entry in `normals` (zw unused).
    @location(12) first: vec4<u32>,
}

struct Material {
    // rgb: linear diffuse colour; a: opacity (1 − transparency).
    diffuse: vec4<f32>,
    // rgb: linear specular colour; w: specular exponent (128·shininess).
    specular: vec4<f32>,
    // rgb: linear emissive colour; w: ambientIntensity.
    emissive: vec4<f32>,
    // x: lit (1) or unlit (0); y: vertex colours replace the diffuse/emissive colour; z: two-sided lighting;
    // w: texture (0 none, 1 RGB(A): multiplies or replaces the material/vertex colour as `frame.model.y`
    // says, 2 intensity: modulates it).
    flags: vec4<u32>,
    // The TextureTransform as an affine map of (s, t, 1): s' = dot(texture_s.xyz, …), t' likewise
    // (w unused). Applied here rather than to the corners, so that an event changing it rewrites this
    // uniform only.
    texture_s: vec4<f32>,
    texture_t: vec4<f32>,
    // PhysicalMaterial: x metallic, y roughness; any lit material: z occlusionStrength, w normalScale.
    pbr: vec4<f32>,
    // x: 1 = the glTF metallic-roughness BRDF (`physical.wgsl`), 0 = the Phong equations; y: the maps
    // bound (MAP_* bits, `src/mesh/material_maps.rs`).
    model: vec4<u32>,
    // rgb: the diffuse, specular and emissive colours as the standard model takes them (the file's values,
    // clamped), so that no uniform colour is encoded per fragment.
    standard_diffuse: vec4<f32>,
    standard_specular: vec4<f32>,
    standard_emissive: vec4<f32>,
}

@group(1) @binding(1) var<storage, read> points: array<vec4<f32>>;
// Per skin point (weight, count, sum, 0), written by `skin_overlay` in `skin_morph.wgsl`; the same for
// every instance.
@group(1) @binding(2) var<storage, read> overlay_values: array<vec4<f32>>;
// Per corner and instance: the skinned normal (xyz, 0), humanoid space.
@group(1) @binding(3) var<storage, read> normals: array<vec4<f32>>;
@group(2) @binding(0) var<uniform> material: Material;
// The shape's ImageTexture (sRGB texels, sampled as linear), or 1×1 white when it has none.
@group(2) @binding(1) var image: texture_2d<f32>;
@group(2) @binding(2) var image_sampler: sampler;
// The other X3D 4.0 material maps (`src/gpu/material_bindings.rs`), 1×1 white where absent: roughness (G)
// and metalness (B), a tangent-space normal map and occlusion (R) hold linear values; the emissive map
// sRGB colours, sampled as linear.
@group(2) @binding(3) var metallic_roughness_map: texture_2d<f32>;
@group(2) @binding(4) var metallic_roughness_sampler: sampler;
@group(2) @binding(5) var normal_map: texture_2d<f32>;
@group(2) @binding(6) var normal_sampler: sampler;
@group(2) @binding(7) var occlusion_map: texture_2d<f32>;
@group(2) @binding(8) var occlusion_sampler: sampler;
@group(2) @binding(9) var emissive_map: texture_2d<f32>;
@group(2) @binding(10) var emissive_sampler: sampler;

const MAP_METALLIC_ROUGHNESS: u32 = 1u;
const MAP_NORMAL: u32 = 2u;
const MAP_OCCLUSION: u32 = 4u;
const MAP_EMISSIVE: u32 = 8u;

// Pipeline constants: what a part's material runs, fixed when its pipeline is made (`Shading` in
// `src/gpu/render_pass/pipelines.rs`, read from the material's `flags`, `model` and the frame's look). A
// software rasteriser shades a block of pixels at once under a mask and so runs both sides of every
// branch: a branch on a uniform value costs what its untaken side costs, every texture sample and the
// PhysicalMaterial code included (nine-tenths of a crowd's frame on llvmpipe). A constant removes the
// untaken side when the pipeline is compiled.
// `material.flags.x`: lit (false: unlit: no Material, UnlitMaterial, lines and points).
override LIT: bool = true;
// `material.model.x`: the glTF metallic-roughness BRDF (`physical.wgsl`) rather than the Phong equations.
override PHYSICAL: bool = false;
// `material.flags.y`: vertex colours replace the diffuse (lit) or emissive (unlit) colour.
override VERTEX_COLORS: bool = false;
// `material.flags.w`: 0 no texture, 1 RGB(A), 2 intensity.
override TEXTURE_MODE: u32 = 0u;
// `material.model.y`: the maps bound (MAP_* bits).
override MAPS: u32 = 0u;
// `frame.model.x`: the standard model; false: the studio look.
override STANDARD: bool = true;
// The scene's light nodes in `frame.lights`: bits 0–3 how many (≤ 8), then two bits per light, its kind
// (`Light.position.w`: 0 directional, 1 point, 2 spot). The lights are unrolled (`scene_lights`), so
// each costs what its kind computes, and none costs nothing: a software rasteriser runs a loop's body at
// least once, masked, however few times it iterates.
override LIGHTS: u32 = 0u;
// The draw's scoped lights (`src/gpu/scoped_lights.rs`), laid out as `LIGHTS`, plus bit 31: the instances'
// lists differ in kinds, so each light's kind is read from it.
override SCOPED_LIGHTS: u32 = 0u;

// Lights that reach only some instances (an Inline's own lights, a DirectionalLight's group: see
// `src/hanim/light_scope.rs`): `SCOPED_LIGHTS & 15` per instance, the file's colours as the standard
// model takes them.
@group(3) @binding(0) var<storage, read> scoped_lights: array<Light>;

// A material map's value at this fragment: the maps share the base map's texture coordinates.
struct MapSamples {
    metallic_roughness: vec4<f32>,
    normal: vec4<f32>,
    occlusion: vec4<f32>,
    emissive: vec4<f32>,
}

struct CornerIn {
    @builtin(vertex_index) corner: u32,
    @builtin(instance_index) instance: u32,
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
    // Skin overlay: rgb the (sRGB) colour of the influence count or weight-sum modes, w the selected
    // joint's weight (the heatmap ramps it per fragment, so that the ramp is not interpolated linearly).
    @location(4) overlay: vec4<f32>,
    // The instance drawn (its scoped lights are `scoped_lights`' entries from instance · count on).
    @location(5) @interpolate(flat) instance: u32,
}

// Two pairs of entry points: `vs_main`/`vs_lines` draw the materials, `vs_main_overlay`/`vs_lines_overlay`
// (the pipelines used while a skin overlay is shown) add the overlay values. Keeping the overlay out of the
// everyday pipelines spares every vertex a gather from `overlay_values` and the palette: on llvmpipe, whose
// vertex stage runs on one thread, that was a fifth of a crowd's frame.
@vertex
fn vs_main(corner: CornerIn, placement: PlacementIn) -> VertexOut {
    return corner_vertex(corner, placement);
}

@vertex
fn vs_main_overlay(corner: CornerIn, placement: PlacementIn) -> VertexOut {
    return with_overlay(corner_vertex(corner, placement), corner, placement);
}

fn corner_vertex(corner: CornerIn, placement: PlacementIn) -> VertexOut {
    let p = points[placement.first.x + corner.source_point];
    let world_from_humanoid = mat4x4<f32>(placement.world_0, placement.world_1, placement.world_2, placement.world_3);
    let world = world_from_humanoid * vec4<f32>(p.xyz, 1.0);
    let n = mat3x3<f32>(placement.normal_0.xyz, placement.normal_1.xyz, placement.normal_2.xyz);
    let normal = n * normals[placement.first.y + corner.corner].xyz;
    var out: VertexOut;
    out.clip_position = frame.clip_from_world * world;
    out.world_position = world.xyz;
    out.world_normal = normal;
    out.color = corner.color;
    out.uv = corner.uv;
    out.overlay = vec4<f32>(0.0);
    out.instance = corner.instance;
    return out;
}

// The skin overlay's values at this vertex. The mode is selected, not branched on: lavapipe (Mesa 22.3)
// compiles a fresh copy of a shader whose branches read uniform values, with the values inlined, each
// time its pipeline is bound, and keeps every copy, so that a turntable grew by 0.25 MB a frame. A
// selection is compiled once.
fn with_overlay(vertex: VertexOut, corner: CornerIn, placement: PlacementIn) -> VertexOut {
    var out = vertex;
    let own = placement.overlay;
    let values = select(overlay_values[corner.source_point], own, own.w != 0.0);
    let mode = frame.model.z;
    out.overlay = select(vec4<f32>(0.0), vec4<f32>(overlay_point_color(mode, values.xyz), values.x), mode != 0u);
    return out;
}

// Skin inspection colours, the twins of `src/pose/skin_inspection.rs` (sRGB values): mode 2 colours the
// influence count, mode 3 the weight sum; mode 1 (the heatmap) is coloured per fragment.
const WEIGHT_SUM_TOLERANCE: f32 = 0.01;
const WEIGHT_SUM_ZERO: f32 = 0.0001;

fn overlay_point_color(mode: u32, values: vec3<f32>) -> vec3<f32> {
    // Selections, not branches, for the reason given in `corner_vertex`.
    let count = u32(values.y + 0.5);
    let sum = values.z;
    var palette = array<vec3<f32>, 6>(
        vec3<f32>(0.35, 0.35, 0.35),
        vec3<f32>(0.20, 0.45, 1.00),
        vec3<f32>(0.15, 0.75, 0.25),
        vec3<f32>(1.00, 0.85, 0.10),
        vec3<f32>(1.00, 0.45, 0.05),
        vec3<f32>(0.85, 0.10, 0.85),
    );
    let by_count = palette[min(count, 5u)];
    var by_sum = vec3<f32>(0.72, 0.72, 0.72);
    by_sum = select(by_sum, vec3<f32>(1.0, 0.1, 0.05), sum > 1.0 + WEIGHT_SUM_TOLERANCE);
    by_sum = select(by_sum, vec3<f32>(1.0, 0.85, 0.0), sum < 1.0 - WEIGHT_SUM_TOLERANCE);
    by_sum = select(by_sum, vec3<f32>(1.0, 0.0, 1.0), count == 0u || abs(sum) < WEIGHT_SUM_ZERO);
    return select(select(vec3<f32>(0.0), by_sum, mode == 3u), by_count, mode == 2u);
}

// Turbo (Mikhailov 2019), its published polynomial approximation; the heatmap uses its 0.1–0.9 stretch.
fn turbo(t: f32) -> vec3<f32> {
    let x = clamp(t, 0.0, 1.0);
    let v4 = vec4<f32>(1.0, x, x * x, x * x * x);
    let v2 = v4.zw * v4.z;
    let r = dot(v4, vec4<f32>(0.13572138, 4.61539260, -42.66032258, 132.13108234)) + dot(v2, vec2<f32>(-152.94239396, 59.28637943));
    let g = dot(v4, vec4<f32>(0.09140261, 2.19418839, 4.84296658, -14.18503333)) + dot(v2, vec2<f32>(4.27729857, 2.82956604));
    let b = dot(v4, vec4<f32>(0.10667330, 12.64194608, -60.58204836, 110.36276771)) + dot(v2, vec2<f32>(-89.90310912, 27.34824973));
    return clamp(vec3<f32>(r, g, b), vec3<f32>(0.0), vec3<f32>(1.0));
}

fn heat(w: f32) -> vec3<f32> {
    return turbo(0.1 + 0.8 * clamp(w, 0.0, 1.0));
}

// Lines and points over a surface (a wireframe over the skin, sticks along a segment) share its vertices,
// so their depth equals the surface's and would lose the depth test at random. They are drawn from a
// point moved toward the camera by 2^-12 of its distance: on the same pixel (along the view ray), nearer
// by more than the depth buffer resolves at the usual near/far ratios, yet less than the radius of the
// smallest joint marker a line runs through (6 mm at 4 m in the specification models).
const LINE_DEPTH_NUDGE: f32 = 0.000244140625;

@vertex
fn vs_lines(corner: CornerIn, placement: PlacementIn) -> VertexOut {
    return nudged(corner_vertex(corner, placement));
}

@vertex
fn vs_lines_overlay(corner: CornerIn, placement: PlacementIn) -> VertexOut {
    return nudged(with_overlay(corner_vertex(corner, placement), corner, placement));
}

fn nudged(vertex: VertexOut) -> VertexOut {
    var out = vertex;
    let nearer = mix(out.world_position, frame.camera_position.xyz, LINE_DEPTH_NUDGE);
    out.clip_position = frame.clip_from_world * vec4<f32>(nearer, 1.0);
    return out;
}

// An sRGB-encoded value of a linear colour (the inverse of the CPU's `linear_from_srgb`).
fn srgb_from_linear(c: vec3<f32>) -> vec3<f32> {
    let x = clamp(c, vec3<f32>(0.0), vec3<f32>(1.0));
    return select(1.055 * pow(x, vec3<f32>(1.0 / 2.4)) - 0.055, x * 12.92, x <= vec3<f32>(0.0031308));
}

fn linear_from_srgb(c: vec3<f32>) -> vec3<f32> {
    let x = clamp(c, vec3<f32>(0.0), vec3<f32>(1.0));
    return select(pow((x + 0.055) / 1.055, vec3<f32>(2.4)), x / 12.92, x <= vec3<f32>(0.04045));
}

// Colours arrive in linear light (converted on the CPU, textures sampled from sRGB formats). The standard
// model evaluates the X3D equations on the values as the file writes them, so it encodes them back: the
// per-fragment ones (vertex colours, texels) here, the uniform ones on the CPU (`standard_*`, the lights'
// colours), since an encoding per fragment of a value every fragment shares is what a software rasteriser
// spends its time on.
fn model_color(c: vec3<f32>) -> vec3<f32> {
    if STANDARD {
        return srgb_from_linear(c);
    }
    return c;
}

// A material colour in the current model: `linear` in the studio look, `standard` in the standard model.
fn material_color(linear: vec3<f32>, standard: vec4<f32>) -> vec3<f32> {
    if STANDARD {
        return standard.rgb;
    }
    return linear;
}

// Diffuse + Blinn-Phong specular of one directional light (X3D 17.2.2.4: Iᵢ × (OD × N·L + OS × (N·H)^128s),
// colour applied by the caller; no attenuation).
fn light(n: vec3<f32>, v: vec3<f32>, l: vec3<f32>, intensity: f32, base: vec3<f32>, specular: vec3<f32>) -> vec3<f32> {
    let n_dot_l = dot(n, l);
    if n_dot_l <= 0.0 {
        return vec3<f32>(0.0);
    }
    let h = normalize(l + v);
    let spec = pow(max(dot(n, h), 0.0), max(material.specular.w, 1.0));
    return intensity * (base * n_dot_l + specular * spec);
}

// Where a light comes from at `p` and how much of it arrives there: xyz the unit direction towards the
// light, w the attenuation (1 / max(c₁ + c₂d + c₃d², 1), X3D 17.2.2.4) times the spot factor (full inside
// beamWidth, fading linearly to zero at cutOffAngle); w = 0 beyond the radius or outside the cone.
fn light_arrival(l: Light, kind: u32, p: vec3<f32>) -> vec4<f32> {
    var to_light = -l.position.xyz;
    var factor = 1.0;
    if kind != LIGHT_DIRECTIONAL {
        let offset = l.position.xyz - p;
        let d = length(offset);
        if d > l.attenuation.w {
            return vec4<f32>(0.0);
        }
        to_light = offset / max(d, 1e-6);
        let a = l.attenuation.xyz;
        factor = 1.0 / max(a.x + a.y * d + a.z * d * d, 1.0);
        if kind == LIGHT_SPOT {
            let angle = acos(clamp(dot(-to_light, l.direction.xyz), -1.0, 1.0));
            let beam = l.cone.x;
            let cut_off = l.cone.y;
            if angle >= cut_off {
                return vec4<f32>(0.0);
            }
            if angle > beam && cut_off > beam {
                factor *= (cut_off - angle) / (cut_off - beam);
            }
        }
    }
    return vec4<f32>(normalize(to_light), factor);
}

const LIGHT_DIRECTIONAL: u32 = 0u;
const LIGHT_SPOT: u32 = 2u;

// How many of `frame.lights` light the scene, and the kind of light `i` (see `LIGHTS`).
fn light_count() -> u32 {
    return LIGHTS & 15u;
}

fn light_kind(i: u32) -> u32 {
    return (LIGHTS >> (4u + 2u * i)) & 3u;
}

// One X3D light node's contribution, 17.2.2.4: onᵢ × attenuationᵢ × spotᵢ × ILrgb × (ambientᵢ + diffuseᵢ +
// specularᵢ), with ambientᵢ = Iaᵢ × OD × Oa (the light's ambientIntensity, not its intensity). `ambient`
// scales the ambient term (the occlusion map).
fn lit_by(l: Light, kind: u32, p: vec3<f32>, n: vec3<f32>, v: vec3<f32>, base: vec3<f32>, specular: vec3<f32>, ambient: f32) -> vec3<f32> {
    let arrival = light_arrival(l, kind, p);
    if arrival.w <= 0.0 {
        return vec3<f32>(0.0);
    }
    let ambient_term = ambient * l.color.w * material.emissive.w * base;
    let lit = light(n, v, arrival.xyz, l.direction.w, base, specular);
    return arrival.w * l.color.rgb * (ambient_term + lit);
}

// Scene light `i` of the frame (nothing past `light_count()`).
fn scene_light(i: u32, p: vec3<f32>, n: vec3<f32>, v: vec3<f32>, base: vec3<f32>, specular: vec3<f32>, ambient: f32) -> vec3<f32> {
    if i >= light_count() {
        return vec3<f32>(0.0);
    }
    return lit_by(frame.lights[i], light_kind(i), p, n, v, base, specular, ambient);
}

// How many scoped lights each instance has.
fn scoped_count() -> u32 {
    return SCOPED_LIGHTS & 15u;
}

// Scoped light `j` of `instance` as the file writes it (its colour the file's, in either look).
fn scoped_entry(j: u32, instance: u32) -> Light {
    return scoped_lights[instance * scoped_count() + j];
}

// Scoped light `j` of `instance`, as the lighting model takes its colour.
fn scoped_light(j: u32, instance: u32) -> Light {
    var l = scoped_entry(j, instance);
    if !STANDARD {
        l.color = vec4<f32>(linear_from_srgb(l.color.rgb), l.color.w);
    }
    return l;
}

fn scoped_kind(j: u32, l: Light) -> u32 {
    if (SCOPED_LIGHTS & 0x80000000u) != 0u {
        return u32(l.position.w + 0.5);
    }
    return (SCOPED_LIGHTS >> (4u + 2u * j)) & 3u;
}

fn scoped_lit_by(j: u32, instance: u32, p: vec3<f32>, n: vec3<f32>, v: vec3<f32>, base: vec3<f32>, specular: vec3<f32>, ambient: f32) -> vec3<f32> {
    if j >= scoped_count() {
        return vec3<f32>(0.0);
    }
    let l = scoped_light(j, instance);
    return lit_by(l, scoped_kind(j, l), p, n, v, base, specular, ambient);
}

// Every light's contribution, the frame's and the instance's scoped ones, unrolled: with `i` a constant,
// each light's kind and presence are constants the pipeline folds away.
fn scene_lights(instance: u32, p: vec3<f32>, n: vec3<f32>, v: vec3<f32>, base: vec3<f32>, specular: vec3<f32>, ambient: f32) -> vec3<f32> {
    var c = scene_light(0u, p, n, v, base, specular, ambient) + scene_light(1u, p, n, v, base, specular, ambient);
    c += scene_light(2u, p, n, v, base, specular, ambient) + scene_light(3u, p, n, v, base, specular, ambient);
    c += scene_light(4u, p, n, v, base, specular, ambient) + scene_light(5u, p, n, v, base, specular, ambient);
    c += scene_light(6u, p, n, v, base, specular, ambient) + scene_light(7u, p, n, v, base, specular, ambient);
    c += scoped_lit_by(0u, instance, p, n, v, base, specular, ambient) + scoped_lit_by(1u, instance, p, n, v, base, specular, ambient);
    c += scoped_lit_by(2u, instance, p, n, v, base, specular, ambient) + scoped_lit_by(3u, instance, p, n, v, base, specular, ambient);
    c += scoped_lit_by(4u, instance, p, n, v, base, specular, ambient) + scoped_lit_by(5u, instance, p, n, v, base, specular, ambient);
    c += scoped_lit_by(6u, instance, p, n, v, base, specular, ambient) + scoped_lit_by(7u, instance, p, n, v, base, specular, ambient);
    return c;
}

// The skin overlay's flat, unlit colours (the pipelines used while an overlay is shown), so that a pixel
// reads as its value on the legend.
@fragment
fn fs_overlay(in: VertexOut) -> @location(0) vec4<f32> {
    var srgb = in.overlay.rgb;
    if frame.model.z == 1u {
        srgb = heat(in.overlay.w);
    }
    return vec4<f32>(linear_from_srgb(srgb), 1.0);
}

@fragment
fn fs_main(in: VertexOut, @builtin(front_facing) front_facing: bool) -> @location(0) vec4<f32> {
    let st = vec3<f32>(in.uv, 1.0);
    let uv = vec2<f32>(dot(material.texture_s.xyz, st), dot(material.texture_t.xyz, st));
    let image_uv = vec2<f32>(uv.x, 1.0 - uv.y);
    // Each texture is sampled only where the pipeline says the material has it; the conditions are
    // pipeline constants, so control flow stays uniform, as implicit derivatives need.
    var texel = vec4<f32>(1.0);
    if TEXTURE_MODE != 0u {
        texel = textureSample(image, image_sampler, image_uv);
    }
    var maps: MapSamples;
    if (MAPS & MAP_METALLIC_ROUGHNESS) != 0u {
        maps.metallic_roughness = textureSample(metallic_roughness_map, metallic_roughness_sampler, image_uv);
    }
    if (MAPS & MAP_NORMAL) != 0u {
        maps.normal = textureSample(normal_map, normal_sampler, image_uv);
    }
    if (MAPS & MAP_OCCLUSION) != 0u {
        maps.occlusion = textureSample(occlusion_map, occlusion_sampler, image_uv);
    }
    if (MAPS & MAP_EMISSIVE) != 0u {
        maps.emissive = textureSample(emissive_map, emissive_sampler, image_uv);
    }
    // The normal map's tangent frame comes from these screen-space derivatives (`physical.wgsl`), taken
    // with y up (WGSL's framebuffer y runs down) so that the frame's handedness is the surface's.
    var dp_dx = vec3<f32>(0.0);
    var dp_dy = vec3<f32>(0.0);
    var duv_dx = vec2<f32>(0.0);
    var duv_dy = vec2<f32>(0.0);
    if (MAPS & MAP_NORMAL) != 0u {
        dp_dx = dpdx(in.world_position);
        dp_dy = -dpdy(in.world_position);
        duv_dx = dpdx(uv);
        duv_dy = -dpdy(uv);
    }
    // Without a colour node every corner is white: the corner colour is not read (nor interpolated).
    var corner_color = vec4<f32>(1.0);
    if VERTEX_COLORS {
        corner_color = in.color;
    }
    var alpha = material.diffuse.a * corner_color.a;
    // The texel in the current model (encoded per fragment only where there is a texture).
    var texel_rgb = vec3<f32>(1.0);
    if TEXTURE_MODE != 0u {
        alpha *= texel.a;
        texel_rgb = model_color(texel.rgb);
    }
    if !LIT {
        // Unlit (no Material, UnlitMaterial, lines and points): the colour as given.
        var unlit = material_color(material.emissive.rgb, material.standard_emissive);
        if VERTEX_COLORS {
            unlit = model_color(in.color.rgb);
        }
        if TEXTURE_MODE == 1u {
            unlit = select(texel_rgb, unlit * texel_rgb, frame.model.y != 0u);
        } else if TEXTURE_MODE == 2u {
            unlit *= texel_rgb.r;
        }
        return vec4<f32>(output(unlit, STANDARD), alpha);
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
    if (MAPS & MAP_NORMAL) != 0u {
        n = mapped_normal(n, maps.normal.xyz, dp_dx, dp_dy, duv_dx, duv_dy, material.pbr.w);
    }
    // Ambient occlusion (the map's R): it darkens ambient light only (glTF 2.0 3.9.4).
    var ambient = 1.0;
    if (MAPS & MAP_OCCLUSION) != 0u {
        ambient = 1.0 + material.pbr.z * (maps.occlusion.r - 1.0);
    }
    if PHYSICAL {
        // PhysicalMaterial: vertex colours and the base map multiply baseColor (glTF 2.0 3.9.2).
        var physical_base = material.diffuse.rgb * corner_color.rgb;
        if TEXTURE_MODE != 0u {
            physical_base *= texel.rgb;
        }
        let physical = physical_color(in.instance, in.world_position, n, v, physical_base, maps, ambient);
        return vec4<f32>(output(physical, false), alpha);
    }
    // The diffuse factor OD (Table 17.3): the Color node's colour, else diffuseColor; an RGB texture
    // multiplies it in X3D 4 and replaces it in X3D 3.x / VRML97; an intensity texture modulates it.
    var base = material_color(material.diffuse.rgb, material.standard_diffuse);
    if VERTEX_COLORS {
        base = model_color(in.color.rgb);
    }
    if TEXTURE_MODE == 1u {
        base = select(texel_rgb, base * texel_rgb, frame.model.y != 0u);
    } else if TEXTURE_MODE == 2u {
        base *= texel_rgb.r;
    }
    let specular = material_color(material.specular.rgb, material.standard_specular);
    var emissive = material_color(material.emissive.rgb, material.standard_emissive);
    if (MAPS & MAP_EMISSIVE) != 0u {
        emissive *= model_color(maps.emissive.rgb);
    }
    var color = emissive + ambient * frame.ambient.rgb * material.emissive.w * base;
    color += light(n, v, frame.headlight.xyz, frame.headlight.w, base, specular);
    if !STANDARD {
        // The studio look's key light (the standard model has none).
        color += light(n, v, frame.key_light.xyz, frame.key_light.w, base, specular);
    }
    color += scene_lights(in.instance, in.world_position, n, v, base, specular, ambient);
    return vec4<f32>(output(color, STANDARD), alpha);
}

// The fragment's value for the sRGB target, which encodes what it is given: the standard model's result is
// already the pixel's (sRGB) value, so it is decoded first; the studio look's is linear light.
fn output(color: vec3<f32>, standard: bool) -> vec3<f32> {
    let c = min(color, vec3<f32>(1.0));
    if standard {
        return linear_from_srgb(c);
    }
    return c;
}
