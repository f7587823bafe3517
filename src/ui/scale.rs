//! The figure's size in the status bar. X3D lengths are metres (ISO/IEC 19775-1 4.3.6, unless a UNIT
//! statement says otherwise, which the loader applies), so a humanoid's height reads directly in metres.
//! Files converted from other tools often carry another unit without saying so: a figure modelled in
//! centimetres opens 170 m tall, one in millimetres 1.7 km. Such a size is pointed out, with an offer to
//! read the figure at human size: a power of ten that brings it to a human height. That is a way of
//! reading the view, never a change to the file: the picture is the same (a perspective picture does not
//! change when the whole scene is scaled), the lengths shown (the height) follow it.

/// Heights outside this range (metres) are not a human's: under 5 cm or over 10 m.
pub const PLAUSIBLE_HEIGHT: std::ops::RangeInclusive<f32> = 0.05..=10.0;

/// A grown human's height, the target of [`human_size_factor`].
const HUMAN_HEIGHT: f32 = 1.7;

/// The factor (a power of ten) that brings a figure `height` metres tall to a human height, or `None`
/// when the height is plausible already (or not a positive finite number).
pub fn human_size_factor(height: f32) -> Option<f32> {
    if !height.is_finite() || height <= 0.0 || PLAUSIBLE_HEIGHT.contains(&height) {
        return None;
    }
    let exponent = (HUMAN_HEIGHT / height).log10().round();
    Some(10f32.powf(exponent))
}

/// The unit the file was probably modelled in, for a figure that needs `factor` to look human.
fn likely_unit(factor: f32) -> Option<&'static str> {
    let exponent = factor.log10().round() as i32;
    match exponent {
        -1 => Some("decimetres"),
        -2 => Some("centimetres"),
        -3 => Some("millimetres"),
        3 => Some("kilometres"),
        _ => None,
    }
}

/// A length for the status bar: metres with three significant digits, or centimetres / millimetres /
/// kilometres where metres would read poorly.
pub fn length_label(metres: f32) -> String {
    let m = metres.abs();
    if m >= 1000.0 {
        format!("{:.3} km", metres / 1000.0)
    } else if m >= 0.995 {
        format!("{metres:.2} m")
    } else if m >= 0.01 {
        format!("{:.1} cm", metres * 100.0)
    } else {
        format!("{:.2} mm", metres * 1000.0)
    }
}

/// What the status bar says of a figure `height` metres tall, read at `applied` (the factor in use, 1
/// for the file's own size): the text, and whether it warns.
pub fn height_status(height: f32, applied: f32) -> (String, bool) {
    if applied != 1.0 {
        return (
            format!("{} tall at ×{applied} (the file: {})", length_label(height * applied), length_label(height)),
            false,
        );
    }
    match human_size_factor(height) {
        None => (format!("{} tall", length_label(height)), false),
        Some(factor) => {
            let unit = likely_unit(factor).map_or_else(String::new, |u| format!(", modelled in {u}?"));
            (format!("{} tall: not a human size{unit}", length_label(height)), true)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centimetre_and_millimetre_figures_are_pointed_out_and_brought_to_human_size() {
        assert_eq!(human_size_factor(1.75), None);
        assert_eq!(human_size_factor(0.3), None, "a doll or a hand model is plausible");
        assert_eq!(human_size_factor(153.0), Some(0.01));
        assert_eq!(human_size_factor(1730.0), Some(0.001));
        assert_eq!(human_size_factor(0.017), Some(100.0));
        assert_eq!(human_size_factor(0.0), None);
        assert_eq!(human_size_factor(f32::NAN), None);
        let (text, warns) = height_status(153.0, 1.0);
        assert!(warns && text.contains("153.00 m tall") && text.contains("centimetres"), "{text}");
        let (text, warns) = height_status(153.0, 0.01);
        assert!(!warns && text.starts_with("1.53 m tall at ×0.01"), "{text}");
        assert_eq!(height_status(1.73, 1.0), ("1.73 m tall".to_string(), false));
        assert_eq!(length_label(0.25), "25.0 cm");
        assert_eq!(length_label(0.004), "4.00 mm");
    }
}
