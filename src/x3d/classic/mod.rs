//! The classic encodings: VRML97 (`#VRML V2.0 utf8`, ISO/IEC 14772-1) and ClassicVRML X3D
//! (`#X3D V3.x/V4.x utf8`, ISO/IEC 19776-2), read into the same [`Scene`](super::Scene) as the XML reader
//! produces: a field written `name value` becomes the same [`Field`](super::Field) text an XML attribute
//! would give, a node-valued field becomes [`Child`](super::Child) entries named after the field (what
//! XML calls the containerField), DEF/USE share one node, ROUTEs are kept, and PROTOs expand through
//! `proto.rs` exactly like ProtoDeclare, H-Anim 1.x prototypes included.

pub(crate) mod lexer;
mod parser;
mod types;

pub(crate) use parser::parse_document;

/// Whether `name` is a field type of VRML97 or X3D 4 (`SFVec3f`, `MFNode`, …).
pub(crate) fn is_field_type(name: &str) -> bool {
    types::FieldType::parse(name).is_some()
}
