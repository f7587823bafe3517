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
            return self.skin_without_skin_coord(weighted);
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

        let shapes = self.read_skin_shapes(Some(coord_node))?;
        let (influences, quirks) = crate::hanim::influences::build(&self.joints, skin_joints, points.len());
        for quirk in quirks {
            let node = quirk.joint.map(|j| self.joints[j].node).unwrap_or(id);
            self.warn(node, quirk.message);
        }
        let unweighted_points = (0..points.len()).filter(|&i| influences.of(i).is_empty()).count();
        if weighted && unweighted_points > 0 && unweighted_points == points.len() {
            // Every weight was skipped (indices out of range, such as -1): an unbound skin, not a few
            // points left behind.
            let message = format!(
                "no joint weights any of the {} skin points (every skinCoordIndex entry was skipped); the skin \
                 stays in its bind pose",
                points.len()
            );
            self.warn(coord_node, message);
        } else if weighted && unweighted_points > 0 {
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

    /// Skin Shapes with no skinCoord (19774-1 6.2 has the skin's face sets use skinCoord's points): their
    /// geometry has its own Coordinate, which no joint's weights index, so they are drawn as authored, rigid
    /// in humanoid space, as view3dscene draws them (docs/wild.md, "Skins that bend the rules").
    fn skin_without_skin_coord(&mut self, weighted: bool) -> Result<Option<Skin>, HanimError> {
        let shapes = self.read_skin_shapes(None)?;
        if shapes.is_empty() {
            if weighted {
                self.warn(self.id, "joints carry skin weights but the humanoid has no skinCoord; no skin".to_string());
            }
            return Ok(None);
        }
        if weighted {
            let message = "joints carry skin weights but the humanoid has no skinCoord; the skin Shapes are drawn \
                           as authored and do not deform"
                .to_string();
            self.warn(self.id, message);
        }
        let normal_node = self.children_of(self.id, &["skinNormal"]).into_iter().next();
        Ok(Some(Skin {
            shapes,
            coord_node: None,
            normal_node,
            points: Vec::new(),
            normals: Vec::new(),
            influences: Influences { offsets: vec![0], entries: Vec::new() },
            unweighted_points: 0,
        }))
    }

    /// The Shapes under `skin`; those whose geometry's `coord` is the skinCoord node (`coord_node`) deform.
    pub(super) fn read_skin_shapes(&mut self, coord_node: Option<NodeId>) -> Result<Vec<SkinShape>, HanimError> {
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
                                coord_node.is_some() && self.children_of(g, &["coord"]).first() == coord_node.as_ref(),
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
        if coord_node.is_some() && !shapes.is_empty() && !shapes.iter().any(|s| s.deforms) {
            self.warn(self.id, "no skin shape uses the skinCoord node (DEF/USE), so nothing deforms".to_string());
        }
        Ok(shapes)
    }
}
