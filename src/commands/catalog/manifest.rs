//! `catalog.json`, what a catalogue run leaves beside its `index.html`: the page in parts (each entry's
//! section and table-of-contents line, keyed by the entry's place among all inputs) and every output
//! file it wrote. A sharded run (`--shard I/N`) writes its share; `catalog merge` puts the shares back
//! together into the page an unsharded run writes, byte for byte, since both are assembled here from the
//! same parts in the same order.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::input::InputKind;
use crate::output::{StagedFolder, write_atomically};

/// The manifest's file name in a catalogue folder.
pub const MANIFEST_NAME: &str = "catalog.json";
/// Bumped when the manifest's meaning changes; merge refuses others. Format 1 held HTML; format 2 holds
/// text only, and the page is written from it with every string escaped.
const MANIFEST_FORMAT: u32 = 2;

/// A catalogue page in parts. Every string is plain text (never HTML).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The page's title and heading.
    pub title: String,
    /// What one entry is ("humanoid", "take").
    pub noun: String,
    /// What every image was made with: views, size, pose, previews.
    pub settings: String,
    /// Input files covered (catalogued or failed).
    pub files: usize,
    pub entries: Vec<PageEntry>,
    pub failures: Vec<PageFailure>,
}

/// One entry of the page.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PageEntry {
    /// Its place among the entries of an unsharded run: the input's index in the stable input order, then
    /// the humanoid's within the file.
    pub order: usize,
    /// Its anchor and the stem of its output names: letters, digits, `.`, `_` and `-` only.
    pub id: String,
    /// Its heading and table-of-contents text.
    pub name: String,
    /// The files it comes from ("File", "Motion", "Skeleton").
    pub sources: Vec<Source>,
    /// Notes above its images.
    pub notes: Vec<String>,
    /// Its still images.
    pub images: Vec<Figure>,
    /// Its moving previews.
    pub previews: Vec<Figure>,
    /// Notes below its images (previews cut short, views missing, retargeting).
    pub later_notes: Vec<String>,
    /// Its contact sheet or filmstrip.
    pub link: Link,
    pub table: Vec<Row>,
    /// The files it wrote, relative to the output folder (every image, preview and link is one of them).
    pub outputs: Vec<String>,
}

/// A file an entry comes from.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    pub label: String,
    pub path: String,
}

/// An image on the page, linking to itself.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Figure {
    /// Relative to the output folder.
    pub src: String,
    /// Thumbnail size on the page.
    pub width: u32,
    pub height: u32,
    pub alt: String,
    pub caption: String,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Link {
    pub label: String,
    /// Relative to the output folder.
    pub href: String,
}

/// One line of an entry's table.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    pub key: String,
    pub value: String,
}

/// One failed input.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PageFailure {
    pub order: usize,
    pub file: String,
    pub error: String,
}

/// `catalog.json` as written: the format's version, then the page in parts.
#[derive(serde::Serialize, serde::Deserialize)]
struct ManifestFile {
    format: u32,
    #[serde(flatten)]
    manifest: Manifest,
}

/// Just the version, read first so that another format is named as such rather than as a shape error.
#[derive(serde::Deserialize)]
struct FormatOnly {
    format: u32,
}

/// Where an entry of input `input` (its index in the stable order of all inputs), humanoid `humanoid`
/// of its file, stands on the page. Inputs that failed before loading come first, as in a plain run.
pub fn entry_order(input: usize, humanoid: usize) -> usize {
    input * 4096 + humanoid.min(4095)
}

/// Whether `id` is what a catalogue names entries by: letters, digits, `.`, `_`, `-`.
fn is_safe_name(id: &str) -> bool {
    !id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

/// Whether `relative` is a path a catalogue writes: safe names joined by `/`, none of them `.` or `..`.
fn is_safe_output(relative: &str) -> bool {
    relative.split('/').all(|part| is_safe_name(part) && part != "." && part != "..")
}

impl Manifest {
    /// The whole page: a well-formed (XHTML-compatible) HTML document with no run-dependent text.
    pub fn html(&self) -> String {
        super::html::page(self)
    }

    /// Writes `index.html` and `catalog.json` into `dir`, each atomically.
    pub fn write(&self, dir: &Path) -> Result<()> {
        let file = ManifestFile { format: MANIFEST_FORMAT, manifest: self.clone() };
        let mut json = serde_json::to_string_pretty(&file)?;
        json.push('\n');
        write_atomically(&dir.join(MANIFEST_NAME), json.as_bytes())?;
        write_atomically(&dir.join("index.html"), self.html().as_bytes())?;
        Ok(())
    }

    /// Reads and checks `dir/catalog.json` (through the door: a regular file within the limit for
    /// manifests).
    pub fn read(dir: &Path) -> Result<Manifest> {
        let path = dir.join(MANIFEST_NAME);
        let text = crate::input::read_text(&path, InputKind::ShardManifest)
            .map_err(|e| anyhow::anyhow!("{}: not a catalogue folder ({e})", dir.display()))?;
        Self::from_json(&text, &path)
    }

    /// Parses and checks manifest text; `path` names it in messages.
    pub fn from_json(text: &str, path: &Path) -> Result<Manifest> {
        let located = |e: &serde_json::Error, what: &str| {
            anyhow::anyhow!("{}:{}:{}: not a catalogue manifest: {what}", path.display(), e.line(), e.column())
        };
        let version: FormatOnly = serde_json::from_str(text).map_err(|e| located(&e, classify(&e)))?;
        if version.format != MANIFEST_FORMAT {
            bail!(
                "{}: manifest format {} (this program reads {MANIFEST_FORMAT}; make the shards again with it)",
                path.display(),
                version.format
            );
        }
        let file: ManifestFile = serde_json::from_str(text).map_err(|e| located(&e, classify(&e)))?;
        file.manifest.check().map_err(|why| anyhow::anyhow!("{}: {why}", path.display()))?;
        Ok(file.manifest)
    }

    /// What the JSON shape cannot say: every id a safe name, every output a path inside the folder, every
    /// image and link one of its entry's outputs. Messages name the entry by its place, never by what a
    /// tampered file put there.
    fn check(&self) -> Result<(), String> {
        for (i, e) in self.entries.iter().enumerate() {
            if !is_safe_name(&e.id) {
                return Err(format!("entries[{i}]: the id is not a name a catalogue writes (letters, digits, . _ -)"));
            }
            if let Some(k) = e.outputs.iter().position(|o| !is_safe_output(o)) {
                return Err(format!("entries[{i}] ('{}'): outputs[{k}] is not a path inside the folder", e.id));
            }
            let listed = |path: &String| e.outputs.contains(path);
            if !e.images.iter().chain(&e.previews).map(|f| &f.src).chain([&e.link.href]).all(listed) {
                return Err(format!("entries[{i}] ('{}'): an image or link is not one of its outputs", e.id));
            }
        }
        Ok(())
    }

    /// The shares put together: entries and failures in their unsharded order. The shares must come
    /// from one catalogue (same title and settings) and cover distinct entries.
    pub fn merge(shares: &[(PathBuf, Manifest)]) -> Result<Manifest> {
        let Some((first_dir, first)) = shares.first() else { bail!("nothing to merge") };
        let mut merged = Manifest { entries: Vec::new(), failures: Vec::new(), files: 0, ..first.clone() };
        let mut ids = HashSet::new();
        let mut failures = HashSet::new();
        for (dir, share) in shares {
            if share.title != first.title || share.noun != first.noun || share.settings != first.settings {
                bail!(
                    "{} and {} are not shares of one catalogue (their settings differ: \"{}\" / \"{}\")",
                    first_dir.display(),
                    dir.display(),
                    first.settings,
                    share.settings
                );
            }
            merged.files += share.files;
            for e in &share.entries {
                if !ids.insert(e.id.clone()) {
                    bail!("{}: entry '{}' is in another share too (the same shard given twice?)", dir.display(), e.id);
                }
                merged.entries.push(e.clone());
            }
            for f in &share.failures {
                // Inputs that could not even be found are reported by every share of a run that names
                // them; the page lists each once.
                if failures.insert((f.order, f.file.clone(), f.error.clone())) {
                    merged.failures.push(f.clone());
                }
            }
        }
        merged.entries.sort_by_key(|e| e.order);
        merged.failures.sort_by_key(|f| f.order);
        Ok(merged)
    }
}

/// A JSON error's kind in words, without echoing the file's bytes.
fn classify(e: &serde_json::Error) -> &'static str {
    match e.classify() {
        serde_json::error::Category::Io => "read error",
        serde_json::error::Category::Syntax => "invalid JSON",
        serde_json::error::Category::Data => "JSON without the expected fields",
        serde_json::error::Category::Eof => "the file ends early",
    }
}

/// `catalog merge`: the shares in `dirs` into `out` — their output files copied and one page and
/// manifest for all. Every manifest is read and checked before anything is written, and the result is
/// assembled in a staging folder beside `out` that is moved into place only once complete: a merge that
/// fails leaves no partial output. Returns the merged manifest.
pub fn merge_folders(dirs: &[PathBuf], out: &Path) -> Result<Manifest> {
    let shares: Vec<(PathBuf, Manifest)> =
        dirs.iter().map(|d| Manifest::read(d).map(|m| (d.clone(), m))).collect::<Result<_>>()?;
    let merged = Manifest::merge(&shares)?;
    let staged = StagedFolder::new(out)?;
    let out_canonical = out.canonicalize().ok();
    for (dir, share) in &shares {
        let folder = dir.canonicalize().with_context(|| format!("reading {}", dir.display()))?;
        // A shard merged into itself already holds its files.
        if out_canonical.as_ref() == Some(&folder) {
            continue;
        }
        for e in &share.entries {
            for relative in &e.outputs {
                copy_output(dir, &folder, relative, &e.id, staged.path())?;
            }
        }
    }
    merged.write(staged.path())?;
    staged.commit()?;
    Ok(merged)
}

/// Copies output `relative` of entry `id` from the shard `dir` (whose real path is `folder`) into `to`:
/// only a regular file that is really inside the shard's folder (a link out of it is refused).
fn copy_output(dir: &Path, folder: &Path, relative: &str, id: &str, to: &Path) -> Result<()> {
    let from = dir.join(relative);
    let unreadable = |why: String| anyhow::anyhow!("{}: entry '{id}' lists {relative}, which {why}", dir.display());
    let real =
        from.canonicalize().map_err(|e| unreadable(crate::input::walk::reason_of(&crate::input::io_failure(e))))?;
    if !real.starts_with(folder) {
        return Err(unreadable("leads outside the shard's folder".to_string()));
    }
    let bytes = crate::input::read(&real, InputKind::CatalogueOutput).map_err(|e| unreadable(e.reason()))?;
    write_atomically(&to.join(relative), &bytes)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(order: usize, id: &str) -> PageEntry {
        let sheet = format!("sheets/{id}.png");
        PageEntry {
            order,
            id: id.to_string(),
            name: format!("Humanoid {id}"),
            sources: vec![Source { label: "File".into(), path: format!("{id}.x3d") }],
            notes: vec![],
            images: vec![],
            previews: vec![],
            later_notes: vec![],
            link: Link { label: "Contact sheet".into(), href: sheet.clone() },
            table: vec![Row { key: "LOA".into(), value: "1".into() }],
            outputs: vec![sheet],
        }
    }

    fn page(entries: Vec<PageEntry>, files: usize) -> Manifest {
        Manifest { title: "T".into(), noun: "humanoid".into(), settings: "S.".into(), files, entries, failures: vec![] }
    }

    #[test]
    fn shares_merge_into_the_unsharded_page_and_mismatches_are_refused() {
        let whole = page(vec![entry(0, "a"), entry(4096, "b"), entry(8192, "c")], 3);
        let one = page(vec![entry(0, "a"), entry(8192, "c")], 2);
        let two = page(vec![entry(4096, "b")], 1);
        let merged = Manifest::merge(&[("1".into(), one.clone()), ("2".into(), two.clone())]).unwrap();
        assert_eq!(merged, whole);
        assert_eq!(merged.html(), whole.html());
        let twice = Manifest::merge(&[("1".into(), one.clone()), ("1b".into(), one.clone())]).unwrap_err();
        assert!(twice.to_string().contains("entry 'a' is in another share"), "{twice}");
        let other = Manifest { settings: "Other.".into(), ..two };
        let error = Manifest::merge(&[("1".into(), one), ("2".into(), other)]).unwrap_err().to_string();
        assert!(error.contains("settings differ") && error.contains("\"Other.\""), "{error}");
    }

    #[test]
    fn a_manifest_reads_back_and_a_broken_one_is_reported_with_its_position_and_without_its_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let written = page(vec![entry(0, "a")], 1);
        written.write(dir.path()).unwrap();
        assert_eq!(Manifest::read(dir.path()).unwrap(), written);
        std::fs::write(dir.path().join(MANIFEST_NAME), "{\n  \"format\": 2,\n  \"title\": SECRET\n}").unwrap();
        let error = format!("{:#}", Manifest::read(dir.path()).unwrap_err());
        assert!(error.contains("catalog.json:3:"), "{error}");
        assert!(!error.contains("SECRET"), "{error}");
        let missing = format!("{:#}", Manifest::read(&dir.path().join("nothing")).unwrap_err());
        assert!(missing.contains("not a catalogue folder") && missing.contains("no such file"), "{missing}");
        std::fs::write(dir.path().join(MANIFEST_NAME), "{\"format\": 1, \"title\": \"<b>x</b>\"}").unwrap();
        let old = format!("{:#}", Manifest::read(dir.path()).unwrap_err());
        assert!(old.contains("manifest format 1 (this program reads 2"), "{old}");
    }

    #[test]
    fn ids_and_paths_a_catalogue_would_not_write_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let refused = |e: PageEntry, expected: &str| {
            page(vec![e], 1).write(dir.path()).unwrap();
            let error = format!("{:#}", Manifest::read(dir.path()).unwrap_err());
            assert!(error.contains(expected), "{error}");
            assert!(!error.contains("<script") && !error.contains("passwd"), "{error}");
        };
        refused(Entry::with(|e| e.id = "<script>x</script>".into()), "entries[0]: the id is not a name");
        refused(Entry::with(|e| e.outputs.push("../../etc/passwd".into())), "outputs[1] is not a path inside");
        refused(Entry::with(|e| e.outputs.push("/etc/passwd".into())), "outputs[1] is not a path inside");
        refused(Entry::with(|e| e.outputs.push("images/./a.png".into())), "outputs[1] is not a path inside");
        refused(Entry::with(|e| e.link.href = "javascript:alert(1)".into()), "an image or link is not one of");
    }

    /// An entry changed by `change`.
    struct Entry;
    impl Entry {
        fn with(change: impl FnOnce(&mut PageEntry)) -> PageEntry {
            let mut e = entry(0, "a");
            change(&mut e);
            e
        }
    }
}
