//! X3D's geometric primitives (Box, Sphere, Cylinder, Cone) tessellated into triangles with their
//! normals and the texture coordinates the standard gives them (ISO/IEC 19775-1, 13.3). Every vertex is
//! its own corner: the result is drawn like a rigid face set whose points are these vertices.

use std::f32::consts::{PI, TAU};

use glam::Vec3;

use crate::x3d::{NodeId, Scene, X3dError};

/// Segments around the Y axis of a Sphere, Cylinder or Cone.
pub const SLICES: usize = 32;
/// Rings from pole to pole of a Sphere.
pub const STACKS: usize = 16;

/// A tessellated primitive, in the Shape's own frame.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PrimitiveMesh {
    pub points: Vec<Vec3>,
    /// Unit outward normals, one per point.
    pub normals: Vec<Vec3>,
    pub uvs: Vec<[f32; 2]>,
    /// Triangles, counter-clockwise seen from outside.
    pub indices: Vec<u32>,
}

impl PrimitiveMesh {
    fn vertex(&mut self, p: Vec3, n: Vec3, uv: [f32; 2]) -> u32 {
        self.points.push(p);
        self.normals.push(n.normalize_or_zero());
        self.uvs.push(uv);
        (self.points.len() - 1) as u32
    }

    /// Two triangles over quad a-b-c-d (counter-clockwise seen from outside).
    fn quad(&mut self, a: u32, b: u32, c: u32, d: u32) {
        self.indices.extend([a, b, c, a, c, d]);
    }
}

/// The point at longitude `u` (0..1, from −Z counter-clockwise seen from +Y, so the texture's middle
/// faces +Z) on the unit circle of the XZ plane.
fn around(u: f32) -> Vec3 {
    let phi = TAU * u;
    Vec3::new(-phi.sin(), 0.0, -phi.cos())
}

/// An axis-aligned box of `size` centred on the origin: 6 faces of 4 vertices, each face textured 0..1
/// upright as seen from outside (top and bottom: as seen from the front turned up or down).
pub fn box_mesh(size: Vec3) -> PrimitiveMesh {
    let h = size * 0.5;
    let mut m = PrimitiveMesh::default();
    // (normal, u axis, v axis): u × v = normal, so u, v counter-clockwise about the normal.
    let faces = [
        (Vec3::Z, Vec3::X, Vec3::Y),
        (-Vec3::Z, -Vec3::X, Vec3::Y),
        (Vec3::X, -Vec3::Z, Vec3::Y),
        (-Vec3::X, Vec3::Z, Vec3::Y),
        (Vec3::Y, Vec3::X, -Vec3::Z),
        (-Vec3::Y, Vec3::X, Vec3::Z),
    ];
    for (n, u, v) in faces {
        let corner = |su: f32, sv: f32| (n + u * su + v * sv) * h;
        let a = m.vertex(corner(-1.0, -1.0), n, [0.0, 0.0]);
        let b = m.vertex(corner(1.0, -1.0), n, [1.0, 0.0]);
        let c = m.vertex(corner(1.0, 1.0), n, [1.0, 1.0]);
        let d = m.vertex(corner(-1.0, 1.0), n, [0.0, 1.0]);
        m.quad(a, b, c, d);
    }
    m
}

/// A sphere of `radius`: `(slices + 1) · (stacks + 1)` vertices (the texture seam and the poles are
/// repeated so that each vertex has one texture coordinate), `2 · slices · (stacks − 1)` triangles.
pub fn sphere_mesh(radius: f32, slices: usize, stacks: usize) -> PrimitiveMesh {
    let mut m = PrimitiveMesh::default();
    for j in 0..=stacks {
        let v = j as f32 / stacks as f32;
        let theta = PI * v;
        let (ring, y) = (theta.sin(), -theta.cos());
        for i in 0..=slices {
            let u = i as f32 / slices as f32;
            let n = around(u) * ring + Vec3::Y * y;
            m.vertex(n * radius, n, [u, v]);
        }
    }
    let row = (slices + 1) as u32;
    for j in 0..stacks as u32 {
        for i in 0..slices as u32 {
            let (a, b) = (j * row + i, j * row + i + 1);
            let (c, d) = (b + row, a + row);
            // The pole rows collapse to a point: one triangle each there.
            if j > 0 {
                m.indices.extend([a, b, c]);
            }
            if j + 1 < stacks as u32 {
                m.indices.extend([a, c, d]);
            }
        }
    }
    m
}

/// Which parts of a Cylinder or Cone to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parts {
    pub side: bool,
    pub top: bool,
    pub bottom: bool,
}

/// A flat disc at height `y` facing `up` (+Y) or down, textured as the standard says (seen from above
/// for the top, from below for the bottom, the texture's +V towards −Z on the top).
fn cap(m: &mut PrimitiveMesh, radius: f32, y: f32, up: bool, slices: usize) {
    let n = if up { Vec3::Y } else { -Vec3::Y };
    let centre = m.vertex(Vec3::new(0.0, y, 0.0), n, [0.5, 0.5]);
    let first = m.points.len() as u32;
    for i in 0..=slices {
        let p = around(i as f32 / slices as f32) * radius;
        let flip = if up { -1.0 } else { 1.0 };
        m.vertex(p + Vec3::Y * y, n, [0.5 + 0.5 * p.x / radius, 0.5 + flip * 0.5 * p.z / radius]);
    }
    for i in 0..slices as u32 {
        let (a, b) = (first + i, first + i + 1);
        // `around` runs counter-clockwise seen from +Y.
        m.indices.extend(if up { [centre, a, b] } else { [centre, b, a] });
    }
}

/// A cylinder of `radius` and `height` centred on the origin along Y. Side: `2 · (slices + 1)`
/// vertices, `2 · slices` triangles; each cap: `slices + 2` vertices, `slices` triangles.
pub fn cylinder_mesh(radius: f32, height: f32, parts: Parts, slices: usize) -> PrimitiveMesh {
    let mut m = PrimitiveMesh::default();
    let h = height * 0.5;
    if parts.side {
        let first = m.points.len() as u32;
        for i in 0..=slices {
            let u = i as f32 / slices as f32;
            let n = around(u);
            m.vertex(n * radius - Vec3::Y * h, n, [u, 0.0]);
            m.vertex(n * radius + Vec3::Y * h, n, [u, 1.0]);
        }
        for i in 0..slices as u32 {
            let (a, b) = (first + 2 * i, first + 2 * i + 2);
            m.quad(a, b, b + 1, a + 1);
        }
    }
    if parts.top {
        cap(&mut m, radius, h, true, slices);
    }
    if parts.bottom {
        cap(&mut m, radius, -h, false, slices);
    }
    m
}

/// A cone of `bottom_radius` and `height` centred on the origin along Y, apex up. Side: `2 · slices + 1`
/// vertices (one apex vertex per slice, so each slice's apex normal is its own), `slices` triangles;
/// bottom: `slices + 2` vertices, `slices` triangles.
pub fn cone_mesh(bottom_radius: f32, height: f32, parts: Parts, slices: usize) -> PrimitiveMesh {
    let mut m = PrimitiveMesh::default();
    let h = height * 0.5;
    if parts.side {
        // The side's outward normal leans up by atan(r / height).
        let normal = |dir: Vec3| dir * height + Vec3::Y * bottom_radius;
        let first = m.points.len() as u32;
        for i in 0..=slices {
            let u = i as f32 / slices as f32;
            m.vertex(around(u) * bottom_radius - Vec3::Y * h, normal(around(u)), [u, 0.0]);
        }
        for i in 0..slices as u32 {
            let u = (i as f32 + 0.5) / slices as f32;
            let apex = m.vertex(Vec3::Y * h, normal(around(u)), [u, 1.0]);
            m.indices.extend([first + i, first + i + 1, apex]);
        }
    }
    if parts.bottom {
        cap(&mut m, bottom_radius, -h, false, slices);
    }
    m
}

fn length(scene: &Scene, id: NodeId, name: &str, default: f32) -> Result<f32, X3dError> {
    let k = scene.units_of(id).length as f32;
    Ok((scene.sf_float(id, name, default)? * k).max(0.0))
}

/// The tessellation of a Box, Sphere, Cylinder or Cone node; `None` for any other node type.
pub fn primitive_of(scene: &Scene, geometry: NodeId) -> Result<Option<PrimitiveMesh>, X3dError> {
    let parts = |side: bool, top: bool| -> Result<Parts, X3dError> {
        Ok(Parts {
            side: scene.sf_bool(geometry, "side", side)?,
            top: top && scene.sf_bool(geometry, "top", true)?,
            bottom: scene.sf_bool(geometry, "bottom", true)?,
        })
    };
    Ok(Some(match scene.node(geometry).type_name.as_str() {
        "Box" => {
            let size = Vec3::from(scene.sf_length3(geometry, "size", [2.0; 3])?).max(Vec3::ZERO);
            box_mesh(size)
        }
        "Sphere" => sphere_mesh(length(scene, geometry, "radius", 1.0)?, SLICES, STACKS),
        "Cylinder" => cylinder_mesh(
            length(scene, geometry, "radius", 1.0)?,
            length(scene, geometry, "height", 2.0)?,
            parts(true, true)?,
            SLICES,
        ),
        "Cone" => cone_mesh(
            length(scene, geometry, "bottomRadius", 1.0)?,
            length(scene, geometry, "height", 2.0)?,
            parts(true, false)?,
            SLICES,
        ),
        _ => return Ok(None),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every triangle is counter-clockwise seen from outside: its geometric normal agrees with the
    /// vertex normals, and it has area.
    fn assert_outward(m: &PrimitiveMesh, what: &str) {
        assert_eq!(m.points.len(), m.normals.len());
        assert_eq!(m.points.len(), m.uvs.len());
        assert_eq!(m.indices.len() % 3, 0);
        for t in m.indices.chunks(3) {
            let [a, b, c] = [0, 1, 2].map(|k| m.points[t[k] as usize]);
            let face = (b - a).cross(c - a);
            assert!(face.length() > 1e-7, "{what}: degenerate triangle {t:?}");
            let mean: Vec3 = t.iter().map(|&k| m.normals[k as usize]).sum();
            assert!(face.dot(mean) > 0.0, "{what}: triangle {t:?} faces inwards");
        }
        assert!(m.normals.iter().all(|n| (n.length() - 1.0).abs() < 1e-5), "{what}: unit normals");
    }

    #[test]
    fn box_has_24_vertices_12_triangles_and_axis_normals() {
        let m = box_mesh(Vec3::new(2.0, 4.0, 6.0));
        assert_eq!((m.points.len(), m.indices.len() / 3), (24, 12));
        assert_outward(&m, "box");
        for (p, n) in m.points.iter().zip(&m.normals) {
            assert_eq!(n.abs().max_element(), 1.0, "axis normal {n}");
            // Every vertex lies on the face its normal names.
            assert!((p.dot(*n) - (Vec3::new(1.0, 2.0, 3.0).dot(n.abs()))).abs() < 1e-6, "{p} {n}");
        }
        // The front face's texture runs along +X and +Y.
        let front: Vec<usize> = (0..24).filter(|&i| m.normals[i] == Vec3::Z).collect();
        let at = |uv: [f32; 2]| front.iter().find(|&&i| m.uvs[i] == uv).map(|&i| m.points[i]).unwrap();
        assert!(at([1.0, 1.0]).x > at([0.0, 0.0]).x && at([1.0, 1.0]).y > at([0.0, 0.0]).y);
    }

    #[test]
    fn sphere_vertices_lie_on_it_with_radial_normals() {
        let m = sphere_mesh(0.5, 8, 4);
        assert_eq!(m.points.len(), 9 * 5);
        assert_eq!(m.indices.len() / 3, 2 * 8 * 3);
        assert_outward(&m, "sphere");
        for (p, n) in m.points.iter().zip(&m.normals) {
            assert!((p.length() - 0.5).abs() < 1e-6);
            assert!(n.abs_diff_eq(*p * 2.0, 1e-5));
        }
        // The texture's middle (u = 0.5) faces the viewer (+Z); u = 0 is at the back.
        let equator = |u: f32| {
            let i = m.uvs.iter().position(|uv| (uv[0] - u).abs() < 1e-6 && (uv[1] - 0.5).abs() < 1e-6).unwrap();
            m.points[i]
        };
        assert!(equator(0.5).abs_diff_eq(Vec3::new(0.0, 0.0, 0.5), 1e-6));
        assert!(equator(0.0).abs_diff_eq(Vec3::new(0.0, 0.0, -0.5), 1e-6));
        assert!(equator(0.75).abs_diff_eq(Vec3::new(0.5, 0.0, 0.0), 1e-6), "u grows towards +X at the front");
    }

    #[test]
    fn cylinder_parts_and_counts() {
        let all = Parts { side: true, top: true, bottom: true };
        let m = cylinder_mesh(1.0, 2.0, all, 8);
        assert_eq!(m.points.len(), 2 * 9 + 2 * (8 + 2));
        assert_eq!(m.indices.len() / 3, 2 * 8 + 2 * 8);
        assert_outward(&m, "cylinder");
        let side_only = cylinder_mesh(1.0, 2.0, Parts { side: true, top: false, bottom: false }, 8);
        assert_eq!(side_only.points.len(), 18);
        assert!(side_only.normals.iter().all(|n| n.y == 0.0), "side normals are horizontal");
        let top = m.normals.iter().filter(|n| **n == Vec3::Y).count();
        assert_eq!(top, 10, "top cap vertices face up");
        assert!(m.points.iter().all(|p| p.y.abs() <= 1.0 + 1e-6 && p.x.hypot(p.z) <= 1.0 + 1e-6));
    }

    #[test]
    fn cone_side_normals_lean_up_by_the_slope() {
        let m = cone_mesh(1.0, 2.0, Parts { side: true, top: true, bottom: true }, 8);
        assert_eq!(m.points.len(), 2 * 8 + 1 + (8 + 2));
        assert_eq!(m.indices.len() / 3, 8 + 8);
        assert_outward(&m, "cone");
        // Slope: radius 1 over height 2 → the side normal is (2, 1)/√5 in the (radial, y) plane.
        let side = m.normals[0];
        assert!((side.y - 1.0 / 5f32.sqrt()).abs() < 1e-6, "{side}");
        let no_bottom = cone_mesh(1.0, 2.0, Parts { side: true, top: false, bottom: false }, 8);
        assert!(no_bottom.normals.iter().all(|n| n.y > 0.0));
    }
}
