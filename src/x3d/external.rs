//! The files a document refers to: Inline targets and the definitions EXTERNPROTO declarations name.
//! Only local files are read; remote URLs are reported, never fetched.
//!
//! Reading such a file means parsing another document into the same scene, which is the parsers' job,
//! and the parsers call this module: so the parser comes in with the [`LoadContext`] (set up by
//! `load.rs`) instead of being imported, and no import runs back up.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::error::X3dError;
use super::options::LoadOptions;
use super::proto::ProtoDecl;
use super::scene::{Child, NodeId, Scene};

/// What reading one document gives: its root nodes and the prototypes it declares.
pub(crate) type ParsedDocument = (Vec<NodeId>, HashMap<String, ProtoDecl>);

/// Reads one document of any encoding into the scene (`is_main`: the main file, whose header fills the
/// scene's version, profile and DEF names).
pub(crate) type ParseDocument =
    fn(&mut Scene, &[u8], &Path, &mut LoadContext, bool) -> Result<ParsedDocument, X3dError>;

/// One load in progress, as each of its documents sees it.
pub(crate) struct LoadContext {
    pub(crate) options: LoadOptions,
    /// The files being read, the main file first: a file found here again would include itself.
    pub(crate) chain: Vec<PathBuf>,
    /// How a referenced file is parsed.
    pub(crate) parse: ParseDocument,
}

/// Result of looking for an EXTERNPROTO's definition in local files.
enum ExternalProto {
    Found(ProtoDecl),
    /// Nothing usable; the strings say what was tried (paths, remote URLs, missing names).
    NotFound(Vec<String>),
}

/// A URL split into the local file it names (relative to `dir`) and its `#fragment`; `None` for remote
/// URLs, which are never fetched.
fn local_target(dir: &Path, url: &str) -> Option<(PathBuf, Option<String>)> {
    let lower = url.to_ascii_lowercase();
    if lower.contains("://") && !lower.starts_with("file://") {
        return None;
    }
    let local = if lower.starts_with("file://") { &url[7..] } else { url };
    let (file, fragment) = match local.split_once('#') {
        Some((f, frag)) => (f, Some(frag.to_string())),
        None => (local, None),
    };
    Some((dir.join(file), fragment))
}

fn same_file(a: &Path, b: &Path) -> bool {
    a.canonicalize().unwrap_or(a.to_path_buf()) == b.canonicalize().unwrap_or(b.to_path_buf())
}

impl LoadContext {
    /// Parses `bytes` (read from `path`) as a document referred to from the file being read.
    fn parse_referenced(&mut self, scene: &mut Scene, bytes: &[u8], path: &Path) -> Result<ParsedDocument, X3dError> {
        let parse = self.parse;
        self.chain.push(path.to_path_buf());
        let parsed = parse(scene, bytes, path, self, false);
        self.chain.pop();
        parsed
    }

    /// Reads the first local target of an Inline node into the scene as the Inline's children. Remote URLs
    /// are reported, never fetched; a file including itself, or Inlines nested too deeply, are not followed.
    pub(crate) fn read_inline(&mut self, scene: &mut Scene, id: NodeId, dir: &Path) -> Result<(), X3dError> {
        let load = scene.sf_bool(id, "load", true)?;
        if !load || !self.options.follow_inlines {
            return Ok(());
        }
        let urls = scene.mf_string(id, "url")?;
        let loc = scene.node(id).loc;
        let mut tried = Vec::new();
        let mut remote = Vec::new();
        let report_remote = |scene: &mut Scene, remote: &[&str]| {
            if !remote.is_empty() {
                scene.warn(loc, format!("Inline: remote URLs are never fetched ({})", remote.join(", ")));
            }
        };
        for url in &urls {
            let Some((path, _)) = local_target(dir, url) else {
                remote.push(url.as_str());
                continue;
            };
            if !path.is_file() {
                tried.push(path.display().to_string());
                continue;
            }
            if self.chain.iter().any(|p| same_file(p, &path)) {
                scene.warn(loc, format!("Inline '{}' includes itself; not followed", path.display()));
                return Ok(());
            }
            if self.chain.len() > self.options.max_inline_depth {
                scene.warn(loc, format!("Inline '{}' is nested too deeply; not followed", path.display()));
                return Ok(());
            }
            let bytes = match std::fs::read(&path) {
                Ok(b) => b,
                Err(e) => {
                    scene.warn(loc, format!("Inline '{}' cannot be read: {e}", path.display()));
                    continue;
                }
            };
            let (roots, _) = self.parse_referenced(scene, &bytes, &path)?;
            let node = &mut scene.nodes[id.0 as usize];
            node.children.extend(roots.into_iter().map(|r| Child { field: "children".into(), node: r }));
            report_remote(scene, &remote);
            return Ok(());
        }
        if !tried.is_empty() {
            scene.warn(loc, format!("Inline: no local file found (tried {})", tried.join(", ")));
        }
        report_remote(scene, &remote);
        Ok(())
    }

    /// An external declaration replaced by the definition its URLs name in a local file, when one is found:
    /// the definition's body and defaults, plus any interface field only the external declaration lists.
    /// Otherwise the declaration comes back unchanged (still `external`) with what was tried.
    pub(crate) fn resolve_external(
        &mut self,
        scene: &mut Scene,
        decl: ProtoDecl,
        dir: &Path,
    ) -> Result<(ProtoDecl, Vec<String>), X3dError> {
        match self.external_proto(scene, &decl.name, &decl.urls, dir)? {
            ExternalProto::Found(mut definition) => {
                for f in decl.fields {
                    if !definition.fields.iter().any(|e| e.name == f.name) {
                        definition.fields.push(f);
                    }
                }
                definition.loc = decl.loc;
                definition.urls = decl.urls;
                Ok((definition, Vec::new()))
            }
            ExternalProto::NotFound(tried) => Ok((decl, tried)),
        }
    }

    /// Finds the prototype an EXTERNPROTO names: the first local URL whose file declares it (`file#Name`, or
    /// the EXTERNPROTO's own name without a fragment). The file is read into the scene (its nodes stay in the
    /// arena as prototype bodies); its scene roots are not shown.
    fn external_proto(
        &mut self,
        scene: &mut Scene,
        name: &str,
        urls: &[String],
        dir: &Path,
    ) -> Result<ExternalProto, X3dError> {
        let mut tried = Vec::new();
        for url in urls {
            let Some((path, fragment)) = local_target(dir, url) else {
                tried.push(format!("{url} (remote URLs are never fetched)"));
                continue;
            };
            if !path.is_file() {
                tried.push(format!("{} (no such file)", path.display()));
                continue;
            }
            if self.chain.iter().any(|p| same_file(p, &path)) || self.chain.len() > self.options.max_inline_depth {
                tried.push(format!("{} (refers back to a file being read)", path.display()));
                continue;
            }
            let bytes = match std::fs::read(&path) {
                Ok(b) => b,
                Err(e) => {
                    tried.push(format!("{} ({e})", path.display()));
                    continue;
                }
            };
            let (_, mut protos) = self.parse_referenced(scene, &bytes, &path)?;
            let wanted = fragment.unwrap_or_else(|| name.to_string());
            match protos.remove(&wanted) {
                Some(mut decl) if !decl.external => {
                    decl.name = name.to_string();
                    return Ok(ExternalProto::Found(decl));
                }
                _ => tried.push(format!("{} (declares no PROTO '{wanted}')", path.display())),
            }
        }
        Ok(ExternalProto::NotFound(tried))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remote_and_local_urls() {
        let dir = Path::new("/d");
        assert!(local_target(dir, "http://x/y.wrl").is_none());
        assert_eq!(local_target(dir, "lib.wrl#Joint"), Some((PathBuf::from("/d/lib.wrl"), Some("Joint".into()))));
        assert_eq!(local_target(dir, "file://lib.wrl"), Some((PathBuf::from("/d/lib.wrl"), None)));
    }
}
