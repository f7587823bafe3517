//! `check` knows motions and field ranges: each defect, made on the fly in an otherwise clean humanoid,
//! is an error of its rule at the field's file:line:column (exit code 1), and a warning when loading.

use std::path::{Path, PathBuf};
use std::process::Command;

use hanim_viewer::hanim;

/// A clean LOA-0 humanoid with three joints; `joint_fields` go on l_hip, `humanoid_fields` on the
/// humanoid, `motion` is placed in its `motions` field.
fn humanoid(humanoid_fields: &str, joint_fields: &str, motion: &str) -> String {
    let version = if humanoid_fields.contains("version=") { "" } else { "version='2.0'" };
    format!(
        "<?xml version='1.0' encoding='UTF-8'?>\n<X3D version='4.0'><Scene>\n\
         <HAnimHumanoid DEF='h' name='h' {version} {humanoid_fields}>\n\
         <HAnimJoint DEF='h_humanoid_root' name='humanoid_root' containerField='skeleton'>\n\
         <HAnimJoint DEF='h_sacroiliac' name='sacroiliac' center='0 1 0'>\n\
         <HAnimJoint DEF='h_l_hip' name='l_hip' center='0.1 0.9 0' {joint_fields}/>\n\
         </HAnimJoint></HAnimJoint>\n\
         <HAnimJoint USE='h_humanoid_root' containerField='joints'/>\
         <HAnimJoint USE='h_sacroiliac' containerField='joints'/><HAnimJoint USE='h_l_hip' containerField='joints'/>\n\
         {motion}\n\
         </HAnimHumanoid>\n</Scene></X3D>\n"
    )
}

/// A motion of two frames over humanoid_root (6 channels) and l_hip (3), with one field replaced.
fn motion(replace: &str, with: &str) -> String {
    let fields = [
        ("channels", "6 Xposition Yposition Zposition Zrotation Xrotation Yrotation 3 Zrotation Xrotation Yrotation"),
        ("joints", "humanoid_root l_hip"),
        ("values", "0 0 0 0 0 0 0 0 0  0 0.1 0 0 10 0 5 5 5"),
        ("frameDuration", "0.1"),
        ("frameIndex", "0"),
        ("frameIncrement", "1"),
        ("startFrame", "0"),
        ("endFrame", "1"),
        ("loa", "-1"),
    ];
    let attributes: Vec<String> = fields
        .iter()
        .map(|(name, value)| format!("{name}='{}'", if *name == replace { with } else { value }))
        .collect();
    format!("<HAnimMotion DEF='walk' name='walk' containerField='motions'\n {}/>", attributes.join("\n "))
}

fn check(path: &Path) -> (i32, String) {
    let output =
        Command::new(env!("CARGO_BIN_EXE_hanim-viewer")).args(["check", "--no-gpu"]).arg(path).output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    (output.status.code().unwrap_or(-1), text)
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The line of `needle` in `text`, 1-based.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).unwrap_or_else(|| panic!("'{needle}' not in the file")) + 1
}

#[test]
fn a_clean_motion_and_humanoid_have_no_findings() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "clean.x3d",
        &humanoid("", "llimit='-1 -1 -1' ulimit='1 1 1' stiffness='0 0.5 1'", &motion("", "")),
    );
    let (code, text) = check(&path);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("0 errors, 0 warnings"), "{text}");
}

#[test]
fn each_motion_defect_is_an_error_in_check_and_a_warning_when_loading() {
    let cases: &[(&str, &str, &str, &str)] = &[
        // (field, bad value, rule, message part)
        (
            "channels",
            "6 Xposition Yposition Zposition Zrotation Xrotation Wobble 3 Zrotation Xrotation Twist",
            "motion-channels",
            "2 unknown channel name(s): Wobble, Twist",
        ),
        ("channels", "6 Xposition Yposition", "motion-channels", "announces 6 channels but the string ends after 2"),
        (
            "joints",
            "humanoid_root l_hip r_hip",
            "motion-channel-count",
            "joints names 3 joint(s) but channels describes 2",
        ),
        ("joints", "humanoid_root l_hipp", "motion-joint", "1 joint name(s) name no joint of the humanoid: l_hipp"),
        (
            "values",
            "0 0 0 0 0 0 0 0 0  0 0.1 0 0 10 0 5 5",
            "motion-values",
            "values has 17 numbers, not a whole number of frames of 9 channels",
        ),
        (
            "frameDuration",
            "-0.5",
            "motion-frame-duration",
            "frameDuration must be a positive number of seconds (0,∞), found -0.5",
        ),
        ("frameDuration", "0", "motion-frame-duration", "found 0"),
        (
            "frameIndex",
            "7",
            "motion-frame-range",
            "frameIndex 7 is outside the clip's frames 0..1 (the motion has 2 frames)",
        ),
        ("startFrame", "-1", "motion-frame-range", "startFrame -1 is outside"),
        ("endFrame", "2", "motion-frame-range", "endFrame 2 is outside"),
        ("frameIncrement", "0", "motion-frame-increment", "frameIncrement is 0"),
        ("loa", "5", "motion-loa", "loa 5 is outside -1..4"),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (i, (field, value, rule, part)) in cases.iter().enumerate() {
        let text = humanoid("", "", &motion(field, value));
        let path = write(dir.path(), &format!("motion{i}.x3d"), &text);
        let (code, output) = check(&path);
        let what = format!("{field}='{value}'");
        assert_eq!(code, 1, "{what}: {output}");
        let line = line_of(&text, &format!("{field}='"));
        let at = format!("error[{rule}] {}:{line}:", path.display());
        assert!(output.contains(&at) && output.contains(part), "{what}: expected '{at}' and '{part}' in\n{output}");
        assert_eq!(output.matches(part).count(), 1, "{what}: reported once, not also as a loader warning\n{output}");

        let doc = hanim::load(&path).unwrap_or_else(|e| panic!("{what}: the file loads: {e}"));
        assert!(doc.warnings.iter().any(|w| w.message.contains(part)), "{what}: loading warns: {:?}", doc.warnings);
    }
}

#[test]
fn field_ranges_of_the_other_hanim_nodes_are_errors() {
    let cases: &[(&str, &str, &str, &str)] = &[
        // (humanoid fields, l_hip fields, rule, message part)
        ("", "llimit='0 1 0' ulimit='0 -1 0'", "limit-order", "joint 'l_hip' has llimit above ulimit about Y (1 > -1)"),
        ("", "llimit='0 1'", "limit-count", "joint 'l_hip' llimit has 2 values; it must have 3 or none"),
        ("", "stiffness='0 1.5 -0.1'", "stiffness-range", "2 stiffness of joint 'l_hip' outside [0, 1]: 1.5, -0.1"),
        (
            "",
            "skinCoordIndex='0 1' skinCoordWeight='1'",
            "weight-count",
            "2 skinCoordIndex entries but 1 skinCoordWeight",
        ),
        ("", "skinCoordIndex='0' skinCoordWeight='1.5'", "weight-range", "weights of joint 'l_hip' outside [0, 1]"),
        ("version='1.1'", "", "version", "humanoid version '1.1' is not \"2.0\" in an X3D 4 file"),
        ("loa='7'", "", "loa", "loa 7 is outside -1..4"),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (i, (humanoid_fields, joint_fields, rule, part)) in cases.iter().enumerate() {
        let text = humanoid(humanoid_fields, joint_fields, "");
        let path = write(dir.path(), &format!("fields{i}.x3d"), &text);
        let (code, output) = check(&path);
        assert_eq!(code, 1, "{rule}: {output}");
        let at = format!("error[{rule}] {}:", path.display());
        assert!(output.contains(&at) && output.contains(part), "expected '{at}' and '{part}' in\n{output}");
    }
}

#[test]
fn an_end_effector_site_that_hangs_elsewhere_than_its_name_says_is_warned() {
    let site = |segment: &str, site: &str| {
        format!(
            "<?xml version='1.0' encoding='UTF-8'?>\n<X3D version='4.0'><Scene>\n\
             <HAnimHumanoid DEF='h' name='h' version='2.0'>\n\
             <HAnimJoint DEF='h_humanoid_root' name='humanoid_root' containerField='skeleton'>\n\
             <HAnimSegment DEF='h_{segment}' name='{segment}'>\n<HAnimSite DEF='h_{site}' name='{site}'/>\n\
             </HAnimSegment></HAnimJoint>\n\
             <HAnimJoint USE='h_humanoid_root' containerField='joints'/>\
             <HAnimSegment USE='h_{segment}' containerField='segments'/><HAnimSite USE='h_{site}' containerField='sites'/>\n\
             </HAnimHumanoid>\n</Scene></X3D>\n"
        )
    };
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.x3d", &site("pelvis", "pelvis_tip"));
    let (code, output) = check(&good);
    assert!(!output.contains("site-tip-segment"), "{output}");
    assert_eq!(code, 0, "{output}");
    let bad = write(dir.path(), "bad.x3d", &site("pelvis", "skull_tip"));
    let (code, output) = check(&bad);
    assert_eq!(code, 0, "a naming convention: a warning\n{output}");
    let expected = format!("warning[site-tip-segment] {}:6:", bad.display());
    assert!(output.contains(&expected), "{output}");
    assert!(output.contains("end-effector site 'skull_tip' hangs in segment 'pelvis'"), "{output}");
}
