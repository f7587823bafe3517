//! Poses in X3D's own form: an HAnimPose node (X3D 4.1 / HAnim 2.1 working draft) read from a file
//! into a [`HumanoidPose`], and a [`HumanoidPose`] written as an HAnimPose XML element.
//!
//! The element is written as X_ITE 15 reads it: the HAnimPose in the humanoid's `children`, its
//! HAnimJoints in the pose's `children`, matched to the skeleton by `name` (see `docs/hanim-pose.md`).
//! Each joint carries its `rotation`; the root joint also its `translation`.

use std::fmt::Write as _;

use quick_xml::escape::escape;

use super::{HumanoidPose, JointPose, root_joint};
use crate::hanim::{HanimPose, Humanoid};

/// The pose an HAnimPose of `h` describes, named as the file names it (its joints keep their names).
/// The root joint's `translation`, where the pose joint writes one, becomes the root translation.
pub fn from_hanim_pose(h: &Humanoid, node: &HanimPose) -> HumanoidPose {
    let root = root_joint(h).map(|r| super::canonical_joint_name(&h.joints[r].name, &h.name));
    let root_translation = node
        .joints
        .iter()
        .find(|j| Some(super::canonical_joint_name(&j.name, &h.name)) == root)
        .and_then(|j| j.translation)
        .map(|t| t.to_array());
    HumanoidPose {
        name: h.name.clone(),
        loa: if node.loa >= 0 { node.loa } else { h.loa },
        root_translation,
        reset_other_joints: node.reset_other_joints,
        joints: node.joints.iter().map(|j| JointPose::new(&j.name, j.rotation)).collect(),
    }
}

/// `pose` as an `<HAnimPose>` element named `name`, for a humanoid's `children`, each line starting with
/// `indent`. The root joint (the first whose name is `humanoid_root` or `HumanoidRoot`, prefixes
/// ignored) gets the root translation when the pose has one.
pub fn hanim_pose_xml(pose: &HumanoidPose, name: &str, indent: &str) -> String {
    let mut out = String::new();
    let loa = if pose.loa >= 0 { format!(" loa='{}'", pose.loa) } else { String::new() };
    let _ = writeln!(
        out,
        "{indent}<HAnimPose name='{}'{loa} transitionDuration='0' containerField='children'>",
        escape(name)
    );
    let mut root_written = false;
    for joint in &pose.joints {
        let [x, y, z, angle] = super::axis_angle_of(joint.rotation());
        let mut fields = format!("name='{}' rotation='{x} {y} {z} {angle}'", escape(&joint.name));
        let is_root = super::canonical_joint_name(&joint.name, &pose.name) == "humanoid_root";
        if let (true, false, Some([tx, ty, tz])) = (is_root, root_written, pose.root_translation) {
            let _ = write!(fields, " translation='{tx} {ty} {tz}'");
            root_written = true;
        }
        let _ = writeln!(out, "{indent}  <HAnimJoint {fields} containerField='children'/>");
    }
    let _ = writeln!(out, "{indent}</HAnimPose>");
    out
}

#[cfg(test)]
mod tests {
    use glam::Quat;

    use super::*;

    #[test]
    fn the_element_names_each_joint_and_escapes_text() {
        let pose = HumanoidPose {
            name: "Jin".into(),
            loa: 1,
            root_translation: Some([0.0, 0.5, 0.0]),
            reset_other_joints: true,
            joints: vec![
                JointPose::new("humanoid_root", Quat::IDENTITY),
                JointPose::new("l_shoulder", Quat::from_rotation_z(1.5)),
            ],
        };
        let xml = hanim_pose_xml(&pose, "arms <up> & 'out'", "  ");
        assert!(xml.starts_with("  <HAnimPose name='arms &lt;up&gt; &amp; &apos;out&apos;' loa='1'"), "{xml}");
        assert!(xml.contains("<HAnimJoint name='humanoid_root' rotation='0 0 1 0' translation='0 0.5 0'"), "{xml}");
        assert!(xml.contains("<HAnimJoint name='l_shoulder' rotation='0 0 1 1.5"), "{xml}");
        assert!(xml.ends_with("  </HAnimPose>\n"));
    }
}
