//! Tokens of the VRML97 / ClassicVRML syntax (ISO/IEC 14772-1 §5, X3D 19776-2 §5).
//!
//! Commas are whitespace, `#` starts a comment that runs to the end of the line (outside strings), strings
//! are `"…"` with `\"` and `\\` escapes (a backslash before any other character is kept, as X_ITE and
//! view3dscene keep it). Numbers are checked here, so a malformed one is reported where
//! it is written. Comment spans are remembered so that the text of a field value can be handed on with
//! its comments blanked out and every byte offset unchanged.

/// What a token is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    /// A name or keyword (`Transform`, `DEF`, `TRUE`, `H-Anim:1`).
    Ident(String),
    /// A number as written (decimal, exponent or `0x` hexadecimal).
    Number,
    /// A quoted string, escapes resolved.
    Str(String),
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    /// The `.` between a node name and a field name in ROUTE statements.
    Period,
    Eof,
}

/// A token and the byte range it covers in the text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub kind: Tok,
    pub start: usize,
    pub end: usize,
}

impl Token {
    /// How the token reads in an error message.
    pub fn describe(&self, text: &str) -> String {
        match &self.kind {
            Tok::Ident(name) => format!("'{name}'"),
            Tok::Number => format!("number '{}'", &text[self.start..self.end]),
            Tok::Str(s) => {
                let shown: String = s.chars().take(30).collect();
                format!("string \"{shown}\"")
            }
            Tok::LBracket => "'['".into(),
            Tok::RBracket => "']'".into(),
            Tok::LBrace => "'{'".into(),
            Tok::RBrace => "'}'".into(),
            Tok::Period => "'.'".into(),
            Tok::Eof => "the end of the file".into(),
        }
    }

    pub fn is_ident(&self, word: &str) -> bool {
        matches!(&self.kind, Tok::Ident(w) if w == word)
    }
}

/// A lexing failure: byte offset and message.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LexError {
    pub offset: usize,
    pub message: String,
}

pub(crate) struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    peeked: Option<Token>,
    /// Byte ranges of every comment read so far, in order.
    pub comments: Vec<(usize, usize)>,
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b',' | 0x0c)
}

/// Characters that end an identifier (VRML97 §5.7: IdRestChars exclude these and control characters).
fn ends_ident(b: u8) -> bool {
    b <= 0x20 || b == 0x7f || matches!(b, b'"' | b'#' | b'\'' | b',' | b'.' | b'[' | b'\\' | b']' | b'{' | b'}')
}

fn starts_number(bytes: &[u8], i: usize) -> bool {
    let at = |k: usize| bytes.get(i + k).copied().unwrap_or(0);
    match at(0) {
        b'0'..=b'9' => true,
        b'.' => at(1).is_ascii_digit(),
        b'+' | b'-' => at(1).is_ascii_digit() || (at(1) == b'.' && at(2).is_ascii_digit()),
        _ => false,
    }
}

/// Whether `s` is a number VRML accepts: a decimal float or a (signed) `0x` hexadecimal integer.
fn valid_number(s: &str) -> bool {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if let Some(hex) = digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        return !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit());
    }
    // Rust's float grammar also takes "inf" and "NaN", which cannot start with a digit or '.', so after
    // starts_number the only difference left is that VRML has none of those words.
    s.parse::<f64>().is_ok()
}

/// Whether a word that starts like a number holds letters no number has (`3arm`, not `1e5` or `0x1F`),
/// i.e. is more likely a name written with a digit first (IdFirstChar excludes digits).
fn looks_like_a_name(word: &str) -> bool {
    let digits = word.strip_prefix(['+', '-']).unwrap_or(word);
    if digits.starts_with("0x") || digits.starts_with("0X") {
        return false;
    }
    digits.chars().any(|c| !(c.is_ascii_digit() || matches!(c, '.' | '+' | '-' | 'e' | 'E')))
}

impl<'a> Lexer<'a> {
    /// The byte offset reached.
    pub fn position(&self) -> usize {
        self.pos
    }

    pub fn new(text: &'a str, start: usize) -> Self {
        Self { text, pos: start, peeked: None, comments: Vec::new() }
    }

    pub fn peek(&mut self) -> Result<&Token, LexError> {
        if self.peeked.is_none() {
            let t = self.read()?;
            self.peeked = Some(t);
        }
        Ok(self.peeked.as_ref().expect("just filled"))
    }

    pub fn next_token(&mut self) -> Result<Token, LexError> {
        match self.peeked.take() {
            Some(t) => Ok(t),
            None => self.read(),
        }
    }

    fn skip_space_and_comments(&mut self) {
        let bytes = self.text.as_bytes();
        loop {
            while self.pos < bytes.len() && is_space(bytes[self.pos]) {
                self.pos += 1;
            }
            if self.pos < bytes.len() && bytes[self.pos] == b'#' {
                let start = self.pos;
                while self.pos < bytes.len() && bytes[self.pos] != b'\n' && bytes[self.pos] != b'\r' {
                    self.pos += 1;
                }
                self.comments.push((start, self.pos));
                continue;
            }
            break;
        }
    }

    fn read(&mut self) -> Result<Token, LexError> {
        self.skip_space_and_comments();
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let Some(&b) = bytes.get(start) else {
            return Ok(Token { kind: Tok::Eof, start, end: start });
        };
        let single = |kind| Token { kind, start, end: start + 1 };
        let token = match b {
            b'[' => single(Tok::LBracket),
            b']' => single(Tok::RBracket),
            b'{' => single(Tok::LBrace),
            b'}' => single(Tok::RBrace),
            b'"' => return self.string(),
            _ if starts_number(bytes, start) => {
                let mut end = start + 1;
                while end < bytes.len()
                    && matches!(bytes[end], b'0'..=b'9' | b'a'..=b'f' | b'A'..=b'F' | b'x' | b'X' | b'.' | b'+' | b'-')
                {
                    end += 1;
                }
                let written = &self.text[start..end];
                if !valid_number(written) {
                    // Take the rest of the word so the message shows what was written.
                    let word_end = (end..bytes.len()).find(|&i| ends_ident(bytes[i])).unwrap_or(bytes.len());
                    let word = &self.text[start..word_end];
                    let shown: String = word.chars().take(40).collect();
                    let hint = if looks_like_a_name(word) { " (a name cannot start with a digit)" } else { "" };
                    return Err(LexError { offset: start, message: format!("malformed number '{shown}'{hint}") });
                }
                if end < bytes.len() && !ends_ident(bytes[end]) {
                    let word_end = (end..bytes.len()).find(|&i| ends_ident(bytes[i])).unwrap_or(bytes.len());
                    let shown: String = self.text[start..word_end].chars().take(40).collect();
                    return Err(LexError {
                        offset: start,
                        message: format!("malformed number '{shown}' (a number must be followed by a space)"),
                    });
                }
                Token { kind: Tok::Number, start, end }
            }
            b'.' => single(Tok::Period),
            _ if ends_ident(b) || matches!(b, b'+' | b'-' | b'0'..=b'9') => {
                let c = self.text[start..].chars().next().unwrap_or('?');
                let hint = match c {
                    '\'' => " (strings are written in double quotes)",
                    '\\' => " (a backslash escapes only inside strings)",
                    _ => "",
                };
                return Err(LexError { offset: start, message: format!("unexpected character '{c}'{hint}") });
            }
            _ => {
                let end = (start..bytes.len()).find(|&i| ends_ident(bytes[i])).unwrap_or(bytes.len());
                Token { kind: Tok::Ident(self.text[start..end].to_string()), start, end }
            }
        };
        self.pos = token.end;
        Ok(token)
    }

    fn string(&mut self) -> Result<Token, LexError> {
        let start = self.pos;
        let mut value = String::new();
        let mut chars = self.text[start + 1..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some((_, escaped @ ('"' | '\\'))) => value.push(escaped),
                    // The grammar escapes only these two; X_ITE and view3dscene both keep a backslash
                    // before any other character (`"C:\models"`), and so does this lexer.
                    Some((_, other)) => {
                        value.push('\\');
                        value.push(other);
                    }
                    None => break,
                },
                '"' => {
                    let end = start + 1 + i + 1;
                    self.pos = end;
                    return Ok(Token { kind: Tok::Str(value), start, end });
                }
                _ => value.push(c),
            }
        }
        Err(LexError { offset: start, message: "string is not closed: no '\"' before the end of the file".into() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<Tok> {
        let mut lexer = Lexer::new(text, 0);
        let mut out = Vec::new();
        loop {
            let t = lexer.next_token().unwrap();
            if t.kind == Tok::Eof {
                return out;
            }
            out.push(t.kind);
        }
    }

    #[test]
    fn tokens_of_each_kind() {
        let ident = |s: &str| Tok::Ident(s.into());
        assert_eq!(
            kinds("DEF a_1 Transform { translation 1,-2.5e1 .5 } # c\n[ \"x\\\"y\" ] a.b 0x1F H-Anim:1"),
            vec![
                ident("DEF"),
                ident("a_1"),
                ident("Transform"),
                Tok::LBrace,
                ident("translation"),
                Tok::Number,
                Tok::Number,
                Tok::Number,
                Tok::RBrace,
                Tok::LBracket,
                Tok::Str("x\"y".into()),
                Tok::RBracket,
                ident("a"),
                Tok::Period,
                ident("b"),
                Tok::Number,
                ident("H-Anim:1"),
            ]
        );
    }

    #[test]
    fn comments_are_recorded_and_strings_keep_hashes() {
        let mut lexer = Lexer::new("1 # one\n\"a # b\" # two", 0);
        while lexer.next_token().unwrap().kind != Tok::Eof {}
        assert_eq!(lexer.comments, vec![(2, 7), (16, 21)]);
    }

    #[test]
    fn malformed_numbers_and_strings() {
        let err = |text: &str| {
            let mut lexer = Lexer::new(text, 0);
            loop {
                match lexer.next_token() {
                    Ok(t) if t.kind == Tok::Eof => panic!("no error in {text}"),
                    Ok(_) => {}
                    Err(e) => return e,
                }
            }
        };
        assert_eq!(err("1 2.3.4").offset, 2);
        assert!(err("1e").message.contains("malformed number '1e'"));
        assert!(err("0xZZ").message.contains("malformed number"));
        assert!(err("1.5m").message.contains("followed by a space"));
        assert!(err("a \"open").message.contains("not closed"));
        assert!(err("'x'").message.contains("double quotes"));
        assert!(err("DEF 3arm T").message.contains("malformed number '3arm' (a name cannot start with a digit)"));
        assert!(!err("1e").message.contains("name"));
        assert!(!err("0x1G").message.contains("name"), "a bad hexadecimal digit is no name");
    }

    #[test]
    fn escapes_other_than_quote_and_backslash_keep_their_backslash() {
        assert_eq!(kinds(r#""a\"b\\c\d""#), vec![Tok::Str(r#"a"b\c\d"#.into())]);
    }
}
