//! The ClassicVRML encoding (ISO/IEC 19776-2) and VRML97 (ISO/IEC 14772-1) against the syntax tree, which
//! is the XML encoding's (ISO/IEC 19776-1): `reader*` turn classic text into the elements and attributes
//! the XML reader gives for the same scene, `writer*` turn any tree back into classic text.
//!
//! The two directions share the vocabulary here: the words that cannot be names, the interface
//! declaration keywords and their XML `accessType`s, the field type names, string escapes, and the type of
//! a field of a node, of a prototype instance or of an H-Anim 1.x prototype used without a declaration.

mod reader;
mod reader_nodes;
mod reader_protos;
mod writer;
mod writer_nodes;
mod writer_values;

use std::collections::HashMap;

use crate::x3d::field_types;
use crate::x3d::proto::hanim1_native_type;

pub(in crate::x3d::syntax) use reader::read;
pub(in crate::x3d::syntax) use writer::write;

/// The interface of each prototype declared so far: name → `(field, type)` in declaration order.
type ProtoInterfaces = HashMap<String, Vec<(String, String)>>;

/// Words of the classic syntax that cannot be node type, DEF or field names.
fn is_keyword(word: &str) -> bool {
    matches!(
        word,
        "DEF"
            | "USE"
            | "PROTO"
            | "EXTERNPROTO"
            | "ROUTE"
            | "TO"
            | "IS"
            | "NULL"
            | "TRUE"
            | "FALSE"
            | "PROFILE"
            | "COMPONENT"
            | "UNIT"
            | "META"
            | "IMPORT"
            | "EXPORT"
            | "AS"
    )
}

/// The XML `accessType` of an interface declaration keyword, X3D or VRML97 (`exposedField` is
/// `inputOutput`, `eventIn` is `inputOnly`, …).
fn access_type(keyword: &str) -> Option<&'static str> {
    match keyword {
        "field" | "initializeOnly" => Some("initializeOnly"),
        "exposedField" | "inputOutput" => Some("inputOutput"),
        "eventIn" | "inputOnly" => Some("inputOnly"),
        "eventOut" | "outputOnly" => Some("outputOnly"),
        _ => None,
    }
}

/// Whether a declaration with this access type carries a value (events do not).
fn carries_value(access: &str) -> bool {
    matches!(access, "initializeOnly" | "inputOutput")
}

/// Whether `name` is a field type of VRML97 or X3D 4 (the classic loader's list).
fn is_field_type(name: &str) -> bool {
    crate::x3d::classic::is_field_type(name)
}

/// A string with `"` and `\` escaped, as both a classic string and an XML MFString element write it.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    for c in s.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `"…"` with escapes.
fn quote(s: &str) -> String {
    format!("\"{}\"", escape(s))
}

/// The type of field `field` of a node `element`, or of an instance of prototype `proto`: the declared
/// interface when the prototype is declared, else (an H-Anim 1.x `Joint`, `Segment`, … used without a
/// declaration, which the loader reads as the H-Anim node) the native node's field.
fn field_type_of(element: &str, proto: Option<&str>, field: &str, interfaces: &ProtoInterfaces) -> Option<String> {
    match proto {
        Some(proto) => match interfaces.get(proto) {
            Some(fields) => fields.iter().find(|(name, _)| name == field).map(|(_, ty)| ty.clone()),
            None => {
                hanim1_native_type(proto).and_then(|native| field_types::field_type(native, field)).map(str::to_string)
            }
        },
        None => field_types::field_type(element, field).map(str::to_string),
    }
}
