//! A glTF 2.0 asset (`.gltf`, `.glb`) or VRM avatar (`.vrm`, 0.x and 1.0) read as an X3D document holding
//! one H-Anim humanoid, in the syntax tree every X3D encoding shares ([`crate::x3d::syntax`]): the loader
//! reads it as it reads any X3D file, so every command and the window open glTF, and *Save as X3D* and
//! `convert` write it in any X3D encoding. `docs/gltf.md` states every rule; in short:
//!
//! - joints: the skins' joints and the nodes between them and their common root, parent before child,
//!   named by the VRM bone table, the Mixamo and Rigify tables ([`bones`]), else as the node is; the
//!   joint's `center` is the node's rest position in humanoid space, its `rotation` the node's, its
//!   `translation` `c_parent + t_node − c` (the export's frame convention read backwards); nodes above the
//!   skeleton's root place the humanoid itself;
//! - the skin: every skinned primitive's vertices, welded where position, influences and morph deltas
//!   agree, as the skinCoord; weights as the joints' skinCoordIndex/skinCoordWeight; each primitive a
//!   Shape (IndexedFaceSet, per-corner normals and texture coordinates); inverse bind matrices as
//!   `jointBinding*` (X_ITE's reading, semantics note §2.3) where they differ from the rest pose;
//! - morph targets as displacers on the joint that weighs most on their points; VRM expressions as
//!   displacers named by the expression;
//! - animations as TimeSensors and interpolators ROUTEd to joints and displacers;
//! - materials as PhysicalMaterial (or back to Material and UnlitMaterial where this program's export
//!   says it made them from one), images embedded as `data:` urls, `KHR_texture_transform` as a
//!   TextureTransform (or applied to the texture coordinates where none can draw it).

pub mod bones;
mod document;
mod skeleton;
mod skin;
mod tree;
mod uv_map;
mod vrm;

mod animations;
mod materials;

use std::path::{Path, PathBuf};

use crate::input::{InputKind, read};
use crate::x3d::error::{SourcePos, X3dError};
use crate::x3d::syntax::SyntaxDocument;

/// The document made of a glTF file, and what could not be carried over.
#[derive(Debug, Clone)]
pub struct Imported {
    pub document: SyntaxDocument,
    pub warnings: Vec<String>,
}

/// A parsed asset with its buffers resolved.
pub(super) struct Source {
    pub gltf: gltf::Document,
    pub buffers: Vec<Vec<u8>>,
    /// The JSON as written, for the extensions the `gltf` crate does not type (VRM).
    pub json: serde_json::Value,
    pub path: PathBuf,
    /// What could not be carried over, one line each (added to while the rest is borrowed).
    pub warnings: std::cell::RefCell<Vec<String>>,
}

impl Source {
    pub fn warn(&self, line: impl Into<String>) {
        let line = line.into();
        let mut warnings = self.warnings.borrow_mut();
        if !warnings.contains(&line) {
            warnings.push(line);
        }
    }

    /// The bytes of a buffer view.
    pub fn view_bytes(&self, view: &gltf::buffer::View) -> Option<&[u8]> {
        let buffer = self.buffers.get(view.buffer().index())?;
        buffer.get(view.offset()..view.offset() + view.length())
    }
}

fn error(path: &Path, message: impl Into<String>) -> X3dError {
    X3dError::new(SourcePos { file: path.to_path_buf(), at: None }, message)
}

/// Reads the asset in `bytes` (the file `path`): its JSON, its binary chunk, and the buffers its uris
/// name (base64 `data:` uris, or files beside it read through the program's one door).
fn open(bytes: &[u8], path: &Path) -> Result<Source, X3dError> {
    let gltf = gltf::Gltf::from_slice(bytes).map_err(|e| error(path, format!("not a valid glTF 2.0 asset: {e}")))?;
    let json_bytes: Vec<u8> = if bytes.starts_with(b"glTF") {
        gltf::Glb::from_slice(bytes).map_err(|e| error(path, format!("glTF binary container: {e}")))?.json.into_owned()
    } else {
        bytes.to_vec()
    };
    let json: serde_json::Value =
        serde_json::from_slice(&json_bytes).map_err(|e| error(path, format!("glTF JSON, line {}: {e}", e.line())))?;
    let gltf::Gltf { document, blob } = gltf;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut buffers = Vec::new();
    for buffer in document.buffers() {
        let data = match buffer.source() {
            gltf::buffer::Source::Bin => {
                blob.clone().ok_or_else(|| error(path, "buffer 0 is the binary chunk, which the file lacks"))?
            }
            gltf::buffer::Source::Uri(uri) => match crate::mesh::texture_image::data_url_bytes(uri) {
                Some(data) => data,
                None => {
                    let (file, _) = crate::x3d::reference::local_target(&dir, uri)
                        .map_err(|e| error(path, format!("buffer {}: '{uri}' {e}", buffer.index())))?;
                    read(&file, InputKind::Reference)
                        .map_err(|e| error(path, format!("buffer {}: {e}", buffer.index())))?
                }
            },
        };
        if data.len() < buffer.length() {
            return Err(error(
                path,
                format!("buffer {} holds {} bytes; the file says {}", buffer.index(), data.len(), buffer.length()),
            ));
        }
        buffers.push(data);
    }
    Ok(Source { gltf: document, buffers, json, path: path.to_path_buf(), warnings: Default::default() })
}

/// The H-Anim document of the glTF or VRM asset in `bytes` (the file `path`).
pub fn import(bytes: &[u8], path: &Path) -> Result<Imported, X3dError> {
    let source = open(bytes, path)?;
    let document = document::build(&source).map_err(|message| error(path, message))?;
    Ok(Imported { document, warnings: source.warnings.into_inner() })
}

/// As [`import`], written as X3D XML text, the warnings as a comment at its top.
pub fn to_x3d_text(bytes: &[u8], path: &Path) -> Result<(String, Vec<String>), X3dError> {
    let imported = import(bytes, path)?;
    Ok((crate::x3d::syntax::write(&imported.document, crate::x3d::Encoding::Xml), imported.warnings))
}
