//! Laying out a Text node's strings (ISO/IEC 19775-1, 15.2.2.3 "Direction and justification", 15.4.2
//! "Text"): each glyph gets an affine map from its font units into the Text node's local XY plane.
//!
//! Horizontal text: the first line's baseline is at y = 0 for the minor alignment FIRST, each further
//! line `spacing × size` below it (above it when `topToBottom` is FALSE); characters run in +X (or, with
//! `leftToRight` FALSE, the string is read from the right). The major alignment places a line's start
//! (BEGIN/FIRST), centre (MIDDLE) or end (END) on x = 0. Vertical text (`horizontal` FALSE) swaps the
//! roles: characters run down (or up) one em each, columns advance `spacing × size` in X.
//!
//! `length` scales each line along the major direction to that length; `maxExtent` then compresses all
//! lines alike so that the longest is at most that long (15.4.2). One em is `size` (the font's units per
//! em map onto it).

use glam::{Affine2, Vec2};
use ttf_parser::GlyphId;

use super::{Family, FontStyle, Justify, TextFields};
use crate::x3d::{NodeId, Scene, X3dError};

/// Horizontal shear of the ITALIC approximation (x += shear · y): about 11°, the slant of the DejaVu
/// Oblique faces.
pub const ITALIC_SHEAR: f32 = 0.2;

/// Width (in em) of the outline stroke that thickens glyphs for the BOLD approximation: a DejaVu Sans stem
/// is about 0.09 em, its Bold about 0.14 em.
pub const BOLD_STROKE_EM: f32 = 0.045;

/// One glyph and where it goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacedGlyph {
    pub glyph: GlyphId,
    /// Font units → the Text node's local XY plane.
    pub transform: Affine2,
}

/// A laid-out Text node.
#[derive(Debug, Clone, PartialEq)]
pub struct TextLayout {
    pub family: Family,
    pub glyphs: Vec<PlacedGlyph>,
    /// Width of the BOLD outline stroke in font units (0 for regular weight).
    pub stroke: f32,
    /// Texture origin (the first string's origin after justification) and one texture unit (`size`):
    /// 15.2.2.4 "the texture is scaled equally in both S and T dimensions, with the font height
    /// representing 1 unit", S to the right, T up.
    pub texture_origin: Vec2,
    pub size: f32,
}

/// One string's glyphs, placed along the line in font units.
struct Line {
    glyphs: Vec<(GlyphId, Vec2)>,
    /// Extent along the major direction (font units).
    extent: f32,
}

/// The layout of the Text node `text`.
pub fn layout_text(scene: &Scene, text: NodeId) -> Result<TextLayout, X3dError> {
    Ok(layout(&TextFields::of(scene, text)?))
}

/// Lays out `fields` with the bundled font of their family.
pub fn layout(fields: &TextFields) -> TextLayout {
    let style = &fields.style;
    let face = style.family.face();
    let upem = f32::from(face.units_per_em().max(1));
    let ascender = f32::from(face.ascender());
    let descender = f32::from(face.descender());
    let k = style.size / upem;
    let stroke = if style.bold { BOLD_STROKE_EM * upem } else { 0.0 };
    let shear = if style.italic { ITALIC_SHEAR } else { 0.0 };

    let lines: Vec<Line> = fields
        .strings
        .iter()
        .map(|s| {
            let mut chars: Vec<char> = s.chars().filter(|c| !c.is_control()).collect();
            let reversed = if style.horizontal { !style.left_to_right } else { !style.top_to_bottom };
            if reversed {
                chars.reverse();
            }
            let mut glyphs = Vec::with_capacity(chars.len());
            let mut pen = 0.0f32;
            for c in chars {
                // A character the font lacks draws its .notdef box, as browsers do.
                let glyph = face.glyph_index(c).unwrap_or(GlyphId(0));
                let advance = f32::from(face.glyph_hor_advance(glyph).unwrap_or(0)) + stroke;
                if style.horizontal {
                    glyphs.push((glyph, Vec2::new(pen + stroke * 0.5, 0.0)));
                    pen += advance;
                } else {
                    // One em per character, centred on the column's axis, the em box's top at the pen.
                    let baseline = -pen - upem * ascender / (ascender - descender).max(1.0);
                    glyphs.push((glyph, Vec2::new(-advance * 0.5 + stroke * 0.5, baseline)));
                    pen += upem;
                }
            }
            Line { glyphs, extent: pen }
        })
        .collect();

    // Per line: the scale along the major direction from `length`, then `maxExtent` for all.
    let mut scales: Vec<f32> = lines
        .iter()
        .enumerate()
        .map(|(i, line)| match fields.length.get(i) {
            Some(&l) if l > 0.0 && l.is_finite() && line.extent > 0.0 => l / (line.extent * k),
            _ => 1.0,
        })
        .collect();
    let longest = lines.iter().zip(&scales).map(|(l, s)| l.extent * k * s).fold(0.0f32, f32::max);
    if fields.max_extent > 0.0 && longest > fields.max_extent {
        let squeeze = fields.max_extent / longest;
        scales.iter_mut().for_each(|s| *s *= squeeze);
    }

    let count = lines.len();
    let line_step = style.spacing * style.size;
    let [major, minor] = style.justify;
    let mut glyphs = Vec::new();
    let mut texture_origin = Vec2::ZERO;
    // Each line's map from its font units into the local plane (italic shear applied per glyph).
    for (i, (line, scale)) in lines.iter().zip(&scales).enumerate() {
        let length = line.extent * k * scale;
        let to_local = if style.horizontal {
            // Table 15.2 (major, horizontal): BEGIN/FIRST put the line's start at x = 0, which is its
            // right end when reading right to left.
            let start = match (major, style.left_to_right) {
                (Justify::Begin | Justify::First, true) | (Justify::End, false) => 0.0,
                (Justify::Begin | Justify::First, false) | (Justify::End, true) => -length,
                (Justify::Middle, _) => -length * 0.5,
            };
            let down = if style.top_to_bottom { -1.0 } else { 1.0 };
            let baseline = down * i as f32 * line_step
                + minor_offset_horizontal(minor, style, count, line_step, ascender * k, descender * k);
            Affine2::from_cols(Vec2::new(k * scale, 0.0), Vec2::new(0.0, k), Vec2::new(start, baseline))
        } else {
            // Major along Y: the column's top (its start when reading downwards) at y = 0 for BEGIN.
            let top = match (major, style.top_to_bottom) {
                (Justify::Begin | Justify::First, true) | (Justify::End, false) => 0.0,
                (Justify::Begin | Justify::First, false) | (Justify::End, true) => length,
                (Justify::Middle, _) => length * 0.5,
            };
            let across = if style.left_to_right { 1.0 } else { -1.0 };
            let axis = across * i as f32 * line_step + minor_offset_vertical(minor, style, count, line_step);
            Affine2::from_cols(Vec2::new(k, 0.0), Vec2::new(0.0, k * scale), Vec2::new(axis, top))
        };
        if i == 0 {
            texture_origin = to_local.transform_point2(Vec2::ZERO);
        }
        let italic = Affine2::from_cols(Vec2::X, Vec2::new(shear, 1.0), Vec2::ZERO);
        for &(glyph, pen) in &line.glyphs {
            let transform = to_local * Affine2::from_translation(pen) * italic;
            glyphs.push(PlacedGlyph { glyph, transform });
        }
    }
    TextLayout { family: style.family, glyphs, stroke, texture_origin, size: style.size }
}

/// Where the minor alignment puts the first baseline (horizontal text; Table 15.3). `ascent` and
/// `descent` (negative) are the font's line box in local units. FIRST: the first baseline at y = 0;
/// BEGIN: the first line's outer edge (its top, or its bottom when lines stack upwards) at y = 0; END:
/// the last line's outer edge; MIDDLE: the block's centre.
fn minor_offset_horizontal(
    minor: Justify,
    style: &FontStyle,
    count: usize,
    step: f32,
    ascent: f32,
    descent: f32,
) -> f32 {
    let last = count.saturating_sub(1) as f32 * step;
    // Block edges relative to the first baseline, in the stacking direction.
    let (first_outer, last_outer) =
        if style.top_to_bottom { (ascent, -last + descent) } else { (descent, last + ascent) };
    match minor {
        Justify::First => 0.0,
        Justify::Begin => -first_outer,
        Justify::End => -last_outer,
        Justify::Middle => -(first_outer + last_outer) * 0.5,
    }
}

/// Where the minor alignment puts the first column's axis (vertical text): each column is one em
/// (`size`) wide. FIRST/BEGIN: the first column's outer edge at x = 0; END: the last column's; MIDDLE:
/// the block's centre.
fn minor_offset_vertical(minor: Justify, style: &FontStyle, count: usize, step: f32) -> f32 {
    let across = if style.left_to_right { 1.0 } else { -1.0 };
    let half = style.size * 0.5 * across;
    let last = count.saturating_sub(1) as f32 * step * across;
    match minor {
        Justify::First | Justify::Begin => half,
        Justify::End => -(last + half),
        Justify::Middle => -last * 0.5,
    }
}

/// The rectangle (min, max) in the local XY plane that the glyphs of Text node `text` cover (their
/// outline boxes, widened by the BOLD stroke); `None` when nothing is drawn.
pub fn text_bounds(scene: &Scene, text: NodeId) -> Result<Option<(Vec2, Vec2)>, X3dError> {
    Ok(layout_bounds(&layout_text(scene, text)?))
}

/// The rectangle a layout's glyph boxes cover.
pub fn layout_bounds(layout: &TextLayout) -> Option<(Vec2, Vec2)> {
    let face = layout.family.face();
    let mut lo = Vec2::splat(f32::INFINITY);
    let mut hi = Vec2::splat(f32::NEG_INFINITY);
    let pad = layout.stroke * 0.5;
    for placed in &layout.glyphs {
        let Some(r) = face.glyph_bounding_box(placed.glyph) else { continue };
        let (x0, y0) = (f32::from(r.x_min) - pad, f32::from(r.y_min) - pad);
        let (x1, y1) = (f32::from(r.x_max) + pad, f32::from(r.y_max) + pad);
        for corner in [Vec2::new(x0, y0), Vec2::new(x1, y0), Vec2::new(x0, y1), Vec2::new(x1, y1)] {
            let p = placed.transform.transform_point2(corner);
            lo = lo.min(p);
            hi = hi.max(p);
        }
    }
    (lo.x <= hi.x).then_some((lo, hi))
}
