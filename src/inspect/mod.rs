//! Reports about a loaded document: `info` summaries and `check` rules.

pub mod check;
mod check_fields;
pub mod codes;
pub mod info;
pub mod portability;
pub mod repair;
mod skin_rules;
