//! How the UI's text looks: the bundled DejaVu faces as a fallback behind egui's own fonts (so arrows,
//! triangles and ellipses the UI writes are drawn, not boxes), no text style under 12 points, and weak
//! text (hints, captions, the status bar's asides) at a contrast of at least 4.5:1 (WCAG AA) against the
//! panels, windows and text fields it is drawn on, in the dark and the light theme.

use egui::epaint::text::{FontInsert, FontPriority, InsertFontFamily};
use egui::{Color32, FontData, FontFamily, TextStyle, Theme};

/// The smallest text the UI draws, in points.
pub const MIN_TEXT_POINTS: f32 = 12.0;

/// The contrast WCAG 2 asks of normal-sized text (level AA).
pub const MIN_CONTRAST: f32 = 4.5;

/// Text sizes (points): captions and small print no smaller than [`MIN_TEXT_POINTS`].
const TEXT_SIZES: [(TextStyle, f32); 5] = [
    (TextStyle::Small, MIN_TEXT_POINTS),
    (TextStyle::Body, 13.5),
    (TextStyle::Button, 13.5),
    (TextStyle::Monospace, 13.0),
    (TextStyle::Heading, 18.0),
];

/// Installs the fallback fonts, the text sizes and the text colours once per context (later calls cost
/// a look-up). The fonts take effect from the next frame, as egui applies new fonts between frames.
pub fn install(ctx: &egui::Context) {
    let id = egui::Id::unique("hanim_viewer_look_installed");
    if ctx.data(|d| d.get_temp::<bool>(id)).unwrap_or(false) {
        return;
    }
    ctx.data_mut(|d| d.insert_temp(id, true));
    for (name, data, families) in [
        ("DejaVuSans", crate::font::SANS, [FontFamily::Proportional, FontFamily::Monospace].as_slice()),
        ("DejaVuSansMono", crate::font::MONO, [FontFamily::Monospace].as_slice()),
    ] {
        ctx.add_font(FontInsert {
            name: name.to_owned(),
            data: FontData::from_static(data),
            families: families
                .iter()
                .map(|family| InsertFontFamily { family: family.clone(), priority: FontPriority::Lowest })
                .collect(),
        });
    }
    for theme in [Theme::Dark, Theme::Light] {
        ctx.style_mut_of(theme, |style| apply(style, theme));
    }
}

/// The text sizes and colours of `theme` applied to `style`.
fn apply(style: &mut egui::Style, theme: Theme) {
    for (text_style, size) in TEXT_SIZES {
        let family = if text_style == TextStyle::Monospace { FontFamily::Monospace } else { FontFamily::Proportional };
        style.text_styles.insert(text_style, egui::FontId::new(size, family));
    }
    let v = &mut style.visuals;
    match theme {
        // egui's dark text (grey 140) reads at 5:1 on its panels, its weak text (the same at 60 %) at
        // 2.7:1: the text is made lighter and the weak text a plain grey between the two.
        Theme::Dark => {
            v.widgets.noninteractive.fg_stroke.color = Color32::from_gray(200);
            v.weak_text_color = Some(Color32::from_gray(158));
        }
        Theme::Light => {
            v.widgets.noninteractive.fg_stroke.color = Color32::from_gray(40);
            v.weak_text_color = Some(Color32::from_gray(96));
        }
    }
}

/// The backgrounds weak and normal text are drawn on: panels, windows, text fields, striped rows.
pub fn text_backgrounds(v: &egui::Visuals) -> [Color32; 4] {
    [v.panel_fill, v.window_fill, v.extreme_bg_color, blend(v.faint_bg_color, v.panel_fill)]
}

/// `over` (premultiplied, possibly translucent) drawn on the opaque `under`.
pub fn blend(over: Color32, under: Color32) -> Color32 {
    let a = f32::from(over.a()) / 255.0;
    let mix = |o: u8, u: u8| (f32::from(o) + f32::from(u) * (1.0 - a)).round().clamp(0.0, 255.0) as u8;
    Color32::from_rgb(mix(over.r(), under.r()), mix(over.g(), under.g()), mix(over.b(), under.b()))
}

/// WCAG 2 relative luminance of an sRGB colour (alpha ignored).
pub fn luminance(c: Color32) -> f32 {
    let channel = |v: u8| {
        let s = f32::from(v) / 255.0;
        if s <= 0.04045 { s / 12.92 } else { ((s + 0.055) / 1.055).powf(2.4) }
    };
    0.2126 * channel(c.r()) + 0.7152 * channel(c.g()) + 0.0722 * channel(c.b())
}

/// WCAG 2 contrast ratio of two opaque colours (1 to 21).
pub fn contrast(a: Color32, b: Color32) -> f32 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contrast_matches_the_wcag_examples() {
        assert!((contrast(Color32::BLACK, Color32::WHITE) - 21.0).abs() < 0.01);
        assert!((contrast(Color32::from_gray(118), Color32::WHITE) - 4.54).abs() < 0.02);
        assert_eq!(blend(Color32::TRANSPARENT, Color32::from_gray(27)), Color32::from_gray(27));
    }
}
