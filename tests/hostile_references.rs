//! Hostile files, round two, made on the fly: url lists whose entries fail (missing files, files that
//! are not X3D, a directory, `/dev/zero`, a FIFO, a file over the size limit, a cycle), text encodings,
//! and gzip data that expands enormously. Each case asserts the exit code, the message, and that no
//! message carries a byte of a referenced file that failed.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use hanim_viewer::hanim;

/// What a file that must never be echoed contains.
const SECRET: &str = "TOP-SECRET-7f3a9c";

fn humanoid_with(extra: &str) -> String {
    format!(
        "<?xml version='1.0' encoding='UTF-8'?>\n<X3D version='4.0'><Scene>\n{extra}\n\
         <HAnimHumanoid DEF='h' name='h' version='2.0'>\n\
         <HAnimJoint DEF='h_humanoid_root' name='humanoid_root' containerField='skeleton'/>\n\
         <HAnimJoint USE='h_humanoid_root' containerField='joints'/>\n\
         </HAnimHumanoid>\n</Scene></X3D>\n"
    )
}

/// `hanim-viewer check --no-gpu FILE` with extra environment, failing the test if it runs past 60 s (a
/// FIFO that blocked the reader would hang it).
fn check(file: &Path, env: &[(&str, &str)]) -> (i32, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_hanim-viewer"));
    command.args(["check", "--no-gpu"]).arg(file).envs(env.iter().copied());
    let output = run_with_deadline(&mut command, Duration::from_secs(60));
    let text = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    assert!(!text.contains(SECRET), "a message echoes a referenced file:\n{text}");
    (output.status.code().unwrap_or(-1), text)
}

fn run_with_deadline(command: &mut Command, limit: Duration) -> Output {
    let child = command.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().unwrap();
    let id = child.id();
    let start = Instant::now();
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || sender.send(child.wait_with_output()));
    loop {
        if let Ok(output) = receiver.try_recv() {
            return output.unwrap();
        }
        if start.elapsed() > limit {
            let _ = Command::new("kill").arg(id.to_string()).status();
            panic!("the command ran past {limit:?} (blocked on a reference?)");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn write(path: &Path, text: impl AsRef<[u8]>) -> PathBuf {
    std::fs::write(path, text).unwrap();
    path.to_path_buf()
}

/// The Inline of the main file and its children (the nodes its url brought in).
fn inline_children(doc: &hanim::Document) -> usize {
    let inline = doc.scene.nodes.iter().find(|n| n.type_name == "Inline").expect("an Inline");
    inline.children.len()
}

const GOOD_INLINE: &str = "<?xml version='1.0'?>\n<X3D version='4.0'><Scene><Transform DEF='prop'/></Scene></X3D>\n";

#[test]
fn an_inline_url_list_is_tried_in_order_and_each_failure_is_a_warning_without_content() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("secret.txt"), format!("{SECRET}\nroot:x:0:0:root:/root:/bin/bash\n"));
    write(&d.join("secret.x3d"), format!("{SECRET} <X3D> not really"));
    write(&d.join("page.xml"), format!("<?xml version='1.0'?><html>{SECRET}</html>"));
    write(&d.join("broken.x3d"), format!("<X3D version='4.0'><Scene>\n<Transform DEF='{SECRET}'>\n<{SECRET}"));
    std::fs::create_dir(d.join("folder")).unwrap();
    write(&d.join("big.x3d"), GOOD_INLINE.to_string() + &" ".repeat(2 << 20));
    write(&d.join("good.x3d"), GOOD_INLINE);
    let urls = r#""missing.x3d" "secret.txt" "secret.x3d" "page.xml" "broken.x3d" "folder" "/dev/zero" "big.x3d"
                "https://example.com/remote.x3d" "good.x3d" "never-tried.x3d""#;
    let main = write(&d.join("main.x3d"), humanoid_with(&format!("<Inline url='{urls}'/>")));

    let (code, text) = check(&main, &[("HANIM_MAX_REFERENCE_MIB", "1")]);
    assert_eq!(code, 0, "the main file loads and is clean:\n{text}");
    for expected in [
        "Inline url 'missing.x3d': not found",
        "Inline url 'secret.txt': not an X3D file",
        "Inline url 'secret.x3d': not an X3D file",
        "Inline url 'page.xml': not an X3D file",
        "Inline url 'broken.x3d': an X3D file with an error at line",
        "Inline url 'folder': not a regular file (a directory)",
        "Inline url '/dev/zero': not a regular file (a device)",
        "Inline url 'big.x3d': too large (2097",
        "limit per referenced file is 1048576 bytes",
        "Inline url 'https://example.com/remote.x3d': remote URLs are never fetched",
    ] {
        assert!(text.contains(expected), "missing '{expected}' in:\n{text}");
    }
    assert!(text.contains("main.x3d:3:"), "warnings point at the Inline: {text}");
    assert!(!text.contains("never-tried"), "the list stops at the first url that loads: {text}");

    let doc = hanim::load(&main).unwrap();
    assert_eq!(inline_children(&doc), 1, "good.x3d's Transform is the Inline's child");
    assert!(doc.scene.nodes.iter().all(|n| n.def.as_deref() != Some(SECRET)), "the broken file left no node");
    assert_eq!(doc.scene.files.len(), 2, "the main file and good.x3d only");
}

#[test]
fn an_inline_of_a_fifo_is_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.x3d");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    let main = write(&dir.path().join("main.x3d"), humanoid_with("<Inline url='\"pipe.x3d\"'/>"));
    let (code, text) = check(&main, &[]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("Inline url 'pipe.x3d': not a regular file (a FIFO)"), "{text}");
    assert!(text.contains("none of its 1 url(s) could be read"), "{text}");
}

#[test]
fn an_inline_cycle_is_a_warning_and_both_files_load_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("a.x3d"), "<X3D version='4.0'><Scene><Transform DEF='in_a'/><Inline url='\"b.x3d\"'/></Scene></X3D>");
    write(&d.join("b.x3d"), "<X3D version='4.0'><Scene><Transform DEF='in_b'/><Inline url='\"a.x3d\"'/></Scene></X3D>");
    let main = write(&d.join("main.x3d"), humanoid_with("<Inline url='\"a.x3d\"'/>"));
    let (code, text) = check(&main, &[]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("Inline url 'a.x3d': a cycle: the file is already being read"), "{text}");
    let doc = hanim::load(&main).unwrap();
    assert_eq!(doc.scene.files.len(), 3, "main, a and b, each once");

    // A file that Inlines itself through a `..` path is the same cycle.
    std::fs::create_dir(d.join("sub")).unwrap();
    write(&d.join("sub/self.x3d"), "<X3D><Scene><Inline url='\"../sub/self.x3d\"'/></Scene></X3D>");
    let main = write(&d.join("main2.x3d"), humanoid_with("<Inline url='\"sub/self.x3d\"'/>"));
    let (code, text) = check(&main, &[]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("Inline url '../sub/self.x3d': a cycle"), "{text}");
}

#[test]
fn inlines_nested_too_deeply_or_too_often_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A chain of 12 files: the depth limit (8) stops it with a warning.
    for i in 0..12 {
        write(&d.join(format!("n{i}.x3d")), format!("<X3D><Scene><Inline url='\"n{}.x3d\"'/></Scene></X3D>", i + 1));
    }
    write(&d.join("n12.x3d"), "<X3D><Scene/></X3D>");
    let main = write(&d.join("main.x3d"), humanoid_with("<Inline url='\"n0.x3d\"'/>"));
    let (code, text) = check(&main, &[]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("nested more than 8 references deep"), "{text}");

    // Ten Inlines of the next file at each of 8 levels would read 10^8 files: the total is bounded.
    for level in 0..8 {
        let inlines = format!("<Inline url='\"w{}.x3d\"'/>", level + 1).repeat(10);
        write(&d.join(format!("w{level}.x3d")), format!("<X3D><Scene>{inlines}</Scene></X3D>"));
    }
    write(&d.join("w8.x3d"), "<X3D><Scene/></X3D>");
    let main = write(&d.join("wide.x3d"), humanoid_with("<Inline url='\"w0.x3d\"'/>"));
    let start = Instant::now();
    let (code, text) = check(&main, &[]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("more than 1000 referenced files in one load"), "{text}");
    assert!(start.elapsed() < Duration::from_secs(30), "bounded work: {:?}", start.elapsed());
}

#[test]
fn an_externproto_url_list_is_tried_in_order_without_echoing_content() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("secret.txt"), SECRET);
    write(
        &d.join("lib.x3d"),
        "<X3D version='4.0'><Scene><ProtoDeclare name='Marker'><ProtoBody><Transform/></ProtoBody>\
         </ProtoDeclare></Scene></X3D>",
    );
    let main = write(
        &d.join("main.x3d"),
        humanoid_with(
            "<ExternProtoDeclare name='Marker' url='\"secret.txt#Marker\" \"/dev/zero\" \"lib.x3d#Marker\"'/>\
             <ProtoInstance name='Marker' DEF='m'/>",
        ),
    );
    let (code, text) = check(&main, &[]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("EXTERNPROTO 'Marker' url 'secret.txt#Marker': not an X3D file"), "{text}");
    assert!(text.contains("EXTERNPROTO 'Marker' url '/dev/zero': not a regular file (a device)"), "{text}");
    let doc = hanim::load(&main).unwrap();
    let m = doc.scene.nodes.iter().find(|n| n.def.as_deref() == Some("m")).expect("the instance");
    assert_eq!(m.type_name, "Transform", "expanded from lib.x3d");
}

// ------------------------------------------------------------------------------------------ encodings

fn utf16(text: &str, little_endian: bool) -> Vec<u8> {
    let bom: [u8; 2] = if little_endian { [0xFF, 0xFE] } else { [0xFE, 0xFF] };
    let units = text.encode_utf16().flat_map(|u| if little_endian { u.to_le_bytes() } else { u.to_be_bytes() });
    bom.into_iter().chain(units).collect()
}

#[test]
fn utf16_files_with_a_byte_order_mark_load() {
    let dir = tempfile::tempdir().unwrap();
    for (name, little_endian) in [("le.x3d", true), ("be.x3d", false)] {
        let text = humanoid_with("").replace("encoding='UTF-8'", "encoding='UTF-16'").replace("name='h'", "name='Zoë'");
        let path = write(&dir.path().join(name), utf16(&text, little_endian));
        let (code, output) = check(&path, &[]);
        assert_eq!(code, 0, "{name}: {output}");
        let doc = hanim::load(&path).unwrap();
        assert_eq!(doc.humanoids[0].name, "Zoë", "{name}");
        // Positions count characters of the decoded text.
        let joint = doc.humanoids[0].joints[0].node;
        assert_eq!(doc.scene.pos(doc.scene.node(joint).loc).at.map(|a| a.line), Some(5), "{name}");
    }
    // UTF-16 without a byte-order mark is refused with a message that says so.
    let path = write(&dir.path().join("nobom.x3d"), &utf16(&humanoid_with(""), true)[2..]);
    let (code, output) = check(&path, &[]);
    assert_eq!(code, 1, "{output}");
    assert!(output.contains("nobom.x3d: the file looks like UTF-16 without a byte-order mark"), "{output}");
}

#[test]
fn eight_bit_encodings_named_in_the_declaration_are_read_and_others_are_named() {
    let dir = tempfile::tempdir().unwrap();
    for label in ["ISO-8859-1", "windows-1252", "latin1"] {
        let text = humanoid_with("").replace("encoding='UTF-8'", &format!("encoding='{label}'"));
        // "Zoë €" in the 8-bit encoding: ë = 0xEB, € = 0x80 (windows-1252).
        let bytes = text.replace("name='h'", "name='Zo\u{1}'").into_bytes();
        let at = bytes.iter().position(|&b| b == 1).unwrap();
        let mut bytes = bytes;
        bytes.splice(at..at + 1, [0xEB, b' ', 0x80]);
        let path = write(&dir.path().join(format!("{label}.x3d")), &bytes);
        let (code, output) = check(&path, &[]);
        assert_eq!(code, 0, "{label}: {output}");
        assert_eq!(hanim::load(&path).unwrap().humanoids[0].name, "Zoë €", "{label}");
    }
    for label in ["Shift_JIS", "EBCDIC-nonsense"] {
        let text = humanoid_with("").replace("encoding='UTF-8'", &format!("encoding='{label}'"));
        let path = write(&dir.path().join("other.x3d"), text);
        let (code, output) = check(&path, &[]);
        assert_eq!(code, 1, "{output}");
        assert!(output.contains(&format!("names the encoding '{label}'")), "{output}");
    }
}

// --------------------------------------------------------------------------------------------- gzip

/// gzip members of `member_bytes` spaces, repeated: a small file that expands to `members ×
/// member_bytes` (a multi-member stream is valid gzip, read whole by `MultiGzDecoder`).
fn gzip_bomb(path: &Path, member_bytes: usize, members: usize) {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let chunk = vec![b' '; 1 << 20];
    for _ in 0..member_bytes / chunk.len() {
        encoder.write_all(&chunk).unwrap();
    }
    let member = encoder.finish().unwrap();
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut header = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    header.write_all(b"<?xml version='1.0'?>\n<X3D version='4.0'><Scene>").unwrap();
    file.write_all(&header.finish().unwrap()).unwrap();
    for _ in 0..members {
        file.write_all(&member).unwrap();
    }
    file.flush().unwrap();
}

/// A 8 MB file that expands to 8 GiB: refused with a clear error, at a peak far below the 300 MiB target.
#[test]
fn a_gzip_bomb_is_refused_within_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let bomb = dir.path().join("bomb.x3d.gz");
    gzip_bomb(&bomb, 64 << 20, 128);
    let size = std::fs::metadata(&bomb).unwrap().len();
    let start = Instant::now();
    let (status, peak, output) =
        common::peak::run_and_measure_peak(Command::new(env!("CARGO_BIN_EXE_hanim-viewer")).arg("info").arg(&bomb));
    let elapsed = start.elapsed();
    eprintln!("gzip bomb: {size} bytes expanding to 8 GiB: refused in {elapsed:?}, peak {} MiB", peak >> 20);
    assert_eq!(status.code(), Some(1), "{output}");
    assert!(
        output.contains("bomb.x3d.gz: gzip data decompresses to more than 256 MiB (the limit; HANIM_MAX_DECOMPRESSED_MIB raises it); refused"),
        "{output}"
    );
    assert!(peak <= 300 << 20, "peak resident memory {} MiB is above 300 MiB", peak >> 20);

    // Referenced, the same data is a warning and the main file loads.
    let main = write(&dir.path().join("main.x3d"), humanoid_with("<Inline url='\"bomb.x3d.gz\" \"missing.x3d\"'/>"));
    let (code, text) = check(&main, &[("HANIM_MAX_REFERENCE_MIB", "16"), ("HANIM_MAX_DECOMPRESSED_MIB", "64")]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("Inline url 'bomb.x3d.gz': too large (its gzip data expands beyond 64 MiB)"), "{text}");
    assert!(text.contains("Inline url 'missing.x3d': not found"), "{text}");
}

/// gzip within the limit loads, and the limit can be lowered (or raised) without a rebuild.
#[test]
fn gzip_within_the_limit_loads_and_the_limit_is_overridable() {
    let dir = tempfile::tempdir().unwrap();
    let text = humanoid_with("") + &" ".repeat(3 << 20);
    let path = dir.path().join("h.x3d.gz");
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(text.as_bytes()).unwrap();
    std::fs::write(&path, encoder.finish().unwrap()).unwrap();
    let (code, output) = check(&path, &[]);
    assert_eq!(code, 0, "{output}");
    let (code, output) = check(&path, &[("HANIM_MAX_DECOMPRESSED_MIB", "2")]);
    assert_eq!(code, 1, "{output}");
    assert!(output.contains("decompresses to more than 2 MiB"), "{output}");
}
