//! Reports about a loaded document: `info` summaries, `check` rules and bounding boxes.

pub mod bounds;
pub mod check;
pub mod info;
pub mod standard_names;
