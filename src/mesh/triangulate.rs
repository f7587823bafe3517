//! Polygon triangulation: ear clipping in the polygon's own plane, so concave faces and faces with
//! collinear points come out right. Triangles keep the polygon's winding.

use glam::{Vec2, Vec3};

/// Newell's normal of a polygon, not normalised: its length is twice the polygon's area, its direction
/// follows the right-hand rule over the vertex order. Exact for planar polygons and a good average for
/// slightly warped ones.
pub fn newell_normal(points: &[Vec3]) -> Vec3 {
    let mut n = Vec3::ZERO;
    for (i, a) in points.iter().enumerate() {
        let b = points[(i + 1) % points.len()];
        n += Vec3::new((a.y - b.y) * (a.z + b.z), (a.z - b.z) * (a.x + b.x), (a.x - b.x) * (a.y + b.y));
    }
    n
}

/// Triangulates a simple polygon given by its vertices in order. Returns triangles as indices into
/// `points`, wound like the polygon (counter-clockwise about its Newell normal). Zero-area triangles are
/// never emitted: collinear vertices are absorbed into neighbouring triangles and a polygon without area
/// gives no triangle. A self-intersecting polygon still terminates (the rest is fanned).
pub fn triangulate_polygon(points: &[Vec3]) -> Vec<[usize; 3]> {
    let n = points.len();
    if n < 3 {
        return Vec::new();
    }
    let normal = newell_normal(points);
    let scale = points.iter().fold(0.0f32, |m, p| m.max(p.abs().max_element()));
    // Area below this counts as zero: relative to the polygon's coordinate size, not absolute.
    let area_epsilon = (scale * scale * 1e-10).max(f32::MIN_POSITIVE);
    if normal.length() <= area_epsilon {
        return Vec::new();
    }
    let normal = normal.normalize_or_zero();
    if n == 3 {
        return vec![[0, 1, 2]];
    }
    // A basis (u, v) of the plane with u × v = normal: the polygon is counter-clockwise in 2D.
    let u = normal.any_orthonormal_vector();
    let v = normal.cross(u);
    let flat: Vec<Vec2> = points.iter().map(|p| Vec2::new(p.dot(u), p.dot(v))).collect();
    ear_clip(&flat, area_epsilon)
}

/// Twice the signed area of triangle (a, b, c): positive when counter-clockwise.
fn cross(a: Vec2, b: Vec2, c: Vec2) -> f32 {
    (b - a).perp_dot(c - a)
}

/// Whether `p` lies inside triangle (a, b, c) (counter-clockwise) or on its boundary.
fn inside_or_on(p: Vec2, a: Vec2, b: Vec2, c: Vec2, epsilon: f32) -> bool {
    cross(a, b, p) >= -epsilon && cross(b, c, p) >= -epsilon && cross(c, a, p) >= -epsilon
}

fn ear_clip(flat: &[Vec2], epsilon: f32) -> Vec<[usize; 3]> {
    let mut remaining: Vec<usize> = (0..flat.len()).collect();
    let mut triangles = Vec::with_capacity(flat.len() - 2);
    let mut i = 0usize;
    let mut since_last_ear = 0usize;
    while remaining.len() > 3 {
        let m = remaining.len();
        i %= m;
        let (ip, ic, inext) = (remaining[(i + m - 1) % m], remaining[i % m], remaining[(i + 1) % m]);
        let (a, b, c) = (flat[ip], flat[ic], flat[inext]);
        let area = cross(a, b, c);
        if area.abs() <= epsilon {
            // a, b, c are collinear (b on the segment a–c, or a zero-width spike): dropping b loses no
            // area and emits nothing.
            remaining.remove(i);
            since_last_ear = 0;
            continue;
        }
        let is_ear = area > epsilon
            && remaining.iter().all(|&k| {
                k == ip
                    || k == ic
                    || k == inext
                    || flat[k] == a
                    || flat[k] == b
                    || flat[k] == c
                    || !inside_or_on(flat[k], a, b, c, epsilon)
            });
        if is_ear {
            triangles.push([ip, ic, inext]);
            remaining.remove(i);
            since_last_ear = 0;
            // Stay on the previous vertex: it may have just become an ear.
            i = (i + m - 2) % (m - 1);
            continue;
        }
        since_last_ear += 1;
        i = (i + 1) % m;
        if since_last_ear > m {
            // No ear in a full turn: not a simple polygon (or numerically degenerate). Fan the rest so
            // the face still shows, skipping zero-area pieces.
            for k in 1..m - 1 {
                let t = [remaining[0], remaining[k], remaining[k + 1]];
                if cross(flat[t[0]], flat[t[1]], flat[t[2]]).abs() > epsilon {
                    triangles.push(t);
                }
            }
            return triangles;
        }
    }
    if remaining.len() == 3 {
        let t = [remaining[0], remaining[1], remaining[2]];
        if cross(flat[t[0]], flat[t[1]], flat[t[2]]) > epsilon {
            triangles.push(t);
        }
    }
    triangles
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area_of(points: &[Vec3], tris: &[[usize; 3]], normal: Vec3) -> f32 {
        tris.iter()
            .map(|t| {
                let (a, b, c) = (points[t[0]], points[t[1]], points[t[2]]);
                0.5 * (b - a).cross(c - a).dot(normal)
            })
            .sum()
    }

    fn assert_all_ccw(points: &[Vec3], tris: &[[usize; 3]], normal: Vec3) {
        for t in tris {
            let (a, b, c) = (points[t[0]], points[t[1]], points[t[2]]);
            let twice_area = (b - a).cross(c - a).dot(normal);
            assert!(twice_area > 1e-6, "triangle {t:?} is degenerate or flipped ({twice_area})");
        }
    }

    /// Whether the centroid of every triangle lies inside the polygon (even-odd rule in the XY plane).
    fn centroids_inside(points: &[Vec3], tris: &[[usize; 3]]) -> bool {
        tris.iter().all(|t| {
            let c = (points[t[0]] + points[t[1]] + points[t[2]]) / 3.0;
            let mut inside = false;
            for i in 0..points.len() {
                let (a, b) = (points[i], points[(i + 1) % points.len()]);
                if (a.y > c.y) != (b.y > c.y) && c.x < a.x + (c.y - a.y) / (b.y - a.y) * (b.x - a.x) {
                    inside = !inside;
                }
            }
            inside
        })
    }

    #[test]
    fn a_concave_polygon_is_triangulated_inside_its_outline() {
        // An arrow / chevron in the XY plane, concave at (1, 1).
        let points = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(2.0, 0.0, 0.0),
            Vec3::new(2.0, 2.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(0.0, 2.0, 0.0),
        ];
        let tris = triangulate_polygon(&points);
        assert_eq!(tris.len(), 3);
        assert_all_ccw(&points, &tris, Vec3::Z);
        // Area of the square (4) minus the notch (1).
        assert!((area_of(&points, &tris, Vec3::Z) - 3.0).abs() < 1e-5);
        assert!(centroids_inside(&points, &tris), "{tris:?}");
        // A naive fan from vertex 3 (the reflex one) would cover area outside; from vertex 0 it would
        // produce triangle (0,2,3)... make sure no triangle uses the diagonal 0–2 that leaves the polygon.
        for t in &tris {
            let has = |k| t.contains(&k);
            assert!(!(has(0) && has(2) && has(4)), "{t:?} crosses the notch");
        }
    }

    #[test]
    fn a_concave_polygon_in_a_tilted_plane_keeps_its_winding() {
        // An L shape, rotated out of the XY plane and wound clockwise about +Z' (so about -normal).
        let flat = [(0.0, 0.0), (3.0, 0.0), (3.0, 1.0), (1.0, 1.0), (1.0, 3.0), (0.0, 3.0)];
        let rotation = glam::Quat::from_axis_angle(Vec3::new(1.0, 1.0, 0.0).normalize(), 0.7);
        let points: Vec<Vec3> = flat.iter().rev().map(|&(x, y)| rotation * Vec3::new(x, y, 5.0)).collect();
        let normal = newell_normal(&points).normalize();
        assert!(normal.dot(rotation * Vec3::Z) < -0.99, "clockwise input: normal faces -Z'");
        let tris = triangulate_polygon(&points);
        assert_eq!(tris.len(), 4);
        assert_all_ccw(&points, &tris, normal);
        assert!((area_of(&points, &tris, normal) - 5.0).abs() < 1e-4);
    }

    #[test]
    fn collinear_points_give_no_degenerate_triangles() {
        // A square with extra points along two edges, and one repeated direction change.
        let points = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(2.0, 0.0, 0.0),
            Vec3::new(2.0, 1.0, 0.0),
            Vec3::new(2.0, 2.0, 0.0),
            Vec3::new(0.0, 2.0, 0.0),
        ];
        let tris = triangulate_polygon(&points);
        assert_all_ccw(&points, &tris, Vec3::Z);
        assert!((area_of(&points, &tris, Vec3::Z) - 4.0).abs() < 1e-5);
        assert!(centroids_inside(&points, &tris));
    }

    #[test]
    fn degenerate_polygons_give_nothing() {
        let line = [Vec3::ZERO, Vec3::X, Vec3::new(2.0, 0.0, 0.0), Vec3::new(3.0, 0.0, 0.0)];
        assert!(triangulate_polygon(&line).is_empty());
        assert!(triangulate_polygon(&[Vec3::ZERO, Vec3::X]).is_empty());
        assert!(triangulate_polygon(&[Vec3::ZERO, Vec3::X, Vec3::X]).is_empty());
        assert_eq!(triangulate_polygon(&[Vec3::ZERO, Vec3::X, Vec3::Y]), vec![[0, 1, 2]]);
    }

    #[test]
    fn a_convex_polygon_gives_n_minus_2_triangles() {
        let points: Vec<Vec3> = (0..8)
            .map(|k| {
                let a = k as f32 * std::f32::consts::TAU / 8.0;
                Vec3::new(a.cos(), 0.0, -a.sin()) // counter-clockwise about +Y
            })
            .collect();
        let tris = triangulate_polygon(&points);
        assert_eq!(tris.len(), 6);
        assert_all_ccw(&points, &tris, Vec3::Y);
    }
}
