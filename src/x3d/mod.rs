//! X3D scene loading: a generic node tree with DEF/USE resolved, prototypes expanded and Inlines read,
//! plus typed field access with source positions. This layer knows nothing about H-Anim.
//!
//! Nodes live in one arena (`Scene::nodes`) and refer to each other by [`NodeId`], so a USE is simply a
//! second reference to the same id (a shared node, as X3D requires), and the tree is walked without
//! recursion however deep a file nests.
//!
//! Imports run one way: `load` picks the parser for each document (`reader` for XML and, through the
//! `syntax` tree, X3D JSON; `classic` for the VRML-style syntax); the parsers read the files a document refers to through `external`, which is
//! handed the parser to use rather than importing it; all of them build on `scene` (the arena and its
//! typed field access), `source` (bytes to text), `proto` (with `proto_routes`: ROUTEs through
//! instance interfaces), `options`, [`error`] and [`fields`].
//! [`grouping`] says which children a grouping node shows, for every layer above that walks the tree.

mod classic;
pub mod error;
mod external;
pub mod field_types;
pub mod fields;
pub mod grouping;
mod load;
mod options;
mod proto;
mod proto_routes;
mod reader;
pub mod reference;
mod scene;
mod source;
pub mod syntax;

pub use error::{LineCol, SourcePos, Warning, X3dError};
pub use load::{load_bytes, load_file, load_str, read_document};
pub use options::{DEFAULT_MAX_DECOMPRESSED_MIB, DEFAULT_MAX_REFERENCE_MIB, LoadOptions, LoadProgress, LoadStage};
pub use scene::{Child, Component, Encoding, Field, Loc, Node, NodeId, Route, Scene, SourceFile, Units};
pub use source::{
    SUPPORTED_EXTENSIONS, decode_to_utf8, decompress_if_gzip, detect_encoding, is_supported_path, starts_like_x3d_json,
};
