//! The files a document refers to: Inline targets and the definitions EXTERNPROTO declarations name.
//! Only local files are read, through the guards of `reference`; remote URLs are reported, never fetched.
//!
//! Reading such a file means parsing another document into the same scene, which is the parsers' job,
//! and the parsers call this module: so the parser comes in with the [`LoadContext`] (set up by
//! `load.rs`) instead of being imported, and no import runs back up.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::error::X3dError;
use super::options::LoadOptions;
use super::proto::ProtoDecl;
use super::reference::{ReferenceFailure, local_target, looks_like_x3d, read_referenced_file};
use super::scene::{Child, NodeId, Scene};
use super::source;

/// What reading one document gives: its root nodes and the prototypes it declares.
pub(crate) type ParsedDocument = (Vec<NodeId>, HashMap<String, ProtoDecl>);

/// Reads one document's text (already decompressed and decoded to UTF-8, see `source`) into the scene
/// (`is_main`: the main file, whose header fills the scene's version, profile and DEF names).
pub(crate) type ParseDocument =
    fn(&mut Scene, &[u8], &Path, &mut LoadContext, bool) -> Result<ParsedDocument, X3dError>;

/// How many referenced documents one load reads at most: Inlines of Inlines can branch, and depth alone
/// would let 8 levels of 10 Inlines each read a file 10^8 times.
pub(crate) const MAX_REFERENCED_DOCUMENTS: usize = 1000;

/// One load in progress, as each of its documents sees it.
pub(crate) struct LoadContext {
    pub(crate) options: LoadOptions,
    /// The files being read, the main file first: a file found here again would include itself.
    pub(crate) chain: Vec<PathBuf>,
    /// How a referenced file is parsed.
    pub(crate) parse: ParseDocument,
    /// Referenced documents read so far in this load.
    pub(crate) documents_read: usize,
}

/// Result of looking for an EXTERNPROTO's definition in local files.
enum ExternalProto {
    Found(ProtoDecl),
    /// Nothing usable; the strings say what was tried (`url: reason`).
    NotFound(Vec<String>),
}

fn same_file(a: &Path, b: &Path) -> bool {
    a.canonicalize().unwrap_or(a.to_path_buf()) == b.canonicalize().unwrap_or(b.to_path_buf())
}

/// What a scene holds before a referenced document is read, so that a document that fails halfway leaves
/// nothing behind: none of its nodes, and none of its warnings (which could quote a file that turned out
/// not to be X3D).
struct Checkpoint {
    files: usize,
    nodes: usize,
    routes: usize,
    warnings: usize,
}

impl Checkpoint {
    fn of(scene: &Scene) -> Self {
        Self {
            files: scene.files.len(),
            nodes: scene.nodes.len(),
            routes: scene.routes.len(),
            warnings: scene.warnings.len(),
        }
    }

    fn restore(self, scene: &mut Scene) {
        scene.files.truncate(self.files);
        scene.nodes.truncate(self.nodes);
        // Instances expanded in the document that failed stood for nodes that are gone now.
        scene.instance_interfaces.retain(|id, _| (id.0 as usize) < self.nodes);
        scene.routes.truncate(self.routes);
        scene.warnings.truncate(self.warnings);
    }
}

impl LoadContext {
    /// Reads the local file `path` as a document referred to from the file being read. Every way this can
    /// fail is a [`ReferenceFailure`], which names no byte of the file; the scene is left as it was.
    fn read_document(&mut self, scene: &mut Scene, path: &Path) -> Result<ParsedDocument, ReferenceFailure> {
        if self.chain.iter().any(|p| same_file(p, path)) {
            return Err(ReferenceFailure::Cycle);
        }
        if self.chain.len() > self.options.max_inline_depth {
            return Err(ReferenceFailure::TooDeep(self.options.max_inline_depth));
        }
        if self.documents_read >= MAX_REFERENCED_DOCUMENTS {
            return Err(ReferenceFailure::TooMany(MAX_REFERENCED_DOCUMENTS));
        }
        self.documents_read += 1;
        let bytes = read_referenced_file(path, self.options.max_reference_bytes)?;
        let limit = self.options.max_decompressed_bytes;
        let bytes = source::decompress_if_gzip(&bytes, path, limit).map_err(|e| {
            if e.message.contains("decompresses to more than") {
                ReferenceFailure::DecompressesTooLarge(limit)
            } else {
                ReferenceFailure::NotX3d
            }
        })?;
        let text = source::decode_to_utf8(&bytes, path).map_err(|_| ReferenceFailure::UnsupportedEncoding)?;
        let head = &text[..text.len().min(64 * 1024)];
        let head = String::from_utf8_lossy(head);
        // A part file without a header line, starting with a node, with a VRML extension: read by the
        // classic reader, which warns (`classic::parser`'s header).
        let headerless = source::detect_encoding(head.as_bytes(), path) == super::scene::Encoding::Classic
            && head.split_whitespace().next().is_some_and(super::reference::starts_like_headerless_vrml);
        if !looks_like_x3d(&head) && !headerless {
            return Err(ReferenceFailure::NotX3d);
        }
        let checkpoint = Checkpoint::of(scene);
        let parse = self.parse;
        self.chain.push(path.to_path_buf());
        let parsed = parse(scene, &text, path, self, false);
        self.chain.pop();
        parsed.map_err(|e| {
            checkpoint.restore(scene);
            ReferenceFailure::BrokenX3d(e.pos.at.filter(|_| e.pos.file == path))
        })
    }

    /// Reads the first usable url of an Inline node into the scene as the Inline's children (X3D: the
    /// `url` list is tried in order). Each url that fails is a warning naming it and the reason, and the
    /// next is tried; the file holding the Inline loads either way.
    pub(crate) fn read_inline(&mut self, scene: &mut Scene, id: NodeId, dir: &Path) -> Result<(), X3dError> {
        let load = scene.sf_bool(id, "load", true)?;
        if !load || !self.options.follow_inlines {
            return Ok(());
        }
        let urls = scene.mf_string(id, "url")?;
        let loc = scene.node(id).loc;
        for (i, url) in urls.iter().enumerate() {
            let read = local_target(dir, url).and_then(|(path, _)| self.read_document(scene, &path));
            match read {
                Ok((roots, _)) => {
                    let node = &mut scene.nodes[id.0 as usize];
                    node.children.extend(roots.into_iter().map(|r| Child { field: "children".into(), node: r }));
                    return Ok(());
                }
                Err(failure) => {
                    let next = if i + 1 < urls.len() { "; the next url is tried" } else { "" };
                    scene.warn(loc, format!("Inline url '{url}': {failure}{next}"));
                }
            }
        }
        if !urls.is_empty() {
            scene.warn(loc, format!("Inline: none of its {} url(s) could be read; it shows nothing", urls.len()));
        }
        Ok(())
    }

    /// An external declaration replaced by the definition its URLs name in a local file, when one is found:
    /// the definition's body and defaults, plus any interface field only the external declaration lists.
    /// Otherwise the declaration comes back unchanged (still `external`) with what was tried (`url:
    /// reason`, one per url, each also a warning).
    pub(crate) fn resolve_external(
        &mut self,
        scene: &mut Scene,
        decl: ProtoDecl,
        dir: &Path,
    ) -> (ProtoDecl, Vec<String>) {
        match self.external_proto(scene, &decl, dir) {
            ExternalProto::Found(mut definition) => {
                for f in decl.fields {
                    if !definition.fields.iter().any(|e| e.name == f.name) {
                        definition.fields.push(f);
                    }
                }
                definition.loc = decl.loc;
                definition.urls = decl.urls;
                (definition, Vec::new())
            }
            ExternalProto::NotFound(tried) => (decl, tried),
        }
    }

    /// Finds the prototype an EXTERNPROTO names: the first url whose file declares it (`file#Name`, or the
    /// EXTERNPROTO's own name without a fragment). The file is read into the scene (its nodes stay in the
    /// arena as prototype bodies); its scene roots are not shown.
    fn external_proto(&mut self, scene: &mut Scene, decl: &ProtoDecl, dir: &Path) -> ExternalProto {
        let mut tried = Vec::new();
        for url in &decl.urls {
            let found = local_target(dir, url).and_then(|(path, fragment)| {
                let (_, mut protos) = self.read_document(scene, &path)?;
                let wanted = fragment.unwrap_or_else(|| decl.name.clone());
                match protos.remove(&wanted) {
                    Some(found) if !found.external => Ok(found),
                    _ => Err(ReferenceFailure::NoSuchProto(wanted)),
                }
            });
            match found {
                Ok(mut definition) => {
                    definition.name = decl.name.clone();
                    return ExternalProto::Found(definition);
                }
                Err(failure) => {
                    scene.warn(decl.loc, format!("EXTERNPROTO '{}' url '{url}': {failure}", decl.name));
                    tried.push(format!("{url}: {failure}"));
                }
            }
        }
        ExternalProto::NotFound(tried)
    }
}
