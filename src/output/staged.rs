//! A folder of outputs written whole or not at all (`catalog`, `catalog merge`): everything goes into a
//! hidden staging folder beside the destination, and only a complete run moves it into place. A run that
//! fails, or is interrupted before it finishes, leaves the destination as it was; a failed run also
//! removes its staging folder.
//!
//! A destination that does not exist yet is the staging folder renamed (one step). One that exists (a
//! re-run, or a merge into one of its shards) receives the staged files one rename each, so every file in
//! it is always whole and files the run did not write stay.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::{OutputError, io};

static STAGING_COUNTER: AtomicU64 = AtomicU64::new(0);

/// A staging folder for `destination`; dropped without [`StagedFolder::commit`], it is removed.
#[derive(Debug)]
pub struct StagedFolder {
    staging: PathBuf,
    destination: PathBuf,
    committed: bool,
}

impl StagedFolder {
    /// Creates the staging folder beside `destination` (in the same folder, so that renames stay on one
    /// file system).
    pub fn new(destination: &Path) -> Result<Self, OutputError> {
        // `out/.` or `..` have no name of their own: the folder they name has.
        let named = if destination.file_name().is_none() {
            std::fs::canonicalize(destination).map_err(io("resolving", destination.display()))?
        } else {
            destination.to_path_buf()
        };
        let name = named.file_name().ok_or_else(|| OutputError::NotAFilePath(destination.to_path_buf()))?;
        let parent = match named.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if named.exists() && !named.is_dir() {
            return Err(OutputError::Io {
                action: "writing into",
                path: destination.display().to_string(),
                source: std::io::Error::other("it exists and is not a folder"),
            });
        }
        std::fs::create_dir_all(&parent).map_err(io("creating", parent.display()))?;
        let staging = parent.join(format!(
            ".{}.{}-{}.staging",
            name.to_string_lossy(),
            std::process::id(),
            STAGING_COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir(&staging).map_err(io("creating", staging.display()))?;
        Ok(Self { staging, destination: named, committed: false })
    }

    /// Where the outputs are written until the commit.
    pub fn path(&self) -> &Path {
        &self.staging
    }

    /// Moves the staged outputs into the destination.
    pub fn commit(mut self) -> Result<(), OutputError> {
        if !self.destination.exists() {
            std::fs::rename(&self.staging, &self.destination)
                .map_err(io("renaming", format!("{} to {}", self.staging.display(), self.destination.display())))?;
            self.committed = true;
            return Ok(());
        }
        move_files(&self.staging, &self.destination)?;
        self.committed = true;
        std::fs::remove_dir_all(&self.staging).map_err(io("removing", self.staging.display()))?;
        Ok(())
    }
}

impl Drop for StagedFolder {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_dir_all(&self.staging);
        }
    }
}

/// Renames every file under `from` to the same place under `to`, creating folders as needed.
fn move_files(from: &Path, to: &Path) -> Result<(), OutputError> {
    let mut stack = vec![PathBuf::new()];
    while let Some(relative) = stack.pop() {
        let dir = from.join(&relative);
        for entry in std::fs::read_dir(&dir).map_err(io("reading", dir.display()))? {
            let entry = entry.map_err(io("reading", dir.display()))?;
            let inner = relative.join(entry.file_name());
            let kind = entry.file_type().map_err(io("reading", entry.path().display()))?;
            if kind.is_dir() {
                let target = to.join(&inner);
                std::fs::create_dir_all(&target).map_err(io("creating", target.display()))?;
                stack.push(inner);
            } else {
                let target = to.join(&inner);
                std::fs::rename(entry.path(), &target)
                    .map_err(io("renaming", format!("{} to {}", entry.path().display(), target.display())))?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut out: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        out.sort();
        out
    }

    #[test]
    fn a_new_destination_appears_only_when_committed() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let staged = StagedFolder::new(&out).unwrap();
        std::fs::create_dir(staged.path().join("images")).unwrap();
        std::fs::write(staged.path().join("images/a.png"), b"a").unwrap();
        assert!(!out.exists());
        staged.commit().unwrap();
        assert_eq!(std::fs::read(out.join("images/a.png")).unwrap(), b"a");
        assert_eq!(names(dir.path()), ["out"], "no staging folder is left");
    }

    #[test]
    fn an_existing_destination_keeps_its_other_files_and_a_dropped_stage_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        std::fs::create_dir_all(out.join("images")).unwrap();
        std::fs::write(out.join("images/old.png"), b"old").unwrap();
        std::fs::write(out.join("index.html"), b"old page").unwrap();
        let staged = StagedFolder::new(&out).unwrap();
        std::fs::create_dir(staged.path().join("images")).unwrap();
        std::fs::write(staged.path().join("images/new.png"), b"new").unwrap();
        std::fs::write(staged.path().join("index.html"), b"new page").unwrap();
        staged.commit().unwrap();
        assert_eq!(names(&out.join("images")), ["new.png", "old.png"]);
        assert_eq!(std::fs::read(out.join("index.html")).unwrap(), b"new page");

        let failed = StagedFolder::new(&out).unwrap();
        std::fs::write(failed.path().join("index.html"), b"half").unwrap();
        drop(failed);
        assert_eq!(std::fs::read(out.join("index.html")).unwrap(), b"new page");
        assert_eq!(names(dir.path()), ["out"]);
    }

    #[test]
    fn a_file_in_the_way_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("taken");
        std::fs::write(&file, b"x").unwrap();
        assert!(StagedFolder::new(&file).is_err());
        assert_eq!(names(dir.path()), ["taken"]);
    }
}
