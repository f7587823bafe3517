//! What panels, shortcuts and scripts ask for. Panels return these; [`super::edit::PoseEditor::apply`]
//! handles the pose and selection ones and hands the rest (files, views, screenshots) to the app.

use std::path::PathBuf;

use glam::Vec3;

use crate::hanim::JointIndex;

#[derive(Debug, Clone, PartialEq)]
#[must_use]
pub enum UiCommand {
    SelectJoint(Option<JointIndex>),
    /// Makes humanoid `n` of the file (from 0) the one the panels pose.
    SelectHumanoid(crate::hanim::HumanoidIndex),
    /// Sets the joint's effective rotation from its three limit-frame angles, in degrees (§8).
    SetJointAngles {
        joint: JointIndex,
        degrees: [f32; 3],
    },
    /// Sets the effective translation of the root joint (`t_eff`, §1.4).
    SetJointTranslation {
        joint: JointIndex,
        translation: Vec3,
    },
    /// Moves an effector (a Site, or a joint's centre, by name) toward `target` (world coordinates) by
    /// inverse kinematics along its default chain, or to the skeleton's root with `to_root`; the pinned
    /// effectors hold. Consecutive reaches of one effector (one drag) are one undo step.
    Reach {
        effector: String,
        target: Vec3,
        to_root: bool,
    },
    /// Pins an effector where it is, or unpins it.
    TogglePin(String),
    ResetJoint(JointIndex),
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
    /// Turns the camera about its target to look from this direction (the axis gizmo).
    LookAlong {
        yaw: f32,
        pitch: f32,
    },
    /// Opens a folder in the desktop's file manager (a saved screenshot's toast).
    OpenFolder(PathBuf),
    OpenDialog,
    Open(PathBuf),
    Reload,
    /// Saves the 3D view; `None` picks a name in the screenshot folder.
    Screenshot(Option<PathBuf>),
    /// Asks where to write the animation File ▸ Export animation… describes ([`super::UiState::export`]).
    ExportAnimationDialog,
    /// Writes that animation into this file (its extension picks the format).
    ExportAnimation(PathBuf),
    /// File ▸ Save pose…: asks where to write the current pose as a pose file.
    SavePoseDialog,
    /// Writes the current pose (every humanoid) into this pose file.
    SavePose(PathBuf),
    /// File ▸ Load pose…: asks for a pose file to apply.
    LoadPoseDialog,
    /// Applies a pose file, or `builtin:NAME`, to the posed humanoid (one undo step).
    LoadPose(String),
    /// Applies a pose of the library window to the posed humanoid (one undo step).
    ApplyLibraryPose(super::pose_library::LibrarySource),
    /// Saves the current pose into the library folder under this name.
    SavePoseToLibrary(String),
    /// Sets the joints `pose` names to its rotations (within the limits unless they are off), as one
    /// undo step; what it did is left in [`super::PoseEditor::last_applied`].
    ApplyPose(Box<crate::pose::file::HumanoidPose>),
    /// Asks where to write the humanoids as glTF 2.0 (File ▸ Export glTF…); `current_pose`: the pose shown
    /// becomes the rest pose.
    ExportGltfDialog {
        current_pose: bool,
    },
    /// Writes them into this file (`.glb` or `.gltf`).
    ExportGltf {
        path: PathBuf,
        current_pose: bool,
    },
    /// Asks where to write the copy File ▸ Save as X3D… describes ([`super::UiState::save_x3d`]).
    SaveX3dDialog,
    /// Writes that copy into this file.
    SaveX3d(PathBuf),
    /// Asks for the screenshot folder in a native dialog.
    ChooseScreenshotFolder,
    /// Closes the load-error window.
    DismissError,
    /// Asks for a motion capture file (.amc with its .asf beside it, .asf, .bvh) to retarget onto the
    /// humanoid.
    ApplyCaptureDialog,
    /// Retargets this capture file onto the humanoid (see [`crate::mocap::session::capture_pair`]).
    ApplyCapture(PathBuf),
    /// Plays the applied capture (and capture files opened later) at this many frames per second.
    SetCaptureFps(f64),
    /// Retargets the applied capture with this mapping (edited in the capture window).
    SetMapping(crate::mocap::mapping::Mapping),
    LoadMappingDialog,
    LoadMapping(PathBuf),
    SaveMappingDialog,
    /// Goes back to the built-in mapping.
    BuiltInMapping,
    RemoveCapture,
    /// Opens the capture window again after it was closed.
    ShowCaptureWindow,
    /// A change to motion playback (the transport panel and its keys).
    Transport(super::transport::TransportCommand),
    Quit,
}
