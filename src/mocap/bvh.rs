//! Biovision Hierarchy (BVH) parser: `HIERARCHY` with `ROOT`/`JOINT`/`End Site` blocks (`OFFSET`,
//! `CHANNELS`), then `MOTION` with `Frames:`, `Frame Time:` and one row of channel values per frame.
//! Nesting is tracked with an explicit stack, so a deep file cannot overflow the call stack.

use std::path::Path;

use glam::DVec3;

use super::text::{MocapError, MocapWarning, Reporter, Syntax, Token, read_text, tokenize, warning};

const SYNTAX: Syntax = Syntax { extra_separators: &[], hash_comments: false };

/// A BVH channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BvhChannel {
    Xposition,
    Yposition,
    Zposition,
    Xrotation,
    Yrotation,
    Zrotation,
}

impl BvhChannel {
    pub fn parse(text: &str) -> Option<BvhChannel> {
        Some(match text.to_ascii_lowercase().as_str() {
            "xposition" => BvhChannel::Xposition,
            "yposition" => BvhChannel::Yposition,
            "zposition" => BvhChannel::Zposition,
            "xrotation" => BvhChannel::Xrotation,
            "yrotation" => BvhChannel::Yrotation,
            "zrotation" => BvhChannel::Zrotation,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            BvhChannel::Xposition => "Xposition",
            BvhChannel::Yposition => "Yposition",
            BvhChannel::Zposition => "Zposition",
            BvhChannel::Xrotation => "Xrotation",
            BvhChannel::Yrotation => "Yrotation",
            BvhChannel::Zrotation => "Zrotation",
        }
    }

    /// Axis index (0 = x) and whether it is a rotation.
    pub fn axis(self) -> (usize, bool) {
        match self {
            BvhChannel::Xposition => (0, false),
            BvhChannel::Yposition => (1, false),
            BvhChannel::Zposition => (2, false),
            BvhChannel::Xrotation => (0, true),
            BvhChannel::Yrotation => (1, true),
            BvhChannel::Zrotation => (2, true),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct BvhJoint {
    pub name: String,
    pub parent: Option<usize>,
    /// Offset from the parent joint in the parent's frame (file units).
    pub offset: DVec3,
    pub channels: Vec<BvhChannel>,
    /// Index of this joint's first channel in a frame row.
    pub first_channel: usize,
    /// `End Site` offsets (usually at most one).
    pub end_sites: Vec<DVec3>,
    pub line: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Bvh {
    /// Parent before child, in file order.
    pub joints: Vec<BvhJoint>,
    pub channel_count: usize,
    /// Seconds per frame (`Frame Time:`).
    pub frame_time: f64,
    /// `frame_count × channel_count` values, frame-major.
    pub values: Vec<f64>,
    pub warnings: Vec<MocapWarning>,
}

impl Bvh {
    pub fn frame_count(&self) -> usize {
        self.values.len().checked_div(self.channel_count).unwrap_or(0)
    }

    pub fn frame(&self, frame: usize) -> &[f64] {
        &self.values[frame * self.channel_count..(frame + 1) * self.channel_count]
    }

    pub fn joint_index(&self, name: &str) -> Option<usize> {
        self.joints.iter().position(|j| j.name == name)
    }
}

pub fn load_bvh(path: &Path) -> Result<Bvh, MocapError> {
    parse_bvh(&read_text(path)?, path)
}

/// What the parser expects next inside the hierarchy.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Open {
    /// A joint block (index into `joints`).
    Joint(usize),
    /// An End Site block of the joint.
    EndSite(usize),
}

pub fn parse_bvh(text: &str, path: &Path) -> Result<Bvh, MocapError> {
    let r = Reporter::new(path);
    let lines = tokenize(text, SYNTAX);
    let end = super::text::end_position(text);
    let mut bvh =
        Bvh { joints: Vec::new(), channel_count: 0, frame_time: 0.0, values: Vec::new(), warnings: Vec::new() };
    let mut tokens: Vec<Token<'_>> = Vec::new();
    let mut line_iter = lines.iter();
    let first = line_iter.next().ok_or_else(|| r.at(end.0, end.1, "the file is empty (expected HIERARCHY)"))?;
    if !first.tokens[0].text.eq_ignore_ascii_case("HIERARCHY") {
        return Err(r.token(&first.tokens[0], format!("expected HIERARCHY, found '{}'", first.tokens[0].text)));
    }
    tokens.extend(first.tokens[1..].iter().copied());
    // Hierarchy tokens up to MOTION; the frame rows are read line by line afterwards.
    let mut motion: Option<Token<'_>> = None;
    for line in line_iter.by_ref() {
        if line.tokens[0].text.eq_ignore_ascii_case("MOTION") {
            motion = Some(line.tokens[0]);
            break;
        }
        tokens.extend(line.tokens.iter().copied());
    }
    let mut stack: Vec<Open> = Vec::new();
    // A ROOT/JOINT/End Site header waiting for its `{`.
    let mut awaiting_brace: Option<(Open, Token<'_>)> = None;
    let mut i = 0;
    let next = |i: &mut usize, what: &str, after: &Token<'_>| -> Result<Token<'_>, MocapError> {
        let t =
            tokens.get(*i).copied().ok_or_else(|| r.token(after, format!("expected {what} after '{}'", after.text)))?;
        *i += 1;
        Ok(t)
    };
    let mut roots = 0;
    while i < tokens.len() {
        let t = tokens[i];
        i += 1;
        if let Some((open, header)) = awaiting_brace {
            if t.text != "{" {
                return Err(r.token(&t, format!("expected '{{' after '{}', found '{}'", header.text, t.text)));
            }
            stack.push(open);
            awaiting_brace = None;
            continue;
        }
        match t.text {
            "}" => {
                if stack.pop().is_none() {
                    return Err(r.token(&t, "unmatched '}' (no block is open)"));
                }
            }
            _ if t.text.eq_ignore_ascii_case("ROOT") || t.text.eq_ignore_ascii_case("JOINT") => {
                let is_root = t.text.eq_ignore_ascii_case("ROOT");
                let parent = match stack.last() {
                    None if is_root => None,
                    Some(Open::Joint(p)) if !is_root => Some(*p),
                    Some(Open::EndSite(_)) => {
                        return Err(r.token(&t, format!("'{}' inside an End Site (expected OFFSET or '}}')", t.text)));
                    }
                    None => return Err(r.token(&t, "expected ROOT at the top of the hierarchy, found JOINT")),
                    Some(_) => return Err(r.token(&t, "expected JOINT inside a joint, found ROOT")),
                };
                if is_root {
                    roots += 1;
                    if roots > 1 {
                        return Err(r.token(&t, "a second ROOT (expected one skeleton per file)"));
                    }
                }
                let name = next(&mut i, "a joint name", &t)?;
                if name.text == "{" {
                    return Err(r.token(&name, format!("expected a joint name after '{}', found '{{'", t.text)));
                }
                if bvh.joint_index(name.text).is_some() {
                    return Err(r.token(&name, format!("joint name '{}' is used twice", name.text)));
                }
                bvh.joints.push(BvhJoint {
                    name: name.text.to_string(),
                    parent,
                    offset: DVec3::ZERO,
                    channels: Vec::new(),
                    first_channel: bvh.channel_count,
                    end_sites: Vec::new(),
                    line: t.line,
                });
                awaiting_brace = Some((Open::Joint(bvh.joints.len() - 1), t));
            }
            _ if t.text.eq_ignore_ascii_case("End") => {
                let site = next(&mut i, "'Site'", &t)?;
                if !site.text.eq_ignore_ascii_case("Site") {
                    return Err(r.token(&site, format!("expected 'Site' after 'End', found '{}'", site.text)));
                }
                let Some(Open::Joint(j)) = stack.last().copied() else {
                    return Err(r.token(&t, "End Site outside a joint"));
                };
                bvh.joints[j].end_sites.push(DVec3::ZERO);
                awaiting_brace = Some((Open::EndSite(j), t));
            }
            _ if t.text.eq_ignore_ascii_case("OFFSET") => {
                let mut v = [0.0; 3];
                for slot in &mut v {
                    let n = next(&mut i, "three OFFSET numbers", &t)?;
                    *slot = r.number(&n, "OFFSET", false)?;
                }
                match stack.last().copied() {
                    Some(Open::Joint(j)) => bvh.joints[j].offset = DVec3::from_array(v),
                    Some(Open::EndSite(j)) => {
                        *bvh.joints[j].end_sites.last_mut().expect("pushed with the block") = DVec3::from_array(v)
                    }
                    None => return Err(r.token(&t, "OFFSET outside a joint")),
                }
            }
            _ if t.text.eq_ignore_ascii_case("CHANNELS") => {
                let Some(Open::Joint(j)) = stack.last().copied() else {
                    return Err(r.token(&t, "CHANNELS outside a joint (End Sites have none)"));
                };
                if !bvh.joints[j].channels.is_empty() {
                    return Err(r.token(&t, format!("joint '{}' has a second CHANNELS line", bvh.joints[j].name)));
                }
                let count_token = next(&mut i, "a channel count", &t)?;
                let count: usize = count_token.text.parse().ok().filter(|&n| n <= 6).ok_or_else(|| {
                    r.token(&count_token, format!("expected a channel count from 0 to 6, found '{}'", count_token.text))
                })?;
                bvh.joints[j].first_channel = bvh.channel_count;
                for _ in 0..count {
                    let c = next(&mut i, "a channel name", &t)?;
                    let channel = BvhChannel::parse(c.text).ok_or_else(|| {
                        r.token(&c, format!("expected a channel name (Xposition … Zrotation), found '{}' ({count} channels declared)", c.text))
                    })?;
                    if bvh.joints[j].channels.contains(&channel) {
                        return Err(r.token(&c, format!("channel '{}' is listed twice", c.text)));
                    }
                    bvh.joints[j].channels.push(channel);
                }
                bvh.channel_count += count;
            }
            _ => {
                let expected = match stack.last() {
                    Some(Open::EndSite(_)) => "OFFSET or '}'",
                    Some(Open::Joint(_)) => "OFFSET, CHANNELS, JOINT, End Site or '}'",
                    None => "ROOT",
                };
                return Err(r.token(&t, format!("expected {expected}, found '{}'", t.text)));
            }
        }
    }
    let motion = motion.ok_or_else(|| {
        let at = tokens.last().map_or(end, |t| (t.line, t.column));
        r.at(
            at.0,
            at.1,
            if stack.is_empty() {
                "expected MOTION after the hierarchy"
            } else {
                "the hierarchy ends with a block still open: expected '}'"
            },
        )
    })?;
    if let Some((_, header)) = awaiting_brace {
        return Err(r.token(&header, format!("expected '{{' after '{}'", header.text)));
    }
    if !stack.is_empty() {
        return Err(r.token(&motion, format!("expected {} more '}}' before MOTION", stack.len())));
    }
    if bvh.joints.is_empty() {
        return Err(r.token(&motion, "the hierarchy has no ROOT"));
    }
    // MOTION header.
    let frames_line = line_iter.next().ok_or_else(|| r.token(&motion, "expected 'Frames: N' after MOTION"))?;
    let declared = read_header_number(&r, frames_line, "Frames:", &["Frames:"])?;
    if declared < 0.0 || declared.fract() != 0.0 {
        return Err(r.token(
            frames_line.tokens.last().expect("non-empty"),
            format!("expected a whole frame count, found {declared}"),
        ));
    }
    let declared = declared as usize;
    let time_line = line_iter
        .next()
        .ok_or_else(|| r.token(&frames_line.tokens[0], "expected 'Frame Time: SECONDS' after Frames:"))?;
    bvh.frame_time = read_header_number(&r, time_line, "Frame Time:", &["Frame", "Time:"])?;
    if bvh.frame_time <= 0.0 {
        return Err(r.token(
            time_line.tokens.last().expect("non-empty"),
            format!("expected a positive frame time, found {}", bvh.frame_time),
        ));
    }
    bvh.values.reserve(declared.saturating_mul(bvh.channel_count).min(1 << 26));
    let mut rows = 0usize;
    for line in line_iter {
        if line.tokens.len() != bvh.channel_count {
            let at = line.tokens.get(bvh.channel_count).or(line.tokens.last()).expect("non-empty");
            return Err(r.token(
                at,
                format!(
                    "frame row {}: expected {} values (the CHANNELS total), found {}",
                    rows + 1,
                    bvh.channel_count,
                    line.tokens.len()
                ),
            ));
        }
        for t in &line.tokens {
            bvh.values.push(r.number(t, "a channel value", false)?);
        }
        rows += 1;
        if rows == declared + 1 {
            bvh.warnings.push(warning(
                &line.tokens[0],
                format!("more frame rows than 'Frames: {declared}'; the extra rows are read"),
            ));
        }
    }
    if rows < declared {
        return Err(r.at(end.0, end.1, format!("'Frames: {declared}' but the file ends after {rows} frame rows")));
    }
    if bvh.channel_count == 0 {
        bvh.warnings.push(warning(&motion, "no joint has CHANNELS: the motion is empty"));
    }
    Ok(bvh)
}

/// `Frames: 10` / `Frame Time: 0.0083333`: the keyword tokens, then one number.
fn read_header_number(
    r: &Reporter,
    line: &super::text::Line<'_>,
    what: &str,
    keywords: &[&str],
) -> Result<f64, MocapError> {
    let t = &line.tokens;
    let matches =
        t.len() == keywords.len() + 1 && keywords.iter().zip(t.iter()).all(|(k, t)| t.text.eq_ignore_ascii_case(k));
    if !matches {
        return Err(r.token(&t[0], format!("expected '{what} NUMBER', found '{}'", line.text.trim())));
    }
    r.number(&t[keywords.len()], what, false)
}
