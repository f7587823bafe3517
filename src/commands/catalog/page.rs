//! What a catalogue writes besides the view images: the contact sheet of a humanoid's views and the
//! `index.html` page listing every humanoid and every failure.

use std::fmt::Write as _;

use anyhow::{Result, anyhow};

use super::{CatalogOptions, CatalogReport};

/// Gap between cells of a contact sheet, in pixels.
const SHEET_GAP: u32 = 8;
/// Contact sheet background (sRGB).
const SHEET_BACKGROUND: [u8; 4] = [32, 32, 32, 255];

/// The images side by side in one row with a gap around each; one empty cell when there are none.
pub fn contact_sheet(images: &[Vec<u8>], width: u32, height: u32) -> Result<(u32, u32, Vec<u8>)> {
    let cells = images.len().max(1) as u32;
    let sheet_width = cells * width + (cells + 1) * SHEET_GAP;
    let sheet_height = height + 2 * SHEET_GAP;
    let mut sheet = image::RgbaImage::from_pixel(sheet_width, sheet_height, image::Rgba(SHEET_BACKGROUND));
    for (i, rgba) in images.iter().enumerate() {
        let cell = image::RgbaImage::from_raw(width, height, rgba.clone())
            .ok_or_else(|| anyhow!("internal: a view image is not {width}x{height} RGBA"))?;
        let x = SHEET_GAP + i as u32 * (width + SHEET_GAP);
        image::imageops::replace(&mut sheet, &cell, i64::from(x), i64::from(SHEET_GAP));
    }
    Ok((sheet_width, sheet_height, sheet.into_raw()))
}

/// HTML text with `& < > " '` escaped.
fn escape(text: &str) -> String {
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
    let thumb = 160.min(options.size.width);
    let thumb_height = (thumb as f32 * options.size.height as f32 / options.size.width as f32).round() as u32;
    let mut out = String::new();
    let _ = writeln!(out, "<!DOCTYPE html>");
    let _ = writeln!(out, "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">");
    let _ = writeln!(out, "<head>\n<meta charset=\"utf-8\"/>\n<title>H-Anim humanoid catalogue</title>");
    let _ = writeln!(
        out,
        "<style>\nbody {{ font-family: sans-serif; margin: 1em 2em; background: #fafafa; }}\n\
         section {{ border-top: 1px solid #ccc; padding: 0.5em 0; }}\n\
         figure {{ display: inline-block; margin: 0 0.5em 0.5em 0; text-align: center; }}\n\
         figcaption {{ font-size: 0.85em; color: #444; }}\n\
         table {{ border-collapse: collapse; font-size: 0.9em; }}\n\
         td, th {{ text-align: left; padding: 0.1em 0.8em 0.1em 0; vertical-align: top; }}\n\
         .note {{ color: #a40; }}\n</style>\n</head>\n<body>"
    );
    let _ = writeln!(out, "<h1>H-Anim humanoid catalogue</h1>");
    let views: Vec<&str> = options.views.iter().map(|v| v.name()).collect();
    let _ = writeln!(
        out,
        "<p>{} humanoid(s) from {} file(s); {} failed. Views: {}; {}x{} pixels each, {}.</p>",
        report.entries.len(),
        report.files,
        report.failures.len(),
        escape(&views.join(", ")),
        options.size.width,
        options.size.height,
        escape(&options.pose)
    );
    if !report.entries.is_empty() {
        let _ = writeln!(out, "<ul>");
        for e in &report.entries {
            let _ = writeln!(
                out,
                "<li><a href=\"#{}\">{}</a> ({})</li>",
                escape(&e.id),
                escape(&e.summary.name),
                escape(&e.id)
            );
        }
        let _ = writeln!(out, "</ul>");
    }
    for e in &report.entries {
        let s = &e.summary;
        let _ = writeln!(out, "<section id=\"{}\">", escape(&e.id));
        let name = if s.name.is_empty() { "(unnamed humanoid)" } else { &s.name };
        let _ = writeln!(out, "<h2>{}</h2>", escape(name));
        let _ = writeln!(out, "<p>File: <code>{}</code></p>", escape(&e.file));
        if e.empty {
            let _ = writeln!(
                out,
                "<p class=\"note\">This humanoid has no joints and no geometry: its images are empty.</p>"
            );
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
    }
    if !report.failures.is_empty() {
        let _ = writeln!(out, "<section id=\"failures\">\n<h2>Files that failed</h2>\n<ul>");
        for f in &report.failures {
            let _ = writeln!(out, "<li><code>{}</code>: {}</li>", escape(&f.file), escape(&f.error));
        }
        let _ = writeln!(out, "</ul>\n</section>");
    }
    let _ = writeln!(out, "</body>\n</html>");
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
    fn html_text_is_escaped() {
        assert_eq!(escape("<a href='x'>&\"</a>"), "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;");
    }
}
