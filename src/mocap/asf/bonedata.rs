//! `:bonedata`: one `begin … end` block per bone, with `id`, `name`, `direction`, `length`, `axis` and
//! its rotation order, `dof`, `limits` (which may run on over several lines), `bodymass` and `cofmass`.

use std::collections::HashMap;

use glam::DVec3;

use super::header::parse_order_tokens;
use super::skeleton::{Asf, AsfRotationOrder, Bone, Dof};
use crate::mocap::text::{Line, MocapError, MocapWarning, Reporter, Token, warning};

/// The state of `:bonedata` between lines.
#[derive(Debug, Default)]
pub(super) struct BoneData {
    /// The bone whose block is open.
    open: Option<Bone>,
    /// `(min max)` pairs still to read for the open bone's `limits`, one per dof.
    pending_limits: usize,
    /// Bone index by lower-case name, for `:hierarchy`.
    pub(super) names: HashMap<String, usize>,
}

impl BoneData {
    /// Before another `:keyword`: no bone block or limits list may be left open.
    pub(super) fn check_closed(&self, r: &Reporter, keyword: &Token<'_>) -> Result<(), MocapError> {
        if let Some(open) = &self.open {
            return Err(r.token(
                keyword,
                format!("bone '{}' (begun on line {}) has no 'end' before {}", open.name, open.line, keyword.text),
            ));
        }
        if self.pending_limits > 0 {
            return Err(r.token(
                keyword,
                format!("expected {} more (min max) limits before {}", self.pending_limits, keyword.text),
            ));
        }
        Ok(())
    }

    /// At the end of the file: no bone block may be left open.
    pub(super) fn check_ended(&self, r: &Reporter, (line, column): (usize, usize)) -> Result<(), MocapError> {
        match &self.open {
            Some(open) => Err(r.at(
                line,
                column,
                format!("the file ends inside bone '{}' (begun on line {}): expected 'end'", open.name, open.line),
            )),
            None => Ok(()),
        }
    }

    /// One line of `:bonedata`.
    pub(super) fn read_line(&mut self, r: &Reporter, line: &Line<'_>, asf: &mut Asf) -> Result<(), MocapError> {
        let key = line.tokens[0];
        let lower = key.text.to_ascii_lowercase();
        let rest = &line.tokens[1..];
        // Limits run on over several lines: numbers continue the open `limits` list.
        if self.pending_limits > 0 && lower != "end" {
            let tokens = if lower == "limits" { rest } else { &line.tokens[..] };
            return self.read_limits(r, &key, tokens, &mut asf.warnings);
        }
        if lower == "begin" {
            return self.begin(r, &key, rest);
        }
        let Some(b) = self.open.as_mut() else {
            return Err(r.token(&key, format!("expected 'begin' to open a bone in :bonedata, found '{}'", key.text)));
        };
        match lower.as_str() {
            "end" => self.end(r, &key, asf),
            "limits" => {
                if b.dofs.is_empty() {
                    return Err(r.token(
                        &key,
                        format!("bone '{}': 'limits' must follow 'dof' (one (min max) per dof)", b.name),
                    ));
                }
                b.limits.clear();
                self.pending_limits = b.dofs.len();
                // The pairs may start on this line.
                self.read_limits(r, &key, rest, &mut asf.warnings)
            }
            _ => read_bone_field(r, &key, &lower, rest, b, &mut asf.warnings),
        }
    }

    /// `begin`: a new bone block.
    fn begin(&mut self, r: &Reporter, key: &Token<'_>, rest: &[Token<'_>]) -> Result<(), MocapError> {
        if let Some(open) = &self.open {
            return Err(r.token(
                key,
                format!("bone '{}' (begun on line {}) has no 'end' before this 'begin'", open.name, open.line),
            ));
        }
        if let Some(extra) = rest.first() {
            return Err(r.token(extra, "expected nothing after 'begin'"));
        }
        self.open = Some(Bone {
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
        Ok(())
    }

    /// `end`: the open bone is complete (it needs a name, unique and not `root`, and a length).
    fn end(&mut self, r: &Reporter, key: &Token<'_>, asf: &mut Asf) -> Result<(), MocapError> {
        let Some(b) = &self.open else { return Ok(()) };
        if self.pending_limits > 0 {
            return Err(r.token(
                key,
                format!(
                    "bone '{}': expected {} more (min max) limits before 'end' (one per dof)",
                    b.name, self.pending_limits
                ),
            ));
        }
        if b.name.is_empty() {
            return Err(r.token(key, "bone has no 'name' (expected 'name NAME' in the block)"));
        }
        if b.length.is_nan() {
            return Err(r.token(key, format!("bone '{}' has no 'length'", b.name)));
        }
        let done = self.open.take().expect("checked above");
        let lower_name = done.name.to_ascii_lowercase();
        if lower_name == "root" || self.names.contains_key(&lower_name) {
            return Err(r.at(done.line, 1, format!("bone name '{}' is used twice (or is 'root')", done.name)));
        }
        self.names.insert(lower_name, asf.bones.len());
        asf.bones.push(done);
        Ok(())
    }

    /// `(min max)` pairs of the open bone's `limits`, as many as are on the line.
    fn read_limits(
        &mut self,
        r: &Reporter,
        key: &Token<'_>,
        tokens: &[Token<'_>],
        warnings: &mut Vec<MocapWarning>,
    ) -> Result<(), MocapError> {
        let Some(b) = self.open.as_mut() else { return Err(r.token(key, "limits outside a bone")) };
        if !tokens.len().is_multiple_of(2) {
            return Err(r.token(tokens.last().unwrap_or(key), "expected limits in (min max) pairs"));
        }
        for pair in tokens.chunks(2) {
            if self.pending_limits == 0 {
                return Err(r.token(&pair[0], format!("more limits than dofs ({}) in bone '{}'", b.dofs.len(), b.name)));
            }
            let min = r.number(&pair[0], "a lower limit", true)?;
            let max = r.number(&pair[1], "an upper limit", true)?;
            if min > max {
                warnings.push(warning(&pair[0], format!("bone '{}': limit ({min} {max}) has min > max", b.name)));
            }
            b.limits.push((min, max));
            self.pending_limits -= 1;
        }
        Ok(())
    }
}

/// A line of a bone block other than `begin`, `end` and `limits`.
fn read_bone_field(
    r: &Reporter,
    key: &Token<'_>,
    lower: &str,
    rest: &[Token<'_>],
    b: &mut Bone,
    warnings: &mut Vec<MocapWarning>,
) -> Result<(), MocapError> {
    match lower {
        "id" => {
            let v = rest.first().ok_or_else(|| r.token(key, "expected a number after 'id'"))?;
            b.id = Some(
                v.text.parse::<i64>().map_err(|_| r.token(v, format!("expected an integer id, found '{}'", v.text)))?,
            );
        }
        "name" => {
            let v = rest.first().ok_or_else(|| r.token(key, "expected a bone name after 'name'"))?;
            b.name = v.text.to_string();
        }
        "direction" => read_direction(r, key, rest, b, warnings)?,
        "length" => {
            let v = rest.first().ok_or_else(|| r.token(key, "expected a number after 'length'"))?;
            b.length = r.number(v, "the bone length", false)?;
            if b.length < 0.0 {
                return Err(r.token(v, format!("expected a length ≥ 0, found {}", b.length)));
            }
        }
        "axis" => {
            if rest.len() < 4 {
                return Err(r.token(
                    rest.last().unwrap_or(key),
                    "expected 'axis A1 A2 A3 ORDER' (three angles and a rotation order such as XYZ)",
                ));
            }
            b.axis = DVec3::from_array(r.numbers::<3>(key, &rest[..3], "the axis angles")?);
            b.axis_order = parse_order_tokens(r, key, &rest[3..])?;
        }
        "dof" => read_dofs(r, key, rest, b, warnings)?,
        "bodymass" => {
            let v = rest.first().ok_or_else(|| r.token(key, "expected a number after 'bodymass'"))?;
            b.bodymass = Some(r.number(v, "the body mass", false)?);
        }
        "cofmass" => {
            let v = rest.first().ok_or_else(|| r.token(key, "expected a number after 'cofmass'"))?;
            b.cofmass = Some(r.number(v, "the centre of mass", false)?);
        }
        _ => {
            return Err(r.token(
                key,
                format!(
                    "expected id, name, direction, length, axis, dof, limits, bodymass, cofmass or end in a bone, \
                     found '{}'",
                    key.text
                ),
            ));
        }
    }
    Ok(())
}

/// `direction X Y Z`, normalised (with a warning when it was not of unit length).
fn read_direction(
    r: &Reporter,
    key: &Token<'_>,
    rest: &[Token<'_>],
    b: &mut Bone,
    warnings: &mut Vec<MocapWarning>,
) -> Result<(), MocapError> {
    let d = DVec3::from_array(r.numbers::<3>(key, rest, "the bone direction")?);
    let len = d.length();
    if len == 0.0 {
        warnings.push(warning(key, format!("bone '{}' has a zero direction", b.name)));
        b.direction = DVec3::ZERO;
    } else {
        if (len - 1.0).abs() > 1e-3 {
            warnings.push(warning(key, format!("bone '{}': direction has length {len:.4}; normalised", b.name)));
        }
        b.direction = d / len;
    }
    Ok(())
}

/// `dof rx ry rz …`: each at most once; the stretch dof `l` is read but not applied.
fn read_dofs(
    r: &Reporter,
    key: &Token<'_>,
    rest: &[Token<'_>],
    b: &mut Bone,
    warnings: &mut Vec<MocapWarning>,
) -> Result<(), MocapError> {
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
        warnings.push(warning(
            key,
            format!("bone '{}': stretch dof 'l' is read but has no H-Anim equivalent; it is not applied", b.name),
        ));
    }
    Ok(())
}
