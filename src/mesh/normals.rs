//! Normals X3D generates when a face set gives none: per face, or per corner averaged over the faces
//! that meet at the corner's point within the crease angle.

use glam::Vec3;

use super::faces::FaceCorner;
use super::triangulate::newell_normal;

/// Unit normal of each face (zero for a face without area), facing the front side: for `ccw == false`
/// the faces are clockwise seen from the front, so the right-hand normal is flipped.
pub fn face_normals(points: &[Vec3], faces: &[Vec<FaceCorner>], ccw: bool) -> Vec<Vec3> {
    let sign = if ccw { 1.0 } else { -1.0 };
    faces
        .iter()
        .map(|face| {
            let polygon: Vec<Vec3> = face.iter().map(|c| points[c.point as usize]).collect();
            (sign * newell_normal(&polygon)).normalize_or_zero()
        })
        .collect()
}

/// Per-corner normals with X3D `creaseAngle` semantics: the normal of corner `c` of face `f` is the
/// average of the normals of `f` and of every other face sharing `c`'s point whose normal makes an angle
/// smaller than `crease_angle` with `f`'s (0 → faceted; ≥ π → smooth everywhere). Faces without area
/// take part in nothing. Result: one list per face, parallel to its corners.
pub fn crease_normals(
    point_count: usize,
    faces: &[Vec<FaceCorner>],
    face_normals: &[Vec3],
    crease_angle: f32,
) -> Vec<Vec<Vec3>> {
    if crease_angle <= 0.0 {
        return faces.iter().zip(face_normals).map(|(face, &n)| vec![n; face.len()]).collect();
    }
    // Faces at each point, each face once.
    let mut faces_at: Vec<Vec<u32>> = vec![Vec::new(); point_count];
    for (f, face) in faces.iter().enumerate() {
        for c in face {
            let list = &mut faces_at[c.point as usize];
            if list.last() != Some(&(f as u32)) {
                list.push(f as u32);
            }
        }
    }
    faces
        .iter()
        .enumerate()
        .map(|(f, face)| {
            let nf = face_normals[f];
            face.iter()
                .map(|c| {
                    if nf == Vec3::ZERO {
                        return Vec3::ZERO;
                    }
                    // Summed in the point's face order, the corner's own face included in its place:
                    // corners at one point whose faces all meet within the crease angle then get the
                    // same normal to the bit, and share one vertex (see `CornerBuilder`).
                    let mut sum = Vec3::ZERO;
                    for &g in &faces_at[c.point as usize] {
                        let ng = face_normals[g as usize];
                        if g as usize == f || (ng != Vec3::ZERO && nf.dot(ng).clamp(-1.0, 1.0).acos() < crease_angle) {
                            sum += ng;
                        }
                    }
                    sum.normalize_or_zero()
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two faces folded along the X axis: one in the XZ plane (normal +Y), one tilted up by `fold`.
    fn folded(fold: f32) -> (Vec<Vec3>, Vec<Vec<FaceCorner>>) {
        let points = vec![
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, -1.0),
            Vec3::new(0.0, 0.0, -1.0),
            Vec3::new(0.0, fold.sin(), fold.cos()),
            Vec3::new(1.0, fold.sin(), fold.cos()),
        ];
        let face = |ps: &[u32]| ps.iter().enumerate().map(|(slot, &point)| FaceCorner { point, slot }).collect();
        // Both counter-clockwise seen from above.
        (points, vec![face(&[0, 1, 2, 3]), face(&[4, 5, 1, 0])])
    }

    #[test]
    fn face_normals_follow_the_winding_and_ccw() {
        let (points, faces) = folded(0.5);
        let n = face_normals(&points, &faces, true);
        assert!(n[0].abs_diff_eq(Vec3::Y, 1e-6), "{}", n[0]);
        assert!((n[1].angle_between(Vec3::Y) - 0.5).abs() < 1e-5);
        let flipped = face_normals(&points, &faces, false);
        assert!(flipped[0].abs_diff_eq(-Vec3::Y, 1e-6));
    }

    #[test]
    fn crease_angle_zero_is_faceted() {
        let (points, faces) = folded(0.5);
        let n = face_normals(&points, &faces, true);
        let corners = crease_normals(points.len(), &faces, &n, 0.0);
        assert!(corners[0].iter().all(|c| *c == n[0]));
        assert!(corners[1].iter().all(|c| *c == n[1]));
    }

    #[test]
    fn faces_within_the_crease_angle_are_averaged_at_shared_points_only() {
        let (points, faces) = folded(0.5);
        let n = face_normals(&points, &faces, true);
        let smooth = crease_normals(points.len(), &faces, &n, 0.6);
        let average = (n[0] + n[1]).normalize();
        // Points 0 and 1 are shared: averaged. Points 2, 3 (face 0 only) keep the face normal.
        assert!(smooth[0][0].abs_diff_eq(average, 1e-6));
        assert!(smooth[0][1].abs_diff_eq(average, 1e-6));
        assert!(smooth[0][2].abs_diff_eq(n[0], 1e-6));
        assert!(smooth[1][2].abs_diff_eq(average, 1e-6), "face 1's corner on point 1");
        assert!(smooth[1][0].abs_diff_eq(n[1], 1e-6));
        // A fold sharper than the crease angle stays a crease.
        let sharp = crease_normals(points.len(), &faces, &n, 0.4);
        assert!(sharp[0][0].abs_diff_eq(n[0], 1e-6));
        assert!(sharp[1][3].abs_diff_eq(n[1], 1e-6));
    }

    /// A fan of faces of different tilts around one point, smooth everywhere: every corner on the shared
    /// point gets the same normal to the bit, so that the corners weld into one vertex.
    #[test]
    fn smooth_corners_at_one_point_are_equal_to_the_bit() {
        let rim: Vec<Vec3> = (0..7)
            .map(|k| {
                let a = k as f32 * 0.9;
                Vec3::new(a.cos(), 0.1 * (k as f32).powi(2) % 0.7, a.sin())
            })
            .collect();
        let mut points = vec![Vec3::new(0.0, 0.3, 0.0)];
        points.extend(&rim);
        let faces: Vec<Vec<FaceCorner>> = (0..7u32)
            .map(|k| {
                [0, 1 + (k + 1) % 7, 1 + k]
                    .iter()
                    .enumerate()
                    .map(|(slot, &point)| FaceCorner { point, slot })
                    .collect()
            })
            .collect();
        let n = face_normals(&points, &faces, true);
        let smooth = crease_normals(points.len(), &faces, &n, std::f32::consts::PI);
        let centre: Vec<[u32; 3]> = smooth.iter().map(|face| face[0].to_array().map(f32::to_bits)).collect();
        assert!(centre.iter().all(|c| *c == centre[0]), "{smooth:?}");
    }
}
