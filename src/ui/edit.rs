//! Pose editing with undo/redo: the user's offsets (`Δ`, `Δt`, §1.4) and displacer weights, changed
//! only through [`UiCommand`]s so that every change can be undone.

use glam::{Quat, Vec3};

use super::command::UiCommand;
use super::limits;
use super::state::UiState;
use crate::animation::{AuthoredSnapshot, Transport};
use crate::hanim::Humanoid;
use crate::hanim::JointIndex;
use crate::pose::{Pose, ik};

/// Undo steps kept.
pub const MAX_UNDO: usize = 200;

/// What undo restores: the user's edits, not the base pose (which a motion may drive).
#[derive(Debug, Clone, PartialEq)]
pub struct PoseEdits {
    pub rotation_offsets: Vec<Quat>,
    pub translation_offsets: Vec<Vec3>,
    pub displacer_weights: Vec<f32>,
}

impl PoseEdits {
    pub(super) fn of(pose: &Pose) -> Self {
        Self {
            rotation_offsets: pose.rotation_offsets.clone(),
            translation_offsets: pose.translation_offsets.clone(),
            displacer_weights: pose.displacer_weights.clone(),
        }
    }

    fn restore(self, pose: &mut Pose) {
        pose.rotation_offsets = self.rotation_offsets;
        pose.translation_offsets = self.translation_offsets;
        pose.displacer_weights = self.displacer_weights;
    }
}

/// Which control an edit came from: consecutive edits from the same control (one slider drag) make one
/// undo step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EditKey {
    JointRotation(usize),
    JointTranslation(usize),
    Displacer(usize),
    /// An IK drag of the effector on this joint.
    Reach(usize),
    /// Resets are always their own step.
    Reset,
    /// So is applying a whole pose.
    ApplyPose,
}

/// One undo step: the pose edits before it and, for key edits, the authored clips before it.
#[derive(Debug, Clone, PartialEq)]
struct Step {
    edits: PoseEdits,
    keys: Option<AuthoredSnapshot>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    undo: Vec<Step>,
    redo: Vec<Step>,
    open: Option<EditKey>,
}

impl History {
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Records the state before an edit from `key`, unless it continues the open edit.
    fn begin(&mut self, key: EditKey, pose: &Pose) {
        if self.open == Some(key) && !matches!(key, EditKey::Reset | EditKey::ApplyPose) {
            return;
        }
        self.push(Step { edits: PoseEdits::of(pose), keys: None });
        self.open = Some(key);
    }

    fn push(&mut self, step: Step) {
        self.undo.push(step);
        if self.undo.len() > MAX_UNDO {
            self.undo.remove(0);
        }
        self.redo.clear();
        self.open = None;
    }

    /// Records a key edit: the pose edits and authored clips before it.
    pub(super) fn push_keys(&mut self, edits: PoseEdits, keys: AuthoredSnapshot) {
        self.push(Step { edits, keys: Some(keys) });
    }
}

/// The pose being edited and its history.
#[derive(Debug, Clone, PartialEq)]
pub struct PoseEditor {
    pub pose: Pose,
    pub history: History,
    /// Bumped on every change, so the app knows when to re-deform.
    pub revision: u64,
    /// What the last [`UiCommand::ApplyPose`] did (joints set, joints the humanoid lacks), for the app
    /// to report.
    pub last_applied: Option<crate::pose::file::AppliedPose>,
    /// The joints an IK reach turned last, with the effector that pulled them (their sliders say so).
    /// A slider edit or reset of the joint takes the mark off; undo, redo and applying a pose take all
    /// of them off.
    pub reached: std::collections::BTreeMap<usize, String>,
}

impl PoseEditor {
    pub fn new(h: &Humanoid) -> Self {
        Self {
            pose: Pose::rest(h),
            history: History::default(),
            revision: 0,
            last_applied: None,
            reached: Default::default(),
        }
    }

    pub(super) fn snapshot_edits(&self) -> PoseEdits {
        PoseEdits::of(&self.pose)
    }

    /// Undoes (`back`) or redoes one step. Key edits also restore the transport's authored clips; without
    /// a transport only their pose part comes back (the window always passes its transport).
    pub fn travel(&mut self, back: bool, transport: Option<&mut Transport>) -> bool {
        let history = &mut self.history;
        let (from, to) =
            if back { (&mut history.undo, &mut history.redo) } else { (&mut history.redo, &mut history.undo) };
        let Some(step) = from.pop() else { return false };
        let keys_now = step.keys.as_ref().and(transport.as_deref()).map(Transport::authored_snapshot);
        to.push(Step { edits: PoseEdits::of(&self.pose), keys: keys_now });
        step.edits.restore(&mut self.pose);
        if let (Some(keys), Some(t)) = (&step.keys, transport) {
            t.restore_authored(keys);
        }
        history.open = None;
        self.reached.clear();
        self.revision += 1;
        true
    }

    /// The effective rotation's limit-frame angles of `joint`, in degrees (what the sliders show).
    pub fn joint_degrees(&self, h: &Humanoid, joint: usize) -> [f32; 3] {
        let lf = h.joints.get(joint).map_or(Quat::IDENTITY, |j| j.limit_orientation);
        limits::limit_angles_from_rotation(self.pose.effective_rotation(h, joint), lf).map(f32::to_degrees)
    }

    /// Applies pose, selection and undo commands; returns the others (files, views, screenshots) for
    /// the app. Indices outside the humanoid are ignored.
    pub fn apply(&mut self, h: &Humanoid, state: &mut UiState, command: UiCommand) -> Option<UiCommand> {
        match command {
            UiCommand::SelectJoint(joint) => {
                state.selected_joint = joint.filter(|j| j.0 < h.joints.len());
                self.history.open = None;
            }
            UiCommand::SetJointAngles { joint: JointIndex(joint), degrees } => {
                let j = h.joints.get(joint)?;
                if joint >= self.pose.rotation_offsets.len() || !degrees.iter().all(|d| d.is_finite()) {
                    return None;
                }
                let mut angles = degrees.map(f32::to_radians);
                if !state.ignore_limits {
                    angles = limits::clamp_angles(angles, &limits::limit_intervals(&j.llimit, &j.ulimit));
                }
                let target = limits::rotation_from_limit_angles(angles, j.limit_orientation);
                let base = self.pose.rotations.get(joint).copied().unwrap_or(j.rest.rotation);
                self.history.begin(EditKey::JointRotation(joint), &self.pose);
                self.pose.rotation_offsets[joint] = limits::offset_for_target(base, target);
                self.reached.remove(&joint);
                self.revision += 1;
            }
            UiCommand::SetJointTranslation { joint: JointIndex(joint), translation } => {
                if joint >= self.pose.translation_offsets.len() || !translation.is_finite() {
                    return None;
                }
                let base = self.pose.translations.get(joint).copied().unwrap_or(Vec3::ZERO);
                self.history.begin(EditKey::JointTranslation(joint), &self.pose);
                self.pose.translation_offsets[joint] = translation - base;
                self.revision += 1;
            }
            UiCommand::Reach { effector, target, to_root } => {
                let point = ik::find_effector(h, &effector).ok()?;
                if !target.is_finite() {
                    return None;
                }
                let pins = state.pins.iter().filter(|p| **p != effector).cloned().collect();
                let request = ik::ReachRequest {
                    reaches: vec![ik::Reach { effector, target, orientation: None }],
                    pins,
                    to_root,
                    // Each frame of a drag starts from the last frame's solve: a few steps suffice.
                    options: ik::IkOptions {
                        respect_limits: !state.ignore_limits,
                        max_iterations: 60,
                        ..ik::IkOptions::default()
                    },
                };
                self.history.begin(EditKey::Reach(point.joint), &self.pose);
                let before = self.pose.rotation_offsets.clone();
                let effector = request.reaches[0].effector.clone();
                match ik::reach_humanoid(h, &mut self.pose, &request) {
                    Ok(outcome) => {
                        log::debug!("reach: {outcome:?}");
                        for (joint, (now, was)) in self.pose.rotation_offsets.iter().zip(&before).enumerate() {
                            if now != was {
                                self.reached.insert(joint, effector.clone());
                            }
                        }
                    }
                    Err(e) => log::warn!("reach: {e}"),
                }
                self.revision += 1;
            }
            UiCommand::TogglePin(name) => {
                if ik::find_effector(h, &name).is_err() {
                    return None;
                }
                match state.pins.iter().position(|p| *p == name) {
                    Some(i) => {
                        state.pins.remove(i);
                    }
                    None => state.pins.push(name),
                }
            }
            UiCommand::ResetJoint(JointIndex(joint)) => {
                if joint >= self.pose.rotation_offsets.len() {
                    return None;
                }
                self.history.begin(EditKey::Reset, &self.pose);
                self.pose.rotation_offsets[joint] = Quat::IDENTITY;
                self.reached.remove(&joint);
                if let Some(t) = self.pose.translation_offsets.get_mut(joint) {
                    *t = Vec3::ZERO;
                }
                self.revision += 1;
            }
            UiCommand::ResetAllJoints => {
                self.history.begin(EditKey::Reset, &self.pose);
                self.pose.rotation_offsets.iter_mut().for_each(|q| *q = Quat::IDENTITY);
                self.pose.translation_offsets.iter_mut().for_each(|t| *t = Vec3::ZERO);
                self.reached.clear();
                self.revision += 1;
            }
            UiCommand::ApplyPose(source) => {
                self.history.begin(EditKey::ApplyPose, &self.pose);
                let applied = crate::pose::file::apply_to_humanoid(h, &source, &mut self.pose, !state.ignore_limits);
                self.last_applied = Some(applied);
                self.reached.clear();
                self.history.open = None;
                self.revision += 1;
            }
            UiCommand::SetDisplacerWeight { displacer, weight } => {
                if displacer >= self.pose.displacer_weights.len() || !weight.is_finite() {
                    return None;
                }
                self.history.begin(EditKey::Displacer(displacer), &self.pose);
                self.pose.displacer_weights[displacer] = weight;
                self.revision += 1;
            }
            UiCommand::ResetDisplacers => {
                self.history.begin(EditKey::Reset, &self.pose);
                for (w, d) in self.pose.displacer_weights.iter_mut().zip(&h.displacers) {
                    *w = d.weight;
                }
                self.revision += 1;
            }
            UiCommand::EndEdit => self.history.open = None,
            UiCommand::Undo => {
                self.travel(true, None);
            }
            UiCommand::Redo => {
                self.travel(false, None);
            }
            UiCommand::SelectView(view) => {
                state.active_view = Some(view);
                return Some(UiCommand::SelectView(view));
            }
            other => return Some(other),
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pose::file::{HumanoidPose, JointPose};
    use crate::pose::test_humanoid::HumanoidBuilder;

    #[test]
    fn applying_a_pose_is_one_undo_step_and_keeps_limits_unless_they_are_off() {
        let mut h =
            HumanoidBuilder::new().joint("humanoid_root", None, Vec3::ZERO).joint("l_elbow", Some(0), Vec3::Y).build();
        h.joints[1].llimit = vec![-2.0, 0.0, 0.0];
        h.joints[1].ulimit = vec![0.0, 0.0, 0.0];
        let pose = |angle: f32| {
            Box::new(HumanoidPose {
                name: "p".into(),
                loa: -1,
                root_translation: None,
                reset_other_joints: true,
                joints: vec![JointPose::new("l_elbow", Quat::from_rotation_x(angle))],
            })
        };
        let mut editor = PoseEditor::new(&h);
        let mut state = UiState::default();
        assert!(editor.apply(&h, &mut state, UiCommand::ApplyPose(pose(0.8))).is_none());
        // +0.8 rad about X is outside [-2, 0]: held at the bound.
        assert!(editor.pose.effective_rotation(&h, 1).abs_diff_eq(Quat::IDENTITY, 1e-6));
        assert_eq!(editor.last_applied.as_ref().map(|a| a.clamped.clone()), Some(vec!["l_elbow".to_string()]));
        state.ignore_limits = true;
        let _ = editor.apply(&h, &mut state, UiCommand::ApplyPose(pose(0.8)));
        let _ = editor.apply(&h, &mut state, UiCommand::ApplyPose(pose(-1.0)));
        assert!(editor.pose.effective_rotation(&h, 1).abs_diff_eq(Quat::from_rotation_x(-1.0), 1e-6));
        // Each application is its own step, even two in a row.
        let _ = editor.apply(&h, &mut state, UiCommand::Undo);
        assert!(editor.pose.effective_rotation(&h, 1).abs_diff_eq(Quat::from_rotation_x(0.8), 1e-6));
        let _ = editor.apply(&h, &mut state, UiCommand::Undo);
        let _ = editor.apply(&h, &mut state, UiCommand::Undo);
        assert_eq!(editor.pose, Pose::rest(&h));
        assert!(!editor.history.can_undo());
    }
}
