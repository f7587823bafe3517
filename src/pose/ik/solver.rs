//! The damped least squares solve over the limit-frame angles of every joint in the effectors' chains.

use glam::{Mat4, Quat, Vec3};

use super::chains::chain_joints;
use super::linear::solve_spd;
use super::{Effector, IkError};
use crate::hanim::Humanoid;
use crate::pose::limits::{limit_angles_from_rotation, limit_intervals, rotation_from_limit_angles};
use crate::pose::{Pose, humanoid_from_joint};

/// How far and how hard to solve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IkOptions {
    /// Steps tried, rejected ones included (each costs one forward evaluation of the skeleton).
    pub max_iterations: usize,
    /// Stop when every effector is this close to its target (humanoid-space units).
    pub tolerance: f32,
    /// Clamp every angle into its `llimit`/`ulimit` interval after each step (§8).
    pub respect_limits: bool,
    /// Scale each step by the joints' stiffness.
    pub use_stiffness: bool,
}

impl Default for IkOptions {
    fn default() -> IkOptions {
        IkOptions { max_iterations: 200, tolerance: 1e-5, respect_limits: true, use_stiffness: true }
    }
}

/// What a solve reached.
#[derive(Debug, Clone, PartialEq)]
pub struct IkReport {
    /// Steps tried.
    pub iterations: usize,
    /// Per effector, its final distance to the target.
    pub distances: Vec<f32>,
    /// Per effector with an orientation target, the angle (radians) left between its frame and the
    /// target; `None` for effectors without one.
    pub angle_errors: Vec<Option<f32>>,
    /// Every effector within the tolerance.
    pub converged: bool,
    /// `(joint, axis)` of every limited angle that ended on a bound of its interval.
    pub at_limit: Vec<(usize, usize)>,
}

/// One joint the solver turns.
struct ChainJoint {
    joint: usize,
    parent: Option<usize>,
    /// `r_base`: the offset written is `r_base⁻¹·R`.
    base: Quat,
    limit_frame: Quat,
    center: Vec3,
    angles: [f32; 3],
    intervals: [Option<(f32, f32)>; 3],
    /// The per-axis step scale: stiffness, or 1 where none is given.
    scale: [f32; 3],
    moved: bool,
}

impl ChainJoint {
    fn rotation(&self) -> Quat {
        rotation_from_limit_angles(self.angles, self.limit_frame)
    }

    /// Axis `axis` of the decomposition `Lf·Rx(α)·Ry(β)·Rz(γ)·Lf⁻¹` in the space the joint's rotation acts
    /// in: turning the angle by `δ` left-multiplies `R` by a rotation of `δ` about this axis.
    fn axis(&self, axis: usize) -> Vec3 {
        let [alpha, beta, _] = self.angles;
        let local = match axis {
            0 => Vec3::X,
            1 => Quat::from_rotation_x(alpha) * Vec3::Y,
            _ => Quat::from_rotation_x(alpha) * Quat::from_rotation_y(beta) * Vec3::Z,
        };
        self.limit_frame * local
    }
}

/// Per-axis step scale from a joint's `stiffness` field (module docs): the value clamped to `[0, 1]`,
/// or 1 for every axis when the field is not three values or all three are zero ("not given").
fn stiffness_scale(stiffness: &[f32]) -> [f32; 3] {
    if stiffness.len() != 3 || stiffness.iter().all(|&s| s == 0.0) {
        return [1.0; 3];
    }
    std::array::from_fn(|i| if stiffness[i].is_finite() { stiffness[i].clamp(0.0, 1.0) } else { 1.0 })
}

/// Turns the joints of every effector's chain so that the effectors reach their targets; writes the
/// rotation offsets of `pose` for the joints it moved and nothing else.
pub fn solve(h: &Humanoid, pose: &mut Pose, effectors: &[Effector], options: &IkOptions) -> Result<IkReport, IkError> {
    let count = h.joints.len();
    let mut chains = Vec::with_capacity(effectors.len());
    for (index, e) in effectors.iter().enumerate() {
        for joint in [e.joint, e.root] {
            if joint >= count {
                return Err(IkError::JointOutOfRange { effector: index, joint, count });
            }
        }
        if !e.target.is_finite() {
            return Err(IkError::TargetNotFinite { effector: index, target: e.target });
        }
        if e.orientation.is_some_and(|q| !q.is_finite() || q.length_squared() < 1e-12) {
            return Err(IkError::OrientationNotFinite { effector: index });
        }
        let chain = chain_joints(h, e.joint, e.root).ok_or_else(|| IkError::RootNotAncestor {
            effector: index,
            root: h.joints[e.root].name.clone(),
            joint: h.joints[e.joint].name.clone(),
        })?;
        chains.push(chain);
    }
    if pose.rotation_offsets.len() < count {
        pose.rotation_offsets.resize(count, Quat::IDENTITY);
    }

    let mut slot_of = vec![usize::MAX; count];
    let mut joints: Vec<ChainJoint> = Vec::new();
    let mut in_chain = Vec::new();
    let mut sorted: Vec<usize> = chains.iter().flatten().copied().collect();
    sorted.sort_unstable();
    sorted.dedup();
    for &j in &sorted {
        let joint = &h.joints[j];
        let effective = pose.effective_rotation(h, j);
        slot_of[j] = joints.len();
        joints.push(ChainJoint {
            joint: j,
            parent: joint.parent,
            base: effective * pose.rotation_offsets[j].inverse(),
            limit_frame: joint.limit_orientation,
            center: joint.rest.center,
            angles: limit_angles_from_rotation(effective, joint.limit_orientation),
            intervals: if options.respect_limits { limit_intervals(&joint.llimit, &joint.ulimit) } else { [None; 3] },
            scale: if options.use_stiffness { stiffness_scale(&joint.stiffness) } else { [1.0; 3] },
            moved: false,
        });
    }
    for chain in &chains {
        let mut member = vec![false; joints.len()];
        for &j in chain {
            member[slot_of[j]] = true;
        }
        in_chain.push(member);
    }
    // The unknowns: every axis that may move.
    let dofs: Vec<(usize, usize)> = (0..joints.len())
        .flat_map(|s| (0..3).map(move |a| (s, a)))
        .filter(|&(s, a)| joints[s].scale[a] > 0.0)
        .collect();

    // Damping has the units of the Jacobian's entries (lengths): scale it by the chains' reach; so is a
    // radian of orientation error.
    let reach = chain_reach(&humanoid_from_joint(h, pose), &joints, &in_chain, effectors).max(1e-6);
    let mut state = Evaluation::new(h, pose, effectors, reach);
    let (lambda_min, lambda_max) = (1e-3 * reach, 1e3 * reach);
    let mut lambda = 0.05 * reach;
    let rows = 3 * state.blocks.len();
    let mut jacobian = vec![0.0f64; rows * dofs.len()];
    let mut stale = true;
    let mut iterations = 0;
    let mut kicks = 0;
    let mut best: Option<Best> = None;
    while iterations < options.max_iterations && state.max_distance() > options.tolerance {
        iterations += 1;
        if stale {
            fill_jacobian(&mut jacobian, &dofs, &joints, &in_chain, &state);
            stale = false;
        }
        let Some(step) = damped_step(&jacobian, rows, &state.errors, lambda) else { break };
        let previous: Vec<[f32; 3]> = joints.iter().map(|j| j.angles).collect();
        for (&(s, a), &d) in dofs.iter().zip(&step) {
            let joint = &mut joints[s];
            let mut angle = joint.angles[a] + joint.scale[a] * d as f32;
            if let Some((l, u)) = joint.intervals[a] {
                angle = angle.clamp(l, u);
            }
            if angle.is_finite() && angle != joint.angles[a] {
                joint.angles[a] = angle;
                joint.moved = true;
            }
        }
        let mut trial = pose.clone();
        write_offsets(&mut trial, &joints);
        let next = Evaluation::new(h, &trial, effectors, reach);
        if next.squared_error() < state.squared_error() {
            *pose = trial;
            state = next;
            stale = true;
            lambda = (lambda * 0.5).max(lambda_min);
        } else {
            for (joint, angles) in joints.iter_mut().zip(previous) {
                joint.angles = angles;
            }
            lambda *= 4.0;
            if lambda > lambda_max {
                // Stuck at a stationary point: the best reach for a target out of range, or a straight
                // chain whose target lies along it (its Jacobian has no row toward the target). Bend every
                // free axis a little and solve again; the best state seen is what is kept.
                if kicks == MAX_KICKS {
                    break;
                }
                kicks += 1;
                if best.as_ref().is_none_or(|b| state.squared_error() < b.error) {
                    best = Some(Best::of(pose, &joints, &state));
                }
                kick(&mut joints, &dofs, kicks);
                write_offsets(pose, &joints);
                state = Evaluation::new(h, pose, effectors, reach);
                stale = true;
                lambda = 0.05 * reach;
            }
        }
    }
    if let Some(b) = best.filter(|b| b.error < state.squared_error()) {
        *pose = b.pose;
        for (joint, angles) in joints.iter_mut().zip(b.angles) {
            joint.angles = angles;
        }
        state = Evaluation::new(h, pose, effectors, reach);
    }
    write_offsets(pose, &joints);

    let at_limit = joints
        .iter()
        .flat_map(|j| (0..3).map(move |a| (j, a)))
        .filter(|(j, a)| j.intervals[*a].is_some_and(|(l, u)| j.angles[*a] <= l + 1e-6 || j.angles[*a] >= u - 1e-6))
        .map(|(j, a)| (j.joint, a))
        .collect();
    Ok(IkReport {
        iterations,
        distances: state.distances(),
        angle_errors: state.angle_errors(),
        converged: state.max_distance() <= options.tolerance,
        at_limit,
    })
}

/// How often a stuck solve is bent out of its stationary point before it gives up.
const MAX_KICKS: usize = 2;

/// The state a solve had before a kick.
struct Best {
    pose: Pose,
    angles: Vec<[f32; 3]>,
    error: f32,
}

impl Best {
    fn of(pose: &Pose, joints: &[ChainJoint], state: &Evaluation) -> Best {
        Best { pose: pose.clone(), angles: joints.iter().map(|j| j.angles).collect(), error: state.squared_error() }
    }
}

/// Turns every free axis by 0.1 rad (times its stiffness scale), alternating in sign, a different pattern
/// on each kick, staying within the limits.
fn kick(joints: &mut [ChainJoint], dofs: &[(usize, usize)], round: usize) {
    for (i, &(s, a)) in dofs.iter().enumerate() {
        let joint = &mut joints[s];
        let sign = if (i + round).is_multiple_of(2) { 1.0 } else { -1.0 };
        let mut angle = joint.angles[a] + sign * 0.1 * joint.scale[a];
        if let Some((l, u)) = joint.intervals[a] {
            angle = angle.clamp(l, u);
        }
        joint.angles[a] = angle;
        joint.moved = true;
    }
}

/// One block of three rows of the solve: an effector's position, or its orientation.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Block {
    Position(usize),
    Orientation(usize),
}

/// The skeleton at one set of angles: globals, effector positions and the error of every block.
struct Evaluation {
    globals: Vec<Mat4>,
    positions: Vec<Vec3>,
    blocks: Vec<Block>,
    /// Per block: the position error, or the weighted rotation vector of the orientation error.
    errors: Vec<Vec3>,
    /// Length per radian of orientation error (the chains' reach).
    weight: f32,
}

impl Evaluation {
    fn new(h: &Humanoid, pose: &Pose, effectors: &[Effector], weight: f32) -> Evaluation {
        let globals = humanoid_from_joint(h, pose);
        let positions: Vec<Vec3> = effectors.iter().map(|e| globals[e.joint].transform_point3(e.point)).collect();
        let mut blocks = Vec::new();
        let mut errors = Vec::new();
        for (i, (e, p)) in effectors.iter().zip(&positions).enumerate() {
            blocks.push(Block::Position(i));
            errors.push(e.target - *p);
            if let Some(target) = e.orientation {
                blocks.push(Block::Orientation(i));
                errors.push(rotation_error(target, frame_rotation(&globals[e.joint])) * weight);
            }
        }
        Evaluation { globals, positions, blocks, errors, weight }
    }

    fn squared_error(&self) -> f32 {
        self.errors.iter().map(|e| e.length_squared()).sum()
    }

    /// Per effector, the distance of its point to the target.
    fn distances(&self) -> Vec<f32> {
        self.blocks
            .iter()
            .zip(&self.errors)
            .filter(|(b, _)| matches!(b, Block::Position(_)))
            .map(|(_, e)| e.length())
            .collect()
    }

    fn angle_errors(&self) -> Vec<Option<f32>> {
        let mut out = vec![None; self.positions.len()];
        for (b, e) in self.blocks.iter().zip(&self.errors) {
            if let Block::Orientation(i) = b {
                out[*i] = Some(e.length() / self.weight);
            }
        }
        out
    }

    /// The largest block error: positions in length, orientations as their weighted angle.
    fn max_distance(&self) -> f32 {
        self.errors.iter().map(|e| e.length()).fold(0.0, f32::max)
    }
}

/// The rotation part of a joint's global transform (any scale taken out).
fn frame_rotation(global: &Mat4) -> Quat {
    let (_, rotation, _) = global.to_scale_rotation_translation();
    rotation.normalize()
}

/// The rotation vector (axis × angle, the shorter way) that turns `current` into `target`.
fn rotation_error(target: Quat, current: Quat) -> Vec3 {
    let mut q = (target.normalize() * current.inverse()).normalize();
    if q.w < 0.0 {
        q = -q;
    }
    q.to_scaled_axis()
}

/// Writes `Δ = r_base⁻¹·R` for every joint the solver moved.
fn write_offsets(pose: &mut Pose, joints: &[ChainJoint]) {
    for joint in joints.iter().filter(|j| j.moved) {
        pose.rotation_offsets[joint.joint] = (joint.base.inverse() * joint.rotation()).normalize();
    }
}

/// The longest distance from a chain's top pivot through its joints' pivots to its effector: a length
/// scale for the damping. Slots are sorted by joint index, parents before children, so each chain's
/// pivots come top down.
fn chain_reach(globals: &[Mat4], joints: &[ChainJoint], in_chain: &[Vec<bool>], effectors: &[Effector]) -> f32 {
    effectors
        .iter()
        .zip(in_chain)
        .map(|(e, member)| {
            let mut points: Vec<Vec3> = joints
                .iter()
                .zip(member)
                .filter(|(_, on)| **on)
                .map(|(j, _)| globals[j.joint].transform_point3(j.center))
                .collect();
            points.push(globals[e.joint].transform_point3(e.point));
            points.windows(2).map(|w| w[0].distance(w[1])).sum::<f32>()
        })
        .fold(0.0, f32::max)
}

/// Column `(s, a)`: for an effector's position block `w × (p_e − pivot)`, for its orientation block
/// `w` times the orientation weight, where `w` is the axis in humanoid space and the pivot the joint's
/// centre; zero where the joint is not on that effector's chain. Row-major, three rows per block.
fn fill_jacobian(
    jacobian: &mut [f64],
    dofs: &[(usize, usize)],
    joints: &[ChainJoint],
    in_chain: &[Vec<bool>],
    state: &Evaluation,
) {
    let cols = dofs.len();
    for (c, &(s, a)) in dofs.iter().enumerate() {
        let joint = &joints[s];
        let parent = joint.parent.and_then(|p| state.globals.get(p)).copied().unwrap_or(Mat4::IDENTITY);
        let w = parent.transform_vector3(joint.axis(a)).normalize_or_zero();
        let pivot = state.globals[joint.joint].transform_point3(joint.center);
        for (row, block) in state.blocks.iter().enumerate() {
            let column = match *block {
                Block::Position(e) if in_chain[e][s] => w.cross(state.positions[e] - pivot),
                Block::Orientation(e) if in_chain[e][s] => w * state.weight,
                _ => Vec3::ZERO,
            };
            for (k, value) in column.to_array().into_iter().enumerate() {
                jacobian[(3 * row + k) * cols + c] = f64::from(value);
            }
        }
    }
}

/// `Δθ = Jᵀ·(J·Jᵀ + λ²·I)⁻¹·e`; `None` when the system cannot be solved (non-finite entries).
fn damped_step(jacobian: &[f64], rows: usize, errors: &[Vec3], lambda: f32) -> Option<Vec<f64>> {
    if rows == 0 {
        return None;
    }
    let cols = jacobian.len() / rows;
    let mut a = vec![0.0f64; rows * rows];
    for i in 0..rows {
        for k in 0..=i {
            let dot: f64 = (0..cols).map(|c| jacobian[i * cols + c] * jacobian[k * cols + c]).sum();
            a[i * rows + k] = dot;
            a[k * rows + i] = dot;
        }
        a[i * rows + i] += f64::from(lambda) * f64::from(lambda);
    }
    let mut y: Vec<f64> = errors.iter().flat_map(|e| e.to_array()).map(f64::from).collect();
    if !solve_spd(&mut a, &mut y, rows) {
        return None;
    }
    let step: Vec<f64> = (0..cols).map(|c| (0..rows).map(|r| jacobian[r * cols + c] * y[r]).sum()).collect();
    step.iter().all(|d| d.is_finite()).then_some(step)
}
