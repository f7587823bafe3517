//! Which parts of the window's UI changed since the last frame: each of egui's clipped meshes is
//! fingerprinted (clip rectangle, texture, vertices, indices) with the pixels it can touch; a frame's
//! damage is the pixels of the meshes that appeared, disappeared or changed. The window repaints only those
//! rectangles of its kept UI picture (`app::viewer::ui_cache`), so a clip playing, which changes the time
//! slider and the status bar, does not repaint the joint tree, the viewpoint list and the menus each frame.
//!
//! Plain data (no GPU), so the rules are unit-tested here.

use std::collections::HashMap;

use egui::epaint::{ClippedPrimitive, Primitive};

use crate::gpu::target::PixelRect;

/// One clipped mesh of a frame: its fingerprint and the pixels it can touch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeshPrint {
    pub hash: u64,
    /// The mesh's bounds within its clip rectangle, in pixels (widened by a pixel each side for rounding
    /// and anti-aliasing feathers); `None` when it touches no pixel.
    pub pixels: Option<PixelRect>,
}

/// Beyond this many separate rectangles, or this share of the window, one full repaint is cheaper than
/// the bookkeeping (and each rectangle re-uploads the meshes crossing it).
const MAX_RECTS: usize = 12;
const FULL_REPAINT_SHARE: f64 = 0.6;

/// Fingerprints of a frame's meshes; `None` when the frame holds a paint callback (its pixels cannot be
/// known from its data, so such frames are painted whole).
pub fn fingerprints(jobs: &[ClippedPrimitive], pixels_per_point: f32, size: [u32; 2]) -> Option<Vec<MeshPrint>> {
    jobs.iter()
        .map(|job| match &job.primitive {
            Primitive::Mesh(mesh) => Some(MeshPrint {
                hash: mesh_hash(job.clip_rect, mesh),
                pixels: touched_pixels(job.clip_rect, mesh, pixels_per_point, size),
            }),
            Primitive::Callback(_) => None,
        })
        .collect()
}

/// What to repaint between two frames' meshes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Damage {
    None,
    /// These rectangles (disjoint after merging), in pixels.
    Rects(Vec<PixelRect>),
    All,
}

/// The damage from `before` to `after` (the fingerprints of `before_jobs` and `after_jobs`) in a `size`
/// window. A mesh of either frame without an identical mesh in the other damages its pixels; where a
/// changed mesh has a counterpart in the other frame (same clip rectangle and texture: a panel whose
/// slider moved), only its changed triangles damage (egui draws a panel's widgets as one mesh, and a time
/// slider moving should not repaint the whole transport). Identical meshes drawn in another order (a
/// window raised) damage everything, since blending depends on the order.
pub fn damage(
    before: &[MeshPrint],
    after: &[MeshPrint],
    before_jobs: &[ClippedPrimitive],
    after_jobs: &[ClippedPrimitive],
    pixels_per_point: f32,
    size: [u32; 2],
) -> Damage {
    let mut unmatched: HashMap<u64, Vec<usize>> = HashMap::new();
    for (i, print) in before.iter().enumerate().rev() {
        unmatched.entry(print.hash).or_default().push(i);
    }
    let mut matched_before = vec![false; before.len()];
    let mut changed_after = Vec::new();
    let mut last_matched = None;
    for (j, print) in after.iter().enumerate() {
        match unmatched.get_mut(&print.hash).and_then(Vec::pop) {
            Some(i) => {
                if last_matched.is_some_and(|last| i < last) {
                    return Damage::All;
                }
                last_matched = Some(i);
                matched_before[i] = true;
            }
            None => changed_after.push(j),
        }
    }
    let mut rects = Vec::new();
    let mut paired_before = matched_before;
    for j in changed_after {
        let counterpart = (0..before.len()).find(|&i| !paired_before[i] && same_place(&before_jobs[i], &after_jobs[j]));
        match counterpart.and_then(|i| Some((i, changed_triangles(&before_jobs[i], &after_jobs[j])?))) {
            Some((i, changed)) => {
                paired_before[i] = true;
                let clip = after_jobs[j].clip_rect.union(before_jobs[i].clip_rect);
                rects.extend(points_to_pixels(changed.intersect(clip), pixels_per_point, size));
            }
            None => rects.extend(after[j].pixels),
        }
    }
    rects.extend(before.iter().zip(&paired_before).filter(|(_, paired)| !**paired).filter_map(|(p, _)| p.pixels));
    if rects.is_empty() {
        return Damage::None;
    }
    let rects = merge(rects);
    let area: f64 = rects.iter().map(|r| f64::from(r.width) * f64::from(r.height)).sum();
    let window = f64::from(size[0]) * f64::from(size[1]);
    if rects.len() > MAX_RECTS || area >= FULL_REPAINT_SHARE * window { Damage::All } else { Damage::Rects(rects) }
}

/// Two meshes drawn in the same clip rectangle with the same texture: the same panel in two frames.
fn same_place(a: &ClippedPrimitive, b: &ClippedPrimitive) -> bool {
    match (&a.primitive, &b.primitive) {
        (Primitive::Mesh(ma), Primitive::Mesh(mb)) => a.clip_rect == b.clip_rect && ma.texture_id == mb.texture_id,
        _ => false,
    }
}

/// The bounds (points) of the triangles that differ between two versions of a mesh: egui tessellates
/// shapes in order, so a widget that changed is a run of triangles between an unchanged head and tail.
/// `None` when the meshes cannot be compared (not meshes).
fn changed_triangles(before: &ClippedPrimitive, after: &ClippedPrimitive) -> Option<egui::Rect> {
    let (Primitive::Mesh(a), Primitive::Mesh(b)) = (&before.primitive, &after.primitive) else { return None };
    let (ta, tb) = (a.indices.len() / 3, b.indices.len() / 3);
    let same = |i: usize, j: usize| {
        (0..3).all(|k| {
            same_vertex(&a.vertices[a.indices[3 * i + k] as usize], &b.vertices[b.indices[3 * j + k] as usize])
        })
    };
    let head = (0..ta.min(tb)).take_while(|&t| same(t, t)).count();
    let tail = (0..ta.min(tb) - head).take_while(|&t| same(ta - 1 - t, tb - 1 - t)).count();
    let mut bounds = egui::Rect::NOTHING;
    for (mesh, count) in [(a, ta), (b, tb)] {
        for t in head..count - tail {
            for k in 0..3 {
                bounds.extend_with(mesh.vertices[mesh.indices[3 * t + k] as usize].pos);
            }
        }
    }
    Some(bounds)
}

fn same_vertex(a: &egui::epaint::Vertex, b: &egui::epaint::Vertex) -> bool {
    a.pos == b.pos && a.uv == b.uv && a.color == b.color
}

/// Merges overlapping or touching rectangles into their bounds until none overlap.
fn merge(mut rects: Vec<PixelRect>) -> Vec<PixelRect> {
    loop {
        let mut merged_any = false;
        let mut out: Vec<PixelRect> = Vec::with_capacity(rects.len());
        for r in rects {
            match out.iter_mut().find(|o| touch(o, &r)) {
                Some(o) => {
                    *o = bounds(o, &r);
                    merged_any = true;
                }
                None => out.push(r),
            }
        }
        rects = out;
        if !merged_any {
            return rects;
        }
    }
}

fn touch(a: &PixelRect, b: &PixelRect) -> bool {
    a.x <= b.x + b.width && b.x <= a.x + a.width && a.y <= b.y + b.height && b.y <= a.y + a.height
}

fn bounds(a: &PixelRect, b: &PixelRect) -> PixelRect {
    let (x, y) = (a.x.min(b.x), a.y.min(b.y));
    let right = (a.x + a.width).max(b.x + b.width);
    let bottom = (a.y + a.height).max(b.y + b.height);
    PixelRect { x, y, width: right - x, height: bottom - y }
}

/// The intersection of two rectangles, `None` when empty.
pub fn intersect(a: &PixelRect, b: &PixelRect) -> Option<PixelRect> {
    let (x, y) = (a.x.max(b.x), a.y.max(b.y));
    let right = (a.x + a.width).min(b.x + b.width);
    let bottom = (a.y + a.height).min(b.y + b.height);
    (right > x && bottom > y).then(|| PixelRect { x, y, width: right - x, height: bottom - y })
}

/// The pixels a mesh can touch: its vertices' bounds within the clip rectangle, widened by a pixel.
fn touched_pixels(clip: egui::Rect, mesh: &egui::Mesh, pixels_per_point: f32, size: [u32; 2]) -> Option<PixelRect> {
    let mut bounds = egui::Rect::NOTHING;
    for v in &mesh.vertices {
        bounds.extend_with(v.pos);
    }
    points_to_pixels(bounds.intersect(clip), pixels_per_point, size)
}

/// The pixels covering a rectangle in points, widened by a pixel each side (rounding, feathers).
fn points_to_pixels(r: egui::Rect, pixels_per_point: f32, size: [u32; 2]) -> Option<PixelRect> {
    if !r.is_positive() {
        return None;
    }
    let to_px = |p: f32, max: u32| (p * pixels_per_point).clamp(0.0, max as f32);
    let x0 = (to_px(r.min.x, size[0]).floor() as u32).saturating_sub(1);
    let y0 = (to_px(r.min.y, size[1]).floor() as u32).saturating_sub(1);
    let x1 = (to_px(r.max.x, size[0]).ceil() as u32 + 1).min(size[0]);
    let y1 = (to_px(r.max.y, size[1]).ceil() as u32 + 1).min(size[1]);
    (x1 > x0 && y1 > y0).then(|| PixelRect { x: x0, y: y0, width: x1 - x0, height: y1 - y0 })
}

/// A fast 64-bit fingerprint of a mesh and its clip rectangle (FNV-style mixing of 32-bit words: the UI's
/// meshes are hashed every frame, so this stays far cheaper than their drawing).
fn mesh_hash(clip: egui::Rect, mesh: &egui::Mesh) -> u64 {
    let mut h = Fingerprint::default();
    for f in [clip.min.x, clip.min.y, clip.max.x, clip.max.y] {
        h.word(f.to_bits());
    }
    let texture = match mesh.texture_id {
        egui::TextureId::Managed(id) => id,
        egui::TextureId::User(id) => id ^ (1 << 63),
    };
    h.word(texture as u32);
    h.word((texture >> 32) as u32);
    for v in &mesh.vertices {
        h.word(v.pos.x.to_bits());
        h.word(v.pos.y.to_bits());
        h.word(v.uv.x.to_bits());
        h.word(v.uv.y.to_bits());
        h.word(u32::from_le_bytes(v.color.to_array()));
    }
    h.word(mesh.indices.len() as u32);
    for &i in &mesh.indices {
        h.word(i);
    }
    h.0
}

struct Fingerprint(u64);

impl Default for Fingerprint {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Fingerprint {
    fn word(&mut self, w: u32) {
        self.0 = (self.0 ^ u64::from(w)).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(5);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect_mesh(x: f32, y: f32, w: f32, h: f32, color: egui::Color32) -> ClippedPrimitive {
        let mut mesh = egui::Mesh::default();
        mesh.add_colored_rect(egui::Rect::from_min_size(egui::pos2(x, y), egui::vec2(w, h)), color);
        ClippedPrimitive { clip_rect: egui::Rect::EVERYTHING, primitive: Primitive::Mesh(mesh) }
    }

    const SIZE: [u32; 2] = [1000, 800];

    fn prints(jobs: &[ClippedPrimitive]) -> Vec<MeshPrint> {
        fingerprints(jobs, 1.0, SIZE).unwrap()
    }

    fn diff(before: &[ClippedPrimitive], after: &[ClippedPrimitive]) -> Damage {
        damage(&prints(before), &prints(after), before, after, 1.0, SIZE)
    }

    /// One mesh holding several rectangles, as egui draws a panel's widgets.
    fn panel(rects: &[(f32, f32, f32, f32)]) -> ClippedPrimitive {
        let mut mesh = egui::Mesh::default();
        for &(x, y, w, h) in rects {
            mesh.add_colored_rect(egui::Rect::from_min_size(egui::pos2(x, y), egui::vec2(w, h)), egui::Color32::GRAY);
        }
        let clip = egui::Rect::from_min_size(egui::pos2(0.0, 600.0), egui::vec2(1000.0, 200.0));
        ClippedPrimitive { clip_rect: clip, primitive: Primitive::Mesh(mesh) }
    }

    #[test]
    fn an_unchanged_frame_has_no_damage() {
        let frame = [rect_mesh(0.0, 0.0, 100.0, 50.0, egui::Color32::RED)];
        assert_eq!(diff(&frame, &frame), Damage::None);
    }

    #[test]
    fn a_changed_mesh_damages_its_old_and_new_pixels_only() {
        let panel = rect_mesh(0.0, 0.0, 200.0, 600.0, egui::Color32::GRAY);
        let before = [panel.clone(), rect_mesh(300.0, 700.0, 10.0, 10.0, egui::Color32::RED)];
        let after = [panel, rect_mesh(310.0, 700.0, 10.0, 10.0, egui::Color32::RED)];
        // The moved slider knob: 299..321 × 699..711 (a pixel of margin each side), merged.
        assert_eq!(diff(&before, &after), Damage::Rects(vec![PixelRect { x: 299, y: 699, width: 22, height: 12 }]));
    }

    #[test]
    fn a_colour_change_is_damage() {
        let before = [rect_mesh(10.0, 10.0, 10.0, 10.0, egui::Color32::RED)];
        let after = [rect_mesh(10.0, 10.0, 10.0, 10.0, egui::Color32::BLUE)];
        assert!(matches!(diff(&before, &after), Damage::Rects(r) if r.len() == 1));
    }

    #[test]
    fn reordered_meshes_damage_everything() {
        let a = rect_mesh(0.0, 0.0, 50.0, 50.0, egui::Color32::RED);
        let b = rect_mesh(25.0, 25.0, 50.0, 50.0, egui::Color32::BLUE);
        assert_eq!(diff(&[a.clone(), b.clone()], &[b, a]), Damage::All);
    }

    #[test]
    fn a_large_change_is_a_full_repaint() {
        let before = [rect_mesh(0.0, 0.0, 1000.0, 700.0, egui::Color32::RED)];
        let after = [rect_mesh(0.0, 0.0, 1000.0, 700.0, egui::Color32::GREEN)];
        assert_eq!(diff(&before, &after), Damage::All);
    }

    #[test]
    fn a_widget_moving_inside_a_panel_damages_only_its_triangles() {
        // A panel's background, a slider knob, a label: the knob moves 30 points to the right.
        let before = [panel(&[(0.0, 600.0, 1000.0, 200.0), (100.0, 700.0, 10.0, 10.0), (500.0, 650.0, 80.0, 12.0)])];
        let after = [panel(&[(0.0, 600.0, 1000.0, 200.0), (130.0, 700.0, 10.0, 10.0), (500.0, 650.0, 80.0, 12.0)])];
        assert_eq!(diff(&before, &after), Damage::Rects(vec![PixelRect { x: 99, y: 699, width: 42, height: 12 }]));
        // A label growing by a glyph: the new triangles at the end of the run.
        let longer = [panel(&[
            (0.0, 600.0, 1000.0, 200.0),
            (100.0, 700.0, 10.0, 10.0),
            (500.0, 650.0, 80.0, 12.0),
            (580.0, 650.0, 8.0, 12.0),
        ])];
        assert_eq!(diff(&before, &longer), Damage::Rects(vec![PixelRect { x: 579, y: 649, width: 10, height: 14 }]));
    }

    #[test]
    fn meshes_outside_their_clip_touch_no_pixels() {
        let mut job = rect_mesh(0.0, 0.0, 10.0, 10.0, egui::Color32::RED);
        job.clip_rect = egui::Rect::from_min_size(egui::pos2(500.0, 500.0), egui::vec2(10.0, 10.0));
        assert_eq!(prints(&[job])[0].pixels, None);
    }

    #[test]
    fn touching_rectangles_merge() {
        let a = PixelRect { x: 0, y: 0, width: 10, height: 10 };
        let b = PixelRect { x: 10, y: 0, width: 10, height: 10 };
        let c = PixelRect { x: 100, y: 100, width: 5, height: 5 };
        assert_eq!(merge(vec![a, c, b]), vec![PixelRect { x: 0, y: 0, width: 20, height: 10 }, c]);
        assert_eq!(intersect(&a, &c), None);
        assert_eq!(intersect(&a, &b), None);
        assert_eq!(
            intersect(&a, &PixelRect { x: 5, y: 5, width: 10, height: 10 }),
            Some(PixelRect { x: 5, y: 5, width: 5, height: 5 })
        );
    }
}
