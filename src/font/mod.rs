//! Fonts for X3D `Text` (ISO/IEC 19775-1, clause 15): the bundled faces, the `FontStyle` fields, and
//! the layout of a Text node's strings into placed glyphs ([`layout`](mod@layout)). Meshing the glyph outlines is
//! `mesh::text`; bounds use [`text_bounds`] here, so that `pose` needs no mesh.
//!
//! The faces are DejaVu Sans, DejaVu Serif and DejaVu Sans Mono (Bitstream Vera licence, text in
//! `assets/fonts/LICENSE-DejaVu.txt`), embedded in the binary. Bold and italic are approximated from the
//! regular faces (an outline stroke and a shear; see [`layout::BOLD_STROKE_EM`], [`layout::ITALIC_SHEAR`])
//! to keep the binary small.

pub mod layout;

pub use layout::{PlacedGlyph, TextLayout, layout, layout_text, text_bounds};

use crate::x3d::{NodeId, Scene, X3dError};

/// The faces; Sans and Mono are also the UI's fallback fonts (`crate::ui::look`).
pub(crate) const SANS: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
const SERIF: &[u8] = include_bytes!("../../assets/fonts/DejaVuSerif.ttf");
pub(crate) const MONO: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansMono.ttf");

/// The three font families every X3D browser supports (15.2.2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    Serif,
    Sans,
    Typewriter,
}

impl Family {
    /// The bundled face of this family.
    pub fn face(self) -> ttf_parser::Face<'static> {
        let bytes = match self {
            Family::Serif => SERIF,
            Family::Sans => SANS,
            Family::Typewriter => MONO,
        };
        // The fonts are part of the binary and parsed in a test: this cannot fail at run time.
        ttf_parser::Face::parse(bytes, 0).expect("bundled font parses")
    }

    /// The family a `family` name selects: the three keywords, or a common font name mapped onto the
    /// bundled face that looks most like it; `None` for a name we cannot match.
    pub fn from_name(name: &str) -> Option<Family> {
        let upper = name.trim().to_ascii_uppercase();
        let has = |words: &[&str]| words.iter().any(|w| upper.contains(w));
        if has(&["TYPEWRITER", "MONO", "COURIER", "CONSOLA", "MENLO", "FIXED"]) {
            Some(Family::Typewriter)
        } else if has(&["SANS", "ARIAL", "HELVETICA", "VERDANA", "TAHOMA", "CALIBRI", "SEGOE", "GENEVA"]) {
            Some(Family::Sans)
        } else if has(&["SERIF", "TIMES", "GEORGIA", "ROMAN", "GARAMOND", "PALATINO", "CAMBRIA"]) {
            Some(Family::Serif)
        } else {
            None
        }
    }

    /// The first supported name of a `family` list; the default SERIF when none is (15.2.2.2: "If none
    /// of the string values matches a supported font family, the default font family SERIF shall be
    /// used").
    pub fn from_list(names: &[String]) -> Family {
        names.iter().find_map(|n| Family::from_name(n)).unwrap_or(Family::Serif)
    }
}

/// One value of `FontStyle.justify` (15.2.2.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Justify {
    First,
    Begin,
    Middle,
    End,
}

impl Justify {
    fn parse(value: &str) -> Option<Justify> {
        match value.trim().to_ascii_uppercase().as_str() {
            "FIRST" => Some(Justify::First),
            "BEGIN" => Some(Justify::Begin),
            "MIDDLE" => Some(Justify::Middle),
            "END" => Some(Justify::End),
            _ => None,
        }
    }
}

/// The fields of a `FontStyle` node (15.4.1), with its defaults when the Text has none.
#[derive(Debug, Clone, PartialEq)]
pub struct FontStyle {
    pub family: Family,
    pub bold: bool,
    pub italic: bool,
    /// Nominal height of the glyphs (one em) in local units.
    pub size: f32,
    /// Baseline-to-baseline distance in multiples of `size`.
    pub spacing: f32,
    /// Major and minor alignment.
    pub justify: [Justify; 2],
    pub horizontal: bool,
    pub left_to_right: bool,
    pub top_to_bottom: bool,
}

impl Default for FontStyle {
    fn default() -> Self {
        FontStyle {
            family: Family::Serif,
            bold: false,
            italic: false,
            size: 1.0,
            spacing: 1.0,
            justify: [Justify::Begin, Justify::First],
            horizontal: true,
            left_to_right: true,
            top_to_bottom: true,
        }
    }
}

impl FontStyle {
    /// The style of a Text node: its `fontStyle` child's fields, or the defaults.
    pub fn of_text(scene: &Scene, text: NodeId) -> Result<FontStyle, X3dError> {
        let Some(node) = scene.node(text).children_in("fontStyle").next() else { return Ok(FontStyle::default()) };
        let mut style = FontStyle::default();
        if scene.node(node).field("family").is_some() {
            style.family = Family::from_list(&scene.mf_string(node, "family")?);
        }
        let face = scene.string(node, "style").unwrap_or("PLAIN").trim().trim_matches('"').to_ascii_uppercase();
        style.bold = face.contains("BOLD");
        style.italic = face.contains("ITALIC");
        // Size must be positive (15.4.1); a non-positive or non-finite value is ignored.
        let size = scene.sf_float(node, "size", 1.0)? * scene.units_of(node).length as f32;
        if size.is_finite() && size > 0.0 {
            style.size = size;
        }
        let spacing = scene.sf_float(node, "spacing", 1.0)?;
        if spacing.is_finite() && spacing >= 0.0 {
            style.spacing = spacing;
        }
        // 15.2.2.3: an empty or shorter `justify` means BEGIN for the major and FIRST for the minor
        // direction; unknown words are treated like a missing value.
        let justify = scene.mf_string(node, "justify")?;
        if let Some(major) = justify.first().and_then(|j| Justify::parse(j)) {
            style.justify[0] = major;
        }
        if let Some(minor) = justify.get(1).and_then(|j| Justify::parse(j)) {
            style.justify[1] = minor;
        }
        style.horizontal = scene.sf_bool(node, "horizontal", true)?;
        style.left_to_right = scene.sf_bool(node, "leftToRight", true)?;
        style.top_to_bottom = scene.sf_bool(node, "topToBottom", true)?;
        Ok(style)
    }
}

/// The fields of a `Text` node (15.4.2) that decide its geometry.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TextFields {
    /// One entry per line.
    pub strings: Vec<String>,
    /// Per line: the length to scale it to (≤ 0 or missing: its natural length).
    pub length: Vec<f32>,
    /// Longest line allowed (≤ 0: no limit).
    pub max_extent: f32,
    pub style: FontStyle,
}

impl TextFields {
    pub fn of(scene: &Scene, text: NodeId) -> Result<TextFields, X3dError> {
        let k = scene.units_of(text).length as f32;
        Ok(TextFields {
            strings: scene.mf_string(text, "string")?,
            length: scene.mf_float(text, "length")?.into_iter().map(|l| l * k).collect(),
            max_extent: scene.sf_float(text, "maxExtent", 0.0)? * k,
            style: FontStyle::of_text(scene, text)?,
        })
    }

    /// Plain one-style text, for tests and callers without a scene.
    pub fn new(strings: &[&str], style: FontStyle) -> TextFields {
        TextFields { strings: strings.iter().map(|s| s.to_string()).collect(), style, ..TextFields::default() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_faces_parse_and_have_latin_glyphs() {
        for family in [Family::Serif, Family::Sans, Family::Typewriter] {
            let face = family.face();
            for c in "Hg&é0".chars() {
                assert!(face.glyph_index(c).is_some(), "{family:?} lacks {c}");
            }
        }
    }

    #[test]
    fn family_names_map_to_the_bundled_faces() {
        assert_eq!(Family::from_name("SANS"), Some(Family::Sans));
        assert_eq!(Family::from_name("Arial"), Some(Family::Sans));
        assert_eq!(Family::from_name("TYPEWRITER"), Some(Family::Typewriter));
        assert_eq!(Family::from_name("Courier New"), Some(Family::Typewriter));
        assert_eq!(Family::from_name("Times New Roman"), Some(Family::Serif));
        assert_eq!(Family::from_name("Wingdings"), None);
        let list = |names: &[&str]| Family::from_list(&names.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(list(&["Wingdings", "TYPEWRITER"]), Family::Typewriter, "first supported name wins");
        assert_eq!(list(&["Wingdings"]), Family::Serif, "none supported: SERIF (15.2.2.2)");
    }
}
