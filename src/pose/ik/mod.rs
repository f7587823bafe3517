//! Inverse kinematics: joint rotations that bring end effectors (Sites or joint centres) to target
//! positions, within the joints' limits and scaled by their stiffness (semantics note §8).
//!
//! Plain data on the CPU: the solver reads a [`Humanoid`](crate::hanim::Humanoid) and writes the user rotation offsets `Δ` of a
//! [`Pose`](crate::pose::Pose) (§1.4), so an IK edit sits on top of whatever the base rotations are (the file's rest pose or
//! a clip at its current time), exactly as slider edits do.
//!
//! - **Degrees of freedom.** Each joint of a chain turns about the three axes of its limit frame
//!   `Lf = R(limitOrientation)`: its effective rotation is `R = Lf·Rx(α)·Ry(β)·Rz(γ)·Lf⁻¹`, and `α, β, γ`
//!   are the solver's unknowns. Limits are then plain intervals on those angles (§8's clamping decision,
//!   applied after every step), and stiffness is per angle.
//! - **Stiffness** (19774 object interfaces, Joint: "how much each degree of freedom should scale the
//!   calculated joint rotation at each step"): the step of angle `i` is multiplied by `stiffness[i]`
//!   clamped to `[0, 1]`, so 0.5 moves half as far and 0 holds that axis. A joint whose three values are
//!   all zero (the X3D default) or that has not three values gives no stiffness: it moves freely.
//! - **Method.** Damped least squares on the chain Jacobian with Levenberg–Marquardt damping: a step that
//!   does not reduce the squared error is undone and retried with more damping. Several effectors are
//!   solved together (their Jacobian rows stacked), so pinned feet hold while the hands reach. A target
//!   out of reach leaves the chain stretched toward it; damping keeps every value finite.
//! - **Orientation targets.** An effector may also ask for its joint's frame to end turned as given: three
//!   more rows, the rotation vector of `target·current⁻¹` times the chain's length (so a radian of
//!   orientation error weighs as much as the chain's reach), whose Jacobian columns are the turning axes
//!   themselves (scaled the same).

mod chains;
mod linear;
mod named;
mod solver;

pub use chains::{EffectorPoint, chain_joints, default_chain_root, find_effector, topmost_ancestor};
pub use named::{EffectorOutcome, Reach, ReachError, ReachOutcome, ReachRequest, reach_humanoid, reach_named};
pub use solver::{IkOptions, IkReport, solve};

use glam::{Quat, Vec3};

/// One end effector: a point fixed in a joint's space, the top joint the solver may turn for it, and
/// where the point should go.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Effector {
    /// The joint the point moves with.
    pub joint: usize,
    /// The point in that joint's space (a Site's origin, or the joint's `center`).
    pub point: Vec3,
    /// The top of the chain: `joint` itself or one of its ancestors. Every joint from `joint` up to and
    /// including `root` may turn.
    pub root: usize,
    /// Where the point should be, in humanoid space.
    pub target: Vec3,
    /// How the joint's frame should be turned, in humanoid space (the rotation part of `H·G_joint`);
    /// `None`: any orientation. An orientation adds three rows to the solve, its angle error weighted by
    /// the chain's length so that a radian weighs as much as the chain's reach.
    pub orientation: Option<Quat>,
}

/// Why a solve could not start. Every case names the joints by their H-Anim names.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum IkError {
    #[error("effector {effector}: joint index {joint} is outside the humanoid's {count} joints")]
    JointOutOfRange { effector: usize, joint: usize, count: usize },
    #[error("effector {effector}: chain root '{root}' is not '{joint}' or one of its ancestors")]
    RootNotAncestor { effector: usize, root: String, joint: String },
    #[error("effector {effector}: the target {target} is not a finite position")]
    TargetNotFinite { effector: usize, target: Vec3 },
    #[error("effector {effector}: the target orientation is not a finite rotation")]
    OrientationNotFinite { effector: usize },
}
