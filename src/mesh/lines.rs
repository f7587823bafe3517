//! Line and point geometry (IndexedLineSet, LineSet, PointSet): skeleton sticks, axes and markers.
//! X3D draws them unlit (ISO/IEC 19775-1, 11.2.3 and 17.2.2.6): each vertex takes its colour node's
//! colour, else the Material's emissiveColor, else white.

use glam::Vec3;

use super::{CornerBuilder, GeometryValues, RenderMesh, ShapeAppearance, Topology};
use crate::x3d::{NodeId, Scene, X3dError};

/// The render mesh of a line or point geometry over `points`; `None` for any other node type. Runs with
/// fewer than two points, and indices outside `points`, are skipped (counted in a note).
pub fn line_mesh(
    scene: &Scene,
    shape: NodeId,
    geometry: NodeId,
    points: &[Vec3],
    appearance: &ShapeAppearance,
    values: &GeometryValues,
    notes: &mut Vec<String>,
) -> Result<Option<RenderMesh>, X3dError> {
    let type_name = scene.node(geometry).type_name.as_str();
    // Each run: (point index, slot in the index list) per vertex; colour "per face" means per run.
    let mut runs: Vec<Vec<(i64, usize)>> = Vec::new();
    let topology = match type_name {
        "IndexedLineSet" => {
            let mut current = Vec::new();
            for (slot, &i) in scene.mf_int32(geometry, "coordIndex")?.iter().enumerate() {
                if i < 0 {
                    runs.push(std::mem::take(&mut current));
                } else {
                    current.push((i64::from(i), slot));
                }
            }
            runs.push(current);
            Topology::Lines
        }
        "LineSet" => {
            let mut start = 0usize;
            for count in scene.mf_int32(geometry, "vertexCount")? {
                let count = usize::try_from(count).unwrap_or(0);
                runs.push((start..start + count).map(|i| (i as i64, i)).collect());
                start += count;
            }
            Topology::Lines
        }
        "PointSet" => {
            runs.push((0..points.len()).map(|i| (i as i64, i)).collect());
            Topology::Points
        }
        _ => return Ok(None),
    };
    runs.retain(|r| !r.is_empty());

    let colors = super::geometry_values::colors_with(scene, geometry, values)?;
    let indexed = type_name == "IndexedLineSet";
    let color_per_vertex = !indexed || scene.sf_bool(geometry, "colorPerVertex", true)?;
    let color_index = if indexed { scene.mf_int32(geometry, "colorIndex")? } else { Vec::new() };
    let color_at = |run: usize, point: i64, slot: usize| -> Option<[f32; 4]> {
        let list = colors.as_ref()?;
        let from_index = |k: usize| color_index.get(k).and_then(|&i| usize::try_from(i).ok());
        let i = match (color_per_vertex, color_index.is_empty()) {
            (true, true) => usize::try_from(point).ok(),
            (true, false) => from_index(slot),
            (false, true) => Some(run),
            (false, false) => from_index(run),
        }?;
        list.get(i).copied()
    };

    let mut builder = CornerBuilder::default();
    let mut indices = Vec::new();
    let (mut skipped, mut missing_colors) = (0usize, 0usize);
    for (r, run) in runs.iter().enumerate() {
        if run.iter().any(|&(p, _)| p < 0 || p as usize >= points.len())
            || (topology == Topology::Lines && run.len() < 2)
        {
            skipped += 1;
            continue;
        }
        let corners: Vec<u32> = run
            .iter()
            .map(|&(p, slot)| {
                let color = match color_at(r, p, slot) {
                    Some(c) => c,
                    None if colors.is_some() => {
                        missing_colors += 1;
                        [1.0; 4]
                    }
                    None => [1.0; 4],
                };
                builder.corner(p as u32, Vec3::ZERO, color, [0.0; 2])
            })
            .collect();
        match topology {
            Topology::Lines => indices.extend(corners.windows(2).flat_map(|w| [w[0], w[1]])),
            _ => indices.extend(corners),
        }
    }
    if skipped > 0 {
        notes.push(format!(
            "{}: {skipped} run(s) with an index outside the {} points or fewer than two points skipped",
            scene.describe(geometry),
            points.len()
        ));
    }
    if missing_colors > 0 {
        notes.push(format!(
            "{}: {missing_colors} vertices index no colour (the list is too short); white used",
            scene.describe(geometry)
        ));
    }
    let mut material = appearance.material;
    // Lines and points are never lit; the emissive colour (white without a Material) is their colour.
    material.lit = false;
    let CornerBuilder { source_point, normals, colors: corner_colors, uvs, .. } = builder;
    Ok(Some(RenderMesh {
        shape,
        source_point,
        normals,
        colors: corner_colors,
        uvs,
        indices,
        topology,
        material,
        texture: None,
        maps: Default::default(),
        texture_transform: glam::Affine2::IDENTITY,
        vertex_colors: colors.is_some(),
        two_sided: true,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mesh_of(geometry: &str) -> RenderMesh {
        let text = format!(
            "<X3D><Scene><Shape DEF='s'><Appearance><Material emissiveColor='0 1 0'/></Appearance>{geometry}</Shape>\
             </Scene></X3D>"
        );
        let scene = crate::x3d::load_str(&text, std::path::Path::new("l.x3d"), &Default::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let shape = scene.defs["s"];
        let geometry = scene.node(shape).children_in("geometry").next().unwrap();
        let coord = scene.node(geometry).children_in("coord").next().unwrap();
        let points: Vec<Vec3> = scene.mf_length3(coord, "point").unwrap().into_iter().map(Vec3::from).collect();
        let appearance = super::super::appearance::appearance_of(&scene, shape).unwrap();
        let mut notes = Vec::new();
        line_mesh(&scene, shape, geometry, &points, &appearance, &GeometryValues::default(), &mut notes)
            .unwrap()
            .expect("a line geometry")
    }

    #[test]
    fn indexed_line_sets_become_segments_per_polyline_unlit_emissive() {
        let m = mesh_of(
            "<IndexedLineSet coordIndex='0 1 2 -1 2 3 -1 9 0'><Coordinate point='0 0 0 1 0 0 1 1 0 0 1 0'/>\
             </IndexedLineSet>",
        );
        assert_eq!(m.topology, Topology::Lines);
        // 0-1, 1-2, then 2-3; the run through point 9 is outside the list.
        let segments: Vec<[u32; 2]> =
            m.indices.chunks(2).map(|s| [m.source_point[s[0] as usize], m.source_point[s[1] as usize]]).collect();
        assert_eq!(segments, vec![[0, 1], [1, 2], [2, 3]]);
        assert!(!m.material.lit && m.material.emissive == [0.0, 1.0, 0.0] && !m.vertex_colors);
    }

    #[test]
    fn line_sets_split_by_vertex_count_and_take_rgba_colours() {
        let m = mesh_of(
            "<LineSet vertexCount='2 3'><Coordinate point='0 0 0 1 0 0 0 1 0 1 1 0 2 1 0'/>\
             <ColorRGBA color='1 0 0 1 1 0 0 1 0 0 1 0.5 0 0 1 0.5 0 0 1 0.5'/></LineSet>",
        );
        assert_eq!(m.indices.len(), 2 * 3);
        assert!(m.vertex_colors);
        assert_eq!(m.colors[m.indices[2] as usize], [0.0, 0.0, 1.0, 0.5]);
    }

    #[test]
    fn point_sets_draw_every_point_and_colours_per_run_work() {
        let m =
            mesh_of("<PointSet><Coordinate point='0 0 0 1 0 0 0 1 0'/><Color color='1 0 0 0 1 0 0 0 1'/></PointSet>");
        assert_eq!((m.topology, m.indices.len()), (Topology::Points, 3));
        assert_eq!(m.colors[2], [0.0, 0.0, 1.0, 1.0]);
        let per_line = mesh_of(
            "<IndexedLineSet colorPerVertex='false' colorIndex='1 0' coordIndex='0 1 -1 1 2'>\
             <Coordinate point='0 0 0 1 0 0 0 1 0'/><Color color='1 0 0 0 1 0'/></IndexedLineSet>",
        );
        assert_eq!(per_line.colors[per_line.indices[0] as usize], [0.0, 1.0, 0.0, 1.0]);
        assert_eq!(per_line.colors[per_line.indices[2] as usize], [1.0, 0.0, 0.0, 1.0]);
    }
}
