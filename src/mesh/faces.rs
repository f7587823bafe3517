//! The faces of the X3D geometry nodes a skin can use, with each node type's rules for per-vertex and
//! per-face attribute indices.

use crate::x3d::{NodeId, Scene, X3dError};

/// One corner of a face: the coordinate it uses and where it sits in the node's index list (so that
/// `colorIndex`, `normalIndex` and `texCoordIndex` can be read at the same place).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FaceCorner {
    pub point: u32,
    pub slot: usize,
}

/// The faces of one geometry node.
#[derive(Debug, Clone, Default)]
pub struct Faces {
    /// Polygons (IndexedFaceSet) or triangles (the triangle sets), in the file's winding.
    pub faces: Vec<Vec<FaceCorner>>,
    /// IndexedFaceSet: attributes may have their own index lists (`colorIndex` ...). The triangle sets
    /// index every per-vertex attribute like the coordinates and every per-face one by triangle.
    pub has_attribute_indices: bool,
    /// Faces dropped because an index was outside the coordinate list.
    pub dropped: usize,
}

impl Faces {
    /// Where the attribute of `corner` (of face number `face`) is found, following X3D's rules: per
    /// vertex, `index[slot]` when the node has an index list for it, else the coordinate index; per face,
    /// `index[face]` when given, else the face number. `None` for a negative or missing entry.
    pub fn attribute_index(&self, per_vertex: bool, index: &[i32], face: usize, corner: FaceCorner) -> Option<usize> {
        let from_list = |k: usize| index.get(k).and_then(|&i| usize::try_from(i).ok());
        match (per_vertex, self.has_attribute_indices && !index.is_empty()) {
            (true, true) => from_list(corner.slot),
            (true, false) => Some(corner.point as usize),
            (false, true) => from_list(face),
            (false, false) => Some(face),
        }
    }
}

/// The faces of `geometry` over a coordinate list of `point_count` points; `None` for a node type that is
/// not a face set.
pub fn faces_of(scene: &Scene, geometry: NodeId, point_count: usize) -> Result<Option<Faces>, X3dError> {
    let type_name = scene.node(geometry).type_name.as_str();
    let mut out = Faces::default();
    // (point, slot) runs, before validation.
    let mut raw: Vec<Vec<(i64, usize)>> = Vec::new();
    match type_name {
        "IndexedFaceSet" => {
            out.has_attribute_indices = true;
            raw = split_at_negative(&scene.mf_int32(geometry, "coordIndex")?);
        }
        "IndexedTriangleSet" => {
            let index = scene.mf_int32(geometry, "index")?;
            raw = index
                .chunks_exact(3)
                .enumerate()
                .map(|(t, c)| c.iter().enumerate().map(|(k, &i)| (i64::from(i), 3 * t + k)).collect())
                .collect();
        }
        "TriangleSet" => {
            raw = (0..point_count / 3).map(|t| (0..3).map(|k| ((3 * t + k) as i64, 3 * t + k)).collect()).collect();
        }
        "IndexedTriangleStripSet" | "IndexedTriangleFanSet" => {
            let fan = type_name == "IndexedTriangleFanSet";
            for run in split_at_negative(&scene.mf_int32(geometry, "index")?) {
                raw.extend(triangles_of_run(&run, fan));
            }
        }
        "TriangleStripSet" | "TriangleFanSet" => {
            let fan = type_name == "TriangleFanSet";
            let counts = scene.mf_int32(geometry, if fan { "fanCount" } else { "stripCount" })?;
            let mut start = 0usize;
            for count in counts {
                let count = usize::try_from(count).unwrap_or(0);
                let run: Vec<(i64, usize)> = (start..start + count).map(|i| (i as i64, i)).collect();
                raw.extend(triangles_of_run(&run, fan));
                start += count;
            }
        }
        "ElevationGrid" => {
            if let Some(grid) = super::elevation_grid::Grid::read(scene, geometry)? {
                raw = grid
                    .quads()
                    .iter()
                    .enumerate()
                    .map(|(q, quad)| quad.iter().enumerate().map(|(k, &p)| (i64::from(p), 4 * q + k)).collect())
                    .collect();
            }
        }
        _ => return Ok(None),
    }
    for face in raw {
        if face.iter().any(|&(p, _)| p < 0 || p as usize >= point_count) {
            out.dropped += 1;
            continue;
        }
        let mut corners: Vec<FaceCorner> = face.iter().map(|&(p, slot)| FaceCorner { point: p as u32, slot }).collect();
        drop_repeated_points(&mut corners, |c| c.point);
        if corners.len() >= 3 {
            out.faces.push(corners);
        } else {
            out.dropped += 1;
        }
    }
    Ok(Some(out))
}

/// Drops the corners of an outline that repeat their neighbour's point (the last and the first are
/// neighbours too): they add nothing to it.
pub(super) fn drop_repeated_points<T>(corners: &mut Vec<T>, point: impl Fn(&T) -> u32) {
    corners.dedup_by_key(|c| point(c));
    while corners.len() > 1 && corners.first().map(&point) == corners.last().map(&point) {
        corners.pop();
    }
}

/// Splits an index list at its negative entries (`-1`), keeping each entry's position.
fn split_at_negative(index: &[i32]) -> Vec<Vec<(i64, usize)>> {
    let mut runs = Vec::new();
    let mut current = Vec::new();
    for (slot, &i) in index.iter().enumerate() {
        if i < 0 {
            if !current.is_empty() {
                runs.push(std::mem::take(&mut current));
            }
        } else {
            current.push((i64::from(i), slot));
        }
    }
    if !current.is_empty() {
        runs.push(current);
    }
    runs
}

/// The triangles of one strip or fan, wound consistently (every other strip triangle is flipped back).
fn triangles_of_run(run: &[(i64, usize)], fan: bool) -> Vec<Vec<(i64, usize)>> {
    (2..run.len())
        .map(|k| {
            if fan {
                vec![run[0], run[k - 1], run[k]]
            } else if k % 2 == 0 {
                vec![run[k - 2], run[k - 1], run[k]]
            } else {
                vec![run[k - 1], run[k - 2], run[k]]
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_alternate_and_fans_pivot() {
        let run: Vec<(i64, usize)> = (0..5).map(|i| (i, i as usize)).collect();
        let points = |tris: Vec<Vec<(i64, usize)>>| -> Vec<Vec<i64>> {
            tris.into_iter().map(|t| t.into_iter().map(|(p, _)| p).collect()).collect()
        };
        assert_eq!(points(triangles_of_run(&run, false)), vec![vec![0, 1, 2], vec![2, 1, 3], vec![2, 3, 4]]);
        assert_eq!(points(triangles_of_run(&run, true)), vec![vec![0, 1, 2], vec![0, 2, 3], vec![0, 3, 4]]);
    }

    #[test]
    fn negative_entries_split_and_a_missing_final_separator_is_fine() {
        let runs = split_at_negative(&[0, 1, 2, -1, 3, 4, 5, 6]);
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[1], vec![(3, 4), (4, 5), (5, 6), (6, 7)]);
    }
}
