//! Attribute text → a classic field value, by the field's type.
//!
//! SFString is quoted with `"` and `\` escaped; MFString (the XML form `"a" "b"`, read with
//! [`parse_mf_string`]) is `[ "a" "b" ]`; booleans are `TRUE`/`FALSE`; numbers are the attribute's own
//! tokens, MF values in `[ ]` with tuples separated by commas. Long values wrap at tuple boundaries.
//!
//! A field whose type is unknown (an element or field the standard's table and the interfaces do not
//! declare) is written by what its text is: numbers and booleans as they parse (several in `[ ]`),
//! anything else as one quoted string, which the reader reads back as the same attribute text.

use super::quote;
use crate::x3d::fields::{parse_mf_string, tokens};

/// How many characters of a value (indentation aside, so deep nodes wrap no sooner) one line holds.
const WIDTH: usize = 90;

pub(super) fn pad(indent: usize) -> String {
    "  ".repeat(indent)
}

/// The classic text of attribute text `text` of a field of type `ty`, for a line at `indent` (wrapped
/// lines go one level deeper).
pub(super) fn value(ty: Option<&str>, text: &str, indent: usize) -> String {
    let words = || tokens(text).map(|(_, w)| w.to_string()).collect::<Vec<_>>();
    match ty {
        Some("SFString") => quote(text),
        Some("MFString") => match parse_mf_string(text) {
            Ok(strings) => list(strings.iter().map(|s| quote(s)).collect(), 1, indent),
            // Not the MFString form (an unclosed quote): kept whole as one string.
            Err(_) => list(vec![quote(text)], 1, indent),
        },
        Some("SFBool") => words().iter().map(|w| boolean(w)).collect::<Vec<_>>().join(" "),
        Some("MFBool") => list(words().iter().map(|w| boolean(w)).collect(), 1, indent),
        Some(ty) if ty.starts_with("MF") => list(words(), arity(ty), indent),
        Some(_) => wrapped(words(), indent),
        None => {
            let words = words();
            if words.is_empty() || !words.iter().all(|w| is_number(w) || is_boolean(w)) {
                return quote(text);
            }
            let words: Vec<String> = words.iter().map(|w| boolean(w)).collect();
            if words.len() == 1 { words.concat() } else { list(words, 1, indent) }
        }
    }
}

/// The value of a declared field left without one in the XML encoding: the type's default (X3D 5.2).
pub(super) fn default_value(ty: &str) -> &'static str {
    match ty {
        "SFBool" => "FALSE",
        "SFInt32" | "SFFloat" | "SFDouble" => "0",
        "SFTime" => "-1",
        "SFString" => "\"\"",
        "SFVec2f" | "SFVec2d" => "0 0",
        "SFVec3f" | "SFVec3d" | "SFColor" => "0 0 0",
        "SFVec4f" | "SFVec4d" | "SFColorRGBA" => "0 0 0 0",
        "SFRotation" => "0 0 1 0",
        "SFImage" => "0 0 0",
        "SFMatrix3f" | "SFMatrix3d" => "1 0 0 0 1 0 0 0 1",
        "SFMatrix4f" | "SFMatrix4d" => "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1",
        "SFNode" => "NULL",
        _ => "[ ]",
    }
}

/// `true`/`false` as `TRUE`/`FALSE`; any other word unchanged.
fn boolean(word: &str) -> String {
    match word {
        "true" | "TRUE" => "TRUE".to_string(),
        "false" | "FALSE" => "FALSE".to_string(),
        _ => word.to_string(),
    }
}

fn is_boolean(word: &str) -> bool {
    matches!(word, "true" | "false" | "TRUE" | "FALSE")
}

/// Whether a word is a number VRML accepts: decimal, exponent or (signed) hexadecimal.
fn is_number(word: &str) -> bool {
    let digits = word.strip_prefix(['+', '-']).unwrap_or(word);
    if let Some(hex) = digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        return !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit());
    }
    // Rust's float grammar also takes "inf" and "NaN", which do not start with a digit or '.'.
    digits.starts_with(|c: char| c.is_ascii_digit() || c == '.') && word.parse::<f64>().is_ok()
}

/// How many numbers make one value of an MF type.
fn arity(ty: &str) -> usize {
    match &ty[2..] {
        "Vec2f" | "Vec2d" => 2,
        "Vec3f" | "Vec3d" | "Color" => 3,
        "Vec4f" | "Vec4d" | "ColorRGBA" | "Rotation" => 4,
        "Matrix3f" | "Matrix3d" => 9,
        "Matrix4f" | "Matrix4d" => 16,
        _ => 1,
    }
}

/// `[ a b, c d ]` (tuples of `arity` words), over several lines when long.
fn list(words: Vec<String>, arity: usize, indent: usize) -> String {
    if words.is_empty() {
        return "[ ]".to_string();
    }
    let separator = if arity > 1 { ", " } else { " " };
    let groups: Vec<String> = words.chunks(arity).map(|tuple| tuple.join(" ")).collect();
    let one_line = format!("[ {} ]", groups.join(separator));
    if one_line.len() <= WIDTH && !one_line.contains('\n') {
        return one_line;
    }
    let inner = pad(indent + 1);
    let mut out = String::from("[\n");
    let mut line = String::new();
    for (i, group) in groups.iter().enumerate() {
        let last = i + 1 == groups.len();
        let piece = if arity > 1 && !last { format!("{group},") } else { group.clone() };
        if !line.is_empty() && line.len() + 1 + piece.len() > WIDTH {
            out.push_str(&format!("{inner}{line}\n"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&piece);
    }
    out.push_str(&format!("{inner}{line}\n{}]", pad(indent)));
    out
}

/// Words on one line, or wrapped one level deeper when long (an SFImage).
fn wrapped(words: Vec<String>, indent: usize) -> String {
    let one_line = words.join(" ");
    if one_line.len() <= WIDTH {
        return one_line;
    }
    let inner = pad(indent + 1);
    let mut out = String::new();
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.len() + 1 + word.len() > WIDTH {
            out.push_str(&line);
            out.push('\n');
            out.push_str(&inner);
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    out.push_str(&line);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_by_type() {
        assert_eq!(value(Some("SFString"), "a\"b\\c", 0), r#""a\"b\\c""#);
        assert_eq!(value(Some("MFString"), r#""a" "b\"c""#, 0), r#"[ "a" "b\"c" ]"#);
        assert_eq!(value(Some("MFString"), "", 0), "[ ]");
        assert_eq!(value(Some("SFBool"), "true", 0), "TRUE");
        assert_eq!(value(Some("MFBool"), "true false", 0), "[ TRUE FALSE ]");
        assert_eq!(value(Some("MFVec3f"), "1 2 3, 4 5 6", 0), "[ 1 2 3, 4 5 6 ]");
        assert_eq!(value(Some("SFVec3f"), "1,2,3", 0), "1 2 3");
        assert_eq!(value(None, "1 2", 0), "[ 1 2 ]");
        assert_eq!(value(None, "true", 0), "TRUE");
        assert_eq!(value(None, "abc", 0), "\"abc\"");
        assert_eq!(value(None, "1 inf", 0), "\"1 inf\"");
        assert_eq!(default_value("SFRotation"), "0 0 1 0");
    }

    #[test]
    fn long_lists_wrap_at_tuples() {
        let text: Vec<String> = (0..60).map(|i| i.to_string()).collect();
        let written = value(Some("MFVec3f"), &text.join(" "), 1);
        let lines: Vec<&str> = written.lines().collect();
        assert_eq!(lines[0], "[");
        assert_eq!(*lines.last().unwrap(), "  ]");
        assert!(lines.iter().all(|l| l.trim_start().len() <= WIDTH), "{written}");
        assert!(lines[1].starts_with("    0 1 2, 3 4 5,"), "{written}");
        let joined: String = lines[1..lines.len() - 1].join(" ");
        assert_eq!(joined.split([' ', ',']).filter(|w| !w.is_empty()).count(), 60);
    }
}
