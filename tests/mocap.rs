//! Motion-capture import on the corpus (corpus/MANIFEST-mocap.md, docs/asf-amc.md): parsing counts,
//! forward kinematics against an independent computation and the documented numbers, the stick figure's
//! CPU pose, retargeting walks onto corpus humanoids, HAnimMotion export and reload, bad inputs.

mod common;

test_main!(
    every_corpus_asf_has_the_manifest_skeleton,
    every_corpus_amc_has_the_manifest_frame_count,
    every_corpus_bvh_has_the_manifest_counts,
    asf_amc_positions_match_an_independent_computation_and_the_documented_numbers,
    a_walk_keeps_its_feet_on_the_floor_its_head_above_its_shoulders_and_its_bone_lengths,
    bvh_and_asf_of_the_same_take_agree_on_legs_and_spine,
    the_stick_figure_pose_reproduces_the_forward_kinematics,
    a_saved_stick_figure_reloads_with_its_motion,
    asf_and_bvh_files_open_as_stick_figure_documents,
    walks_retargeted_onto_corpus_humanoids_keep_their_feet_on_the_ground,
    retargeted_limbs_point_where_the_source_limbs_point,
    an_imported_walk_reloads_as_the_motion_that_was_exported,
    a_bvh_imports_without_an_asf_and_its_values_round_trip_exactly,
    import_refuses_mismatched_inputs_with_clear_messages,
    malformed_inputs_name_the_file_position_and_what_was_expected,
    deep_and_odd_inputs_neither_overflow_nor_panic,
    a_mapping_file_chooses_the_driven_joints,
    a_stick_figure_frame_renders_its_joints_where_they_project,
    the_motion_commands_run_from_the_binary,
    a_humanoid_named_like_the_bvh_is_driven_joint_by_joint,
    an_empty_bvh_motion_is_read_but_not_imported,
    an_imported_walk_plays_back_with_the_retargeted_rotations_of_every_frame,
    an_imported_bvh_plays_back_with_the_retargeted_rotations_of_every_frame,
    render_retargets_a_capture_onto_the_file_and_draws_its_frames,
    the_window_opens_a_skeleton_with_its_motion_at_the_chosen_frame_rate,
    catalog_poses_humanoids_in_a_frame_of_a_capture
);

use std::path::Path;

use glam::{DMat3, DVec3, Quat, Vec3};
use hanim_viewer::commands::motion as cli;
use hanim_viewer::hanim;
use hanim_viewer::mocap::amc::{self, Amc};
use hanim_viewer::mocap::asf::{self, Asf, Dof};
use hanim_viewer::mocap::bvh;
use hanim_viewer::mocap::mapping::{self, Mapping};
use hanim_viewer::mocap::retarget::{self, Retargeted};
use hanim_viewer::mocap::rig;
use hanim_viewer::mocap::{Capture, StickFigure, load_asf_amc, load_bvh};
use hanim_viewer::pose::{self, Pose};

use common::{corpus, test_data};

/// CMU's metres per ASF unit: (1/0.45) × 2.54/100 (CMU FAQ).
const CMU_METRES: f64 = 0.0254 / 0.45;

fn asf(name: &str) -> Asf {
    asf::load_asf(&corpus(&format!("asf/{name}"))).unwrap()
}

fn amc(name: &str, skeleton: &Asf) -> Amc {
    amc::load_amc(&corpus(&format!("asf/{name}")), skeleton).unwrap()
}

fn capture(asf_name: &str, amc_name: &str) -> Capture {
    load_asf_amc(&corpus(&format!("asf/{asf_name}")), Some(&corpus(&format!("asf/{amc_name}"))), 120.0).unwrap()
}

// ---------------------------------------------------------------------------------------------------
// Parsing: counts from MANIFEST-mocap.md.

fn every_corpus_asf_has_the_manifest_skeleton() {
    for name in ["01.asf", "07.asf", "09.asf", "131.asf"] {
        let a = asf(name);
        assert_eq!(a.version.as_deref(), Some("1.10"), "{name}");
        assert_eq!(a.name, "VICON", "{name}");
        assert_eq!(a.units.mass, 1.0);
        assert_eq!(a.units.length, 0.45);
        assert!(a.units.degrees);
        assert!(!a.documentation.is_empty(), "{name}: :documentation is read");
        use Dof::*;
        assert_eq!(a.root.order, vec![Tx, Ty, Tz, Rx, Ry, Rz], "{name}");
        assert_eq!(a.root.axis.name(), "XYZ");
        assert_eq!((a.root.position, a.root.orientation), (DVec3::ZERO, DVec3::ZERO));
        assert_eq!(a.bones.len(), 30, "{name}: 30 bones plus root");
        assert_eq!(a.bones.iter().filter(|b| !b.dofs.is_empty()).count(), 28, "{name}");
        let rotational: usize = a.bones.iter().map(|b| b.dofs.len()).sum();
        assert_eq!(rotational, 56, "{name}");
        assert_eq!(a.values_per_frame(), 62, "{name}");
        // Every bone has as many limits as dofs, ids run 1..30, the hierarchy reaches every bone.
        for (i, b) in a.bones.iter().enumerate() {
            assert_eq!(b.limits.len(), b.dofs.len(), "{name}: {}", b.name);
            assert_eq!(b.id, Some(i as i64 + 1), "{name}: {}", b.name);
        }
        assert_eq!(a.order.len(), 30);
        let femur = &a.bones[a.bone_index("lfemur").unwrap()];
        assert_eq!(femur.limits, vec![(-160.0, 20.0), (-70.0, 70.0), (-60.0, 70.0)], "{name}: limits over three lines");
        assert_eq!(femur.axis, DVec3::new(0.0, 0.0, 20.0));
        assert_eq!(a.bones[femur.parent.unwrap()].name, "lhipjoint");
        let foot = &a.bones[a.bone_index("lfoot").unwrap()];
        assert!((foot.axis.y - 7.62852e-16).abs() < 1e-25, "{name}: three-digit exponent read");
        assert_eq!(a.bones[a.bone_index("lowerback").unwrap()].parent, None, "lowerback hangs from root");
    }
}

fn every_corpus_amc_has_the_manifest_frame_count() {
    for (skeleton, motion, frames) in [
        ("01.asf", "01_01.amc", 2751),
        ("07.asf", "07_05.amc", 517),
        ("07.asf", "07_12.amc", 245),
        ("09.asf", "09_06.amc", 141),
        ("131.asf", "131_04.amc", 1086),
    ] {
        let a = asf(skeleton);
        let m = amc(motion, &a);
        assert!(m.fully_specified && m.degrees, "{motion}");
        assert_eq!(m.frame_count(), frames, "{motion}");
        assert_eq!(m.values.len(), frames * 62, "{motion}");
        let expected: Vec<i64> = (1..=frames as i64).collect();
        assert_eq!(m.frame_numbers, expected, "{motion}: frames numbered from 1, contiguous");
        let short: Vec<usize> = (0..frames).filter(|&f| m.lines_per_frame[f] != 29).collect();
        if motion == "07_12.amc" {
            // The manifest's quirk: the last frame has no ltoes line (28 bone lines).
            assert_eq!(short, vec![frames - 1]);
            assert_eq!(m.lines_per_frame[frames - 1], 28);
            assert!(
                m.warnings.iter().any(|w| w.message.contains("frame 245 has no line for ltoes")),
                "{:?}",
                m.warnings
            );
            let slot = m.slot_of_bone[a.bone_index("ltoes").unwrap()];
            assert_eq!(m.frame(frames - 1)[slot], m.frame(frames - 2)[slot], "ltoes kept from frame 244");
        } else {
            assert!(short.is_empty(), "{motion}: frames {short:?} lack bone lines");
            assert!(m.warnings.is_empty(), "{motion}: {:?}", m.warnings);
        }
    }
    // The first values of 07_05 frame 1, as written.
    let a = asf("07.asf");
    let m = amc("07_05.amc", &a);
    assert_eq!(&m.frame(0)[..6], &[7.46593, 15.9937, -36.7321, 7.11356, 1.31487, -3.66776]);
}

fn every_corpus_bvh_has_the_manifest_counts() {
    for (name, frames) in [("01_01.bvh", 2752), ("131_03.bvh", 1102)] {
        let b = bvh::load_bvh(&corpus(&format!("bvh/{name}"))).unwrap();
        assert_eq!(b.joints.len(), 31, "{name}: ROOT Hips + 30 JOINT");
        assert_eq!(b.joints[0].name, "Hips");
        assert_eq!(b.channel_count, 96, "{name}");
        assert_eq!(b.joints.iter().map(|j| j.end_sites.len()).sum::<usize>(), 7, "{name}: End Sites");
        assert_eq!(b.frame_count(), frames, "{name}");
        assert!((b.frame_time - 0.0083333).abs() < 1e-12, "{name}");
        assert!(b.warnings.is_empty(), "{name}: {:?}", b.warnings);
        assert_eq!(b.joints[0].channels.len(), 6);
        // Units: CMU BVHs are in ASF units, which the unit guess recognises.
        assert_eq!(rig::guess_bvh_metres_per_unit(&b), CMU_METRES, "{name}");
    }
    // 131_03 mixes CRLF and LF line endings; its lhand has a zero offset (lwrist has zero length).
    let b = bvh::load_bvh(&corpus("bvh/131_03.bvh")).unwrap();
    assert_eq!(b.joints[b.joint_index("lhand").unwrap()].offset, DVec3::ZERO);
    assert_eq!(b.joints[b.joint_index("LeftElbow").unwrap()].offset, DVec3::new(0.0, -4.25106, 0.0));
}

// ---------------------------------------------------------------------------------------------------
// Forward kinematics.

fn rx(a: f64) -> DMat3 {
    DMat3::from_cols_array(&[1.0, 0.0, 0.0, 0.0, a.cos(), a.sin(), 0.0, -a.sin(), a.cos()])
}
fn ry(a: f64) -> DMat3 {
    DMat3::from_cols_array(&[a.cos(), 0.0, -a.sin(), 0.0, 1.0, 0.0, a.sin(), 0.0, a.cos()])
}
fn rz(a: f64) -> DMat3 {
    DMat3::from_cols_array(&[a.cos(), a.sin(), 0.0, -a.sin(), a.cos(), 0.0, 0.0, 0.0, 1.0])
}
/// CMU `XYZ` Euler angles in degrees as a matrix: X first, so Rz·Ry·Rx.
fn xyz(d: DVec3) -> DMat3 {
    rz(d.z.to_radians()) * ry(d.y.to_radians()) * rx(d.x.to_radians())
}

/// Global joint positions (bone starts) of one frame, computed bone by bone with matrices straight from
/// the ASF and AMC numbers (docs/asf-amc.md §4), for every bone on the path to `bone`, then its end.
fn independent_fk(a: &Asf, m: &Amc, frame: usize, bone: &str) -> (DVec3, DVec3) {
    let values = m.frame(frame);
    let mut chain = vec![a.bone_index(bone).unwrap()];
    while let Some(p) = a.bones[*chain.last().unwrap()].parent {
        chain.push(p);
    }
    chain.reverse();
    let root_rotation = xyz(DVec3::new(values[3], values[4], values[5]));
    let mut position = DVec3::new(values[0], values[1], values[2]) * CMU_METRES;
    let mut global = root_rotation;
    let mut start = position;
    for &b in &chain {
        let bone = &a.bones[b];
        let mut angles = DVec3::ZERO;
        for (k, dof) in bone.dofs.iter().enumerate() {
            let v = values[m.slot_of_bone[b] + k];
            match dof {
                Dof::Rx => angles.x = v,
                Dof::Ry => angles.y = v,
                Dof::Rz => angles.z = v,
                _ => panic!("CMU bones only rotate"),
            }
        }
        let c = xyz(bone.axis);
        global = global * c * xyz(angles) * c.transpose();
        start = position;
        position += global * (bone.direction * bone.length * CMU_METRES);
    }
    (start, position)
}

fn frame_positions(c: &Capture, frame: usize) -> rig::FramePositions {
    c.clip.positions(&c.rig, frame)
}

fn at(c: &Capture, p: &rig::FramePositions, name: &str) -> DVec3 {
    p.joints[c.rig.joint_index(name).unwrap_or_else(|| panic!("no {name}"))]
}

fn tip(c: &Capture, p: &rig::FramePositions, name: &str) -> DVec3 {
    p.tips[c.rig.joint_index(name).unwrap()].unwrap_or_else(|| panic!("{name} has no tip"))
}

fn asf_amc_positions_match_an_independent_computation_and_the_documented_numbers() {
    let a = asf("07.asf");
    let m = amc("07_05.amc", &a);
    let c = capture("07.asf", "07_05.amc");
    for frame in [0, 100, 258, 516] {
        let p = frame_positions(&c, frame);
        for bone in ["ltoes", "rtoes", "head", "lfingers", "rthumb"] {
            let (start, end) = independent_fk(&a, &m, frame, bone);
            assert!(at(&c, &p, bone).abs_diff_eq(start, 1e-9), "frame {frame} {bone}: {} vs {start}", at(&c, &p, bone));
            assert!(tip(&c, &p, bone).abs_diff_eq(end, 1e-9), "frame {frame} {bone} end");
        }
        // A bone with children: its end is its first child's start.
        let (start, end) = independent_fk(&a, &m, frame, "lclavicle");
        assert!(at(&c, &p, "lclavicle").abs_diff_eq(start, 1e-9) && at(&c, &p, "lhumerus").abs_diff_eq(end, 1e-9));
    }
    // docs/asf-amc.md §7, frame 1 (values rounded to mm there).
    let p = frame_positions(&c, 0);
    let expected = [
        ("root", DVec3::new(0.421, 0.903, -2.073)),
        ("lfemur", DVec3::new(0.520, 0.793, -2.040)),
        ("rfemur", DVec3::new(0.321, 0.806, -2.036)),
        ("ltibia", DVec3::new(0.552, 0.467, -1.827)),
        ("rtibia", DVec3::new(0.371, 0.405, -2.017)),
        ("lfoot", DVec3::new(0.547, 0.056, -1.902)),
        ("rfoot", DVec3::new(0.405, 0.032, -2.164)),
        ("head", DVec3::new(0.441, 1.441, -2.113)),
        ("lhumerus", DVec3::new(0.612, 1.332, -2.082)),
        ("rhumerus", DVec3::new(0.245, 1.328, -2.055)),
    ];
    for (bone, want) in expected {
        assert!(at(&c, &p, bone).abs_diff_eq(want, 0.0015), "{bone}: {} vs documented {want}", at(&c, &p, bone));
    }
    assert!(tip(&c, &p, "head").abs_diff_eq(DVec3::new(0.425, 1.526, -2.114), 0.0015));
    assert!((tip(&c, &p, "rtoes").y - -0.061).abs() < 0.0015, "right toe tip {}", tip(&c, &p, "rtoes").y);
}

fn a_walk_keeps_its_feet_on_the_floor_its_head_above_its_shoulders_and_its_bone_lengths() {
    let a = asf("07.asf");
    let c = capture("07.asf", "07_05.amc");
    let feet = ["lfoot", "rfoot", "ltoes", "rtoes"];
    let (mut lowest_min, mut lowest_max) = (f64::INFINITY, f64::NEG_INFINITY);
    for frame in 0..c.clip.frame_count() {
        let p = frame_positions(&c, frame);
        let lowest = feet
            .iter()
            .map(|f| at(&c, &p, f).y)
            .chain(["ltoes", "rtoes"].iter().map(|t| tip(&c, &p, t).y))
            .fold(f64::INFINITY, f64::min);
        lowest_min = lowest_min.min(lowest);
        lowest_max = lowest_max.max(lowest);
        let shoulders = at(&c, &p, "lhumerus").y.max(at(&c, &p, "rhumerus").y);
        assert!(tip(&c, &p, "head").y > shoulders + 0.15, "frame {frame}: head end not above the shoulders");
        assert!(
            at(&c, &p, "lhumerus").x > at(&c, &p, "rhumerus").x,
            "frame {frame}: left is +x while walking along +z"
        );
        // Bone lengths: each bone start to its child's start equals ASF length × units.
        for (bone, child) in [("lfemur", "ltibia"), ("rtibia", "rfoot"), ("lhumerus", "lradius"), ("upperneck", "head")]
        {
            let length = a.bones[a.bone_index(bone).unwrap()].length * CMU_METRES;
            let d = (at(&c, &p, child) - at(&c, &p, bone)).length();
            assert!((d - length).abs() < 1e-9, "frame {frame}: {bone} {d} vs {length}");
        }
    }
    // docs/asf-amc.md §7: over all 517 frames the lowest foot point runs from −0.063 to 0.097 m.
    assert!((lowest_min - -0.063).abs() < 0.002 && (lowest_max - 0.097).abs() < 0.002, "{lowest_min} .. {lowest_max}");
    // The root travels 4.16 m along +Z in 4.30 s.
    let first = at(&c, &frame_positions(&c, 0), "root");
    let last = at(&c, &frame_positions(&c, 516), "root");
    assert!(((last - first).z - 4.16).abs() < 0.01, "{}", (last - first).z);
    println!("07_05: lowest foot point {lowest_min:.3} .. {lowest_max:.3} m over {} frames", c.clip.frame_count());
}

fn bvh_and_asf_of_the_same_take_agree_on_legs_and_spine() {
    // MANIFEST-mocap: BVH row k equals AMC frame k (row 0 is an extra rest frame), within 1e-4 units.
    let asf_capture = capture("01.asf", "01_01.amc");
    let bvh_capture = load_bvh(&corpus("bvh/01_01.bvh"), None, None).unwrap();
    assert_eq!(bvh_capture.rig.metres_per_unit, CMU_METRES);
    let pairs = [
        ("root", "Hips"),
        ("lfemur", "LeftUpLeg"),
        ("ltibia", "LeftLeg"),
        ("lfoot", "LeftFoot"),
        ("rtoes", "RightToeBase"),
        ("lowerback", "LowerBack"),
        ("upperback", "Spine"),
        ("thorax", "Spine1"),
    ];
    for frame in [1usize, 1001, 2001] {
        let pa = frame_positions(&asf_capture, frame - 1);
        let pb = frame_positions(&bvh_capture, frame);
        for (a_name, b_name) in pairs {
            let d = (at(&asf_capture, &pa, a_name) - at(&bvh_capture, &pb, b_name)).length() / CMU_METRES;
            assert!(d < 1e-4, "frame {frame}: {a_name}/{b_name} differ by {d} units");
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Stick figure: an H-Anim humanoid whose CPU pose reproduces the forward kinematics.

fn default_mapping(c: &Capture) -> Mapping {
    mapping::default_mapping(c.rig.joints.iter().map(|j| j.name.as_str()))
}

fn the_stick_figure_pose_reproduces_the_forward_kinematics() {
    for (c, label) in [
        (capture("09.asf", "09_06.amc"), "09_06"),
        (load_bvh(&corpus("bvh/131_03.bvh"), None, None).unwrap(), "131_03.bvh"),
    ] {
        let stick = StickFigure::new(&c.rig, &default_mapping(&c)).unwrap();
        let h = stick.humanoid();
        assert_eq!(h.joints.len(), 31, "{label}");
        assert!(h.joint_index("l_hip").is_some() && h.joint_index("humanoid_root").is_some(), "{label}: H-Anim names");
        for frame in [0, 70, c.clip.frame_count() - 1] {
            let pose = stick.pose(&c.clip, frame);
            let world = stick.joint_positions(&pose);
            let fk = frame_positions(&c, frame);
            for (r, &j) in stick.joint_of_rig.iter().enumerate() {
                let d = (world[j].as_dvec3() - fk.joints[r]).length();
                assert!(d < 2e-5, "{label} frame {frame} joint {}: {d} m off", c.rig.joints[r].name);
            }
        }
        // 120 fps: 1/120 s after the start is frame 1, half-way is the slerp of both.
        let one = stick.pose_at(&c.clip, 1.0 / 120.0, 120.0);
        for (got, want) in one.rotations.iter().zip(&stick.pose(&c.clip, 1).rotations) {
            assert!(got.abs_diff_eq(*want, 1e-6), "{label}");
        }
        let half = stick.pose_at(&c.clip, 0.5 / 120.0, 120.0);
        let j = stick.joint_of_rig[c.rig.joints.len() / 2];
        let expected = stick.pose(&c.clip, 0).rotations[j].slerp(stick.pose(&c.clip, 1).rotations[j], 0.5);
        assert!(half.rotations[j].abs_diff_eq(expected, 1e-6));
    }
}

fn a_saved_stick_figure_reloads_with_its_motion() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("07_12-stick.x3d");
    let args = parse_motion(&[
        "stick",
        corpus("asf/07.asf").to_str().unwrap(),
        "--amc",
        corpus("asf/07_12.amc").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    cli::run(&args).unwrap();
    let doc = hanim::load(&out).unwrap();
    assert!(doc.warnings.is_empty(), "{:?}", doc.warnings);
    let h = &doc.humanoids[0];
    assert_eq!((h.joints.len(), h.segments.len(), h.sites.len()), (31, 30, 7));
    let motion = &h.motions[0];
    // Root: 3 positions + 3 rotations; 30 bones: 3 rotations each.
    assert_eq!((motion.channel_count, motion.frame_count), (96, 245));
    assert!((motion.frame_duration - 1.0 / 120.0).abs() < 1e-12 && motion.looping);
    // ASF limits become llimit/ulimit (radians) where the bone's axis frame is the world's: lowerback
    // (vl5) has `limits (-20 45) (-30 30) (-30 30)`; the femur's axis is rotated, so it gets none.
    let vl5 = &h.joints[h.joint_index("vl5").unwrap()];
    let rad = |d: f32| d.to_radians();
    assert!(
        vl5.llimit.iter().zip([rad(-20.0), rad(-30.0), rad(-30.0)]).all(|(a, b)| (a - b).abs() < 1e-6),
        "{:?}",
        vl5.llimit
    );
    assert!(
        vl5.ulimit.iter().zip([rad(45.0), rad(30.0), rad(30.0)]).all(|(a, b)| (a - b).abs() < 1e-6),
        "{:?}",
        vl5.ulimit
    );
    assert!(h.joints[h.joint_index("l_hip").unwrap()].llimit.is_empty());
}

fn asf_and_bvh_files_open_as_stick_figure_documents() {
    let a = hanim_viewer::mocap::stick_document_for(&corpus("asf/07.asf")).unwrap().unwrap();
    assert_eq!((a.humanoids[0].joints.len(), a.humanoids[0].motions.len()), (31, 0), "an ASF alone: rest pose");
    let b = hanim_viewer::mocap::stick_document_for(&corpus("bvh/01_01.bvh")).unwrap().unwrap();
    let motion = &b.humanoids[0].motions[0];
    assert_eq!((b.humanoids[0].joints.len(), motion.frame_count, motion.channel_count), (31, 2752, 96));
    assert!(hanim_viewer::mocap::stick_document_for(&corpus("x3d/JinLOA1.x3d")).is_none());
    let e = hanim_viewer::mocap::stick_document_for(&test_data("bad_mocap/bvh_bad_channel.bvh")).unwrap().unwrap_err();
    assert!(e.to_string().contains("bvh_bad_channel.bvh:5:63:"), "{e}");
}

// ---------------------------------------------------------------------------------------------------
// Retargeting and export.

fn retarget_onto(humanoid_file: &str, c: &Capture) -> (hanim::Document, Retargeted) {
    let doc = hanim::load(&corpus(&format!("x3d/{humanoid_file}"))).unwrap();
    let result = retarget::retarget(&c.rig, &c.clip, &doc.humanoids[0], &default_mapping(c)).unwrap();
    (doc, result)
}

/// World positions of the named joints at every frame (CPU pose, `world_from_joint`).
fn world_track(h: &hanim::Humanoid, r: &Retargeted, names: &[&str]) -> Vec<Vec<Vec3>> {
    let index: Vec<usize> = names.iter().map(|n| h.joint_index(n).unwrap_or_else(|| panic!("no {n}"))).collect();
    (0..r.frame_count())
        .map(|f| {
            let pose = r.pose(h, f);
            let world = pose::world_from_joint(h, &pose, &pose::humanoid_from_joint(h, &pose));
            index.iter().map(|&j| world[j].transform_point3(h.joints[j].rest.center)).collect()
        })
        .collect()
}

fn walks_retargeted_onto_corpus_humanoids_keep_their_feet_on_the_ground() {
    for (humanoid_file, walk) in
        [("JinLOA1.x3d", "07_05.amc"), ("JinLOA1.x3d", "07_12.amc"), ("JohnJoint20.x3d", "07_05.amc")]
    {
        let c = capture("07.asf", walk);
        let (doc, r) = retarget_onto(humanoid_file, &c);
        let h = &doc.humanoids[0];
        let ankles = ["l_talocrural", "r_talocrural"];
        let track = world_track(h, &r, &ankles);
        let rest = {
            let world = pose::world_from_joint(h, &Pose::rest(h), &pose::humanoid_from_joint(h, &Pose::rest(h)));
            let j = h.joint_index("l_talocrural").unwrap();
            world[j].transform_point3(h.joints[j].rest.center).y
        };
        // The supporting (lower) ankle through the cycle, and each ankle's swing.
        let support: Vec<f32> = track.iter().map(|a| a[0].y.min(a[1].y)).collect();
        let (lo, hi) = support.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), &y| (l.min(y), h.max(y)));
        let swing: Vec<f32> = (0..2)
            .map(|k| {
                track.iter().map(|a| a[k].y).fold(f32::NEG_INFINITY, f32::max)
                    - track.iter().map(|a| a[k].y).fold(f32::INFINITY, f32::min)
            })
            .collect();
        // The same measure on the source, in the humanoid's world scale (its leg-length ratio).
        let world_scale = (r.scale * f64::from(h.world_from_humanoid().x_axis.length())) as f32;
        let (slo, shi) = (0..c.clip.frame_count()).fold((f32::INFINITY, f32::NEG_INFINITY), |(l, hi), f| {
            let p = frame_positions(&c, f);
            let y = at(&c, &p, "lfoot").y.min(at(&c, &p, "rfoot").y) as f32;
            (l.min(y), hi.max(y))
        });
        let source_range = (shi - slo) * world_scale;
        println!(
            "{humanoid_file} ← {walk}: rest ankle {rest:.3} m, supporting ankle {lo:.3} .. {hi:.3} m (range {:.3}; source range scaled {source_range:.3}), swing l {:.3} r {:.3} m, root scale {:.3} (world {world_scale:.3})",
            hi - lo,
            swing[0],
            swing[1],
            r.scale
        );
        assert!((lo - rest).abs() < 0.005, "{humanoid_file} ← {walk}: the lowest ankle reaches the rest ankle height");
        assert!(hi - lo < 0.1, "{humanoid_file} ← {walk}: supporting ankle varies by {} m", hi - lo);
        assert!(
            ((hi - lo) - source_range).abs() < 0.02,
            "{humanoid_file} ← {walk}: supporting ankle range {} m, the source's scaled {source_range} m",
            hi - lo
        );
        for s in &swing {
            assert!(*s > 0.05 && *s < 0.35, "{humanoid_file} ← {walk}: an ankle swings {s} m");
        }
        // The figure walks forward (+z) by the source's distance times the leg ratio.
        let root = h.joint_index(&h.joints[r.joints[0]].name).unwrap();
        let travel = (r.root_translation.last().unwrap() - r.root_translation[0]).z;
        let source_travel =
            frame_positions(&c, c.clip.frame_count() - 1).joints[0].z - frame_positions(&c, 0).joints[0].z;
        assert!((travel - source_travel * r.scale).abs() < 1e-9, "{root}");
    }
}

fn retargeted_limbs_point_where_the_source_limbs_point() {
    // The humanoid's thigh, shin and upper-arm directions follow the source's exactly (D = Gs·Q aligns
    // the rest directions), while their lengths stay the humanoid's.
    let c = capture("07.asf", "07_12.amc");
    let (doc, r) = retarget_onto("JinLOA1.x3d", &c);
    let h = &doc.humanoids[0];
    let limbs = [
        ("l_hip", "l_knee", "lfemur", "ltibia"),
        ("r_knee", "r_talocrural", "rtibia", "rfoot"),
        ("l_shoulder", "l_elbow", "lhumerus", "lradius"),
    ];
    for frame in [0, 60, 120, 244] {
        let pose = r.pose(h, frame);
        let g = pose::humanoid_from_joint(h, &pose);
        let centre = |n: &str| {
            let j = h.joint_index(n).unwrap();
            g[j].transform_point3(h.joints[j].rest.center)
        };
        let rest_g = pose::humanoid_from_joint(h, &Pose::rest(h));
        let p = frame_positions(&c, frame);
        for (a, b, sa, sb) in limbs {
            let target = centre(b) - centre(a);
            let source = (at(&c, &p, sb) - at(&c, &p, sa)).normalize().as_vec3();
            let angle = target.normalize().angle_between(source).to_degrees();
            assert!(angle < 0.05, "frame {frame} {a}→{b}: {angle}° from the source direction");
            let (ja, jb) = (h.joint_index(a).unwrap(), h.joint_index(b).unwrap());
            let rest_length = (rest_g[jb].transform_point3(h.joints[jb].rest.center)
                - rest_g[ja].transform_point3(h.joints[ja].rest.center))
            .length();
            assert!((target.length() - rest_length).abs() < 1e-3 * rest_length, "{a}→{b} keeps the humanoid's length");
        }
    }
}

fn parse_motion(args: &[&str]) -> cli::MotionArgs {
    use clap::Parser;
    #[derive(clap::Parser)]
    struct Wrapper {
        #[command(flatten)]
        motion: cli::MotionArgs,
    }
    Wrapper::try_parse_from(std::iter::once("motion").chain(args.iter().copied())).unwrap().motion
}

/// Rebuilds a joint rotation from HAnimMotion channels in listed order (hanim-semantics.md §4.3).
fn rotation_from_channels(names: &[&str], values: &[f32]) -> (Quat, Option<Vec3>) {
    let mut q = Quat::IDENTITY;
    let mut position = Vec3::ZERO;
    let mut has_position = false;
    for (name, v) in names.iter().zip(values) {
        match *name {
            "Xrotation" => q *= Quat::from_rotation_x(v.to_radians()),
            "Yrotation" => q *= Quat::from_rotation_y(v.to_radians()),
            "Zrotation" => q *= Quat::from_rotation_z(v.to_radians()),
            "Xposition" => (position.x, has_position) = (*v, true),
            "Yposition" => (position.y, has_position) = (*v, true),
            "Zposition" => (position.z, has_position) = (*v, true),
            other => panic!("unexpected channel {other}"),
        }
    }
    (q, has_position.then_some(position))
}

fn an_imported_walk_reloads_as_the_motion_that_was_exported() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("JinLOA1-walk.x3d");
    let humanoid = corpus("x3d/JinLOA1.x3d");
    let args = parse_motion(&[
        "import",
        humanoid.to_str().unwrap(),
        corpus("asf/07_05.amc").to_str().unwrap(),
        "--asf",
        corpus("asf/07.asf").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    cli::run(&args).unwrap();
    // No temporary file is left beside the output.
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 1, "{names:?}");

    let original = hanim::load(&humanoid).unwrap();
    let reloaded = hanim::load(&out).unwrap();
    let h = &reloaded.humanoids[0];
    assert_eq!(h.joints.len(), original.humanoids[0].joints.len());
    assert_eq!(h.motions.len(), original.humanoids[0].motions.len() + 1);
    let motion = h.motions.last().unwrap();
    assert_eq!(motion.name, "07_05");

    // What was exported, recomputed here.
    let c = capture("07.asf", "07_05.amc");
    let r = retarget::retarget(&c.rig, &c.clip, &original.humanoids[0], &default_mapping(&c)).unwrap();
    let joint_count = r.joints.len();
    assert_eq!(joint_count, 17, "JinLOA1: root + 16 mapped joints");
    assert_eq!(motion.channel_count, 6 + 3 * (joint_count - 1));
    assert_eq!(motion.frame_count, 517);
    assert_eq!(motion.values.len(), 517 * motion.channel_count);
    assert!((motion.frame_duration - 1.0 / 120.0).abs() < 1e-12);
    assert!(motion.looping && motion.enabled);

    // Channel groups: names and counts per joint.
    let joints: Vec<&str> = motion.joints.split_whitespace().collect();
    let expected_joints: Vec<&str> = r.joints.iter().map(|&j| h.joints[j].name.as_str()).collect();
    assert_eq!(joints, expected_joints);
    let tokens: Vec<&str> = motion.channels.split_whitespace().collect();
    let mut groups: Vec<Vec<&str>> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let n: usize = tokens[i].parse().unwrap();
        groups.push(tokens[i + 1..i + 1 + n].to_vec());
        i += 1 + n;
    }
    assert_eq!(groups.len(), joint_count);
    assert_eq!(groups[0], ["Xposition", "Yposition", "Zposition", "Zrotation", "Yrotation", "Xrotation"]);
    assert!(groups[1..].iter().all(|g| *g == ["Zrotation", "Yrotation", "Xrotation"]));

    // Every frame's joint rotations and root position, decoded from the reloaded raw fields.
    let mut worst_rotation = 0.0f32;
    let mut worst_position = 0.0f32;
    for f in 0..motion.frame_count {
        let row = &motion.values[f * motion.channel_count..(f + 1) * motion.channel_count];
        let mut offset = 0;
        for (k, group) in groups.iter().enumerate() {
            let (q, position) = rotation_from_channels(group, &row[offset..offset + group.len()]);
            offset += group.len();
            let want = r.rotations[f * joint_count + k].as_quat();
            let d = (q - want).length().min((q + want).length());
            worst_rotation = worst_rotation.max(d);
            if let Some(p) = position {
                worst_position = worst_position.max((p - r.root_translation[f].as_vec3()).abs().max_element());
            }
        }
    }
    assert!(worst_rotation < 1e-5, "rotation differs by {worst_rotation}");
    assert!(worst_position < 1e-5, "root position differs by {worst_position}");
    println!(
        "export round trip: worst quaternion difference {worst_rotation:e}, worst root position difference {worst_position:e}"
    );
}

fn a_bvh_imports_without_an_asf_and_its_values_round_trip_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("dance.x3d");
    let args = parse_motion(&[
        "import",
        corpus("x3d/JinLOA1.x3d").to_str().unwrap(),
        corpus("bvh/131_03.bvh").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--name",
        "hop",
    ]);
    cli::run(&args).unwrap();
    let doc = hanim::load(&out).unwrap();
    let motion = doc.humanoids[0].motions.last().unwrap();
    assert_eq!((motion.name.as_str(), motion.frame_count), ("hop", 1102));

    // The exported numbers are exactly the track's f32 values.
    let c = load_bvh(&corpus("bvh/131_03.bvh"), None, None).unwrap();
    let original = hanim::load(&corpus("x3d/JinLOA1.x3d")).unwrap();
    let h = &original.humanoids[0];
    let r = retarget::retarget(&c.rig, &c.clip, h, &default_mapping(&c)).unwrap();
    let n = r.joints.len();
    let mut expected = Vec::new();
    for f in 0..r.frame_count() {
        for k in 0..n {
            if k == 0 {
                expected.extend(r.root_translation[f].to_array().map(|v| v as f32));
            }
            expected.extend(hanim_viewer::mocap::export::zyx_degrees(r.rotations[f * n + k]).map(|v| v as f32));
        }
    }
    assert_eq!(motion.values.len(), expected.len());
    let worst = motion.values.iter().zip(&expected).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
    assert!(worst <= 1e-5, "values differ by {worst}");
}

fn import_refuses_mismatched_inputs_with_clear_messages() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.x3d");
    let humanoid = corpus("x3d/JinLOA1.x3d");
    let amc_without_asf = parse_motion(&[
        "import",
        humanoid.to_str().unwrap(),
        corpus("asf/07_05.amc").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let e = cli::run(&amc_without_asf).unwrap_err().to_string();
    assert!(e.contains("needs its skeleton: add --asf"), "{e}");
    let wrong_skeleton = parse_motion(&[
        "import",
        humanoid.to_str().unwrap(),
        test_data("bad_mocap/amc_unknown_bone.amc").to_str().unwrap(),
        "--asf",
        corpus("asf/07.asf").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let e = format!("{:#}", cli::run(&wrong_skeleton).unwrap_err());
    assert!(e.contains("amc_unknown_bone.amc:6:1: unknown bone 'lfemurr'"), "{e}");
    assert!(!out.exists(), "nothing written on error");
}

// ---------------------------------------------------------------------------------------------------
// Bad inputs: every file in tests/data/bad_mocap gives its error with file:line:column.

fn malformed_inputs_name_the_file_position_and_what_was_expected() {
    let cmu = asf("07.asf");
    let cases: &[(&str, &str)] = &[
        ("asf_bone_without_end.asf", ":20:3: bone 'lfemur' (begun on line 12) has no 'end' before this 'begin'"),
        ("asf_bad_length.asf", ":11:12: expected a number for the bone length, found '6.9x'"),
        (
            "asf_unknown_hierarchy_bone.asf",
            ":16:12: unknown bone 'ltibia' in :hierarchy (expected a bone of :bonedata)",
        ),
        ("asf_too_few_limits.asf", ":15:3: bone 'lfemur': expected 1 more (min max) limits before 'end' (one per dof)"),
        (
            "asf_bad_axis_order.asf",
            ":11:17: expected a rotation order of x, y and z (e.g. XYZ) after 'axis', found 'XYQ'",
        ),
        (
            "asf_bone_not_in_hierarchy.asf",
            ":13:1: bone 'ltibia' never appears in :hierarchy (expected every bone to hang from root)",
        ),
        ("asf_bad_dof.asf", ":12:12: expected a dof (rx ry rz tx ty tz l), found 'qy'"),
        ("amc_unknown_bone.amc", ":6:1: unknown bone 'lfemurr' (expected a bone of the ASF, 'root' or a frame number)"),
        ("amc_wrong_value_count.amc", ":5:24: bone 'lfoot' (dof rx rz): expected 2 values, found 3"),
        (
            "amc_bone_before_frame.amc",
            ":3:1: expected a frame number (a line holding only an integer) before bone lines, found 'root'",
        ),
        ("amc_bad_number.amc", ":5:8: expected a number for bone 'ltibia' (dof rx), found '43.9.106'"),
        ("amc_bone_twice.amc", ":5:1: 'ltibia' appears twice in frame 1"),
        ("bvh_missing_brace.bvh", ":15:1: expected 1 more '}' before MOTION"),
        (
            "bvh_bad_channel.bvh",
            ":5:63: expected a channel name (Xposition … Zrotation), found 'Wrotation' (6 channels declared)",
        ),
        ("bvh_short_row.bvh", ":16:15: frame row 2: expected 9 values (the CHANNELS total), found 8"),
        ("bvh_truncated_frames.bvh", ":12:1: 'Frames: 3' but the file ends after 2 frame rows"),
        ("bvh_no_motion.bvh", ":6:1: expected MOTION after the hierarchy"),
        ("bvh_short_offset.bvh", ":5:2: expected a number for OFFSET, found 'CHANNELS'"),
        ("bvh_negative_frame_time.bvh", ":9:13: expected a positive frame time, found -0.01"),
    ];
    let dir = test_data("bad_mocap");
    let mut files: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    files.sort();
    let mut listed: Vec<String> = cases.iter().map(|(f, _)| f.to_string()).collect();
    listed.sort();
    assert_eq!(files, listed, "every bad file has an expected message");
    for (file, expected) in cases {
        let path = dir.join(file);
        let error = match Path::new(file).extension().and_then(|e| e.to_str()) {
            Some("asf") => asf::load_asf(&path).unwrap_err(),
            Some("amc") => amc::load_amc(&path, &cmu).unwrap_err(),
            _ => bvh::load_bvh(&path).unwrap_err(),
        };
        let text = error.to_string();
        assert_eq!(text, format!("{}{expected}", path.display()), "{file}");
    }
}

fn deep_and_odd_inputs_neither_overflow_nor_panic() {
    // A 20,000-bone chain (each bone the child of the previous): parsed, ordered and posed iteratively.
    let depth = 20_000;
    let mut text = String::from(":version 1.10\n:name chain\n:root\n order TX TY TZ RX RY RZ\n axis XYZ\n:bonedata\n");
    for i in 0..depth {
        text += &format!(
            " begin\n  id {i}\n  name b{i}\n  direction 0 1 0\n  length 1\n  axis 0 0 0 XYZ\n  dof rz\n  limits (-inf inf)\n end\n"
        );
    }
    text += ":hierarchy\n begin\n  root b0\n";
    for i in 1..depth {
        text += &format!("  b{} b{i}\n", i - 1);
    }
    text += " end\n";
    let a = asf::parse_asf(&text, Path::new("chain.asf")).unwrap();
    assert_eq!(a.order.len(), depth);
    assert_eq!(a.bones[depth - 1].limits, vec![(f64::NEG_INFINITY, f64::INFINITY)]);
    let rig = rig::rig_from_asf(&a);
    let mut frame = String::from(":DEGREES\n1\nroot 0 0 0 0 0 0\n");
    for i in 0..depth {
        frame += &format!("b{i} 0.01\n");
    }
    let m = amc::parse_amc(&frame, Path::new("chain.amc"), &a).unwrap();
    let clip = rig::clip_from_amc(&a, &m, 120.0);
    let p = clip.positions(&rig, 0);
    assert!(p.tips[depth].unwrap().is_finite());

    // A BVH nested 20,000 joints deep.
    let mut bvh_text = String::from("HIERARCHY\nROOT j0\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Yrotation Xrotation\n");
    for i in 1..depth {
        bvh_text += &format!("JOINT j{i}\n{{\nOFFSET 0 1 0\nCHANNELS 1 Zrotation\n");
    }
    bvh_text += "End Site\n{\nOFFSET 0 1 0\n}\n";
    bvh_text += &"}\n".repeat(depth);
    bvh_text += &format!("MOTION\nFrames: 1\nFrame Time: 0.1\n{}\n", vec!["1"; depth + 2].join(" "));
    let b = bvh::parse_bvh(&bvh_text, Path::new("deep.bvh")).unwrap();
    assert_eq!((b.joints.len(), b.channel_count), (depth, depth + 2));
    let r = rig::rig_from_bvh(&b, 1.0);
    assert!(rig::clip_from_bvh(&b, 1.0).positions(&r, 0).joints.iter().all(|p| p.is_finite()));

    // Garbage never panics.
    for junk in ["", "\u{0}\u{1}", "}}}}", ":bonedata\nend", "HIERARCHY\n{", "1\n2\n3", ":hierarchy\nbegin\nroot\n"] {
        let _ = asf::parse_asf(junk, Path::new("junk"));
        let _ = amc::parse_amc(junk, Path::new("junk"), &a);
        let _ = bvh::parse_bvh(junk, Path::new("junk"));
        let _ = mapping::parse_mapping(junk, Path::new("junk"));
    }
    // A file that is not UTF-8 is reported at its first bad byte.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("latin1.asf");
    std::fs::write(&path, b":version 1.10\n:name caf\xe9\n").unwrap();
    let e = asf::load_asf(&path).unwrap_err();
    assert_eq!((e.line, e.column), (2, 10), "{e}");
}

// ---------------------------------------------------------------------------------------------------
// Mapping files and rendering.

fn a_mapping_file_chooses_the_driven_joints() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("legs.txt");
    std::fs::write(&map, "# legs only\n{s}femur {s}_hip\n{s}tibia {s}_knee\n{s}foot {s}_talocrural\n").unwrap();
    let out = dir.path().join("legs.x3d");
    let args = parse_motion(&[
        "import",
        corpus("x3d/JinLOA1.x3d").to_str().unwrap(),
        corpus("asf/09_06.amc").to_str().unwrap(),
        "--asf",
        corpus("asf/09.asf").to_str().unwrap(),
        "--map",
        map.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    cli::run(&args).unwrap();
    let doc = hanim::load(&out).unwrap();
    let motion = doc.humanoids[0].motions.last().unwrap();
    assert_eq!(motion.joints, "humanoid_root l_hip l_knee l_talocrural r_hip r_knee r_talocrural");
    assert_eq!((motion.channel_count, motion.frame_count), (6 + 6 * 3, 141));
    // A mapping with a bad placeholder is refused with its position.
    std::fs::write(&map, "lfemur {x}_hip\n").unwrap();
    let e = cli::run(&args).unwrap_err().to_string();
    assert!(e.ends_with("legs.txt:1:8: unknown placeholder in '{x}_hip' (expected {s}, {S} or {Side})"), "{e}");
}

fn a_stick_figure_frame_renders_its_joints_where_they_project() {
    let ctx = common::gpu();
    let c = capture("07.asf", "07_05.amc");
    let mapping = default_mapping(&c);
    let frame = 258;
    let doc = cli::posed_stick_document(&c, &mapping, frame).unwrap();
    let mut request = hanim_viewer::render::SceneRequest::new(240, 240);
    request.view = hanim_viewer::render::ViewRequest::Named("side".into());
    request.show_skeleton = true;
    let image = hanim_viewer::render::render_document(&ctx, &doc, &request).unwrap();
    let background = image.background_rgba8();
    let p = frame_positions(&c, frame);
    for joint in ["root", "lfoot", "rfoot", "head", "lhumerus", "ltibia"] {
        let world = at(&c, &p, joint).as_vec3();
        let (x, y) = image.camera.project_to_pixel(world, image.width, image.height).unwrap();
        let (x, y) = (x.round() as i64, y.round() as i64);
        let drawn = (-2..=2).any(|dy| {
            (-2..=2).any(|dx| {
                let (px, py) = (x + dx, y + dy);
                (0..image.width as i64).contains(&px)
                    && (0..image.height as i64).contains(&py)
                    && image.pixel(px as u32, py as u32) != background
            })
        });
        assert!(drawn, "{joint} at pixel ({x}, {y}) is not drawn");
    }
    // Nothing is drawn far from the figure: the image corners keep the background.
    for (x, y) in [(0, 0), (239, 0), (0, 239), (239, 239)] {
        assert_eq!(image.pixel(x, y), background);
    }
}

fn the_motion_commands_run_from_the_binary() {
    let run =
        |args: &[&str]| std::process::Command::new(env!("CARGO_BIN_EXE_hanim-viewer")).args(args).output().unwrap();
    let mapping = run(&["motion", "mapping", corpus("bvh/131_03.bvh").to_str().unwrap()]);
    assert!(mapping.status.success());
    let text = String::from_utf8(mapping.stdout).unwrap();
    assert!(text.lines().any(|l| l == "LeftShoulder l_shoulder"), "{text}");
    assert!(text.lines().any(|l| l == "RightCollar r_sternoclavicular"), "{text}");
    let bad = run(&[
        "motion",
        "import",
        corpus("x3d/JinLOA1.x3d").to_str().unwrap(),
        test_data("bad_mocap/bvh_no_motion.bvh").to_str().unwrap(),
        "--out",
        "never.x3d",
    ]);
    assert!(!bad.status.success());
    let stderr = String::from_utf8(bad.stderr).unwrap();
    assert!(stderr.contains("bvh_no_motion.bvh:6:1: expected MOTION after the hierarchy"), "{stderr}");
    assert!(!Path::new("never.x3d").exists());

    // The window checks a capture named on its command line before it opens (no display needed).
    let jin = corpus("x3d/JinLOA1.x3d");
    let bad = run(&[jin.to_str().unwrap(), "--bvh", test_data("bad_mocap/bvh_no_motion.bvh").to_str().unwrap()]);
    assert!(!bad.status.success());
    let stderr = String::from_utf8(bad.stderr).unwrap();
    assert!(stderr.contains("bvh_no_motion.bvh:6:1: expected MOTION after the hierarchy"), "{stderr}");
    let lonely = run(&[jin.to_str().unwrap(), "--map", "m.txt"]);
    assert!(!lonely.status.success());
    let stderr = String::from_utf8(lonely.stderr).unwrap();
    assert!(stderr.contains("--map goes with a capture"), "{stderr}");
}

fn a_humanoid_named_like_the_bvh_is_driven_joint_by_joint() {
    // BvhSeamless3dExport1 names its joints Hips, LeftHip, LeftKnee, …, as the 3ds Max CMU release does.
    let c = load_bvh(&corpus("bvh/131_03.bvh"), None, None).unwrap();
    let (doc, r) = retarget_onto("BvhSeamless3dExport1.x3d", &c);
    let h = &doc.humanoids[0];
    assert_eq!(r.pairs.len(), 17, "{:?}", r.pairs);
    assert!(r.pairs.iter().all(|(source, targets)| targets.len() == 1 && targets[0] == *source), "{:?}", r.pairs);
    assert!(r.scale > 0.0 && r.notes.iter().all(|n| !n.contains("not scaled")), "{:?}", r.notes);
    for frame in [0, 300, 1101] {
        let pose = r.pose(h, frame);
        let g = pose::humanoid_from_joint(h, &pose);
        let centre = |n: &str| {
            let j = h.joint_index(n).unwrap();
            g[j].transform_point3(h.joints[j].rest.center)
        };
        let p = frame_positions(&c, frame);
        for (a, b) in [("LeftHip", "LeftKnee"), ("RightKnee", "RightAnkle"), ("RightShoulder", "RightElbow")] {
            let target = (centre(b) - centre(a)).normalize();
            let source = (at(&c, &p, b) - at(&c, &p, a)).normalize().as_vec3();
            let angle = target.angle_between(source).to_degrees();
            assert!(angle < 0.05, "frame {frame} {a}→{b}: {angle}°");
        }
    }
}

fn an_empty_bvh_motion_is_read_but_not_imported() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.bvh");
    std::fs::write(&path, "HIERARCHY\nROOT Hips\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Yrotation Xrotation\nEnd Site\n{\nOFFSET 0 1 0\n}\n}\nMOTION\nFrames: 0\nFrame Time: 0.1\n").unwrap();
    let c = load_bvh(&path, Some(1.0), None).unwrap();
    assert_eq!(c.clip.frame_count(), 0);
    let stick = StickFigure::new(&c.rig, &default_mapping(&c)).unwrap();
    assert_eq!(stick.pose(&c.clip, 5), Pose::rest(stick.humanoid()));
    assert_eq!(stick.pose_at(&c.clip, f64::NAN, 120.0), Pose::rest(stick.humanoid()));
    let out = dir.path().join("out.x3d");
    let args = parse_motion(&[
        "import",
        corpus("x3d/JinLOA1.x3d").to_str().unwrap(),
        path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let e = cli::run(&args).unwrap_err().to_string();
    assert!(e.ends_with("empty.bvh: the motion has no frames to import"), "{e}");
}

// ---------------------------------------------------------------------------------------------------
// Exported motions played back through src/animation, and rendered.

/// Imports `motion` (with `asf` for an AMC) onto `humanoid_file` with `motion import`, reloads the file,
/// plays the new HAnimMotion alone and not looping through [`Animations`] at each frame's time, and
/// compares every joint's effective local rotation and translation with the retargeted pose computed in
/// memory. Returns the worst rotation (quaternion distance) and translation differences.
fn play_imported(humanoid_file: &str, motion: &str, asf: Option<&str>) -> (f32, f32, usize) {
    use hanim_viewer::animation::{Animations, SampleOptions};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("imported.x3d");
    let humanoid = corpus(&format!("x3d/{humanoid_file}"));
    let motion_path = corpus(motion);
    let mut args = vec!["import", humanoid.to_str().unwrap(), motion_path.to_str().unwrap()];
    let asf_path = asf.map(corpus);
    if let Some(a) = &asf_path {
        args.extend(["--asf", a.to_str().unwrap()]);
    }
    args.extend(["--out", out.to_str().unwrap(), "--name", "captured"]);
    cli::run(&parse_motion(&args)).unwrap();

    // In memory: the capture retargeted onto the original humanoid.
    let c = match &asf_path {
        Some(a) => load_asf_amc(a, Some(&motion_path), 120.0).unwrap(),
        None => load_bvh(&motion_path, None, None).unwrap(),
    };
    let (original, r) = retarget_onto(humanoid_file, &c);
    let h0 = &original.humanoids[0];

    // Reloaded and played.
    let doc = hanim::load(&out).unwrap();
    let h = &doc.humanoids[0];
    let names: Vec<&str> = h.joints.iter().map(|j| j.name.as_str()).collect();
    let names0: Vec<&str> = h0.joints.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, names0, "{humanoid_file}: the copy keeps the skeleton");
    let mut animations = Animations::from_document_strict(&doc).unwrap();
    let index = animations.find("captured").expect("the imported motion is a clip");
    animations.solo(index);
    // Not looping, so that the last frame's time shows the last frame rather than wrapping to the first.
    animations.clips[index].looping = false;
    let hanim_viewer::animation::ClipSource::Motion { motion: played, .. } = &animations.clips[index].source else {
        panic!("an HAnimMotion clip")
    };
    assert_eq!(played.frame_count, r.frame_count(), "{motion}: every frame exported");
    let options = SampleOptions::default();
    let (mut worst_rotation, mut worst_translation) = (0.0f32, 0.0f32);
    for f in 0..r.frame_count() {
        let tau = played.time_of_frame(f as f64);
        let poses = animations.sample(&doc, tau, &options);
        let expected = r.pose(h0, f);
        for j in 0..h.joints.len() {
            let (a, b) = (poses[0].effective_rotation(h, j), expected.effective_rotation(h0, j));
            worst_rotation = worst_rotation.max((a - b).length().min((a + b).length()));
            let (a, b) = (poses[0].effective_translation(h, j), expected.effective_translation(h0, j));
            worst_translation = worst_translation.max((a - b).abs().max_element());
        }
    }
    (worst_rotation, worst_translation, r.frame_count())
}

fn an_imported_walk_plays_back_with_the_retargeted_rotations_of_every_frame() {
    let (rotation, translation, frames) = play_imported("JinLOA1.x3d", "asf/07_05.amc", Some("asf/07.asf"));
    println!("07_05 on JinLOA1, {frames} frames played: worst rotation {rotation:e}, translation {translation:e}");
    assert_eq!(frames, 517);
    assert!(rotation < 1e-5, "joint rotations differ by {rotation}");
    assert!(translation < 1e-5, "joint translations differ by {translation} m");
}

fn an_imported_bvh_plays_back_with_the_retargeted_rotations_of_every_frame() {
    let (rotation, translation, frames) = play_imported("JohnJoint20.x3d", "bvh/131_03.bvh", None);
    println!(
        "131_03.bvh on JohnJoint20, {frames} frames played: worst rotation {rotation:e}, translation {translation:e}"
    );
    assert_eq!(frames, 1102);
    assert!(rotation < 1e-5, "joint rotations differ by {rotation}");
    assert!(translation < 1e-5, "joint translations differ by {translation} m");
}

fn read_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut reader = png::Decoder::new(std::io::BufReader::new(file)).read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// Runs `hanim-viewer render …` through the command line's parser.
fn render_command(args: &[&str]) -> anyhow::Result<()> {
    use clap::Parser;
    let cli = hanim_viewer::cli::Cli::try_parse_from(std::iter::once("hanim-viewer").chain(args.iter().copied()))?;
    hanim_viewer::cli::run(cli).map(|_| ())
}

/// Every image keeps a background border (the figure stays in frame), shows a figure, and differs from
/// the one before.
fn check_frames(what: &str, images: &[(u32, u32, Vec<u8>)]) {
    let mut previous: Option<&Vec<u8>> = None;
    for (i, (w, h, rgba)) in images.iter().enumerate() {
        let px = |x: u32, y: u32| {
            let k = ((y * w + x) * 4) as usize;
            [rgba[k], rgba[k + 1], rgba[k + 2]]
        };
        let background = px(0, 0);
        let near = |p: [u8; 3]| p.iter().zip(background).all(|(a, b)| a.abs_diff(b) <= 1);
        for x in 0..*w {
            assert!(near(px(x, 0)) && near(px(x, h - 1)), "{what} image {i}: the figure touches the top/bottom");
        }
        for y in 0..*h {
            assert!(near(px(0, y)) && near(px(w - 1, y)), "{what} image {i}: the figure touches the left/right");
        }
        let figure = (0..*h).flat_map(|y| (0..*w).map(move |x| (x, y))).filter(|&(x, y)| !near(px(x, y))).count();
        assert!(figure > 300, "{what} image {i}: the figure is drawn ({figure} pixels)");
        if let Some(before) = previous {
            let changed = before.chunks(4).zip(rgba.chunks(4)).filter(|(a, b)| a != b).count();
            println!("{what}: image {i} differs from the one before in {changed} pixels ({figure} figure pixels)");
            assert!(changed > 100, "{what}: image {i} differs from the one before in only {changed} pixels");
        }
        previous = Some(rgba);
    }
}

fn render_retargets_a_capture_onto_the_file_and_draws_its_frames() {
    let _ctx = common::gpu();
    let dir = tempfile::tempdir().unwrap();
    let jin = corpus("x3d/JinLOA1.x3d");
    let (amc, asf, bvh) = (corpus("asf/07_05.amc"), corpus("asf/07.asf"), corpus("bvh/131_03.bvh"));
    let (jin, amc, asf, bvh) =
        (jin.to_str().unwrap(), amc.to_str().unwrap(), asf.to_str().unwrap(), bvh.to_str().unwrap());
    // Single frames of the walk: each framed on its own.
    let mut singles = Vec::new();
    for frame in ["0", "60", "130"] {
        let out = dir.path().join(format!("walk_{frame}.png"));
        let o = out.to_str().unwrap();
        render_command(&["render", jin, "--amc", amc, "--asf", asf, "--frame", frame, "--size", "160x120", "--out", o])
            .unwrap();
        singles.push(read_png(&out));
    }
    check_frames("07_05 frames 0, 60, 130", &singles);
    // A mapping file (as the window's Motion capture window saves one): the built-in table with the left
    // humerus and radius driving nothing changes the picture of frame 130; the table itself does not.
    let (table, edited) = (dir.path().join("table.txt"), dir.path().join("edited.txt"));
    let built_in = hanim_viewer::mocap::mapping::parse_mapping(hanim_viewer::mocap::mapping::CMU_ASF, Path::new("t"))
        .unwrap()
        .to_text();
    std::fs::write(&table, &built_in).unwrap();
    let without_arm: String = built_in
        .lines()
        .map(|l| {
            if l.starts_with("lhumerus") || l.starts_with("lradius") {
                l.split(' ').next().unwrap().to_string() + "\n"
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    std::fs::write(&edited, without_arm).unwrap();
    let mut mapped = Vec::new();
    for (name, map) in [("table", &table), ("edited", &edited)] {
        let out = dir.path().join(format!("walk_130_{name}.png"));
        let (o, m) = (out.to_str().unwrap(), map.to_str().unwrap());
        render_command(&[
            "render", jin, "--amc", amc, "--asf", asf, "--map", m, "--frame", "130", "--size", "160x120", "--out", o,
        ])
        .unwrap();
        mapped.push(read_png(&out));
    }
    assert_eq!(mapped[0], singles[2], "the built-in table from a file renders as the default");
    assert_ne!(mapped[1], singles[2], "the edited mapping moves the left arm differently");
    // A sequence of the BVH: one camera over every frame, 1102 frames every 250th → 5 images.
    let seq = dir.path().join("seq");
    let s = seq.to_str().unwrap();
    render_command(&["render", jin, "--bvh", bvh, "--every", "250", "--out-dir", s, "--size", "160x120"]).unwrap();
    let mut names: Vec<String> =
        std::fs::read_dir(&seq).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, (0..5).map(|i| format!("frame_{i:05}.png")).collect::<Vec<_>>());
    let images: Vec<_> = names.iter().map(|n| read_png(&seq.join(n))).collect();
    check_frames("131_03 every 250th frame", &images);
    // Bad combinations are refused before anything is drawn.
    let out = dir.path().join("never.png");
    let o = out.to_str().unwrap();
    let e = render_command(&["render", jin, "--amc", amc, "--frame", "0", "--out", o]).unwrap_err();
    assert!(e.to_string().contains("--asf"), "{e}");
    let e = render_command(&["render", jin, "--amc", amc, "--asf", asf, "--bvh", bvh, "--frame", "0", "--out", o])
        .unwrap_err();
    assert!(e.to_string().contains("cannot be used with"), "{e}");
    let e = render_command(&["render", jin, "--amc", amc, "--asf", asf, "--frame", "517", "--out", o]).unwrap_err();
    assert!(format!("{e:#}").contains("517"), "{e:#}");
    assert!(!out.exists());
}

fn the_window_opens_a_skeleton_with_its_motion_at_the_chosen_frame_rate() {
    use hanim_viewer::mocap::WindowCapture;
    let asf = corpus("asf/07.asf");
    assert_eq!(hanim_viewer::mocap::amc_beside(&asf), Some(corpus("asf/07_05.amc")), "first take of subject 07");
    // Default: the .amc beside the skeleton at CMU's 120 frames per second.
    let doc = WindowCapture::default().load(&asf, Default::default()).unwrap();
    let m = &doc.humanoids[0].motions[0];
    assert_eq!((m.name.as_str(), m.frame_count), ("07_05", 517));
    assert!((m.frame_duration - 1.0 / 120.0).abs() < 1e-9);
    // The command line's motion and frame rate.
    let chosen = WindowCapture::new(Some(&asf), Some(&corpus("asf/07_12.amc")), Some(60.0)).unwrap();
    let doc = chosen.load(&asf, Default::default()).unwrap();
    let m = &doc.humanoids[0].motions[0];
    assert_eq!((m.name.as_str(), m.frame_count), ("07_12", 245));
    assert!((m.frame_duration - 1.0 / 60.0).abs() < 1e-9);
    // A skeleton of another subject takes its own take, not the command line's.
    let other = chosen.load(&corpus("asf/09.asf"), Default::default()).unwrap();
    assert_eq!(other.humanoids[0].motions[0].name, "09_06");
    // A BVH plays at its Frame Time unless a rate is given; X3D files load as usual.
    let bvh = corpus("bvh/131_03.bvh");
    let m = &WindowCapture::default().load(&bvh, Default::default()).unwrap().humanoids[0].motions[0];
    assert!((m.frame_duration - 1.0 / 120.0).abs() < 1e-6, "{}", m.frame_duration);
    let m = &chosen.load(&bvh, Default::default()).unwrap().humanoids[0].motions[0];
    assert!((m.frame_duration - 1.0 / 60.0).abs() < 1e-9);
    assert_eq!(chosen.load(&corpus("x3d/JinLOA1.x3d"), Default::default()).unwrap().humanoids[0].name, "JinLOA1");
    // A motion for anything but an .asf is refused.
    let e = WindowCapture::new(Some(&bvh), Some(&corpus("asf/07_12.amc")), None).unwrap_err();
    assert!(e.to_string().contains("goes with an .asf skeleton"), "{e}");
}

fn catalog_poses_humanoids_in_a_frame_of_a_capture() {
    let _ctx = common::gpu();
    let dir = tempfile::tempdir().unwrap();
    let jin = corpus("x3d/JinLOA1.x3d");
    let (amc, asf) = (corpus("asf/07_05.amc"), corpus("asf/07.asf"));
    let catalogue = |name: &str, extra: &[&str]| -> Vec<(u32, u32, Vec<u8>)> {
        let out = dir.path().join(name);
        let mut args = vec!["catalog", jin.to_str().unwrap(), "--out", out.to_str().unwrap()];
        args.extend(["--views", "front,side", "--size", "160x160"]);
        args.extend(extra);
        render_command(&args).unwrap();
        let mut names: Vec<_> = std::fs::read_dir(out.join("images")).unwrap().map(|e| e.unwrap().path()).collect();
        names.sort();
        assert_eq!(names.len(), 2, "{name}: {names:?}");
        names.iter().map(|p| read_png(p)).collect()
    };
    let rest = catalogue("rest", &[]);
    let walk = catalogue("walk", &["--amc", amc.to_str().unwrap(), "--asf", asf.to_str().unwrap(), "--frame", "130"]);
    for (view, (a, b)) in ["front", "side"].iter().zip(rest.iter().zip(&walk)) {
        check_frames(&format!("catalogue {view} view, rest then 07_05 frame 130"), &[a.clone(), b.clone()]);
    }
    // With a mapping file in which the left humerus drives nothing, the same frame looks different.
    let map = dir.path().join("no_left_humerus.txt");
    std::fs::write(&map, "lhumerus\n").unwrap();
    let mapped = catalogue(
        "mapped",
        &[
            "--amc",
            amc.to_str().unwrap(),
            "--asf",
            asf.to_str().unwrap(),
            "--frame",
            "130",
            "--map",
            map.to_str().unwrap(),
        ],
    );
    assert_ne!(mapped[0], walk[0], "the mapping file is used");
    let e = render_command(&[
        "catalog",
        jin.to_str().unwrap(),
        "--out",
        dir.path().join("never").to_str().unwrap(),
        "--bvh",
        corpus("bvh/131_03.bvh").to_str().unwrap(),
        "--frame",
        "1102",
    ])
    .unwrap_err();
    assert!(e.to_string().contains("the motion has 1102 frames"), "{e}");
}
