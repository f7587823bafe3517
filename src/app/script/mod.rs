//! `--script FILE`: a list of actions run one per frame, so an end-to-end test can drive the real window.
//!
//! ```text
//! # comment
//! open FILE                 load another file (waits until it is loaded)
//! select JOINT              select a joint by name
//! rotate JOINT X Y Z        limit-frame angles in degrees (clamped unless `limits off`)
//! translate JOINT X Y Z     effective translation (the root joint)
//! displacer NAME WEIGHT     name with or without the humanoid prefix
//! view NAME|N               a view by label (case-insensitive, e.g. front, hanim_LeftEyeView) or 1-based number
//! limits on|off             clamp to llimit/ulimit or not
//! fit | reset | undo | redo
//! wait N                    let N frames pass
//! resize W H                resize the window (logical pixels)
//! screenshot [FILE]         save the 3D view (waits for a view transition to end); no FILE: a new name
//!                           in the screenshot folder, as F12 does
//! screenshot-overlays on|off  later screenshots keep the skeleton, grid and axes, or not (the default)
//! screenshot-background transparent|view  later screenshots on a transparent background (alpha 0 where
//!                           no geometry is), or on the view's own (the default)
//! play                      the Play / Pause button (Space)
//! open-dialog               File ▸ Open… (the built-in browser where the system picker is missing)
//! screenshot-size W H|view  later screenshots at W×H pixels, or at the 3D view's size
//! window-screenshot FILE    save the whole window as presented (UI and 3D view)
//! check-ui-picture          fail unless the UI kept between frames (repainted where it changed) equals
//!                           this frame's UI painted whole
//! export-animation clip|turntable W H FPS FILE   File ▸ Export animation… (the whole clip, or a turntable)
//! motion NAME SECONDS       play clip NAME (HAnimMotion name/DEF or TimeSensor DEF) alone, paused at SECONDS
//! play-as-file on|off       the transport plays the whole scene as the file says, or one clip at a time
//! time SECONDS              the transport's clock at SECONDS, paused (the scene clock as the file says)
//! limit-report              open View ▸ Limits over the clip for the transport's clip; log its lines
//! limit-jump N              click line N (0: the worst) of that window: the transport shows its frame
//! click X Y | click NAME    click the 3D view at pixel X Y (from its top-left corner), or at the middle of
//!                           the Shape NAME (a DEF: a Shape, or a TouchSensor's first sensed Shape); as the
//!                           file says, TouchSensors on the nearest Shape hit send their events
//! reach EFFECTOR X Y Z [root]   move a Site (or a joint's centre) to world X Y Z by IK along its default
//!                           chain (to the skeleton's root with `root`), as one drag does; one undo step
//! drag EFFECTOR X Y Z [root]    the same through the 3D view's mouse drag: pressed on the effector's
//!                           pixel, moved to the pixel of X Y Z (reached where it lies in the plane
//!                           through the effector facing the camera), released
//! pin EFFECTOR              pin or unpin an effector (it holds while others reach)
//! expect EFFECTOR X Y Z TOL fail the script unless the effector is within TOL of world X Y Z
//! overlay OVERLAY           View ▸ Skin inspection: heatmap (the selected joint) or heatmap:JOINT (selects
//!                           it), influences, unweighted (colourings, one at a time), axes, sites (added
//!                           to the colouring), off (all of them off)
//! pick-vertex X Y           pick the skin vertex at pixel X Y of the 3D view, as a click with a colouring
//!                           on does; logs `pick-vertex: point N: JOINT WEIGHT, …` (fails on a miss)
//! save-pose FILE            File ▸ Save pose…: every humanoid's current pose into a pose file
//! load-pose FILE|builtin:NAME   File ▸ Load pose…: a pose file or a built-in pose (t-pose, a-pose,
//!                           relaxed, sitting, walking-contact, waving) applied to the posed humanoid;
//!                           one undo step
//! pose-library on|off       show or hide the pose library tab (later steps wait for its thumbnails)
//! key                       Set key: the current pose at the current time into the selected authored
//!                           clip (a new one when none is selected); one undo step
//! key-move FROM TO          move the selected authored clip's key at FROM seconds to TO
//! key-delete T              delete its key at T seconds
//! export FILE [--as-interpolators] [--fps N] [--rest-pose]   File ▸ Save as X3D… into FILE
//! export-gltf [--current-pose] FILE   File ▸ Export glTF… into FILE (.glb or .gltf; --current-pose: …with
//!                           this pose as rest)
//! quit
//! ```
//!
//! The parser (`parse.rs`) reads the lines into [`ScriptStep`]s; `commands.rs` turns a step into the
//! panels' commands for the loaded humanoid (the window's script runner carries out the rest itself).

mod commands;
mod parse;

use std::path::PathBuf;

pub use commands::{commands_for, find_view};
pub use parse::parse_script;

#[derive(Debug, Clone, PartialEq)]
pub enum ScriptStep {
    Open(PathBuf),
    /// Which humanoid of the file the panels pose: a 1-based number or a name.
    Humanoid(String),
    Select(String),
    Rotate(String, [f32; 3]),
    Translate(String, [f32; 3]),
    Displacer(String, f32),
    View(String),
    Limits(bool),
    Fit,
    Reset,
    Undo,
    Redo,
    Wait(u32),
    /// Lets the window rest for this many seconds (the script does not keep it drawing), then fails when
    /// it drew more than `max_frames` frames meanwhile: nothing changed, so it should have slept.
    Rest {
        seconds: f32,
        max_frames: u32,
    },
    Resize(u32, u32),
    Screenshot(PathBuf),
    /// The whole window as presented, UI included.
    WindowScreenshot(PathBuf),
    /// Later screenshots keep the overlays (skeleton, grid, axes) or not.
    ScreenshotOverlays(bool),
    /// Later screenshots on a transparent background (true) or on the view's.
    ScreenshotTransparent(bool),
    /// The Play / Pause button.
    Play,
    /// File ▸ Open….
    OpenDialog,
    /// Screenshot size in pixels; `None`: the 3D view's size.
    ScreenshotSize(Option<[u32; 2]>),
    /// File ▸ Export animation… with these choices: the transport's clip (whole) or a turntable, at
    /// `size` and `fps`, into the file (its extension picks the format).
    ExportAnimation {
        what: crate::ui::export::ExportWhat,
        size: [u32; 2],
        fps: f64,
        path: PathBuf,
    },
    /// A clip played alone, paused at a time in seconds.
    Motion(String, f64),
    /// The transport's mode: as the file says (true) or one clip at a time.
    PlayAsFile(bool),
    /// The transport's clock, paused, in seconds.
    Time(f64),
    /// Opens View ▸ Limits over the clip for the transport's clip and logs its lines.
    LimitReport,
    /// A click on line `n` (0: the worst) of that window: the transport jumps to its frame.
    LimitJump(usize),
    /// A click in the 3D view.
    Click(ClickAt),
    /// Retargets a capture file onto the humanoid (.amc with its .asf beside it, .asf, .bvh).
    Capture(PathBuf),
    /// Loads a mapping file for the applied capture.
    Mapping(PathBuf),
    /// Sets the targets of one capture joint in the mapping (none: it drives nothing), as an edit in the
    /// capture window does.
    Map(String, Vec<String>),
    /// An IK reach: effector, world target, chain to the skeleton's root.
    Reach(String, [f32; 3], bool),
    /// A scripted mouse drag of an effector to a world position.
    Drag(String, [f32; 3], bool),
    /// Pins or unpins an effector.
    Pin(String),
    /// Fails the script unless the effector is within the tolerance of the world position.
    Expect(String, [f32; 3], f32),
    /// View ▸ Skin inspection: a colouring, the joint axes or the Sites (`off`: none of them).
    Overlay(crate::pose::skin_inspection::OverlayChoice),
    /// Picks the skin vertex at a pixel of the 3D view.
    PickVertex(f32, f32),
    /// Writes the current pose into a pose file.
    SavePose(PathBuf),
    /// Applies a pose file, or `builtin:NAME`.
    LoadPose(String),
    /// Shows or hides the pose library window.
    PoseLibrary(bool),
    /// Destroys the GPU device, as a driver reset would, to exercise the recovery.
    LoseDevice,
    /// The kept UI picture must equal a full repaint of the frame.
    CheckUiPicture,
    /// Set key at the current time.
    Key,
    /// A key moved from one time to another (seconds).
    KeyMove(f64, f64),
    /// The key at a time deleted.
    KeyDelete(f64),
    /// File ▸ Export glTF… (`current_pose`: …with this pose as rest) into the file.
    ExportGltf {
        path: PathBuf,
        current_pose: bool,
    },
    /// File ▸ Save as X3D… with these choices.
    SaveX3d {
        path: PathBuf,
        as_interpolators: bool,
        fps: Option<f64>,
        rest_pose: bool,
    },
    Quit,
}

/// Where a scripted click goes.
#[derive(Debug, Clone, PartialEq)]
pub enum ClickAt {
    /// Pixel coordinates of the 3D view, from its top-left corner.
    Pixel(f32, f32),
    /// The middle of a Shape, by DEF name (a TouchSensor's DEF: the first Shape it senses).
    Node(String),
}

/// A parsed script line with its line number (for error messages).
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptLine {
    pub line: usize,
    pub step: ScriptStep,
}
