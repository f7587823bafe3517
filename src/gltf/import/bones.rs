//! glTF bone names to H-Anim 2.0 joint names: VRM humanoid bones (0.x and 1.0), Mixamo and Blender's
//! Rigify (deform `DEF-` bones, also the metarig's plain names). `docs/gltf.md` prints the same tables.
//! A name no table knows is kept as it is.

/// VRM humanoid bone → H-Anim joint. VRM 0.x and 1.0 share the names except the thumb: 1.0 has
/// Metacarpal/Proximal/Distal, 0.x Proximal/Intermediate/Distal (see [`vrm_joint`]).
const VRM_CENTRE: [(&str, &str); 8] = [
    ("hips", "humanoid_root"),
    ("spine", "vl5"),
    ("chest", "vt10"),
    ("upperChest", "vt1"),
    ("neck", "vc4"),
    ("head", "skullbase"),
    ("jaw", "temporomandibular"),
    ("eye", "eyeball_joint"),
];

/// Sided VRM bones (`left`/`right` + name) → H-Anim joint without its `l_`/`r_` prefix.
const VRM_SIDED: [(&str, &str); 21] = [
    ("Eye", "eyeball_joint"),
    ("UpperLeg", "hip"),
    ("LowerLeg", "knee"),
    ("Foot", "talocrural"),
    ("Toes", "metatarsophalangeal_2"),
    ("Shoulder", "sternoclavicular"),
    ("UpperArm", "shoulder"),
    ("LowerArm", "elbow"),
    ("Hand", "radiocarpal"),
    ("IndexProximal", "metacarpophalangeal_2"),
    ("IndexIntermediate", "carpal_proximal_interphalangeal_2"),
    ("IndexDistal", "carpal_distal_interphalangeal_2"),
    ("MiddleProximal", "metacarpophalangeal_3"),
    ("MiddleIntermediate", "carpal_proximal_interphalangeal_3"),
    ("MiddleDistal", "carpal_distal_interphalangeal_3"),
    ("RingProximal", "metacarpophalangeal_4"),
    ("RingIntermediate", "carpal_proximal_interphalangeal_4"),
    ("RingDistal", "carpal_distal_interphalangeal_4"),
    ("LittleProximal", "metacarpophalangeal_5"),
    ("LittleIntermediate", "carpal_proximal_interphalangeal_5"),
    ("LittleDistal", "carpal_distal_interphalangeal_5"),
];

/// The thumb: VRM 1.0 names, then VRM 0.x names.
const VRM1_THUMB: [(&str, &str); 3] = [
    ("ThumbMetacarpal", "carpometacarpal_1"),
    ("ThumbProximal", "metacarpophalangeal_1"),
    ("ThumbDistal", "carpal_interphalangeal_1"),
];
const VRM0_THUMB: [(&str, &str); 3] = [
    ("ThumbProximal", "carpometacarpal_1"),
    ("ThumbIntermediate", "metacarpophalangeal_1"),
    ("ThumbDistal", "carpal_interphalangeal_1"),
];

/// The H-Anim joint of VRM humanoid bone `bone` (`vrm0`: the 0.x thumb names).
pub fn vrm_joint(bone: &str, vrm0: bool) -> Option<String> {
    if let Some((_, j)) = VRM_CENTRE.iter().find(|(b, _)| *b == bone) {
        return (bone != "eye").then(|| j.to_string());
    }
    let (side, rest) = if let Some(r) = bone.strip_prefix("left") {
        ("l_", r)
    } else if let Some(r) = bone.strip_prefix("right") {
        ("r_", r)
    } else {
        return None;
    };
    let thumb: &[(&str, &str)] = if vrm0 { &VRM0_THUMB } else { &VRM1_THUMB };
    VRM_SIDED.iter().chain(thumb).find(|(b, _)| *b == rest).map(|(_, j)| format!("{side}{j}"))
}

/// Mixamo bone (after its `mixamorig:`-style prefix) → H-Anim joint.
const MIXAMO_CENTRE: [(&str, &str); 6] = [
    ("Hips", "humanoid_root"),
    ("Spine", "vl5"),
    ("Spine1", "vt10"),
    ("Spine2", "vt1"),
    ("Neck", "vc4"),
    ("Head", "skullbase"),
];
const MIXAMO_SIDED: [(&str, &str); 21] = [
    ("Shoulder", "sternoclavicular"),
    ("Arm", "shoulder"),
    ("ForeArm", "elbow"),
    ("Hand", "radiocarpal"),
    ("HandThumb1", "carpometacarpal_1"),
    ("HandThumb2", "metacarpophalangeal_1"),
    ("HandThumb3", "carpal_interphalangeal_1"),
    ("HandIndex1", "metacarpophalangeal_2"),
    ("HandIndex2", "carpal_proximal_interphalangeal_2"),
    ("HandIndex3", "carpal_distal_interphalangeal_2"),
    ("HandMiddle1", "metacarpophalangeal_3"),
    ("HandMiddle2", "carpal_proximal_interphalangeal_3"),
    ("HandMiddle3", "carpal_distal_interphalangeal_3"),
    ("HandRing1", "metacarpophalangeal_4"),
    ("HandRing2", "carpal_proximal_interphalangeal_4"),
    ("HandRing3", "carpal_distal_interphalangeal_4"),
    ("HandPinky1", "metacarpophalangeal_5"),
    ("HandPinky2", "carpal_proximal_interphalangeal_5"),
    ("HandPinky3", "carpal_distal_interphalangeal_5"),
    ("UpLeg", "hip"),
    ("Leg", "knee"),
];
const MIXAMO_FEET: [(&str, &str); 2] = [("Foot", "talocrural"), ("ToeBase", "metatarsophalangeal_2")];

fn mixamo_joint(name: &str) -> Option<String> {
    // `mixamorig:Hips`, `mixamorig_Hips`, `mixamorig1:Hips`; glTF exporters turn ':' into '_'.
    let lower = name.to_ascii_lowercase();
    if !lower.starts_with("mixamorig") {
        return None;
    }
    let bone = name.split_once([':', '_']).map(|(_, b)| b)?;
    if let Some((_, j)) = MIXAMO_CENTRE.iter().find(|(b, _)| *b == bone) {
        return Some(j.to_string());
    }
    let (side, rest) = match (bone.strip_prefix("Left"), bone.strip_prefix("Right")) {
        (Some(r), _) => ("l_", r),
        (_, Some(r)) => ("r_", r),
        _ => return None,
    };
    MIXAMO_SIDED.iter().chain(&MIXAMO_FEET).find(|(b, _)| *b == rest).map(|(_, j)| format!("{side}{j}"))
}

/// Rigify deform bones (`DEF-thigh.L`) and the metarig's names (`thigh.L`).
const RIGIFY_CENTRE: [(&str, &str); 7] = [
    ("spine", "humanoid_root"),
    ("spine.001", "vl5"),
    ("spine.002", "vt10"),
    ("spine.003", "vt1"),
    ("spine.004", "vc4"),
    ("spine.005", "vc2"),
    ("spine.006", "skullbase"),
];
const RIGIFY_SIDED: [(&str, &str); 23] = [
    ("thigh", "hip"),
    ("shin", "knee"),
    ("foot", "talocrural"),
    ("toe", "metatarsophalangeal_2"),
    ("shoulder", "sternoclavicular"),
    ("upper_arm", "shoulder"),
    ("forearm", "elbow"),
    ("hand", "radiocarpal"),
    ("thumb.01", "carpometacarpal_1"),
    ("thumb.02", "metacarpophalangeal_1"),
    ("thumb.03", "carpal_interphalangeal_1"),
    ("f_index.01", "metacarpophalangeal_2"),
    ("f_index.02", "carpal_proximal_interphalangeal_2"),
    ("f_index.03", "carpal_distal_interphalangeal_2"),
    ("f_middle.01", "metacarpophalangeal_3"),
    ("f_middle.02", "carpal_proximal_interphalangeal_3"),
    ("f_middle.03", "carpal_distal_interphalangeal_3"),
    ("f_ring.01", "metacarpophalangeal_4"),
    ("f_ring.02", "carpal_proximal_interphalangeal_4"),
    ("f_ring.03", "carpal_distal_interphalangeal_4"),
    ("f_pinky.01", "metacarpophalangeal_5"),
    ("f_pinky.02", "carpal_proximal_interphalangeal_5"),
    ("f_pinky.03", "carpal_distal_interphalangeal_5"),
];

fn rigify_joint(name: &str) -> Option<String> {
    let bone = name.strip_prefix("DEF-").or_else(|| name.strip_prefix("DEF_")).unwrap_or(name);
    if let Some((_, j)) = RIGIFY_CENTRE.iter().find(|(b, _)| *b == bone) {
        return Some(j.to_string());
    }
    let (rest, side) = match (bone.strip_suffix(".L"), bone.strip_suffix(".R")) {
        (Some(r), _) => (r, "l_"),
        (_, Some(r)) => (r, "r_"),
        _ => return None,
    };
    RIGIFY_SIDED.iter().find(|(b, _)| *b == rest).map(|(_, j)| format!("{side}{j}"))
}

/// The H-Anim name of a glTF node used as a joint, from the Mixamo or Rigify tables; `None` keeps the
/// node's own name. (VRM bones are mapped by the VRM extension's bone list, [`vrm_joint`].)
pub fn rig_joint(name: &str) -> Option<String> {
    mixamo_joint(name).or_else(|| rigify_joint(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mapped_name_is_a_standard_hanim_joint() {
        let known = |n: &str| crate::names::standard::LOA4_JOINTS.contains(&n);
        let mut names = Vec::new();
        for bone in ["hips", "spine", "chest", "upperChest", "neck", "head", "jaw", "leftEye", "rightHand"] {
            names.push(vrm_joint(bone, false).unwrap());
        }
        for (b, _) in VRM_SIDED.iter().chain(&VRM1_THUMB).chain(&VRM0_THUMB) {
            names.push(vrm_joint(&format!("left{b}"), false).or_else(|| vrm_joint(&format!("left{b}"), true)).unwrap());
        }
        for (b, _) in MIXAMO_SIDED.iter().chain(&MIXAMO_FEET) {
            names.push(rig_joint(&format!("mixamorig:Right{b}")).unwrap());
        }
        for (b, _) in RIGIFY_CENTRE.iter().chain(&RIGIFY_SIDED) {
            let side = if RIGIFY_SIDED.iter().any(|(s, _)| s == b) { ".R" } else { "" };
            names.push(rig_joint(&format!("DEF-{b}{side}")).unwrap());
        }
        for name in &names {
            assert!(known(name), "{name} is not an H-Anim 2.0 joint name");
        }
        assert_eq!(vrm_joint("leftThumbProximal", true).as_deref(), Some("l_carpometacarpal_1"));
        assert_eq!(vrm_joint("leftThumbProximal", false).as_deref(), Some("l_metacarpophalangeal_1"));
        assert_eq!(rig_joint("mixamorig_Hips").as_deref(), Some("humanoid_root"));
        assert_eq!(rig_joint("Armature"), None);
    }
}
