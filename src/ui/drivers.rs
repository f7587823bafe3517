//! What sets a slider's value besides the user, in the words the panels show: the clip that drives a
//! joint or displacer (an applied capture's clip named as the capture) and the IK reach that turned a
//! joint last. Nothing is driven before the transport drives the figure (the file's rest pose shown).

use std::collections::BTreeMap;

use crate::animation::Transport;
use crate::hanim::HumanoidIndex;

/// An applied motion capture: its clip's index in the transport and its title.
#[derive(Debug, Clone, Copy)]
pub struct CaptureClip<'a> {
    pub clip: usize,
    pub title: &'a str,
}

/// Per joint of humanoid `humanoid`, what sets it: "clip 'NAME'", "capture 'TITLE'" or
/// "IK (reach of EFFECTOR)" (`reached`: the joints an IK reach turned last, see
/// [`PoseEditor::reached`](crate::ui::PoseEditor::reached)). A joint can have a clip and an IK line.
pub fn joint_driver_lines(
    transport: &Transport,
    humanoid: HumanoidIndex,
    capture: Option<CaptureClip<'_>>,
    reached: &BTreeMap<usize, String>,
) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    if transport.engaged {
        for (joint, clip) in transport.animations.joint_drivers(humanoid) {
            let source = match capture {
                Some(c) if c.clip == clip => format!("capture '{}'", c.title),
                _ => format!("clip '{}'", transport.animations.clips[clip].name()),
            };
            out.push((joint, source));
        }
    }
    out.extend(reached.iter().map(|(&joint, effector)| (joint, format!("IK (reach of {effector})"))));
    out
}

/// Per displacer of humanoid `humanoid` that a clip sets, the clip's name.
pub fn displacer_driver_lines(transport: &Transport, humanoid: HumanoidIndex) -> Vec<(usize, String)> {
    if transport.engaged { transport.animations.displacer_drivers(humanoid) } else { Vec::new() }
}
