//! How root translations from clips are placed (see the module documentation of [`super`]).

/// How root translations from clips are placed (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RootMode {
    /// The file's values, as X_ITE uses them (semantics note §4.6).
    #[default]
    AsGiven,
    /// Moved so that the clip starts at the root's rest translation: `t = rest + (v − v_first)`.
    RelativeToFirst,
    /// As `RelativeToFirst`, with the horizontal (X, Z) travel removed: only the height changes.
    InPlace,
}

impl RootMode {
    pub const ALL: [RootMode; 3] = [RootMode::AsGiven, RootMode::RelativeToFirst, RootMode::InPlace];

    pub fn label(self) -> &'static str {
        match self {
            RootMode::AsGiven => "as given",
            RootMode::RelativeToFirst => "relative to first frame",
            RootMode::InPlace => "in place",
        }
    }

    pub fn from_name(name: &str) -> Option<RootMode> {
        match name {
            "as-given" | "given" => Some(RootMode::AsGiven),
            "relative" | "relative-to-first" => Some(RootMode::RelativeToFirst),
            "in-place" | "inplace" => Some(RootMode::InPlace),
            _ => None,
        }
    }
}
