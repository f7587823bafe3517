//! Typed parsers for the X3D field types humanoid files use, from the text of one XML attribute.
//!
//! X3D XML encoding rules: commas count as whitespace; MF types of tuples are flat number lists grouped
//! by their arity (a trailing partial tuple is an error); SFBool is `true`/`false` (the ClassicVRML
//! `TRUE`/`FALSE` is accepted too); MFString is a list of `"quoted"` strings with `\"` and `\\` escapes.
//! Numbers must be finite: X3D has no NaN or infinity, so such a token is an error here and the caller
//! decides whether that stops the load.

use std::fmt;

/// A parse failure inside one field's text.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldParseError {
    /// Byte offset of the offending token in the field text.
    pub offset: usize,
    /// The offending token (empty when the text ended too early).
    pub token: String,
    /// The X3D type being parsed, e.g. `MFInt32`.
    pub type_name: &'static str,
    /// What was expected instead.
    pub expected: String,
}

impl fmt::Display for FieldParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.token.is_empty() {
            write!(f, "{}: {}", self.type_name, self.expected)
        } else {
            write!(f, "{} value '{}' ({})", self.type_name, self.token, self.expected)
        }
    }
}

pub type FieldResult<T> = Result<T, FieldParseError>;

fn is_separator(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b',' | 0x0c)
}

/// Whitespace/comma separated tokens with their byte offsets.
pub fn tokens(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() && is_separator(bytes[i]) {
            i += 1;
        }
        if i >= bytes.len() {
            return None;
        }
        let start = i;
        while i < bytes.len() && !is_separator(bytes[i]) {
            i += 1;
        }
        Some((start, &text[start..i]))
    })
}

fn bad(type_name: &'static str, offset: usize, token: &str, expected: &str) -> FieldParseError {
    // Long tokens (a whole garbage attribute) are cut so that messages stay readable.
    let token: String = token.chars().take(40).collect();
    FieldParseError { offset, token, type_name, expected: expected.to_string() }
}

fn parse_f32_token(type_name: &'static str, offset: usize, token: &str) -> FieldResult<f32> {
    match token.parse::<f32>() {
        Ok(v) if v.is_finite() => Ok(v),
        Ok(_) => Err(bad(type_name, offset, token, "expected a finite number")),
        Err(_) => Err(bad(type_name, offset, token, "expected a number")),
    }
}

fn parse_f64_token(type_name: &'static str, offset: usize, token: &str) -> FieldResult<f64> {
    match token.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        Ok(_) => Err(bad(type_name, offset, token, "expected a finite number")),
        Err(_) => Err(bad(type_name, offset, token, "expected a number")),
    }
}

fn parse_i32_token(type_name: &'static str, offset: usize, token: &str) -> FieldResult<i32> {
    let (negative, digits) = match token.as_bytes().first() {
        Some(b'-') => (true, &token[1..]),
        Some(b'+') => (false, &token[1..]),
        _ => (false, token),
    };
    // X3D allows hexadecimal integers (0x...).
    let (radix, digits) = match digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        Some(hex) => (16, hex),
        None => (10, digits),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(bad(type_name, offset, token, "expected an integer"));
    }
    // Digits only, so the one way to fail is a value too large even for 64 bits.
    let out_of_range = || bad(type_name, offset, token, "integer out of the 32-bit range");
    let magnitude = i64::from_str_radix(digits, radix).map_err(|_| out_of_range())?;
    let value = if negative { -magnitude } else { magnitude };
    i32::try_from(value).map_err(|_| out_of_range())
}

/// A flat list of numbers grouped into tuples of `N`.
fn parse_tuples<const N: usize>(type_name: &'static str, text: &str) -> FieldResult<Vec<[f32; N]>> {
    let mut out = Vec::with_capacity(text.len() / (N * 4) + 1);
    let mut tuple = [0.0f32; N];
    let mut filled = 0;
    let mut count = 0usize;
    let mut tuple_start = 0;
    for (offset, token) in tokens(text) {
        if filled == 0 {
            tuple_start = offset;
        }
        tuple[filled] = parse_f32_token(type_name, offset, token)?;
        filled += 1;
        count += 1;
        if filled == N {
            out.push(tuple);
            filled = 0;
        }
    }
    if filled != 0 {
        // Point at the first number of the incomplete tuple.
        return Err(FieldParseError {
            offset: tuple_start,
            token: String::new(),
            type_name,
            expected: format!("{count} numbers is not a multiple of {N} (trailing partial tuple of {filled})"),
        });
    }
    Ok(out)
}

/// Exactly one tuple of `N` numbers.
fn parse_single<const N: usize>(type_name: &'static str, text: &str) -> FieldResult<[f32; N]> {
    let mut out = [0.0f32; N];
    let mut count = 0;
    for (offset, token) in tokens(text) {
        if count == N {
            return Err(bad(type_name, offset, token, &format!("expected exactly {N} numbers")));
        }
        out[count] = parse_f32_token(type_name, offset, token)?;
        count += 1;
    }
    if count != N {
        return Err(FieldParseError {
            offset: text.len(),
            token: String::new(),
            type_name,
            expected: format!("expected {N} numbers, found {count}"),
        });
    }
    Ok(out)
}

fn parse_one<'t>(type_name: &'static str, text: &'t str) -> FieldResult<(usize, &'t str)> {
    let mut it = tokens(text);
    let Some(first) = it.next() else {
        return Err(FieldParseError {
            offset: 0,
            token: String::new(),
            type_name,
            expected: "expected a value, found nothing".into(),
        });
    };
    if let Some((offset, token)) = it.next() {
        return Err(bad(type_name, offset, token, "expected a single value"));
    }
    Ok(first)
}

pub fn parse_sf_bool(text: &str) -> FieldResult<bool> {
    let (offset, token) = parse_one("SFBool", text)?;
    match token {
        "true" | "TRUE" => Ok(true),
        "false" | "FALSE" => Ok(false),
        _ => Err(bad("SFBool", offset, token, "expected true or false")),
    }
}

pub fn parse_mf_bool(text: &str) -> FieldResult<Vec<bool>> {
    tokens(text)
        .map(|(offset, token)| match token {
            "true" | "TRUE" => Ok(true),
            "false" | "FALSE" => Ok(false),
            _ => Err(bad("MFBool", offset, token, "expected true or false")),
        })
        .collect()
}

pub fn parse_sf_int32(text: &str) -> FieldResult<i32> {
    let (offset, token) = parse_one("SFInt32", text)?;
    parse_i32_token("SFInt32", offset, token)
}

pub fn parse_mf_int32(text: &str) -> FieldResult<Vec<i32>> {
    let mut out = Vec::with_capacity(text.len() / 3 + 1);
    for (offset, token) in tokens(text) {
        out.push(parse_i32_token("MFInt32", offset, token)?);
    }
    Ok(out)
}

pub fn parse_sf_float(text: &str) -> FieldResult<f32> {
    let (offset, token) = parse_one("SFFloat", text)?;
    parse_f32_token("SFFloat", offset, token)
}

pub fn parse_mf_float(text: &str) -> FieldResult<Vec<f32>> {
    let mut out = Vec::with_capacity(text.len() / 4 + 1);
    for (offset, token) in tokens(text) {
        out.push(parse_f32_token("MFFloat", offset, token)?);
    }
    Ok(out)
}

/// SFDouble and SFTime.
pub fn parse_sf_double(text: &str) -> FieldResult<f64> {
    let (offset, token) = parse_one("SFDouble", text)?;
    parse_f64_token("SFDouble", offset, token)
}

pub fn parse_mf_double(text: &str) -> FieldResult<Vec<f64>> {
    tokens(text).map(|(offset, token)| parse_f64_token("MFDouble", offset, token)).collect()
}

pub fn parse_sf_vec2f(text: &str) -> FieldResult<[f32; 2]> {
    parse_single("SFVec2f", text)
}

pub fn parse_mf_vec2f(text: &str) -> FieldResult<Vec<[f32; 2]>> {
    parse_tuples("MFVec2f", text)
}

pub fn parse_sf_vec3f(text: &str) -> FieldResult<[f32; 3]> {
    parse_single("SFVec3f", text)
}

pub fn parse_mf_vec3f(text: &str) -> FieldResult<Vec<[f32; 3]>> {
    parse_tuples("MFVec3f", text)
}

/// SFRotation as written: axis x y z and angle (not normalised here).
pub fn parse_sf_rotation(text: &str) -> FieldResult<[f32; 4]> {
    parse_single("SFRotation", text)
}

pub fn parse_mf_rotation(text: &str) -> FieldResult<Vec<[f32; 4]>> {
    parse_tuples("MFRotation", text)
}

pub fn parse_sf_color(text: &str) -> FieldResult<[f32; 3]> {
    parse_single("SFColor", text)
}

pub fn parse_mf_color(text: &str) -> FieldResult<Vec<[f32; 3]>> {
    parse_tuples("MFColor", text)
}

pub fn parse_sf_color_rgba(text: &str) -> FieldResult<[f32; 4]> {
    parse_single("SFColorRGBA", text)
}

pub fn parse_mf_color_rgba(text: &str) -> FieldResult<Vec<[f32; 4]>> {
    parse_tuples("MFColorRGBA", text)
}

/// MFString: `"a" "b c"` with `\"` and `\\` escapes. Real files often write a single unquoted string
/// (`url='face.png'`); such text is taken as one string, as X3D browsers do.
pub fn parse_mf_string(text: &str) -> FieldResult<Vec<String>> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Ok(Vec::new());
    }
    if !trimmed.starts_with('"') {
        return Ok(vec![trimmed.to_string()]);
    }
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    loop {
        // Skip separators between strings.
        while let Some(&(_, c)) = chars.peek() {
            if c.is_whitespace() || c == ',' {
                chars.next();
            } else {
                break;
            }
        }
        let Some((start, c)) = chars.next() else { break };
        if c != '"' {
            let rest: String = text[start..].chars().take_while(|c| !c.is_whitespace()).collect();
            return Err(bad("MFString", start, &rest, "expected a \"quoted\" string"));
        }
        let mut value = String::new();
        let mut closed = false;
        while let Some((_, c)) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some((_, escaped)) => value.push(escaped),
                    None => break,
                },
                '"' => {
                    closed = true;
                    break;
                }
                _ => value.push(c),
            }
        }
        if !closed {
            return Err(FieldParseError {
                offset: start,
                token: String::new(),
                type_name: "MFString",
                expected: format!("string starting at byte {start} has no closing quote"),
            });
        }
        out.push(value);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commas_are_whitespace_and_numbers_take_x3d_forms() {
        assert_eq!(parse_mf_vec3f("1 2 3, .5 -1. +2e1").unwrap(), vec![[1.0, 2.0, 3.0], [0.5, -1.0, 20.0]]);
        assert_eq!(parse_mf_int32("0 1 -1, 0x1F").unwrap(), vec![0, 1, -1, 31]);
        assert_eq!(parse_sf_rotation("0 1 0 1.57").unwrap(), [0.0, 1.0, 0.0, 1.57]);
        assert!(parse_mf_float("").unwrap().is_empty());
    }

    #[test]
    fn bad_tokens_report_offset_and_type() {
        let e = parse_mf_int32("1 2 x 4").unwrap_err();
        assert_eq!((e.offset, e.token.as_str(), e.type_name), (4, "x", "MFInt32"));
        assert!(e.to_string().contains("MFInt32 value 'x'"));
        let e = parse_mf_vec3f("1 2 3 4").unwrap_err();
        assert!(e.expected.contains("not a multiple of 3"), "{e}");
        assert!(parse_sf_vec3f("1 2").is_err());
        assert!(parse_sf_vec3f("1 2 3 4").is_err());
        assert!(parse_sf_int32("2147483648").is_err());
        assert!(parse_mf_float("1 NaN").is_err());
        assert!(parse_mf_float("1 inf").is_err());
        assert!(parse_sf_float("1e39").is_err(), "overflows f32");
        assert!(parse_sf_bool("yes").is_err());
    }

    #[test]
    fn mfstring_quoting() {
        assert_eq!(parse_mf_string(r#""a b" "c\"d" "e\\f""#).unwrap(), vec!["a b", "c\"d", "e\\f"]);
        assert_eq!(parse_mf_string("face.png").unwrap(), vec!["face.png"]);
        assert_eq!(parse_mf_string(r#""a","b""#).unwrap(), vec!["a", "b"]);
        assert!(parse_mf_string(r#""open"#).is_err());
        assert!(parse_mf_string(r#""a" b"#).is_err());
        assert!(parse_mf_string("  ").unwrap().is_empty());
    }

    #[test]
    fn bools() {
        assert!(parse_sf_bool(" true ").unwrap());
        assert!(!parse_sf_bool("FALSE").unwrap());
        assert_eq!(parse_mf_bool("true false,TRUE").unwrap(), vec![true, false, true]);
    }
}
