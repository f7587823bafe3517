//! X3D `Text` (ISO/IEC 19775-1, clause 15) as triangles: every glyph outline of the bundled font, laid
//! out by [`crate::font::layout`], is filled with lyon's tessellator under TrueType's non-zero rule
//! (counters such as the hole of an "o" wind the other way and stay empty). The result lies in the
//! node's local XY plane, faces +Z and is drawn like any rigid face set with the Shape's Appearance;
//! Text's `solid` defaults to FALSE (15.4.2), so callers draw it from both sides unless the file says
//! otherwise.

use std::collections::HashMap;

use glam::{Vec2, Vec3};
use lyon_tessellation::path::{Path, math::point};
use lyon_tessellation::{
    BuffersBuilder, FillOptions, FillRule, FillTessellator, FillVertex, LineJoin, StrokeOptions, StrokeTessellator,
    StrokeVertex, VertexBuffers,
};
use ttf_parser::GlyphId;

use super::PrimitiveMesh;
use crate::font::{self, TextLayout};
use crate::x3d::{NodeId, Scene, X3dError};

/// Flattening tolerance of curves, as a fraction of an em: well under a pixel for text of any size
/// that fits the view.
const TOLERANCE_EM: f32 = 0.002;

/// The triangles of a Text node; `None` for any other node type.
pub fn text_of(scene: &Scene, geometry: NodeId) -> Result<Option<PrimitiveMesh>, X3dError> {
    if scene.node(geometry).type_name != "Text" {
        return Ok(None);
    }
    Ok(Some(text_mesh(&font::layout_text(scene, geometry)?)))
}

/// One glyph's triangles in font units.
#[derive(Default)]
struct GlyphTriangles {
    points: Vec<Vec2>,
    indices: Vec<u32>,
}

/// The triangles of a laid-out text: normal +Z, counter-clockwise seen from +Z, texture coordinates
/// from the layout's texture origin in units of `size` (15.2.2.4).
pub fn text_mesh(layout: &TextLayout) -> PrimitiveMesh {
    let face = layout.family.face();
    let tolerance = TOLERANCE_EM * f32::from(face.units_per_em().max(1));
    let mut cache: HashMap<GlyphId, GlyphTriangles> = HashMap::new();
    let mut mesh = PrimitiveMesh::default();
    for placed in &layout.glyphs {
        let glyph =
            cache.entry(placed.glyph).or_insert_with(|| tessellate(&face, placed.glyph, tolerance, layout.stroke));
        let first = mesh.points.len() as u32;
        for &p in &glyph.points {
            let q = placed.transform.transform_point2(p);
            mesh.points.push(Vec3::new(q.x, q.y, 0.0));
            mesh.normals.push(Vec3::Z);
            let uv = (q - layout.texture_origin) / layout.size;
            mesh.uvs.push(uv.to_array());
        }
        // The layout's maps keep orientation (positive scales, a shear), so the winding set in
        // `tessellate` holds after them.
        mesh.indices.extend(glyph.indices.iter().map(|&i| first + i));
    }
    mesh
}

/// Fills (and, for BOLD, strokes with width `stroke`) one glyph's outline.
fn tessellate(face: &ttf_parser::Face, glyph: GlyphId, tolerance: f32, stroke: f32) -> GlyphTriangles {
    let mut builder = OutlinePath { builder: Path::builder(), open: false };
    if face.outline_glyph(glyph, &mut builder).is_none() {
        // A space, or a glyph without an outline.
        return GlyphTriangles::default();
    }
    if builder.open {
        builder.builder.end(true);
    }
    let path = builder.builder.build();
    let mut buffers: VertexBuffers<Vec2, u32> = VertexBuffers::new();
    let fill = FillOptions::tolerance(tolerance).with_fill_rule(FillRule::NonZero);
    let filled = FillTessellator::new().tessellate_path(
        &path,
        &fill,
        &mut BuffersBuilder::new(&mut buffers, |v: FillVertex| Vec2::new(v.position().x, v.position().y)),
    );
    if let Err(e) = filled {
        log::warn!("glyph {} could not be filled: {e:?}", glyph.0);
        buffers = VertexBuffers::new();
    }
    if stroke > 0.0 {
        let options = StrokeOptions::tolerance(tolerance).with_line_width(stroke).with_line_join(LineJoin::Round);
        let mut outline: VertexBuffers<Vec2, u32> = VertexBuffers::new();
        let stroked = StrokeTessellator::new().tessellate_path(
            &path,
            &options,
            &mut BuffersBuilder::new(&mut outline, |v: StrokeVertex| Vec2::new(v.position().x, v.position().y)),
        );
        if stroked.is_ok() {
            let first = buffers.vertices.len() as u32;
            buffers.vertices.extend(outline.vertices);
            buffers.indices.extend(outline.indices.iter().map(|&i| first + i));
        }
    }
    let mut indices = Vec::with_capacity(buffers.indices.len());
    for t in buffers.indices.chunks_exact(3) {
        let [a, b, c] = [t[0], t[1], t[2]].map(|i| buffers.vertices[i as usize]);
        let area = (b - a).perp_dot(c - a);
        // lyon does not promise a winding: turn each triangle counter-clockwise about +Z (the front);
        // slivers with no area draw nothing and are dropped.
        if area > 0.0 {
            indices.extend([t[0], t[1], t[2]]);
        } else if area < 0.0 {
            indices.extend([t[0], t[2], t[1]]);
        }
    }
    GlyphTriangles { points: buffers.vertices, indices }
}

/// ttf-parser's outline callbacks building a lyon path (font units, y up).
struct OutlinePath {
    builder: lyon_tessellation::path::path::Builder,
    open: bool,
}

impl ttf_parser::OutlineBuilder for OutlinePath {
    fn move_to(&mut self, x: f32, y: f32) {
        if self.open {
            self.builder.end(true);
        }
        self.builder.begin(point(x, y));
        self.open = true;
    }

    fn line_to(&mut self, x: f32, y: f32) {
        if self.open {
            self.builder.line_to(point(x, y));
        }
    }

    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        if self.open {
            self.builder.quadratic_bezier_to(point(x1, y1), point(x, y));
        }
    }

    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        if self.open {
            self.builder.cubic_bezier_to(point(x1, y1), point(x2, y2), point(x, y));
        }
    }

    fn close(&mut self) {
        if self.open {
            self.builder.end(true);
            self.open = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::font::{Family, FontStyle, Justify, TextFields};

    fn style(f: impl FnOnce(&mut FontStyle)) -> FontStyle {
        let mut s = FontStyle { family: Family::Sans, ..FontStyle::default() };
        f(&mut s);
        s
    }

    fn mesh(fields: &TextFields) -> PrimitiveMesh {
        text_mesh(&font::layout(fields))
    }

    fn plain(strings: &[&str]) -> PrimitiveMesh {
        mesh(&TextFields::new(strings, style(|_| {})))
    }

    /// (min, max) of the points.
    fn extent(m: &PrimitiveMesh) -> (Vec3, Vec3) {
        let lo = m.points.iter().copied().fold(Vec3::splat(f32::MAX), Vec3::min);
        let hi = m.points.iter().copied().fold(Vec3::splat(f32::MIN), Vec3::max);
        (lo, hi)
    }

    fn width(m: &PrimitiveMesh) -> f32 {
        let (lo, hi) = extent(m);
        hi.x - lo.x
    }

    #[test]
    fn one_line_is_flat_front_facing_triangles() {
        let m = plain(&["Hello"]);
        assert!(m.indices.len() / 3 > 20, "{} triangles", m.indices.len() / 3);
        assert_eq!(m.indices.len() % 3, 0);
        assert!(m.points.iter().all(|p| p.z == 0.0), "the text lies in z = 0");
        assert!(m.normals.iter().all(|&n| n == Vec3::Z));
        for t in m.indices.chunks(3) {
            let [a, b, c] = [0, 1, 2].map(|k| m.points[t[k] as usize]);
            assert!((b - a).cross(c - a).z > 0.0, "triangle {t:?} is not counter-clockwise about +Z");
        }
        // One em is `size` (1): capitals about 0.73 high on the baseline, the descender-less word above it.
        let (lo, hi) = extent(&m);
        assert!(lo.y.abs() < 0.02 && (0.7..0.8).contains(&hi.y), "{lo} {hi}");
        assert!(lo.x >= 0.0, "BEGIN: the line starts at x = 0 ({lo})");
    }

    #[test]
    fn the_counter_of_an_o_stays_empty() {
        // Non-zero fill: the inner contour winds the other way; the area is the ring, not the disc.
        let m = plain(&["o"]);
        let area: f32 = m
            .indices
            .chunks(3)
            .map(|t| {
                let [a, b, c] = [0, 1, 2].map(|k| m.points[t[k] as usize]);
                (b - a).cross(c - a).z * 0.5
            })
            .sum();
        let (lo, hi) = extent(&m);
        let disc = std::f32::consts::PI * 0.25 * (hi.x - lo.x) * (hi.y - lo.y);
        assert!(area < 0.6 * disc, "ring area {area} vs disc {disc}");
    }

    #[test]
    fn width_grows_with_the_string_and_the_size() {
        let (one, two, three) = (width(&plain(&["H"])), width(&plain(&["HH"])), width(&plain(&["HHH"])));
        assert!(one > 0.4 && two > one + 0.5 && three > two + 0.5, "{one} {two} {three}");
        let big = mesh(&TextFields::new(&["HH"], style(|s| s.size = 3.0)));
        assert!((width(&big) - 3.0 * two).abs() < 1e-3, "size scales the text");
    }

    #[test]
    fn justify_places_the_line_on_x_zero() {
        let at = |major| extent(&mesh(&TextFields::new(&["HHH"], style(|s| s.justify = [major, Justify::First]))));
        let (lo, hi) = at(Justify::Middle);
        assert!((lo.x + hi.x).abs() < 0.02, "MIDDLE centres the line: {lo} {hi}");
        let (lo, _) = at(Justify::Begin);
        assert!((0.0..0.15).contains(&lo.x), "BEGIN: starts at 0 (plus the side bearing): {lo}");
        let (_, hi) = at(Justify::End);
        assert!((-0.15..=0.0).contains(&hi.x), "END: ends at 0: {hi}");
        // Minor MIDDLE centres the block vertically, BEGIN puts its top (the ascender) at y = 0.
        let (lo, hi) =
            extent(&mesh(&TextFields::new(&["H", "H"], style(|s| s.justify = [Justify::Begin, Justify::Middle]))));
        assert!((lo.y + hi.y).abs() < 0.1, "{lo} {hi}");
        let (_, hi) = extent(&mesh(&TextFields::new(&["H"], style(|s| s.justify = [Justify::Begin, Justify::Begin]))));
        assert!((-0.3..0.0).contains(&hi.y), "the H's top lies just under the ascender at 0: {hi}");
    }

    #[test]
    fn spacing_and_top_to_bottom_stack_the_lines() {
        let (lo, hi) = extent(&mesh(&TextFields::new(&["H", "H"], style(|s| s.spacing = 2.0))));
        assert!((lo.y + 2.0).abs() < 0.02 && (hi.y - 0.73).abs() < 0.02, "line 2 two ems below: {lo} {hi}");
        let (lo, hi) = extent(&mesh(&TextFields::new(
            &["H", "H"],
            style(|s| {
                s.spacing = 2.0;
                s.top_to_bottom = false;
            }),
        )));
        assert!(lo.y.abs() < 0.02 && (hi.y - 2.73).abs() < 0.02, "line 2 two ems above: {lo} {hi}");
    }

    #[test]
    fn right_to_left_reverses_the_characters() {
        // "HI" read from the right: the I (narrow) is left of the H. With leftToRight FALSE, BEGIN puts
        // the line's start (its right end) at x = 0.
        let rtl = mesh(&TextFields::new(&["HI"], style(|s| s.left_to_right = false)));
        let (lo, hi) = extent(&rtl);
        assert!(hi.x <= 0.0 && lo.x < -0.8, "{lo} {hi}");
        let ltr = mesh(&TextFields::new(&["IH"], style(|_| {})));
        assert!((width(&rtl) - width(&ltr)).abs() < 1e-3);
    }

    #[test]
    fn vertical_text_runs_down_in_a_column() {
        let m = mesh(&TextFields::new(&["HHH"], style(|s| s.horizontal = false)));
        let (lo, hi) = extent(&m);
        assert!(hi.x - lo.x < 1.0 && hi.y - lo.y > 2.5, "a column: {lo} {hi}");
        assert!(hi.y <= 0.0 && lo.x >= 0.0, "BEGIN/FIRST: top at y = 0, left edge at x = 0: {lo} {hi}");
    }

    #[test]
    fn length_scales_each_line_and_max_extent_clamps_all() {
        let with = |length: Vec<f32>, max_extent: f32, strings: &[&str]| {
            mesh(&TextFields { length, max_extent, ..TextFields::new(strings, style(|_| {})) })
        };
        let natural = width(&with(vec![], 0.0, &["HH"]));
        let (two, four) = (width(&with(vec![2.0], 0.0, &["HH"])), width(&with(vec![4.0], 0.0, &["HH"])));
        assert!((four / two - 2.0).abs() < 1e-3, "{two} {four}");
        assert!((1.6..=2.0).contains(&two), "stretched to about 2: {two} (natural {natural})");
        let short = width(&with(vec![0.5], 0.0, &["HH"]));
        assert!(short <= 0.5 && short > 0.4, "compressed to 0.5: {short}");
        // maxExtent: a long line is squeezed to it, a short one left alone; all lines by one factor.
        let long = with(vec![], 2.0, &["Hello, world", "Hi"]);
        assert!(width(&long) <= 2.0 && width(&long) > 1.8, "{}", width(&long));
        assert!((width(&with(vec![], 100.0, &["HH"])) - natural).abs() < 1e-5);
        let alone = width(&with(vec![], 0.0, &["Hi"]));
        let squeezed_hi = width(&with(vec![], 2.0, &["Hi"]));
        assert!((squeezed_hi - alone).abs() < 1e-5, "a line shorter than maxExtent is not stretched");
    }

    #[test]
    fn empty_strings_give_no_triangles() {
        assert!(plain(&[]).indices.is_empty());
        assert!(plain(&[""]).indices.is_empty());
        assert!(plain(&["   "]).indices.is_empty(), "spaces have no outline");
    }

    #[test]
    fn styles_change_the_shape() {
        let regular = plain(&["H"]);
        let bold = mesh(&TextFields::new(&["H"], style(|s| s.bold = true)));
        let italic = mesh(&TextFields::new(&["H"], style(|s| s.italic = true)));
        assert!(width(&bold) > width(&regular) + 0.03, "bold is wider");
        assert!(width(&italic) > width(&regular) + 0.1, "italic leans right");
        let (lo, _) = extent(&italic);
        assert!(lo.y.abs() < 0.02, "the shear keeps the baseline");
    }

    fn scene_text(fields: &str, font_style: &str) -> PrimitiveMesh {
        let text = format!(
            "<X3D version='4.0'><Scene><Shape><Text DEF='T' {fields}>{font_style}</Text></Shape></Scene></X3D>"
        );
        let scene = crate::x3d::load_str(&text, std::path::Path::new("t.x3d"), &Default::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let id = scene.reachable().into_iter().find(|&id| scene.node(id).type_name == "Text").unwrap();
        text_of(&scene, id).unwrap().unwrap()
    }

    #[test]
    fn fields_are_read_from_the_file() {
        let m = scene_text(
            "string='\"AB\" \"C\"'",
            "<FontStyle size='2' justify='\"MIDDLE\" \"MIDDLE\"' family='\"SANS\"'/>",
        );
        let (lo, hi) = extent(&m);
        // The advance boxes are centred; the ink differs by the side bearings of A and B.
        assert!((lo.x + hi.x).abs() < 0.3 && (lo.y + hi.y).abs() < 0.3, "centred: {lo} {hi}");
        assert!(hi.y - lo.y > 3.0, "two lines of size 2: {lo} {hi}");
        let sans = scene_text("string='\"Hamburg\"'", "<FontStyle family='\"SANS\"'/>");
        let serif = scene_text("string='\"Hamburg\"'", "<FontStyle family='\"SERIF\"'/>");
        let unknown = scene_text("string='\"Hamburg\"'", "<FontStyle family='\"NoSuchFont\"'/>");
        let none = scene_text("string='\"Hamburg\"'", "");
        assert_ne!(sans.points, serif.points);
        assert_eq!(unknown.points, serif.points, "an unknown family falls back to SERIF (15.2.2.2)");
        assert_eq!(none.points, serif.points, "FontStyle's default family is SERIF");
        assert!(scene_text("string=''", "").indices.is_empty());
    }
}
