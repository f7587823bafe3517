//! The one door every input comes in by (`src/input`), from the outside: the release binary is run on
//! FIFOs, links to `/dev/zero`, files over their kind's limit, folders holding FIFOs and link loops, and
//! shard manifests that were tampered with or point out of their folder. Every case checks the exit
//! status, the message (the file and the reason, never a byte of a file that failed), the time taken
//! (a reader blocked on a FIFO would hang: the run is killed past `DEADLINE`), the peak memory (`wait4`)
//! and that no partial output is left. Each run prints `door: <case>: <seconds> s, <MiB> MiB peak`, the
//! figures in BENCHMARKS.md.

mod common;

test_main!(
    a_fifo_is_refused_for_every_kind_of_input_without_blocking,
    a_link_to_dev_zero_is_refused_as_a_device_in_bounded_memory,
    a_file_over_its_kinds_limit_names_the_limit_and_the_variable_to_raise_it,
    a_folder_holding_a_fifo_and_a_link_loop_is_catalogued_around_them,
    a_tampered_shard_manifest_is_escaped_or_refused_and_leaves_nothing_behind,
    a_shard_listing_a_file_outside_its_folder_is_refused_and_nothing_is_written,
    a_long_render_with_a_background_dome_stays_flat_in_memory
);

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::peak::{Measured, run_within};

const BIN: &str = env!("CARGO_BIN_EXE_hanim-viewer");
/// What the files that must never be echoed hold.
const SECRET: &str = "DOOR-SECRET-4b1e9";
/// A refused input is refused at once; this bound only catches a reader that blocks (generous for
/// loaded CI machines: the runs take milliseconds, see BENCHMARKS.md).
const DEADLINE: Duration = Duration::from_secs(10);
/// A command that refuses its input before reading it stays near its start-up size (about 9 MiB).
const REFUSED_PEAK: u64 = 64 << 20;

/// Runs the viewer with `args` in `env`, within the deadline, and prints its time and peak.
fn run(case: &str, args: &[&dyn AsRef<std::ffi::OsStr>], env: &[(&str, &str)]) -> Measured {
    run_until(case, args, env, DEADLINE)
}

/// As [`run`], with its own deadline (a long render).
fn run_until(case: &str, args: &[&dyn AsRef<std::ffi::OsStr>], env: &[(&str, &str)], deadline: Duration) -> Measured {
    let mut command = Command::new(BIN);
    for arg in args {
        command.arg(arg);
    }
    command.envs(env.iter().copied());
    let m = run_within(&mut command, deadline);
    eprintln!("door: {case}: {:.3} s, {:.1} MiB peak", m.elapsed.as_secs_f64(), m.peak as f64 / f64::from(1 << 20));
    assert!(!m.text.contains(SECRET), "{case}: a message echoes a file's bytes:\n{}", m.text);
    m
}

/// Asserts a refusal: non-zero exit, `expected` in the messages, little memory.
fn refused(case: &str, m: &Measured, expected: &str) {
    assert!(!m.status.success(), "{case}: exit {:?}\n{}", m.status, m.text);
    assert!(m.text.contains(expected), "{case}: expected '{expected}' in:\n{}", m.text);
    assert!(!m.text.contains("panicked"), "{case}: {}", m.text);
    assert!(m.peak < REFUSED_PEAK, "{case}: peak {} bytes", m.peak);
}

/// Skips the test when no GPU adapter can be used (under `CI=true`: fails), asked of a child process
/// (`info --gpu`): a test process that opened a device itself would pass its resident size on to every
/// child it spawns (Linux counts the parent's pages in a child's peak until `exec`), and the peaks
/// measured here would be the test's, not the viewer's.
fn needs_gpu_in_a_child() {
    let output = Command::new(BIN).args(["info", "--gpu"]).output().expect("the viewer runs");
    if !output.status.success() {
        common::harness::skip(format!("no GPU adapter: {}", String::from_utf8_lossy(&output.stderr).trim()));
    }
}

fn mkfifo(path: &Path) -> PathBuf {
    let made = Command::new("mkfifo").arg(path).status().expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", path.display());
    path.to_path_buf()
}

fn link(target: impl AsRef<Path>, path: &Path) -> PathBuf {
    std::os::unix::fs::symlink(target, path).unwrap();
    path.to_path_buf()
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    out.sort();
    out
}

fn a_fifo_is_refused_for_every_kind_of_input_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let humanoid = common::corpus("x3d/JinLOA1.x3d");
    let bvh = common::corpus("bvh/131_03.bvh");
    let asf = common::corpus("asf/07.asf");
    let out = d.join("out.x3d");
    let shard = d.join("shard");
    std::fs::create_dir(&shard).unwrap();
    let merged = d.join("merged");
    let [x3d, json, txt, bvh_pipe, asf_pipe, amc, map] =
        ["pipe.x3d", "pipe.json", "pipe.txt", "pipe.bvh", "pipe.asf", "pipe.amc", "pipe.map"]
            .map(|n| mkfifo(&d.join(n)));
    let manifest = mkfifo(&shard.join("catalog.json"));
    let cases: Vec<(&str, Vec<&dyn AsRef<std::ffi::OsStr>>, &PathBuf)> = vec![
        ("X3D document", vec![&"info", &x3d], &x3d),
        ("pose file", vec![&"pose", &humanoid, &"--pose-file", &json], &json),
        ("script", vec![&"--script", &txt], &txt),
        ("BVH", vec![&"motion", &"stick", &bvh_pipe, &"--out", &out], &bvh_pipe),
        ("ASF", vec![&"motion", &"stick", &asf_pipe, &"--out", &out], &asf_pipe),
        ("AMC", vec![&"motion", &"stick", &asf, &"--amc", &amc, &"--out", &out], &amc),
        ("mapping", vec![&"motion", &"import", &humanoid, &bvh, &"--map", &map, &"--out", &out], &map),
        ("shard manifest", vec![&"catalog", &"merge", &shard, &"--out", &merged], &manifest),
    ];
    for (case, args, fifo) in &cases {
        let m = run(&format!("FIFO as {case}"), args, &[]);
        refused(case, &m, &format!("{}: is a FIFO, not a regular file", fifo.display()));
    }
    assert!(!out.exists() && !merged.exists(), "no output was written: {:?}", names(d));
}

fn a_link_to_dev_zero_is_refused_as_a_device_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let humanoid = common::corpus("x3d/JinLOA1.x3d");
    let out = d.join("out.x3d");
    let x3d = link("/dev/zero", &d.join("zero.x3d"));
    let wrl = link("/dev/zero", &d.join("zero.wrl"));
    let bvh = link("/dev/zero", &d.join("zero.bvh"));
    let cases: Vec<(&str, Vec<&dyn AsRef<std::ffi::OsStr>>, &PathBuf)> = vec![
        ("X3D document", vec![&"info", &x3d], &x3d),
        ("X3D document to convert", vec![&"convert", &wrl, &"--out", &out], &wrl),
        ("BVH", vec![&"motion", &"mapping", &bvh], &bvh),
    ];
    for (case, args, zero) in &cases {
        let m = run(&format!("/dev/zero as {case}"), args, &[]);
        refused(case, &m, &format!("{}: is a device, not a regular file", zero.display()));
    }
    assert!(!out.exists());
    let zero = link("/dev/zero", &d.join("zero.json"));
    let m = run("/dev/zero as pose file", &[&"pose", &humanoid, &"--pose-file", &zero], &[]);
    refused("pose file", &m, &format!("{}: is a device, not a regular file", zero.display()));
}

fn a_file_over_its_kinds_limit_names_the_limit_and_the_variable_to_raise_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let humanoid = common::corpus("x3d/JinLOA1.x3d");
    // A pose file of 2 MiB against a limit of 1 MiB; its start is a secret that must not be echoed.
    let pose = d.join("big.json");
    std::fs::write(&pose, format!("{SECRET}{}", " ".repeat(2 << 20))).unwrap();
    let m = run("pose file over 1 MiB", &[&"pose", &humanoid, &"--pose-file", &pose], &[("HANIM_MAX_POSE_MIB", "1")]);
    refused(
        "pose file",
        &m,
        &format!(
            "{}: is larger than the limit of 1 MiB for pose files (2097169 bytes; set HANIM_MAX_POSE_MIB to raise it)",
            pose.display()
        ),
    );
    // Raised, the same file is read (and then refused as what it is: not JSON, at its first byte).
    let m =
        run("pose file, limit raised", &[&"pose", &humanoid, &"--pose-file", &pose], &[("HANIM_MAX_POSE_MIB", "4")]);
    refused("pose file", &m, &format!("{}:1:1: expected value (not JSON)", pose.display()));

    // A sparse 64 GiB file named as a document: refused by its size before a byte is read.
    let huge = d.join("huge.x3d");
    std::fs::File::create(&huge).unwrap().set_len(64 << 30).unwrap();
    let m = run("64 GiB X3D document", &[&"info", &huge], &[]);
    refused(
        "X3D document",
        &m,
        "is larger than the limit of 1024 MiB for X3D documents (68719476736 bytes; set HANIM_MAX_DOCUMENT_MIB",
    );
    let m = run("64 GiB BVH", &[&"motion", &"mapping", &link(&huge, &d.join("huge.bvh"))], &[]);
    refused("BVH", &m, "is larger than the limit of 256 MiB for BVH captures");

    // A script that is not text: placed by line and column, never quoted.
    let script = d.join("script.txt");
    std::fs::write(&script, [SECRET.as_bytes(), b"\nquit\n\xff\xfe", SECRET.as_bytes()].concat()).unwrap();
    let m = run("script that is not UTF-8", &[&"--script", &script], &[]);
    refused("script", &m, &format!("{}:3:1: is not UTF-8 text (expected one of the scripts)", script.display()));

    // A BVH that is some other file: refused without repeating it.
    let other = d.join("other.bvh");
    std::fs::write(&other, format!("{SECRET}:x:0:0\n")).unwrap();
    let m = run("BVH that is not one", &[&"motion", &"mapping", &other], &[]);
    refused("BVH", &m, "not a BVH file: expected HIERARCHY at its start");
}

/// A folder of inputs: DiamondManLOA1, a FIFO and a link to `/dev/zero` named like inputs, and a FIFO
/// that is not named like one.
fn folder_with_traps(d: &Path) -> PathBuf {
    let folder = d.join("inputs");
    std::fs::create_dir_all(folder.join("sub")).unwrap();
    std::fs::copy(common::corpus("x3d/DiamondManLOA1.x3d"), folder.join("sub/DiamondManLOA1.x3d")).unwrap();
    mkfifo(&folder.join("pipe.x3d"));
    mkfifo(&folder.join("notes.txt"));
    link("/dev/zero", &folder.join("zero.wrl"));
    folder
}

fn a_folder_holding_a_fifo_and_a_link_loop_is_catalogued_around_them() {
    needs_gpu_in_a_child();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let folder = folder_with_traps(d);
    // A loop back to the top, and a second way into `sub` (searched once, not a loop).
    link(&folder, &folder.join("sub/up"));
    link(folder.join("sub"), &folder.join("zz_alias"));
    let out = d.join("out");
    let m = run(
        "catalog of a folder with a FIFO, /dev/zero and a loop",
        &[&"catalog", &folder, &"--views", &"front", &"--size", &"32x32", &"--out", &out],
        &[],
    );
    assert_eq!(m.status.code(), Some(1), "the skipped files are failures:\n{}", m.text);
    for expected in [
        format!("{}: is a FIFO, not a regular file; not opened", folder.join("pipe.x3d").display()),
        format!("{}: is a device, not a regular file; not opened", folder.join("zero.wrl").display()),
        format!("{}: is a link loop", folder.join("sub/up").display()),
    ] {
        assert!(m.text.contains(&expected), "expected '{expected}' in:\n{}", m.text);
    }
    assert!(!m.text.contains("notes.txt"), "a file not named like an input is passed over: {}", m.text);
    assert!(m.elapsed < DEADLINE);
    // The figure is catalogued once, by its first path in name order; the failures are on the page.
    assert_eq!(names(&out.join("images")), ["sub__DiamondManLOA1-front.png"]);
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains("1 humanoid(s) from 1 file(s); 3 failed."), "{html}");
    assert!(html.contains("is a FIFO, not a regular file"), "{html}");
    assert_eq!(names(d), ["inputs", "out"], "no staging folder is left");

    // The same traps in a folder of captures.
    let takes = d.join("takes");
    std::fs::create_dir(&takes).unwrap();
    std::fs::copy(common::corpus("bvh/131_03.bvh"), takes.join("131_03.bvh")).unwrap();
    mkfifo(&takes.join("pipe.bvh"));
    link(&takes, &takes.join("again"));
    let jin = common::corpus("x3d/JinLOA1.x3d");
    let m = run(
        "catalog --motions of a folder with a FIFO and a loop",
        &[
            &"catalog",
            &"--motions",
            &takes,
            &"--onto",
            &jin,
            &"--size",
            &"32x32",
            &"--preview-seconds",
            &"0.2",
            &"--out",
            &d.join("moving"),
        ],
        &[],
    );
    assert_eq!(m.status.code(), Some(1), "{}", m.text);
    assert!(m.text.contains("pipe.bvh: is a FIFO, not a regular file; not opened"), "{}", m.text);
    assert!(m.text.contains("again: is a link loop"), "{}", m.text);
    assert!(m.text.contains("catalogued 1 take(s)"), "{}", m.text);
}

/// A shard folder as `catalog --shard` writes it, by hand: one entry `id` named `name`, whose outputs
/// are `outputs` (each written with a few bytes unless it exists), in manifest format 2.
fn shard(dir: &Path, id: &str, name: &str, outputs: &[&str]) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    for output in outputs {
        let path = dir.join(output);
        if let Some(parent) = path.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        if !path.exists() {
            let _ = std::fs::write(&path, b"image");
        }
    }
    let manifest = serde_json::json!({
        "format": 2,
        "title": "H-Anim humanoid catalogue",
        "noun": "humanoid",
        "settings": "Views: front; 32x32 pixels each, rest pose.",
        "files": 1,
        "entries": [{
            "order": 0,
            "id": id,
            "name": name,
            "sources": [{"label": "File", "path": format!("{id}.x3d")}],
            "notes": [],
            "images": [{"src": outputs[0], "width": 32, "height": 32, "alt": name, "caption": "front"}],
            "previews": [],
            "later_notes": [],
            "link": {"label": "Contact sheet", "href": outputs[0]},
            "table": [{"key": "LOA", "value": "1"}],
            "outputs": outputs,
        }],
        "failures": [],
    });
    std::fs::write(dir.join("catalog.json"), serde_json::to_string_pretty(&manifest).unwrap()).unwrap();
    dir.to_path_buf()
}

fn a_tampered_shard_manifest_is_escaped_or_refused_and_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Script in text: escaped on the page.
    let hostile = "<script>alert(document.cookie)</script>";
    let one = shard(&d.join("one"), "a", hostile, &["images/a-front.png"]);
    let merged = d.join("merged");
    let m = run("merge of a manifest with <script> in a name", &[&"catalog", &"merge", &one, &"--out", &merged], &[]);
    assert!(m.status.success(), "{}", m.text);
    let html = std::fs::read_to_string(merged.join("index.html")).unwrap();
    assert!(!html.contains("<script"), "{html}");
    assert!(html.contains("&lt;script&gt;alert(document.cookie)&lt;/script&gt;"), "{html}");
    assert_eq!(std::fs::read(merged.join("images/a-front.png")).unwrap(), b"image");

    // Script in an id (an anchor and a file name): refused, nothing written.
    let two = shard(&d.join("two"), "<script>", "x", &["images/a-front.png"]);
    let m = run(
        "merge of a manifest with <script> in an id",
        &[&"catalog", &"merge", &two, &"--out", &d.join("merged2")],
        &[],
    );
    refused("id", &m, "entries[0]: the id is not a name a catalogue writes");
    assert!(!m.text.contains("<script"), "{}", m.text);

    // A manifest of the earlier format (HTML in its strings) is named as such.
    let old = d.join("old");
    std::fs::create_dir(&old).unwrap();
    std::fs::write(old.join("catalog.json"), format!("{{\"format\": 1, \"title\": \"{SECRET}\"}}")).unwrap();
    let m = run("merge of a format 1 manifest", &[&"catalog", &"merge", &old, &"--out", &d.join("merged3")], &[]);
    refused("format 1", &m, "manifest format 1 (this program reads 2");
    assert_eq!(names(d), ["merged", "old", "one", "two"], "no partial output or staging folder is left");
}

fn a_shard_listing_a_file_outside_its_folder_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("secret.txt"), SECRET).unwrap();
    let good = shard(&d.join("good"), "g", "Good", &["images/g-front.png"]);
    // A path that climbs out.
    let climbing = shard(&d.join("climbing"), "c", "C", &["images/c-front.png", "../secret.txt"]);
    // A folder inside the shard that is a link out of it.
    let linked = d.join("linked");
    std::fs::create_dir(&linked).unwrap();
    std::fs::create_dir(d.join("elsewhere")).unwrap();
    std::fs::write(d.join("elsewhere/l-front.png"), SECRET).unwrap();
    link(d.join("elsewhere"), &linked.join("images"));
    let linked = shard(&linked, "l", "L", &["images/l-front.png"]);
    // An earlier merge's folder, which a failed merge must leave as it was.
    let merged = d.join("merged");
    let m = run("merge of a good shard", &[&"catalog", &"merge", &good, &"--out", &merged], &[]);
    assert!(m.status.success(), "{}", m.text);
    let before = std::fs::read(merged.join("index.html")).unwrap();

    let m =
        run("merge of a shard with ../ in a path", &[&"catalog", &"merge", &good, &climbing, &"--out", &merged], &[]);
    refused("climbing", &m, "entries[0] ('c'): outputs[1] is not a path inside the folder");
    let m = run("merge of a shard with a link out", &[&"catalog", &"merge", &good, &linked, &"--out", &merged], &[]);
    refused("linked", &m, "entry 'l' lists images/l-front.png, which leads outside the shard's folder");
    let m = run(
        "merge of a shard with a link out, new folder",
        &[&"catalog", &"merge", &linked, &"--out", &d.join("fresh")],
        &[],
    );
    refused("linked", &m, "leads outside the shard's folder");

    assert_eq!(std::fs::read(merged.join("index.html")).unwrap(), before, "the earlier merge is untouched");
    assert_eq!(names(&merged.join("images")), ["g-front.png"]);
    assert_eq!(
        names(d),
        ["climbing", "elsewhere", "good", "linked", "merged", "secret.txt"],
        "nothing partial is left"
    );
}

fn a_long_render_with_a_background_dome_stays_flat_in_memory() {
    needs_gpu_in_a_child();
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(common::corpus("x3d/DiamondManLOA1.x3d")).unwrap();
    // A sky gradient and a ground: the dome is drawn every frame (a one-colour sky is only cleared to).
    let dome = "<Scene><Background skyColor='0 0 0.1 0 0 0.5' skyAngle='1.5' groundColor='0 0.1 0 0 0.2 0' groundAngle='1.5'/>";
    let file = dir.path().join("dome.x3d");
    std::fs::write(&file, text.replacen("<Scene>", dome, 1)).unwrap();
    let peak = |seconds: &str, fps: &str| {
        let out = dir.path().join(format!("turn{seconds}x{fps}.webp"));
        let m = run_until(
            &format!("turntable of {seconds} s at {fps} fps with a dome"),
            &[&"render", &file, &"--turntable", &seconds, &"--anim-fps", &fps, &"--size", &"32x32", &"--out", &out],
            &[],
            Duration::from_secs(300),
        );
        assert!(m.status.success(), "{}", m.text);
        assert!(out.is_file());
        m.peak
    };
    // 11 frames against 2,001.
    let (short, long) = (peak("1", "10"), peak("2", "1000"));
    let mib = |bytes: u64| bytes as f64 / f64::from(1 << 20);
    let growth = mib(long.saturating_sub(short));
    eprintln!(
        "door: dome: 11 frames {:.1} MiB, 2001 frames {:.1} MiB peak: {growth:.1} MiB more",
        mib(short),
        mib(long)
    );
    // Before the fixes each frame added about 0.75 MiB for the dome and 0.3 MiB for the moving camera
    // (lavapipe compiling the shaders again at every draw): some 2 GiB over these 1,990 frames more.
    assert!(growth < 16.0, "1,990 more frames grew the peak by {growth:.1} MiB");
}
