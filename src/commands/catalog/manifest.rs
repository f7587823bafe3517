//! `catalog.json`, what a catalogue run leaves beside its `index.html`: the page in parts (each entry's
//! section and table-of-contents line, keyed by the entry's place among all inputs) and every output
//! file it wrote. A sharded run (`--shard I/N`) writes its share; `catalog merge` puts the shares back
//! together into the page an unsharded run writes, byte for byte, since both are assembled here from the
//! same parts in the same order.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::output::write_atomically;

/// The manifest's file name in a catalogue folder.
pub const MANIFEST_NAME: &str = "catalog.json";
/// Bumped when the manifest's meaning changes; merge refuses others.
const MANIFEST_FORMAT: u32 = 1;

/// A catalogue page in parts.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Manifest {
    /// The page's title and heading.
    pub title: String,
    /// What one entry is ("humanoid", "take").
    pub noun: String,
    /// What every image was made with (HTML): views, size, pose, previews.
    pub settings: String,
    /// Input files covered (catalogued or failed).
    pub files: usize,
    pub entries: Vec<PageEntry>,
    pub failures: Vec<PageFailure>,
}

/// One entry of the page.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PageEntry {
    /// Its place among the entries of an unsharded run: the input's index in the stable input order, then
    /// the humanoid's within the file.
    pub order: usize,
    pub id: String,
    /// Its line in the table of contents (HTML).
    pub toc: String,
    /// Its section (HTML).
    pub section: String,
    /// The files it wrote, relative to the output folder.
    pub outputs: Vec<String>,
}

/// One failed input.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PageFailure {
    pub order: usize,
    /// Its list item (HTML).
    pub item: String,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct ManifestFile {
    format: u32,
    #[serde(flatten)]
    manifest: Manifest,
}

/// Where an entry of input `input` (its index in the stable order of all inputs), humanoid `humanoid`
/// of its file, stands on the page. Inputs that failed before loading come first, as in a plain run.
pub fn entry_order(input: usize, humanoid: usize) -> usize {
    input * 4096 + humanoid.min(4095)
}

impl Manifest {
    /// The whole page: a well-formed (XHTML-compatible) HTML document with no run-dependent text.
    pub fn html(&self) -> String {
        let mut out = String::new();
        let title = super::page::escape(&self.title);
        let _ = writeln!(out, "<!DOCTYPE html>");
        let _ = writeln!(out, "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">");
        let _ = writeln!(out, "<head>\n<meta charset=\"utf-8\"/>\n<title>{title}</title>");
        let _ = writeln!(
            out,
            "<style>\nbody {{ font-family: sans-serif; margin: 1em 2em; background: #fafafa; }}\n\
             section {{ border-top: 1px solid #ccc; padding: 0.5em 0; }}\n\
             figure {{ display: inline-block; margin: 0 0.5em 0.5em 0; text-align: center; }}\n\
             figcaption {{ font-size: 0.85em; color: #444; }}\n\
             table {{ border-collapse: collapse; font-size: 0.9em; }}\n\
             td, th {{ text-align: left; padding: 0.1em 0.8em 0.1em 0; vertical-align: top; }}\n\
             .note {{ color: #a40; }}\n</style>\n</head>\n<body>"
        );
        let _ = writeln!(out, "<h1>{title}</h1>");
        let _ = writeln!(
            out,
            "<p>{} {}(s) from {} file(s); {} failed. {}</p>",
            self.entries.len(),
            super::page::escape(&self.noun),
            self.files,
            self.failures.len(),
            self.settings
        );
        if !self.entries.is_empty() {
            let _ = writeln!(out, "<ul>");
            for e in &self.entries {
                let _ = writeln!(out, "{}", e.toc);
            }
            let _ = writeln!(out, "</ul>");
        }
        for e in &self.entries {
            out.push_str(&e.section);
        }
        if !self.failures.is_empty() {
            let _ = writeln!(out, "<section id=\"failures\">\n<h2>Files that failed</h2>\n<ul>");
            for f in &self.failures {
                let _ = writeln!(out, "{}", f.item);
            }
            let _ = writeln!(out, "</ul>\n</section>");
        }
        let _ = writeln!(out, "</body>\n</html>");
        out
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

    /// Reads `dir/catalog.json`.
    pub fn read(dir: &Path) -> Result<Manifest> {
        let path = dir.join(MANIFEST_NAME);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("{}: not a catalogue folder (no readable {MANIFEST_NAME})", dir.display()))?;
        let file: ManifestFile = serde_json::from_str(&text).map_err(|e| {
            anyhow::anyhow!(
                "{}:{}:{}: not a catalogue manifest: {}",
                path.display(),
                e.line(),
                e.column(),
                classify(&e)
            )
        })?;
        if file.format != MANIFEST_FORMAT {
            bail!("{}: manifest format {} (this program reads {MANIFEST_FORMAT})", path.display(), file.format);
        }
        Ok(file.manifest)
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
                    strip_tags(&first.settings),
                    strip_tags(&share.settings)
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
                if failures.insert((f.order, f.item.clone())) {
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

/// Text of an HTML fragment without its tags, for messages.
fn strip_tags(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

/// `catalog merge`: the shares in `dirs` into `out` — their output files copied (each atomically) and one
/// page and manifest for all. Returns the merged manifest.
pub fn merge_folders(dirs: &[PathBuf], out: &Path) -> Result<Manifest> {
    let shares: Vec<(PathBuf, Manifest)> =
        dirs.iter().map(|d| Manifest::read(d).map(|m| (d.clone(), m))).collect::<Result<_>>()?;
    let merged = Manifest::merge(&shares)?;
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let out_canonical = out.canonicalize().unwrap_or_else(|_| out.to_path_buf());
    for (dir, share) in &shares {
        if dir.canonicalize().is_ok_and(|d| d == out_canonical) {
            continue;
        }
        for e in &share.entries {
            for relative in &e.outputs {
                if Path::new(relative).components().any(|c| !matches!(c, std::path::Component::Normal(_))) {
                    bail!(
                        "{}: output '{}' of entry '{}' is not a path inside the folder",
                        dir.display(),
                        relative,
                        e.id
                    );
                }
                let from = dir.join(relative);
                let bytes = std::fs::read(&from).with_context(|| {
                    format!("{}: entry '{}' lists {relative}, which cannot be read", dir.display(), e.id)
                })?;
                write_atomically(&out.join(relative), &bytes)?;
            }
        }
    }
    merged.write(out)?;
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(order: usize, id: &str) -> PageEntry {
        PageEntry {
            order,
            id: id.to_string(),
            toc: format!("<li>{id}</li>"),
            section: format!("<section id=\"{id}\"></section>\n"),
            outputs: vec![],
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
        let other = Manifest { settings: "<b>Other</b>.".into(), ..two };
        let error = Manifest::merge(&[("1".into(), one), ("2".into(), other)]).unwrap_err().to_string();
        assert!(error.contains("settings differ") && error.contains("\"Other.\""), "{error}");
    }

    #[test]
    fn a_broken_manifest_is_reported_with_its_position_and_without_its_bytes() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(MANIFEST_NAME), "{\n  \"format\": 1,\n  \"title\": SECRET\n}").unwrap();
        let error = format!("{:#}", Manifest::read(dir.path()).unwrap_err());
        assert!(error.contains("catalog.json:3:"), "{error}");
        assert!(!error.contains("SECRET"), "{error}");
        let missing = format!("{:#}", Manifest::read(&dir.path().join("nothing")).unwrap_err());
        assert!(missing.contains("not a catalogue folder"), "{missing}");
    }
}
