//! Extrusion (ISO/IEC 19775-1, 13.3.5): a cross-section swept along a spine. At each spine point the
//! cross-section, scaled by `scale` and turned by `orientation`, is placed in the spine-aligned
//! cross-section plane (SCP): Y along the spine, Z across the bend, X = Y × Z, with the standard's rules
//! for the ends, closed spines, straight runs and flips. The sides and caps become faces over points
//! merged by position (a closed cross-section's seam, a closed spine, a scale of zero), so `creaseAngle`
//! smooths across seams as across any edge; each face corner keeps its own texture coordinate.

use glam::{Quat, Vec2, Vec3};

use super::faces::FaceCorner;
use super::normals::{crease_normals, face_normals};
use super::primitives::PrimitiveMesh;
use super::triangulate::triangulate_polygon;
use crate::x3d::{NodeId, Scene, X3dError, fields};

/// More spine × cross-section points than this is refused: a few kilobytes of text would otherwise ask
/// for gigabytes of mesh (a real Extrusion has hundreds to thousands; this keeps its mesh near 130 MB).
const MAX_POINTS: usize = 1 << 18;

/// The Extrusion node's fields that shape it.
pub struct Extrusion {
    pub spine: Vec<Vec3>,
    pub cross_section: Vec<Vec2>,
    pub scale: Vec<Vec2>,
    pub orientation: Vec<Quat>,
    pub begin_cap: bool,
    pub end_cap: bool,
    pub ccw: bool,
    pub crease_angle: f32,
}

impl Extrusion {
    pub fn read(scene: &Scene, geometry: NodeId) -> Result<Extrusion, X3dError> {
        // Lengths written in the file follow its UNIT; the defaults are in metres.
        let k = scene.units_of(geometry).length as f32;
        let vec2s = |name: &str, default: &[[f32; 2]], unit: f32| -> Result<Vec<Vec2>, X3dError> {
            Ok(match scene.parse_field(geometry, name, fields::parse_mf_vec2f)? {
                Some(list) => list.into_iter().map(|v| Vec2::from(v) * unit).collect(),
                None => default.iter().copied().map(Vec2::from).collect(),
            })
        };
        let spine = match scene.node(geometry).field("spine") {
            Some(_) => scene.mf_length3(geometry, "spine")?.into_iter().map(Vec3::from).collect(),
            None => vec![Vec3::ZERO, Vec3::Y],
        };
        let square = [[1.0, 1.0], [1.0, -1.0], [-1.0, -1.0], [-1.0, 1.0], [1.0, 1.0]];
        let cross_section = vec2s("crossSection", &square, k)?;
        let orientation = match scene.node(geometry).field("orientation") {
            Some(_) => scene.mf_rotation(geometry, "orientation")?,
            None => vec![[0.0, 0.0, 1.0, 0.0]],
        };
        let orientation = orientation
            .into_iter()
            .map(|[x, y, z, angle]| {
                let axis = Vec3::new(x, y, z).normalize_or_zero();
                if axis == Vec3::ZERO { Quat::IDENTITY } else { Quat::from_axis_angle(axis, angle) }
            })
            .collect();
        Ok(Extrusion {
            spine,
            cross_section,
            scale: vec2s("scale", &[[1.0, 1.0]], 1.0)?,
            orientation,
            begin_cap: scene.sf_bool(geometry, "beginCap", true)?,
            end_cap: scene.sf_bool(geometry, "endCap", true)?,
            ccw: scene.sf_bool(geometry, "ccw", true)?,
            crease_angle: scene.sf_angle(geometry, "creaseAngle", 0.0)?,
        })
    }

    /// The SCP axes (X, Y, Z) at each spine point.
    fn frames(&self) -> Vec<[Vec3; 3]> {
        let s = &self.spine;
        let n = s.len();
        let closed = n > 2 && s[0] == s[n - 1];
        let y_at = |i: usize| -> Vec3 {
            if closed && (i == 0 || i == n - 1) {
                s[1] - s[n - 2]
            } else if i == 0 {
                s[1] - s[0]
            } else if i == n - 1 {
                s[n - 1] - s[n - 2]
            } else {
                s[i + 1] - s[i - 1]
            }
        };
        let z_at = |i: usize| -> Vec3 {
            if closed && (i == 0 || i == n - 1) {
                (s[1] - s[0]).cross(s[n - 2] - s[0])
            } else if i == 0 || i == n - 1 {
                Vec3::ZERO // taken from the neighbour below
            } else {
                (s[i + 1] - s[i]).cross(s[i - 1] - s[i])
            }
        };
        let mut ys: Vec<Vec3> = (0..n).map(|i| y_at(i).normalize_or_zero()).collect();
        // Coincident spine points: the direction of the nearest point that has one.
        let first_y = ys.iter().copied().find(|y| *y != Vec3::ZERO).unwrap_or(Vec3::Y);
        let mut last = first_y;
        for y in &mut ys {
            if *y == Vec3::ZERO {
                *y = last;
            }
            last = *y;
        }
        let mut zs: Vec<Vec3> = (0..n).map(|i| z_at(i).normalize_or_zero()).collect();
        if !closed && n > 2 {
            zs[0] = zs[1];
            zs[n - 1] = zs[n - 2];
        }
        let first_z = zs.iter().copied().find(|z| *z != Vec3::ZERO);
        match first_z {
            // A straight spine: Z is the +Z axis turned as +Y is turned onto the spine.
            None => {
                let turn = Quat::from_rotation_arc(Vec3::Y, ys[0]);
                zs.iter_mut().for_each(|z| *z = turn * Vec3::Z);
            }
            Some(first) => {
                let mut previous = first;
                for z in &mut zs {
                    if *z == Vec3::ZERO {
                        *z = previous;
                    } else if z.dot(previous) < 0.0 {
                        *z = -*z;
                    }
                    previous = *z;
                }
            }
        }
        ys.into_iter().zip(zs).map(|(y, z)| [y.cross(z).normalize_or_zero(), y, z]).collect()
    }

    /// The swept surface, or `None` (with the reason) when there is nothing to draw.
    pub fn mesh(&self) -> Result<PrimitiveMesh, String> {
        let (n, m) = (self.spine.len(), self.cross_section.len());
        if n < 2 || m < 2 {
            return Err(format!("has {n} spine and {m} crossSection point(s); it needs 2 or more of each"));
        }
        if n.saturating_mul(m) > MAX_POINTS {
            return Err(format!("sweeps {n} × {m} points, more than the {MAX_POINTS} drawn"));
        }
        let frames = self.frames();
        let pick = |list: &[Vec2], i: usize, default: Vec2| list.get(i).or(list.last()).copied().unwrap_or(default);
        let mut ring_points = Vec::with_capacity(n * m);
        for (i, [x, y, z]) in frames.iter().enumerate() {
            let scale = pick(&self.scale, i, Vec2::ONE);
            let turn = self.orientation.get(i).or(self.orientation.last()).copied().unwrap_or(Quat::IDENTITY);
            for c in &self.cross_section {
                let local = turn * Vec3::new(c.x * scale.x, 0.0, c.y * scale.y);
                ring_points.push(self.spine[i] + *x * local.x + *y * local.y + *z * local.z);
            }
        }
        // Points merged by position, for the faces' shared edges.
        let mut merged: Vec<Vec3> = Vec::new();
        let mut by_bits = std::collections::HashMap::new();
        let index_of: Vec<u32> = ring_points
            .iter()
            .map(|p| {
                *by_bits.entry(p.to_array().map(super::bits)).or_insert_with(|| {
                    merged.push(*p);
                    (merged.len() - 1) as u32
                })
            })
            .collect();
        let along = |points: &mut dyn Iterator<Item = f32>| -> Vec<f32> {
            let lengths: Vec<f32> = points.collect();
            let total: f32 = lengths.iter().sum();
            let mut sum = 0.0;
            std::iter::once(0.0)
                .chain(lengths.iter().map(|l| {
                    sum += l;
                    if total > 0.0 { sum / total } else { 0.0 }
                }))
                .collect()
        };
        let s_of = along(&mut self.cross_section.windows(2).map(|w| w[0].distance(w[1])));
        let t_of = along(&mut self.spine.windows(2).map(|w| w[0].distance(w[1])));
        // Faces as (ring point, texture coordinate) corners.
        let mut faces: Vec<Vec<(usize, [f32; 2])>> = Vec::new();
        for i in 0..n - 1 {
            for j in 0..m - 1 {
                faces.push(vec![
                    (i * m + j, [s_of[j], t_of[i]]),
                    (i * m + j + 1, [s_of[j + 1], t_of[i]]),
                    ((i + 1) * m + j + 1, [s_of[j + 1], t_of[i + 1]]),
                    ((i + 1) * m + j, [s_of[j], t_of[i + 1]]),
                ]);
            }
        }
        let closed_section = m > 2 && self.cross_section[0] == self.cross_section[m - 1];
        let cap_len = if closed_section { m - 1 } else { m };
        let lo = self.cross_section.iter().copied().fold(Vec2::splat(f32::MAX), Vec2::min);
        let hi = self.cross_section.iter().copied().fold(Vec2::splat(f32::MIN), Vec2::max);
        let side = (hi - lo).max_element().max(f32::EPSILON);
        let cap_uv = |j: usize| ((self.cross_section[j] - lo) / side).to_array();
        if self.end_cap {
            faces.push((0..cap_len).map(|j| ((n - 1) * m + j, cap_uv(j))).collect());
        }
        if self.begin_cap {
            faces.push((0..cap_len).rev().map(|j| (j, cap_uv(j))).collect());
        }
        // Corners on merged points, repeats along an outline dropped (a scale of zero closes a ring).
        let mut outlines: Vec<Vec<FaceCorner>> = Vec::new();
        let mut uvs: Vec<Vec<[f32; 2]>> = Vec::new();
        for face in faces {
            let mut corners: Vec<(u32, [f32; 2])> = face.iter().map(|&(r, uv)| (index_of[r], uv)).collect();
            super::faces::drop_repeated_points(&mut corners, |c| c.0);
            if corners.len() >= 3 {
                outlines.push(corners.iter().enumerate().map(|(slot, c)| FaceCorner { point: c.0, slot }).collect());
                uvs.push(corners.iter().map(|c| c.1).collect());
            }
        }
        let flat = face_normals(&merged, &outlines, self.ccw);
        let normals = crease_normals(merged.len(), &outlines, &flat, self.crease_angle);
        let mut out = PrimitiveMesh::default();
        for (f, outline) in outlines.iter().enumerate() {
            let first = out.points.len() as u32;
            for (k, corner) in outline.iter().enumerate() {
                out.points.push(merged[corner.point as usize]);
                out.normals.push(normals[f][k].normalize_or_zero());
                out.uvs.push(uvs[f][k]);
            }
            let polygon: Vec<Vec3> = outline.iter().map(|c| merged[c.point as usize]).collect();
            for [a, b, c] in triangulate_polygon(&polygon) {
                let triangle = if self.ccw { [a, b, c] } else { [a, c, b] };
                out.indices.extend(triangle.map(|k| first + k as u32));
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn extrusion(fields: &str) -> Result<PrimitiveMesh, String> {
        let text = format!(
            "<X3D version='4.0'><Scene><Shape><Extrusion {fields}/></Shape>\
             <HAnimHumanoid name='h' version='2.0'><HAnimJoint DEF='r' name='humanoid_root' containerField='skeleton'/>\
             <HAnimJoint USE='r' containerField='joints'/></HAnimHumanoid></Scene></X3D>"
        );
        let doc = crate::hanim::load_str(&text, std::path::Path::new("extrusion_test.x3d")).unwrap();
        let geometry = doc.scene.node(doc.other_shapes[0].0).children_in("geometry").next().unwrap();
        Extrusion::read(&doc.scene, geometry).unwrap().mesh()
    }

    /// Every triangle wound counter-clockwise about its corners' normals, and those facing away from
    /// `inside` (a point within the solid).
    fn assert_outward(mesh: &PrimitiveMesh, inside: Vec3) {
        assert!(!mesh.indices.is_empty());
        for t in mesh.indices.chunks_exact(3) {
            let [a, b, c] = [0, 1, 2].map(|k| mesh.points[t[k] as usize]);
            let winding = (b - a).cross(c - a);
            let centre = (a + b + c) / 3.0;
            for &k in t {
                let n = mesh.normals[k as usize];
                assert!(n.is_finite() && (n.length() - 1.0).abs() < 1e-4, "unit normal {n}");
                assert!(winding.dot(n) > 0.0, "wound about its normal at {centre}");
                assert!(n.dot(centre - inside) > 0.0, "faces out at {centre}: {n}");
            }
        }
    }

    #[test]
    fn the_default_extrusion_is_a_box_with_outward_faces() {
        let mesh = extrusion("").unwrap();
        assert_eq!(mesh.indices.len(), 6 * 2 * 3, "four sides and two caps, two triangles each");
        let lo = mesh.points.iter().copied().fold(Vec3::splat(f32::MAX), Vec3::min);
        let hi = mesh.points.iter().copied().fold(Vec3::splat(f32::MIN), Vec3::max);
        assert_eq!((lo, hi), (Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 1.0, 1.0)));
        assert_outward(&mesh, Vec3::new(0.0, 0.5, 0.0));
        // The sides' texture runs along the cross-section (S) and the spine (T).
        let top_corner = mesh.points.iter().position(|p| *p == Vec3::new(1.0, 1.0, 1.0)).unwrap();
        assert_eq!(mesh.uvs[top_corner][1], 1.0);
    }

    #[test]
    fn a_clockwise_file_is_turned_around_and_caps_can_be_left_open() {
        // The same box written with ccw false (its cross-section traversed the other way).
        let mesh = extrusion("ccw='false' crossSection='1 1 -1 1 -1 -1 1 -1 1 1' beginCap='false'").unwrap();
        assert_eq!(mesh.indices.len(), 5 * 2 * 3, "no begin cap");
        assert_outward(&mesh, Vec3::new(0.0, 0.5, 0.0));
    }

    #[test]
    fn a_bent_spine_keeps_the_cross_section_across_it_and_smooths_within_the_crease_angle() {
        // A round tube (12-gon) along an L: up, then along +X.
        let ring: Vec<String> = (0..=12)
            .map(|k| {
                let a = std::f32::consts::TAU * k as f32 / 12.0;
                format!("{:.6} {:.6}", 0.2 * a.cos(), -0.2 * a.sin())
            })
            .collect();
        let fields = format!("spine='0 0 0 0 1 0 1 1 0' crossSection='{}' creaseAngle='1.0'", ring.join(" "));
        let mesh = extrusion(&fields).unwrap();
        for (p, n) in mesh.points.iter().zip(&mesh.normals) {
            assert!(n.is_finite() && p.is_finite());
        }
        // Each ring point stays 0.2 (× the bend's stretch, at most √2) from the spine at its ring.
        let near_spine = |p: Vec3| -> f32 {
            let on_first = Vec3::new(0.0, p.y.clamp(0.0, 1.0), 0.0).distance(p);
            let on_second = Vec3::new(p.x.clamp(0.0, 1.0), 1.0, 0.0).distance(p);
            on_first.min(on_second)
        };
        assert!(mesh.points.iter().all(|&p| near_spine(p) < 0.2 * 1.4143), "the tube hugs its spine");
        // Smooth: the side normals at one point agree (one point, one normal), unlike a crease angle of 0.
        let side = |p: Vec3| mesh.points.iter().zip(&mesh.normals).filter(move |(q, _)| **q == p).map(|(_, n)| *n);
        let start = Vec3::new(0.2, 0.0, 0.0);
        let normals: Vec<Vec3> = side(start).filter(|n| n.y.abs() < 0.5).collect();
        assert!(normals.len() >= 2 && normals.windows(2).all(|w| w[0].distance(w[1]) < 1e-5), "{normals:?}");
        // Every side faces away from the spine, the caps along it (out of the ends).
        let closest_on_spine = |p: Vec3| -> Vec3 {
            let a = Vec3::new(0.0, p.y.clamp(0.0, 1.0), 0.0);
            let b = Vec3::new(p.x.clamp(0.0, 1.0), 1.0, 0.0);
            if a.distance(p) < b.distance(p) { a } else { b }
        };
        for t in mesh.indices.chunks_exact(3) {
            let [a, b, c] = [0, 1, 2].map(|k| mesh.points[t[k] as usize]);
            let centre = (a + b + c) / 3.0;
            let n = mesh.normals[t[0] as usize];
            assert!((b - a).cross(c - a).dot(n) > 0.0, "wound about its normal at {centre}");
            if (centre.x - 1.0).abs() < 1e-4 {
                assert!(n.dot(Vec3::X) > 0.99, "the end cap faces +X: {n}");
            } else if centre.y.abs() < 1e-4 {
                assert!(n.dot(-Vec3::Y) > 0.99, "the begin cap faces −Y: {n}");
            } else {
                assert!(n.dot(centre - closest_on_spine(centre)) > 0.0, "a side faces out at {centre}: {n}");
            }
        }
    }

    #[test]
    fn a_scale_of_zero_closes_the_end_into_a_tip() {
        let mesh = extrusion("scale='1 1 0 0'").unwrap();
        assert_eq!(mesh.indices.len(), (4 + 1) * 2 * 3 - 4 * 3, "four triangles to the tip and a square cap");
        assert!(mesh.points.contains(&Vec3::Y));
        assert_outward(&mesh, Vec3::new(0.0, 0.3, 0.0));
    }

    #[test]
    fn degenerate_extrusions_draw_what_has_area_and_never_panic() {
        for fields in [
            "spine='0 0 0 0 0 0'",
            "crossSection='0 0 0 0'",
            "scale='0 0'",
            "orientation='0 0 0 1'",
            "spine='0 0 0 0 1 0 0 0 0'",
            "spine='0 0 0 1 0 0 2 0 0 3 0 0' orientation='0 0 1 1.5'",
        ] {
            let mesh = extrusion(fields).unwrap();
            assert!(mesh.points.iter().chain(&mesh.normals).all(|v| v.is_finite()), "{fields}");
            assert!(mesh.indices.iter().all(|&i| (i as usize) < mesh.points.len()), "{fields}");
        }
    }

    #[test]
    fn too_few_or_too_many_points_say_why() {
        let why = extrusion("spine='0 0 0'").unwrap_err();
        assert!(why.contains("1 spine"), "{why}");
        // 1,000 spine points × 1,000 cross-section points from a few kilobytes of text.
        let spine: Vec<String> = (0..1000).map(|k| format!("0 {k} 0")).collect();
        let section: Vec<String> = (0..1000).map(|k| format!("{k} 0")).collect();
        let fields = format!("spine='{}' crossSection='{}'", spine.join(" "), section.join(" "));
        let why = extrusion(&fields).unwrap_err();
        assert!(why.contains("1000 × 1000"), "{why}");
    }
}
