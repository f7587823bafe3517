//! HAnimPose nodes (X3D 4.1 / HAnim 2.1 working draft): named sets of joint values a humanoid can be
//! put into. The draft and X_ITE's releases spell the containers differently, so both are read: the
//! pose in the humanoid's `poses` (draft) or `children` (X_ITE 15), its joints in `poseJoints` (draft)
//! or `children` (X_ITE 15); `resetOtherJoints` where a file writes it (default TRUE, as the draft's).

use glam::Vec3;

use super::HanimError;
use super::humanoid::HumanoidBuilder;
use crate::hanim::model::*;

impl HumanoidBuilder<'_> {
    pub(super) fn read_poses(&mut self) -> Result<Vec<HanimPose>, HanimError> {
        let scene = self.scene;
        let mut poses = Vec::new();
        for id in self.children_of(self.id, &["poses", "children"]) {
            if scene.node(id).type_name != "HAnimPose" {
                continue;
            }
            let mut joints: Vec<PoseJoint> = Vec::new();
            for joint in self.children_of(id, &["poseJoints", "children"]) {
                if scene.node(joint).type_name != "HAnimJoint" {
                    let message = format!("{} in an HAnimPose is not an HAnimJoint; ignored", scene.describe(joint));
                    self.warn(joint, message);
                    continue;
                }
                let name = self.name_of(joint);
                if name.is_empty() {
                    self.warn(joint, format!("{} in an HAnimPose has no name; ignored", scene.describe(joint)));
                    continue;
                }
                if joints.iter().any(|j| j.name == name) {
                    let message = format!("HAnimPose lists joint '{name}' twice; the first is used");
                    self.warn(joint, message);
                    continue;
                }
                let rotation = quat_from_axis_angle(scene.sf_rotation(joint, "rotation", [0.0, 0.0, 1.0, 0.0])?);
                let translation = match scene.node(joint).field("translation") {
                    Some(_) => Some(Vec3::from(scene.sf_length3(joint, "translation", [0.0; 3])?)),
                    None => None,
                };
                joints.push(PoseJoint { name, rotation, translation });
            }
            poses.push(HanimPose {
                name: self.name_of(id),
                def: scene.node(id).def.clone(),
                node: id,
                description: scene.string(id, "description").unwrap_or("").to_string(),
                loa: scene.sf_int32(id, "loa", -1)?,
                enabled: scene.sf_bool(id, "enabled", true)?,
                transition_duration: scene.sf_float(id, "transitionDuration", 0.0)?,
                reset_other_joints: scene.sf_bool(id, "resetOtherJoints", true)?,
                joints,
            });
        }
        Ok(poses)
    }
}
