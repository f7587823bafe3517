//! The entry points: a scene from a file, bytes or text. Each document of a load (the main file, every
//! Inline, every external prototype file) goes to the parser of its encoding here.

use std::path::Path;

use super::error::{SourcePos, X3dError};
use super::external::{LoadContext, ParsedDocument};
use super::options::{LoadOptions, LoadStage};
use super::scene::{Encoding, Scene};
use super::source::{decode_to_utf8, decompress_if_gzip, detect_encoding};
use super::{classic, reader};

/// Loads a scene file of any supported encoding.
pub fn load_file(path: &Path, options: &LoadOptions) -> Result<Scene, X3dError> {
    let bytes = read_document(path)?;
    if let Some(p) = &options.progress {
        p.set_stage(LoadStage::Parsing);
    }
    load_bytes(&bytes, path, options)
}

/// The bytes of the X3D file at `path`, through the program's one door ([`crate::input`]): a regular
/// file within the limit for X3D documents, or an error that says what the path is instead.
pub fn read_document(path: &Path) -> Result<Vec<u8>, X3dError> {
    crate::input::read(path, crate::input::InputKind::X3dDocument)
        .map_err(|e| X3dError::new(SourcePos { file: path.to_path_buf(), at: None }, e.reason()))
}

/// Loads scene text (XML, classic or JSON, told apart by how it starts); `path` names it in messages and
/// resolves relative URLs. The text is already Unicode: an XML declaration's `encoding` is not applied
/// to it again.
pub fn load_str(text: &str, path: &Path, options: &LoadOptions) -> Result<Scene, X3dError> {
    parse_main(text.as_bytes(), path, options)
}

/// Loads scene bytes of any supported encoding, gzip-compressed or not.
pub fn load_bytes(bytes: &[u8], path: &Path, options: &LoadOptions) -> Result<Scene, X3dError> {
    if crate::gltf::is_gltf(path, bytes) {
        // A glTF or VRM asset: read as the X3D document of its humanoid (`gltf::import`).
        let (text, warnings) = crate::gltf::import::to_x3d_text(bytes, path)?;
        let mut scene = parse_main(text.as_bytes(), path, options)?;
        scene.warnings.extend(
            warnings.into_iter().map(|message| super::error::Warning {
                pos: SourcePos { file: path.to_path_buf(), at: None },
                message,
            }),
        );
        return Ok(scene);
    }
    let bytes = decompress_if_gzip(bytes, path, options.max_decompressed_bytes)?;
    let text = decode_to_utf8(&bytes, path)?;
    parse_main(&text, path, options)
}

/// The main document's UTF-8 text into a scene, with the documents it refers to.
fn parse_main(text: &[u8], path: &Path, options: &LoadOptions) -> Result<Scene, X3dError> {
    let mut scene = Scene::default();
    let mut context =
        LoadContext { options: options.clone(), chain: vec![path.to_path_buf()], parse: parse_any, documents_read: 0 };
    let (roots, _) = parse_any(&mut scene, text, path, &mut context, true)?;
    scene.roots = roots;
    Ok(scene)
}

/// Reads one document's UTF-8 text, in any of the three encodings, into `scene`: its roots and the prototypes it
/// declares.
fn parse_any(
    scene: &mut Scene,
    bytes: &[u8],
    path: &Path,
    context: &mut LoadContext,
    is_main: bool,
) -> Result<ParsedDocument, X3dError> {
    let encoding = detect_encoding(bytes, path);
    if is_main {
        scene.encoding = encoding;
    }
    match encoding {
        Encoding::Xml => reader::parse_document(scene, bytes, path, context, is_main),
        Encoding::Classic => classic::parse_document(scene, bytes, path, context, is_main),
        Encoding::Json => reader::parse_json_document(scene, bytes, path, context, is_main),
    }
}
