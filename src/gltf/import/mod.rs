//! Reading glTF and VRM.
pub mod bones;
