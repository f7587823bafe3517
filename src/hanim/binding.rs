//! Joint binding matrices `B_j` from `jointBindingPositions/Rotations/Scales` (semantics note §2.3).
//!
//! Two readings exist: X_ITE composes each joint's *inverse bind matrix* from the three fields, while the
//! 19774 wording reads them as the joints' local TRS *in* the bind pose. We compute both and keep the one
//! under which the file's rest pose is closest to its bind pose (X_ITE's unless the other is clearly
//! better), warning when neither matches.

use glam::{Mat4, Quat, Vec3};

use crate::x3d::{Scene, Warning};

use super::model::{BindingMode, Humanoid, TransformFields};

/// Largest absolute element difference from the identity.
fn distance_from_identity(m: Mat4) -> f32 {
    (m - Mat4::IDENTITY).to_cols_array().iter().fold(0.0f32, |a, &x| a.max(x.abs()))
}

/// `G_j` for joint-local transforms given per joint.
fn globals(h: &Humanoid, local: impl Fn(usize) -> Mat4) -> Vec<Mat4> {
    let mut g: Vec<Mat4> = Vec::with_capacity(h.joints.len());
    for (j, joint) in h.joints.iter().enumerate() {
        let l = local(j);
        let m = match joint.parent {
            Some(p) => g[p] * l,
            None => l,
        };
        g.push(m);
    }
    g
}

/// The value for the `k`-th listed joint: a single value applies to all, a short list repeats its last.
fn pick<T: Copy>(list: &[T], k: usize) -> Option<T> {
    list.get(k).or(list.last()).copied()
}

pub fn resolve(h: &mut Humanoid, warnings: &mut Vec<Warning>, scene: &Scene) {
    let n = h.joints.len();
    h.binding = vec![Mat4::IDENTITY; n];
    h.binding_mode = BindingMode::None;
    let (pos, rot, scl) = (&h.joint_binding_positions, &h.joint_binding_rotations, &h.joint_binding_scales);
    if pos.is_empty() && rot.is_empty() && scl.is_empty() {
        return;
    }
    // Binding values per joint index (only joints listed in `joints` have them).
    let mut per_joint: Vec<Option<(Vec3, Quat, Vec3)>> = vec![None; n];
    for (k, &j) in h.skin_joints.iter().enumerate() {
        per_joint[j] = Some((
            pick(pos, k).unwrap_or(Vec3::ZERO),
            pick(rot, k).unwrap_or(Quat::IDENTITY),
            pick(scl, k).unwrap_or(Vec3::ONE),
        ));
    }
    let inverse_bind: Vec<Mat4> = per_joint
        .iter()
        .map(|b| b.map(|(t, r, s)| Mat4::from_scale_rotation_translation(s, r, t)).unwrap_or(Mat4::IDENTITY))
        .collect();
    let rest = globals(h, |j| h.joints[j].rest.matrix());
    let bind = globals(h, |j| {
        let joint = &h.joints[j];
        match per_joint[j] {
            Some((t, r, s)) => TransformFields { translation: t, rotation: r, scale: s, ..joint.rest }.matrix(),
            None => joint.rest.matrix(),
        }
    });
    let bind_pose: Vec<Mat4> = bind.iter().map(|b| b.inverse()).collect();
    let e_inv = (0..n).map(|j| distance_from_identity(rest[j] * inverse_bind[j])).fold(0.0f32, f32::max);
    let e_pose = (0..n).map(|j| distance_from_identity(rest[j] * bind_pose[j])).fold(0.0f32, f32::max);
    let pos = scene.pos(scene.node(h.node).loc);
    if e_pose.is_finite() && e_pose < 0.5 * e_inv {
        h.binding = bind_pose;
        h.binding_mode = BindingMode::BindPose;
    } else {
        h.binding = inverse_bind;
        h.binding_mode = BindingMode::InverseBindMatrix;
    }
    if e_inv > 1e-4 && e_pose > 1e-4 {
        warnings.push(Warning {
            pos,
            message: format!(
                "the rest pose is not the bind pose under either reading of jointBinding* \
                 (inverse-bind error {e_inv:.3e}, bind-pose error {e_pose:.3e}); using {:?}",
                h.binding_mode
            ),
        });
    }
}
