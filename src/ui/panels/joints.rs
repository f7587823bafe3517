//! Joints panel: the joint tree ([`joint_tree`]) with a filter box, the selected
//! joint's path from the root, three limit-frame angle sliders, root translation, resets.

use glam::Vec3;

use super::joint_tree;
use crate::hanim::JointIndex;
use crate::pose::Pose;
use crate::ui::command::UiCommand;
use crate::ui::limits;
use crate::ui::scene::SceneSummary;
use crate::ui::state::UiState;

/// The limit-frame angles (degrees) of `joint`'s effective rotation `r_base·Δ` in `pose`.
pub fn joint_degrees(scene: &SceneSummary, pose: &Pose, JointIndex(joint): JointIndex) -> [f32; 3] {
    let Some(j) = scene.joints.get(joint) else { return [0.0; 3] };
    let base = pose.rotations.get(joint).copied().unwrap_or_default();
    let offset = pose.rotation_offsets.get(joint).copied().unwrap_or_default();
    // `+ 0.0` turns −0 into 0, so a joint at rest reads "0.0°", not "-0.0°".
    limits::limit_angles_from_rotation(base * offset, j.limit_orientation).map(|a| a.to_degrees() + 0.0)
}

/// `drivers`: what sets joints besides the sliders (see `FrameInfo::joint_drivers`); the selected
/// joint's are shown above its sliders.
pub fn joints_ui(
    ui: &mut egui::Ui,
    state: &mut UiState,
    scene: &SceneSummary,
    pose: &Pose,
    drivers: &[(usize, String)],
) -> Vec<UiCommand> {
    let mut commands = Vec::new();
    if scene.humanoid_names.len() > 1 {
        // A file with several humanoids: the panels pose one of them at a time.
        let label = |i: usize| format!("{}: {}", i + 1, scene.humanoid_names[i]);
        egui::ComboBox::from_label("Humanoid").selected_text(label(scene.humanoid_index)).show_ui(ui, |ui| {
            for i in 0..scene.humanoid_names.len() {
                if ui.selectable_label(i == scene.humanoid_index, label(i)).clicked() {
                    commands.push(UiCommand::SelectHumanoid(crate::hanim::HumanoidIndex(i)));
                }
            }
        });
    }
    ui.horizontal(|ui| {
        ui.label("Filter");
        ui.add(egui::TextEdit::singleline(&mut state.joint_search).hint_text("joint name").desired_width(140.0));
        if !state.joint_search.is_empty() && ui.small_button("×").on_hover_text("clear the filter").clicked() {
            state.joint_search.clear();
        }
    });
    // Scrolled up and down; a name too long for the panel is cut with "…" and given whole on hover, so the
    // panel never widens and no sideways scroll hides the names' ends.
    egui::ScrollArea::vertical()
        .id_salt("joint_tree")
        .auto_shrink([false, true])
        // The selected joint's controls below keep about 260 points (path, marks, sliders, buttons), so a
        // short window shows them whole; the tree keeps at least a third of the panel.
        .max_height((ui.available_height() - 260.0).max(ui.available_height() * 0.35))
        .show(ui, |ui| {
            if state.joint_search.trim().is_empty() {
                joint_tree::joint_tree_ui(ui, state, scene, &mut commands);
            } else {
                let hits = scene.search_joints(&state.joint_search);
                if hits.is_empty() {
                    ui.weak("no joint matches");
                }
                for j in hits {
                    let selected = state.selected_joint == Some(j);
                    let response = ui
                        .add(egui::Button::selectable(selected, scene.joints[j].name.as_str()).truncate())
                        .on_hover_text(joint_tree::path_text(scene, j.0));
                    if response.clicked() {
                        commands.push(UiCommand::SelectJoint(Some(j)));
                    }
                }
            }
        });
    ui.separator();
    // The selected joint's controls scroll on their own, so a short window cuts none of them off.
    egui::ScrollArea::vertical().id_salt("joint_controls").auto_shrink([false, true]).show(ui, |ui| {
        match state.selected_joint.filter(|j| j.0 < scene.joints.len()) {
            Some(JointIndex(j)) => commands.extend(selected_joint_ui(ui, state, scene, pose, j, drivers)),
            None => {
                ui.weak("Select a joint in the tree or click near one in the view.");
            }
        }
        ui.separator();
        // One row (two where the panel is narrow), so a short window still shows both.
        ui.horizontal_wrapped(|ui| {
            ui.checkbox(&mut state.ignore_limits, "Ignore joint limits");
            if ui.button("Reset all joints").clicked() {
                commands.push(UiCommand::ResetAllJoints);
            }
        });
    });
    commands
}

fn selected_joint_ui(
    ui: &mut egui::Ui,
    state: &UiState,
    scene: &SceneSummary,
    pose: &Pose,
    joint: usize,
    drivers: &[(usize, String)],
) -> Vec<UiCommand> {
    let mut commands = Vec::new();
    let j = &scene.joints[joint];
    joint_tree::breadcrumb_ui(ui, scene, joint, &mut commands);
    // A value the user did not set is explained: the sliders show what the clip or IK made of it.
    for (_, source) in drivers.iter().filter(|(d, _)| *d == joint) {
        let (text, why) = if source.starts_with("IK") {
            (
                format!("set by {source}"),
                "an IK reach turned this joint; the sliders take it from there (undo goes back)",
            )
        } else {
            (
                format!("driven by {source}"),
                "the clip sets this joint while it plays; paused, the sliders turn it from the clip's pose, and \
                 the change stays on top of the clip when it plays again (Reset joint removes it)",
            )
        };
        ui.colored_label(ui.visuals().warn_fg_color, text).on_hover_text(why);
    }
    let intervals = limits::limit_intervals(&j.llimit, &j.ulimit);
    let mut degrees = joint_degrees(scene, pose, JointIndex(joint));
    let mut changed = false;
    let mut ended = false;
    for (axis, name) in ["X rotation", "Y rotation", "Z rotation"].iter().enumerate() {
        let range = match intervals[axis] {
            Some((l, u)) if !state.ignore_limits => l.to_degrees()..=u.to_degrees(),
            _ => -180.0..=180.0,
        };
        let limited = intervals[axis].is_some() && !state.ignore_limits;
        let response = ui.add(
            egui::Slider::new(&mut degrees[axis], range)
                .text(*name)
                .suffix("°")
                .fixed_decimals(1)
                .clamping(if limited { egui::SliderClamping::Always } else { egui::SliderClamping::Never }),
        );
        changed |= response.changed();
        ended |= response.drag_stopped() || response.lost_focus();
    }
    if intervals.iter().any(Option::is_some) {
        ui.weak(if state.ignore_limits { "limits ignored" } else { "clamped to llimit/ulimit" });
    } else {
        ui.weak("no limits in the file");
    }
    if changed {
        commands.push(UiCommand::SetJointAngles { joint: JointIndex(joint), degrees });
    }
    if ended {
        commands.push(UiCommand::EndEdit);
    }
    if j.parent.is_none() {
        let base = pose.translations.get(joint).copied().unwrap_or(Vec3::ZERO);
        let offset = pose.translation_offsets.get(joint).copied().unwrap_or(Vec3::ZERO);
        let mut t = base + offset;
        let mut moved = false;
        let mut stopped = false;
        ui.horizontal(|ui| {
            ui.label("Translation");
            for (i, c) in ["x", "y", "z"].iter().enumerate() {
                let r = ui.add(egui::DragValue::new(&mut t[i]).speed(0.01).prefix(format!("{c} ")).fixed_decimals(3));
                moved |= r.changed();
                stopped |= r.drag_stopped() || r.lost_focus();
            }
        });
        if moved {
            commands.push(UiCommand::SetJointTranslation { joint: JointIndex(joint), translation: t });
        }
        if stopped {
            commands.push(UiCommand::EndEdit);
        }
    }
    ui.horizontal(|ui| {
        if ui.button("Reset joint").clicked() {
            commands.push(UiCommand::ResetJoint(JointIndex(joint)));
        }
        if ui.button("Frame joint").clicked() {
            commands.push(UiCommand::FrameSelected);
        }
    });
    commands
}
