//! The skeleton walk: joints, segments, sites and displacers from the humanoid's skeleton roots, parent
//! before child, with an explicit stack; H-Anim nodes wrapped in grouping nodes under a joint or segment are
//! found too; each joint and segment is read once.

use std::collections::HashSet;

use glam::{Mat4, Vec3};

use super::HanimError;
use super::fields::{leaves_below, rotation_field, transform_fields};
use super::humanoid::{Holder, HumanoidBuilder};
use super::sites::{is_viewpoint, read_viewpoint};
use crate::hanim::model::*;
use crate::x3d::NodeId;
use crate::x3d::grouping::is_grouping;

impl HumanoidBuilder<'_> {
    /// Depth-first, parent before child, with an explicit stack.
    pub(super) fn walk_skeleton(&mut self, roots: &[NodeId]) -> Result<(), HanimError> {
        let scene = self.scene;
        // (node, holder, transforms of grouping nodes between holder and node)
        let mut stack: Vec<(NodeId, Holder, Mat4)> =
            roots.iter().rev().map(|&r| (r, Holder::Humanoid, Mat4::IDENTITY)).collect();
        let mut displacers_seen = HashSet::new();
        while let Some((id, holder, offset)) = stack.pop() {
            if offset != Mat4::IDENTITY && scene.node(id).type_name != "HAnimSite" {
                let message = format!(
                    "{} is inside a Transform within the skeleton; that Transform is ignored for it",
                    scene.describe(id)
                );
                self.warn(id, message);
            }
            let type_name = scene.node(id).type_name.as_str();
            match type_name {
                "HAnimJoint" => {
                    if self.joint_of_node.contains_key(&id) {
                        let message = format!(
                            "{} appears twice in the skeleton; the second place is ignored",
                            scene.describe(id)
                        );
                        self.warn(id, message);
                        continue;
                    }
                    let parent = match holder {
                        Holder::Joint(j) => Some(j),
                        Holder::Segment(s) => {
                            let message =
                                format!("{} is a child of a segment; joints belong under joints", scene.describe(id));
                            self.warn(id, message);
                            self.segments[s].joint
                        }
                        Holder::Humanoid => None,
                    };
                    let j = self.read_joint(id, parent)?;
                    // Children pushed in reverse so they come off the stack in document order.
                    let children: Vec<_> = scene.node(id).children.iter().rev().cloned().collect();
                    for child in children {
                        let child_type = scene.node(child.node).type_name.as_str();
                        match child_type {
                            "HAnimJoint" | "HAnimSegment" | "HAnimSite" | "HAnimDisplacer" => {
                                stack.push((child.node, Holder::Joint(j), Mat4::IDENTITY))
                            }
                            _ if child.field == "children" => {
                                self.joints[j].extra_children.insert(0, child.node);
                                self.nested_hanim_nodes(child.node, Holder::Joint(j), &mut stack)?;
                            }
                            _ => {}
                        }
                    }
                }
                "HAnimSegment" => {
                    if self.segment_of_node.contains_key(&id) {
                        let message = format!(
                            "{} appears twice in the skeleton; the second place is ignored",
                            scene.describe(id)
                        );
                        self.warn(id, message);
                        continue;
                    }
                    let joint = match holder {
                        Holder::Joint(j) => Some(j),
                        Holder::Segment(s) => self.segments[s].joint,
                        Holder::Humanoid => None,
                    };
                    let s = self.read_segment(id, joint)?;
                    let children: Vec<_> = scene.node(id).children.iter().rev().cloned().collect();
                    for child in children {
                        let child_type = scene.node(child.node).type_name.as_str();
                        match child_type {
                            "HAnimJoint" | "HAnimSite" | "HAnimDisplacer" | "HAnimSegment" => {
                                stack.push((child.node, Holder::Segment(s), Mat4::IDENTITY))
                            }
                            _ if child.field == "children" => {
                                self.segments[s].geometry.insert(0, child.node);
                                self.nested_hanim_nodes(child.node, Holder::Segment(s), &mut stack)?;
                            }
                            _ => {}
                        }
                    }
                }
                "HAnimSite" => {
                    if self.site_of_node.contains_key(&id) {
                        continue;
                    }
                    let parent = match holder {
                        Holder::Joint(j) => SiteParent::Joint(j),
                        Holder::Segment(s) => SiteParent::Segment(s),
                        Holder::Humanoid => SiteParent::Humanoid,
                    };
                    let site = self.read_site(id, parent, false)?;
                    self.sites[site].offset = offset;
                }
                "HAnimDisplacer" => {
                    if !displacers_seen.insert(id) {
                        let message = format!(
                            "{} appears twice in the skeleton; the second place is ignored",
                            scene.describe(id)
                        );
                        self.warn(id, message);
                        continue;
                    }
                    let owner = match holder {
                        Holder::Joint(j) => DisplacerOwner::Joint(j),
                        Holder::Segment(s) => DisplacerOwner::Segment(s),
                        Holder::Humanoid => {
                            let message = format!("{} is not inside a joint or segment; ignored", scene.describe(id));
                            self.warn(id, message);
                            continue;
                        }
                    };
                    self.read_displacer(id, owner)?;
                }
                other => {
                    let message = format!("<{other}> in the skeleton is not an H-Anim node; ignored");
                    self.warn(id, message);
                }
            }
        }
        Ok(())
    }

    /// H-Anim nodes wrapped in grouping nodes under a joint or segment (e.g. a Site inside a Transform
    /// that places it): pushed onto the skeleton stack with the accumulated grouping transform.
    pub(super) fn nested_hanim_nodes(
        &mut self,
        group: NodeId,
        holder: Holder,
        out: &mut Vec<(NodeId, Holder, Mat4)>,
    ) -> Result<(), HanimError> {
        let scene = self.scene;
        let root_type = scene.node(group).type_name.as_str();
        if !is_grouping(root_type) && !is_viewpoint(root_type) {
            return Ok(());
        }
        let mut found = Vec::new();
        for (node, parent_matrix) in leaves_below(scene, group, &mut self.warnings)? {
            let t = scene.node(node).type_name.as_str();
            if t.starts_with("HAnim") {
                found.push((node, holder, parent_matrix));
            } else if is_viewpoint(t) {
                // A camera that moves with the joint (H-Anim 1.0 eye views are children of skullbase).
                let joint = match holder {
                    Holder::Joint(j) => Some(j),
                    Holder::Segment(s) => self.segments[s].joint,
                    Holder::Humanoid => None,
                };
                let viewpoint = read_viewpoint(scene, node)?;
                self.joint_viewpoints
                    .push(JointViewpoint { joint, held: HeldViewpoint { viewpoint, offset: parent_matrix } });
            }
        }
        // The caller pops from the end; keep document order.
        out.extend(found.into_iter().rev());
        Ok(())
    }

    pub(super) fn read_joint(&mut self, id: NodeId, parent: Option<usize>) -> Result<usize, HanimError> {
        let scene = self.scene;
        let rest = transform_fields(scene, id, &mut self.warnings)?;
        let llimit = scene.mf_angle(id, "llimit")?;
        let ulimit = scene.mf_angle(id, "ulimit")?;
        for (field, values) in [("llimit", &llimit), ("ulimit", &ulimit)] {
            if !values.is_empty() && values.len() != 3 {
                let message =
                    format!("{}: {field} has {} values, expected 3; ignored", scene.describe(id), values.len());
                self.warn(id, message);
            }
        }
        let fix = |v: Vec<f32>| if v.len() == 3 { v } else { Vec::new() };
        let limit_orientation = rotation_field(scene, id, "limitOrientation", &mut self.warnings)?;
        let j = self.joints.len();
        let name = self.name_of(id);
        if name.is_empty() {
            self.warn(id, "HAnimJoint has no name".to_string());
        }
        self.joints.push(Joint {
            name,
            def: scene.node(id).def.clone(),
            node: id,
            parent,
            rest,
            llimit: fix(llimit),
            ulimit: fix(ulimit),
            limit_orientation,
            stiffness: scene.mf_float(id, "stiffness")?,
            skin_coord_index: scene.mf_int32(id, "skinCoordIndex")?,
            skin_coord_weight: scene.mf_float(id, "skinCoordWeight")?,
            description: scene.string(id, "description").unwrap_or("").to_string(),
            displacers: Vec::new(),
            segments: Vec::new(),
            extra_children: Vec::new(),
        });
        self.joint_of_node.insert(id, j);
        Ok(j)
    }

    pub(super) fn read_segment(&mut self, id: NodeId, joint: Option<usize>) -> Result<usize, HanimError> {
        let scene = self.scene;
        let coord = self.children_of(id, &["coord"]).into_iter().next();
        let coord_points = match coord {
            Some(c) => scene.mf_length3(c, "point")?.into_iter().map(Vec3::from).collect(),
            None => Vec::new(),
        };
        let s = self.segments.len();
        self.segments.push(Segment {
            name: self.name_of(id),
            def: scene.node(id).def.clone(),
            node: id,
            joint,
            mass: scene.sf_float(id, "mass", 0.0)?,
            center_of_mass: Vec3::from(scene.sf_length3(id, "centerOfMass", [0.0; 3])?),
            moments_of_inertia: scene.mf_float(id, "momentsOfInertia")?,
            coord,
            coord_points,
            displacers: Vec::new(),
            geometry: Vec::new(),
            description: scene.string(id, "description").unwrap_or("").to_string(),
        });
        if let Some(j) = joint {
            self.joints[j].segments.push(s);
        }
        self.segment_of_node.insert(id, s);
        Ok(s)
    }
}
