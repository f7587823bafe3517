//! Reports about a loaded document: `info` summaries and `check` rules.

pub mod check;
pub mod info;
