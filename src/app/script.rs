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

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use glam::Vec3;

use crate::hanim::JointIndex;
use crate::ui::command::UiCommand;
use crate::ui::keys::KeyCommand;
use crate::ui::scene::{SceneSummary, without_prefix};
use crate::ui::transport::TransportCommand;

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

fn numbers<const N: usize>(words: &[&str], line: usize) -> Result<[f32; N]> {
    if words.len() != N {
        bail!("line {line}: expected {N} numbers, found {}", words.len());
    }
    let mut out = [0.0; N];
    for (o, w) in out.iter_mut().zip(words) {
        *o = w.parse::<f32>().with_context(|| format!("line {line}: '{w}' is not a number"))?;
    }
    Ok(out)
}

pub fn parse_script(text: &str) -> Result<Vec<ScriptLine>> {
    let mut steps = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.split('#').next().unwrap_or("").trim();
        if trimmed.is_empty() {
            continue;
        }
        let words: Vec<&str> = trimmed.split_whitespace().collect();
        let rest = &words[1..];
        let one = |what: &str| -> Result<String> {
            match rest {
                [w] => Ok((*w).to_string()),
                _ => bail!("line {line}: '{}' takes one {what}", words[0]),
            }
        };
        let none = || -> Result<()> {
            if rest.is_empty() { Ok(()) } else { bail!("line {line}: '{}' takes no arguments", words[0]) }
        };
        let step = match words[0] {
            "open" => ScriptStep::Open(PathBuf::from(trimmed["open".len()..].trim())),
            "select" => ScriptStep::Select(one("joint name")?),
            "humanoid" => ScriptStep::Humanoid(one("humanoid number or name")?),
            "rotate" | "translate" => {
                let Some((joint, values)) = rest.split_first() else {
                    bail!("line {line}: '{}' needs a joint", words[0])
                };
                let v = numbers::<3>(values, line)?;
                if words[0] == "rotate" {
                    ScriptStep::Rotate((*joint).to_string(), v)
                } else {
                    ScriptStep::Translate((*joint).to_string(), v)
                }
            }
            "displacer" => {
                let [name, weight] = rest else { bail!("line {line}: 'displacer' takes a name and a weight") };
                let [w] = numbers::<1>(&[weight], line)?;
                ScriptStep::Displacer((*name).to_string(), w)
            }
            "view" => ScriptStep::View(trimmed["view".len()..].trim().to_string()),
            "limits" => match rest {
                ["on"] => ScriptStep::Limits(true),
                ["off"] => ScriptStep::Limits(false),
                _ => bail!("line {line}: 'limits' takes on or off"),
            },
            "fit" => none().map(|_| ScriptStep::Fit)?,
            "reset" => none().map(|_| ScriptStep::Reset)?,
            "undo" => none().map(|_| ScriptStep::Undo)?,
            "redo" => none().map(|_| ScriptStep::Redo)?,
            "quit" => none().map(|_| ScriptStep::Quit)?,
            "lose-device" => none().map(|_| ScriptStep::LoseDevice)?,
            "check-ui-picture" => none().map(|_| ScriptStep::CheckUiPicture)?,
            "wait" => {
                let n = one("frame count")?;
                ScriptStep::Wait(n.parse().with_context(|| format!("line {line}: '{n}' is not a frame count"))?)
            }
            "rest" => {
                let [seconds, max_frames] = numbers::<2>(rest, line)?;
                if !(seconds > 0.0 && seconds <= 600.0 && max_frames >= 0.0 && max_frames.fract() == 0.0) {
                    bail!("line {line}: 'rest' takes seconds (0 to 600) and a whole number of frames");
                }
                ScriptStep::Rest { seconds, max_frames: max_frames as u32 }
            }
            "resize" => {
                let [w, h] = numbers::<2>(rest, line)?;
                if !(w >= 64.0 && h >= 64.0 && w <= 16384.0 && h <= 16384.0) {
                    bail!("line {line}: 'resize' takes a width and height from 64 to 16384");
                }
                ScriptStep::Resize(w as u32, h as u32)
            }
            "screenshot-size" => match rest {
                ["view"] => ScriptStep::ScreenshotSize(None),
                _ => {
                    let [w, h] = numbers::<2>(rest, line)?;
                    if !(w >= 16.0 && h >= 16.0 && w <= 16384.0 && h <= 16384.0 && w.fract() == 0.0 && h.fract() == 0.0)
                    {
                        bail!(
                            "line {line}: 'screenshot-size' takes 'view' or a whole width and height from 16 to 16384"
                        );
                    }
                    ScriptStep::ScreenshotSize(Some([w as u32, h as u32]))
                }
            },
            "motion" => {
                let [name, seconds] = rest else {
                    bail!("line {line}: 'motion' takes a clip name and a time in seconds")
                };
                let [t] = numbers::<1>(&[seconds], line)?;
                ScriptStep::Motion((*name).to_string(), f64::from(t))
            }
            "limit-report" => match rest {
                [] => ScriptStep::LimitReport,
                _ => bail!("line {line}: 'limit-report' takes no argument"),
            },
            "limit-jump" => match rest {
                [n] => ScriptStep::LimitJump(
                    n.parse().map_err(|_| anyhow::anyhow!("line {line}: 'limit-jump' takes a line number from 0"))?,
                ),
                _ => bail!("line {line}: 'limit-jump' takes a line number from 0"),
            },
            "play-as-file" => match rest {
                ["on"] => ScriptStep::PlayAsFile(true),
                ["off"] => ScriptStep::PlayAsFile(false),
                _ => bail!("line {line}: 'play-as-file' takes on or off"),
            },
            "time" => {
                let [t] = numbers::<1>(rest, line)?;
                if !(t >= 0.0 && t.is_finite()) {
                    bail!("line {line}: 'time' takes seconds ≥ 0");
                }
                ScriptStep::Time(f64::from(t))
            }
            "overlay" => {
                let choice = one("overlay (heatmap[:JOINT], influences, unweighted, axes, sites, off)")?;
                ScriptStep::Overlay(choice.parse().map_err(|e: String| anyhow::anyhow!("line {line}: {e}"))?)
            }
            "pick-vertex" => {
                let [x, y] = numbers::<2>(rest, line)?;
                if !(x >= 0.0 && y >= 0.0) {
                    bail!("line {line}: 'pick-vertex' takes pixel coordinates ≥ 0");
                }
                ScriptStep::PickVertex(x, y)
            }
            "click" => match rest {
                [name] if name.parse::<f32>().is_err() => ScriptStep::Click(ClickAt::Node((*name).to_string())),
                _ => {
                    let [x, y] = numbers::<2>(rest, line).map_err(|_| {
                        anyhow::anyhow!("line {line}: 'click' takes pixel coordinates X Y or a DEF name")
                    })?;
                    if !(x >= 0.0 && y >= 0.0) {
                        bail!("line {line}: 'click' takes pixel coordinates ≥ 0");
                    }
                    ScriptStep::Click(ClickAt::Pixel(x, y))
                }
            },
            "export-animation" => {
                let usage = || {
                    anyhow::anyhow!(
                        "line {line}: 'export-animation' takes clip or turntable, a width and height from 16 to 4096, \
                         frames per second (1 to 60) and a file name"
                    )
                };
                let [what, w, h, fps, ..] = rest else { return Err(usage()) };
                let what = crate::ui::export::ExportWhat::from_name(what).ok_or_else(usage)?;
                let [w, h, fps] = numbers::<3>(&[w, h, fps], line)?;
                let path = rest[4..].join(" ");
                if !(16.0..=4096.0).contains(&w)
                    || !(16.0..=4096.0).contains(&h)
                    || !(1.0..=60.0).contains(&fps)
                    || path.is_empty()
                {
                    return Err(usage());
                }
                ScriptStep::ExportAnimation {
                    what,
                    size: [w as u32, h as u32],
                    fps: f64::from(fps),
                    path: PathBuf::from(path),
                }
            }
            "screenshot" => ScriptStep::Screenshot(PathBuf::from(trimmed["screenshot".len()..].trim())),
            "window-screenshot" => {
                ScriptStep::WindowScreenshot(PathBuf::from(trimmed["window-screenshot".len()..].trim()))
            }
            "capture" => ScriptStep::Capture(PathBuf::from(trimmed["capture".len()..].trim())),
            "save-pose" => ScriptStep::SavePose(PathBuf::from(trimmed["save-pose".len()..].trim())),
            "load-pose" => {
                let source = trimmed["load-pose".len()..].trim();
                if source.is_empty() {
                    bail!("line {line}: 'load-pose' needs a pose file or builtin:NAME");
                }
                ScriptStep::LoadPose(source.to_string())
            }
            "screenshot-overlays" => match rest {
                ["on"] => ScriptStep::ScreenshotOverlays(true),
                ["off"] => ScriptStep::ScreenshotOverlays(false),
                _ => bail!("line {line}: 'screenshot-overlays' takes on or off"),
            },
            "play" => none().map(|_| ScriptStep::Play)?,
            "open-dialog" => none().map(|_| ScriptStep::OpenDialog)?,
            "pose-library" => match rest {
                ["on"] => ScriptStep::PoseLibrary(true),
                ["off"] => ScriptStep::PoseLibrary(false),
                _ => bail!("line {line}: 'pose-library' takes on or off"),
            },
            "mapping" => ScriptStep::Mapping(PathBuf::from(trimmed["mapping".len()..].trim())),
            "map" => {
                let Some((source, targets)) = rest.split_first() else {
                    bail!("line {line}: 'map' takes a capture joint and the H-Anim joints it drives (none: nothing)")
                };
                ScriptStep::Map((*source).to_string(), targets.iter().map(|t| (*t).to_string()).collect())
            }
            "reach" | "drag" => {
                let (to_root, rest) = match rest {
                    [body @ .., "root"] => (true, body),
                    _ => (false, rest),
                };
                let Some((effector, values)) = rest.split_first() else {
                    bail!("line {line}: '{}' takes an effector and X Y Z (and 'root')", words[0])
                };
                let (effector, target) = ((*effector).to_string(), numbers::<3>(values, line)?);
                if words[0] == "reach" {
                    ScriptStep::Reach(effector, target, to_root)
                } else {
                    ScriptStep::Drag(effector, target, to_root)
                }
            }
            "pin" => ScriptStep::Pin(one("effector (Site or joint)")?),
            "expect" => {
                let Some((effector, values)) = rest.split_first() else {
                    bail!("line {line}: 'expect' takes an effector, X Y Z and a tolerance")
                };
                let [x, y, z, tolerance] = numbers::<4>(values, line)?;
                ScriptStep::Expect((*effector).to_string(), [x, y, z], tolerance)
            }
            "key" => none().map(|_| ScriptStep::Key)?,
            "key-move" => {
                let [from, to] = numbers::<2>(rest, line)?;
                if !(from >= 0.0 && to >= 0.0 && from.is_finite() && to.is_finite()) {
                    bail!("line {line}: 'key-move' takes two times in seconds ≥ 0");
                }
                ScriptStep::KeyMove(f64::from(from), f64::from(to))
            }
            "key-delete" => {
                let [t] = numbers::<1>(rest, line)?;
                ScriptStep::KeyDelete(f64::from(t))
            }
            "export" => parse_export(rest, line)?,
            "export-gltf" => {
                let current_pose = rest.first() == Some(&"--current-pose");
                let path = rest[usize::from(current_pose)..].join(" ");
                if path.is_empty() {
                    bail!("line {line}: 'export-gltf' needs a file name");
                }
                ScriptStep::ExportGltf { path: PathBuf::from(path), current_pose }
            }
            other => bail!("line {line}: unknown action '{other}'"),
        };
        if matches!(&step, ScriptStep::Open(p) | ScriptStep::WindowScreenshot(p) | ScriptStep::Capture(p) | ScriptStep::Mapping(p) | ScriptStep::SavePose(p) if p.as_os_str().is_empty())
        {
            bail!("line {line}: '{}' needs a file name", words[0]);
        }
        if matches!(&step, ScriptStep::View(v) if v.is_empty()) {
            bail!("line {line}: 'view' needs a name or number");
        }
        steps.push(ScriptLine { line, step });
    }
    Ok(steps)
}

/// `export FILE [--as-interpolators] [--fps N] [--rest-pose]` (the file name may hold spaces).
fn parse_export(words: &[&str], line: usize) -> Result<ScriptStep> {
    let (mut as_interpolators, mut fps, mut rest_pose, mut path) = (false, None, false, Vec::new());
    let mut i = 0;
    while i < words.len() {
        match words[i] {
            "--as-interpolators" => as_interpolators = true,
            "--rest-pose" => rest_pose = true,
            "--fps" => {
                let value = words.get(i + 1).and_then(|w| w.parse::<f64>().ok()).filter(|v| *v > 0.0 && *v <= 240.0);
                fps = Some(value.with_context(|| format!("line {line}: '--fps' takes frames per second (1 to 240)"))?);
                i += 1;
            }
            word => path.push(word),
        }
        i += 1;
    }
    if path.is_empty() {
        bail!("line {line}: 'export' needs a file name");
    }
    Ok(ScriptStep::SaveX3d { path: PathBuf::from(path.join(" ")), as_interpolators, fps, rest_pose })
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlay_and_pick_vertex_steps_parse() {
        use crate::pose::skin_inspection::OverlayChoice;
        let steps =
            parse_script("overlay heatmap:l_shoulder\noverlay influences\noverlay off\npick-vertex 12 30.5\n").unwrap();
        let steps: Vec<ScriptStep> = steps.into_iter().map(|s| s.step).collect();
        assert_eq!(
            steps,
            vec![
                ScriptStep::Overlay(OverlayChoice::Heatmap(Some("l_shoulder".into()))),
                ScriptStep::Overlay(OverlayChoice::Influences),
                ScriptStep::Overlay(OverlayChoice::Off),
                ScriptStep::PickVertex(12.0, 30.5),
            ]
        );
        assert!(parse_script("overlay weights\n").unwrap_err().to_string().contains("line 1"));
        assert!(parse_script("pick-vertex 3\n").is_err());
        assert!(parse_script("pick-vertex -1 4\n").is_err());
    }

    #[test]
    fn scripts_parse_and_report_bad_lines() {
        let s = parse_script(
            "# pose an arm\nselect l_shoulder\nrotate l_shoulder 0 0 90\n\ndisplacer l_eyebrow 0.5\nview Front\nwait 3\nscreenshot /tmp/a b.png\nlimits off\nquit\n",
        )
        .unwrap();
        assert_eq!(s.len(), 8);
        assert_eq!(s[1].step, ScriptStep::Rotate("l_shoulder".into(), [0.0, 0.0, 90.0]));
        assert_eq!(s[1].line, 3);
        assert_eq!(s[5].step, ScriptStep::Screenshot(PathBuf::from("/tmp/a b.png")));
        assert!(parse_script("rotate l_knee 1 2").unwrap_err().to_string().contains("line 1"));
        assert!(parse_script("\njump").unwrap_err().to_string().contains("line 2: unknown action 'jump'"));
        assert_eq!(parse_script("screenshot").unwrap()[0].step, ScriptStep::Screenshot(PathBuf::new()));
        assert_eq!(parse_script("screenshot-overlays on").unwrap()[0].step, ScriptStep::ScreenshotOverlays(true));
        assert!(parse_script("screenshot-overlays").is_err());
        assert_eq!(parse_script("play\nopen-dialog").unwrap()[1].step, ScriptStep::OpenDialog);
        assert_eq!(
            parse_script("window-screenshot /tmp/w s.png").unwrap()[0].step,
            ScriptStep::WindowScreenshot(PathBuf::from("/tmp/w s.png"))
        );
        assert!(parse_script("window-screenshot").unwrap_err().to_string().contains("needs a file name"));
        assert_eq!(
            parse_script("screenshot-size 320 200").unwrap()[0].step,
            ScriptStep::ScreenshotSize(Some([320, 200]))
        );
        assert_eq!(parse_script("screenshot-size view").unwrap()[0].step, ScriptStep::ScreenshotSize(None));
        assert!(parse_script("screenshot-size 320").is_err());
        assert!(parse_script("screenshot-size 0 200").is_err());
        assert!(parse_script("screenshot-size 320.5 200").is_err());
        assert_eq!(parse_script("rest 2.5 1").unwrap()[0].step, ScriptStep::Rest { seconds: 2.5, max_frames: 1 });
        for bad in ["rest", "rest 2", "rest 0 1", "rest 2 1.5", "rest 2 -1"] {
            assert!(parse_script(bad).is_err(), "{bad}");
        }
        let capture =
            parse_script("capture /c/07_05.amc\nmapping m.txt\nmap lhumerus\nmap rfemur r_hip r_knee").unwrap();
        assert_eq!(capture[0].step, ScriptStep::Capture(PathBuf::from("/c/07_05.amc")));
        assert_eq!(capture[1].step, ScriptStep::Mapping(PathBuf::from("m.txt")));
        assert_eq!(capture[2].step, ScriptStep::Map("lhumerus".into(), vec![]));
        assert_eq!(capture[3].step, ScriptStep::Map("rfemur".into(), vec!["r_hip".into(), "r_knee".into()]));
        assert!(parse_script("map").unwrap_err().to_string().contains("line 1: 'map' takes"));
        assert_eq!(parse_script("humanoid 2").unwrap()[0].step, ScriptStep::Humanoid("2".into()));
        let two = SceneSummary { humanoid_names: vec!["a".into(), "b".into()], ..SceneSummary::default() };
        assert_eq!(
            commands_for(&ScriptStep::Humanoid("2".into()), &two, 1).unwrap(),
            [UiCommand::SelectHumanoid(crate::hanim::HumanoidIndex(1))]
        );
        assert_eq!(
            commands_for(&ScriptStep::Humanoid("a".into()), &two, 1).unwrap(),
            [UiCommand::SelectHumanoid(crate::hanim::HumanoidIndex(0))]
        );
        let e = commands_for(&ScriptStep::Humanoid("3".into()), &two, 4).unwrap_err().to_string();
        assert_eq!(e, "line 4: no humanoid '3' (the file has 2: a, b)");
        assert_eq!(parse_script("play-as-file on").unwrap()[0].step, ScriptStep::PlayAsFile(true));
        assert_eq!(parse_script("time 1.5").unwrap()[0].step, ScriptStep::Time(1.5));
        assert!(parse_script("play-as-file").is_err());
        assert!(parse_script("time -1").is_err());
        assert_eq!(parse_script("click 10 20.5").unwrap()[0].step, ScriptStep::Click(ClickAt::Pixel(10.0, 20.5)));
        assert_eq!(
            parse_script("click Walk_Touch").unwrap()[0].step,
            ScriptStep::Click(ClickAt::Node("Walk_Touch".into()))
        );
        assert!(parse_script("click 1 2 3").unwrap_err().to_string().contains("'click' takes pixel coordinates"));
        assert!(parse_script("click -1 2").is_err());
        assert!(parse_script("click").is_err());
        assert!(parse_script("capture").unwrap_err().to_string().contains("needs a file name"));
        let poses = parse_script("save-pose /tmp/a pose.json\nload-pose builtin:t-pose\npose-library on").unwrap();
        assert_eq!(poses[0].step, ScriptStep::SavePose(PathBuf::from("/tmp/a pose.json")));
        assert_eq!(poses[1].step, ScriptStep::LoadPose("builtin:t-pose".into()));
        assert_eq!(poses[2].step, ScriptStep::PoseLibrary(true));
        assert!(parse_script("save-pose").unwrap_err().to_string().contains("needs a file name"));
        assert!(parse_script("load-pose").unwrap_err().to_string().contains("line 1: 'load-pose' needs"));
        assert!(parse_script("pose-library maybe").is_err());
        let keys = parse_script("key\nkey-move 1 2.5\nkey-delete 2.5\nexport /tmp/a b.x3d --as-interpolators --fps 24")
            .unwrap();
        assert_eq!(keys[0].step, ScriptStep::Key);
        assert_eq!(keys[1].step, ScriptStep::KeyMove(1.0, 2.5));
        assert_eq!(keys[2].step, ScriptStep::KeyDelete(2.5));
        assert_eq!(
            keys[3].step,
            ScriptStep::SaveX3d {
                path: PathBuf::from("/tmp/a b.x3d"),
                as_interpolators: true,
                fps: Some(24.0),
                rest_pose: false
            }
        );
        assert!(parse_script("key 1").is_err());
        assert!(parse_script("key-move 1").is_err());
        assert!(parse_script("export --fps 0 a.x3d").unwrap_err().to_string().contains("'--fps' takes"));
        assert!(parse_script("export --rest-pose").unwrap_err().to_string().contains("needs a file name"));
        let gltf = parse_script("export-gltf /tmp/a b.glb\nexport-gltf --current-pose c.gltf").unwrap();
        assert_eq!(gltf[0].step, ScriptStep::ExportGltf { path: PathBuf::from("/tmp/a b.glb"), current_pose: false });
        assert_eq!(gltf[1].step, ScriptStep::ExportGltf { path: PathBuf::from("c.gltf"), current_pose: true });
        assert!(parse_script("export-gltf --current-pose").unwrap_err().to_string().contains("needs a file name"));
    }
}
