//! What drives what: the joints and displacers of a humanoid that an enabled clip sets, with the clip
//! that wins (the last one in list order, as [`Animations::apply`] writes them). The panels mark those
//! sliders with the clip's name, so a value the user did not set is explained.

use super::{Animations, ClipSource, TargetField};
use crate::hanim::HumanoidIndex;

impl Animations {
    /// The displacers of humanoid `humanoid` that an enabled clip sets, with the clip's name (the last
    /// such clip, the one that wins): their sliders say so.
    pub fn displacer_drivers(&self, humanoid: HumanoidIndex) -> Vec<(usize, String)> {
        let mut out: Vec<(usize, String)> = Vec::new();
        for clip in self.clips.iter().filter(|c| c.enabled && c.unsupported().is_none()) {
            let ClipSource::Interpolators(c) = &clip.source else { continue };
            for track in c.tracks.iter().filter(|t| t.humanoid == humanoid) {
                if let TargetField::DisplacerWeight(d) = track.target {
                    out.retain(|(other, _)| *other != d);
                    out.push((d, clip.name().to_string()));
                }
            }
        }
        out.sort();
        out
    }

    /// The joints of humanoid `humanoid` whose rotation or translation an enabled clip sets, with the
    /// index of the clip that wins (the last one that drives the joint), in joint order.
    pub fn joint_drivers(&self, humanoid: HumanoidIndex) -> Vec<(usize, usize)> {
        let mut winner: std::collections::BTreeMap<usize, usize> = std::collections::BTreeMap::new();
        for (index, clip) in self.clips.iter().enumerate().filter(|(_, c)| c.enabled && c.unsupported().is_none()) {
            let joints: Vec<usize> = match &clip.source {
                ClipSource::Motion { humanoid: of, motion } if *of == humanoid => motion
                    .groups
                    .iter()
                    .filter(|g| g.drives_rotation() || g.drives_translation())
                    .filter_map(|g| g.joint)
                    .collect(),
                ClipSource::Authored { humanoid: of, clip } if *of == humanoid => {
                    clip.joints().into_iter().chain(clip.root.filter(|_| !clip.keys.is_empty())).collect()
                }
                ClipSource::Interpolators(c) => c
                    .tracks
                    .iter()
                    .filter(|t| t.humanoid == humanoid)
                    .filter_map(|t| match t.target {
                        TargetField::JointRotation(j) | TargetField::JointTranslation(j) => Some(j),
                        _ => None,
                    })
                    .collect(),
                ClipSource::Motion { .. } | ClipSource::Authored { .. } => Vec::new(),
            };
            for joint in joints {
                winner.insert(joint, index);
            }
        }
        winner.into_iter().collect()
    }
}
