//! Statements other than nodes and PROTOs: the header line, `PROFILE`, `COMPONENT`, `UNIT`, `META`,
//! `IMPORT`/`EXPORT` (read and reported) and `ROUTE`.

use super::*;

impl Parser<'_> {
    /// Checks the header line and returns where the statements start.
    pub(super) fn header(&mut self) -> Result<usize, X3dError> {
        let text = self.text;
        let start = text.len() - text.trim_start().len();
        let line_end = text[start..].find(['\n', '\r']).map_or(text.len(), |i| start + i);
        let line = &text[start..line_end];
        let mut words = line.split_whitespace();
        let (spec, version, charset) = (words.next(), words.next(), words.next());
        let expected = "expected a '#VRML V2.0 utf8' or '#X3D V4.0 utf8' header line";
        match (spec, version) {
            (Some("#VRML"), Some("V2.0")) => {
                self.x3d = false;
                if self.is_main {
                    self.scene.version = "VRML97".into();
                }
            }
            (Some("#VRML"), Some(v)) if v.starts_with("V1") => {
                return Err(self
                    .err(start, format!("VRML {} files are not supported (only VRML97 '#VRML V2.0 utf8')", &v[1..])));
            }
            (Some("#X3D"), Some(v)) if v.starts_with('V') && v[1..].parse::<f32>().is_ok() => {
                if !(v.starts_with("V3.") || v.starts_with("V4.")) {
                    let loc = self.loc(start);
                    self.scene.warn(loc, format!("unknown X3D version '{v}' in the header; read as X3D 4"));
                }
                if self.is_main {
                    self.scene.version = v[1..].to_string();
                }
            }
            // No header line at all, the file starting with a node: VRML97 4.2.1 requires the header, but
            // modelling tools write the parts a main file Inlines without one (OpenHRP's robot links),
            // and X_ITE reads them. Read as VRML97, with a warning.
            (Some(first), _) if !self.is_main && crate::x3d::reference::starts_like_headerless_vrml(first) => {
                self.x3d = false;
                let loc = self.loc(start);
                self.scene.warn(
                    loc,
                    "no '#VRML V2.0 utf8' header line (VRML97 4.2.1 requires it); read as VRML97".to_string(),
                );
                return Ok(start);
            }
            _ => {
                let shown: String = line.chars().take(40).collect();
                return Err(self.err(start, format!("{expected}, found '{shown}'")));
            }
        }
        if charset != Some("utf8") {
            let loc = self.loc(start);
            self.scene.warn(loc, format!("header charset is '{}', not 'utf8'; read as UTF-8", charset.unwrap_or("")));
        }
        Ok(line_end)
    }

    /// `PROFILE`, `COMPONENT`, `UNIT` or `META` at the top of the file, in that order and before every
    /// other statement (ISO/IEC 19776-2 annex A: `x3dScene ::= profileStatement componentStatements
    /// unitStatements metaStatements statements`). Neither X_ITE nor view3dscene reads one out of order
    /// (X_ITE refuses the file, view3dscene stops there), so neither does this reader.
    pub(super) fn header_statement(&mut self, word: String, start: usize) -> Result<(), X3dError> {
        let rank = match word.as_str() {
            "PROFILE" => 1,
            "COMPONENT" => 2,
            "UNIT" => 3,
            _ => 4,
        };
        if self.head_rank > rank || (rank == 1 && self.head_rank == 1) {
            let after = match self.head_rank {
                BODY_STARTED => "the scene's first node or statement",
                1 => "PROFILE",
                2 => "COMPONENT",
                3 => "UNIT",
                _ => "META",
            };
            return Err(self.err(
                start,
                format!(
                    "{word} after {after}: the head statements come first, in the order PROFILE (once), \
                     COMPONENT, UNIT, META (ISO/IEC 19776-2 annex A, x3dScene)"
                ),
            ));
        }
        self.head_rank = rank;
        if !self.x3d {
            self.x3d_statement_in_vrml97(&word, start);
        }
        match word.as_str() {
            "PROFILE" => {
                let (name, _) = self.expect_name("a profile name after PROFILE")?;
                if self.is_main {
                    self.scene.profile = name;
                }
                Ok(())
            }
            "COMPONENT" => self.component_statement(),
            "UNIT" => self.unit_statement(),
            _ => self.meta_statement(),
        }
    }

    /// `COMPONENT name:level`. The grammar's ':' is a symbol of its own (ISO/IEC 19776-2 annex A:
    /// `COMPONENT componentNameId : componentSupportLevel`), so it may have spaces and comments on either
    /// side. Identifiers may hold ':' (VRML97's IdRestChars, which the lexer follows), so the statement
    /// arrives as one to three tokens: `HAnim:1`, `HAnim: 1`, `HAnim :1` or `HAnim : 1`.
    fn component_statement(&mut self) -> Result<(), X3dError> {
        let (first, tok) = self.expect_name("a component name after COMPONENT")?;
        let (name, mut level) = match first.split_once(':') {
            Some((name, level)) => (name.to_string(), level.to_string()),
            None => {
                let colon = self.next()?;
                match &colon.kind {
                    Tok::Ident(word) if word.starts_with(':') => (first.clone(), word[1..].to_string()),
                    _ => {
                        return Err(self.err(
                            colon.start,
                            format!(
                                "expected ':' and the support level after 'COMPONENT {first}' (COMPONENT \
                                 name:level), found {}",
                                self.describe(&colon)
                            ),
                        ));
                    }
                }
            }
        };
        if name.is_empty() {
            return Err(self.err(tok.start, format!("COMPONENT '{first}': expected a component name before ':'")));
        }
        if level.is_empty() {
            let t = self.next()?;
            match &t.kind {
                Tok::Number => level = self.text[t.start..t.end].to_string(),
                Tok::Ident(word) => level = word.clone(),
                _ => {
                    return Err(self.err(
                        t.start,
                        format!(
                            "expected the support level (an integer) after 'COMPONENT {name}:', found {}",
                            self.describe(&t)
                        ),
                    ));
                }
            }
        }
        let level = fields::parse_sf_int32(&level).map_err(|_| {
            self.err(tok.start, format!("COMPONENT '{name}:{level}': the level after ':' must be an integer"))
        })?;
        if self.is_main {
            self.scene.components.push(Component { name, level });
        }
        Ok(())
    }

    /// `UNIT category name factor`: the file's conversion factor for lengths, angles, masses or forces.
    fn unit_statement(&mut self) -> Result<(), X3dError> {
        let (category, cat_tok) = self.expect_name("a unit category (length, angle, mass, force) after UNIT")?;
        self.expect_name("a unit name after the UNIT category")?;
        let factor_tok = self.next()?;
        if factor_tok.kind != Tok::Number {
            return Err(self.err(
                factor_tok.start,
                format!("expected the UNIT conversion factor (a number), found {}", self.describe(&factor_tok)),
            ));
        }
        let factor: f64 = self.text[factor_tok.start..factor_tok.end].parse().unwrap_or(0.0);
        if !(factor > 0.0 && factor.is_finite()) {
            return Err(
                self.err(factor_tok.start, format!("UNIT {category} conversion factor must be > 0, found {factor}"))
            );
        }
        let units = &mut self.scene.files[self.file as usize].units;
        match category.as_str() {
            "length" => units.length = factor,
            "angle" => units.angle = factor,
            "mass" => units.mass = factor,
            "force" => units.force = factor,
            other => {
                let loc = self.loc(cat_tok.start);
                self.scene.warn(loc, format!("unknown unit category '{other}' ignored"));
            }
        }
        Ok(())
    }

    /// `META "name" "content"`.
    fn meta_statement(&mut self) -> Result<(), X3dError> {
        let mut strings = Vec::new();
        for what in ["the META name (a string)", "the META content (a string)"] {
            let s = self.next()?;
            match s.kind {
                Tok::Str(v) => strings.push(v),
                _ => return Err(self.err(s.start, format!("expected {what}, found {}", self.describe(&s)))),
            }
        }
        if self.is_main {
            let content = strings.pop().unwrap_or_default();
            self.scene.meta.push((strings.pop().unwrap_or_default(), content));
        }
        Ok(())
    }

    /// `IMPORT inline.name [AS local]` / `EXPORT local [AS name]`: read and reported, not used.
    pub(super) fn import_export(&mut self, word: String, start: usize) -> Result<(), X3dError> {
        self.expect_name(&format!("a node name after {word}"))?;
        if word == "IMPORT" {
            self.expect(Tok::Period, "'.' between the Inline name and the exported name")?;
            self.expect_name("the exported node name")?;
        }
        if self.peek()?.is_ident("AS") {
            self.next()?;
            self.expect_name("a name after AS")?;
        }
        let loc = self.loc(start);
        self.scene.warn(loc, format!("{word} statements are not supported; ignored"));
        Ok(())
    }

    /// ROUTEs read here: in a PROTO body the body's, which each instance copies; anywhere else the scene's
    /// (the nodes of an interface default are shared by the instances, not copied).
    pub(super) fn add_routes(&mut self, routes: Vec<Route>) {
        match self.stack.iter_mut().rev().find(|f| matches!(f, Frame::Body { .. } | Frame::Interface { .. })) {
            Some(Frame::Body { decl, .. }) => decl.routes.extend(routes),
            _ => self.scene.routes.extend(routes),
        }
    }

    /// `ROUTE a.field TO b.field`.
    pub(super) fn route(&mut self, start: usize) -> Result<(), X3dError> {
        let (from_node, _) = self.expect_name("a DEF name after ROUTE")?;
        self.expect(Tok::Period, &format!("'.' after '{from_node}' (ROUTE node.field TO node.field)"))?;
        let (from_field, _) = self.expect_name("a field name after '.'")?;
        let to = self.next()?;
        if !to.is_ident("TO") {
            return Err(self.err(
                to.start,
                format!("expected TO after 'ROUTE {from_node}.{from_field}', found {}", self.describe(&to)),
            ));
        }
        let (to_node, _) = self.expect_name("a DEF name after TO")?;
        self.expect(Tok::Period, &format!("'.' after '{to_node}' (ROUTE node.field TO node.field)"))?;
        let (to_field, _) = self.expect_name("a field name after '.'")?;
        let loc = self.loc(start);
        match (self.lookup(&from_node), self.lookup(&to_node)) {
            (Some(from), Some(to)) => {
                let route = Route { from_node: from, from_field, to_node: to, to_field, loc };
                // A ROUTE naming a PROTO instance's interface field goes to the body fields behind it.
                let routes = proto_routes::resolve_route(self.scene, route);
                self.add_routes(routes);
            }
            (from, _) => {
                let missing = if from.is_none() { from_node } else { to_node };
                self.scene.warn(loc, format!("ROUTE refers to unknown DEF '{missing}'; ignored"));
            }
        }
        Ok(())
    }
}
