//! Searching folders for input files (`catalog DIR`, `catalog --motions DIR`) and listing one folder (a
//! capture's partner file, the pose library), by the door's rules.
//!
//! A search follows links to folders, but enters each real folder once (folders are known by device and
//! inode, so two links to one folder, or a link back up the tree, cost nothing more); a link that leads
//! back to a folder above it is a loop and is reported. Devices, FIFOs and sockets whose names look like
//! inputs are reported and never opened. The search goes at most [`MAX_DEPTH`] folders deep and looks at
//! most [`max_entries`] entries, and what it finds comes back in a sorted order, so two runs over the same
//! tree agree.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::{ReadFailure, describe_file_type, io_failure};

/// How many folders deep a search goes below the folder it starts from.
pub const MAX_DEPTH: usize = 64;
/// Default of [`max_entries`].
pub const DEFAULT_MAX_ENTRIES: u64 = 1_000_000;
/// The environment variable that sets [`max_entries`].
pub const MAX_ENTRIES_VARIABLE: &str = "HANIM_MAX_FOLDER_ENTRIES";

/// The most folder entries one search (or one listing) looks at: `HANIM_MAX_FOLDER_ENTRIES`, else a million.
pub fn max_entries() -> u64 {
    std::env::var(MAX_ENTRIES_VARIABLE).ok().and_then(|v| v.trim().parse().ok()).unwrap_or(DEFAULT_MAX_ENTRIES)
}

/// What a search found: the files wanted, sorted by path, and what it passed over with the reason.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct FolderWalk {
    pub files: Vec<PathBuf>,
    pub skipped: Vec<Skipped>,
}

/// Something a search did not take: a special file named like an input, a loop, a folder too deep or
/// unreadable, or the rest of a tree beyond the entry limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub path: PathBuf,
    pub reason: String,
}

/// A folder's identity on its file system, so that a folder reached twice is entered once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct FolderId(u64, u64);

#[cfg(unix)]
fn folder_id(metadata: &std::fs::Metadata) -> Option<FolderId> {
    use std::os::unix::fs::MetadataExt;
    Some(FolderId(metadata.dev(), metadata.ino()))
}

#[cfg(not(unix))]
fn folder_id(_: &std::fs::Metadata) -> Option<FolderId> {
    None
}

/// A folder waiting to be searched, with the folders above it (to tell a loop from a second way in).
struct Pending {
    path: PathBuf,
    id: Option<FolderId>,
    depth: usize,
    /// The folders above it and itself.
    above: Vec<FolderId>,
}

/// Every file under `root` (a folder; links followed) whose path `wanted` accepts, sorted by path, and
/// what was skipped. Files `wanted` refuses are passed over silently, whatever they are.
pub fn walk_folder(root: &Path, wanted: &dyn Fn(&Path) -> bool) -> FolderWalk {
    let mut walk = FolderWalk::default();
    let limit = max_entries();
    let mut looked_at = 0u64;
    // Folders are marked when entered, not when found, so that the first way in by name order wins.
    let mut entered: HashSet<FolderId> = HashSet::new();
    let root_id = std::fs::metadata(root).ok().and_then(|m| folder_id(&m));
    let mut stack =
        vec![Pending { path: root.to_path_buf(), id: root_id, depth: 0, above: root_id.into_iter().collect() }];
    'folders: while let Some(folder) = stack.pop() {
        // A second way into a folder already searched: its files are found once.
        if folder.id.is_some_and(|id| !entered.insert(id)) {
            continue;
        }
        let entries = match std::fs::read_dir(&folder.path) {
            Ok(entries) => entries,
            Err(e) => {
                walk.skipped.push(Skipped { path: folder.path, reason: reason_of(&io_failure(e)) });
                continue;
            }
        };
        let mut paths = Vec::new();
        for entry in entries {
            looked_at += 1;
            if looked_at > limit {
                walk.skipped.push(Skipped {
                    path: folder.path.clone(),
                    reason: format!(
                        "the search stopped after {limit} entries (set {MAX_ENTRIES_VARIABLE} to look at more)"
                    ),
                });
                break 'folders;
            }
            match entry {
                Ok(entry) => paths.push(entry.path()),
                Err(e) => walk.skipped.push(Skipped { path: folder.path.clone(), reason: reason_of(&io_failure(e)) }),
            }
        }
        // Sorted, and pushed in reverse so that folders are searched in name order.
        paths.sort();
        for path in paths.into_iter().rev() {
            // Through links: a link is what it leads to.
            let metadata = match std::fs::metadata(&path) {
                Ok(m) => m,
                Err(e) => {
                    // A dangling link or a link loop: worth a word only when it is named like an input.
                    if wanted(&path) {
                        walk.skipped.push(Skipped { path, reason: reason_of(&io_failure(e)) });
                    }
                    continue;
                }
            };
            if metadata.is_dir() {
                let id = folder_id(&metadata);
                if id.is_some_and(|id| folder.above.contains(&id)) {
                    walk.skipped.push(Skipped {
                        path,
                        reason: "is a link loop: it leads back to a folder above it, already being searched"
                            .to_string(),
                    });
                    continue;
                }
                if folder.depth + 1 > MAX_DEPTH {
                    walk.skipped
                        .push(Skipped { path, reason: format!("is more than {MAX_DEPTH} folders deep; not searched") });
                    continue;
                }
                let mut above = folder.above.clone();
                above.extend(id);
                stack.push(Pending { path, id, depth: folder.depth + 1, above });
            } else if wanted(&path) {
                if metadata.is_file() {
                    walk.files.push(path);
                } else {
                    let reason =
                        format!("is {}, not a regular file; not opened", describe_file_type(&metadata.file_type()));
                    walk.skipped.push(Skipped { path, reason });
                }
            }
        }
    }
    walk.files.sort();
    walk.skipped.sort_by(|a, b| a.path.cmp(&b.path));
    walk
}

/// The paths in the folder `dir`, sorted (what they are is not looked at); at most [`max_entries`].
pub fn list_folder(dir: &Path) -> Result<Vec<PathBuf>, ReadFailure> {
    let limit = max_entries();
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io_failure)? {
        if paths.len() as u64 >= limit {
            return Err(ReadFailure::Unreadable(format!(
                "more than {limit} entries; set {MAX_ENTRIES_VARIABLE} to look at more"
            )));
        }
        paths.push(entry.map_err(io_failure)?.path());
    }
    paths.sort();
    Ok(paths)
}

/// A failure in words, without a path ("is a FIFO, not a regular file").
pub fn reason_of(failure: &ReadFailure) -> String {
    match failure {
        ReadFailure::NotFound => "no such file (a link to nothing?)".to_string(),
        ReadFailure::NotRegularFile(kind) => format!("is {kind}, not a regular file"),
        ReadFailure::TooLarge { size, limit } => format!("is too large ({size} bytes; the limit is {limit})"),
        ReadFailure::Unreadable(kind) => format!("cannot be read ({kind})"),
        ReadFailure::NotUtf8 { line, column } => format!("is not UTF-8 text (line {line}, column {column})"),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn x3d(path: &Path) -> bool {
        path.extension().is_some_and(|e| e == "x3d")
    }

    #[test]
    fn links_are_followed_once_per_folder_and_loops_are_reported() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        std::fs::write(root.join("a/b/deep.x3d"), "").unwrap();
        std::fs::write(root.join("top.x3d"), "").unwrap();
        std::fs::write(root.join("notes.txt"), "").unwrap();
        // A loop back to the root, a second way into a/b, a link to a file, a link to nothing.
        symlink(root, root.join("a/b/up")).unwrap();
        symlink(root.join("a/b"), root.join("again")).unwrap();
        symlink(root.join("top.x3d"), root.join("alias.x3d")).unwrap();
        symlink(root.join("nothing.x3d"), root.join("dangling.x3d")).unwrap();
        let walk = walk_folder(root, &x3d);
        // "a" sorts before "again": a/b is entered through `a`, and `again` adds nothing.
        assert_eq!(walk.files, [root.join("a/b/deep.x3d"), root.join("alias.x3d"), root.join("top.x3d")]);
        let skipped: Vec<(&Path, &str)> = walk.skipped.iter().map(|s| (s.path.as_path(), s.reason.as_str())).collect();
        assert_eq!(skipped.len(), 2, "{skipped:?}");
        assert_eq!(skipped[0].0, root.join("a/b/up"));
        assert!(skipped[0].1.starts_with("is a link loop"), "{skipped:?}");
        assert_eq!(skipped[1].0, root.join("dangling.x3d"));
    }

    #[test]
    fn special_files_named_like_inputs_are_reported_and_others_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        assert!(std::process::Command::new("mkfifo").arg(root.join("pipe.x3d")).status().unwrap().success());
        assert!(std::process::Command::new("mkfifo").arg(root.join("pipe.txt")).status().unwrap().success());
        symlink("/dev/zero", root.join("zero.x3d")).unwrap();
        std::fs::write(root.join("good.x3d"), "").unwrap();
        let walk = walk_folder(root, &x3d);
        assert_eq!(walk.files, [root.join("good.x3d")]);
        let reasons: Vec<&str> = walk.skipped.iter().map(|s| s.reason.as_str()).collect();
        assert_eq!(
            reasons,
            ["is a FIFO, not a regular file; not opened", "is a device, not a regular file; not opened"]
        );
    }

    #[test]
    fn depth_is_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let mut deep = dir.path().to_path_buf();
        for _ in 0..=MAX_DEPTH {
            deep.push("d");
        }
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(deep.join("lost.x3d"), "").unwrap();
        let walk = walk_folder(dir.path(), &x3d);
        assert!(walk.files.is_empty());
        assert_eq!(walk.skipped.len(), 1);
        assert!(walk.skipped[0].reason.contains("folders deep"), "{:?}", walk.skipped);
    }

    #[test]
    fn a_listing_is_sorted() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["c", "a", "b"] {
            std::fs::write(dir.path().join(name), "").unwrap();
        }
        let names: Vec<PathBuf> = list_folder(dir.path()).unwrap();
        assert_eq!(names, ["a", "b", "c"].map(|n| dir.path().join(n)));
        assert_eq!(list_folder(&dir.path().join("none")), Err(ReadFailure::NotFound));
    }
}
