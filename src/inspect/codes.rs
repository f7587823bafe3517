//! Stable diagnostic codes: every `check` rule has one (`HANIM-JOINTS-EMPTY`, …), with the players it is
//! known to break. The guide's table of codes (docs/guide/checking.md) gives each one's clause, what each player does with it (with
//! the tracker issue or source file it was read from) and what `repair` does.

use serde::Serialize;

/// A player (X3D browser) whose reading of a file a finding can break.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Player {
    /// X_ITE (and Sunrize, which is built on it).
    XIte,
    /// Castle Game Engine: view3dscene / castle-model-viewer.
    Castle,
    X3dom,
    FreeWrl,
}

impl Player {
    pub const ALL: [Player; 4] = [Player::XIte, Player::Castle, Player::X3dom, Player::FreeWrl];

    /// The name `check --for` takes.
    pub fn id(self) -> &'static str {
        match self {
            Player::XIte => "x_ite",
            Player::Castle => "castle",
            Player::X3dom => "x3dom",
            Player::FreeWrl => "freewrl",
        }
    }
}

/// What the code table knows about one rule.
#[derive(Debug, Clone, Copy)]
pub struct RuleCode {
    /// The rule id findings carry (`joints-empty`).
    pub rule: &'static str,
    /// Its stable code (`HANIM-JOINTS-EMPTY`).
    pub code: &'static str,
    /// Players that draw or animate the humanoid differently from what the file means because of it.
    pub breaks: &'static [Player],
    /// Whether `repair` fixes it.
    pub repairable: bool,
}

use Player::*;

const fn code(rule: &'static str, code: &'static str, breaks: &'static [Player], repairable: bool) -> RuleCode {
    RuleCode { rule, code, breaks, repairable }
}

/// Every rule `check` applies, in the order of the guide's table (docs/guide/checking.md).
pub const CODES: &[RuleCode] = &[
    // Portability: silent authoring mistakes each player tolerates differently.
    code("joints-empty", "HANIM-JOINTS-EMPTY", &[XIte], true),
    code("joints-incomplete", "HANIM-JOINTS-INCOMPLETE", &[XIte], true),
    code("joints-duplicated", "HANIM-JOINTS-DUPLICATED", &[XIte], true),
    code("skincoord-not-shared", "HANIM-SKINCOORD-NOT-SHARED", &[Castle, FreeWrl], true),
    code("joint-translation-no-center", "HANIM-JOINT-TRANSLATION-NO-CENTER", &[Castle], true),
    code("influences-over-4", "HANIM-INFLUENCES-OVER-4", &[FreeWrl], false),
    code("motion-disabled", "HANIM-MOTION-DISABLED", &[XIte, Castle], true),
    code("coord-empty", "HANIM-COORD-EMPTY", &[Castle], false),
    code("normals-short", "HANIM-NORMALS-SHORT", &[X3dom], true),
    code("site-under-joint", "HANIM-SITE-UNDER-JOINT", &[XIte], false),
    code("geometry-under-joint", "HANIM-GEOMETRY-UNDER-JOINT", &[XIte], false),
    code("skin-no-skincoord", "HANIM-SKIN-NO-SKINCOORD", &[XIte], false),
    code("def-prefix", "HANIM-DEF-PREFIX", &[], true),
    code("weight-sum", "HANIM-WEIGHTS-SUM", &[FreeWrl], true),
    code("unreached-vertex", "HANIM-VERTEX-UNWEIGHTED", &[], false),
    // The file and its humanoids.
    code("no-humanoid", "HANIM-NO-HUMANOID", &[], false),
    code("humanoid-name", "HANIM-HUMANOID-NAME", &[], false),
    code("no-joints", "HANIM-NO-JOINTS", &[], false),
    code("required-name", "HANIM-REQUIRED-NAME", &[], false),
    code("duplicate-name", "HANIM-DUPLICATE-NAME", &[], false),
    code("version", "HANIM-VERSION", &[], false),
    code("loa", "HANIM-LOA", &[], false),
    code("loa-joints", "HANIM-LOA-JOINTS", &[], false),
    code("loa-joint-count", "HANIM-LOA-JOINT-COUNT", &[], false),
    code("weight-range", "HANIM-WEIGHT-RANGE", &[], false),
    code("weight-count", "HANIM-WEIGHT-COUNT", &[XIte], false),
    code("index-range", "HANIM-INDEX-RANGE", &[], false),
    code("limit-count", "HANIM-LIMIT-COUNT", &[], false),
    code("limit-order", "HANIM-LIMIT-ORDER", &[], false),
    code("stiffness-range", "HANIM-STIFFNESS-RANGE", &[], false),
    code("segment-mass", "HANIM-SEGMENT-MASS", &[], false),
    code("site-tip-segment", "HANIM-SITE-TIP-SEGMENT", &[], false),
    code("rest-pose", "HANIM-REST-POSE", &[], false),
    code("motion-channels", "HANIM-MOTION-CHANNELS", &[], false),
    code("motion-channel-count", "HANIM-MOTION-CHANNEL-COUNT", &[], false),
    code("motion-joint", "HANIM-MOTION-JOINT", &[], false),
    code("motion-values", "HANIM-MOTION-VALUES", &[], false),
    code("motion-frame-duration", "HANIM-MOTION-FRAME-DURATION", &[], false),
    code("motion-frame-increment", "HANIM-MOTION-FRAME-INCREMENT", &[], false),
    code("motion-frame-range", "HANIM-MOTION-FRAME-RANGE", &[], false),
    code("motion-loa", "HANIM-MOTION-LOA", &[], false),
    code("motion-channels-enabled", "HANIM-MOTION-CHANNELS-ENABLED", &[], false),
    code("standard-joint-name", "HANIM-STANDARD-JOINT-NAME", &[], false),
    code("root-joint", "HANIM-ROOT-JOINT", &[], false),
    code("site-suffix", "HANIM-SITE-SUFFIX", &[], false),
    code("viewpoint-site-suffix", "HANIM-VIEWPOINT-SITE-SUFFIX", &[], false),
    code("displacer-suffix", "HANIM-DISPLACER-SUFFIX", &[], false),
    code("unbound-skin", "HANIM-UNBOUND-SKIN", &[], false),
    code("use-undefined", "X3D-USE-UNDEFINED", &[XIte, Castle], false),
    code("hanim-component", "X3D-HANIM-COMPONENT", &[XIte], true),
    code("loader", "HANIM-LOADER", &[], false),
    code("gpu-agreement", "HANIM-GPU-AGREEMENT", &[], false),
];

/// The table entry of a rule id.
pub fn of_rule(rule: &str) -> Option<&'static RuleCode> {
    CODES.iter().find(|c| c.rule == rule)
}

/// The table entry of a code (case-insensitive), for `repair --only`.
pub fn of_code(code: &str) -> Option<&'static RuleCode> {
    CODES.iter().find(|c| c.code.eq_ignore_ascii_case(code))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_and_codes_are_unique_and_well_formed() {
        for (i, a) in CODES.iter().enumerate() {
            // HANIM- for the humanoid's rules, X3D- for the file's (X3D-USE-UNDEFINED).
            let prefixed = a.code.starts_with("HANIM-") || a.code.starts_with("X3D-");
            assert!(prefixed && a.code == a.code.to_ascii_uppercase(), "{}", a.code);
            for b in &CODES[i + 1..] {
                assert_ne!(a.rule, b.rule);
                assert_ne!(a.code, b.code);
            }
        }
    }
}
