//! Event overrides into humanoid poses: what ROUTEs write into HAnimJoint, HAnimDisplacer and
//! HAnimHumanoid fields goes through the same [`Pose`] path as clip samples (base rotations and
//! translations, displacer weights, the humanoid's own fields), so skinning and drawing need nothing new.

use super::Overrides;
use crate::hanim::Document;
use crate::pose::Pose;

/// Writes the joint, displacer and humanoid fields of `overrides` into `poses` (one per humanoid of
/// `doc`); other fields and the user's offsets are left alone. Translations are taken as given (the
/// file's values, as X3D browsers place them: `RootMode::AsGiven`).
pub fn apply_to_poses(doc: &Document, overrides: &Overrides, poses: &mut [Pose]) {
    if overrides.is_empty() {
        return;
    }
    for (h, pose) in doc.humanoids.iter().zip(poses.iter_mut()) {
        for (j, joint) in h.joints.iter().enumerate() {
            if let Some(r) = overrides.get(joint.node, "rotation").and_then(|v| v.as_rotation())
                && let Some(slot) = pose.rotations.get_mut(j)
            {
                *slot = r;
            }
            if let Some(t) = overrides.get(joint.node, "translation").and_then(|v| v.as_vec3())
                && let Some(slot) = pose.translations.get_mut(j)
            {
                *slot = t;
            }
        }
        for (d, displacer) in h.displacers.iter().enumerate() {
            if let Some(w) = overrides.get(displacer.node, "weight").and_then(|v| v.as_float())
                && let Some(slot) = pose.displacer_weights.get_mut(d)
            {
                *slot = w;
            }
        }
        if let Some(r) = overrides.get(h.node, "rotation").and_then(|v| v.as_rotation()) {
            pose.humanoid.rotation = Some(r);
        }
        if let Some(t) = overrides.get(h.node, "translation").and_then(|v| v.as_vec3()) {
            pose.humanoid.translation = Some(t);
        }
    }
}
