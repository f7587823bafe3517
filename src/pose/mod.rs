//! CPU reference deformation: the oracle every GPU result is compared against.
//!
//! It evaluates the formulas of the semantics note (`hanim-semantics.md` §1, §2, §3, §9) with plain
//! loops in `f32`, in a fixed summation order, so that a GPU kernel adding in the same order can be
//! checked against it vertex by vertex.
//!
//! # The formula
//! ```text
//! r_eff = r_base·Δ          t_eff = t_base + Δt                                   (§1.4)
//! L_j   = T(t_eff)·T(c)·R(r_eff)·R(so)·S(s)·R(so)⁻¹·T(−c)                          (§1.1)
//! G_j   = G_parent(j)·L_j,  G_root = L_root          joint → humanoid space        (§1.2)
//! M_j   = G_j·B_j           N_j = (M_j[3×3])⁻ᵀ        A_j = M_j[3×3]                 (§2.3, §2.5)
//!
//! p'_i  = p_i + Σ_(j,w) ∈ infl(i) w·(M_j·p_i − p_i)                                 skin (§2.4)
//!             + Σ_d weight_d·A_owner(d)·δ_d,i                                      joint displacers (§3.1)
//! n'_i  = normalize(n_i + Σ_(j,w) ∈ infl(i) w·(N_j·n_i − n_i))                     (§2.5)
//! q'_i  = q_i + Σ_d weight_d·δ_d,i                   segment coords, segment space  (§3.2)
//! ```
//! `p`, `n` are the binding points and normals ([`Skin::points`](crate::hanim::Skin::points),
//! [`Skin::normals`](crate::hanim::Skin::normals)), `infl(i)` is
//! [`Influences::of`](crate::hanim::Influences::of), `B_j` is [`Humanoid::binding`] and the result is in
//! humanoid space; the renderer applies `H = W_parent·L(humanoid)` on top.
//!
//! # What it means where the spec leaves room
//! - **Weights that do not sum to 1.** The residual form keeps the missing share `1 − Σw` of a vertex at
//!   its binding position (in humanoid space, so it still follows `H`); a sum above 1 extrapolates past
//!   the joints. A vertex with no influence stays exactly at `p`. Nothing is renormalised, except with
//!   [`SkinOptions::normalize_weights`] (FreeWRL's `p' = Σ w·M·p / Σw`), which is for diagnosis only.
//! - **Missing weights** never reach this module: the loader resolves them while building
//!   [`Influences`](crate::hanim::Influences) (§2.2: an empty `skinCoordWeight` means 1, a short one
//!   repeats its last value, NaN becomes 0, zero weights are dropped, a repeated (joint, vertex) pair is
//!   summed, out-of-range vertex indices are skipped).
//! - **Order.** Joints first, then displacers, both evaluated from the binding point `p`, so "morph then
//!   skin" and "skin then morph" cannot be told apart (§3.3). In `f32` a point starts at `p`, adds each
//!   influence term in list order (the order of [`Influences`](crate::hanim::Influences): the joints'
//!   order in [`Humanoid::skin_joints`], i.e. the `joints` field), then each joint displacer in [`Humanoid::displacers`] order, each of its `coordIndex` entries
//!   in the order written. The GPU kernel must add in the same order.
//! - **Joint displacers** are rotated and scaled by their owning joint's `A` only, not blended by the
//!   vertex's weights (X_ITE), and act on a vertex whether or not that joint weights it. A `coordIndex`
//!   entry outside the point range is skipped; a missing displacement counts as zero. Displacers never
//!   change normals.
//! - **Normals** are normalised with `normalize_or_zero`, so a normal that cancels out becomes zero
//!   rather than NaN. A singular `M_j` (a zero scale) has no inverse; its cofactor matrix `det·M⁻ᵀ`,
//!   which is finite and keeps the direction where there is one, stands in for `N_j`.
//! - **Segment displacers** act on [`Segment::coord_points`](crate::hanim::Segment::coord_points) in
//!   segment space, unrotated; each Shape using the segment's coord then draws them rigidly with
//!   `H·G_joint·offset`, its offset being the grouping transforms between the segment and that Shape.
//!
//! Nothing here panics on an inconsistent model or pose: a joint or displacer index outside its list
//! is skipped, and pose entries missing from a short [`Pose`] fall back to the file's rest values.

pub mod bounds;
pub mod file;
pub mod ik;
pub mod limits;
mod named;
pub mod skin_inspection;
mod skinning;
#[cfg(test)]
pub(crate) mod test_humanoid;

pub use named::{DisplacerWeight, JointRotation, poses_for};
pub use skinning::{DeformedSkin, SkinOptions, deform_segment, deform_skin, deform_skin_with, skin_normal, skin_point};

use glam::{Mat3, Mat4, Quat, Vec3};

use crate::hanim::{Humanoid, TransformFields};

/// The posable state of one humanoid: what the UI and motion playback change, and nothing else
/// (`center`, `scale` and `scaleOrientation` always come from the file, §1.4).
///
/// Rotations must be unit quaternions (as [`quat_from_axis_angle`](crate::hanim::quat_from_axis_angle),
/// `slerp` and products of unit quaternions give); they are not renormalised here, so a non-unit one
/// would scale its subtree.
#[derive(Debug, Clone, PartialEq)]
pub struct Pose {
    /// Base rotation `r_base` per joint: the file's rest rotation or a motion sample.
    pub rotations: Vec<Quat>,
    /// Base translation `t_base` per joint.
    pub translations: Vec<Vec3>,
    /// User offset `Δ` per joint, applied in the joint's local frame after the base: `r_eff = r_base·Δ`.
    pub rotation_offsets: Vec<Quat>,
    /// User offset per joint: `t_eff = t_base + Δt`.
    pub translation_offsets: Vec<Vec3>,
    /// One weight per [`Humanoid::displacers`] entry.
    pub displacer_weights: Vec<f32>,
    /// The humanoid's own `rotation`/`translation` where a clip drives them (both are inputOutput fields
    /// of HAnimHumanoid); the file's values otherwise. They place the whole figure: `H`.
    pub humanoid: HumanoidFields,
}

/// Values of the humanoid's own transform fields that replace the file's (`None`: the file's).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct HumanoidFields {
    pub rotation: Option<Quat>,
    pub translation: Option<Vec3>,
}

impl Pose {
    /// The file's values: each joint's rest rotation and translation, each displacer's weight, no offsets.
    pub fn rest(h: &Humanoid) -> Pose {
        Pose {
            rotations: h.joints.iter().map(|j| j.rest.rotation).collect(),
            translations: h.joints.iter().map(|j| j.rest.translation).collect(),
            rotation_offsets: vec![Quat::IDENTITY; h.joints.len()],
            translation_offsets: vec![Vec3::ZERO; h.joints.len()],
            displacer_weights: h.displacers.iter().map(|d| d.weight).collect(),
            humanoid: HumanoidFields::default(),
        }
    }

    /// The binding pose of a BASIC humanoid (§1.3): identity rotations, zero translations, every
    /// displacer off. With unit scales and no binding matrices every `M_j` is then exactly `I`, so the
    /// skin reproduces its binding points.
    pub fn zero(h: &Humanoid) -> Pose {
        Pose {
            rotations: vec![Quat::IDENTITY; h.joints.len()],
            translations: vec![Vec3::ZERO; h.joints.len()],
            rotation_offsets: vec![Quat::IDENTITY; h.joints.len()],
            translation_offsets: vec![Vec3::ZERO; h.joints.len()],
            displacer_weights: vec![0.0; h.displacers.len()],
            humanoid: HumanoidFields::default(),
        }
    }

    /// `H` at this pose: humanoid space → world, with the humanoid fields a clip set.
    pub fn world_from_humanoid(&self, h: &Humanoid) -> Mat4 {
        let mut fields = h.transform;
        if let Some(r) = self.humanoid.rotation {
            fields.rotation = r;
        }
        if let Some(t) = self.humanoid.translation {
            fields.translation = t;
        }
        h.world_from_parent * fields.matrix()
    }

    /// `r_eff = r_base·Δ` of a joint.
    pub fn effective_rotation(&self, h: &Humanoid, joint: usize) -> Quat {
        let base = self.rotations.get(joint).copied().unwrap_or_else(|| rest_of(h, joint).rotation);
        let offset = self.rotation_offsets.get(joint).copied().unwrap_or(Quat::IDENTITY);
        base * offset
    }

    /// `t_eff = t_base + Δt` of a joint.
    pub fn effective_translation(&self, h: &Humanoid, joint: usize) -> Vec3 {
        let base = self.translations.get(joint).copied().unwrap_or_else(|| rest_of(h, joint).translation);
        let offset = self.translation_offsets.get(joint).copied().unwrap_or(Vec3::ZERO);
        base + offset
    }

    /// The weight of displacer `displacer` (an index into [`Humanoid::displacers`]).
    pub fn displacer_weight(&self, h: &Humanoid, displacer: usize) -> f32 {
        match self.displacer_weights.get(displacer) {
            Some(&weight) => weight,
            None => h.displacers.get(displacer).map_or(0.0, |d| d.weight),
        }
    }

    /// The joint's local matrix `L(t_eff, c, r_eff, s, so)` (§1.1), with `c`, `s`, `so` from the file.
    pub fn local_matrix(&self, h: &Humanoid, joint: usize) -> Mat4 {
        let rest = rest_of(h, joint);
        TransformFields::matrix_of(
            self.effective_translation(h, joint),
            self.effective_rotation(h, joint),
            rest.center,
            rest.scale,
            rest.scale_orientation,
        )
    }
}

/// A joint's file values; defaults for an index outside the joint list, so that a pose built for another
/// humanoid degrades instead of panicking.
fn rest_of(h: &Humanoid, joint: usize) -> TransformFields {
    h.joints.get(joint).map(|j| j.rest).unwrap_or_default()
}

/// `G_j` for every joint: joint space → humanoid space, `G_j = G_parent(j)·L_j` (§1.2).
///
/// One forward loop suffices because the model orders joints parent before child. A parent index that
/// breaks that order cannot be resolved yet, so such a joint is treated as a root.
pub fn humanoid_from_joint(h: &Humanoid, pose: &Pose) -> Vec<Mat4> {
    let mut globals: Vec<Mat4> = Vec::with_capacity(h.joints.len());
    for (index, joint) in h.joints.iter().enumerate() {
        let local = pose.local_matrix(h, index);
        let global = match joint.parent.and_then(|parent| globals.get(parent)) {
            Some(parent_global) => *parent_global * local,
            None => local,
        };
        globals.push(global);
    }
    globals
}

/// `H·G_j` for every joint: joint space → world, given the result of [`humanoid_from_joint`] at `pose`.
pub fn world_from_joint(h: &Humanoid, pose: &Pose, humanoid_from_joint: &[Mat4]) -> Vec<Mat4> {
    let world_from_humanoid = pose.world_from_humanoid(h);
    humanoid_from_joint.iter().map(|g| world_from_humanoid * *g).collect()
}

/// The per-joint matrices the skin kernel reads: exactly what is uploaded to the GPU each frame.
#[derive(Debug, Clone, PartialEq)]
pub struct SkinMatrices {
    /// `M_j = G_j·B_j`: binding space → humanoid space.
    pub skin: Vec<Mat4>,
    /// `N_j = (M_j[3×3])⁻ᵀ`, for normals (the cofactor matrix when `M_j` is singular).
    pub normal: Vec<Mat3>,
}

/// `M_j` and `N_j` for every joint from `G_j` (§2.3, §2.5). A joint without a binding matrix uses `I`.
pub fn skin_matrices(h: &Humanoid, humanoid_from_joint: &[Mat4]) -> SkinMatrices {
    let skin: Vec<Mat4> = humanoid_from_joint
        .iter()
        .enumerate()
        .map(|(joint, g)| *g * h.binding.get(joint).copied().unwrap_or(Mat4::IDENTITY))
        .collect();
    let normal = skin.iter().map(|m| normal_from_skin(Mat3::from_mat4(*m))).collect();
    SkinMatrices { skin, normal }
}

/// The inverse-transpose of `m`, computed as glam's `m.inverse().transpose()` does (cofactors times
/// `1/det`), but keeping the cofactor matrix when `1/det` is not finite: normals are normalised
/// afterwards, so the cofactors still give the right direction where `m` keeps one, and never NaN.
pub fn normal_from_skin(m: Mat3) -> Mat3 {
    let cofactors = Mat3::from_cols(m.y_axis.cross(m.z_axis), m.z_axis.cross(m.x_axis), m.x_axis.cross(m.y_axis));
    let det = m.z_axis.dot(cofactors.z_axis);
    let inverse_det = det.recip();
    if det != 0.0 && inverse_det.is_finite() { cofactors * inverse_det } else { cofactors }
}

#[cfg(test)]
mod tests {
    use std::f32::consts::FRAC_PI_2;

    use super::test_humanoid::HumanoidBuilder;
    use super::*;

    fn assert_mat4_near(actual: Mat4, expected: Mat4) {
        assert!(actual.abs_diff_eq(expected, 1e-6), "{actual:?}\n!=\n{expected:?}");
    }

    #[test]
    fn rest_and_zero_poses_take_the_right_values() {
        let mut h = HumanoidBuilder::new()
            .joint("humanoid_root", None, Vec3::ZERO)
            .joint("j1", Some(0), Vec3::Y)
            .points(&[Vec3::X])
            .joint_displacer(1, &[0], &[Vec3::X], 0.7)
            .build();
        h.joints[1].rest.rotation = Quat::from_rotation_z(0.3);
        h.joints[0].rest.translation = Vec3::new(0.0, 0.0, 2.0);

        let rest = Pose::rest(&h);
        assert_eq!(rest.rotations, vec![Quat::IDENTITY, Quat::from_rotation_z(0.3)]);
        assert_eq!(rest.translations, vec![Vec3::new(0.0, 0.0, 2.0), Vec3::ZERO]);
        assert_eq!(rest.displacer_weights, vec![0.7]);

        let zero = Pose::zero(&h);
        assert_eq!(zero.rotations, vec![Quat::IDENTITY; 2]);
        assert_eq!(zero.translations, vec![Vec3::ZERO; 2]);
        assert_eq!(zero.displacer_weights, vec![0.0]);
        assert!(humanoid_from_joint(&h, &zero).iter().all(|g| *g == Mat4::IDENTITY));
    }

    #[test]
    fn local_matrix_applies_offsets_after_the_base() {
        let mut h = HumanoidBuilder::new().joint("j", None, Vec3::new(0.0, 1.0, 0.0)).build();
        h.joints[0].rest.rotation = Quat::from_rotation_z(FRAC_PI_2);
        let mut pose = Pose::rest(&h);
        pose.rotation_offsets[0] = Quat::from_rotation_x(FRAC_PI_2);
        pose.translation_offsets[0] = Vec3::new(0.0, 0.0, 3.0);

        // r_eff = Rz(90°)·Rx(90°): the offset acts in the joint's already rotated frame.
        let r_eff = Quat::from_rotation_z(FRAC_PI_2) * Quat::from_rotation_x(FRAC_PI_2);
        let expected = Mat4::from_translation(Vec3::new(0.0, 1.0, 3.0))
            * Mat4::from_quat(r_eff)
            * Mat4::from_translation(Vec3::new(0.0, -1.0, 0.0));
        assert_mat4_near(pose.local_matrix(&h, 0), expected);
        // The joint's local Y axis (rotated by Rx to +Z, then by Rz stays +Z).
        let axis = pose.local_matrix(&h, 0).transform_vector3(Vec3::Y);
        assert!(axis.abs_diff_eq(Vec3::Z, 1e-6), "{axis}");
    }

    #[test]
    fn children_ride_along_with_a_rotated_parent() {
        // root ─ j1 (centre (0,1,0), rotated 90° about Z) ─ j2 (centre (1,1,0)).
        let h = HumanoidBuilder::new()
            .joint("humanoid_root", None, Vec3::ZERO)
            .joint("j1", Some(0), Vec3::new(0.0, 1.0, 0.0))
            .joint("j2", Some(1), Vec3::new(1.0, 1.0, 0.0))
            .build();
        let mut pose = Pose::zero(&h);
        pose.rotations[1] = Quat::from_rotation_z(FRAC_PI_2);
        let g = humanoid_from_joint(&h, &pose);
        // j2's centre numbers never change; it rides to (0,2,0) because G_j2 = G_j1·L_j2.
        assert!(g[2].transform_point3(Vec3::new(1.0, 1.0, 0.0)).abs_diff_eq(Vec3::new(0.0, 2.0, 0.0), 1e-6));
        assert_mat4_near(g[2], g[1]);
    }

    #[test]
    fn world_from_joint_puts_the_humanoid_transform_in_front() {
        let mut h = HumanoidBuilder::new().joint("humanoid_root", None, Vec3::ZERO).build();
        h.transform.translation = Vec3::new(0.0, 0.0, -1.0);
        let mut pose = Pose::zero(&h);
        pose.translations[0] = Vec3::X;
        let world = world_from_joint(&h, &pose, &humanoid_from_joint(&h, &pose));
        assert_mat4_near(world[0], Mat4::from_translation(Vec3::new(1.0, 0.0, -1.0)));
    }

    #[test]
    fn skin_matrices_multiply_the_binding_in_on_the_right() {
        let mut h = HumanoidBuilder::new().joint("humanoid_root", None, Vec3::ZERO).build();
        h.binding = vec![Mat4::from_translation(Vec3::new(0.0, -1.0, 0.0))];
        let mut pose = Pose::zero(&h);
        pose.rotations[0] = Quat::from_rotation_z(FRAC_PI_2);
        let m = skin_matrices(&h, &humanoid_from_joint(&h, &pose));
        // M = G·B: first the inverse bind (down by 1), then the rotation.
        assert!(m.skin[0].transform_point3(Vec3::new(1.0, 1.0, 0.0)).abs_diff_eq(Vec3::new(0.0, 1.0, 0.0), 1e-6));
    }

    #[test]
    fn normal_matrix_is_the_inverse_transpose_and_survives_a_zero_scale() {
        let m = Mat3::from_cols(Vec3::new(2.0, 0.0, 0.0), Vec3::new(0.5, 1.0, 0.0), Vec3::new(0.0, 0.0, 3.0));
        assert!(normal_from_skin(m).abs_diff_eq(m.inverse().transpose(), 1e-6));

        let flat = Mat3::from_diagonal(Vec3::new(1.0, 1.0, 0.0));
        let n = normal_from_skin(flat);
        assert!(n.is_finite());
        // The flattened plane's normal is still +Z.
        assert!((n * Vec3::new(0.3, 0.2, 1.0)).normalize_or_zero().abs_diff_eq(Vec3::Z, 1e-6));
    }

    #[test]
    fn a_short_pose_falls_back_to_rest_values() {
        let mut h = HumanoidBuilder::new().joint("a", None, Vec3::ZERO).joint("b", Some(0), Vec3::Y).build();
        h.joints[1].rest.rotation = Quat::from_rotation_y(0.5);
        let pose = Pose {
            rotations: vec![Quat::IDENTITY],
            translations: Vec::new(),
            rotation_offsets: Vec::new(),
            translation_offsets: Vec::new(),
            displacer_weights: Vec::new(),
            humanoid: HumanoidFields::default(),
        };
        assert_eq!(pose.effective_rotation(&h, 1), Quat::from_rotation_y(0.5));
        assert_eq!(humanoid_from_joint(&h, &pose), humanoid_from_joint(&h, &Pose::rest(&h)));
    }

    #[test]
    fn a_parent_after_its_child_is_treated_as_a_root() {
        let mut h = HumanoidBuilder::new().joint("a", None, Vec3::ZERO).joint("b", None, Vec3::ZERO).build();
        h.joints[0].parent = Some(1);
        h.joints[1].rest.translation = Vec3::X;
        let g = humanoid_from_joint(&h, &Pose::rest(&h));
        assert_eq!(g[0], Mat4::IDENTITY);
    }
}
