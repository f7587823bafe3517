//! Acclaim Skeleton File (ASF) parser, after "Acclaim Skeleton File Definition V1.10" (M. Schafer, 1994).
//!
//! Every keyword of the definition is read: `:version`, `:name`, `:units` (`mass`, `length`, `angle`),
//! `:documentation`, `:root` (`order`, `axis`, `position`, `orientation`), `:bonedata` (`begin … end`
//! blocks with `id`, `name`, `direction`, `length`, `axis` with its rotation order, `dof`, `limits`,
//! `bodymass`, `cofmass`), `:hierarchy` and `:skin`. `(`, `)` and `,` are whitespace and `#` starts a
//! comment, as the definition says. The parser is a flat loop over lines: a file of any size or depth
//! cannot overflow the stack.

use std::collections::HashMap;
use std::path::Path;

use glam::{DQuat, DVec3};

use super::text::{Line, MocapError, MocapWarning, Reporter, Syntax, Token, read_text, tokenize, warning};

const SYNTAX: Syntax = Syntax { extra_separators: &['(', ')', ','], hash_comments: true };

/// A rotational or translational degree of freedom of an ASF bone (or of the root).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dof {
    Tx,
    Ty,
    Tz,
    Rx,
    Ry,
    Rz,
    /// Translation along the bone ("stretch"); no H-Anim equivalent.
    L,
}

impl Dof {
    pub fn parse(text: &str) -> Option<Dof> {
        Some(match text.to_ascii_lowercase().as_str() {
            "tx" => Dof::Tx,
            "ty" => Dof::Ty,
            "tz" => Dof::Tz,
            "rx" => Dof::Rx,
            "ry" => Dof::Ry,
            "rz" => Dof::Rz,
            "l" => Dof::L,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Dof::Tx => "tx",
            Dof::Ty => "ty",
            Dof::Tz => "tz",
            Dof::Rx => "rx",
            Dof::Ry => "ry",
            Dof::Rz => "rz",
            Dof::L => "l",
        }
    }
}

/// An Euler rotation order as ASF writes it: `XYZ` means X is applied first, so `R = Rz·Ry·Rx`
/// (docs/asf-amc.md §4). Each entry is an axis index (0 = x, 1 = y, 2 = z).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AsfRotationOrder(pub [usize; 3]);

impl AsfRotationOrder {
    pub const XYZ: AsfRotationOrder = AsfRotationOrder([0, 1, 2]);

    /// `xyz`, `XYZ`, or the three letters as separate tokens.
    pub fn parse(text: &str) -> Option<AsfRotationOrder> {
        let letters: Vec<usize> = text
            .chars()
            .map(|c| match c.to_ascii_lowercase() {
                'x' => Some(0),
                'y' => Some(1),
                'z' => Some(2),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let [a, b, c] = letters[..] else { return None };
        (a != b && b != c && a != c).then_some(AsfRotationOrder([a, b, c]))
    }

    /// The rotation for angles (radians) about x, y and z: the first axis of the order is applied
    /// first, i.e. the product reads the order right to left.
    pub fn rotation(self, angles: DVec3) -> DQuat {
        let about = |axis: usize| -> DQuat {
            let angle = angles[axis];
            match axis {
                0 => DQuat::from_rotation_x(angle),
                1 => DQuat::from_rotation_y(angle),
                _ => DQuat::from_rotation_z(angle),
            }
        };
        about(self.0[2]) * about(self.0[1]) * about(self.0[0])
    }

    pub fn name(self) -> String {
        self.0.iter().map(|&a| ['X', 'Y', 'Z'][a]).collect()
    }
}

/// `:units`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AsfUnits {
    pub mass: f64,
    /// The length multiplier. Read as CMU and the ASF example do: file units ÷ `length` = inches.
    pub length: f64,
    /// `angle deg` (the default) or `angle rad`.
    pub degrees: bool,
}

impl Default for AsfUnits {
    fn default() -> Self {
        Self { mass: 1.0, length: 1.0, degrees: true }
    }
}

impl AsfUnits {
    /// Metres per file length unit: `0.0254 / length` (CMU: 0.0254 / 0.45 = 0.056444, the CMU FAQ value).
    pub fn metres_per_unit(&self) -> f64 {
        0.0254 / self.length
    }

    /// Radians per file angle unit.
    pub fn radians_per_unit(&self) -> f64 {
        if self.degrees { std::f64::consts::PI / 180.0 } else { 1.0 }
    }
}

/// `:root`.
#[derive(Debug, Clone, PartialEq)]
pub struct Root {
    /// The channels of an AMC `root` line, in order.
    pub order: Vec<Dof>,
    /// Euler order of the root rotation and orientation.
    pub axis: AsfRotationOrder,
    /// File units.
    pub position: DVec3,
    /// File angle units.
    pub orientation: DVec3,
}

impl Default for Root {
    fn default() -> Self {
        Self { order: Vec::new(), axis: AsfRotationOrder::XYZ, position: DVec3::ZERO, orientation: DVec3::ZERO }
    }
}

/// One `begin … end` block of `:bonedata`.
#[derive(Debug, Clone, PartialEq)]
pub struct Bone {
    pub id: Option<i64>,
    pub name: String,
    /// Unit direction in the global rest frame.
    pub direction: DVec3,
    /// File length units.
    pub length: f64,
    /// Angles of the bone's axis frame `C` in the global rest frame (file angle units).
    pub axis: DVec3,
    pub axis_order: AsfRotationOrder,
    pub dofs: Vec<Dof>,
    /// One (min, max) per dof, in file units; ±infinity for `inf`.
    pub limits: Vec<(f64, f64)>,
    pub bodymass: Option<f64>,
    pub cofmass: Option<f64>,
    /// Parent bone index; `None` when the parent is the root.
    pub parent: Option<usize>,
    /// Line of the bone's `begin`.
    pub line: usize,
}

/// A parsed ASF file.
#[derive(Debug, Clone, PartialEq)]
pub struct Asf {
    pub version: Option<String>,
    pub name: String,
    pub units: AsfUnits,
    pub documentation: String,
    pub root: Root,
    pub bones: Vec<Bone>,
    /// Bone indices parent before child, in the order `:hierarchy` reaches them (first child first).
    pub order: Vec<usize>,
    /// `:skin` file names.
    pub skins: Vec<String>,
    pub warnings: Vec<MocapWarning>,
}

impl Asf {
    pub fn bone_index(&self, name: &str) -> Option<usize> {
        self.bones.iter().position(|b| b.name.eq_ignore_ascii_case(name))
    }

    /// Numbers on one AMC frame: the root's channels plus every bone's dofs.
    pub fn values_per_frame(&self) -> usize {
        self.root.order.len() + self.bones.iter().map(|b| b.dofs.len()).sum::<usize>()
    }
}

/// Reads and parses an ASF file.
pub fn load_asf(path: &Path) -> Result<Asf, MocapError> {
    parse_asf(&read_text(path)?, path)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    None,
    Units,
    Documentation,
    Root,
    BoneData,
    Hierarchy,
    Skin,
    Unknown,
}

/// Parses ASF text; `path` names the file in messages.
pub fn parse_asf(text: &str, path: &Path) -> Result<Asf, MocapError> {
    let r = Reporter::new(path);
    let lines = tokenize(text, SYNTAX);
    let mut asf = Asf {
        version: None,
        name: String::new(),
        units: AsfUnits::default(),
        documentation: String::new(),
        root: Root::default(),
        bones: Vec::new(),
        order: Vec::new(),
        skins: Vec::new(),
        warnings: Vec::new(),
    };
    let mut section = Section::None;
    let mut seen_root = false;
    let mut seen_hierarchy = false;
    // Bonedata state: the open bone and the limits still to read for it.
    let mut bone: Option<Bone> = None;
    let mut pending_limits = 0usize;
    let mut hierarchy_open = false;
    let mut hierarchy_done = false;
    let mut names: HashMap<String, usize> = HashMap::new();
    // (parent, child token) pairs from :hierarchy, resolved at the end.
    let mut links: Vec<(Option<usize>, usize, Token<'_>)> = Vec::new();

    for line in &lines {
        let first = line.tokens[0];
        if first.text.starts_with(':') {
            if let Some(open) = &bone {
                return Err(r.token(
                    &first,
                    format!("bone '{}' (begun on line {}) has no 'end' before {}", open.name, open.line, first.text),
                ));
            }
            if pending_limits > 0 {
                return Err(
                    r.token(&first, format!("expected {pending_limits} more (min max) limits before {}", first.text))
                );
            }
            if hierarchy_open {
                return Err(r.token(&first, format!(":hierarchy has no 'end' before {}", first.text)));
            }
            let rest = &line.tokens[1..];
            section = match first.text.to_ascii_lowercase().as_str() {
                ":version" => {
                    let v = rest.first().ok_or_else(|| r.token(&first, "expected a version number after :version"))?;
                    r.number(v, "the version", false)?;
                    asf.version = Some(v.text.to_string());
                    Section::None
                }
                ":name" => {
                    if rest.is_empty() {
                        return Err(r.token(&first, "expected a skeleton name after :name"));
                    }
                    asf.name = rest.iter().map(|t| t.text).collect::<Vec<_>>().join(" ");
                    Section::None
                }
                ":units" => Section::Units,
                ":documentation" => {
                    let after = line.text.trim_start().get(first.text.len()..).unwrap_or("").trim();
                    if !after.is_empty() {
                        asf.documentation.push_str(after);
                        asf.documentation.push('\n');
                    }
                    Section::Documentation
                }
                ":root" => {
                    seen_root = true;
                    Section::Root
                }
                ":bonedata" => {
                    if !seen_root {
                        asf.warnings.push(warning(&first, ":bonedata before :root"));
                    }
                    Section::BoneData
                }
                ":hierarchy" => {
                    seen_hierarchy = true;
                    Section::Hierarchy
                }
                ":skin" => {
                    asf.skins.extend(rest.iter().map(|t| t.text.trim_matches('"').to_string()));
                    Section::Skin
                }
                other => {
                    asf.warnings
                        .push(warning(&first, format!("unknown keyword '{other}' ignored with the lines after it")));
                    Section::Unknown
                }
            };
            if let Some(extra) =
                rest.first().filter(|_| matches!(section, Section::Units | Section::Root | Section::BoneData))
            {
                return Err(r.token(
                    extra,
                    format!("expected nothing after {} on its line, found '{}'", first.text, extra.text),
                ));
            }
            continue;
        }
        match section {
            Section::None => {
                return Err(r.token(&first, format!("expected a keyword such as :version, :name, :units, :root, :bonedata or :hierarchy, found '{}'", first.text)));
            }
            Section::Unknown => {}
            Section::Documentation => {
                asf.documentation.push_str(line.text.trim());
                asf.documentation.push('\n');
            }
            Section::Skin => asf.skins.extend(line.tokens.iter().map(|t| t.text.trim_matches('"').to_string())),
            Section::Units => read_units(&r, line, &mut asf)?,
            Section::Root => read_root(&r, line, &mut asf.root)?,
            Section::BoneData => {
                read_bonedata_line(&r, line, &mut asf, &mut bone, &mut pending_limits, &mut names)?;
            }
            Section::Hierarchy => {
                let key = first.text.to_ascii_lowercase();
                if key == "begin" && !hierarchy_open && !hierarchy_done {
                    hierarchy_open = true;
                    if let Some(extra) = line.tokens.get(1) {
                        return Err(r.token(extra, "expected nothing after 'begin'"));
                    }
                } else if key == "end" && hierarchy_open {
                    hierarchy_open = false;
                    hierarchy_done = true;
                } else if !hierarchy_open {
                    return Err(r.token(&first, format!("expected 'begin' to open :hierarchy, found '{}'", first.text)));
                } else {
                    let parent = if key == "root" {
                        None
                    } else {
                        Some(*names.get(&key).ok_or_else(|| {
                            r.token(
                                &first,
                                format!(
                                    "unknown bone '{}' in :hierarchy (expected 'root' or a bone of :bonedata)",
                                    first.text
                                ),
                            )
                        })?)
                    };
                    if line.tokens.len() < 2 {
                        return Err(
                            r.token(&first, format!("expected child bones after '{}' in :hierarchy", first.text))
                        );
                    }
                    for child in &line.tokens[1..] {
                        let index = *names.get(&child.text.to_ascii_lowercase()).ok_or_else(|| {
                            r.token(
                                child,
                                format!("unknown bone '{}' in :hierarchy (expected a bone of :bonedata)", child.text),
                            )
                        })?;
                        links.push((parent, index, *child));
                    }
                }
            }
        }
    }
    let (end_line, end_column) = super::text::end_position(text);
    if let Some(open) = &bone {
        return Err(r.at(
            end_line,
            end_column,
            format!("the file ends inside bone '{}' (begun on line {}): expected 'end'", open.name, open.line),
        ));
    }
    if hierarchy_open {
        return Err(r.at(end_line, end_column, "the file ends inside :hierarchy: expected 'end'"));
    }
    if asf.root.order.is_empty() {
        return Err(r.at(
            end_line,
            end_column,
            if seen_root {
                "expected 'order' in :root (the channels of an AMC root line)"
            } else {
                "expected a :root section"
            },
        ));
    }
    if asf.bones.is_empty() {
        return Err(r.at(end_line, end_column, "expected :bonedata with at least one bone"));
    }
    if !seen_hierarchy {
        return Err(r.at(end_line, end_column, "expected a :hierarchy section"));
    }
    resolve_hierarchy(&r, &mut asf, &links)?;
    Ok(asf)
}

fn read_units(r: &Reporter, line: &Line<'_>, asf: &mut Asf) -> Result<(), MocapError> {
    let key = line.tokens[0];
    let value = line.tokens.get(1).ok_or_else(|| r.token(&key, format!("expected a value after '{}'", key.text)))?;
    match key.text.to_ascii_lowercase().as_str() {
        "mass" => asf.units.mass = r.number(value, "the mass unit", false)?,
        "length" => {
            let v = r.number(value, "the length unit", false)?;
            if v <= 0.0 {
                return Err(r.token(value, format!("expected a positive length multiplier, found {v}")));
            }
            asf.units.length = v;
        }
        "angle" => {
            asf.units.degrees = match value.text.to_ascii_lowercase().as_str() {
                "deg" | "degree" | "degrees" => true,
                "rad" | "radian" | "radians" => false,
                _ => return Err(r.token(value, format!("expected 'deg' or 'rad' after angle, found '{}'", value.text))),
            }
        }
        _ => asf.warnings.push(warning(&key, format!("unknown unit '{}' ignored", key.text))),
    }
    if let Some(extra) = line.tokens.get(2) {
        return Err(r.token(extra, format!("expected one value after '{}', found another: '{}'", key.text, extra.text)));
    }
    Ok(())
}

fn read_root(r: &Reporter, line: &Line<'_>, root: &mut Root) -> Result<(), MocapError> {
    let key = line.tokens[0];
    let rest = &line.tokens[1..];
    match key.text.to_ascii_lowercase().as_str() {
        "order" => {
            root.order.clear();
            for t in rest {
                let dof = Dof::parse(t.text).filter(|d| *d != Dof::L).ok_or_else(|| {
                    r.token(t, format!("expected a root channel (TX TY TZ RX RY RZ), found '{}'", t.text))
                })?;
                if root.order.contains(&dof) {
                    return Err(r.token(t, format!("root channel '{}' is listed twice", t.text)));
                }
                root.order.push(dof);
            }
            if root.order.is_empty() {
                return Err(r.token(&key, "expected root channels after 'order' (e.g. TX TY TZ RX RY RZ)"));
            }
        }
        "axis" => root.axis = parse_order_tokens(r, &key, rest)?,
        "position" => root.position = DVec3::from_array(r.numbers::<3>(&key, rest, "the root position")?),
        "orientation" => root.orientation = DVec3::from_array(r.numbers::<3>(&key, rest, "the root orientation")?),
        _ => {
            return Err(
                r.token(&key, format!("expected order, axis, position or orientation in :root, found '{}'", key.text))
            );
        }
    }
    Ok(())
}

/// `XYZ` as one token, or `x y z` as three.
fn parse_order_tokens(r: &Reporter, key: &Token<'_>, tokens: &[Token<'_>]) -> Result<AsfRotationOrder, MocapError> {
    let joined: String = tokens.iter().map(|t| t.text).collect();
    match AsfRotationOrder::parse(&joined) {
        Some(order) if !tokens.is_empty() => Ok(order),
        _ => {
            let at = tokens.first().unwrap_or(key);
            Err(r.token(
                at,
                format!("expected a rotation order of x, y and z (e.g. XYZ) after '{}', found '{}'", key.text, joined),
            ))
        }
    }
}

fn read_bonedata_line(
    r: &Reporter,
    line: &Line<'_>,
    asf: &mut Asf,
    bone: &mut Option<Bone>,
    pending_limits: &mut usize,
    names: &mut HashMap<String, usize>,
) -> Result<(), MocapError> {
    let key = line.tokens[0];
    let lower = key.text.to_ascii_lowercase();
    let rest = &line.tokens[1..];
    // Limits run on over several lines: numbers continue the open `limits` list.
    if *pending_limits > 0 && lower != "end" {
        let Some(b) = bone.as_mut() else { return Err(r.token(&key, "limits outside a bone")) };
        let tokens = if lower == "limits" { rest } else { &line.tokens[..] };
        if tokens.len() % 2 != 0 {
            return Err(r.token(tokens.last().unwrap_or(&key), "expected limits in (min max) pairs"));
        }
        for pair in tokens.chunks(2) {
            if *pending_limits == 0 {
                return Err(r.token(&pair[0], format!("more limits than dofs ({}) in bone '{}'", b.dofs.len(), b.name)));
            }
            let min = r.number(&pair[0], "a lower limit", true)?;
            let max = r.number(&pair[1], "an upper limit", true)?;
            if min > max {
                asf.warnings.push(warning(&pair[0], format!("bone '{}': limit ({min} {max}) has min > max", b.name)));
            }
            b.limits.push((min, max));
            *pending_limits -= 1;
        }
        return Ok(());
    }
    if lower == "begin" {
        if let Some(open) = bone {
            return Err(r.token(
                &key,
                format!("bone '{}' (begun on line {}) has no 'end' before this 'begin'", open.name, open.line),
            ));
        }
        if let Some(extra) = rest.first() {
            return Err(r.token(extra, "expected nothing after 'begin'"));
        }
        *bone = Some(Bone {
            id: None,
            name: String::new(),
            direction: DVec3::ZERO,
            length: f64::NAN,
            axis: DVec3::ZERO,
            axis_order: AsfRotationOrder::XYZ,
            dofs: Vec::new(),
            limits: Vec::new(),
            bodymass: None,
            cofmass: None,
            parent: None,
            line: key.line,
        });
        return Ok(());
    }
    let Some(b) = bone.as_mut() else {
        return Err(r.token(&key, format!("expected 'begin' to open a bone in :bonedata, found '{}'", key.text)));
    };
    match lower.as_str() {
        "end" => {
            if *pending_limits > 0 {
                return Err(r.token(
                    &key,
                    format!(
                        "bone '{}': expected {} more (min max) limits before 'end' (one per dof)",
                        b.name, pending_limits
                    ),
                ));
            }
            if b.name.is_empty() {
                return Err(r.token(&key, "bone has no 'name' (expected 'name NAME' in the block)"));
            }
            if b.length.is_nan() {
                return Err(r.token(&key, format!("bone '{}' has no 'length'", b.name)));
            }
            let done = bone.take().expect("checked above");
            let lower_name = done.name.to_ascii_lowercase();
            if lower_name == "root" || names.contains_key(&lower_name) {
                return Err(r.at(done.line, 1, format!("bone name '{}' is used twice (or is 'root')", done.name)));
            }
            names.insert(lower_name, asf.bones.len());
            asf.bones.push(done);
        }
        "id" => {
            let v = rest.first().ok_or_else(|| r.token(&key, "expected a number after 'id'"))?;
            b.id = Some(
                v.text.parse::<i64>().map_err(|_| r.token(v, format!("expected an integer id, found '{}'", v.text)))?,
            );
        }
        "name" => {
            let v = rest.first().ok_or_else(|| r.token(&key, "expected a bone name after 'name'"))?;
            b.name = v.text.to_string();
        }
        "direction" => {
            let d = DVec3::from_array(r.numbers::<3>(&key, rest, "the bone direction")?);
            let len = d.length();
            if len == 0.0 {
                asf.warnings.push(warning(&key, format!("bone '{}' has a zero direction", b.name)));
                b.direction = DVec3::ZERO;
            } else {
                if (len - 1.0).abs() > 1e-3 {
                    asf.warnings
                        .push(warning(&key, format!("bone '{}': direction has length {len:.4}; normalised", b.name)));
                }
                b.direction = d / len;
            }
        }
        "length" => {
            let v = rest.first().ok_or_else(|| r.token(&key, "expected a number after 'length'"))?;
            b.length = r.number(v, "the bone length", false)?;
            if b.length < 0.0 {
                return Err(r.token(v, format!("expected a length ≥ 0, found {}", b.length)));
            }
        }
        "axis" => {
            if rest.len() < 4 {
                return Err(r.token(
                    rest.last().unwrap_or(&key),
                    "expected 'axis A1 A2 A3 ORDER' (three angles and a rotation order such as XYZ)",
                ));
            }
            b.axis = DVec3::from_array(r.numbers::<3>(&key, &rest[..3], "the axis angles")?);
            b.axis_order = parse_order_tokens(r, &key, &rest[3..])?;
        }
        "dof" => {
            b.dofs.clear();
            for t in rest {
                let dof = Dof::parse(t.text)
                    .ok_or_else(|| r.token(t, format!("expected a dof (rx ry rz tx ty tz l), found '{}'", t.text)))?;
                if b.dofs.contains(&dof) {
                    return Err(r.token(t, format!("dof '{}' is listed twice", t.text)));
                }
                b.dofs.push(dof);
            }
            if b.dofs.contains(&Dof::L) {
                asf.warnings.push(warning(
                    &key,
                    format!(
                        "bone '{}': stretch dof 'l' is read but has no H-Anim equivalent; it is not applied",
                        b.name
                    ),
                ));
            }
        }
        "limits" => {
            if b.dofs.is_empty() {
                return Err(
                    r.token(&key, format!("bone '{}': 'limits' must follow 'dof' (one (min max) per dof)", b.name))
                );
            }
            b.limits.clear();
            *pending_limits = b.dofs.len();
            // Re-enter with the limits open to read the pairs on this line.
            return read_bonedata_line(r, line, asf, bone, pending_limits, names);
        }
        "bodymass" => {
            let v = rest.first().ok_or_else(|| r.token(&key, "expected a number after 'bodymass'"))?;
            b.bodymass = Some(r.number(v, "the body mass", false)?);
        }
        "cofmass" => {
            let v = rest.first().ok_or_else(|| r.token(&key, "expected a number after 'cofmass'"))?;
            b.cofmass = Some(r.number(v, "the centre of mass", false)?);
        }
        _ => {
            return Err(r.token(&key, format!(
                "expected id, name, direction, length, axis, dof, limits, bodymass, cofmass or end in a bone, found '{}'",
                key.text
            )));
        }
    }
    Ok(())
}

/// Sets every bone's parent from the `:hierarchy` links and orders bones parent before child
/// (iteratively, so a deep chain is fine). A bone listed twice, unreachable from `root`, or in a cycle
/// is an error.
fn resolve_hierarchy(
    r: &Reporter,
    asf: &mut Asf,
    links: &[(Option<usize>, usize, Token<'_>)],
) -> Result<(), MocapError> {
    let mut parent_set = vec![false; asf.bones.len()];
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); asf.bones.len() + 1]; // last = root
    for (parent, child, token) in links {
        if parent_set[*child] {
            return Err(r.token(token, format!("bone '{}' has a second parent in :hierarchy", token.text)));
        }
        if *parent == Some(*child) {
            return Err(r.token(token, format!("bone '{}' is listed as its own child", token.text)));
        }
        parent_set[*child] = true;
        asf.bones[*child].parent = *parent;
        children[parent.unwrap_or(asf.bones.len())].push(*child);
    }
    // Depth-first from the root with an explicit stack, first child first (the "primary route").
    let mut stack: Vec<usize> = children[asf.bones.len()].iter().rev().copied().collect();
    let mut order = Vec::with_capacity(asf.bones.len());
    let mut visited = vec![false; asf.bones.len()];
    while let Some(b) = stack.pop() {
        if std::mem::replace(&mut visited[b], true) {
            continue;
        }
        order.push(b);
        stack.extend(children[b].iter().rev().copied());
    }
    if let Some(missing) = (0..asf.bones.len()).find(|&b| !visited[b]) {
        let bone = &asf.bones[missing];
        let why =
            if parent_set[missing] { "is in a cycle that never reaches 'root'" } else { "never appears in :hierarchy" };
        return Err(r.at(bone.line, 1, format!("bone '{}' {why} (expected every bone to hang from root)", bone.name)));
    }
    asf.order = order;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn euler_orders_apply_their_first_axis_first() {
        let angles = DVec3::new(0.3, -0.5, 1.1);
        let xyz = AsfRotationOrder::parse("XYZ").unwrap().rotation(angles);
        let expected = DQuat::from_rotation_z(1.1) * DQuat::from_rotation_y(-0.5) * DQuat::from_rotation_x(0.3);
        assert!(xyz.abs_diff_eq(expected, 1e-12));
        let zyx = AsfRotationOrder::parse("zyx").unwrap().rotation(angles);
        let expected = DQuat::from_rotation_x(0.3) * DQuat::from_rotation_y(-0.5) * DQuat::from_rotation_z(1.1);
        assert!(zyx.abs_diff_eq(expected, 1e-12));
        assert_eq!(AsfRotationOrder::parse("xxy"), None);
        assert_eq!(AsfRotationOrder::parse("xy"), None);
    }

    #[test]
    fn the_seed_example_reads_with_every_keyword() {
        // The example of the Acclaim definition, with its `tx ty tz rx ry rz l` dof list and inf limits.
        let text = "# comment\n:version 1.10\n:name example\n:units\n mass 1.0\n length 2.54\n angle rad\n\
            :documentation\n Place any notes here.\n:root\n axis xyz\n order tx ty tz rz ry rx\n position 0.0 0.0 0.0\n\
            orientation 0.0 0.0 0.0\n:bonedata\n begin\n  id 1\n  name h_waist\n  direction 0.0 1.0 0.0\n  length 3.0\n\
            axis 0.0 1.0 0.0 z y x\n  bodymass 10.0\n  cofmass 1.0\n  dof tx ty tz rx ry rz l\n  limits (-inf,inf)\n\
            (-inf,inf)\n (-inf,inf)\n (-3.14, 3.14)\n (0.0,   3.14)\n (-1.0,  3.14)\n (0.5,   4.5)\n end\n\
            :hierarchy\n begin\n  root h_waist\n end\n:skin \"a.skin\"\n \"b.skin\"\n";
        let asf = parse_asf(text, Path::new("seed.asf")).unwrap();
        assert_eq!(asf.name, "example");
        assert_eq!(asf.units, AsfUnits { mass: 1.0, length: 2.54, degrees: false });
        assert_eq!(asf.documentation.trim(), "Place any notes here.");
        assert_eq!(asf.root.order, vec![Dof::Tx, Dof::Ty, Dof::Tz, Dof::Rz, Dof::Ry, Dof::Rx]);
        let b = &asf.bones[0];
        assert_eq!((b.bodymass, b.cofmass), (Some(10.0), Some(1.0)));
        assert_eq!(b.axis_order.name(), "ZYX");
        assert_eq!(b.limits.len(), 7);
        assert_eq!(b.limits[0], (f64::NEG_INFINITY, f64::INFINITY));
        assert_eq!(b.limits[6], (0.5, 4.5));
        assert_eq!(asf.skins, vec!["a.skin", "b.skin"]);
        assert!(asf.warnings.iter().any(|w| w.message.contains("stretch dof 'l'")));
        assert_eq!(asf.values_per_frame(), 6 + 7);
    }
}
