//! Statements read where the grammar has no place for them. Each is read because one of the two players
//! this project compares with (X_ITE, view3dscene) reads it there and its meaning does not depend on the
//! place; each is reported, once where it stands, with the rule it goes beyond and what the other player
//! does, so that an author knows the file is not portable. docs/classic-grammar.md lists them with the
//! commands that showed each player's behaviour.
//!
//! - ROUTE, PROTO, EXTERNPROTO, IMPORT, EXPORT and NULL among the nodes of a node list (`mfnodeValue`
//!   holds node statements only): X_ITE reads them where they stand; view3dscene stops reading the file.
//! - NULL as a statement of its own: X_ITE reads an empty root; view3dscene stops reading the file.
//! - IMPORT and EXPORT inside a node's body (`nodeBodyElement` has ROUTE and PROTO, not these):
//!   view3dscene reads them; X_ITE refuses the file.
//! - `null` for NULL: X_ITE reads it; view3dscene stops reading the file.
//! - The interface keywords of the other standard (VRML97 `field` in an X3D file, X3D `initializeOnly`
//!   in a VRML97 file; each pair means the same): X_ITE reads both sets; view3dscene refuses the file.
//! - PROFILE, COMPONENT, UNIT and META in a VRML97 file: X_ITE reads them; view3dscene stops.

use super::*;

/// What view3dscene 4.2 does with a statement it does not expect: it warns and drops the rest of the file.
const VIEW3DSCENE_STOPS: &str = "view3dscene stops reading the file here";

impl Parser<'_> {
    /// Whether `word`, among the nodes of a node list, starts a statement read there beyond the grammar.
    pub(super) fn is_list_statement(&self, word: &str) -> bool {
        match word {
            "ROUTE" | "PROTO" | "EXTERNPROTO" | "IMPORT" | "EXPORT" | "NULL" => true,
            // `null {` is an instance of a PROTO that a file named `null`.
            "null" => !self.protos.contains_key(word),
            _ => false,
        }
    }

    /// A statement among the nodes of the list of field `field`: read where it stands, reported.
    pub(super) fn statement_in_list(&mut self, t: Token, field: &str) -> Result<(), X3dError> {
        let Tok::Ident(word) = &t.kind else { return Ok(()) };
        let word = word.clone();
        if matches!(word.as_str(), "NULL" | "null") {
            return self.null_statement(word, t.start, Some(field));
        }
        let loc = self.loc(t.start);
        let message = format!(
            "{word} among the nodes of '{field}' is outside the grammar ({}: a node list holds nodes only); \
             read where it stands, as X_ITE does ({VIEW3DSCENE_STOPS})",
            self.grammar()
        );
        self.scene.warn(loc, message);
        match word.as_str() {
            "ROUTE" => self.route(t.start),
            "PROTO" | "EXTERNPROTO" => self.proto_start(word == "EXTERNPROTO", t.start),
            _ => self.import_export(word, t.start),
        }
    }

    /// `NULL` standing as a statement (at the top level, in a PROTO body, or among the nodes of the
    /// list of `field`): it adds nothing.
    pub(super) fn null_statement(&mut self, word: String, start: usize, field: Option<&str>) -> Result<(), X3dError> {
        let place = match field {
            Some(field) => format!("among the nodes of '{field}'"),
            None => "as a statement".to_string(),
        };
        let spelling = if word == "null" { " (and is written NULL)" } else { "" };
        let loc = self.loc(start);
        let message = format!(
            "{word} {place} is outside the grammar ({}: NULL is only the value of a node field{spelling}); \
             ignored (X_ITE reads an empty node; {VIEW3DSCENE_STOPS})",
            self.grammar()
        );
        self.scene.warn(loc, message);
        Ok(())
    }

    /// `IMPORT` or `EXPORT` inside the body of a `type_name` node: read where it stands, reported.
    pub(super) fn import_export_in_body(
        &mut self,
        word: String,
        start: usize,
        type_name: &str,
    ) -> Result<(), X3dError> {
        let loc = self.loc(start);
        let message = format!(
            "{word} inside the body of '{type_name}' is outside the grammar ({}: a node body holds fields, \
             ROUTE and PROTO); read where it stands, as view3dscene does (X_ITE refuses the file)",
            self.grammar()
        );
        self.scene.warn(loc, message);
        self.import_export(word, start)
    }

    /// `null` as the value of a node field: read as NULL, reported.
    pub(super) fn lower_case_null(&mut self, start: usize) {
        let loc = self.loc(start);
        let message = format!(
            "'null' is written NULL ({}: sfnodeValue); read as NULL, as X_ITE does ({VIEW3DSCENE_STOPS})",
            self.grammar()
        );
        self.scene.warn(loc, message);
    }

    /// An interface keyword of the other standard than the header's; reported once per file.
    pub(super) fn check_keyword_set(&mut self, kind: &str, start: usize) {
        let vrml97 = matches!(kind, "field" | "exposedField" | "eventIn" | "eventOut");
        if vrml97 != self.x3d || self.foreign_keywords_reported {
            return;
        }
        self.foreign_keywords_reported = true;
        let expected = if self.x3d {
            "an X3D file (ISO/IEC 19776-2) writes initializeOnly, inputOutput, inputOnly and outputOnly"
        } else {
            "a VRML97 file (ISO/IEC 14772-1) writes field, exposedField, eventIn and eventOut"
        };
        let loc = self.loc(start);
        let message = format!(
            "'{kind}' belongs to the other standard: {expected}; read with the same meaning, as X_ITE does \
             (view3dscene refuses the file); said once for this file"
        );
        self.scene.warn(loc, message);
    }

    /// PROFILE, COMPONENT, UNIT or META in a VRML97 file: read, reported.
    pub(super) fn x3d_statement_in_vrml97(&mut self, word: &str, start: usize) {
        let loc = self.loc(start);
        let message = format!(
            "{word} is an X3D statement (ISO/IEC 19776-2 annex A), not VRML97 (ISO/IEC 14772-1); read, as \
             X_ITE does ({VIEW3DSCENE_STOPS})"
        );
        self.scene.warn(loc, message);
    }
}
