//! Values that replace what the file gives the nodes a geometry reads its vertices from: a
//! Coordinate's (or CoordinateDouble's) `point`, a Normal's `vector`, a Color's (or ColorRGBA's) `color`
//! and a TextureCoordinate's `point`, as events set them (a CoordinateInterpolator, a NormalInterpolator,
//! …). The mesh builder reads a node's value from here when it is present, from the file otherwise, so
//! that a mesh built with the values an event cascade sets at time T is the mesh of a file with those
//! values written in. Plain data: the event model fills it one layer up.

use std::collections::{BTreeMap, HashSet};

use glam::Vec3;

use crate::x3d::{NodeId, Scene, X3dError, fields};

/// Per node, the value of its vertex field (keyed by the Coordinate, Normal, Color or
/// TextureCoordinate node).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GeometryValues {
    /// Coordinate / CoordinateDouble `point` (in metres, units applied, as the file's are read).
    pub points: BTreeMap<NodeId, Vec<Vec3>>,
    /// Normal `vector`.
    pub vectors: BTreeMap<NodeId, Vec<Vec3>>,
    /// Color / ColorRGBA `color`, RGBA (alpha 1 for Color).
    pub colors: BTreeMap<NodeId, Vec<[f32; 4]>>,
    /// TextureCoordinate `point`.
    pub tex_coords: BTreeMap<NodeId, Vec<[f32; 2]>>,
}

impl GeometryValues {
    pub fn is_empty(&self) -> bool {
        self.points.is_empty() && self.vectors.is_empty() && self.colors.is_empty() && self.tex_coords.is_empty()
    }

    /// Only the values of `nodes` (what one geometry reads): comparing these between two times says
    /// whether that geometry changed.
    pub fn restricted_to(&self, nodes: &GeometryNodes) -> GeometryValues {
        let pick = |node: Option<NodeId>| node.into_iter();
        let mut out = GeometryValues::default();
        for n in pick(nodes.coord) {
            if let Some(v) = self.points.get(&n) {
                out.points.insert(n, v.clone());
            }
        }
        for n in pick(nodes.normal) {
            if let Some(v) = self.vectors.get(&n) {
                out.vectors.insert(n, v.clone());
            }
        }
        for n in pick(nodes.color) {
            if let Some(v) = self.colors.get(&n) {
                out.colors.insert(n, v.clone());
            }
        }
        for n in pick(nodes.tex_coord) {
            if let Some(v) = self.tex_coords.get(&n) {
                out.tex_coords.insert(n, v.clone());
            }
        }
        out
    }
}

/// The nodes a geometry reads its vertex attributes from (its `coord`, `normal`, `color` and `texCoord`
/// children).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GeometryNodes {
    pub coord: Option<NodeId>,
    pub normal: Option<NodeId>,
    pub color: Option<NodeId>,
    pub tex_coord: Option<NodeId>,
}

impl GeometryNodes {
    /// The vertex nodes of `shape`'s geometry (none for a Shape without geometry or a primitive).
    pub fn of_shape(scene: &Scene, shape: NodeId) -> GeometryNodes {
        let Some(geometry) = scene.node(shape).children_in("geometry").next() else { return GeometryNodes::default() };
        let child = |field: &str| scene.node(geometry).children_in(field).next();
        GeometryNodes {
            coord: child("coord"),
            normal: child("normal"),
            color: child("color"),
            tex_coord: child("texCoord"),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = NodeId> {
        [self.coord, self.normal, self.color, self.tex_coord].into_iter().flatten()
    }
}

/// Whether `field` (canonical: no `set_` / `_changed`) of a node of type `type_name` is a vertex field
/// this module replaces.
pub fn is_vertex_field(type_name: &str, field: &str) -> bool {
    matches!(
        (type_name, field),
        ("Coordinate" | "CoordinateDouble" | "TextureCoordinate", "point")
            | ("Normal", "vector")
            | ("Color" | "ColorRGBA", "color")
    )
}

/// Every node whose vertex field a ROUTE writes: the geometries that use them change when events arrive.
pub fn routed_vertex_nodes(scene: &Scene) -> HashSet<NodeId> {
    scene
        .routes
        .iter()
        .filter(|r| {
            let field = r.to_field.strip_prefix("set_").unwrap_or(&r.to_field);
            let field = field.strip_suffix("_changed").unwrap_or(field);
            is_vertex_field(&scene.node(r.to_node).type_name, field)
        })
        .map(|r| r.to_node)
        .collect()
}

/// The points of a geometry's `coord` node: the event value when `values` has one, else the file's.
pub(super) fn coord_points_with(
    scene: &Scene,
    geometry: NodeId,
    values: &GeometryValues,
) -> Result<Vec<Vec3>, X3dError> {
    let Some(coord) = scene.node(geometry).children_in("coord").next() else { return Ok(Vec::new()) };
    if let Some(points) = values.points.get(&coord) {
        return Ok(points.clone());
    }
    Ok(scene.mf_length3(coord, "point")?.into_iter().map(Vec3::from).collect())
}

/// A Normal node's vectors: the event value when `values` has one, else the file's.
pub(super) fn normal_vectors_with(scene: &Scene, node: NodeId, values: &GeometryValues) -> Result<Vec<Vec3>, X3dError> {
    if let Some(v) = values.vectors.get(&node) {
        return Ok(v.clone());
    }
    Ok(scene
        .parse_field(node, "vector", fields::parse_mf_vec3f)?
        .unwrap_or_default()
        .into_iter()
        .map(Vec3::from)
        .collect())
}

/// The colours of a geometry's `color` node (see [`super::appearance::colors_of`]), the event value when
/// `values` has one.
pub(super) fn colors_with(
    scene: &Scene,
    geometry: NodeId,
    values: &GeometryValues,
) -> Result<Option<Vec<[f32; 4]>>, X3dError> {
    let node = scene.node(geometry).children_in("color").next();
    match node.and_then(|n| values.colors.get(&n)) {
        Some(colors) if matches!(node.map(|n| scene.node(n).type_name.as_str()), Some("Color" | "ColorRGBA")) => {
            Ok(Some(colors.clone()))
        }
        _ => super::appearance::colors_of(scene, geometry),
    }
}

/// The texture coordinates `mapping` names in a geometry's `texCoord` (see
/// [`super::appearance::uvs_for`]), the event value when `values` has one for that TextureCoordinate.
pub(super) fn uvs_with(
    scene: &Scene,
    geometry: NodeId,
    mapping: &str,
    values: &GeometryValues,
) -> Result<Option<Vec<[f32; 2]>>, X3dError> {
    let node = super::material_maps::tex_coord_node(scene, geometry, mapping);
    match node.and_then(|n| values.tex_coords.get(&n)) {
        Some(uvs) => Ok(Some(uvs.clone())),
        None => super::appearance::uvs_for(scene, geometry, mapping),
    }
}

/// Whether a ROUTE writes the `point` field of `geometry`'s `coord` node: its faces may index points that
/// only events bring (a Coordinate that starts empty), so faces outside the file's points are not worth
/// a note.
pub(super) fn coord_is_routed(scene: &Scene, geometry: NodeId) -> bool {
    let Some(coord) = scene.node(geometry).children_in("coord").next() else { return false };
    routed_vertex_nodes(scene).contains(&coord)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routed_vertex_fields_are_found_and_values_restricted_per_geometry() {
        let text = "<X3D><Scene><Shape DEF='s'><IndexedFaceSet coordIndex='0 1 2'><Coordinate DEF='c'/>\
                    <Color DEF='k' color='1 0 0'/></IndexedFaceSet></Shape>\
                    <CoordinateInterpolator DEF='i' key='0 1' keyValue='0 0 0 1 0 0 0 1 0 0 0 0 2 0 0 0 2 0'/>\
                    <ROUTE fromNode='i' fromField='value_changed' toNode='c' toField='set_point'/></Scene></X3D>";
        let scene = crate::x3d::load_str(text, std::path::Path::new("a.x3d"), &Default::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let (c, k) = (scene.defs["c"], scene.defs["k"]);
        assert_eq!(routed_vertex_nodes(&scene), HashSet::from([c]));
        let nodes = GeometryNodes::of_shape(&scene, scene.defs["s"]);
        assert_eq!((nodes.coord, nodes.color, nodes.normal), (Some(c), Some(k), None));
        let geometry = scene.node(scene.defs["s"]).children_in("geometry").next().unwrap();
        assert!(coord_is_routed(&scene, geometry));
        let mut values = GeometryValues::default();
        values.points.insert(c, vec![Vec3::X]);
        values.points.insert(NodeId(9999), vec![Vec3::Y]);
        let own = values.restricted_to(&nodes);
        assert_eq!(own.points.len(), 1);
        assert_eq!(coord_points_with(&scene, geometry, &own).unwrap(), vec![Vec3::X]);
        assert_eq!(coord_points_with(&scene, geometry, &GeometryValues::default()).unwrap(), Vec::<Vec3>::new());
        assert_eq!(colors_with(&scene, geometry, &own).unwrap(), Some(vec![[1.0, 0.0, 0.0, 1.0]]));
        assert!(is_vertex_field("ColorRGBA", "color") && !is_vertex_field("Coordinate", "color"));
    }
}
