//! What a script step asks of the panels: the [`UiCommand`]s it stands for, given the loaded humanoid.

use anyhow::{Context, Result};
use glam::Vec3;

use super::ScriptStep;
use crate::hanim::JointIndex;
use crate::ui::command::UiCommand;
use crate::ui::keys::KeyCommand;
use crate::ui::scene::{SceneSummary, without_prefix};
use crate::ui::transport::TransportCommand;

fn joint(summary: &SceneSummary, name: &str, line: usize) -> Result<JointIndex> {
    summary
        .joints
        .iter()
        .position(|j| j.name == name || without_prefix(&j.name, &summary.humanoid_name) == name)
        .map(JointIndex)
        .with_context(|| format!("line {line}: no joint named '{name}'"))
}

/// The view `wanted` names: a 1-based number, or a label (case-insensitive, prefix ignored).
pub fn find_view(summary: &SceneSummary, wanted: &str) -> Option<usize> {
    if let Ok(n) = wanted.parse::<usize>() {
        return (n >= 1 && n <= summary.views.len()).then(|| n - 1);
    }
    let w = wanted.to_lowercase();
    summary.views.iter().position(|v| {
        let label = v.label.to_lowercase();
        label == w || without_prefix(&label, &summary.humanoid_name.to_lowercase()) == w
    })
}

/// The commands a step stands for, given the loaded humanoid (steps that need none return empty).
pub fn commands_for(step: &ScriptStep, summary: &SceneSummary, line: usize) -> Result<Vec<UiCommand>> {
    Ok(match step {
        ScriptStep::Open(path) => vec![UiCommand::Open(path.clone())],
        ScriptStep::Select(name) => vec![UiCommand::SelectJoint(Some(joint(summary, name, line)?))],
        ScriptStep::Humanoid(wanted) => {
            let names = &summary.humanoid_names;
            let index = match wanted.parse::<usize>() {
                Ok(n) => (n >= 1 && n <= names.len()).then(|| n - 1),
                Err(_) => names.iter().position(|n| n == wanted),
            };
            let index = index.with_context(|| {
                format!("line {line}: no humanoid '{wanted}' (the file has {}: {})", names.len(), names.join(", "))
            })?;
            vec![UiCommand::SelectHumanoid(crate::hanim::HumanoidIndex(index))]
        }
        ScriptStep::Rotate(name, degrees) => {
            vec![
                UiCommand::SetJointAngles { joint: joint(summary, name, line)?, degrees: *degrees },
                UiCommand::EndEdit,
            ]
        }
        ScriptStep::Translate(name, t) => vec![
            UiCommand::SetJointTranslation { joint: joint(summary, name, line)?, translation: Vec3::from_array(*t) },
            UiCommand::EndEdit,
        ],
        ScriptStep::Displacer(name, weight) => {
            let displacer = summary
                .displacers
                .iter()
                .position(|d| d.label == *name || d.label == without_prefix(name, &summary.humanoid_name))
                .with_context(|| format!("line {line}: no displacer named '{name}'"))?;
            vec![UiCommand::SetDisplacerWeight { displacer, weight: *weight }, UiCommand::EndEdit]
        }
        ScriptStep::View(name) => {
            let view = find_view(summary, name).with_context(|| {
                let labels: Vec<&str> = summary.views.iter().map(|v| v.label.as_str()).collect();
                format!("line {line}: no view '{name}' (views: {})", labels.join(", "))
            })?;
            vec![UiCommand::SelectView(view)]
        }
        ScriptStep::Fit => vec![UiCommand::FitView],
        ScriptStep::Reset => vec![UiCommand::ResetAllJoints, UiCommand::ResetDisplacers],
        ScriptStep::Undo => vec![UiCommand::Undo],
        ScriptStep::Redo => vec![UiCommand::Redo],
        ScriptStep::Screenshot(path) => {
            vec![UiCommand::Screenshot((!path.as_os_str().is_empty()).then(|| path.clone()))]
        }
        ScriptStep::Play => vec![UiCommand::Transport(TransportCommand::TogglePlay)],
        ScriptStep::OpenDialog => vec![UiCommand::OpenDialog],
        ScriptStep::Capture(path) => vec![UiCommand::ApplyCapture(path.clone())],
        ScriptStep::Mapping(path) => vec![UiCommand::LoadMapping(path.clone())],
        ScriptStep::Quit => vec![UiCommand::Quit],
        ScriptStep::ExportAnimation { path, .. } => vec![UiCommand::ExportAnimation(path.clone())],
        ScriptStep::Reach(effector, target, to_root) => vec![
            UiCommand::Reach { effector: effector.clone(), target: Vec3::from_array(*target), to_root: *to_root },
            UiCommand::EndEdit,
        ],
        ScriptStep::Pin(effector) => vec![UiCommand::TogglePin(effector.clone())],
        // The runner sets the overlay; the heatmap's joint becomes the selection.
        ScriptStep::Overlay(crate::pose::skin_inspection::OverlayChoice::Heatmap(Some(name))) => {
            vec![UiCommand::SelectJoint(Some(joint(summary, name, line)?))]
        }
        ScriptStep::Overlay(_) => Vec::new(),
        ScriptStep::SavePose(path) => vec![UiCommand::SavePose(path.clone())],
        ScriptStep::LoadPose(source) => vec![UiCommand::LoadPose(source.clone())],
        ScriptStep::Key => vec![UiCommand::Transport(TransportCommand::Key(KeyCommand::Set))],
        ScriptStep::KeyMove(from, to) => {
            vec![UiCommand::Transport(TransportCommand::Key(KeyCommand::Move { from: *from, to: *to }))]
        }
        ScriptStep::KeyDelete(at) => vec![UiCommand::Transport(TransportCommand::Key(KeyCommand::Delete(*at)))],
        ScriptStep::SaveX3d { path, .. } => vec![UiCommand::SaveX3d(path.clone())],
        ScriptStep::ExportGltf { path, current_pose } => {
            vec![UiCommand::ExportGltf { path: path.clone(), current_pose: *current_pose }]
        }
        ScriptStep::Expect(..)
        | ScriptStep::LimitReport
        | ScriptStep::LimitJump(_)
        | ScriptStep::Drag(..)
        | ScriptStep::Limits(_)
        | ScriptStep::Wait(_)
        | ScriptStep::Rest { .. }
        | ScriptStep::Resize(..)
        | ScriptStep::ScreenshotSize(_)
        | ScriptStep::ScreenshotOverlays(_)
        | ScriptStep::ScreenshotTransparent(_)
        | ScriptStep::Motion(..)
        | ScriptStep::PlayAsFile(_)
        | ScriptStep::Time(_)
        | ScriptStep::Click(_)
        | ScriptStep::Map(..)
        | ScriptStep::WindowScreenshot(_)
        | ScriptStep::PoseLibrary(_)
        | ScriptStep::PickVertex(..)
        | ScriptStep::LoseDevice
        | ScriptStep::CheckUiPicture => Vec::new(),
    })
}
