//! Which H-Anim joint each source joint (ASF bone or BVH joint) drives.
//!
//! Text form, one entry per line: `SOURCE TARGET…`; `#` starts a comment. Every listed target that
//! exists in the humanoid receives the source's rotation, so one line can name the HAnim 2.0 joint and its
//! H-Anim 1.x alias (`lfoot l_talocrural l_ankle`) or several joints moved alike (the four knuckles). A
//! source with no targets (`lhipjoint`) drives nothing; its rotation still reaches its descendants, as the
//! retargeting works with global rotations. A source whose listed targets are all missing from the humanoid
//! drives the humanoid joint of its own name, if there is one. `{s}`/`{S}`/`{Side}` in a line expand it into a left and a
//! right line (`l`/`r`, `L`/`R`, `Left`/`Right`). Source names compare without case.

use std::path::Path;

use super::text::{MocapError, Reporter, Syntax, read_text, tokenize};

#[derive(Debug, Clone, PartialEq)]
pub struct MappingEntry {
    pub source: String,
    pub targets: Vec<String>,
    pub line: usize,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mapping {
    pub entries: Vec<MappingEntry>,
}

impl Mapping {
    pub fn targets_of(&self, source: &str) -> Option<&[String]> {
        self.entries.iter().find(|e| e.source.eq_ignore_ascii_case(source)).map(|e| e.targets.as_slice())
    }

    /// How many of `names` this mapping lists as sources.
    pub fn coverage<'a>(&self, names: impl IntoIterator<Item = &'a str>) -> usize {
        names.into_iter().filter(|n| self.targets_of(n).is_some()).count()
    }

    /// The text form (after side expansion).
    pub fn to_text(&self) -> String {
        self.entries.iter().map(|e| format!("{} {}\n", e.source, e.targets.join(" ")).replace(" \n", "\n")).collect()
    }
}

/// CMU ASF bone names → HAnim 2.0 (then H-Anim 1.x) joints, docs/asf-amc.md §6.
pub const CMU_ASF: &str = "\
root humanoid_root HumanoidRoot
{s}hipjoint
{s}femur {s}_hip
{s}tibia {s}_knee
{s}foot {s}_talocrural {s}_ankle
{s}toes {s}_metatarsophalangeal_1 {s}_metatarsophalangeal_2 {s}_metatarsophalangeal_3 {s}_metatarsophalangeal_4 {s}_metatarsophalangeal_5 {s}_metatarsal
lowerback vl5
upperback vl3
thorax vt10
lowerneck vc7
upperneck vc4
head skullbase
{s}clavicle {s}_sternoclavicular
{s}humerus {s}_shoulder
{s}radius {s}_elbow
{s}wrist
{s}hand {s}_radiocarpal {s}_wrist
{s}fingers {s}_metacarpophalangeal_2 {s}_metacarpophalangeal_3 {s}_metacarpophalangeal_4 {s}_metacarpophalangeal_5 {s}_index1 {s}_middle1 {s}_ring1 {s}_pinky1
{s}thumb {s}_carpometacarpal_1 {s}_thumb1
";

/// CMU BVH as converted by MotionBuilder (fairmotion's 01_01.bvh): `LeftUpLeg`, `LeftArm`, `Spine1`, …
pub const CMU_BVH_MOTIONBUILDER: &str = "\
Hips humanoid_root HumanoidRoot
{S}HipJoint
{Side}UpLeg {s}_hip
{Side}Leg {s}_knee
{Side}Foot {s}_talocrural {s}_ankle
{Side}ToeBase {s}_metatarsophalangeal_1 {s}_metatarsophalangeal_2 {s}_metatarsophalangeal_3 {s}_metatarsophalangeal_4 {s}_metatarsophalangeal_5 {s}_metatarsal
LowerBack vl5
Spine vl3
Spine1 vt10
Neck vc7
Neck1 vc4
Head skullbase
{Side}Shoulder {s}_sternoclavicular
{Side}Arm {s}_shoulder
{Side}ForeArm {s}_elbow
{Side}Hand
{Side}FingerBase {s}_radiocarpal {s}_wrist
{S}Fingers {s}_metacarpophalangeal_2 {s}_metacarpophalangeal_3 {s}_metacarpophalangeal_4 {s}_metacarpophalangeal_5 {s}_index1 {s}_middle1 {s}_ring1 {s}_pinky1
{S}Thumb {s}_carpometacarpal_1 {s}_thumb1
";

/// CMU BVH in the 3ds Max-friendly release (bvh11's 131_03.bvh): `LeftHip`, `LeftCollar`, `Chest2`, …
pub const CMU_BVH_MAX: &str = "\
Hips humanoid_root HumanoidRoot
{S}HipJoint
{Side}Hip {s}_hip
{Side}Knee {s}_knee
{Side}Ankle {s}_talocrural {s}_ankle
{Side}Toe {s}_metatarsophalangeal_1 {s}_metatarsophalangeal_2 {s}_metatarsophalangeal_3 {s}_metatarsophalangeal_4 {s}_metatarsophalangeal_5 {s}_metatarsal
lowerback vl5
Chest vl3
Chest2 vt10
lowerneck vc7
Neck vc4
Head skullbase
{Side}Collar {s}_sternoclavicular
{Side}Shoulder {s}_shoulder
{Side}Elbow {s}_elbow
{Side}Wrist
{s}hand {s}_radiocarpal {s}_wrist
{S}Fingers {s}_metacarpophalangeal_2 {s}_metacarpophalangeal_3 {s}_metacarpophalangeal_4 {s}_metacarpophalangeal_5 {s}_index1 {s}_middle1 {s}_ring1 {s}_pinky1
{S}Thumb {s}_carpometacarpal_1 {s}_thumb1
";

/// The built-in table that names the most of `source_names` (ASF, MotionBuilder BVH or Max BVH names).
pub fn default_mapping<'a>(source_names: impl IntoIterator<Item = &'a str> + Clone) -> Mapping {
    [CMU_ASF, CMU_BVH_MOTIONBUILDER, CMU_BVH_MAX]
        .into_iter()
        .map(|text| parse_mapping(text, Path::new("<built-in mapping>")).expect("built-in tables parse"))
        .max_by_key(|m| m.coverage(source_names.clone()))
        .expect("three tables")
}

pub fn load_mapping(path: &Path) -> Result<Mapping, MocapError> {
    parse_mapping(&read_text(path, crate::input::InputKind::Mapping)?, path)
}

pub fn parse_mapping(text: &str, path: &Path) -> Result<Mapping, MocapError> {
    let r = Reporter::new(path);
    let mut mapping = Mapping::default();
    for line in tokenize(text, Syntax { extra_separators: &[], hash_comments: true }) {
        let sided =
            line.tokens.iter().any(|t| t.text.contains("{s}") || t.text.contains("{S}") || t.text.contains("{Side}"));
        let sides: &[(&str, &str, &str)] =
            if sided { &[("l", "L", "Left"), ("r", "R", "Right")] } else { &[("", "", "")] };
        for (s, upper, word) in sides {
            let expand = |t: &str| t.replace("{s}", s).replace("{S}", upper).replace("{Side}", word);
            let source = expand(line.tokens[0].text);
            if let Some(bad) = line.tokens.iter().find(|t| expand(t.text).contains(['{', '}'])) {
                return Err(
                    r.token(bad, format!("unknown placeholder in '{}' (expected {{s}}, {{S}} or {{Side}})", bad.text))
                );
            }
            if let Some(previous) = mapping.entries.iter().find(|e| e.source.eq_ignore_ascii_case(&source)) {
                return Err(
                    r.token(&line.tokens[0], format!("source '{source}' is already mapped on line {}", previous.line))
                );
            }
            let targets = line.tokens[1..].iter().map(|t| expand(t.text)).collect();
            mapping.entries.push(MappingEntry { source, targets, line: line.number });
        }
    }
    if mapping.entries.is_empty() {
        return Err(r.at(0, 0, "the mapping is empty (expected lines of the form 'SOURCE TARGET…')"));
    }
    Ok(mapping)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_placeholders_expand_into_left_and_right_entries() {
        let m = parse_mapping("{Side}UpLeg {s}_hip # thigh\n{S}Thumb\n", Path::new("m.txt")).unwrap();
        assert_eq!(m.targets_of("leftupleg").unwrap(), ["l_hip"]);
        assert_eq!(m.targets_of("RightUpLeg").unwrap(), ["r_hip"]);
        assert!(m.targets_of("RThumb").unwrap().is_empty());
        assert_eq!(m.entries.len(), 4);
    }

    #[test]
    fn the_default_follows_the_source_names() {
        let asf = default_mapping(["root", "lfemur", "ltibia"]);
        assert_eq!(asf.targets_of("lfemur").unwrap(), ["l_hip"]);
        let max = default_mapping(["Hips", "LeftHip", "LeftCollar", "LeftShoulder"]);
        assert_eq!(max.targets_of("LeftShoulder").unwrap(), ["l_shoulder"]);
        let mb = default_mapping(["Hips", "LeftUpLeg", "LeftArm", "LeftShoulder"]);
        assert_eq!(mb.targets_of("LeftShoulder").unwrap(), ["l_sternoclavicular"]);
    }

    #[test]
    fn a_repeated_source_is_an_error_with_its_position() {
        let e = parse_mapping("lfemur l_hip\n  LFEMUR r_hip\n", Path::new("m.txt")).unwrap_err();
        assert_eq!(e.to_string(), "m.txt:2:3: source 'LFEMUR' is already mapped on line 1");
    }
}
