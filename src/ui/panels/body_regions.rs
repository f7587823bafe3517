//! The body regions the joint tree groups joints by, read from H-Anim joint names (ISO/IEC 19774-1,
//! clause 6.3 and Annex A: `l_`/`r_` sides, the LOA 1–4 names of arm, hand, leg and foot joints). A
//! joint whose name says nothing (a vertebra, a face joint, a name the standard does not have) belongs to
//! its parent's region; the root's region is the spine.

use crate::ui::scene::SceneSummary;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Region {
    SpineHead,
    LeftArm,
    LeftHand,
    RightArm,
    RightHand,
    LeftLeg,
    LeftFoot,
    RightLeg,
    RightFoot,
}

impl Region {
    /// In the order the tree lists them.
    pub const ALL: [Region; 9] = [
        Region::SpineHead,
        Region::LeftArm,
        Region::LeftHand,
        Region::RightArm,
        Region::RightHand,
        Region::LeftLeg,
        Region::LeftFoot,
        Region::RightLeg,
        Region::RightFoot,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Region::SpineHead => "Spine, neck and head",
            Region::LeftArm => "Left arm",
            Region::LeftHand => "Left hand",
            Region::RightArm => "Right arm",
            Region::RightHand => "Right hand",
            Region::LeftLeg => "Left leg",
            Region::LeftFoot => "Left foot",
            Region::RightLeg => "Right leg",
            Region::RightFoot => "Right foot",
        }
    }

    /// Hands and feet hold many small joints: their groups start closed.
    pub fn open_by_default(self) -> bool {
        !matches!(self, Region::LeftHand | Region::RightHand | Region::LeftFoot | Region::RightFoot)
    }
}

/// Arm joints: clavicle to elbow, and the wrist (LOA 1–3 `wrist`, LOA 4 `radiocarpal`).
const ARM: &[&str] = &["sternoclavicular", "acromioclavicular", "shoulder", "elbow", "wrist", "radiocarpal"];
/// Hand joints past the wrist (LOA 4 and the LOA 2/3 finger names).
const HAND: &[&str] =
    &["midcarpal", "carpometacarpal", "metacarpophalangeal", "carpal_", "thumb", "index", "middle", "ring", "pinky"];
const LEG: &[&str] = &["hip", "knee"];
/// The ankle (`ankle`, LOA 4 `talocrural`) and every joint of the foot.
const FOOT: &[&str] = &[
    "ankle",
    "talocrural",
    "subtalar",
    "midtarsal",
    "metatarsal",
    "talocalcaneonavicular",
    "cuneonavicular",
    "tarsometatarsal",
    "metatarsophalangeal",
    "tarsal_",
    "calcaneocuboid",
    "transversetarsal",
];

/// The region a joint's own name gives, if it gives one (the humanoid's name prefix, as in
/// `hanim_l_elbow`, is looked through).
pub fn region_of_name(name: &str) -> Option<Region> {
    let lower = name.to_ascii_lowercase();
    let (left, rest) = ["l_", "r_"].iter().find_map(|side| {
        lower.match_indices(side).find(|(i, _)| *i == 0 || lower.as_bytes()[i - 1] == b'_').map(|(i, _)| {
            let rest = lower[i + 2..].to_string();
            (*side == "l_", rest)
        })
    })?;
    let has = |words: &[&str]| words.iter().any(|w| rest.starts_with(w));
    let (arm, hand, leg, foot) = if left {
        (Region::LeftArm, Region::LeftHand, Region::LeftLeg, Region::LeftFoot)
    } else {
        (Region::RightArm, Region::RightHand, Region::RightLeg, Region::RightFoot)
    };
    // Hand before arm and foot before leg: `metacarpophalangeal` is not a `carpal_` of the wrist, and
    // `metatarsal`/`tarsal_` are the foot's.
    if has(HAND) {
        Some(hand)
    } else if has(ARM) {
        Some(arm)
    } else if has(FOOT) {
        Some(foot)
    } else if has(LEG) {
        Some(leg)
    } else {
        None
    }
}

/// Each joint's region: its name's, else its parent's (parents come before children in the summary).
pub fn joint_regions(scene: &SceneSummary) -> Vec<Region> {
    let mut regions: Vec<Region> = Vec::with_capacity(scene.joints.len());
    for j in &scene.joints {
        let inherited = j.parent.and_then(|p| regions.get(p).copied()).unwrap_or(Region::SpineHead);
        regions.push(region_of_name(&j.name).unwrap_or(inherited));
    }
    regions
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hanim_names_give_their_regions() {
        for (name, region) in [
            ("l_elbow", Some(Region::LeftArm)),
            ("hanim_r_shoulder", Some(Region::RightArm)),
            ("l_radiocarpal", Some(Region::LeftArm)),
            ("l_wrist", Some(Region::LeftArm)),
            ("l_carpal_distal_interphalangeal_2", Some(Region::LeftHand)),
            ("r_metacarpophalangeal_1", Some(Region::RightHand)),
            ("l_index2", Some(Region::LeftHand)),
            ("r_hip", Some(Region::RightLeg)),
            ("r_knee", Some(Region::RightLeg)),
            ("l_talocrural", Some(Region::LeftFoot)),
            ("l_metatarsal", Some(Region::LeftFoot)),
            ("l_tarsal_distal_interphalangeal_1", Some(Region::LeftFoot)),
            ("l_eyeball_joint", None),
            ("vl5", None),
            ("skullbase", None),
            ("humanoid_root", None),
        ] {
            assert_eq!(region_of_name(name), region, "{name}");
        }
    }
}
