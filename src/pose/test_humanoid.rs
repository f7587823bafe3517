//! A small humanoid built in code for the unit tests: only the fields the pose module reads are
//! meaningful, the rest hold defaults.

use glam::{Mat4, Quat, Vec3};

use crate::hanim::{
    BindingMode, Displacer, DisplacerOwner, Humanoid, Influences, Joint, Segment, Skin, TransformFields,
};
use crate::x3d::NodeId;

pub(crate) struct HumanoidBuilder {
    humanoid: Humanoid,
    points: Vec<Vec3>,
    normals: Vec<Vec3>,
}

impl HumanoidBuilder {
    pub(crate) fn new() -> Self {
        let humanoid = Humanoid {
            name: "test".to_string(),
            def: None,
            node: NodeId(0),
            version: "2.0".to_string(),
            loa: -1,
            skeletal_configuration: "BASIC".to_string(),
            description: String::new(),
            info: Vec::new(),
            transform: TransformFields::default(),
            world_from_parent: Mat4::IDENTITY,
            joints: Vec::new(),
            skin_joints: Vec::new(),
            segments: Vec::new(),
            sites: Vec::new(),
            displacers: Vec::new(),
            motions: Vec::new(),
            motions_enabled: Vec::new(),
            poses: Vec::new(),
            skin: None,
            viewpoints: Vec::new(),
            joint_viewpoints: Vec::new(),
            binding: Vec::new(),
            binding_mode: BindingMode::None,
            joint_binding_positions: Vec::new(),
            joint_binding_rotations: Vec::new(),
            joint_binding_scales: Vec::new(),
            warnings: Vec::new(),
        };
        Self { humanoid, points: Vec::new(), normals: Vec::new() }
    }

    /// Adds a joint with rest rotation and translation at their defaults; `parent` must come earlier.
    pub(crate) fn joint(mut self, name: &str, parent: Option<usize>, center: Vec3) -> Self {
        self.humanoid.joints.push(Joint {
            name: name.to_string(),
            def: None,
            node: NodeId(0),
            parent,
            rest: TransformFields { center, ..TransformFields::default() },
            llimit: Vec::new(),
            ulimit: Vec::new(),
            limit_orientation: Quat::IDENTITY,
            stiffness: Vec::new(),
            skin_coord_index: Vec::new(),
            skin_coord_weight: Vec::new(),
            description: String::new(),
            displacers: Vec::new(),
            segments: Vec::new(),
            extra_children: Vec::new(),
        });
        self
    }

    /// Binding points; adding points gives the humanoid a skin.
    pub(crate) fn points(mut self, points: &[Vec3]) -> Self {
        self.points = points.to_vec();
        self
    }

    pub(crate) fn normals(mut self, normals: &[Vec3]) -> Self {
        self.normals = normals.to_vec();
        self
    }

    /// `skinCoordIndex`/`skinCoordWeight` entry of `joint`; repeated pairs are summed by [`Self::build`].
    pub(crate) fn weight(mut self, joint: usize, point: usize, weight: f32) -> Self {
        let joint = &mut self.humanoid.joints[joint];
        joint.skin_coord_index.push(point as i32);
        joint.skin_coord_weight.push(weight);
        self
    }

    pub(crate) fn joint_displacer(
        self,
        joint: usize,
        coord_index: &[i32],
        displacements: &[Vec3],
        weight: f32,
    ) -> Self {
        self.displacer(DisplacerOwner::Joint(joint), coord_index, displacements, weight)
    }

    pub(crate) fn segment(mut self, joint: usize, coord_points: &[Vec3]) -> Self {
        let index = self.humanoid.segments.len();
        self.humanoid.joints[joint].segments.push(index);
        self.humanoid.segments.push(Segment {
            name: format!("segment{index}"),
            def: None,
            node: NodeId(0),
            joint: Some(joint),
            mass: 0.0,
            center_of_mass: Vec3::ZERO,
            moments_of_inertia: Vec::new(),
            coord: Some(NodeId(0)),
            coord_points: coord_points.to_vec(),
            displacers: Vec::new(),
            geometry: Vec::new(),
            description: String::new(),
        });
        self
    }

    pub(crate) fn segment_displacer(
        self,
        segment: usize,
        coord_index: &[i32],
        displacements: &[Vec3],
        weight: f32,
    ) -> Self {
        self.displacer(DisplacerOwner::Segment(segment), coord_index, displacements, weight)
    }

    fn displacer(mut self, owner: DisplacerOwner, coord_index: &[i32], displacements: &[Vec3], weight: f32) -> Self {
        let index = self.humanoid.displacers.len();
        match owner {
            DisplacerOwner::Joint(joint) => self.humanoid.joints[joint].displacers.push(index),
            DisplacerOwner::Segment(segment) => self.humanoid.segments[segment].displacers.push(index),
        }
        self.humanoid.displacers.push(Displacer {
            name: format!("displacer{index}"),
            def: None,
            node: NodeId(0),
            owner,
            coord_index: coord_index.to_vec(),
            displacements: displacements.to_vec(),
            weight,
            description: String::new(),
        });
        self
    }

    /// Transposes the per-joint lists into per-point influences in joint list order, as the loader does.
    pub(crate) fn build(mut self) -> Humanoid {
        let h = &mut self.humanoid;
        h.skin_joints = (0..h.joints.len()).collect();
        h.binding = vec![Mat4::IDENTITY; h.joints.len()];
        if self.points.is_empty() {
            return self.humanoid;
        }
        let mut per_point: Vec<Vec<(u32, f32)>> = vec![Vec::new(); self.points.len()];
        for (joint_index, joint) in h.joints.iter().enumerate() {
            for (&point, &weight) in joint.skin_coord_index.iter().zip(&joint.skin_coord_weight) {
                let list = &mut per_point[point as usize];
                match list.iter_mut().find(|(j, _)| *j == joint_index as u32) {
                    Some((_, sum)) => *sum += weight,
                    None => list.push((joint_index as u32, weight)),
                }
            }
        }
        let mut influences = Influences { offsets: vec![0], entries: Vec::new() };
        for list in &per_point {
            influences.entries.extend(list.iter().filter(|(_, weight)| *weight != 0.0));
            influences.offsets.push(influences.entries.len() as u32);
        }
        let unweighted_points = per_point.iter().filter(|list| list.is_empty()).count();
        h.skin = Some(Skin {
            shapes: Vec::new(),
            coord_node: Some(NodeId(0)),
            normal_node: None,
            points: self.points,
            normals: self.normals,
            influences,
            unweighted_points,
        });
        self.humanoid
    }
}
