//! Compares two renderings of the same view: silhouette IoU and mean colour difference. Shared by
//! `examples/image_compare.rs` (what `tools/fidelity.sh` measures the survey with) and the tests that
//! hold ours against a peer's picture, so that both measure alike.
//!
//! A pixel belongs to an image's silhouette when it differs from that image's background — the most
//! common colour along its border (a sky/ground dome leaves mostly ground there) — by more than
//! [`THRESHOLD`] in any channel (each image against its own background, so a black and a grey background
//! compare fairly). IoU = |A ∩ B| / |A ∪ B|. The colour difference is the mean absolute difference of the
//! 8-bit RGB channels over the union of the two silhouettes.
//!
//! `iou_1px` forgives rasterisation: a silhouette pixel counts as matched when the other silhouette has
//! a pixel within one pixel of it (its 3×3 neighbourhood), so one-pixel lines and edges drawn a pixel
//! apart, or widened by antialiasing, match; a missing or misplaced part still does not.
//! `iou_1px` = (matched pixels of A + matched pixels of B) / (|A| + |B|).
//!
//! `colour_diff_1px` forgives it likewise for colour: each silhouette pixel of either image is compared
//! with the closest colour among the other image's 3×3 neighbourhood around it, and the mean is taken
//! over both silhouettes. A one-pixel line drawn a pixel apart then costs nothing, while a region of the
//! wrong colour costs as much as in `colour_diff` (every neighbour is wrong too).

use std::collections::HashMap;
use std::fmt;
use std::path::Path;

/// A channel difference from the background above this counts as drawn (8-bit).
pub const THRESHOLD: i32 = 12;

/// An 8-bit RGB picture (alpha, where there was one, dropped: the pictures are opaque).
pub struct RgbPicture {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<[u8; 3]>,
}

impl RgbPicture {
    /// Reads a PNG (or any format the `image` crate reads).
    pub fn read(path: &Path) -> Result<Self, String> {
        let image = image::open(path).map_err(|e| format!("{}: {e}", path.display()))?.to_rgb8();
        let (width, height) = image.dimensions();
        Ok(Self { width, height, pixels: image.pixels().map(|p| p.0).collect() })
    }

    /// From RGBA bytes, row by row (a rendered image).
    pub fn from_rgba(width: u32, height: u32, rgba: &[u8]) -> Self {
        Self { width, height, pixels: rgba.chunks_exact(4).map(|p| [p[0], p[1], p[2]]).collect() }
    }
}

/// What [`compare`] measures of picture A against picture B.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Comparison {
    pub iou: f64,
    pub iou_1px: f64,
    pub colour_diff: f64,
    pub colour_diff_1px: f64,
    /// Silhouette sizes.
    pub a_pixels: u64,
    pub b_pixels: u64,
}

impl fmt::Display for Comparison {
    /// `iou=0.9731 iou_1px=0.9950 colour_diff=12.4 colour_diff_1px=3.1 a_pixels=… b_pixels=…`: the
    /// precision of the survey's tables.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "iou={:.4} iou_1px={:.4} colour_diff={:.1} colour_diff_1px={:.1} a_pixels={} b_pixels={}",
            self.iou, self.iou_1px, self.colour_diff, self.colour_diff_1px, self.a_pixels, self.b_pixels
        )
    }
}

/// The most common colour of the picture's outermost pixels.
fn border_colour(picture: &RgbPicture) -> [u8; 3] {
    let (w, h) = (picture.width, picture.height);
    let mut counts = HashMap::new();
    for y in 0..h {
        for x in 0..w {
            if x == 0 || y == 0 || x == w - 1 || y == h - 1 {
                *counts.entry(picture.pixels[(y * w + x) as usize]).or_insert(0u32) += 1;
            }
        }
    }
    counts.into_iter().max_by_key(|&(colour, n)| (n, colour)).map_or([0; 3], |(colour, _)| colour)
}

fn differs(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).any(|(&x, y)| (i32::from(x) - i32::from(y)).abs() > THRESHOLD)
}

fn silhouette(picture: &RgbPicture) -> Vec<bool> {
    let background = border_colour(picture);
    picture.pixels.iter().map(|&p| differs(p, background)).collect()
}

/// How many pixels of silhouette `a` have a pixel of `b` in their 3×3 neighbourhood.
fn matched_within_one_pixel(a: &[bool], b: &[bool], w: u32, h: u32) -> u64 {
    let (w, h) = (i64::from(w), i64::from(h));
    let at = |x: i64, y: i64| x >= 0 && y >= 0 && x < w && y < h && b[(y * w + x) as usize];
    let mut matched = 0;
    for y in 0..h {
        for x in 0..w {
            if a[(y * w + x) as usize] && (-1..=1).any(|dy| (-1..=1).any(|dx| at(x + dx, y + dy))) {
                matched += 1;
            }
        }
    }
    matched
}

/// The sum, over the silhouette pixels of `a`, of the smallest mean channel difference between the pixel
/// and the pixels of `b` in its 3×3 neighbourhood.
fn colour_within_one_pixel(a: &[[u8; 3]], sil_a: &[bool], b: &[[u8; 3]], w: u32, h: u32) -> f64 {
    let (w, h) = (i64::from(w), i64::from(h));
    let mut sum = 0.0;
    for y in 0..h {
        for x in 0..w {
            let i = (y * w + x) as usize;
            if !sil_a[i] {
                continue;
            }
            let mut best = u64::MAX;
            for (dx, dy) in (-1..=1).flat_map(|dy| (-1..=1).map(move |dx| (dx, dy))) {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= w || ny >= h {
                    continue;
                }
                let q = b[(ny * w + nx) as usize];
                let d = a[i].iter().zip(q).map(|(&p, q)| (i64::from(p) - i64::from(q)).unsigned_abs()).sum::<u64>();
                best = best.min(d);
            }
            sum += best as f64 / 3.0;
        }
    }
    sum
}

/// Measures picture `a` against picture `b` (the same size).
pub fn compare(a: &RgbPicture, b: &RgbPicture) -> Result<Comparison, String> {
    let (w, h) = (a.width, a.height);
    if (w, h) != (b.width, b.height) || a.pixels.is_empty() {
        return Err(format!("the images differ in size: {w}x{h} and {}x{}", b.width, b.height));
    }
    let (sil_a, sil_b) = (silhouette(a), silhouette(b));
    let (mut inter, mut union, mut diff_sum) = (0u64, 0u64, 0u64);
    for (i, (&x, &y)) in a.pixels.iter().zip(&b.pixels).enumerate() {
        if sil_a[i] && sil_b[i] {
            inter += 1;
        }
        if sil_a[i] || sil_b[i] {
            union += 1;
            diff_sum += x.iter().zip(y).map(|(&p, q)| (i64::from(p) - i64::from(q)).unsigned_abs()).sum::<u64>();
        }
    }
    let in_a = sil_a.iter().filter(|&&s| s).count() as u64;
    let in_b = sil_b.iter().filter(|&&s| s).count() as u64;
    let iou = if union == 0 { 1.0 } else { inter as f64 / union as f64 };
    let matched = matched_within_one_pixel(&sil_a, &sil_b, w, h) + matched_within_one_pixel(&sil_b, &sil_a, w, h);
    let iou_1px = if in_a + in_b == 0 { 1.0 } else { matched as f64 / (in_a + in_b) as f64 };
    let colour_diff = if union == 0 { 0.0 } else { diff_sum as f64 / (union * 3) as f64 };
    let colour_diff_1px = if in_a + in_b == 0 {
        0.0
    } else {
        (colour_within_one_pixel(&a.pixels, &sil_a, &b.pixels, w, h)
            + colour_within_one_pixel(&b.pixels, &sil_b, &a.pixels, w, h))
            / (in_a + in_b) as f64
    };
    Ok(Comparison { iou, iou_1px, colour_diff, colour_diff_1px, a_pixels: in_a, b_pixels: in_b })
}
