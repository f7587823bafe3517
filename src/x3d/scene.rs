//! The loaded scene: one arena of nodes with their fields kept as text, the files they came from, and
//! typed access to a field's value that reports a bad value at its own line:column.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::error::{LineCol, SourcePos, Warning, X3dError};
use super::fields;

/// The three encodings of X3D scene files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub enum Encoding {
    /// X3D XML encoding.
    #[default]
    Xml,
    /// ClassicVRML (`#X3D V3.x/V4.x utf8`) or VRML97 (`#VRML V2.0 utf8`).
    Classic,
    /// X3D JSON encoding (ISO/IEC 19776-5): `{ "X3D": { … } }`.
    Json,
}

/// Index of a node in [`Scene::nodes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

/// A location in one of the scene's source files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Loc {
    /// Index into [`Scene::files`].
    pub file: u16,
    /// Byte offset in that file.
    pub offset: u32,
}

/// One attribute of a node, kept as text until somebody asks for a typed value.
#[derive(Debug, Clone)]
pub struct Field {
    pub name: String,
    pub value: String,
    /// Where the value text starts in the source.
    pub loc: Loc,
}

/// A child node and the field of its parent that holds it (the XML `containerField`).
#[derive(Debug, Clone)]
pub struct Child {
    pub field: String,
    pub node: NodeId,
}

#[derive(Debug, Clone)]
pub struct Node {
    /// X3D node type, e.g. `HAnimJoint`. Instances of an H-Anim 1 prototype (`Joint`, ...) carry the
    /// native type they stand for.
    pub type_name: String,
    pub def: Option<String>,
    pub fields: Vec<Field>,
    pub children: Vec<Child>,
    /// Where the element starts.
    pub loc: Loc,
    /// Name of the prototype this node was instantiated from, if any.
    pub proto: Option<String>,
    /// `IS` connections (node field, prototype interface field) of a node inside a ProtoBody.
    pub is_connections: Vec<(String, String)>,
}

impl Node {
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }

    pub fn children_in<'a>(&'a self, field: &'a str) -> impl Iterator<Item = NodeId> + 'a {
        self.children.iter().filter(move |c| c.field == field).map(|c| c.node)
    }

    /// The DEF name, or an empty string.
    pub fn def_name(&self) -> &str {
        self.def.as_deref().unwrap_or("")
    }
}

/// Conversion factors of the X3D `UNIT` statements of one file (1.0 when absent).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Units {
    pub length: f64,
    pub angle: f64,
    pub mass: f64,
    pub force: f64,
}

impl Default for Units {
    fn default() -> Self {
        Self { length: 1.0, angle: 1.0, mass: 1.0, force: 1.0 }
    }
}

/// A file the scene was read from (the main file and every Inline).
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: PathBuf,
    /// Byte offsets where each line starts, for offset → line:column.
    line_starts: Vec<u32>,
    /// Byte offsets of UTF-8 continuation bytes, so that columns count characters, not bytes (empty for
    /// ASCII files).
    continuation_bytes: Vec<u32>,
    pub units: Units,
    /// For an X3D JSON file, where its values are: the attribute text of a JSON value is rebuilt
    /// (numbers joined by spaces, strings quoted), so an offset in that text is not one in the file.
    json_values: Option<Box<JsonValueMap>>,
}

impl SourceFile {
    /// `text` is the text offsets refer to: the decoded document, after any byte-order mark.
    pub(crate) fn new(path: PathBuf, text: &[u8]) -> Self {
        let mut line_starts = vec![0u32];
        line_starts.extend(memchr_newlines(text));
        let continuation_bytes =
            text.iter().enumerate().filter(|(_, b)| (**b & 0xC0) == 0x80).map(|(i, _)| i as u32).collect();
        Self { path, line_starts, continuation_bytes, units: Units::default(), json_values: None }
    }

    /// Marks this file as X3D JSON, with the places of its values.
    pub(crate) fn set_json_values(&mut self, values: JsonValueMap) {
        self.json_values = Some(Box::new(values));
    }

    /// The file offset of byte `at` of a field's value text, the value starting at `value_offset`: the
    /// same distance further in an XML or ClassicVRML file, the JSON element that byte was made from in
    /// a JSON file.
    pub(crate) fn value_offset(&self, value_offset: u32, text: &str, at: usize) -> u32 {
        match &self.json_values {
            Some(map) => map.source_offset(value_offset, text, at),
            None => value_offset.saturating_add(at as u32),
        }
    }

    pub fn line_col(&self, offset: u32) -> LineCol {
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1);
        let start = self.line_starts[line - 1];
        let multibyte = self.continuation_bytes.partition_point(|&c| c < offset)
            - self.continuation_bytes.partition_point(|&c| c < start);
        let column = offset - start - multibyte as u32 + 1;
        LineCol { line: line as u32, column }
    }
}

/// Where the values of an X3D JSON file are, so that an offset in the attribute text rebuilt from a
/// value (see `syntax::json_read`) maps back to the JSON element it came from: a bad number of an array
/// is reported at that number, an array that is too short at its closing bracket.
#[derive(Debug, Clone, Default)]
pub(crate) struct JsonValueMap {
    /// Every value written as an attribute, in file order.
    values: Vec<JsonValueSpan>,
    /// Where each scalar of those values' arrays starts, in file order (nested arrays flattened).
    scalars: Vec<u32>,
}

/// One attribute value of a JSON file: its bytes `start..end` and what it is.
#[derive(Debug, Clone, Copy)]
struct JsonValueSpan {
    start: u32,
    end: u32,
    kind: JsonValueKind,
}

/// The kinds of JSON value an attribute is made from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum JsonValueKind {
    /// A string: its characters are the text (after the opening quote).
    String,
    /// A number or a boolean: the text is its source text.
    Scalar,
    /// An array: each scalar, in order, is one item of the text.
    Array,
}

impl JsonValueMap {
    /// Records an attribute value at bytes `start..end` (values come in file order).
    pub(crate) fn push_value(&mut self, start: u32, end: u32, kind: JsonValueKind) {
        self.values.push(JsonValueSpan { start, end, kind });
    }

    /// Records where a scalar of the array value being recorded starts.
    pub(crate) fn push_scalar(&mut self, start: u32) {
        self.scalars.push(start);
    }

    /// The file offset of byte `at` of `text`, the attribute text made from the value at `start`.
    fn source_offset(&self, start: u32, text: &str, at: usize) -> u32 {
        let Ok(i) = self.values.binary_search_by_key(&start, |v| v.start) else {
            return start.saturating_add(at as u32);
        };
        let span = self.values[i];
        let last = span.end.saturating_sub(1).max(span.start);
        match span.kind {
            // Exact unless an escape sequence comes before the byte.
            JsonValueKind::String => start.saturating_add(1).saturating_add(at as u32).min(last),
            JsonValueKind::Scalar => start.saturating_add(at as u32).min(last),
            JsonValueKind::Array => {
                let first = self.scalars.partition_point(|&s| s <= start);
                let count = self.scalars[first..].partition_point(|&s| s < span.end);
                let item = item_at(text, at);
                match self.scalars.get(first + item.index).filter(|_| item.index < count) {
                    // A number's text is its source text, so the distance into it carries over.
                    Some(&s) if !item.quoted => s.saturating_add(at.saturating_sub(item.start) as u32),
                    Some(&s) => s,
                    // The text ended before the value did: the array is too short.
                    None => last,
                }
            }
        }
    }
}

/// One item of an attribute text rebuilt from a JSON array.
struct TextItem {
    /// Its index among the items (the number of items when `at` is past the last one).
    index: usize,
    /// Where it starts in the text.
    start: usize,
    /// A `"quoted"` string rather than a number or a boolean.
    quoted: bool,
}

/// The item of `text` (items separated by single spaces, strings quoted with `\"` and `\\` escapes, as
/// `syntax::json_read` writes them) that holds byte `at`, or the one after it when `at` is a separator.
fn item_at(text: &str, at: usize) -> TextItem {
    let bytes = text.as_bytes();
    let (mut i, mut index) = (0, 0);
    loop {
        while bytes.get(i) == Some(&b' ') {
            i += 1;
        }
        if i >= bytes.len() {
            return TextItem { index, start: i, quoted: false };
        }
        let start = i;
        let quoted = bytes[i] == b'"';
        if quoted {
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
        } else {
            while i < bytes.len() && bytes[i] != b' ' {
                i += 1;
            }
        }
        if at < i {
            return TextItem { index, start, quoted };
        }
        index += 1;
    }
}

fn memchr_newlines(text: &[u8]) -> impl Iterator<Item = u32> + '_ {
    text.iter().enumerate().filter(|(_, b)| **b == b'\n').map(|(i, _)| i as u32 + 1)
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct Component {
    pub name: String,
    pub level: i32,
}

/// A ROUTE statement, kept for the playback layer.
#[derive(Debug, Clone)]
pub struct Route {
    pub from_node: NodeId,
    pub from_field: String,
    pub to_node: NodeId,
    pub to_field: String,
    pub loc: Loc,
}

/// A loaded X3D scene.
#[derive(Debug, Clone, Default)]
pub struct Scene {
    pub files: Vec<SourceFile>,
    /// The syntax of the main file.
    pub encoding: Encoding,
    /// `<X3D version=...>` of the main file (the `#X3D V4.0` header's number; `VRML97` for `#VRML V2.0`).
    pub version: String,
    pub profile: String,
    pub components: Vec<Component>,
    /// `<meta name content>` pairs of the main file's head (ClassicVRML `META`), in order.
    pub meta: Vec<(String, String)>,
    pub nodes: Vec<Node>,
    /// The children of `<Scene>` in the main file.
    pub roots: Vec<NodeId>,
    pub routes: Vec<Route>,
    /// DEF names of the main file's scene (prototype bodies and Inlines have their own scopes).
    pub defs: HashMap<String, NodeId>,
    pub warnings: Vec<Warning>,
    /// The interface of each expanded prototype instance, by the node that stands for it: what a ROUTE
    /// naming the instance's fields is rewritten into while the file is read (`proto_routes`).
    pub(crate) instance_interfaces: super::proto_routes::InstanceInterfaces,
}

impl Scene {
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.0 as usize]
    }

    pub fn main_path(&self) -> &Path {
        self.files.first().map(|f| f.path.as_path()).unwrap_or(Path::new("<memory>"))
    }

    pub fn pos(&self, loc: Loc) -> SourcePos {
        match self.files.get(loc.file as usize) {
            Some(file) => SourcePos { file: file.path.clone(), at: Some(file.line_col(loc.offset)) },
            None => SourcePos { file: PathBuf::from("<memory>"), at: None },
        }
    }

    pub fn units_of(&self, id: NodeId) -> Units {
        self.files.get(self.node(id).loc.file as usize).map(|f| f.units).unwrap_or_default()
    }

    pub fn warn(&mut self, loc: Loc, message: impl Into<String>) {
        let pos = self.pos(loc);
        self.warnings.push(Warning { pos, message: message.into() });
    }

    /// A short description of a node for messages: `HAnimJoint 'hanim_l_hip'`.
    pub fn describe(&self, id: NodeId) -> String {
        let node = self.node(id);
        match &node.def {
            Some(def) => format!("{} DEF '{}'", node.type_name, def),
            None => match node.field("name") {
                Some(name) => format!("{} name='{}'", node.type_name, name.value),
                None => node.type_name.clone(),
            },
        }
    }

    /// Every node reachable from the roots, each once, parents before children (iterative).
    pub fn reachable(&self) -> Vec<NodeId> {
        let mut seen = vec![false; self.nodes.len()];
        let mut order = Vec::new();
        let mut stack: Vec<NodeId> = self.roots.iter().rev().copied().collect();
        while let Some(id) = stack.pop() {
            if std::mem::replace(&mut seen[id.0 as usize], true) {
                continue;
            }
            order.push(id);
            stack.extend(self.node(id).children.iter().rev().map(|c| c.node));
        }
        order
    }

    /// Where byte `at` of `field`'s value text comes from in its file (see [`SourceFile::value_offset`]).
    pub(crate) fn value_loc(&self, field: &Field, at: usize) -> Loc {
        let offset = match self.files.get(field.loc.file as usize) {
            Some(file) => file.value_offset(field.loc.offset, &field.value, at),
            None => field.loc.offset.saturating_add(at as u32),
        };
        Loc { file: field.loc.file, offset }
    }

    /// Parses field `name` of node `id` with `parse`, turning a parse failure into an error that names the
    /// value, its position and the field: `MFInt32 value 'x' at 120:45 in skinCoordIndex of HAnimJoint ...`.
    pub fn parse_field<T>(
        &self,
        id: NodeId,
        name: &str,
        parse: impl FnOnce(&str) -> fields::FieldResult<T>,
    ) -> Result<Option<T>, X3dError> {
        let Some(field) = self.node(id).field(name) else { return Ok(None) };
        parse(&field.value).map(Some).map_err(|e| {
            let loc = self.value_loc(field, e.offset);
            let pos = self.pos(loc);
            let at = pos.at.map(|a| format!(" at {a}")).unwrap_or_default();
            let what = if e.token.is_empty() {
                format!("{} value{at} in {name} of {}: {}", e.type_name, self.describe(id), e.expected)
            } else {
                format!("{} value '{}'{at} in {name} of {}: {}", e.type_name, e.token, self.describe(id), e.expected)
            };
            X3dError::new(pos, what)
        })
    }

    pub fn string(&self, id: NodeId, name: &str) -> Option<&str> {
        self.node(id).field(name).map(|f| f.value.as_str())
    }

    pub fn mf_string(&self, id: NodeId, name: &str) -> Result<Vec<String>, X3dError> {
        Ok(self.parse_field(id, name, fields::parse_mf_string)?.unwrap_or_default())
    }

    pub fn sf_bool(&self, id: NodeId, name: &str, default: bool) -> Result<bool, X3dError> {
        Ok(self.parse_field(id, name, fields::parse_sf_bool)?.unwrap_or(default))
    }

    pub fn sf_int32(&self, id: NodeId, name: &str, default: i32) -> Result<i32, X3dError> {
        Ok(self.parse_field(id, name, fields::parse_sf_int32)?.unwrap_or(default))
    }

    pub fn mf_int32(&self, id: NodeId, name: &str) -> Result<Vec<i32>, X3dError> {
        Ok(self.parse_field(id, name, fields::parse_mf_int32)?.unwrap_or_default())
    }

    pub fn sf_float(&self, id: NodeId, name: &str, default: f32) -> Result<f32, X3dError> {
        Ok(self.parse_field(id, name, fields::parse_sf_float)?.unwrap_or(default))
    }

    pub fn sf_double(&self, id: NodeId, name: &str, default: f64) -> Result<f64, X3dError> {
        Ok(self.parse_field(id, name, fields::parse_sf_double)?.unwrap_or(default))
    }

    pub fn mf_float(&self, id: NodeId, name: &str) -> Result<Vec<f32>, X3dError> {
        Ok(self.parse_field(id, name, fields::parse_mf_float)?.unwrap_or_default())
    }

    /// SFVec3f of a length-valued field (UNIT length applied).
    pub fn sf_length3(&self, id: NodeId, name: &str, default: [f32; 3]) -> Result<[f32; 3], X3dError> {
        let k = self.units_of(id).length as f32;
        Ok(self.parse_field(id, name, fields::parse_sf_vec3f)?.map(|v| v.map(|x| x * k)).unwrap_or(default))
    }

    /// SFVec3f of a field without units (scale, direction...).
    pub fn sf_vec3f(&self, id: NodeId, name: &str, default: [f32; 3]) -> Result<[f32; 3], X3dError> {
        Ok(self.parse_field(id, name, fields::parse_sf_vec3f)?.unwrap_or(default))
    }

    /// MFVec3f of a length-valued field (UNIT length applied).
    pub fn mf_length3(&self, id: NodeId, name: &str) -> Result<Vec<[f32; 3]>, X3dError> {
        let k = self.units_of(id).length as f32;
        let mut v = self.parse_field(id, name, fields::parse_mf_vec3f)?.unwrap_or_default();
        if k != 1.0 {
            v.iter_mut().for_each(|p| *p = p.map(|x| x * k));
        }
        Ok(v)
    }

    /// MFVec3f without units (normals, scales...).
    pub fn mf_vec3f(&self, id: NodeId, name: &str) -> Result<Vec<[f32; 3]>, X3dError> {
        Ok(self.parse_field(id, name, fields::parse_mf_vec3f)?.unwrap_or_default())
    }

    /// SFRotation with UNIT angle applied to the angle.
    pub fn sf_rotation(&self, id: NodeId, name: &str, default: [f32; 4]) -> Result<[f32; 4], X3dError> {
        let k = self.units_of(id).angle as f32;
        Ok(self
            .parse_field(id, name, fields::parse_sf_rotation)?
            .map(|[x, y, z, a]| [x, y, z, a * k])
            .unwrap_or(default))
    }

    /// MFRotation with UNIT angle applied to each angle.
    pub fn mf_rotation(&self, id: NodeId, name: &str) -> Result<Vec<[f32; 4]>, X3dError> {
        let k = self.units_of(id).angle as f32;
        let mut v = self.parse_field(id, name, fields::parse_mf_rotation)?.unwrap_or_default();
        if k != 1.0 {
            v.iter_mut().for_each(|r| r[3] *= k);
        }
        Ok(v)
    }

    /// An MFFloat of angles (e.g. joint limits), UNIT angle applied.
    pub fn mf_angle(&self, id: NodeId, name: &str) -> Result<Vec<f32>, X3dError> {
        let k = self.units_of(id).angle as f32;
        Ok(self.mf_float(id, name)?.into_iter().map(|x| x * k).collect())
    }

    /// SFFloat of an angle (fieldOfView), UNIT angle applied.
    pub fn sf_angle(&self, id: NodeId, name: &str, default: f32) -> Result<f32, X3dError> {
        let k = self.units_of(id).angle as f32;
        Ok(self.parse_field(id, name, fields::parse_sf_float)?.map(|x| x * k).unwrap_or(default))
    }

    /// Color-like tuples without units.
    pub fn sf_color(&self, id: NodeId, name: &str, default: [f32; 3]) -> Result<[f32; 3], X3dError> {
        Ok(self.parse_field(id, name, fields::parse_sf_color)?.unwrap_or(default))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_value_offsets_map_back_to_their_scalars() {
        // `"a": [1,   "x y",  [true]], "b": "s t", "c": 7` with the values at 5, 30 and 41.
        let mut map = JsonValueMap::default();
        map.push_value(5, 26, JsonValueKind::Array);
        for s in [6, 11, 21] {
            map.push_scalar(s);
        }
        map.push_value(30, 35, JsonValueKind::String);
        map.push_value(41, 42, JsonValueKind::Scalar);
        let text = r#"1 "x y" true"#;
        assert_eq!(map.source_offset(5, text, 0), 6);
        // Inside the quoted string, and at its second word: the string's start.
        assert_eq!(map.source_offset(5, text, 5), 11);
        assert_eq!(map.source_offset(5, text, 8), 21);
        assert_eq!(map.source_offset(5, text, 10), 23);
        // Past the last item: the closing bracket.
        assert_eq!(map.source_offset(5, text, text.len()), 25);
        assert_eq!(map.source_offset(30, "s t", 2), 33);
        assert_eq!(map.source_offset(41, "7", 0), 41);
        // A value the map does not know (not from this file's JSON): the same distance on.
        assert_eq!(map.source_offset(100, "1 2", 2), 102);
        assert_eq!(item_at(r#""a\"b" c"#, 7).index, 1);
    }
}
