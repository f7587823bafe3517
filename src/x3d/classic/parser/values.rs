//! Field values: `IS` connections, node-valued fields (pushed as frames), and scalar values stored as the
//! text an XML attribute would hold.

use super::*;

impl Parser<'_> {
    /// Reads the value of field `name` of `owner`: `IS x`, a node, a node list, or scalars.
    pub(super) fn field_value(
        &mut self,
        owner: NodeId,
        name: String,
        ty: Option<FieldType>,
        name_at: usize,
        allow_value: bool,
    ) -> Result<(), X3dError> {
        let t = self.peek()?;
        if t.is_ident("IS") {
            self.next()?;
            return self.is_connection(owner, name);
        }
        if !allow_value {
            return Ok(());
        }
        let type_text = ty.map(|t| format!(" ({})", t.name)).unwrap_or_default();
        match &t.kind {
            Tok::LBracket => {
                self.next()?;
                let inner = self.peek()?;
                if inner.kind == Tok::RBracket {
                    self.next()?;
                    // `[ ]` is an empty node list or an empty value: the field's declared type tells
                    // (Color's `color` is an MFColor, IndexedFaceSet's a node), its name only as a guess.
                    let node_valued = ty.map(|t| t.is_node()).or_else(|| self.builtin_node_valued(owner, &name));
                    let node_valued = node_valued.unwrap_or_else(|| types::is_node_field(&name));
                    if !node_valued {
                        self.store_text(owner, name, String::new(), inner.start, name_at);
                    }
                    return Ok(());
                }
                let node_list = match ty {
                    Some(ty) => ty.is_node(),
                    None => {
                        types::holds_only_nodes(&name)
                            || matches!(&inner.kind, Tok::Ident(w) if !is_bool_word(w) && w != "NULL")
                    }
                };
                if node_list {
                    if ty.is_some_and(|t| !t.is_multiple()) {
                        return Err(self.err(t.start, format!("field '{name}'{type_text} holds one node, not a list")));
                    }
                    self.stack.push(Frame::List { owner, field: name, open_at: t.start });
                    return Ok(());
                }
                let tokens = self.scalars(&name, true)?;
                self.store_scalars(owner, name, ty, &tokens, inner.start, name_at)
            }
            _ if is_scalar(&t) => {
                if ty.map_or_else(|| types::holds_only_nodes(&name), |t| t.is_node()) {
                    return Err(self.err(
                        t.start,
                        format!(
                            "expected a node, NULL or USE for field '{name}'{type_text}, found {}",
                            self.describe(&t)
                        ),
                    ));
                }
                let tokens = self.scalars(&name, false)?;
                self.store_scalars(owner, name, ty, &tokens, t.start, name_at)
            }
            Tok::Ident(word) if word == "NULL" => {
                self.next()?;
                Ok(())
            }
            Tok::Ident(word) if word == "null" && !self.protos.contains_key(word) => {
                self.next()?;
                self.lower_case_null(t.start);
                Ok(())
            }
            Tok::Ident(word) if !is_keyword(word) || word == "DEF" || word == "USE" => {
                if ty.is_some_and(|t| !t.is_node()) {
                    return Err(self.err(
                        t.start,
                        format!("expected a value for field '{name}'{type_text}, found {}", self.describe(&t)),
                    ));
                }
                self.stack.push(Frame::Single { owner, field: name });
                Ok(())
            }
            _ => Err(self.err(
                t.start,
                format!(
                    "expected a value for field '{name}'{type_text} (numbers, \"strings\", TRUE/FALSE, [ list ], a \
                     node, NULL or IS), found {}",
                    self.describe(&t)
                ),
            )),
        }
    }

    /// `IS protoField` inside a PROTO body.
    pub(super) fn is_connection(&mut self, owner: NodeId, field: String) -> Result<(), X3dError> {
        let (proto_field, tok) = self.expect_name("the name of a PROTO interface field after IS")?;
        let Some(Frame::Body { decl, .. }) = self.stack.iter().rev().find(|f| matches!(f, Frame::Body { .. })) else {
            return Err(self.err(tok.start, format!("'{field} IS {proto_field}' outside a PROTO body")));
        };
        if !decl.fields.iter().any(|f| f.name == proto_field) {
            let known: Vec<&str> = decl.fields.iter().map(|f| f.name.as_str()).collect();
            return Err(self.err(
                tok.start,
                format!(
                    "IS '{proto_field}': PROTO '{}' has no such interface field (it has: {})",
                    decl.name,
                    known.join(", ")
                ),
            ));
        }
        self.scene.nodes[owner.0 as usize].is_connections.push((field, proto_field));
        Ok(())
    }

    /// Scalar tokens of one value: inside `[ ]` up to the closing bracket, else the run of scalars.
    pub(super) fn scalars(&mut self, field: &str, bracketed: bool) -> Result<Vec<Token>, X3dError> {
        let mut out = Vec::new();
        loop {
            let t = self.peek()?;
            if is_scalar(&t) {
                out.push(self.next()?);
                continue;
            }
            if !bracketed {
                return Ok(out);
            }
            if t.kind == Tok::RBracket {
                self.next()?;
                return Ok(out);
            }
            return Err(self.err(
                t.start,
                format!(
                    "expected a number, a \"string\", TRUE/FALSE or ']' in the list of '{field}', found {}",
                    self.describe(&t)
                ),
            ));
        }
    }

    pub(super) fn store_scalars(
        &mut self,
        owner: NodeId,
        name: String,
        ty: Option<FieldType>,
        tokens: &[Token],
        start: usize,
        name_at: usize,
    ) -> Result<(), X3dError> {
        let strings = tokens.iter().filter(|t| matches!(t.kind, Tok::Str(_))).count();
        if let Some(ty) = ty {
            let expects_strings = ty.is_string();
            if let Some(bad) = tokens.iter().find(|t| matches!(t.kind, Tok::Str(_)) != expects_strings) {
                let expected = if expects_strings { "a \"string\"" } else { "a number or TRUE/FALSE" };
                return Err(self.err(
                    bad.start,
                    format!("field '{name}' ({}): expected {expected}, found {}", ty.name, self.describe(bad)),
                ));
            }
        } else if strings > 0 && strings < tokens.len() {
            let bad = tokens.iter().find(|t| !matches!(t.kind, Tok::Str(_))).unwrap_or(&tokens[0]);
            return Err(self.err(
                bad.start,
                format!("field '{name}' mixes strings and other values: {} among strings", self.describe(bad)),
            ));
        }
        // A single string of a field that is not an MFString is kept as its plain text (SFString).
        let single_plain = tokens.len() == 1
            && strings == 1
            && match ty {
                Some(ty) => ty.name == "SFString",
                None => !types::is_mf_string_field(&name),
            };
        if single_plain {
            if let Tok::Str(value) = &tokens[0].kind {
                let value = value.clone();
                self.store_text(owner, name, value, tokens[0].start + 1, name_at);
            }
            return Ok(());
        }
        if ty.is_some_and(|t| t.name == "SFString") && tokens.len() > 1 {
            return Err(self.err(tokens[1].start, format!("field '{name}' (SFString) takes a single string")));
        }
        let (value_start, value_end) = match (tokens.first(), tokens.last()) {
            (Some(first), Some(last)) => (first.start, last.end),
            _ => (start, start),
        };
        let value = if strings > 0 && tokens.iter().any(|t| self.has_kept_backslash(t)) {
            // The source text would lose the kept backslashes when read back as an MFString: write the
            // strings out again with every backslash escaped (their offsets within the value shift, but a
            // string the lexer accepted has nothing left to report).
            let quoted: Vec<String> = tokens
                .iter()
                .filter_map(|t| match &t.kind {
                    Tok::Str(s) => Some(format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))),
                    _ => None,
                })
                .collect();
            quoted.join(" ")
        } else {
            self.blanked(value_start, value_end)
        };
        if let Some(ty) = ty
            && let Err(e) = ty.check(&value)
        {
            let at = value_start + e.offset;
            let token = if e.token.is_empty() { String::new() } else { format!(" '{}'", e.token) };
            return Err(self.err(at, format!("{} value{token} in field '{name}': {}", e.type_name, e.expected)));
        }
        self.store_text(owner, name, value, value_start, name_at);
        Ok(())
    }

    /// Whether a string token holds a backslash before a character other than `"` or a backslash (kept
    /// as written, see the lexer), which reading the source text back as an MFString would drop.
    fn has_kept_backslash(&self, t: &Token) -> bool {
        let raw = self.text.as_bytes()[t.start..t.end].iter();
        let mut escaped = false;
        for &b in raw {
            if escaped {
                if b != b'"' && b != b'\\' {
                    return true;
                }
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            }
        }
        false
    }

    /// The text from `start` to `end` with comments replaced by spaces (same length, so offsets hold).
    pub(super) fn blanked(&self, start: usize, end: usize) -> String {
        let comments = &self.lexer.comments;
        let first = comments.partition_point(|&(_, e)| e <= start);
        let inside: Vec<(usize, usize)> =
            comments[first..].iter().take_while(|&&(s, _)| s < end).map(|&(s, e)| (s.max(start), e.min(end))).collect();
        if inside.is_empty() {
            return self.text[start..end].to_string();
        }
        let mut bytes = self.text.as_bytes()[start..end].to_vec();
        for (s, e) in inside {
            bytes[s - start..e - start].fill(b' ');
        }
        // Whole comments (ASCII '#' to end of line) were replaced, so the rest is still valid UTF-8.
        String::from_utf8(bytes).unwrap_or_default()
    }

    pub(super) fn store_text(&mut self, owner: NodeId, name: String, value: String, at: usize, name_at: usize) {
        let loc = self.loc(at);
        let node = &mut self.scene.nodes[owner.0 as usize];
        if let Some(existing) = node.fields.iter_mut().find(|f| f.name == name) {
            *existing = Field { name: name.clone(), value, loc };
            let loc = self.loc(name_at);
            self.scene.warn(loc, format!("field '{name}' is given twice; the later value is used"));
        } else {
            node.fields.push(Field { name, value, loc });
        }
    }
}
