//! JSON text into a compact tree, without recursion: `jsonc_parser`'s scanner (strict: no comments,
//! no single quotes, no hexadecimal, `+`, `.5` or non-finite numbers, no JSON5 escapes) gives the tokens and their byte offsets, and an
//! explicit stack assembles them, so the call stack never grows with the document's nesting.
//!
//! Arrays that hold values (numbers, booleans, strings, arrays of them) are kept as the X3D XML
//! attribute text they stand for (see [`Values`]) plus where each scalar starts, never as one tree
//! node per number: a skin of a million points costs its text and four bytes a number, as the XML
//! reader's attribute text does.

use std::path::Path;

use jsonc_parser::errors::ParseError;
use jsonc_parser::tokens::Token;
use jsonc_parser::{Scanner, ScannerOptions};

use crate::x3d::error::X3dError;

/// How deeply arrays and objects may nest. X3D JSON spends three levels per node (the entry object,
/// the node's object, the field's array), so this allows over 300 nested nodes, far more than any
/// humanoid's joint chain; deeper documents are refused with an error at the bracket that goes too
/// deep, so that no later walk over the tree can exhaust the stack.
const MAX_DEPTH: usize = 1000;

/// A parsed JSON value and where it is (`start..end`, byte offsets in the text).
#[derive(Debug)]
pub(super) struct Json {
    pub(super) start: u32,
    pub(super) end: u32,
    pub(super) value: JsonValue,
}

#[derive(Debug)]
pub(super) enum JsonValue {
    String(String),
    /// A number, as written (its text is `start..end`).
    Number,
    Bool(bool),
    Null,
    /// An array without objects (possibly empty, possibly of arrays).
    Values(Values),
    /// An array of objects.
    Objects(Vec<Json>),
    Object(Vec<Member>),
}

/// One `"name": value` of an object.
#[derive(Debug)]
pub(super) struct Member {
    pub(super) name: String,
    /// Where the name starts.
    pub(super) offset: u32,
    pub(super) value: Json,
}

/// The scalars of an array of values, nested arrays flattened, as X3D XML attribute text: numbers as
/// written, `true`/`false`, strings in the MFString form `"a" "b"` (with `\"` and `\\` escapes), one
/// space between items.
#[derive(Debug, Default)]
pub(super) struct Values {
    pub(super) text: String,
    /// Where each scalar starts in the JSON text.
    pub(super) starts: Vec<u32>,
    /// How many of the scalars are strings.
    pub(super) strings: usize,
}

impl Values {
    fn push(&mut self, start: u32, scalar: &Scalar, source: &str) {
        if !self.starts.is_empty() {
            self.text.push(' ');
        }
        self.starts.push(start);
        match scalar {
            Scalar::Number(end) => self.text.push_str(&source[start as usize..*end as usize]),
            Scalar::Bool(b) => self.text.push_str(if *b { "true" } else { "false" }),
            Scalar::String(s) => {
                self.strings += 1;
                self.text.reserve(s.len() + 2);
                self.text.push('"');
                for c in s.chars() {
                    if c == '"' || c == '\\' {
                        self.text.push('\\');
                    }
                    self.text.push(c);
                }
                self.text.push('"');
            }
        }
    }

    /// The strings of an array of strings, unquoted again.
    pub(super) fn strings(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut chars = self.text.chars();
        while let Some(c) = chars.next() {
            if c != '"' {
                continue;
            }
            let mut string = String::new();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => string.extend(chars.next()),
                    '"' => break,
                    c => string.push(c),
                }
            }
            out.push(string);
        }
        out
    }
}

/// A scalar token's value.
enum Scalar {
    String(String),
    /// A number ending at this offset.
    Number(u32),
    Bool(bool),
}

/// An array or object being read.
enum Open {
    Object {
        start: u32,
        members: Vec<Member>,
        key: Option<(String, u32)>,
    },
    /// An array whose kind is decided by its first item.
    Array {
        start: u32,
        items: Items,
    },
    /// An array inside an array of values: its scalars go to the `Values` of the frame at `owner`.
    Nested {
        start: u32,
        owner: usize,
    },
}

enum Items {
    Undecided,
    Values(Values),
    Objects(Vec<Json>),
}

/// What the next token may be.
#[derive(Clone, Copy, PartialEq)]
enum Expect {
    /// A value (the document's, a member's after `:`, an array item after `,`).
    Value,
    /// An array item or `]` (after `[`).
    ValueOrClose,
    /// A member name or `}` (after `{`).
    KeyOrClose,
    /// A member name (after `,` in an object).
    Key,
    Colon,
    CommaOrClose,
    /// Nothing: the document's value is complete.
    End,
}

struct Parser<'a> {
    text: &'a str,
    path: &'a Path,
    stack: Vec<Open>,
    root: Option<Json>,
}

/// Parses `text` (strict JSON) into a tree; `path` names it in messages.
pub(super) fn parse(text: &str, path: &Path) -> Result<Json, X3dError> {
    if text.len() > u32::MAX as usize {
        return Err(super::super::error_at(text, path, 0, "the file is too large for X3D JSON (over 4 GiB)"));
    }
    let options = ScannerOptions {
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    let mut scanner = Scanner::new(text, &options);
    let mut parser = Parser { text, path, stack: Vec::new(), root: None };
    let mut expect = Expect::Value;
    loop {
        let token = scanner.scan().map_err(|e| parser.scan_error(&e))?;
        let start = scanner.token_start() as u32;
        let end = scanner.token_end() as u32;
        let Some(token) = token else {
            return match (expect, parser.root.take()) {
                (Expect::End, Some(root)) => Ok(root),
                _ => Err(parser.error(start, parser.unexpected_end())),
            };
        };
        expect = match (expect, token) {
            (_, Token::CommentLine(_) | Token::CommentBlock(_)) => {
                return Err(parser.error(start, "comments are not allowed in JSON"));
            }
            (Expect::End, _) => return Err(parser.error(start, "text after the end of the JSON document")),
            (Expect::Colon, Token::Colon) => Expect::Value,
            (Expect::Colon, _) => return Err(parser.error(start, "expected ':' after the member name")),
            (Expect::KeyOrClose | Expect::Key, Token::String(name)) => {
                if let Some(Open::Object { key, .. }) = parser.stack.last_mut() {
                    *key = Some((name.into_owned(), start));
                }
                Expect::Colon
            }
            (Expect::KeyOrClose, Token::CloseBrace) => parser.close_object(end)?,
            (Expect::Key, Token::CloseBrace) => {
                return Err(parser.error(start, "a trailing comma before '}' is not allowed in JSON"));
            }
            (Expect::KeyOrClose | Expect::Key, _) => {
                return Err(parser.error(start, "expected a member name in double quotes"));
            }
            (Expect::CommaOrClose, Token::Comma) => match parser.stack.last() {
                Some(Open::Object { .. }) => Expect::Key,
                _ => Expect::Value,
            },
            (Expect::CommaOrClose | Expect::ValueOrClose, Token::CloseBrace) => match parser.stack.last() {
                Some(Open::Object { .. }) => parser.close_object(end)?,
                _ => return Err(parser.error(start, "expected ',' or ']'")),
            },
            (Expect::CommaOrClose | Expect::ValueOrClose, Token::CloseBracket) => match parser.stack.last() {
                Some(Open::Object { .. }) => return Err(parser.error(start, "expected ',' or '}'")),
                _ => parser.close_array(end)?,
            },
            (Expect::CommaOrClose, _) => {
                let closer = if matches!(parser.stack.last(), Some(Open::Object { .. })) { '}' } else { ']' };
                return Err(parser.error(start, format!("expected ',' or '{closer}'")));
            }
            (Expect::Value, Token::CloseBracket) if !parser.stack.is_empty() => {
                return Err(parser.error(start, "a trailing comma before ']' is not allowed in JSON"));
            }
            (Expect::Value | Expect::ValueOrClose, Token::OpenBrace) => {
                parser.open_object(start)?;
                Expect::KeyOrClose
            }
            (Expect::Value | Expect::ValueOrClose, Token::OpenBracket) => {
                parser.open_array(start)?;
                Expect::ValueOrClose
            }
            (Expect::Value | Expect::ValueOrClose, Token::String(s)) => {
                parser.scalar(start, end, Scalar::String(s.into_owned()))?
            }
            (Expect::Value | Expect::ValueOrClose, Token::Number(_)) => {
                parser.scalar(start, end, Scalar::Number(end))?
            }
            (Expect::Value | Expect::ValueOrClose, Token::Boolean(b)) => parser.scalar(start, end, Scalar::Bool(b))?,
            (Expect::Value | Expect::ValueOrClose, Token::Null) => parser.null(start, end)?,
            (Expect::Value | Expect::ValueOrClose, Token::Word(word)) => {
                let shown: String = word.chars().take(20).collect();
                return Err(parser.error(start, format!("unexpected word '{shown}' (strings need double quotes)")));
            }
            (Expect::Value | Expect::ValueOrClose, _) => return Err(parser.error(start, "expected a value")),
        };
    }
}

impl Parser<'_> {
    fn error(&self, offset: u32, message: impl Into<String>) -> X3dError {
        super::super::error_at(self.text, self.path, offset as usize, format!("malformed JSON: {}", message.into()))
    }

    /// A token the scanner refused (a bad string, number or word), in this project's lower-case style.
    fn scan_error(&self, e: &ParseError) -> X3dError {
        let text = e.kind().to_string();
        let mut chars = text.chars();
        let what: String = chars.next().map(|c| c.to_lowercase().chain(chars).collect()).unwrap_or_default();
        self.error(e.range().start as u32, what)
    }

    fn unexpected_end(&self) -> String {
        match self.stack.last() {
            None => "the file holds no JSON value".to_string(),
            Some(open) => {
                let (kind, start) = match open {
                    Open::Object { start, .. } => ("object", *start),
                    Open::Array { start, .. } => ("array", *start),
                    Open::Nested { start, .. } => ("array", *start),
                };
                let file = crate::x3d::scene::SourceFile::new(self.path.to_path_buf(), self.text.as_bytes());
                format!("unexpected end of file: the {kind} opened at {} is not closed", file.line_col(start))
            }
        }
    }

    fn push(&mut self, open: Open, start: u32) -> Result<(), X3dError> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(super::super::error_at(
                self.text,
                self.path,
                start as usize,
                format!("arrays and objects nested more than {MAX_DEPTH} deep; refused"),
            ));
        }
        self.stack.push(open);
        Ok(())
    }

    /// The frame whose `Values` collect the scalars of an array of values at the top of the stack.
    fn values_owner(&self) -> Option<usize> {
        match self.stack.last()? {
            Open::Nested { owner, .. } => Some(*owner),
            Open::Array { items: Items::Values(_), .. } => Some(self.stack.len() - 1),
            _ => None,
        }
    }

    fn open_object(&mut self, start: u32) -> Result<(), X3dError> {
        if self.values_owner().is_some() {
            return Err(self.error_where_value_belongs(start));
        }
        self.push(Open::Object { start, members: Vec::new(), key: None }, start)
    }

    fn open_array(&mut self, start: u32) -> Result<(), X3dError> {
        if let Some(Open::Array { items: items @ Items::Undecided, .. }) = self.stack.last_mut() {
            *items = Items::Values(Values::default());
        }
        match (self.values_owner(), self.stack.last()) {
            (Some(owner), _) => self.push(Open::Nested { start, owner }, start),
            (None, Some(Open::Array { items: Items::Objects(_), .. })) => {
                Err(self.error(start, "an array where an object belongs"))
            }
            _ => self.push(Open::Array { start, items: Items::Undecided }, start),
        }
    }

    fn error_where_value_belongs(&self, start: u32) -> X3dError {
        self.error(start, "an object in an array of values (arrays hold either values or objects)")
    }

    /// A scalar value at `start..end`.
    fn scalar(&mut self, start: u32, end: u32, scalar: Scalar) -> Result<Expect, X3dError> {
        if let Some(Open::Array { items: items @ Items::Undecided, .. }) = self.stack.last_mut() {
            *items = Items::Values(Values::default());
        }
        if let Some(owner) = self.values_owner() {
            if let Some(Open::Array { items: Items::Values(values), .. }) = self.stack.get_mut(owner) {
                values.push(start, &scalar, self.text);
            }
            return Ok(Expect::CommaOrClose);
        }
        if let Some(Open::Array { items: Items::Objects(_), .. }) = self.stack.last() {
            return Err(self.error(start, "a value in an array of objects (arrays hold either values or objects)"));
        }
        let value = match scalar {
            Scalar::String(s) => JsonValue::String(s),
            Scalar::Number(_) => JsonValue::Number,
            Scalar::Bool(b) => JsonValue::Bool(b),
        };
        self.complete(Json { start, end, value })
    }

    fn null(&mut self, start: u32, end: u32) -> Result<Expect, X3dError> {
        match self.stack.last() {
            Some(Open::Object { .. }) | None => self.complete(Json { start, end, value: JsonValue::Null }),
            Some(_) => Err(self.error(start, "null in an array (X3D values are numbers, booleans and strings)")),
        }
    }

    fn close_object(&mut self, end: u32) -> Result<Expect, X3dError> {
        match self.stack.pop() {
            Some(Open::Object { start, members, .. }) => {
                self.complete(Json { start, end, value: JsonValue::Object(members) })
            }
            _ => Err(self.error(end.saturating_sub(1), "unexpected '}'")),
        }
    }

    fn close_array(&mut self, end: u32) -> Result<Expect, X3dError> {
        match self.stack.pop() {
            Some(Open::Nested { .. }) => Ok(Expect::CommaOrClose),
            Some(Open::Array { start, items }) => {
                let value = match items {
                    Items::Undecided => JsonValue::Values(Values::default()),
                    Items::Values(v) => JsonValue::Values(v),
                    Items::Objects(o) => JsonValue::Objects(o),
                };
                self.complete(Json { start, end, value })
            }
            _ => Err(self.error(end.saturating_sub(1), "unexpected ']'")),
        }
    }

    /// A complete value goes to what holds it: a member of the open object, an item of the open array,
    /// or the document.
    fn complete(&mut self, json: Json) -> Result<Expect, X3dError> {
        match self.stack.last_mut() {
            None => {
                self.root = Some(json);
                Ok(Expect::End)
            }
            Some(Open::Object { members, key, .. }) => {
                if let Some((name, offset)) = key.take() {
                    members.push(Member { name, offset, value: json });
                }
                Ok(Expect::CommaOrClose)
            }
            Some(Open::Array { items, .. }) => {
                match items {
                    Items::Undecided => *items = Items::Objects(vec![json]),
                    Items::Objects(list) => list.push(json),
                    // Only objects complete inside an array (scalars and nested arrays are handled
                    // before), and an object cannot open in an array of values.
                    Items::Values(_) => return Err(self.error_where_value_belongs(json.start)),
                }
                Ok(Expect::CommaOrClose)
            }
            Some(Open::Nested { .. }) => Err(self.error_where_value_belongs(json.start)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_ok(text: &str) -> Json {
        parse(text, Path::new("t.x3dj")).unwrap_or_else(|e| panic!("{e}"))
    }

    fn parse_err(text: &str) -> String {
        parse(text, Path::new("t.x3dj")).unwrap_err().to_string()
    }

    #[test]
    fn values_become_attribute_text_with_scalar_offsets() {
        let json = parse_ok(r#"{"a": [1, -2.5e3, [true, "x \"y\\"]], "b": []}"#);
        let JsonValue::Object(members) = json.value else { panic!() };
        let JsonValue::Values(v) = &members[0].value.value else { panic!() };
        assert_eq!(v.text, r#"1 -2.5e3 true "x \"y\\""#);
        assert_eq!(v.starts, [7, 10, 19, 25]);
        assert_eq!(v.strings(), ["x \"y\\"]);
        assert!(matches!(&members[1].value.value, JsonValue::Values(v) if v.text.is_empty()));
    }

    #[test]
    fn strict_json_errors_have_positions() {
        assert!(parse_err("{\"a\": 1,}").starts_with("t.x3dj:1:9: malformed JSON: a trailing comma"));
        assert!(parse_err("{\"a\": [1,]}").contains("1:10: malformed JSON: a trailing comma"));
        assert!(parse_err("{\"a\": 1 // c\n}").contains("comments are not allowed"));
        assert!(parse_err("{\"a\": 'x'}").contains("1:7: malformed JSON: single-quoted"));
        assert!(parse_err("{\"a\": 0x1F}").contains("hexadecimal"));
        assert!(parse_err("{\"a\": +1}").contains("unary plus"));
        assert!(parse_err("{a: 1}").contains("1:2: malformed JSON: expected a member name"));
        assert!(parse_err("{\"a\" 1}").contains("expected ':'"));
        assert!(parse_err("{\"a\": 1} {}").contains("1:10: malformed JSON: text after the end"));
        assert!(parse_err("{\"a\": [1, 2}").contains("expected ',' or ']'"));
        let e = parse_err("{\"a\": nope}");
        assert!(e.starts_with("t.x3dj:1:7: malformed JSON: unexpected"), "{e}");
        assert!(parse_err("").contains("holds no JSON value"));
        let open = parse_err("{\n  \"a\": [1,\n  2");
        assert!(open.contains("t.x3dj:3:4: malformed JSON: unexpected end of file: the array opened at 2:8"), "{open}");
    }

    #[test]
    fn arrays_hold_values_or_objects_not_both() {
        assert!(parse_err("{\"a\": [1, {}]}").contains("1:11: malformed JSON: an object in an array of values"));
        assert!(parse_err("{\"a\": [{}, 1]}").contains("1:12: malformed JSON: a value in an array of objects"));
        assert!(parse_err("{\"a\": [{}, []]}").contains("an array where an object belongs"));
        assert!(parse_err("{\"a\": [[{}]]}").contains("an object in an array of values"));
        assert!(parse_err("{\"a\": [null]}").contains("null in an array"));
    }

    #[test]
    fn deep_nesting_is_refused_without_recursion() {
        let deep = "[".repeat(100_000);
        let e = parse_err(&deep);
        assert!(e.contains(&format!("nested more than {MAX_DEPTH} deep")), "{e}");
        assert!(e.starts_with(&format!("t.x3dj:1:{}:", MAX_DEPTH + 1)), "{e}");
        let ok = format!("{}1{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(matches!(parse_ok(&ok).value, JsonValue::Values(v) if v.text == "1"));
    }
}
