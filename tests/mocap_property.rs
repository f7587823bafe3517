//! Motion-capture parsers on random text built from the formats' own words: errors, never a panic.

mod common;

use std::path::Path;

use hanim_viewer::mocap::{amc, asf, bvh, mapping, rig};

use common::corpus;
use proptest::prelude::*;

/// Text built from the formats' own words, so that random inputs get deep into the parsers.
fn mocap_text() -> impl Strategy<Value = String> {
    let words = prop::sample::select(vec![
        ":version",
        ":name",
        ":units",
        "length",
        "angle",
        "deg",
        "rad",
        ":documentation",
        ":root",
        "order",
        "axis",
        "position",
        "orientation",
        ":bonedata",
        "begin",
        "end",
        "id",
        "name",
        "direction",
        "dof",
        "limits",
        "rx",
        "ry",
        "rz",
        "tx",
        "l",
        "XYZ",
        "zyx",
        "(",
        ")",
        ",",
        "inf",
        "-inf",
        ":hierarchy",
        "root",
        "lfemur",
        "ltibia",
        ":skin",
        "#",
        "\n",
        "\r\n",
        " ",
        "1",
        "0",
        "-2.5e-3",
        "1e400",
        "NaN",
        ":FULLY-SPECIFIED",
        ":DEGREES",
        "HIERARCHY",
        "ROOT",
        "JOINT",
        "End",
        "Site",
        "{",
        "}",
        "OFFSET",
        "CHANNELS",
        "3",
        "6",
        "Xrotation",
        "Zposition",
        "MOTION",
        "Frames:",
        "Frame",
        "Time:",
        "0.1",
        "{s}",
        "{Side}",
    ]);
    prop::collection::vec(words, 0..120).prop_map(|w| w.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]
    #[test]
    fn parsers_return_errors_instead_of_panicking(text in mocap_text()) {
        let skeleton = asf::parse_asf(&text, Path::new("p.asf"));
        let cmu = asf::load_asf(&corpus("asf/07.asf")).unwrap();
        let _ = amc::parse_amc(&text, Path::new("p.amc"), &cmu);
        if let Ok(a) = &skeleton {
            let rig = rig::rig_from_asf(a);
            if let Ok(m) = amc::parse_amc(&text, Path::new("p.amc"), a) {
                let clip = rig::clip_from_amc(a, &m, 120.0);
                for f in 0..clip.frame_count() {
                    let _ = clip.positions(&rig, f);
                }
            }
        }
        if let Ok(b) = bvh::parse_bvh(&text, Path::new("p.bvh")) {
            let rig = rig::rig_from_bvh(&b, 1.0);
            let clip = rig::clip_from_bvh(&b, 1.0);
            for f in 0..clip.frame_count() {
                let _ = clip.positions(&rig, f);
            }
        }
        let _ = mapping::parse_mapping(&text, Path::new("p.txt"));
    }
}
