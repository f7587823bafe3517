//! The keyword lines that open each part of an ASF file (`:version`, `:name`, `:units`,
//! `:documentation`, `:root`, `:bonedata`, `:hierarchy`, `:skin`), and the lines of `:units` and `:root`.

use glam::DVec3;

use super::skeleton::{Asf, AsfRotationOrder, Dof, Root};
use super::{AsfParser, Section};
use crate::mocap::text::{Line, MocapError, Reporter, Token, warning};

impl AsfParser<'_> {
    /// A `:keyword` line: what it sets, and the section the lines after it belong to.
    pub(super) fn keyword(&mut self, line: &Line<'_>) -> Result<Section, MocapError> {
        let (r, asf) = (&self.r, &mut self.asf);
        let first = line.tokens[0];
        let rest = &line.tokens[1..];
        let section = match first.text.to_ascii_lowercase().as_str() {
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
                self.seen_root = true;
                Section::Root
            }
            ":bonedata" => {
                if !self.seen_root {
                    asf.warnings.push(warning(&first, ":bonedata before :root"));
                }
                Section::BoneData
            }
            ":hierarchy" => {
                self.hierarchy.seen = true;
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
            return Err(
                r.token(extra, format!("expected nothing after {} on its line, found '{}'", first.text, extra.text))
            );
        }
        Ok(section)
    }
}

/// A line of `:units`: `mass`, `length` or `angle` and its value.
pub(super) fn read_units(r: &Reporter, line: &Line<'_>, asf: &mut Asf) -> Result<(), MocapError> {
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

/// A line of `:root`: `order`, `axis`, `position` or `orientation`.
pub(super) fn read_root(r: &Reporter, line: &Line<'_>, root: &mut Root) -> Result<(), MocapError> {
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
pub(super) fn parse_order_tokens(
    r: &Reporter,
    key: &Token<'_>,
    tokens: &[Token<'_>],
) -> Result<AsfRotationOrder, MocapError> {
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
