//! What panels, shortcuts and scripts ask for. Panels return these; [`super::edit::PoseEditor::apply`]
//! handles the pose and selection ones and hands the rest (files, views, screenshots) to the app.

use std::path::PathBuf;

use glam::Vec3;

#[derive(Debug, Clone, PartialEq)]
#[must_use]
pub enum UiCommand {
    SelectJoint(Option<usize>),
    /// Sets the joint's effective rotation from its three limit-frame angles, in degrees (§8).
    SetJointAngles {
        joint: usize,
        degrees: [f32; 3],
    },
    /// Sets the effective translation of the root joint (`t_eff`, §1.4).
    SetJointTranslation {
        joint: usize,
        translation: Vec3,
    },
    ResetJoint(usize),
    ResetAllJoints,
    SetDisplacerWeight {
        displacer: usize,
        weight: f32,
    },
    ResetDisplacers,
    /// A drag ended: the next edit starts a new undo step.
    EndEdit,
    Undo,
    Redo,
    /// Switches to entry `n` of [`super::SceneSummary::views`].
    SelectView(usize),
    /// Frames the whole humanoid (F).
    FitView,
    /// Frames the selected joint.
    FrameSelected,
    OpenDialog,
    Open(PathBuf),
    Reload,
    /// Saves the 3D view; `None` picks a name in the screenshot folder.
    Screenshot(Option<PathBuf>),
    /// Asks for the screenshot folder in a native dialog.
    ChooseScreenshotFolder,
    /// Closes the load-error window.
    DismissError,
    Quit,
}
