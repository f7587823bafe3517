//! The humanoid's skin: points and normals (binding ones preferred when their counts agree), joint
//! influences, and the Shapes under `skin` with whether they use the skinCoord node and so deform.

use std::collections::HashSet;

use glam::Vec3;

use super::HanimError;
use super::humanoid::HumanoidBuilder;
use crate::hanim::model::*;
use crate::x3d::NodeId;
use crate::x3d::grouping::{is_grouping, shown_children};

impl HumanoidBuilder<'_> {
    pub(super) fn read_skin(&mut self, skin_joints: &[usize]) -> Result<Option<Skin>, HanimError> {
        let scene = self.scene;
        let id = self.id;
        let coord_node = self.children_of(id, &["skinCoord"]).into_iter().next();
        let normal_node = self.children_of(id, &["skinNormal"]).into_iter().next();
        let weighted = skin_joints.iter().any(|&j| !self.joints[j].skin_coord_index.is_empty());
        let Some(coord_node) = coord_node else {
            if weighted {
                self.warn(id, "joints carry skin weights but the humanoid has no skinCoord; no skin".to_string());
            }
            return Ok(None);
        };
        let skin_points: Vec<Vec3> = scene.mf_length3(coord_node, "point")?.into_iter().map(Vec3::from).collect();
        let skin_normals: Vec<Vec3> = match normal_node {
            Some(n) => scene.mf_vec3f(n, "vector")?.into_iter().map(Vec3::from).collect(),
            None => Vec::new(),
        };
        let points = match self.children_of(id, &["skinBindingCoords"]).first() {
            Some(&b) => {
                let binding: Vec<Vec3> = scene.mf_length3(b, "point")?.into_iter().map(Vec3::from).collect();
                if binding.len() == skin_points.len() {
                    binding
                } else {
                    let message = format!(
                        "skinBindingCoords has {} points but skinCoord has {}; using skinCoord",
                        binding.len(),
                        skin_points.len()
                    );
                    self.warn(b, message);
                    skin_points
                }
            }
            None => skin_points,
        };
        let normals = match self.children_of(id, &["skinBindingNormals"]).first() {
            Some(&b) => {
                let binding: Vec<Vec3> = scene.mf_vec3f(b, "vector")?.into_iter().map(Vec3::from).collect();
                if binding.len() == skin_normals.len() {
                    binding
                } else {
                    let message = format!(
                        "skinBindingNormals has {} vectors but skinNormal has {}; using skinNormal",
                        binding.len(),
                        skin_normals.len()
                    );
                    self.warn(b, message);
                    skin_normals
                }
            }
            None => skin_normals,
        };
        if !normals.is_empty() && normals.len() != points.len() {
            let message =
                format!("skinNormal has {} vectors for {} points; normals are ignored", normals.len(), points.len());
            self.warn(id, message);
        }
        let normals = if normals.len() == points.len() { normals } else { Vec::new() };

        let shapes = self.read_skin_shapes(coord_node)?;
        let (influences, quirks) = crate::hanim::influences::build(&self.joints, skin_joints, points.len());
        for quirk in quirks {
            let node = quirk.joint.map(|j| self.joints[j].node).unwrap_or(id);
            self.warn(node, quirk.message);
        }
        let unweighted_points = (0..points.len()).filter(|&i| influences.of(i).is_empty()).count();
        if weighted && unweighted_points > 0 {
            let message = format!(
                "{unweighted_points} of {} skin points have no joint influence and stay in place",
                points.len()
            );
            self.warn(coord_node, message);
        }
        Ok(Some(Skin {
            shapes,
            coord_node: Some(coord_node),
            normal_node,
            points,
            normals,
            influences,
            unweighted_points,
        }))
    }

    pub(super) fn read_skin_shapes(&mut self, coord_node: NodeId) -> Result<Vec<SkinShape>, HanimError> {
        let scene = self.scene;
        let mut shapes = Vec::new();
        let mut stack: Vec<NodeId> = self.children_of(self.id, &["skin"]).into_iter().rev().collect();
        // Each node once: USE can make exponentially many paths to one node, and a Shape is listed once.
        let mut seen = HashSet::new();
        while let Some(node) = stack.pop() {
            if !seen.insert(node) {
                continue;
            }
            match scene.node(node).type_name.as_str() {
                "Shape" => {
                    let geometry = self.children_of(node, &["geometry"]).into_iter().next();
                    let (geometry_type, deforms, indices) = match geometry {
                        Some(g) => {
                            let index_field =
                                if scene.node(g).field("coordIndex").is_some() { "coordIndex" } else { "index" };
                            (
                                scene.node(g).type_name.clone(),
                                self.children_of(g, &["coord"]).first() == Some(&coord_node),
                                scene.mf_int32(g, index_field)?,
                            )
                        }
                        None => (String::new(), false, Vec::new()),
                    };
                    shapes.push(SkinShape { shape: node, geometry, geometry_type, deforms, indices });
                }
                t if is_grouping(t) => stack.extend(shown_children(scene, node)?.into_iter().rev()),
                _ => {}
            }
        }
        if !shapes.is_empty() && !shapes.iter().any(|s| s.deforms) {
            self.warn(self.id, "no skin shape uses the skinCoord node (DEF/USE), so nothing deforms".to_string());
        }
        Ok(shapes)
    }
}
