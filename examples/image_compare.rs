//! Compares two renderings of the same view (a development tool for `tools/fidelity.sh`, not part of the
//! product): silhouette IoU and mean colour difference, measured by `tests/common/image_compare.rs` (which
//! says how), the same code the tests that hold ours against a peer's picture use.
//!
//! usage: `cargo run --release --example image_compare -- A.png B.png`
//!
//! Prints one line: `iou=0.9731 iou_1px=0.9950 colour_diff=12.4 colour_diff_1px=3.1 a_pixels=…
//! b_pixels=…`. Images of different sizes are an error.

use std::path::Path;
use std::process::ExitCode;

// Shared with the tests, whose half (pictures straight from the renderer) goes unused here.
#[allow(dead_code)]
#[path = "../tests/common/image_compare.rs"]
mod measure;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [a, b] = args.as_slice() else {
        eprintln!("usage: image_compare A.png B.png");
        return ExitCode::from(2);
    };
    let measured = measure::RgbPicture::read(Path::new(a))
        .and_then(|a| Ok((a, measure::RgbPicture::read(Path::new(b))?)))
        .and_then(|(a, b)| measure::compare(&a, &b));
    match measured {
        Ok(comparison) => {
            println!("{comparison}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
