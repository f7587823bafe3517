//! Declared field types (`SFVec3f`, `MFNode`, ...) of PROTO interfaces and Script fields, and the check
//! of a value against its type.

use crate::x3d::fields::{self, FieldParseError};

/// A VRML97 / X3D field type as declared in an interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FieldType {
    pub name: &'static str,
}

/// Every field type name of VRML97 and X3D 4.
const TYPES: &[&str] = &[
    "SFBool",
    "MFBool",
    "SFColor",
    "MFColor",
    "SFColorRGBA",
    "MFColorRGBA",
    "SFDouble",
    "MFDouble",
    "SFFloat",
    "MFFloat",
    "SFImage",
    "MFImage",
    "SFInt32",
    "MFInt32",
    "SFNode",
    "MFNode",
    "SFRotation",
    "MFRotation",
    "SFString",
    "MFString",
    "SFTime",
    "MFTime",
    "SFVec2d",
    "MFVec2d",
    "SFVec2f",
    "MFVec2f",
    "SFVec3d",
    "MFVec3d",
    "SFVec3f",
    "MFVec3f",
    "SFVec4d",
    "MFVec4d",
    "SFVec4f",
    "MFVec4f",
    "SFMatrix3d",
    "MFMatrix3d",
    "SFMatrix3f",
    "MFMatrix3f",
    "SFMatrix4d",
    "MFMatrix4d",
    "SFMatrix4f",
    "MFMatrix4f",
];

impl FieldType {
    pub fn parse(name: &str) -> Option<Self> {
        TYPES.iter().find(|t| **t == name).map(|t| FieldType { name: t })
    }

    pub fn is_node(self) -> bool {
        matches!(self.name, "SFNode" | "MFNode")
    }

    pub fn is_multiple(self) -> bool {
        self.name.starts_with("MF")
    }

    pub fn is_string(self) -> bool {
        matches!(self.name, "SFString" | "MFString")
    }

    /// Checks the value text of a scalar field (comments already blanked) against the type; the error
    /// offset is within `text`.
    pub fn check(self, text: &str) -> Result<(), FieldParseError> {
        let count_multiple_of = |n: usize| -> Result<(), FieldParseError> {
            let mut count = 0;
            let mut last = 0;
            for (offset, token) in fields::tokens(text) {
                if !token.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '+' | '-' | '.')) {
                    return Err(FieldParseError {
                        offset,
                        token: token.chars().take(40).collect(),
                        type_name: self.name,
                        expected: "expected a number".into(),
                    });
                }
                count += 1;
                last = offset;
            }
            if count % n != 0 || (!self.is_multiple() && count != n) {
                return Err(FieldParseError {
                    offset: last,
                    token: String::new(),
                    type_name: self.name,
                    expected: if self.is_multiple() {
                        format!("expected a multiple of {n} numbers, found {count}")
                    } else {
                        format!("expected {n} numbers, found {count}")
                    },
                });
            }
            Ok(())
        };
        match self.name {
            "SFBool" => fields::parse_sf_bool(text).map(drop),
            "MFBool" => fields::parse_mf_bool(text).map(drop),
            "SFInt32" => fields::parse_sf_int32(text).map(drop),
            "MFInt32" => fields::parse_mf_int32(text).map(drop),
            "SFImage" | "MFImage" => self.check_images(text),
            "SFFloat" => fields::parse_sf_float(text).map(drop),
            "MFFloat" => fields::parse_mf_float(text).map(drop),
            "SFDouble" | "SFTime" => fields::parse_sf_double(text).map(drop),
            "MFDouble" | "MFTime" => fields::parse_mf_double(text).map(drop),
            "SFVec2f" | "SFVec2d" => fields::parse_sf_vec2f(text).map(drop),
            "MFVec2f" | "MFVec2d" => fields::parse_mf_vec2f(text).map(drop),
            "SFVec3f" | "SFVec3d" => fields::parse_sf_vec3f(text).map(drop),
            "MFVec3f" | "MFVec3d" => fields::parse_mf_vec3f(text).map(drop),
            "SFColor" => fields::parse_sf_color(text).map(drop),
            "MFColor" => fields::parse_mf_color(text).map(drop),
            "SFRotation" => fields::parse_sf_rotation(text).map(drop),
            "MFRotation" => fields::parse_mf_rotation(text).map(drop),
            "SFColorRGBA" => fields::parse_sf_color_rgba(text).map(drop),
            "MFColorRGBA" => fields::parse_mf_color_rgba(text).map(drop),
            "SFVec4f" | "SFVec4d" | "MFVec4f" | "MFVec4d" => count_multiple_of(4),
            "SFMatrix3f" | "SFMatrix3d" | "MFMatrix3f" | "MFMatrix3d" => count_multiple_of(9),
            "SFMatrix4f" | "SFMatrix4d" | "MFMatrix4f" | "MFMatrix4d" => count_multiple_of(16),
            // Strings are checked by the lexer; nodes are not text.
            _ => Ok(()),
        }
    }
}

impl FieldType {
    /// SFImage / MFImage: `width height components` and then `width × height` pixels, each pixel one
    /// integer holding up to four 8-bit components, so an RGBA pixel goes up to 0xFFFFFFFF (beyond
    /// SFInt32, whose syntax the grammar gives it: `sfimageValue ::= int32 int32 int32 ...`).
    fn check_images(self, text: &str) -> Result<(), FieldParseError> {
        let error = |offset: usize, token: &str, expected: String| FieldParseError {
            offset,
            token: token.chars().take(40).collect(),
            type_name: self.name,
            expected,
        };
        let mut values = Vec::new();
        for (offset, token) in fields::tokens(text) {
            let value = image_integer(token).ok_or_else(|| {
                error(offset, token, "expected an integer (a pixel is at most 0xFFFFFFFF)".to_string())
            })?;
            values.push((offset, value));
        }
        let mut i = 0;
        let mut images = 0;
        while i < values.len() {
            if images == 1 && !self.is_multiple() {
                return Err(error(values[i].0, "", "expected one image: its pixels are all there already".into()));
            }
            let header = values.get(i..i + 3).ok_or_else(|| {
                error(values[values.len() - 1].0, "", "expected 'width height components' before the pixels".into())
            })?;
            let (width, height) = (header[0].1, header[1].1);
            if width < 0 || height < 0 || !(0..=4).contains(&header[2].1) {
                return Err(error(
                    header[0].0,
                    "",
                    "expected a width and height of 0 or more and 0 to 4 components".into(),
                ));
            }
            let pixels = usize::try_from(width.saturating_mul(height)).unwrap_or(usize::MAX);
            let available = values.len() - i - 3;
            if available < pixels {
                return Err(error(
                    values[values.len() - 1].0,
                    "",
                    format!("expected {width} x {height} = {pixels} pixels, found {available}"),
                ));
            }
            i += 3 + pixels;
            images += 1;
        }
        if images == 0 && !self.is_multiple() {
            return Err(error(0, "", "expected 'width height components' and the pixels".into()));
        }
        Ok(())
    }
}

/// One integer of an SFImage: decimal or `0x` hexadecimal, signed, from the SFInt32 minimum up to the
/// largest 32-bit pixel.
fn image_integer(token: &str) -> Option<i64> {
    let (negative, digits) = match token.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, token.strip_prefix('+').unwrap_or(token)),
    };
    let (radix, digits) = match digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        Some(hex) => (16, hex),
        None => (10, digits),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = i64::from_str_radix(digits, radix).ok()?;
    let value = if negative { -magnitude } else { magnitude };
    (i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&value).then_some(value)
}

/// Fields of built-in X3D nodes whose type is MFString, for which a single string written without brackets
/// is kept quoted (so that `Scene::mf_string` reads it back exactly); every other single string is kept
/// as its plain text, the way the XML encoding writes an SFString attribute.
pub(crate) fn is_mf_string_field(name: &str) -> bool {
    name == "url"
        || name.ends_with("Url")
        || matches!(name, "info" | "string" | "family" | "justify" | "type" | "parameter" | "objectType" | "value")
}

/// Fields of built-in nodes that hold nodes, so that an empty `[ ]` stores no text for them.
pub(crate) fn is_node_field(name: &str) -> bool {
    matches!(
        name,
        "children"
            | "skeleton"
            | "humanoidBody"
            | "joints"
            | "segments"
            | "sites"
            | "viewpoints"
            | "skin"
            | "displacers"
            | "motions"
            | "choice"
            | "level"
            | "metadata"
            | "value"
            | "texture"
            | "geometry"
            | "appearance"
            | "material"
            | "coord"
            | "normal"
            | "color"
            | "texCoord"
            | "skinCoord"
            | "skinNormal"
            | "skinBindingCoords"
            | "skinBindingNormals"
            | "shaders"
            | "parts"
    )
}

/// Node-valued fields of built-in nodes that no built-in node uses for anything but nodes (lights have an
/// SFColor `color`, MetadataFloat a numeric `value`), so that numbers there are an error.
pub(crate) fn holds_only_nodes(name: &str) -> bool {
    is_node_field(name) && !matches!(name, "color" | "value" | "normal")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_check_values() {
        let t = |n| FieldType::parse(n).unwrap();
        assert!(t("SFVec3f").check("1 2 3").is_ok());
        assert!(t("SFVec3f").check("1 2").is_err());
        assert!(t("MFInt32").check("1 0x10 -3").is_ok());
        assert!(t("SFBool").check("TRUE").is_ok());
        assert!(t("SFVec4f").check("1 2 3 4").is_ok());
        let e = t("SFVec4f").check("1 2 3").unwrap_err();
        assert!(e.expected.contains("expected 4 numbers, found 3"), "{}", e.expected);
        let e = t("MFMatrix3f").check("1 2").unwrap_err();
        assert!(e.expected.contains("multiple of 9"), "{}", e.expected);
        assert!(FieldType::parse("SFVec3").is_none());
        assert!(t("MFNode").is_node() && t("MFNode").is_multiple());
    }

    #[test]
    fn images_take_32_bit_pixels_and_count_them() {
        let t = |n| FieldType::parse(n).unwrap();
        assert!(t("SFImage").check("2 1 4 0xFF0000FF 0x00FF00FF").is_ok());
        assert!(t("SFImage").check("1 1 3 4294967295").is_ok());
        assert!(t("SFImage").check("0 0 0").is_ok());
        assert!(t("MFImage").check("1 1 1 0xFF 2 1 1 0 0x10").is_ok());
        assert!(t("MFImage").check("").is_ok());
        let e = t("SFImage").check("2 2 3 0xFF0000 0x00FF00").unwrap_err();
        assert!(e.expected.contains("2 x 2 = 4 pixels, found 2"), "{}", e.expected);
        let e = t("SFImage").check("1 1 3 0x1FFFFFFFF").unwrap_err();
        assert_eq!(e.token, "0x1FFFFFFFF");
        assert!(t("SFImage").check("1 1 3 7 1 1 3 7").is_err(), "one image only");
        assert!(t("SFImage").check("1 1 5 7").is_err(), "at most four components");
        assert!(t("SFImage").check("").is_err());
        assert!(t("SFImage").check("1 1").is_err());
    }
}
