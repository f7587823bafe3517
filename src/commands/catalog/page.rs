//! What a catalogue writes besides the view images: the contact sheet of a humanoid's views and the
//! `index.html` page listing every humanoid and every failure.

use std::fmt::Write as _;

use anyhow::{Result, anyhow};

use super::manifest::{Manifest, PageEntry, PageFailure};
use super::{CatalogEntry, CatalogOptions, CatalogReport, Failure, Preview};
use crate::render::ImageSize;

/// Gap between cells of a contact sheet, in pixels.
const SHEET_GAP: u32 = 8;
/// Contact sheet background (sRGB).
const SHEET_BACKGROUND: [u8; 4] = [32, 32, 32, 255];

/// The images side by side in one row with a gap around each; one empty cell when there are none.
pub fn contact_sheet(images: &[Vec<u8>], width: u32, height: u32) -> Result<(u32, u32, Vec<u8>)> {
    contact_sheet_rows(&[images], width, height)
}

/// Rows of images (the views, then a filmstrip per clip), each row left-aligned, with a gap around
/// every cell; the sheet is as wide as the longest row (at least one cell).
pub fn contact_sheet_rows(rows: &[&[Vec<u8>]], width: u32, height: u32) -> Result<(u32, u32, Vec<u8>)> {
    let cells = rows.iter().map(|r| r.len()).max().unwrap_or(0).max(1) as u32;
    let row_count = rows.len().max(1) as u32;
    let sheet_width = cells * width + (cells + 1) * SHEET_GAP;
    let sheet_height = row_count * height + (row_count + 1) * SHEET_GAP;
    let mut sheet = image::RgbaImage::from_pixel(sheet_width, sheet_height, image::Rgba(SHEET_BACKGROUND));
    for (r, row) in rows.iter().enumerate() {
        let y = SHEET_GAP + r as u32 * (height + SHEET_GAP);
        for (i, rgba) in row.iter().enumerate() {
            let cell = image::RgbaImage::from_raw(width, height, rgba.clone())
                .ok_or_else(|| anyhow!("internal: an image is not {width}x{height} RGBA"))?;
            let x = SHEET_GAP + i as u32 * (width + SHEET_GAP);
            image::imageops::replace(&mut sheet, &cell, i64::from(x), i64::from(y));
        }
    }
    Ok((sheet_width, sheet_height, sheet.into_raw()))
}

/// HTML text with `& < > " '` escaped.
pub(super) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// A well-formed (XHTML-compatible) HTML page: each humanoid with its thumbnails, name, info fields,
/// LOA and counts, then the failed files. No run-dependent text (times, dates), so that re-running on
/// the same inputs gives the same page.
pub fn index_html(report: &CatalogReport, options: &CatalogOptions) -> String {
    manifest(report, options).html()
}

/// The page's parts for `report` (see [`Manifest`]).
pub fn manifest(report: &CatalogReport, options: &CatalogOptions) -> Manifest {
    Manifest {
        title: "H-Anim humanoid catalogue".to_string(),
        noun: "humanoid".to_string(),
        settings: settings_line(options),
        files: report.files,
        entries: report
            .entries
            .iter()
            .map(|e| PageEntry {
                order: e.order,
                id: e.id.clone(),
                toc: toc_item(&e.id, &e.summary.name),
                section: entry_section(e, options),
                outputs: e.outputs(),
            })
            .collect(),
        failures: report.failures.iter().map(|f| PageFailure { order: f.order, item: failure_item(f) }).collect(),
    }
}

/// What every image of the run was made with (HTML).
fn settings_line(options: &CatalogOptions) -> String {
    let views: Vec<&str> = options.views.iter().map(|v| v.name()).collect();
    let mut line = format!(
        "Views: {}; {}x{} pixels each, {}.",
        escape(&views.join(", ")),
        options.size.width,
        options.size.height,
        escape(&options.pose)
    );
    if let Some(p) = &options.previews {
        let _ = write!(line, " {}", escape(&p.describe()));
    }
    line
}

/// The table-of-contents line of an entry.
pub(super) fn toc_item(id: &str, name: &str) -> String {
    format!("<li><a href=\"#{}\">{}</a> ({})</li>", escape(id), escape(name), escape(id))
}

/// A failed input's line.
pub(super) fn failure_item(f: &Failure) -> String {
    format!("<li><code>{}</code>: {}</li>", escape(&f.file), escape(&f.error))
}

/// Thumbnail size on the page for images of `size`.
pub(super) fn thumbnail(size: ImageSize) -> (u32, u32) {
    let thumb = 160.min(size.width);
    (thumb, (thumb as f32 * size.height as f32 / size.width as f32).round() as u32)
}

/// The moving previews of an entry, each with its caption (HTML).
pub(super) fn previews_html(previews: &[Preview], alt: &str, size: ImageSize) -> String {
    let mut out = String::new();
    if previews.is_empty() {
        return out;
    }
    let (thumb, thumb_height) = thumbnail(size);
    let _ = writeln!(out, "<div class=\"previews\">");
    for p in previews {
        let src = escape(&p.image);
        let _ = writeln!(
            out,
            "<figure><a href=\"{src}\"><img src=\"{src}\" width=\"{thumb}\" height=\"{thumb_height}\" alt=\"{} {}\"/></a>\
             <figcaption>{}</figcaption></figure>",
            escape(alt),
            escape(&p.label),
            escape(&p.caption())
        );
    }
    let _ = writeln!(out, "</div>");
    for p in previews {
        if let Some(note) = &p.note {
            let _ = writeln!(out, "<p class=\"note\">{}: {}.</p>", escape(&p.label), escape(note));
        }
    }
    out
}

/// One humanoid's section: thumbnails, previews, notes and its table.
fn entry_section(e: &CatalogEntry, options: &CatalogOptions) -> String {
    let (thumb, thumb_height) = thumbnail(options.size);
    let mut out = String::new();
    let s = &e.summary;
    let _ = writeln!(out, "<section id=\"{}\">", escape(&e.id));
    let name = if s.name.is_empty() { "(unnamed humanoid)" } else { &s.name };
    let _ = writeln!(out, "<h2>{}</h2>", escape(name));
    let _ = writeln!(out, "<p>File: <code>{}</code></p>", escape(&e.file));
    if e.empty {
        let _ =
            writeln!(out, "<p class=\"note\">This humanoid has no joints and no geometry: its images are empty.</p>");
    }
    if let Some(note) = &e.pose_note {
        let _ = writeln!(out, "<p class=\"note\">Shown at rest: {}.</p>", escape(note));
    }
    if e.skeleton_shown {
        let _ = writeln!(
            out,
            "<p class=\"note\">Skeleton drawn: the figure's own geometry is mostly lines and points.</p>"
        );
    }
    let _ = writeln!(out, "<div>");
    for image in &e.images {
        let src = escape(&image.image);
        let _ = writeln!(
            out,
            "<figure><a href=\"{src}\"><img src=\"{src}\" width=\"{thumb}\" height=\"{thumb_height}\" alt=\"{} {}\"/></a>\
             <figcaption>{}</figcaption></figure>",
            escape(name),
            image.view.name(),
            image.view.label()
        );
    }
    let _ = writeln!(out, "</div>");
    out.push_str(&previews_html(&e.previews, name, options.size));
    for (view, why) in &e.missing {
        let _ = writeln!(out, "<p class=\"note\">No {} view: {}.</p>", view.name(), escape(why));
    }
    let _ = writeln!(out, "<p><a href=\"{}\">Contact sheet</a></p>", escape(&e.sheet));
    let _ = writeln!(out, "<table>");
    let mut row = |key: &str, value: &str| {
        let _ = writeln!(out, "<tr><th>{}</th><td>{}</td></tr>", escape(key), escape(value));
    };
    let loa = if s.loa < 0 { "not stated (-1)".to_string() } else { s.loa.to_string() };
    row("LOA", &loa);
    row("version", &s.version);
    if !s.description.is_empty() {
        row("description", &s.description);
    }
    for entry in &s.info {
        row(&entry.key, &entry.value);
    }
    let c = &s.counts;
    row("joints", &c.joints.to_string());
    row("segments", &c.segments.to_string());
    row("sites", &format!("{} ({} viewpoint sites)", c.sites, c.viewpoint_sites));
    row("displacers", &format!("{} on joints, {} on segments", c.displacers_on_joints, c.displacers_on_segments));
    row("skin", &format!("{} points, {} weighted joints", c.skin_points, c.skinned_joints));
    row("motions", &c.motions.to_string());
    if let Some(b) = &s.rest_bbox {
        row("size at rest (m)", &format!("{:.3} x {:.3} x {:.3}", b.size[0], b.size[1], b.size[2]));
    }
    row("warnings", &s.warning_count.to_string());
    let _ = writeln!(out, "</table>\n</section>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contact_sheet_places_cells_in_a_row() {
        let red = [255u8, 0, 0, 255].repeat(4);
        let blue = [0u8, 0, 255, 255].repeat(4);
        let (w, h, rgba) = contact_sheet(&[red, blue], 2, 2).unwrap();
        assert_eq!((w, h), (2 * 2 + 3 * SHEET_GAP, 2 + 2 * SHEET_GAP));
        let pixel = |x: u32, y: u32| &rgba[((y * w + x) * 4) as usize..((y * w + x) * 4 + 4) as usize];
        assert_eq!(pixel(SHEET_GAP, SHEET_GAP), [255, 0, 0, 255]);
        assert_eq!(pixel(2 * SHEET_GAP + 2, SHEET_GAP + 1), [0, 0, 255, 255]);
        assert_eq!(pixel(0, 0), SHEET_BACKGROUND);
    }

    #[test]
    fn contact_sheet_rows_stack_the_filmstrips_under_the_views() {
        let red = [255u8, 0, 0, 255].repeat(4);
        let green = [0u8, 255, 0, 255].repeat(4);
        let views = [red.clone()];
        let strip = [green.clone(), green.clone(), green];
        let (w, h, rgba) = contact_sheet_rows(&[&views, &strip], 2, 2).unwrap();
        assert_eq!((w, h), (3 * 2 + 4 * SHEET_GAP, 2 * 2 + 3 * SHEET_GAP));
        let pixel = |x: u32, y: u32| &rgba[((y * w + x) * 4) as usize..((y * w + x) * 4 + 4) as usize];
        assert_eq!(pixel(SHEET_GAP, SHEET_GAP), [255, 0, 0, 255]);
        // The first row has one cell; its second is background.
        assert_eq!(pixel(2 * SHEET_GAP + 2, SHEET_GAP), SHEET_BACKGROUND);
        let second_row = 2 * SHEET_GAP + 2;
        for cell in 0..3 {
            assert_eq!(pixel(SHEET_GAP + cell * (2 + SHEET_GAP), second_row), [0, 255, 0, 255]);
        }
    }

    #[test]
    fn html_text_is_escaped() {
        assert_eq!(escape("<a href='x'>&\"</a>"), "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;");
    }
}
