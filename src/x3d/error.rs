//! Loader errors and warnings: every one names the file and, where known, the line:column and what was
//! expected.

use std::fmt;
use std::path::PathBuf;

/// A position in a source file, 1-based line and column (column counted in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct LineCol {
    pub line: u32,
    pub column: u32,
}

impl fmt::Display for LineCol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Where something was found: a file and, when known, a position in it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SourcePos {
    pub file: PathBuf,
    pub at: Option<LineCol>,
}

impl fmt::Display for SourcePos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at {
            Some(at) => write!(f, "{}:{}", self.file.display(), at),
            None => write!(f, "{}", self.file.display()),
        }
    }
}

/// An error that stops loading a file.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{pos}: {message}")]
pub struct X3dError {
    pub pos: SourcePos,
    pub message: String,
}

impl X3dError {
    pub fn new(pos: SourcePos, message: impl Into<String>) -> Self {
        Self { pos, message: message.into() }
    }
}

/// Something suspicious that loading survived, with the fallback that was used.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Warning {
    pub pos: SourcePos,
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: warning: {}", self.pos, self.message)
    }
}

/// What every encoding's reader says of a USE whose name no DEF before it defines, and drops the node:
/// ISO/IEC 19775-1 4.4.3 makes a USE name the node DEFed *before* it in document order, so a DEF later in
/// the file does not count either. X_ITE drops a USE of a name never DEFed with a warning and draws the
/// rest, as we do (it resolves a later DEF, against 4.4.3; view3dscene drops that one too). `check` finds
/// the message by [`UNDEFINED_USE_MARK`] and reports it as an error (the file does not conform).
pub fn undefined_use_message(name: &str) -> String {
    format!(
        "USE '{name}' {UNDEFINED_USE_MARK} (ISO/IEC 19775-1 4.4.3: a DEF must come before its USE in document \
         order; a DEF later in the file does not count); the USE is dropped and the rest of the scene kept"
    )
}

/// The words of [`undefined_use_message`] that identify it.
pub const UNDEFINED_USE_MARK: &str = "refers to no DEF before this point";
