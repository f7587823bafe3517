//! What a catalogue writes besides the view images: the contact sheet of a humanoid's views and the
//! `index.html` page listing every humanoid and every failure.

use std::fmt::Write as _;

use anyhow::{Result, anyhow};

use super::manifest::{Figure, Link, Manifest, PageEntry, PageFailure, Row, Source};
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
        entries: report.entries.iter().map(|e| entry_page(e, options)).collect(),
        failures: report.failures.iter().map(page_failure).collect(),
    }
}

/// What every image of the run was made with.
fn settings_line(options: &CatalogOptions) -> String {
    let views: Vec<&str> = options.views.iter().map(|v| v.name()).collect();
    let mut line = format!(
        "Views: {}; {}x{} pixels each, {}.",
        views.join(", "),
        options.size.width,
        options.size.height,
        options.pose
    );
    if let Some(p) = &options.previews {
        let _ = write!(line, " {}", p.describe());
    }
    line
}

/// A failed input's line.
pub(super) fn page_failure(f: &Failure) -> PageFailure {
    PageFailure { order: f.order, file: f.file.clone(), error: f.error.clone() }
}

/// Thumbnail size on the page for images of `size`.
pub(super) fn thumbnail(size: ImageSize) -> (u32, u32) {
    let thumb = 160.min(size.width);
    (thumb, (thumb as f32 * size.height as f32 / size.width as f32).round() as u32)
}

/// The moving previews of an entry as figures, and the notes they carry (a preview cut short).
pub(super) fn preview_figures(previews: &[Preview], alt: &str, size: ImageSize) -> (Vec<Figure>, Vec<String>) {
    let (width, height) = thumbnail(size);
    let figures = previews
        .iter()
        .map(|p| Figure {
            src: p.image.clone(),
            width,
            height,
            alt: format!("{alt} {}", p.label),
            caption: p.caption(),
        })
        .collect();
    let notes = previews.iter().filter_map(|p| p.note.as_ref().map(|note| format!("{}: {note}.", p.label))).collect();
    (figures, notes)
}

/// One humanoid's part of the page: thumbnails, previews, notes and its table.
fn entry_page(e: &CatalogEntry, options: &CatalogOptions) -> PageEntry {
    let (width, height) = thumbnail(options.size);
    let s = &e.summary;
    let name = if s.name.is_empty() { "(unnamed humanoid)" } else { &s.name };
    let mut notes = Vec::new();
    if e.empty {
        notes.push("This humanoid has no joints and no geometry: its images are empty.".to_string());
    }
    if let Some(note) = &e.pose_note {
        notes.push(format!("Shown at rest: {note}."));
    }
    if e.skeleton_shown {
        notes.push("Skeleton drawn: the figure's own geometry is mostly lines and points.".to_string());
    }
    let images = e
        .images
        .iter()
        .map(|image| Figure {
            src: image.image.clone(),
            width,
            height,
            alt: format!("{name} {}", image.view.name()),
            caption: image.view.label().to_string(),
        })
        .collect();
    let (previews, mut later_notes) = preview_figures(&e.previews, name, options.size);
    later_notes.extend(e.missing.iter().map(|(view, why)| format!("No {} view: {why}.", view.name())));
    let mut table = Vec::new();
    let mut row = |key: &str, value: String| table.push(Row { key: key.to_string(), value });
    row("LOA", if s.loa < 0 { "not stated (-1)".to_string() } else { s.loa.to_string() });
    row("version", s.version.clone());
    if !s.description.is_empty() {
        row("description", s.description.clone());
    }
    for entry in &s.info {
        row(&entry.key, entry.value.clone());
    }
    let c = &s.counts;
    row("joints", c.joints.to_string());
    row("segments", c.segments.to_string());
    row("sites", format!("{} ({} viewpoint sites)", c.sites, c.viewpoint_sites));
    row("displacers", format!("{} on joints, {} on segments", c.displacers_on_joints, c.displacers_on_segments));
    row("skin", format!("{} points, {} weighted joints", c.skin_points, c.skinned_joints));
    row("motions", c.motions.to_string());
    if let Some(b) = &s.rest_bbox {
        row("size at rest (m)", format!("{:.3} x {:.3} x {:.3}", b.size[0], b.size[1], b.size[2]));
    }
    row("warnings", s.warning_count.to_string());
    PageEntry {
        order: e.order,
        id: e.id.clone(),
        name: name.to_string(),
        sources: vec![Source { label: "File".into(), path: e.file.clone() }],
        notes,
        images,
        previews,
        later_notes,
        link: Link { label: "Contact sheet".into(), href: e.sheet.clone() },
        table,
        outputs: e.outputs(),
    }
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
}
