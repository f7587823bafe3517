// PhysicalMaterial lighting and the normal map, for `humanoid.wgsl` (joined after it by
// `src/gpu/shaders.rs`; `material`, `frame`, `Light`, `MapSamples` and `light_arrival` come from there).
//
// X3D 4.0 (12.4.3 PhysicalMaterial, 17.2.2.5) takes the glTF 2.0 metallic-roughness model: the BRDF of
// glTF 2.0 Appendix B — a Lambertian diffuse lobe and a GGX specular lobe (Trowbridge-Reitz distribution,
// height-correlated Smith visibility, Schlick Fresnel) — blended as
//     dielectric = mix(diffuse, specular, F(0.04)),  metal = F(baseColor) · specular,
//     result     = mix(dielectric, metal, metallic),
// evaluated in linear light for each punctual light (radiance = intensity × colour × attenuation ×
// spot, X3D's light fields) and the headlight, plus emissive. The material's colours (baseColor,
// emissiveColor), vertex colours and light colours are linear values as written (glTF 2.0 3.9.2);
// the base and emissive maps are sRGB images, sampled as linear. No image-based lighting: the file asks for
// none (an EnvironmentLight is not drawn). Ambient light, where the viewing look has some (the studio
// look), lights the diffuse colour, darkened by the occlusion map.

const PI: f32 = 3.14159265358979;

fn fresnel_schlick(f0: vec3<f32>, v_dot_h: f32) -> vec3<f32> {
    return f0 + (vec3<f32>(1.0) - f0) * pow(clamp(1.0 - v_dot_h, 0.0, 1.0), 5.0);
}

// Height-correlated Smith visibility V = G / (4 N·L N·V) for GGX.
fn visibility_ggx(n_dot_l: f32, n_dot_v: f32, alpha: f32) -> f32 {
    let a2 = alpha * alpha;
    let ggx_v = n_dot_l * sqrt(n_dot_v * n_dot_v * (1.0 - a2) + a2);
    let ggx_l = n_dot_v * sqrt(n_dot_l * n_dot_l * (1.0 - a2) + a2);
    let sum = ggx_v + ggx_l;
    return select(0.0, 0.5 / sum, sum > 0.0);
}

// Trowbridge-Reitz (GGX) distribution of microfacet normals.
fn distribution_ggx(n_dot_h: f32, alpha: f32) -> f32 {
    let a2 = alpha * alpha;
    let f = n_dot_h * n_dot_h * (a2 - 1.0) + 1.0;
    return a2 / (PI * f * f);
}

// The light arriving from direction `l` with `radiance`, reflected towards `v`.
fn physical_light(n: vec3<f32>, v: vec3<f32>, l: vec3<f32>, radiance: vec3<f32>, base: vec3<f32>, metallic: f32, alpha: f32) -> vec3<f32> {
    let n_dot_l = clamp(dot(n, l), 0.0, 1.0);
    if n_dot_l <= 0.0 {
        return vec3<f32>(0.0);
    }
    let h = normalize(l + v);
    let n_dot_v = clamp(dot(n, v), 0.0, 1.0);
    let n_dot_h = clamp(dot(n, h), 0.0, 1.0);
    let v_dot_h = clamp(dot(v, h), 0.0, 1.0);
    let specular = vec3<f32>(visibility_ggx(n_dot_l, n_dot_v, alpha) * distribution_ggx(n_dot_h, alpha));
    let diffuse = base / PI;
    let dielectric = mix(diffuse, specular, fresnel_schlick(vec3<f32>(0.04), v_dot_h));
    let metal = fresnel_schlick(base, v_dot_h) * specular;
    return radiance * n_dot_l * mix(dielectric, metal, metallic);
}

// Light `l`'s contribution, its colour `file_color` as the file writes it, taken as linear like the
// material's.
fn physical_lit_by(l: Light, kind: u32, file_color: vec3<f32>, p: vec3<f32>, n: vec3<f32>, v: vec3<f32>, base: vec3<f32>, metallic: f32, alpha: f32) -> vec3<f32> {
    let arrival = light_arrival(l, kind, p);
    if arrival.w <= 0.0 {
        return vec3<f32>(0.0);
    }
    let radiance = arrival.w * l.direction.w * file_color;
    return physical_light(n, v, arrival.xyz, radiance, base, metallic, alpha);
}

// The frame's light `i` (its colour is the file's in the standard model, decoded from sRGB in the studio
// look: encoded back here).
fn physical_scene_light(i: u32, p: vec3<f32>, n: vec3<f32>, v: vec3<f32>, base: vec3<f32>, metallic: f32, alpha: f32) -> vec3<f32> {
    if i >= light_count() {
        return vec3<f32>(0.0);
    }
    let l = frame.lights[i];
    var file_color = l.color.rgb;
    if !STANDARD {
        file_color = srgb_from_linear(l.color.rgb);
    }
    return physical_lit_by(l, light_kind(i), file_color, p, n, v, base, metallic, alpha);
}

// The instance's scoped light `j` (its colour is the file's in either look).
fn physical_scoped_light(j: u32, instance: u32, p: vec3<f32>, n: vec3<f32>, v: vec3<f32>, base: vec3<f32>, metallic: f32, alpha: f32) -> vec3<f32> {
    if j >= scoped_count() {
        return vec3<f32>(0.0);
    }
    let l = scoped_entry(j, instance);
    return physical_lit_by(l, scoped_kind(j, l), l.color.rgb, p, n, v, base, metallic, alpha);
}

// The PhysicalMaterial's colour at `p` (linear light): `base` is baseColor with vertex colours and the
// base map applied, `ambient` the occlusion factor.
fn physical_color(instance: u32, p: vec3<f32>, n: vec3<f32>, v: vec3<f32>, base: vec3<f32>, maps: MapSamples, ambient: f32) -> vec3<f32> {
    var metallic = material.pbr.x;
    var roughness = material.pbr.y;
    if (MAPS & MAP_METALLIC_ROUGHNESS) != 0u {
        metallic *= maps.metallic_roughness.b;
        roughness *= maps.metallic_roughness.g;
    }
    metallic = clamp(metallic, 0.0, 1.0);
    // Roughness is authored perceptually; the distribution takes its square. A floor keeps a perfectly
    // smooth surface's highlight finite.
    let alpha = max(clamp(roughness, 0.0, 1.0) * clamp(roughness, 0.0, 1.0), 0.002);
    var emissive = material.emissive.rgb;
    if (MAPS & MAP_EMISSIVE) != 0u {
        emissive *= maps.emissive.rgb;
    }
    var color = emissive + ambient * frame.ambient.rgb * material.emissive.w * base * (1.0 - metallic);
    color += physical_light(n, v, frame.headlight.xyz, vec3<f32>(frame.headlight.w), base, metallic, alpha);
    if !STANDARD {
        color += physical_light(n, v, frame.key_light.xyz, vec3<f32>(frame.key_light.w), base, metallic, alpha);
    }
    // Unrolled, as `scene_lights` is (`humanoid.wgsl`).
    color += physical_scene_light(0u, p, n, v, base, metallic, alpha) + physical_scene_light(1u, p, n, v, base, metallic, alpha);
    color += physical_scene_light(2u, p, n, v, base, metallic, alpha) + physical_scene_light(3u, p, n, v, base, metallic, alpha);
    color += physical_scene_light(4u, p, n, v, base, metallic, alpha) + physical_scene_light(5u, p, n, v, base, metallic, alpha);
    color += physical_scene_light(6u, p, n, v, base, metallic, alpha) + physical_scene_light(7u, p, n, v, base, metallic, alpha);
    color += physical_scoped_light(0u, instance, p, n, v, base, metallic, alpha) + physical_scoped_light(1u, instance, p, n, v, base, metallic, alpha);
    color += physical_scoped_light(2u, instance, p, n, v, base, metallic, alpha) + physical_scoped_light(3u, instance, p, n, v, base, metallic, alpha);
    color += physical_scoped_light(4u, instance, p, n, v, base, metallic, alpha) + physical_scoped_light(5u, instance, p, n, v, base, metallic, alpha);
    color += physical_scoped_light(6u, instance, p, n, v, base, metallic, alpha) + physical_scoped_light(7u, instance, p, n, v, base, metallic, alpha);
    return color;
}

// The normal a tangent-space normal map gives: the map's value in [0, 1]³ read as a vector in [−1, 1]³,
// X and Y scaled by normalScale, in the frame whose X runs along increasing s and Y along increasing t of
// the texture coordinates, Z along the surface normal `n`. The frame is the cotangent frame of the
// screen-space derivatives of the position and the texture coordinates (no tangents are stored), which
// also turns with mirrored texture coordinates. Degenerate coordinates leave `n` as it is.
fn mapped_normal(n: vec3<f32>, map: vec3<f32>, dp_dx: vec3<f32>, dp_dy: vec3<f32>, duv_dx: vec2<f32>, duv_dy: vec2<f32>, scale: f32) -> vec3<f32> {
    let dp_dy_perp = cross(dp_dy, n);
    let dp_dx_perp = cross(n, dp_dx);
    let t = dp_dy_perp * duv_dx.x + dp_dx_perp * duv_dy.x;
    let b = dp_dy_perp * duv_dx.y + dp_dx_perp * duv_dy.y;
    let largest = max(dot(t, t), dot(b, b));
    if !(largest > 1e-20) {
        return n;
    }
    let inverse = inverseSqrt(largest);
    var m = map * 2.0 - vec3<f32>(1.0);
    m = vec3<f32>(m.xy * scale, m.z);
    let mapped = mat3x3<f32>(t * inverse, b * inverse, n) * m;
    let length_mapped = length(mapped);
    return select(n, mapped / length_mapped, length_mapped > 0.0);
}
