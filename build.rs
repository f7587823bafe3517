//! Records the git commit being built as `HANIM_GIT_COMMIT` (`git rev-parse --short HEAD`), or `unknown`
//! when there is no git or no repository (a source tarball, a crate from a registry). The build re-runs
//! when HEAD moves: HEAD itself, the branch it points to and packed-refs are watched, and the checkout's
//! `.git/HEAD` even when git did not answer.

use std::path::PathBuf;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!text.is_empty()).then_some(text)
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let commit = git(&["rev-parse", "--short", "HEAD"]);
    // Watched whether or not git answered this time: a git call that fails once (a lock held by another
    // git process, git missing from PATH for a moment) must not leave `unknown` in the build until a
    // clean one. `.git` is a folder in a checkout and a file in a worktree.
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for fixed in [".git/HEAD", ".git/packed-refs", ".git"] {
        let path = root.join(fixed);
        if path.is_file() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    if commit.is_some() {
        // `--git-path` resolves worktrees and the common folder (refs live there).
        let mut watched = vec!["HEAD".to_string(), "packed-refs".to_string()];
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
            watched.push(branch);
        }
        for name in watched {
            if let Some(path) = git(&["rev-parse", "--git-path", &name]) {
                let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path);
                if path.exists() {
                    println!("cargo:rerun-if-changed={}", path.display());
                }
            }
        }
    }
    println!("cargo:rustc-env=HANIM_GIT_COMMIT={}", commit.as_deref().unwrap_or("unknown"));
}
