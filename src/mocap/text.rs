//! Line and token reading shared by the ASF, AMC and BVH parsers: every token keeps its 1-based line and
//! column so that each error can point at it.

use std::fmt;
use std::path::{Path, PathBuf};

/// A motion-capture file that could not be read: where, and what was expected there.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub struct MocapError {
    pub file: PathBuf,
    /// 1-based; 0 when the problem concerns the whole file (e.g. it cannot be opened).
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for MocapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file.display(), self.message)
        } else {
            write!(f, "{}:{}:{}: {}", self.file.display(), self.line, self.column, self.message)
        }
    }
}

/// A non-fatal finding (a quirk the parser worked around), with its position.
#[derive(Debug, Clone, PartialEq)]
pub struct MocapWarning {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for MocapWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: warning: {}", self.line, self.column, self.message)
    }
}

/// One token of a line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Token<'a> {
    pub text: &'a str,
    pub line: usize,
    /// 1-based, in characters.
    pub column: usize,
}

/// The tokens of one source line (comments removed); lines without tokens are dropped.
#[derive(Debug, Clone, PartialEq)]
pub struct Line<'a> {
    pub number: usize,
    /// The line's text without its end-of-line characters.
    pub text: &'a str,
    pub tokens: Vec<Token<'a>>,
}

/// How a format splits a line into tokens.
#[derive(Debug, Clone, Copy)]
pub struct Syntax {
    /// Characters that count as whitespace besides ASCII whitespace (the ASF spec: `(`, `)` and `,`).
    pub extra_separators: &'static [char],
    /// `#` starts a comment to the end of the line.
    pub hash_comments: bool,
}

/// Reads a whole file of `kind` as UTF-8 through the program's one door (a regular file within the
/// limit of its kind); a file that is not UTF-8 is an error pointing at the first bad byte.
pub fn read_text(path: &Path, kind: crate::input::InputKind) -> Result<String, MocapError> {
    crate::input::read_text(path, kind).map_err(|e| {
        let (line, column) = e.position().unwrap_or((0, 0));
        let message = match e.failure {
            crate::input::ReadFailure::NotUtf8 { .. } => {
                "the file is not UTF-8 text (expected a text motion-capture file)".to_string()
            }
            _ => e.reason(),
        };
        MocapError { file: path.to_path_buf(), line, column, message }
    })
}

/// Splits `text` into lines of tokens. Accepts LF, CRLF and a mix of both (real BVH files mix them).
pub fn tokenize(text: &str, syntax: Syntax) -> Vec<Line<'_>> {
    let mut lines = Vec::new();
    for (index, raw) in text.split('\n').enumerate() {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let content = if syntax.hash_comments { raw.split('#').next().unwrap_or("") } else { raw };
        let mut tokens = Vec::new();
        let mut start: Option<(usize, usize)> = None; // (byte, column)
        let mut column = 0;
        for (byte, ch) in content.char_indices() {
            column += 1;
            let separator = ch.is_whitespace() || syntax.extra_separators.contains(&ch);
            match (separator, start) {
                (true, Some((s, c))) => {
                    tokens.push(Token { text: &content[s..byte], line: index + 1, column: c });
                    start = None;
                }
                (false, None) => start = Some((byte, column)),
                _ => {}
            }
        }
        if let Some((s, c)) = start {
            tokens.push(Token { text: &content[s..], line: index + 1, column: c });
        }
        if !tokens.is_empty() {
            lines.push(Line { number: index + 1, text: raw, tokens });
        }
    }
    lines
}

/// The position just after the last character of `text` (for "the file ends early" errors).
pub fn end_position(text: &str) -> (usize, usize) {
    let line = text.split('\n').count();
    let last = text.rsplit('\n').next().unwrap_or("");
    (line, last.trim_end_matches('\r').chars().count() + 1)
}

/// Builds errors and warnings for one file.
#[derive(Debug, Clone)]
pub struct Reporter {
    pub file: PathBuf,
}

impl Reporter {
    pub fn new(file: &Path) -> Self {
        Self { file: file.to_path_buf() }
    }

    pub fn at(&self, line: usize, column: usize, message: impl Into<String>) -> MocapError {
        MocapError { file: self.file.clone(), line, column, message: message.into() }
    }

    pub fn token(&self, token: &Token<'_>, message: impl Into<String>) -> MocapError {
        self.at(token.line, token.column, message)
    }

    /// Parses a float; `inf`/`-inf` (ASF limits) only when `allow_infinity`.
    pub fn number(&self, token: &Token<'_>, what: &str, allow_infinity: bool) -> Result<f64, MocapError> {
        let lower = token.text.to_ascii_lowercase();
        if allow_infinity {
            match lower.as_str() {
                "inf" | "+inf" | "infinity" => return Ok(f64::INFINITY),
                "-inf" | "-infinity" => return Ok(f64::NEG_INFINITY),
                _ => {}
            }
        }
        match token.text.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(self.token(token, format!("expected a number for {what}, found '{}'", token.text))),
        }
    }

    /// Parses `N` numbers from `tokens`, or says how many were expected.
    pub fn numbers<const N: usize>(
        &self,
        keyword: &Token<'_>,
        tokens: &[Token<'_>],
        what: &str,
    ) -> Result<[f64; N], MocapError> {
        if tokens.len() != N {
            let at = tokens.get(N).unwrap_or(keyword);
            return Err(self
                .token(at, format!("expected {N} numbers after '{}' ({what}), found {}", keyword.text, tokens.len())));
        }
        let mut out = [0.0; N];
        for (slot, token) in out.iter_mut().zip(tokens) {
            *slot = self.number(token, what, false)?;
        }
        Ok(out)
    }
}

pub fn warning(token: &Token<'_>, message: impl Into<String>) -> MocapWarning {
    MocapWarning { line: token.line, column: token.column, message: message.into() }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ASF: Syntax = Syntax { extra_separators: &['(', ')', ','], hash_comments: true };

    #[test]
    fn tokens_keep_their_columns_and_separators_are_whitespace() {
        let lines = tokenize("  limits (-160.0 20.0)\r\n# only a comment\n\tdof rx # trailing\n", ASF);
        assert_eq!(lines.len(), 2);
        let texts: Vec<_> = lines[0].tokens.iter().map(|t| (t.text, t.column)).collect();
        assert_eq!(texts, vec![("limits", 3), ("-160.0", 11), ("20.0", 18)]);
        assert_eq!(lines[1].number, 3);
        assert_eq!(lines[1].tokens.len(), 2);
    }

    #[test]
    fn infinite_limits_are_read_only_when_allowed() {
        let r = Reporter::new(Path::new("x.asf"));
        let t = Token { text: "-inf", line: 4, column: 9 };
        assert_eq!(r.number(&t, "a limit", true).unwrap(), f64::NEG_INFINITY);
        let e = r.number(&t, "a length", false).unwrap_err();
        assert_eq!(e.to_string(), "x.asf:4:9: expected a number for a length, found '-inf'");
        let exp = Token { text: "7.62852e-016", line: 1, column: 1 };
        assert!((r.number(&exp, "x", false).unwrap() - 7.62852e-16).abs() < 1e-30);
    }
}
