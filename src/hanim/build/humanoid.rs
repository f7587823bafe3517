//! One humanoid: the builder that holds what the walks have found so far, and `build`, which runs them in
//! order (skeleton, `viewpoints`, index lists, motions, skin, info) and checks the index lists against the
//! skeleton.

use std::collections::HashMap;

use glam::{Mat4, Quat, Vec3};

use super::HanimError;
use super::fields::transform_fields;
use crate::hanim::model::*;
use crate::x3d::{self, NodeId, Scene, Warning};

pub(super) struct HumanoidBuilder<'s> {
    pub(super) scene: &'s Scene,
    pub(super) id: NodeId,
    pub(super) world_from_parent: Mat4,
    pub(super) warnings: Vec<Warning>,
    pub(super) joints: Vec<Joint>,
    pub(super) segments: Vec<Segment>,
    pub(super) sites: Vec<Site>,
    pub(super) displacers: Vec<Displacer>,
    pub(super) joint_of_node: HashMap<NodeId, usize>,
    pub(super) segment_of_node: HashMap<NodeId, usize>,
    pub(super) site_of_node: HashMap<NodeId, usize>,
    pub(super) joint_viewpoints: Vec<JointViewpoint>,
}

/// What holds a node met during the skeleton walk.
#[derive(Clone, Copy)]
pub(super) enum Holder {
    Humanoid,
    Joint(usize),
    Segment(usize),
}

impl<'s> HumanoidBuilder<'s> {
    pub(super) fn new(scene: &'s Scene, id: NodeId, world_from_parent: Mat4) -> Self {
        Self {
            scene,
            id,
            world_from_parent,
            warnings: Vec::new(),
            joints: Vec::new(),
            segments: Vec::new(),
            sites: Vec::new(),
            displacers: Vec::new(),
            joint_of_node: HashMap::new(),
            segment_of_node: HashMap::new(),
            site_of_node: HashMap::new(),
            joint_viewpoints: Vec::new(),
        }
    }

    pub(super) fn warn(&mut self, node: NodeId, message: String) {
        let pos = self.scene.pos(self.scene.node(node).loc);
        self.warnings.push(Warning { pos, message });
    }

    pub(super) fn name_of(&self, id: NodeId) -> String {
        let scene = self.scene;
        match scene.string(id, "name").map(str::trim).filter(|n| !n.is_empty()) {
            Some(name) => name.to_string(),
            None => scene.node(id).def.clone().unwrap_or_default(),
        }
    }

    pub(super) fn children_of(&self, id: NodeId, fields: &[&str]) -> Vec<NodeId> {
        self.scene.node(id).children.iter().filter(|c| fields.contains(&c.field.as_str())).map(|c| c.node).collect()
    }

    pub(super) fn build(mut self) -> Result<Humanoid, HanimError> {
        let scene = self.scene;
        let id = self.id;
        let is_x3d4 = scene.version.trim().starts_with('4');
        let version = scene
            .string(id, "version")
            .map(str::to_string)
            .unwrap_or_else(|| if is_x3d4 { "2.0".to_string() } else { String::new() });
        let transform = transform_fields(scene, id, &mut self.warnings)?;

        // Skeleton roots: `skeleton`, the H-Anim 1.x name `humanoidBody`, and joints written without a
        // containerField (default `children`, which a humanoid does not have).
        let mut roots = self.children_of(id, &["skeleton", "humanoidBody"]);
        for stray in self.children_of(id, &["children"]) {
            if matches!(scene.node(stray).type_name.as_str(), "HAnimJoint" | "HAnimSite") {
                self.warn(
                    stray,
                    format!(
                        "{} inside HAnimHumanoid has no containerField; taken as part of the skeleton",
                        scene.describe(stray)
                    ),
                );
                roots.push(stray);
            }
        }
        let listed_joints = self.children_of(id, &["joints"]);
        if roots.is_empty() && !listed_joints.is_empty() {
            // H-Anim 1.0 layout: the root Joint sits outside the Humanoid, which only lists references.
            // The roots are the listed joints that no other listed joint contains.
            let mut contained = std::collections::HashSet::new();
            for &j in &listed_joints {
                for c in &scene.node(j).children {
                    contained.insert(c.node);
                }
            }
            roots = listed_joints.iter().copied().filter(|j| !contained.contains(j)).collect();
        }
        self.walk_skeleton(&roots)?;

        let mut humanoid_viewpoints = Vec::new();
        self.read_viewpoints_field(&mut humanoid_viewpoints)?;

        // Index lists: joints, segments, sites.
        let mut skin_joints = Vec::new();
        for node in &listed_joints {
            match self.joint_of_node.get(node) {
                Some(&j) if !skin_joints.contains(&j) => skin_joints.push(j),
                Some(_) => {}
                None => {
                    let message = format!("{} is listed in `joints` but is not in the skeleton", scene.describe(*node));
                    self.warn(*node, message);
                }
            }
        }
        for (j, joint) in self.joints.iter().enumerate() {
            if !joint.skin_coord_index.is_empty() && !skin_joints.contains(&j) {
                skin_joints.push(j);
            }
        }
        let unlisted = skin_joints.len().saturating_sub(listed_joints.len());
        if !listed_joints.is_empty() && unlisted > 0 {
            self.warn(
                id,
                format!("{unlisted} weighted joint(s) are missing from the humanoid's `joints` list; they skin anyway"),
            );
        }
        for field in ["segments", "sites"] {
            for node in self.children_of(id, &[field]) {
                let known = if field == "segments" {
                    self.segment_of_node.contains_key(&node)
                } else {
                    self.site_of_node.contains_key(&node)
                };
                if !known {
                    let message = format!("{} is listed in `{field}` but is not in the skeleton", scene.describe(node));
                    self.warn(node, message);
                }
            }
        }

        let motions = self.read_motions()?;
        let poses = self.read_poses()?;
        let motions_enabled = scene.parse_field(id, "motionsEnabled", x3d::fields::parse_mf_bool)?.unwrap_or_default();
        let skin = self.read_skin(&skin_joints)?;
        let info = self.read_info()?;

        let joint_binding_positions: Vec<Vec3> =
            scene.mf_length3(id, "jointBindingPositions")?.into_iter().map(Vec3::from).collect();
        let joint_binding_rotations: Vec<Quat> =
            scene.mf_rotation(id, "jointBindingRotations")?.into_iter().map(quat_from_axis_angle).collect();
        let joint_binding_scales: Vec<Vec3> =
            scene.mf_vec3f(id, "jointBindingScales")?.into_iter().map(Vec3::from).collect();

        let mut humanoid = Humanoid {
            name: self.name_of(id),
            def: scene.node(id).def.clone(),
            node: id,
            version,
            loa: scene.sf_int32(id, "loa", -1)?,
            skeletal_configuration: scene.string(id, "skeletalConfiguration").unwrap_or("BASIC").to_string(),
            description: scene.string(id, "description").unwrap_or("").to_string(),
            info,
            transform,
            world_from_parent: self.world_from_parent,
            joints: std::mem::take(&mut self.joints),
            skin_joints,
            segments: std::mem::take(&mut self.segments),
            sites: std::mem::take(&mut self.sites),
            displacers: std::mem::take(&mut self.displacers),
            motions,
            motions_enabled,
            poses,
            skin,
            viewpoints: humanoid_viewpoints,
            joint_viewpoints: {
                // The skeleton walk meets them in stack order; the list follows the document.
                let mut held = std::mem::take(&mut self.joint_viewpoints);
                held.sort_by_key(|v| v.held.viewpoint.node);
                held
            },
            binding: Vec::new(),
            binding_mode: BindingMode::None,
            joint_binding_positions,
            joint_binding_rotations,
            joint_binding_scales,
            warnings: Vec::new(),
        };
        crate::hanim::binding::resolve(&mut humanoid, &mut self.warnings, scene);
        humanoid.warnings = self.warnings;
        Ok(humanoid)
    }
}
