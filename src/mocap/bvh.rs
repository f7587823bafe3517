//! Biovision Hierarchy (BVH) parser: `HIERARCHY` with `ROOT`/`JOINT`/`End Site` blocks (`OFFSET`,
//! `CHANNELS`), then `MOTION` with `Frames:`, `Frame Time:` and one row of channel values per frame.
//! Nesting is tracked with an explicit stack, so a deep file cannot overflow the call stack.

use std::path::Path;

use glam::DVec3;

use super::text::{
    Line, MocapError, MocapWarning, Reporter, Syntax, Token, end_position, read_text, tokenize, warning,
};

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
    parse_bvh(&read_text(path, crate::input::InputKind::Bvh)?, path)
}

/// What the parser expects next inside the hierarchy.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Open {
    /// A joint block (index into `joints`).
    Joint(usize),
    /// An End Site block of the joint.
    EndSite(usize),
}

/// Parses BVH text; `path` names the file in messages.
pub fn parse_bvh(text: &str, path: &Path) -> Result<Bvh, MocapError> {
    let r = Reporter::new(path);
    let lines = tokenize(text, SYNTAX);
    let end = end_position(text);
    let mut line_iter = lines.iter();
    let (tokens, motion) = hierarchy_tokens(&r, &mut line_iter, end)?;
    let mut hierarchy = HierarchyReader {
        r: &r,
        tokens: &tokens,
        i: 0,
        bvh: Bvh { joints: Vec::new(), channel_count: 0, frame_time: 0.0, values: Vec::new(), warnings: Vec::new() },
        stack: Vec::new(),
        awaiting_brace: None,
        roots: 0,
    };
    hierarchy.read()?;
    let (mut bvh, motion) = hierarchy.finish(motion, end)?;
    read_motion(&r, &mut bvh, &motion, line_iter, end)?;
    Ok(bvh)
}

/// The tokens of the hierarchy, from after `HIERARCHY` up to `MOTION`, and the `MOTION` token if there is
/// one; the frame rows are read line by line afterwards.
fn hierarchy_tokens<'t>(
    r: &Reporter,
    lines: &mut std::slice::Iter<'_, Line<'t>>,
    end: (usize, usize),
) -> Result<(Vec<Token<'t>>, Option<Token<'t>>), MocapError> {
    let first = lines.next().ok_or_else(|| r.at(end.0, end.1, "the file is empty (expected HIERARCHY)"))?;
    if !first.tokens[0].text.eq_ignore_ascii_case("HIERARCHY") {
        // Not a BVH file: what it holds is not repeated (it may be any file).
        return Err(r.token(&first.tokens[0], "not a BVH file: expected HIERARCHY at its start".to_string()));
    }
    let mut tokens: Vec<Token<'t>> = first.tokens[1..].to_vec();
    for line in lines.by_ref() {
        if line.tokens[0].text.eq_ignore_ascii_case("MOTION") {
            return Ok((tokens, Some(line.tokens[0])));
        }
        tokens.extend(line.tokens.iter().copied());
    }
    Ok((tokens, None))
}

/// Reads the hierarchy's tokens into joints.
struct HierarchyReader<'a, 't> {
    r: &'a Reporter,
    tokens: &'a [Token<'t>],
    /// The next token.
    i: usize,
    bvh: Bvh,
    /// The blocks open around the next token.
    stack: Vec<Open>,
    /// A ROOT/JOINT/End Site header waiting for its `{`.
    awaiting_brace: Option<(Open, Token<'t>)>,
    roots: usize,
}

impl<'t> HierarchyReader<'_, 't> {
    /// The next token, which must exist: `what` says what is expected after `after`.
    fn next(&mut self, what: &str, after: &Token<'_>) -> Result<Token<'t>, MocapError> {
        let t = self
            .tokens
            .get(self.i)
            .copied()
            .ok_or_else(|| self.r.token(after, format!("expected {what} after '{}'", after.text)))?;
        self.i += 1;
        Ok(t)
    }

    fn read(&mut self) -> Result<(), MocapError> {
        let r = self.r;
        while self.i < self.tokens.len() {
            let t = self.tokens[self.i];
            self.i += 1;
            if let Some((open, header)) = self.awaiting_brace {
                if t.text != "{" {
                    return Err(r.token(&t, format!("expected '{{' after '{}', found '{}'", header.text, t.text)));
                }
                self.stack.push(open);
                self.awaiting_brace = None;
                continue;
            }
            match t.text {
                "}" => {
                    if self.stack.pop().is_none() {
                        return Err(r.token(&t, "unmatched '}' (no block is open)"));
                    }
                }
                _ if t.text.eq_ignore_ascii_case("ROOT") || t.text.eq_ignore_ascii_case("JOINT") => self.joint(t)?,
                _ if t.text.eq_ignore_ascii_case("End") => self.end_site(t)?,
                _ if t.text.eq_ignore_ascii_case("OFFSET") => self.offset(t)?,
                _ if t.text.eq_ignore_ascii_case("CHANNELS") => self.channels(t)?,
                _ => {
                    let expected = match self.stack.last() {
                        Some(Open::EndSite(_)) => "OFFSET or '}'",
                        Some(Open::Joint(_)) => "OFFSET, CHANNELS, JOINT, End Site or '}'",
                        None => "ROOT",
                    };
                    return Err(r.token(&t, format!("expected {expected}, found '{}'", t.text)));
                }
            }
        }
        Ok(())
    }

    /// `ROOT name` or `JOINT name` (`t` is the keyword); its block follows.
    fn joint(&mut self, t: Token<'t>) -> Result<(), MocapError> {
        let r = self.r;
        let is_root = t.text.eq_ignore_ascii_case("ROOT");
        let parent = match self.stack.last() {
            None if is_root => None,
            Some(Open::Joint(p)) if !is_root => Some(*p),
            Some(Open::EndSite(_)) => {
                return Err(r.token(&t, format!("'{}' inside an End Site (expected OFFSET or '}}')", t.text)));
            }
            None => return Err(r.token(&t, "expected ROOT at the top of the hierarchy, found JOINT")),
            Some(_) => return Err(r.token(&t, "expected JOINT inside a joint, found ROOT")),
        };
        if is_root {
            self.roots += 1;
            if self.roots > 1 {
                return Err(r.token(&t, "a second ROOT (expected one skeleton per file)"));
            }
        }
        let name = self.next("a joint name", &t)?;
        if name.text == "{" {
            return Err(r.token(&name, format!("expected a joint name after '{}', found '{{'", t.text)));
        }
        if self.bvh.joint_index(name.text).is_some() {
            return Err(r.token(&name, format!("joint name '{}' is used twice", name.text)));
        }
        self.bvh.joints.push(BvhJoint {
            name: name.text.to_string(),
            parent,
            offset: DVec3::ZERO,
            channels: Vec::new(),
            first_channel: self.bvh.channel_count,
            end_sites: Vec::new(),
            line: t.line,
        });
        self.awaiting_brace = Some((Open::Joint(self.bvh.joints.len() - 1), t));
        Ok(())
    }

    /// `End Site` (`t` is `End`); its block follows.
    fn end_site(&mut self, t: Token<'t>) -> Result<(), MocapError> {
        let site = self.next("'Site'", &t)?;
        if !site.text.eq_ignore_ascii_case("Site") {
            return Err(self.r.token(&site, format!("expected 'Site' after 'End', found '{}'", site.text)));
        }
        let Some(Open::Joint(j)) = self.stack.last().copied() else {
            return Err(self.r.token(&t, "End Site outside a joint"));
        };
        self.bvh.joints[j].end_sites.push(DVec3::ZERO);
        self.awaiting_brace = Some((Open::EndSite(j), t));
        Ok(())
    }

    /// `OFFSET x y z` of the open joint or End Site.
    fn offset(&mut self, t: Token<'t>) -> Result<(), MocapError> {
        let mut v = [0.0; 3];
        for slot in &mut v {
            let n = self.next("three OFFSET numbers", &t)?;
            *slot = self.r.number(&n, "OFFSET", false)?;
        }
        match self.stack.last().copied() {
            Some(Open::Joint(j)) => self.bvh.joints[j].offset = DVec3::from_array(v),
            Some(Open::EndSite(j)) => {
                *self.bvh.joints[j].end_sites.last_mut().expect("pushed with the block") = DVec3::from_array(v)
            }
            None => return Err(self.r.token(&t, "OFFSET outside a joint")),
        }
        Ok(())
    }

    /// `CHANNELS n name…` of the open joint: each channel at most once, at most six.
    fn channels(&mut self, t: Token<'t>) -> Result<(), MocapError> {
        let r = self.r;
        let Some(Open::Joint(j)) = self.stack.last().copied() else {
            return Err(r.token(&t, "CHANNELS outside a joint (End Sites have none)"));
        };
        if !self.bvh.joints[j].channels.is_empty() {
            return Err(r.token(&t, format!("joint '{}' has a second CHANNELS line", self.bvh.joints[j].name)));
        }
        let count_token = self.next("a channel count", &t)?;
        let count: usize = count_token.text.parse().ok().filter(|&n| n <= 6).ok_or_else(|| {
            r.token(&count_token, format!("expected a channel count from 0 to 6, found '{}'", count_token.text))
        })?;
        self.bvh.joints[j].first_channel = self.bvh.channel_count;
        for _ in 0..count {
            let c = self.next("a channel name", &t)?;
            let channel = BvhChannel::parse(c.text).ok_or_else(|| {
                r.token(
                    &c,
                    format!(
                        "expected a channel name (Xposition … Zrotation), found '{}' ({count} channels declared)",
                        c.text
                    ),
                )
            })?;
            if self.bvh.joints[j].channels.contains(&channel) {
                return Err(r.token(&c, format!("channel '{}' is listed twice", c.text)));
            }
            self.bvh.joints[j].channels.push(channel);
        }
        self.bvh.channel_count += count;
        Ok(())
    }

    /// The hierarchy is read: it must be complete, with a root, and followed by `MOTION`.
    fn finish(self, motion: Option<Token<'t>>, end: (usize, usize)) -> Result<(Bvh, Token<'t>), MocapError> {
        let r = self.r;
        let motion = motion.ok_or_else(|| {
            let at = self.tokens.last().map_or(end, |t| (t.line, t.column));
            r.at(
                at.0,
                at.1,
                if self.stack.is_empty() {
                    "expected MOTION after the hierarchy"
                } else {
                    "the hierarchy ends with a block still open: expected '}'"
                },
            )
        })?;
        if let Some((_, header)) = self.awaiting_brace {
            return Err(r.token(&header, format!("expected '{{' after '{}'", header.text)));
        }
        if !self.stack.is_empty() {
            return Err(r.token(&motion, format!("expected {} more '}}' before MOTION", self.stack.len())));
        }
        if self.bvh.joints.is_empty() {
            return Err(r.token(&motion, "the hierarchy has no ROOT"));
        }
        Ok((self.bvh, motion))
    }
}

/// After `MOTION`: `Frames:`, `Frame Time:` and one row of values per frame.
fn read_motion(
    r: &Reporter,
    bvh: &mut Bvh,
    motion: &Token<'_>,
    mut lines: std::slice::Iter<'_, Line<'_>>,
    end: (usize, usize),
) -> Result<(), MocapError> {
    let frames_line = lines.next().ok_or_else(|| r.token(motion, "expected 'Frames: N' after MOTION"))?;
    let declared = read_header_number(r, frames_line, "Frames:", &["Frames:"])?;
    if declared < 0.0 || declared.fract() != 0.0 {
        return Err(r.token(
            frames_line.tokens.last().expect("non-empty"),
            format!("expected a whole frame count, found {declared}"),
        ));
    }
    let declared = declared as usize;
    let time_line =
        lines.next().ok_or_else(|| r.token(&frames_line.tokens[0], "expected 'Frame Time: SECONDS' after Frames:"))?;
    bvh.frame_time = read_header_number(r, time_line, "Frame Time:", &["Frame", "Time:"])?;
    if bvh.frame_time <= 0.0 {
        return Err(r.token(
            time_line.tokens.last().expect("non-empty"),
            format!("expected a positive frame time, found {}", bvh.frame_time),
        ));
    }
    bvh.values.reserve(declared.saturating_mul(bvh.channel_count).min(1 << 26));
    let mut rows = 0usize;
    for line in lines {
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
        bvh.warnings.push(warning(motion, "no joint has CHANNELS: the motion is empty"));
    }
    Ok(())
}

/// `Frames: 10` / `Frame Time: 0.0083333`: the keyword tokens, then one number.
fn read_header_number(r: &Reporter, line: &Line<'_>, what: &str, keywords: &[&str]) -> Result<f64, MocapError> {
    let t = &line.tokens;
    let matches =
        t.len() == keywords.len() + 1 && keywords.iter().zip(t.iter()).all(|(k, t)| t.text.eq_ignore_ascii_case(k));
    if !matches {
        return Err(r.token(&t[0], format!("expected '{what} NUMBER', found '{}'", line.text.trim())));
    }
    r.number(&t[keywords.len()], what, false)
}
