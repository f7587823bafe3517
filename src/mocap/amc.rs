//! Acclaim Motion Capture (AMC) parser: a header (`:FULLY-SPECIFIED`, `:DEGREES` or `:RADIANS`), then
//! frames, each a line with the frame number followed by one `bone v1 v2 …` line per animated bone with
//! its values in the order of the bone's `dof` list (`root` uses `:root order`). An AMC only makes sense
//! with its ASF, which says how many values each line holds.

use std::collections::HashMap;
use std::path::Path;

use super::asf::Asf;
use super::text::{
    Line, MocapError, MocapWarning, Reporter, Syntax, Token, end_position, read_text, tokenize, warning,
};

const SYNTAX: Syntax = Syntax { extra_separators: &[], hash_comments: true };

/// A parsed AMC motion, values laid out per frame in the ASF's slot order: the root's channels, then
/// each bone's dofs in [`Asf::bones`] order ([`Amc::slot_of_bone`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Amc {
    pub fully_specified: bool,
    /// Angles in degrees (`:DEGREES`, or the ASF's unit when the AMC states none).
    pub degrees: bool,
    /// The frame numbers as written.
    pub frame_numbers: Vec<i64>,
    /// `frame_count × values_per_frame` numbers, frame-major.
    pub values: Vec<f64>,
    pub values_per_frame: usize,
    /// First slot of each bone (index = bone index); the root's slots start at 0.
    pub slot_of_bone: Vec<usize>,
    /// Bone lines read per frame (the root counts as one).
    pub lines_per_frame: Vec<usize>,
    pub warnings: Vec<MocapWarning>,
}

impl Amc {
    pub fn frame_count(&self) -> usize {
        self.frame_numbers.len()
    }

    pub fn frame(&self, frame: usize) -> &[f64] {
        &self.values[frame * self.values_per_frame..(frame + 1) * self.values_per_frame]
    }
}

/// Reads and parses an AMC file for `asf`.
pub fn load_amc(path: &Path, asf: &Asf) -> Result<Amc, MocapError> {
    parse_amc(&read_text(path, crate::input::InputKind::Amc)?, path, asf)
}

/// Parses AMC text for `asf`; `path` names the file in messages.
///
/// A bone missing from a frame keeps its value from the previous frame (0 in the first) with a warning:
/// real files break `:FULLY-SPECIFIED` (CMU 07_12.amc's last frame has no `ltoes` line).
pub fn parse_amc(text: &str, path: &Path, asf: &Asf) -> Result<Amc, MocapError> {
    let mut reader = AmcReader::new(path, asf);
    let lines = tokenize(text, SYNTAX);
    for line in &lines {
        let first = line.tokens[0];
        if first.text.starts_with(':') {
            reader.header_keyword(&first)?;
        } else if line.tokens.len() == 1 && first.text.bytes().all(|b| b.is_ascii_digit() || b == b'-' || b == b'+') {
            reader.frame_number(&first)?;
        } else {
            reader.bone_line(line)?;
        }
    }
    if reader.amc.frame_numbers.is_empty() {
        let (line, column) = end_position(text);
        return Err(reader.r.at(
            line,
            column,
            "expected at least one frame (a frame number line followed by bone lines)",
        ));
    }
    let last = lines.last().map(|l| l.tokens[0]).expect("frames imply lines");
    Ok(reader.finish(&last))
}

/// The parser's state between lines.
struct AmcReader<'a> {
    r: Reporter,
    asf: &'a Asf,
    amc: Amc,
    /// Whether the header said `:DEGREES` or `:RADIANS`.
    angle_stated: bool,
    /// Which bone lines the current frame has seen (index `bones.len()` = root).
    seen: Vec<bool>,
    missing_reported: usize,
    /// Bone index by lower-case name.
    bone_by_name: HashMap<String, usize>,
}

impl<'a> AmcReader<'a> {
    fn new(path: &Path, asf: &'a Asf) -> Self {
        let mut slot_of_bone = Vec::with_capacity(asf.bones.len());
        let mut next = asf.root.order.len();
        for bone in &asf.bones {
            slot_of_bone.push(next);
            next += bone.dofs.len();
        }
        let amc = Amc {
            fully_specified: false,
            degrees: asf.units.degrees,
            frame_numbers: Vec::new(),
            values: Vec::new(),
            values_per_frame: next,
            slot_of_bone,
            lines_per_frame: Vec::new(),
            warnings: Vec::new(),
        };
        AmcReader {
            r: Reporter::new(path),
            asf,
            amc,
            angle_stated: false,
            seen: vec![false; asf.bones.len() + 1],
            missing_reported: 0,
            bone_by_name: asf.bones.iter().enumerate().map(|(i, b)| (b.name.to_ascii_lowercase(), i)).collect(),
        }
    }

    /// Whether the text has shown itself to be an AMC motion (a header keyword or a frame number): only
    /// then do messages repeat its words, so that any other file given as a motion is never printed.
    fn looks_like_amc(&self) -> bool {
        self.amc.fully_specified || self.angle_stated || !self.amc.frame_numbers.is_empty()
    }

    /// `:FULLY-SPECIFIED`, `:DEGREES` or `:RADIANS` (`first` starts with `:`), only before the first frame.
    fn header_keyword(&mut self, first: &Token<'_>) -> Result<(), MocapError> {
        if !self.amc.frame_numbers.is_empty() {
            return Err(self.r.token(
                first,
                format!(
                    "expected a bone line or a frame number, found the header keyword '{}' after the first frame",
                    first.text
                ),
            ));
        }
        let keyword = &first.text[1..];
        match keyword.to_ascii_uppercase().as_str() {
            "FULLY-SPECIFIED" => self.amc.fully_specified = true,
            "DEGREES" | "DEGREE" => {
                self.amc.degrees = true;
                self.angle_stated = true;
            }
            "RADIANS" | "RADIAN" => {
                self.amc.degrees = false;
                self.angle_stated = true;
            }
            _ => self.amc.warnings.push(warning(first, format!("unknown header keyword '{}' ignored", first.text))),
        }
        Ok(())
    }

    /// A line holding only a frame number: the previous frame is complete, a new one starts with its values.
    fn frame_number(&mut self, first: &Token<'_>) -> Result<(), MocapError> {
        let number: i64 = first.text.parse().map_err(|_| {
            let message = if self.looks_like_amc() {
                format!("expected a frame number, found '{}'", first.text)
            } else {
                "expected a frame number".to_string()
            };
            self.r.token(first, message)
        })?;
        let amc = &mut self.amc;
        if !amc.frame_numbers.is_empty() {
            finish_frame(amc, &mut self.seen, self.asf, first, &mut self.missing_reported);
        }
        if let Some(&previous) = amc.frame_numbers.last()
            && number != previous + 1
        {
            amc.warnings.push(warning(
                first,
                format!("frame {number} follows frame {previous} (frames are expected to run contiguously)"),
            ));
        }
        amc.frame_numbers.push(number);
        // Start from the previous frame's values so that a missing bone line keeps them.
        let per_frame = amc.values_per_frame;
        let start = amc.values.len();
        if start >= per_frame {
            amc.values.extend_from_within(start - per_frame..start);
        } else {
            amc.values.resize(per_frame, 0.0);
        }
        amc.lines_per_frame.push(0);
        Ok(())
    }

    /// `bone v1 v2 …` (or `root …`) in the open frame: one value per dof of the bone.
    fn bone_line(&mut self, line: &Line<'_>) -> Result<(), MocapError> {
        let (r, asf) = (&self.r, self.asf);
        let first = line.tokens[0];
        if self.amc.frame_numbers.is_empty() {
            let expected = "expected a frame number (a line holding only an integer) before bone lines";
            let message =
                if self.looks_like_amc() { format!("{expected}, found '{}'", first.text) } else { expected.into() };
            return Err(r.token(&first, message));
        }
        let (index, slot, count, what) = if first.text.eq_ignore_ascii_case("root") {
            (asf.bones.len(), 0, asf.root.order.len(), "root (:root order)".to_string())
        } else {
            let Some(&b) = self.bone_by_name.get(&first.text.to_ascii_lowercase()) else {
                return Err(r.token(
                    &first,
                    format!("unknown bone '{}' (expected a bone of the ASF, 'root' or a frame number)", first.text),
                ));
            };
            let bone = &asf.bones[b];
            let dofs: Vec<&str> = bone.dofs.iter().map(|d| d.name()).collect();
            (b, self.amc.slot_of_bone[b], bone.dofs.len(), format!("bone '{}' (dof {})", bone.name, dofs.join(" ")))
        };
        if std::mem::replace(&mut self.seen[index], true) {
            let frame = self.amc.frame_numbers.last().copied().unwrap_or(0);
            return Err(r.token(&first, format!("'{}' appears twice in frame {frame}", first.text)));
        }
        let values = &line.tokens[1..];
        if values.len() != count {
            let at = values.get(count).or(values.last()).unwrap_or(&first);
            return Err(r.token(at, format!("{what}: expected {count} values, found {}", values.len())));
        }
        let frame_start = self.amc.values.len() - self.amc.values_per_frame;
        for (k, token) in values.iter().enumerate() {
            self.amc.values[frame_start + slot + k] = r.number(token, &what, false)?;
        }
        *self.amc.lines_per_frame.last_mut().expect("a frame is open") += 1;
        Ok(())
    }

    /// The file is read: the last frame is complete (`last` is the last line's first token).
    fn finish(mut self, last: &Token<'_>) -> Amc {
        finish_frame(&mut self.amc, &mut self.seen, self.asf, last, &mut self.missing_reported);
        if !self.angle_stated && !self.asf.units.degrees {
            self.amc.warnings.push(MocapWarning {
                line: 1,
                column: 1,
                message: "no :DEGREES or :RADIANS; using the ASF's angle unit (rad)".into(),
            });
        }
        self.amc
    }
}

/// Warns about animated bones the frame left out (their values were carried over) and resets `seen`.
fn finish_frame(amc: &mut Amc, seen: &mut [bool], asf: &Asf, at: &Token<'_>, reported: &mut usize) {
    let frame = amc.frame_numbers.last().copied().unwrap_or(0);
    let root = asf.bones.len();
    let mut missing: Vec<&str> = Vec::new();
    if !seen[root] {
        missing.push("root");
    }
    for (b, bone) in asf.bones.iter().enumerate() {
        if !bone.dofs.is_empty() && !seen[b] {
            missing.push(&bone.name);
        }
    }
    if !missing.is_empty() {
        *reported += 1;
        let kept = if amc.frame_numbers.len() > 1 { "kept from the previous frame" } else { "set to 0" };
        amc.warnings.push(warning(at, format!("frame {frame} has no line for {} ({kept})", missing.join(", "))));
    }
    seen.iter_mut().for_each(|s| *s = false);
}
