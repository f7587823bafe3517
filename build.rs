//! Records the git commit being built as `HANIM_GIT_COMMIT` (`git rev-parse --short HEAD`), or `unknown`
//! when the source is not a git checkout (a source tarball, a crate from a registry).
//!
//! The files that say which commit HEAD is are found and watched without asking git: the checkout's git
//! folder (`.git`, or the folder a worktree's `.git` file names), its `HEAD`, the branch `HEAD` points
//! to and `packed-refs` in the common folder. So the build re-runs whenever HEAD moves, even after a git
//! call that failed (git missing from PATH for a moment, a lock held by another git process): a failed
//! call never leaves `unknown` in the build until a clean one. When git does not answer, the commit is
//! read from those same files.

use std::path::{Path, PathBuf};
use std::process::Command;

fn git(root: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).current_dir(root).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!text.is_empty()).then_some(text)
}

/// The git folder of the checkout at `root`: `.git` itself, or the folder named by a worktree's (or a
/// submodule's) `.git` file (`gitdir: PATH`, relative to `root` or absolute).
fn git_dir(root: &Path) -> Option<PathBuf> {
    let dot_git = root.join(".git");
    if dot_git.is_dir() {
        return Some(dot_git);
    }
    let text = std::fs::read_to_string(&dot_git).ok()?;
    let target = text.strip_prefix("gitdir:")?.trim();
    Some(root.join(target))
}

/// The folder holding refs and `packed-refs`: the one a worktree's `commondir` file names, else the git
/// folder itself.
fn common_dir(git_dir: &Path) -> PathBuf {
    match std::fs::read_to_string(git_dir.join("commondir")) {
        Ok(text) => git_dir.join(text.trim()),
        Err(_) => git_dir.to_path_buf(),
    }
}

/// The files to watch, and the commit read from them (the short form git prints by default).
fn head_files(root: &Path) -> (Vec<PathBuf>, Option<String>) {
    let Some(git_dir) = git_dir(root) else {
        return (Vec::new(), None);
    };
    let common = common_dir(&git_dir);
    let head = git_dir.join("HEAD");
    let packed = common.join("packed-refs");
    let mut watched = vec![head.clone(), packed.clone()];
    let head_text = std::fs::read_to_string(&head).unwrap_or_default();
    let full = match head_text.trim().strip_prefix("ref:") {
        Some(reference) => {
            let reference = reference.trim();
            let loose = common.join(reference);
            // A packed branch has no file of its own until its next commit writes one: its folder is
            // watched then, so that the new file is seen.
            watched.push(if loose.exists() { loose.clone() } else { loose.parent().unwrap_or(&common).to_path_buf() });
            std::fs::read_to_string(&loose).ok().map(|t| t.trim().to_string()).or_else(|| {
                let packed_text = std::fs::read_to_string(&packed).ok()?;
                packed_text
                    .lines()
                    .filter_map(|line| line.split_once(' '))
                    .find(|(_, name)| *name == reference)
                    .map(|(hash, _)| hash.to_string())
            })
        }
        None => Some(head_text.trim().to_string()),
    };
    let short = full.filter(|h| h.len() >= 7 && h.chars().all(|c| c.is_ascii_hexdigit())).map(|h| h[..7].to_string());
    (watched, short)
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let (watched, from_files) = head_files(&root);
    // Only paths that exist: cargo re-runs a build script on every build while a watched path is missing.
    for path in watched.into_iter().filter(|p| p.exists()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    let commit = git(&root, &["rev-parse", "--short", "HEAD"]).or(from_files);
    println!("cargo:rustc-env=HANIM_GIT_COMMIT={}", commit.as_deref().unwrap_or("unknown"));
}
