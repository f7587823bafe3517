//! Acclaim Skeleton File (ASF) parser, after "Acclaim Skeleton File Definition V1.10" (M. Schafer, 1994).
//!
//! Every keyword of the definition is read: `:version`, `:name`, `:units` (`mass`, `length`, `angle`),
//! `:documentation`, `:root` (`order`, `axis`, `position`, `orientation`), `:bonedata` (`begin … end`
//! blocks with `id`, `name`, `direction`, `length`, `axis` with its rotation order, `dof`, `limits`,
//! `bodymass`, `cofmass`), `:hierarchy` and `:skin`. `(`, `)` and `,` are whitespace and `#` starts a
//! comment, as the definition says. The parser is a flat loop over lines: a file of any size or depth
//! cannot overflow the stack.

mod bonedata;
mod header;
mod hierarchy;
mod skeleton;

use std::path::Path;

pub use skeleton::{Asf, AsfRotationOrder, AsfUnits, Bone, Dof, Root};

use super::text::{Line, MocapError, Reporter, Syntax, end_position, read_text, tokenize};
use bonedata::BoneData;
use header::{read_root, read_units};
use hierarchy::Hierarchy;

const SYNTAX: Syntax = Syntax { extra_separators: &['(', ')', ','], hash_comments: true };

/// Reads and parses an ASF file.
pub fn load_asf(path: &Path) -> Result<Asf, MocapError> {
    parse_asf(&read_text(path, crate::input::InputKind::Asf)?, path)
}

/// Parses ASF text; `path` names the file in messages.
pub fn parse_asf(text: &str, path: &Path) -> Result<Asf, MocapError> {
    let mut parser = AsfParser::new(path);
    for line in &tokenize(text, SYNTAX) {
        parser.line(line)?;
    }
    parser.finish(end_position(text))
}

/// The part of the file a line belongs to: the last `:keyword` before it.
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

/// The parser's state between lines.
struct AsfParser<'t> {
    r: Reporter,
    asf: Asf,
    section: Section,
    seen_root: bool,
    bones: BoneData,
    hierarchy: Hierarchy<'t>,
}

impl<'t> AsfParser<'t> {
    fn new(path: &Path) -> Self {
        let asf = Asf {
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
        let (bones, hierarchy) = (BoneData::default(), Hierarchy::default());
        AsfParser { r: Reporter::new(path), asf, section: Section::None, seen_root: false, bones, hierarchy }
    }

    fn line(&mut self, line: &Line<'t>) -> Result<(), MocapError> {
        let first = line.tokens[0];
        if first.text.starts_with(':') {
            self.bones.check_closed(&self.r, &first)?;
            self.hierarchy.check_closed(&self.r, &first)?;
            self.section = self.keyword(line)?;
            return Ok(());
        }
        let (r, asf) = (&self.r, &mut self.asf);
        match self.section {
            // Before any keyword the file has not shown itself to be an ASF: nothing of it is repeated.
            Section::None => Err(r.token(
                &first,
                "expected a keyword such as :version, :name, :units, :root, :bonedata or :hierarchy".to_string(),
            )),
            Section::Unknown => Ok(()),
            Section::Documentation => {
                asf.documentation.push_str(line.text.trim());
                asf.documentation.push('\n');
                Ok(())
            }
            Section::Skin => {
                asf.skins.extend(line.tokens.iter().map(|t| t.text.trim_matches('"').to_string()));
                Ok(())
            }
            Section::Units => read_units(r, line, asf),
            Section::Root => read_root(r, line, &mut asf.root),
            Section::BoneData => self.bones.read_line(r, line, asf),
            Section::Hierarchy => self.hierarchy.read_line(r, line, &self.bones.names),
        }
    }

    /// The file is read (`end` is its last line and column): what it must have had, then the skeleton
    /// its hierarchy builds.
    fn finish(mut self, end: (usize, usize)) -> Result<Asf, MocapError> {
        let r = &self.r;
        self.bones.check_ended(r, end)?;
        self.hierarchy.check_ended(r, end)?;
        let (end_line, end_column) = end;
        if self.asf.root.order.is_empty() {
            return Err(r.at(
                end_line,
                end_column,
                if self.seen_root {
                    "expected 'order' in :root (the channels of an AMC root line)"
                } else {
                    "expected a :root section"
                },
            ));
        }
        if self.asf.bones.is_empty() {
            return Err(r.at(end_line, end_column, "expected :bonedata with at least one bone"));
        }
        if !self.hierarchy.seen {
            return Err(r.at(end_line, end_column, "expected a :hierarchy section"));
        }
        self.hierarchy.resolve(r, &mut self.asf)?;
        Ok(self.asf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
