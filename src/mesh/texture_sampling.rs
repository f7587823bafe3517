//! How an ImageTexture is sampled: wrapping at the image's edges, the filters for magnified and minified
//! texels, and whether a mipmap chain is built. X3D puts this in the texture's TextureProperties node
//! (ISO/IEC 19775-1, 18.4.8); without one, `repeatS`/`repeatT` set the wrapping and the browser chooses
//! the filtering. This viewer's choice (and X_ITE's) is smooth: bilinear texels and trilinear mipmaps, so
//! a detailed texture seen small (a catalogue thumbnail, a far figure) averages instead of shimmering.

use crate::x3d::{NodeId, Scene, X3dError};

/// What happens to texture coordinates outside [0, 1].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wrap {
    Repeat,
    /// The edge texel continues (CLAMP, CLAMP_TO_EDGE; CLAMP_TO_BOUNDARY too, with a note: a border
    /// colour needs a GPU feature not every adapter has).
    Clamp,
    Mirror,
}

/// Nearest texel or the bilinear average of the four nearest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    Nearest,
    Linear,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextureSampling {
    /// Along s and t.
    pub wrap: [Wrap; 2],
    pub magnify: Filter,
    pub minify: Filter,
    /// Build a mipmap chain and filter between its levels with this filter; `None`: the full-size image
    /// only.
    pub mipmaps: Option<Filter>,
}

impl Default for TextureSampling {
    /// No TextureProperties and the default repeatS/repeatT: repeat, bilinear, trilinear mipmaps.
    fn default() -> Self {
        Self { wrap: [Wrap::Repeat; 2], magnify: Filter::Linear, minify: Filter::Linear, mipmaps: Some(Filter::Linear) }
    }
}

impl TextureSampling {
    /// The sampling of the texture node `texture` (ImageTexture, PixelTexture…): its TextureProperties
    /// when it has one (which then decides alone: 18.4.8 says repeatS/repeatT are ignored), else
    /// `repeatS`/`repeatT` with the default filtering. Values the standard does not list are noted and
    /// read as their field's default.
    pub fn read(scene: &Scene, texture: NodeId, notes: &mut Vec<String>) -> Result<Self, X3dError> {
        let properties = scene.node(texture).children_in("textureProperties").next();
        let Some(props) = properties.filter(|&p| scene.node(p).type_name == "TextureProperties") else {
            let wrap = |field: &str| -> Result<Wrap, X3dError> {
                Ok(if scene.sf_bool(texture, field, true)? { Wrap::Repeat } else { Wrap::Clamp })
            };
            return Ok(Self { wrap: [wrap("repeatS")?, wrap("repeatT")?], ..Self::default() });
        };
        let text = |field: &str, default: &str| -> String {
            scene.string(props, field).unwrap_or(default).trim().to_ascii_uppercase()
        };
        let unknown = |field: &str, value: &str, used: &str| {
            format!("{}: {field} {value:?} is not an X3D value; {used} is used", scene.describe(props))
        };
        let mut wrap = [Wrap::Repeat; 2];
        for (axis, field) in ["boundaryModeS", "boundaryModeT"].into_iter().enumerate() {
            let value = text(field, "REPEAT");
            wrap[axis] = match value.as_str() {
                "REPEAT" => Wrap::Repeat,
                "MIRRORED_REPEAT" => Wrap::Mirror,
                "CLAMP" | "CLAMP_TO_EDGE" => Wrap::Clamp,
                "CLAMP_TO_BOUNDARY" => {
                    let what = scene.describe(props);
                    notes.push(format!(
                        "{what}: {field} CLAMP_TO_BOUNDARY is drawn as CLAMP_TO_EDGE (no border colour)"
                    ));
                    Wrap::Clamp
                }
                _ => {
                    notes.push(unknown(field, &value, "REPEAT"));
                    Wrap::Repeat
                }
            };
        }
        let value = text("magnificationFilter", "FASTEST");
        let magnify = match value.as_str() {
            "NEAREST_PIXEL" | "FASTEST" => Filter::Nearest,
            "AVG_PIXEL" | "NICEST" | "DEFAULT" => Filter::Linear,
            _ => {
                notes.push(unknown("magnificationFilter", &value, "FASTEST"));
                Filter::Nearest
            }
        };
        // (texel filter, filter between mipmap levels when there are levels)
        let value = text("minificationFilter", "FASTEST");
        let (minify, between_levels) = match value.as_str() {
            "NEAREST_PIXEL" | "FASTEST" => (Filter::Nearest, None),
            "AVG_PIXEL" => (Filter::Linear, None),
            "NEAREST_PIXEL_NEAREST_MIPMAP" => (Filter::Nearest, Some(Filter::Nearest)),
            "NEAREST_PIXEL_AVG_MIPMAP" => (Filter::Nearest, Some(Filter::Linear)),
            "AVG_PIXEL_NEAREST_MIPMAP" => (Filter::Linear, Some(Filter::Nearest)),
            "AVG_PIXEL_AVG_MIPMAP" | "NICEST" | "DEFAULT" => (Filter::Linear, Some(Filter::Linear)),
            _ => {
                notes.push(unknown("minificationFilter", &value, "FASTEST"));
                (Filter::Nearest, None)
            }
        };
        let generate = scene.sf_bool(props, "generateMipMaps", false)?;
        // Mipmaps exist only when generated; a mipmap filter without them samples the full image.
        let mipmaps = if generate { Some(between_levels.unwrap_or(Filter::Nearest)) } else { None };
        Ok(Self { wrap, magnify, minify, mipmaps })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sampling_of(texture: &str) -> (TextureSampling, Vec<String>) {
        let text = format!("<X3D><Scene><Shape><Appearance>{texture}</Appearance><Box/></Shape></Scene></X3D>");
        let scene = crate::x3d::load_str(&text, std::path::Path::new("t.x3d"), &Default::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let node = (0..scene.nodes.len() as u32)
            .map(NodeId)
            .find(|&n| scene.node(n).type_name == "ImageTexture")
            .expect("an ImageTexture");
        let mut notes = Vec::new();
        (TextureSampling::read(&scene, node, &mut notes).unwrap(), notes)
    }

    #[test]
    fn without_properties_repeat_fields_wrap_and_filtering_is_smooth() {
        let (s, notes) = sampling_of("<ImageTexture url='\"a.png\"' repeatT='false'/>");
        assert_eq!(s.wrap, [Wrap::Repeat, Wrap::Clamp]);
        assert_eq!((s.magnify, s.minify, s.mipmaps), (Filter::Linear, Filter::Linear, Some(Filter::Linear)));
        assert!(notes.is_empty());
    }

    #[test]
    fn texture_properties_decide_alone_with_the_standards_defaults() {
        // Defaults of 18.4.8: REPEAT, FASTEST filters, no mipmaps; repeatS='false' is ignored.
        let (s, _) = sampling_of("<ImageTexture url='\"a.png\"' repeatS='false'><TextureProperties/></ImageTexture>");
        assert_eq!(
            s,
            TextureSampling {
                wrap: [Wrap::Repeat; 2],
                magnify: Filter::Nearest,
                minify: Filter::Nearest,
                mipmaps: None
            }
        );
        let (s, notes) = sampling_of(
            "<ImageTexture url='\"a.png\"'><TextureProperties boundaryModeS='MIRRORED_REPEAT' \
             boundaryModeT='CLAMP_TO_BOUNDARY' magnificationFilter='NICEST' \
             minificationFilter='AVG_PIXEL_NEAREST_MIPMAP' generateMipMaps='true'/></ImageTexture>",
        );
        assert_eq!(
            s,
            TextureSampling {
                wrap: [Wrap::Mirror, Wrap::Clamp],
                magnify: Filter::Linear,
                minify: Filter::Linear,
                mipmaps: Some(Filter::Nearest)
            }
        );
        assert!(notes.iter().any(|n| n.contains("CLAMP_TO_BOUNDARY")), "{notes:?}");
        let (s, notes) = sampling_of(
            "<ImageTexture url='\"a.png\"'><TextureProperties magnificationFilter='BLURRY'/></ImageTexture>",
        );
        assert_eq!(s.magnify, Filter::Nearest);
        assert!(notes.iter().any(|n| n.contains("BLURRY")), "{notes:?}");
    }
}
