//! Finding the files a catalogue covers: folders searched recursively for every encoding the loader
//! reads, each file once, in a stable order, with an identifier for its output names.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::Failure;
use crate::input::walk::{reason_of, walk_folder};
use crate::input::{describe_file_type, io_failure};

/// File extensions searched for in folders (lower case, without the dot): every encoding the loader
/// reads (XML, ClassicVRML, VRML97, X3D JSON and their gzip forms). A `.json` file found in a folder is
/// taken only when it is X3D JSON (`is_x3d_unless_json`): pose files and catalogues are `.json` too.
pub const INPUT_EXTENSIONS: &[&str] = crate::x3d::SUPPORTED_EXTENSIONS;

/// One input file found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputFile {
    pub path: PathBuf,
    /// Identifier for output names: the path relative to the folder it was found in (the file name
    /// for a file given directly), without extension, made safe for file names.
    pub id: String,
}

fn has_extension(path: &Path, extensions: &[&str]) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| extensions.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// False for a `.json` file whose content does not start like X3D JSON (`{` then `"X3D"`); true for
/// any other file. Only the first KiB is read, through the door (regular files only).
fn is_x3d_unless_json(path: &Path) -> bool {
    if !has_extension(path, &["json"]) {
        return true;
    }
    crate::input::read_head(path, 1024).is_ok_and(|head| crate::x3d::starts_like_x3d_json(&head))
}

/// Characters safe in a file name on every platform; others become `_`, folders `__`.
pub(super) fn slug(relative: &Path) -> String {
    let mut parts = Vec::new();
    for component in relative.with_extension("").components() {
        let text = component.as_os_str().to_string_lossy();
        parts.push(
            text.chars()
                .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_') { c } else { '_' })
                .collect::<String>(),
        );
    }
    let joined = parts.join("__");
    if joined.is_empty() { "input".to_string() } else { joined }
}

/// The input files, in a stable order (each folder's files sorted by path), each once; a path that
/// does not exist, and what a folder's search passed over (FIFOs, devices and sockets named like inputs,
/// link loops; see [`walk_folder`]), are failures, not errors. Failures are numbered first on the page
/// ([`Failure::order`]), the files after them.
pub fn find_inputs(inputs: &[PathBuf]) -> (Vec<InputFile>, Vec<Failure>) {
    find_files(inputs, INPUT_EXTENSIONS)
}

/// As [`find_inputs`], for files with any of `extensions` (lower case, without the dot).
pub fn find_files(inputs: &[PathBuf], extensions: &[&str]) -> (Vec<InputFile>, Vec<Failure>) {
    let mut files = Vec::new();
    let mut failures = Vec::new();
    let mut seen = HashSet::new();
    let mut ids = HashSet::new();
    let mut add = |path: PathBuf, relative: &Path, files: &mut Vec<InputFile>| {
        let key = path.canonicalize().unwrap_or_else(|_| path.clone());
        if !seen.insert(key) {
            return;
        }
        let base = slug(relative);
        let mut id = base.clone();
        let mut n = 2;
        while !ids.insert(id.clone()) {
            id = format!("{base}-{n}");
            n += 1;
        }
        files.push(InputFile { path, id });
    };
    let fail = |failures: &mut Vec<Failure>, file: &Path, error: String| {
        failures.push(Failure {
            order: super::entry_order(failures.len(), 0),
            file: file.display().to_string(),
            error,
        });
    };
    for input in inputs {
        // Through links: a link to a folder is searched, a link to a file is that file.
        match std::fs::metadata(input) {
            Ok(metadata) if metadata.is_dir() => {
                let walk = walk_folder(input, &|p: &Path| has_extension(p, extensions));
                for skipped in &walk.skipped {
                    fail(&mut failures, &skipped.path, skipped.reason.clone());
                }
                for path in walk.files.into_iter().filter(|p| is_x3d_unless_json(p)) {
                    let relative = path.strip_prefix(input).map(Path::to_path_buf).unwrap_or_else(|_| path.clone());
                    add(path, &relative, &mut files);
                }
            }
            Ok(metadata) if metadata.is_file() => {
                let name = input.file_name().map(PathBuf::from).unwrap_or_else(|| input.clone());
                add(input.clone(), &name, &mut files);
            }
            // A FIFO, device or socket named on the command line is never opened.
            Ok(metadata) => fail(
                &mut failures,
                input,
                format!("is {}, not a regular file; not opened", describe_file_type(&metadata.file_type())),
            ),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                fail(&mut failures, input, "no such file or folder".to_string())
            }
            Err(e) => fail(&mut failures, input, reason_of(&io_failure(e))),
        }
    }
    (files, failures)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_safe_and_keep_folders_apart() {
        assert_eq!(slug(Path::new("JoeKick.x3d")), "JoeKick");
        assert_eq!(slug(Path::new("a b/c&d.x3d")), "a_b__c_d");
        assert_eq!(slug(Path::new("")), "input");
    }

    #[test]
    fn inputs_are_found_recursively_once_each_in_a_stable_order() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("sub/deeper")).unwrap();
        for name in [
            "b.x3d",
            "a.X3D",
            "sub/deeper/c.x3d",
            "sub/notes.txt",
            "sub/b.x3d",
            "sub/d.wrl",
            "sub/e.x3dv",
            "sub/f.wrz",
            "sub/g.x3dz",
            "sub/h.wrl.gz",
            "sub/i.x3dj",
        ] {
            std::fs::write(root.join(name), "").unwrap();
        }
        // `.json` files are X3D JSON, or pose files and catalogues, which are not inputs.
        std::fs::write(root.join("sub/j.json"), "\u{feff}{\n  \"X3D\": {}}").unwrap();
        std::fs::write(root.join("sub/pose.json"), "{\"format\": \"hanim-pose\"}").unwrap();
        std::fs::write(root.join("catalog.json"), "{\"entries\": []}").unwrap();
        let (files, failures) = find_inputs(&[root.to_path_buf(), root.join("b.x3d"), root.join("missing.x3d")]);
        let ids: Vec<&str> = files.iter().map(|f| f.id.as_str()).collect();
        // Every encoding the loader reads is found; `h.wrl.gz` keeps its inner extension in its id.
        assert_eq!(
            ids,
            [
                "a",
                "b",
                "sub__b",
                "sub__d",
                "sub__deeper__c",
                "sub__e",
                "sub__f",
                "sub__g",
                "sub__h.wrl",
                "sub__i",
                "sub__j"
            ]
        );
        assert_eq!(failures.len(), 1);
        assert!(failures[0].file.ends_with("missing.x3d"), "{failures:?}");
    }
}
