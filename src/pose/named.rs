//! Poses asked for by name, as the command line and tests give them: joint rotation offsets and
//! displacer weights named by node name or DEF, applied to every humanoid of a document that has them.

use glam::{Quat, Vec3};

use super::Pose;
use crate::hanim::Document;
use crate::names::NotFound;

/// A rotation offset for the joint named `joint` (name or DEF), applied in the joint's frame after its
/// file rotation (`--pose JOINT=X,Y,Z,ANGLE`).
#[derive(Debug, Clone, PartialEq)]
pub struct JointRotation {
    pub joint: String,
    /// Unit axis.
    pub axis: Vec3,
    pub angle: f32,
}

/// A weight for the displacer named `name` (name or DEF) (`--displacer NAME=WEIGHT`).
#[derive(Debug, Clone, PartialEq)]
pub struct DisplacerWeight {
    pub name: String,
    pub weight: f32,
}

/// One pose per humanoid: the file's rest pose with the requested joint rotation offsets and displacer
/// weights. A joint or displacer name found in no humanoid is an error listing close names.
pub fn poses_for(
    doc: &Document,
    rotations: &[JointRotation],
    weights: &[DisplacerWeight],
) -> Result<Vec<Pose>, NotFound> {
    let mut poses: Vec<Pose> = doc.humanoids.iter().map(Pose::rest).collect();
    for r in rotations {
        let mut found = false;
        for (h, pose) in doc.humanoids.iter().zip(&mut poses) {
            for (j, joint) in h.joints.iter().enumerate() {
                if joint.name == r.joint || joint.def.as_deref() == Some(r.joint.as_str()) {
                    pose.rotation_offsets[j] = Quat::from_axis_angle(r.axis, r.angle);
                    found = true;
                }
            }
        }
        if !found {
            let names = doc.humanoids.iter().flat_map(|h| h.joints.iter().map(|j| j.name.as_str()));
            return Err(NotFound::new("joint", &r.joint, names));
        }
    }
    for w in weights {
        let mut found = false;
        for (h, pose) in doc.humanoids.iter().zip(&mut poses) {
            for (d, displacer) in h.displacers.iter().enumerate() {
                if displacer.name == w.name || displacer.def.as_deref() == Some(w.name.as_str()) {
                    pose.displacer_weights[d] = w.weight;
                    found = true;
                }
            }
        }
        if !found {
            let names = doc.humanoids.iter().flat_map(|h| h.displacers.iter().map(|d| d.name.as_str()));
            return Err(NotFound::new("displacer", &w.name, names));
        }
    }
    Ok(poses)
}
