//! The transport's two ways of playing a file.

/// What the transport plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PlayMode {
    /// The enabled clips on the timeline (one at a time as a rule): for inspecting a motion.
    #[default]
    OneClip,
    /// X3D's time model (ISO/IEC 19775-1 clause 8.4.1, 4.4.8): every enabled sensor and HAnimMotion at
    /// once on the scene clock, ROUTEs reaching any field ([`super::events::FilePlayback`]).
    AsFile,
}
