//! Compares two renderings of the same view (a development tool for `tools/fidelity.sh`, not part of the
//! product): silhouette IoU and mean colour difference.
//!
//! usage: `cargo run --release --example image_compare -- A.png B.png`
//!
//! A pixel belongs to an image's silhouette when it differs from that image's background — the most
//! common colour along its border (a sky/ground dome leaves mostly ground there) — by more than
//! `THRESHOLD` in any channel (each image against its own background, so a
//! black and a grey background compare fairly). IoU = |A ∩ B| / |A ∪ B|. The colour difference is the mean
//! absolute difference of the 8-bit RGB channels over the union of the two silhouettes.
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
//!
//! Prints one line: `iou=0.9731 iou_1px=0.9950 colour_diff=12.4 colour_diff_1px=3.1 a_pixels=…
//! b_pixels=…`. Images of different sizes are an error.

use std::process::ExitCode;

/// A channel difference from the background above this counts as drawn (8-bit).
const THRESHOLD: i32 = 12;

fn read_rgb(path: &str) -> Result<(u32, u32, Vec<[u8; 3]>), String> {
    let image = image::open(path).map_err(|e| format!("{path}: {e}"))?.to_rgb8();
    let (w, h) = image.dimensions();
    Ok((w, h, image.pixels().map(|p| p.0).collect()))
}

/// The most common colour of the image's outermost pixels.
fn border_colour(pixels: &[[u8; 3]], w: u32, h: u32) -> [u8; 3] {
    let mut counts = std::collections::HashMap::new();
    for y in 0..h {
        for x in 0..w {
            if x == 0 || y == 0 || x == w - 1 || y == h - 1 {
                *counts.entry(pixels[(y * w + x) as usize]).or_insert(0u32) += 1;
            }
        }
    }
    counts.into_iter().max_by_key(|&(colour, n)| (n, colour)).map_or([0; 3], |(colour, _)| colour)
}

fn differs(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).any(|(&x, y)| (i32::from(x) - i32::from(y)).abs() > THRESHOLD)
}

fn silhouette(pixels: &[[u8; 3]], background: [u8; 3]) -> Vec<bool> {
    pixels.iter().map(|&p| differs(p, background)).collect()
}

/// How many pixels of silhouette `a` have a pixel of `b` in their 3×3 neighbourhood.
fn matched_within_one_pixel(a: &[bool], b: &[bool], w: u32, h: u32) -> u64 {
    let (w, h) = (w as i64, h as i64);
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
    let (w, h) = (w as i64, h as i64);
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

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [a, b] = args.as_slice() else {
        eprintln!("usage: image_compare A.png B.png");
        return ExitCode::from(2);
    };
    let ((wa, ha, pa), (wb, hb, pb)) = match (read_rgb(a), read_rgb(b)) {
        (Ok(x), Ok(y)) => (x, y),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    if (wa, ha) != (wb, hb) || pa.is_empty() {
        eprintln!("the images differ in size: {wa}x{ha} and {wb}x{hb}");
        return ExitCode::FAILURE;
    }
    let (bg_a, bg_b) = (border_colour(&pa, wa, ha), border_colour(&pb, wb, hb));
    let (mut inter, mut union, mut in_a, mut in_b, mut diff_sum) = (0u64, 0u64, 0u64, 0u64, 0u64);
    for (&x, &y) in pa.iter().zip(&pb) {
        let (sa, sb) = (differs(x, bg_a), differs(y, bg_b));
        in_a += u64::from(sa);
        in_b += u64::from(sb);
        if sa && sb {
            inter += 1;
        }
        if sa || sb {
            union += 1;
            diff_sum += x.iter().zip(y).map(|(&p, q)| (i64::from(p) - i64::from(q)).unsigned_abs()).sum::<u64>();
        }
    }
    let iou = if union == 0 { 1.0 } else { inter as f64 / union as f64 };
    let (sil_a, sil_b) = (silhouette(&pa, bg_a), silhouette(&pb, bg_b));
    let matched = matched_within_one_pixel(&sil_a, &sil_b, wa, ha) + matched_within_one_pixel(&sil_b, &sil_a, wa, ha);
    let iou_1px = if in_a + in_b == 0 { 1.0 } else { matched as f64 / (in_a + in_b) as f64 };
    let colour = if union == 0 { 0.0 } else { diff_sum as f64 / (union * 3) as f64 };
    let colour_1px = if in_a + in_b == 0 {
        0.0
    } else {
        (colour_within_one_pixel(&pa, &sil_a, &pb, wa, ha) + colour_within_one_pixel(&pb, &sil_b, &pa, wa, ha))
            / (in_a + in_b) as f64
    };
    println!(
        "iou={iou:.4} iou_1px={iou_1px:.4} colour_diff={colour:.1} colour_diff_1px={colour_1px:.1} a_pixels={in_a} \
         b_pixels={in_b}"
    );
    ExitCode::SUCCESS
}
