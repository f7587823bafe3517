//! ElevationGrid (ISO/IEC 19775-1, 13.3.4): a height field over a grid in the XZ plane, read as a face set
//! of quadrilaterals so that it takes the face sets' normals, colours and texture coordinates. The vertex
//! (i, j) stands at `(xSpacing·i, height[i + j·xDimension], zSpacing·j)`; quadrilateral (i, j) runs
//! (i, j) → (i, j+1) → (i+1, j+1) → (i+1, j), which a counterclockwise file sees from +Y ("the Y
//! component of the normal is positive"). Per-quadrilateral colours and normals are numbered with i
//! fastest, as the points are; the default texture coordinates run S along +X and T along +Z from 0 at
//! the first vertex to 1 at the opposite corner.

use glam::Vec3;

use crate::x3d::{NodeId, Scene, X3dError};

/// The grid's size in vertices along X and Z (each at least 2) and its points; `None` for a grid with no
/// quadrilateral (a dimension under 2, or fewer heights than vertices).
pub struct Grid {
    pub x_dimension: usize,
    pub z_dimension: usize,
    pub points: Vec<Vec3>,
}

/// More vertices than this is a file error, not a height field (the same bound as other lists).
const MAX_VERTICES: usize = 1 << 24;

impl Grid {
    pub fn read(scene: &Scene, geometry: NodeId) -> Result<Option<Grid>, X3dError> {
        let x_dimension = usize::try_from(scene.sf_int32(geometry, "xDimension", 0)?).unwrap_or(0);
        let z_dimension = usize::try_from(scene.sf_int32(geometry, "zDimension", 0)?).unwrap_or(0);
        let x_spacing = scene.sf_float(geometry, "xSpacing", 1.0)?;
        let z_spacing = scene.sf_float(geometry, "zSpacing", 1.0)?;
        let height = scene.mf_float(geometry, "height")?;
        let count = x_dimension.saturating_mul(z_dimension);
        if x_dimension < 2 || z_dimension < 2 || count > MAX_VERTICES || height.len() < count {
            return Ok(None);
        }
        let points = (0..z_dimension)
            .flat_map(|j| (0..x_dimension).map(move |i| (i, j)))
            .map(|(i, j)| Vec3::new(x_spacing * i as f32, height[i + j * x_dimension], z_spacing * j as f32))
            .collect();
        Ok(Some(Grid { x_dimension, z_dimension, points }))
    }

    /// The quadrilaterals as point indices, quadrilateral (i, j) at `i + j·(xDimension − 1)`.
    pub fn quads(&self) -> Vec<[u32; 4]> {
        let x = self.x_dimension;
        let at = |i: usize, j: usize| (i + j * x) as u32;
        (0..self.z_dimension - 1)
            .flat_map(|j| (0..x - 1).map(move |i| [at(i, j), at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)]))
            .collect()
    }

    /// The default texture coordinates of each point.
    pub fn tex_coords(&self) -> Vec<[f32; 2]> {
        let (sx, sz) = ((self.x_dimension - 1) as f32, (self.z_dimension - 1) as f32);
        (0..self.z_dimension).flat_map(|j| (0..self.x_dimension).map(move |i| [i as f32 / sx, j as f32 / sz])).collect()
    }
}

/// Whether `geometry` is an ElevationGrid.
pub fn is_grid(scene: &Scene, geometry: NodeId) -> bool {
    scene.node(geometry).type_name == "ElevationGrid"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(x: usize, z: usize) -> Grid {
        let points = (0..z).flat_map(|j| (0..x).map(move |i| Vec3::new(i as f32, 0.0, j as f32))).collect();
        Grid { x_dimension: x, z_dimension: z, points }
    }

    #[test]
    fn quadrilaterals_face_up_and_are_numbered_with_x_fastest() {
        let g = grid(3, 2);
        let quads = g.quads();
        assert_eq!(quads, [[0, 3, 4, 1], [1, 4, 5, 2]]);
        let [a, b, c, _] = quads[0].map(|k| g.points[k as usize]);
        assert!((b - a).cross(c - a).y > 0.0, "counterclockwise seen from +Y");
    }

    /// The mesh of the first Shape outside the humanoid of a scene holding `geometry`.
    fn mesh_of(geometry: &str) -> (Option<crate::mesh::ShapeMesh>, Vec<String>) {
        let text = format!(
            "<X3D version='4.0'><Scene><Shape><Appearance><Material/></Appearance>{geometry}</Shape>\
             <HAnimHumanoid name='h' version='2.0'><HAnimJoint DEF='r' name='humanoid_root' containerField='skeleton'/>\
             <HAnimJoint USE='r' containerField='joints'/></HAnimHumanoid></Scene></X3D>"
        );
        let doc =
            crate::hanim::load_str(&text, std::path::Path::new("grid_test.x3d")).unwrap_or_else(|e| panic!("{e}"));
        let (shape, _) = doc.other_shapes[0];
        let mut notes = Vec::new();
        let mesh = crate::mesh::shape_mesh(&doc.scene, shape, None, glam::Mat4::IDENTITY, &mut notes).unwrap();
        (mesh, notes)
    }

    #[test]
    fn a_grid_is_drawn_as_quadrilaterals_with_per_quad_colours() {
        // 3 × 2 vertices, spacing 2 along X and 0.5 along Z, a ridge in the middle; a colour per quadrilateral.
        let (mesh, notes) = mesh_of(
            "<ElevationGrid xDimension='3' zDimension='2' xSpacing='2' zSpacing='0.5' height='0 1 0 0 1 0' \
             colorPerVertex='false'><Color color='1 0 0 0 0 1'/></ElevationGrid>",
        );
        let mesh = mesh.expect("a mesh");
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(mesh.points.len(), 6);
        assert_eq!(mesh.points[4], Vec3::new(2.0, 1.0, 0.5), "vertex (1, 1)");
        assert_eq!(mesh.mesh.indices.len(), 4 * 3, "two quadrilaterals, two triangles each");
        // Faceted (creaseAngle 0): the left quadrilateral rises to +X, so its normal leans to −X, and up.
        let m = &mesh.mesh;
        for t in m.indices.chunks_exact(3) {
            let corner = t[0] as usize;
            let point = mesh.points[m.source_point[corner] as usize];
            let normal = m.normals[corner];
            assert!(normal.y > 0.5, "faces up: {normal}");
            let left = t.iter().all(|&c| mesh.points[m.source_point[c as usize] as usize].x <= 2.0);
            assert_eq!(normal.x < 0.0, left, "leans away from the ridge: {normal} at {point}");
            let expected = if left { [1.0, 0.0, 0.0, 1.0] } else { [0.0, 0.0, 1.0, 1.0] };
            assert_eq!(m.colors[corner], expected, "the quadrilateral's colour");
        }
    }

    #[test]
    fn a_grid_without_enough_heights_is_not_drawn_and_says_why() {
        let (mesh, notes) = mesh_of("<ElevationGrid xDimension='3' zDimension='2' height='0 1 0'/>");
        assert!(mesh.is_none());
        assert!(notes.iter().any(|n| n.contains("ElevationGrid") && n.contains("not drawn")), "{notes:?}");
    }

    #[test]
    fn default_texture_coordinates_run_from_corner_to_corner() {
        let uv = grid(3, 2).tex_coords();
        assert_eq!(uv, [[0.0, 0.0], [0.5, 0.0], [1.0, 0.0], [0.0, 1.0], [0.5, 1.0], [1.0, 1.0]]);
    }
}
