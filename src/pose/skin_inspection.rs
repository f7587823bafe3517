//! Skin inspection: what the overlays of the window and of `render --overlay` show, as plain data. The
//! GPU computes the same per-point values in a compute kernel (`skin_overlay` in
//! `shaders/skin_morph.wgsl`) and colours them in `shaders/humanoid.wgsl`; this module is the oracle the
//! tests compare both with, and the palette the window's legend draws.
//!
//! Per skin point `i`, from [`Influences::of`](crate::hanim::Influences::of) (zero weights already
//! dropped, repeated pairs summed, so each entry is a distinct joint):
//! - `weight`: the weight the selected joint gives the point (0 when it does not list it),
//! - `count`: how many joints weigh it,
//! - `sum`: Σ w.
//!
//! Segmented figures have no skin: each segment moves with its joint alone, so a segment counts as
//! weighted 100 % by that joint (count 1, sum 1), and geometry that no joint carries as unweighted.

use crate::hanim::Humanoid;

/// What the overlay colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OverlayMode {
    /// The file's materials.
    #[default]
    Off,
    /// The selected joint's weight, on the [`heat`] ramp.
    Heatmap,
    /// How many joints weigh each point ([`INFLUENCE_COLORS`]).
    Influences,
    /// Points no joint weighs, and points whose weights do not sum to 1 ([`weight_sum_color`]).
    WeightSums,
}

impl OverlayMode {
    /// The value of `frame.model.z` in `shaders/humanoid.wgsl`.
    pub fn shader_code(self) -> u32 {
        match self {
            OverlayMode::Off => 0,
            OverlayMode::Heatmap => 1,
            OverlayMode::Influences => 2,
            OverlayMode::WeightSums => 3,
        }
    }
}

/// The values one point (or one rigid segment) carries into the overlay.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PointInfluence {
    /// The selected joint's weight.
    pub weight: f32,
    /// How many joints weigh the point.
    pub count: u32,
    /// The sum of its weights.
    pub sum: f32,
}

impl PointInfluence {
    /// A segment, or a shape carried by one joint: 100 % that joint's.
    pub fn rigid(joint: Option<usize>, selected: Option<usize>) -> Self {
        match joint {
            Some(j) => PointInfluence { weight: if selected == Some(j) { 1.0 } else { 0.0 }, count: 1, sum: 1.0 },
            None => PointInfluence::default(),
        }
    }
}

/// Every skin point's values for the `selected` joint (`None`: no joint selected, weight 0), in skin
/// point order; empty without a skin. Weights are added in the influence list order, as the GPU does.
pub fn point_influences(h: &Humanoid, selected: Option<usize>) -> Vec<PointInfluence> {
    let Some(skin) = &h.skin else { return Vec::new() };
    (0..skin.influences.point_count())
        .map(|i| {
            let mut out = PointInfluence::default();
            for &(joint, w) in skin.influences.of(i) {
                out.count += 1;
                out.sum += w;
                if selected == Some(joint as usize) {
                    out.weight += w;
                }
            }
            out
        })
        .collect()
}

/// One overlay as the command line (`render --overlay`) and window scripts (`overlay …`) name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OverlayChoice {
    /// `heatmap:JOINT` (or `heatmap`: the window's selected joint).
    Heatmap(Option<String>),
    /// `influences`
    Influences,
    /// `unweighted`: unweighted and badly weighted points.
    WeightSums,
    /// `axes`: each joint's local axes.
    Axes,
    /// `sites`: Sites and end effectors.
    Sites,
    /// `off` (window scripts): materials again, no axes or sites.
    Off,
}

impl std::str::FromStr for OverlayChoice {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if let Some(joint) = text.strip_prefix("heatmap:") {
            if joint.trim().is_empty() {
                return Err("heatmap: needs a joint name (heatmap:JOINT)".into());
            }
            return Ok(OverlayChoice::Heatmap(Some(joint.trim().to_string())));
        }
        match text {
            "heatmap" => Ok(OverlayChoice::Heatmap(None)),
            "influences" => Ok(OverlayChoice::Influences),
            "unweighted" => Ok(OverlayChoice::WeightSums),
            "axes" => Ok(OverlayChoice::Axes),
            "sites" => Ok(OverlayChoice::Sites),
            "off" => Ok(OverlayChoice::Off),
            _ => Err(format!(
                "'{text}' is not an overlay: expected heatmap:JOINT, influences, unweighted, axes, sites or off"
            )),
        }
    }
}

/// The overlays of one image or view: one colouring of the surfaces and, independently, the joints'
/// axes and the Sites.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OverlaySet {
    pub mode: OverlayMode,
    /// The heatmap's joint (name or DEF); `None`: no joint (the window uses its selection).
    pub joint: Option<String>,
    pub axes: bool,
    pub sites: bool,
}

impl OverlaySet {
    /// Combines several choices; two colourings of the surfaces are an error.
    pub fn from_choices(choices: &[OverlayChoice]) -> Result<Self, String> {
        let mut set = OverlaySet::default();
        for choice in choices {
            let mode = match choice {
                OverlayChoice::Heatmap(joint) => {
                    set.joint = joint.clone();
                    OverlayMode::Heatmap
                }
                OverlayChoice::Influences => OverlayMode::Influences,
                OverlayChoice::WeightSums => OverlayMode::WeightSums,
                OverlayChoice::Axes => {
                    set.axes = true;
                    continue;
                }
                OverlayChoice::Sites => {
                    set.sites = true;
                    continue;
                }
                OverlayChoice::Off => {
                    set = OverlaySet::default();
                    continue;
                }
            };
            if set.mode != OverlayMode::Off && set.mode != mode {
                return Err("one colouring at a time: heatmap, influences and unweighted exclude each other".into());
            }
            set.mode = mode;
        }
        Ok(set)
    }
}

/// Per humanoid of `doc`, the joint named `name` (node name or DEF); `None` where a humanoid has no such
/// joint. A name no humanoid has is an error listing close names.
pub fn joints_named(doc: &crate::hanim::Document, name: &str) -> Result<Vec<Option<usize>>, crate::names::NotFound> {
    let found: Vec<Option<usize>> = doc
        .humanoids
        .iter()
        .map(|h| h.joints.iter().position(|j| j.name == name || j.def.as_deref() == Some(name)))
        .collect();
    if found.iter().all(Option::is_none) {
        let names = doc.humanoids.iter().flat_map(|h| h.joints.iter().map(|j| j.name.as_str()));
        return Err(crate::names::NotFound::new("joint", name, names));
    }
    Ok(found)
}

/// sRGB colours of 0, 1, 2, 3, 4 and 5 or more influences.
pub const INFLUENCE_COLORS: [[f32; 3]; 6] = [
    [0.35, 0.35, 0.35],
    [0.20, 0.45, 1.00],
    [0.15, 0.75, 0.25],
    [1.00, 0.85, 0.10],
    [1.00, 0.45, 0.05],
    [0.85, 0.10, 0.85],
];

/// The legend of [`INFLUENCE_COLORS`].
pub const INFLUENCE_LABELS: [&str; 6] = ["none", "1", "2", "3", "4", "5+"];

pub fn influence_color(count: u32) -> [f32; 3] {
    INFLUENCE_COLORS[(count as usize).min(INFLUENCE_COLORS.len() - 1)]
}

/// A sum of weights further than this from 1 is highlighted.
pub const WEIGHT_SUM_TOLERANCE: f32 = 0.01;
/// A sum of weights below this counts as no weight at all (a point that stays where it was bound).
pub const WEIGHT_SUM_ZERO: f32 = 1e-4;

/// How a point's weights add up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WeightSum {
    /// No joint weighs it (or the weights sum to about 0): it never moves.
    Unweighted,
    /// The weights sum to less than 1: part of the point stays at its binding position.
    Under,
    /// Within [`WEIGHT_SUM_TOLERANCE`] of 1.
    Normal,
    /// The weights sum to more than 1: the point overshoots its joints.
    Over,
}

impl WeightSum {
    pub fn of(p: &PointInfluence) -> Self {
        if p.count == 0 || p.sum.abs() < WEIGHT_SUM_ZERO {
            WeightSum::Unweighted
        } else if p.sum < 1.0 - WEIGHT_SUM_TOLERANCE {
            WeightSum::Under
        } else if p.sum > 1.0 + WEIGHT_SUM_TOLERANCE {
            WeightSum::Over
        } else {
            WeightSum::Normal
        }
    }

    /// The sRGB colour the overlay gives it.
    pub fn color(self) -> [f32; 3] {
        match self {
            WeightSum::Unweighted => [1.0, 0.0, 1.0],
            WeightSum::Under => [1.0, 0.85, 0.0],
            WeightSum::Normal => [0.72, 0.72, 0.72],
            WeightSum::Over => [1.0, 0.1, 0.05],
        }
    }

    pub const ALL: [WeightSum; 4] = [WeightSum::Normal, WeightSum::Unweighted, WeightSum::Under, WeightSum::Over];

    pub fn label(self) -> &'static str {
        match self {
            WeightSum::Unweighted => "no weight (never moves)",
            WeightSum::Under => "weights sum below 1",
            WeightSum::Normal => "weights sum to 1",
            WeightSum::Over => "weights sum above 1",
        }
    }
}

pub fn weight_sum_color(p: &PointInfluence) -> [f32; 3] {
    WeightSum::of(p).color()
}

/// The heatmap's sRGB colour of weight `w` (clamped to [0, 1]): blue at 0, through cyan, green and
/// yellow, to red at 1. It is the stretch 0.1–0.9 of Turbo (Mikhailov, Google AI 2019, a perceptually
/// ordered rainbow), in its published polynomial form, so both ends stay bright on a dark background.
pub fn heat(w: f32) -> [f32; 3] {
    turbo(HEAT_START + (HEAT_END - HEAT_START) * w.clamp(0.0, 1.0))
}

pub const HEAT_START: f32 = 0.1;
pub const HEAT_END: f32 = 0.9;

/// Turbo's polynomial approximation (x in [0, 1]); the same coefficients as `turbo` in
/// `shaders/humanoid.wgsl`.
pub fn turbo(x: f32) -> [f32; 3] {
    let x = x.clamp(0.0, 1.0);
    let v4 = [1.0, x, x * x, x * x * x];
    let v2 = [v4[2] * v4[2], v4[3] * v4[2]];
    let dot4 = |k: [f32; 4]| k[0] * v4[0] + k[1] * v4[1] + k[2] * v4[2] + k[3] * v4[3];
    let dot2 = |k: [f32; 2]| k[0] * v2[0] + k[1] * v2[1];
    let r = dot4([0.135_721_38, 4.615_392_6, -42.660_324, 132.131_08]) + dot2([-152.942_4, 59.286_38]);
    let g = dot4([0.091_402_61, 2.194_188_4, 4.842_966_6, -14.185_033]) + dot2([4.277_298_6, 2.829_566]);
    let b = dot4([0.106_673_3, 12.641_946, -60.582_047, 110.362_77]) + dot2([-89.903_11, 27.348_25]);
    [r.clamp(0.0, 1.0), g.clamp(0.0, 1.0), b.clamp(0.0, 1.0)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heat_runs_from_blue_to_red() {
        let cold = heat(0.0);
        let hot = heat(1.0);
        assert!(cold[2] > 0.8 && cold[0] < 0.4, "{cold:?}");
        assert!(hot[0] > 0.7 && hot[2] < 0.1, "{hot:?}");
        // Red grows and blue falls over the upper half of the ramp.
        assert!(heat(0.75)[0] > heat(0.5)[0] && heat(0.25)[2] > heat(0.75)[2]);
    }

    #[test]
    fn weight_sums_are_classified_with_the_tolerance() {
        let p = |count, sum| PointInfluence { weight: 0.0, count, sum };
        assert_eq!(WeightSum::of(&p(0, 0.0)), WeightSum::Unweighted);
        assert_eq!(WeightSum::of(&p(1, 0.00001)), WeightSum::Unweighted);
        assert_eq!(WeightSum::of(&p(2, 0.995)), WeightSum::Normal);
        assert_eq!(WeightSum::of(&p(2, 0.9)), WeightSum::Under);
        assert_eq!(WeightSum::of(&p(3, 1.2)), WeightSum::Over);
        assert_eq!(influence_color(9), INFLUENCE_COLORS[5]);
    }

    #[test]
    fn overlay_choices_parse_and_combine() {
        let parse = |t: &str| t.parse::<OverlayChoice>();
        assert_eq!(parse("heatmap:l_shoulder"), Ok(OverlayChoice::Heatmap(Some("l_shoulder".into()))));
        assert_eq!(parse("unweighted"), Ok(OverlayChoice::WeightSums));
        assert!(parse("heatmap:").is_err());
        assert!(parse("weights").unwrap_err().contains("expected heatmap:JOINT"));
        let set = OverlaySet::from_choices(&[OverlayChoice::Influences, OverlayChoice::Axes]).unwrap();
        assert_eq!((set.mode, set.axes, set.sites), (OverlayMode::Influences, true, false));
        assert!(OverlaySet::from_choices(&[OverlayChoice::Influences, OverlayChoice::WeightSums]).is_err());
    }

    #[test]
    fn rigid_segments_are_their_joints_alone() {
        assert_eq!(PointInfluence::rigid(Some(3), Some(3)), PointInfluence { weight: 1.0, count: 1, sum: 1.0 });
        assert_eq!(PointInfluence::rigid(Some(3), Some(4)).weight, 0.0);
        assert_eq!(PointInfluence::rigid(None, Some(4)).count, 0);
    }
}
