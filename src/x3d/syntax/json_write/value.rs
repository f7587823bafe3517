//! JSON values: attribute text turned into the JSON its type calls for, and written with indentation
//! (numeric arrays on one line, so a large mesh stays readable).

use std::fmt::Write as _;

/// A JSON value as the writer builds it: objects keep their members in the order written.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Json {
    Str(String),
    /// A number in JSON's syntax.
    Num(String),
    Bool(bool),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    pub(super) fn write(&self, out: &mut String, depth: usize) {
        match self {
            Json::Str(s) => out.push_str(&quote(s)),
            Json::Num(n) => out.push_str(n),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Arr(items) if items.iter().all(|i| matches!(i, Json::Num(_) | Json::Bool(_) | Json::Str(_))) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out, depth);
                }
                out.push(']');
            }
            Json::Arr(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    out.push_str(if i > 0 { ",\n" } else { "\n" });
                    indent(out, depth + 1);
                    item.write(out, depth + 1);
                }
                out.push('\n');
                indent(out, depth);
                out.push(']');
            }
            Json::Obj(members) if members.is_empty() => out.push_str("{}"),
            Json::Obj(members) => {
                out.push('{');
                for (i, (key, value)) in members.iter().enumerate() {
                    out.push_str(if i > 0 { ",\n" } else { "\n" });
                    indent(out, depth + 1);
                    let _ = write!(out, "{}: ", quote(key));
                    value.write(out, depth + 1);
                }
                out.push('\n');
                indent(out, depth);
                out.push('}');
            }
        }
    }
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

/// A string in JSON's syntax (serde_json's escaping).
fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_string())
}

/// Attribute text as the JSON of its declared type (`None`: unknown, see the module notes).
pub(super) fn typed(ty: Option<&str>, text: &str) -> Json {
    let Some(ty) = ty else { return guessed(text) };
    match ty {
        "SFString" => Json::Str(text.to_string()),
        "MFString" => Json::Arr(super::mf_strings(text).into_iter().map(Json::Str).collect()),
        "SFBool" => boolean(text.trim()),
        "MFBool" => Json::Arr(tokens(text).map(boolean).collect()),
        "SFInt32" | "SFFloat" | "SFDouble" | "SFTime" => match tokens(text).next() {
            Some(t) => number(t),
            None => Json::Str(String::new()),
        },
        "SFNode" | "MFNode" => Json::Str(text.to_string()),
        _ => Json::Arr(tokens(text).map(number).collect()),
    }
}

/// The value of an attribute whose type is not declared.
fn guessed(text: &str) -> Json {
    let all: Vec<&str> = tokens(text).collect();
    if !all.is_empty() && all.iter().all(|t| json_number(t).is_some()) {
        return if all.len() == 1 { number(all[0]) } else { Json::Arr(all.into_iter().map(number).collect()) };
    }
    match text.trim() {
        "true" | "TRUE" => Json::Bool(true),
        "false" | "FALSE" => Json::Bool(false),
        _ => Json::Str(text.to_string()),
    }
}

fn tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty())
}

fn boolean(token: &str) -> Json {
    match token {
        "true" | "TRUE" => Json::Bool(true),
        "false" | "FALSE" => Json::Bool(false),
        other => Json::Str(other.to_string()),
    }
}

fn number(token: &str) -> Json {
    match json_number(token) {
        Some(n) => Json::Num(n),
        None => Json::Str(token.to_string()),
    }
}

/// A number token in JSON's syntax: kept as written when JSON allows it, otherwise rewritten with the
/// same value (`.5` → `0.5`, `1.` → `1`, `+1` → `1`, `0x1F` → `31`); `None` when it is no number.
pub(super) fn json_number(token: &str) -> Option<String> {
    if is_json_number(token) {
        return Some(token.to_string());
    }
    let (negative, digits) = match token.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, token.strip_prefix('+').unwrap_or(token)),
    };
    if let Some(hex) = digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        let value = i64::from_str_radix(hex, 16).ok()?;
        return Some(if negative { format!("-{value}") } else { value.to_string() });
    }
    let value: f64 = token.parse().ok()?;
    value.is_finite().then(|| format!("{value}"))
}

/// JSON's number grammar (RFC 8259 section 6).
fn is_json_number(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(c) if c.is_ascii_digit() => {
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_json_forbids_are_rewritten_with_the_same_value() {
        assert_eq!(json_number("1.5e-3").as_deref(), Some("1.5e-3"));
        assert_eq!(json_number(".5").as_deref(), Some("0.5"));
        assert_eq!(json_number("1.").as_deref(), Some("1"));
        assert_eq!(json_number("+2").as_deref(), Some("2"));
        assert_eq!(json_number("-0x1F").as_deref(), Some("-31"));
        assert_eq!(json_number("01").as_deref(), Some("1"));
        assert_eq!(json_number("x"), None);
        assert_eq!(json_number("nan"), None);
    }

    #[test]
    fn values_follow_their_types() {
        assert_eq!(
            typed(Some("SFVec3f"), "0 1.5 .5"),
            Json::Arr(vec![Json::Num("0".into()), Json::Num("1.5".into()), Json::Num("0.5".into())])
        );
        assert_eq!(typed(Some("SFBool"), "TRUE"), Json::Bool(true));
        assert_eq!(
            typed(Some("MFString"), r#""a" "b\"c""#),
            Json::Arr(vec![Json::Str("a".into()), Json::Str("b\"c".into())])
        );
        assert_eq!(typed(Some("SFString"), "a \"b\""), Json::Str("a \"b\"".into()));
        assert_eq!(typed(Some("SFInt32"), "3"), Json::Num("3".into()));
        assert_eq!(typed(None, "1 2"), Json::Arr(vec![Json::Num("1".into()), Json::Num("2".into())]));
        assert_eq!(typed(None, "hello"), Json::Str("hello".into()));
    }
}
