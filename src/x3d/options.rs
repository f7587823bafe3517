//! What a load is asked to do ([`LoadOptions`]) and how far it has come ([`LoadProgress`], which the
//! window's status bar reads while a parser reports to it through a `ProgressReporter`).

use crate::input::{InputKind, mib_from_env};

/// Options for loading.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// Read local Inline targets.
    pub follow_inlines: bool,
    /// How many Inlines deep to follow.
    pub max_inline_depth: usize,
    /// The largest referenced file (Inline, EXTERNPROTO, ImageTexture) read, in bytes on disk; a larger one
    /// is a warning and the next url is tried.
    pub max_reference_bytes: u64,
    /// The largest decompressed size of gzip data (the main file or a referenced one), in bytes.
    pub max_decompressed_bytes: u64,
    /// Where the main file's parsing reports how far it has come (the window's status bar reads it).
    pub progress: Option<std::sync::Arc<LoadProgress>>,
}

/// Default of [`LoadOptions::max_reference_bytes`]: 64 MiB, far above any humanoid or texture file seen
/// (the door's limit for [`InputKind::Reference`]).
pub const DEFAULT_MAX_REFERENCE_MIB: u64 = InputKind::Reference.default_mib();
/// Default of [`LoadOptions::max_decompressed_bytes`]: 256 MiB of text (the largest corpus file is 2.4 MB).
pub const DEFAULT_MAX_DECOMPRESSED_MIB: u64 = 256;

impl Default for LoadOptions {
    /// The defaults, with the two size limits overridable by the environment variables
    /// `HANIM_MAX_REFERENCE_MIB` and `HANIM_MAX_DECOMPRESSED_MIB` (whole MiB), so that every command and
    /// the window honour them.
    fn default() -> Self {
        Self {
            follow_inlines: true,
            max_inline_depth: 8,
            max_reference_bytes: InputKind::Reference.limit(),
            max_decompressed_bytes: mib_from_env("HANIM_MAX_DECOMPRESSED_MIB", DEFAULT_MAX_DECOMPRESSED_MIB),
            progress: None,
        }
    }
}

/// A parser's side of [`LoadProgress`]: called with the byte offset reached, it reports each time
/// another 1/[`LoadProgress::STEPS`] of the text is read; it does nothing when no one listens or the text
/// is not the main file.
pub(crate) struct ProgressReporter {
    progress: Option<std::sync::Arc<LoadProgress>>,
    total: usize,
    next: usize,
}

impl ProgressReporter {
    pub(crate) fn new(options: &LoadOptions, is_main: bool, total: usize) -> Self {
        Self { progress: options.progress.clone().filter(|_| is_main), total, next: 0 }
    }

    pub(crate) fn at(&mut self, position: usize) {
        if let Some(p) = &self.progress
            && position >= self.next
        {
            p.set_parsed(position, self.total);
            self.next = position + self.total / LoadProgress::STEPS + 1;
        }
    }
}

/// What a load is doing, shared with the thread that shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadStage {
    Reading,
    Parsing,
    /// The scene is read; the humanoids are being built from it.
    Building,
}

/// How far a load has come: the stage, and the share of the main file's text parsed (per 10,000).
#[derive(Debug, Default)]
pub struct LoadProgress {
    stage: std::sync::atomic::AtomicU8,
    parsed: std::sync::atomic::AtomicU32,
    updates: std::sync::atomic::AtomicU32,
}

impl LoadProgress {
    /// How often the parsers report: each time another 1/STEPS of the main file is read.
    pub const STEPS: usize = 200;

    pub fn set_stage(&self, stage: LoadStage) {
        let value = match stage {
            LoadStage::Reading => 0,
            LoadStage::Parsing => 1,
            LoadStage::Building => 2,
        };
        self.stage.store(value, std::sync::atomic::Ordering::Relaxed);
        if stage == LoadStage::Building {
            self.parsed.store(10_000, std::sync::atomic::Ordering::Relaxed);
        }
    }

    pub fn stage(&self) -> LoadStage {
        match self.stage.load(std::sync::atomic::Ordering::Relaxed) {
            0 => LoadStage::Reading,
            1 => LoadStage::Parsing,
            _ => LoadStage::Building,
        }
    }

    /// `done` of `total` bytes of the main file parsed.
    pub fn set_parsed(&self, done: usize, total: usize) {
        let share = (done.min(total) as f64 / total.max(1) as f64 * 10_000.0) as u32;
        self.parsed.store(share, std::sync::atomic::Ordering::Relaxed);
        self.updates.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// The share of the main file parsed, 0 to 1.
    pub fn parsed(&self) -> f32 {
        self.parsed.load(std::sync::atomic::Ordering::Relaxed) as f32 / 10_000.0
    }

    /// How many times the parser reported.
    pub fn updates(&self) -> u32 {
        self.updates.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// For a status bar: "reading", "parsing 45%", "building the humanoids".
    pub fn describe(&self) -> String {
        match self.stage() {
            LoadStage::Reading => "reading".into(),
            LoadStage::Parsing => format!("parsing {:.0}%", self.parsed() * 100.0),
            LoadStage::Building => "building the humanoids".into(),
        }
    }
}
