//! The one door every file the program reads comes in by: X3D documents and the files they refer to,
//! pose files, scripts, motion captures (ASF, AMC, BVH), bone mappings, catalogue manifests and what
//! they list, the window's settings. Folders are searched through [`walk`].
//!
//! The door opens regular files only. A path naming a FIFO, a device (`/dev/zero`, also behind a link), a
//! socket or a directory is refused before it is opened; the file is opened without blocking (a FIFO
//! swapped in after that look would otherwise wait for a writer forever) and its type and size are checked
//! again on the open handle. A file larger than the limit of its kind ([`InputKind`]) is refused before a
//! byte is read, and reading stops one byte past the limit should it grow meanwhile, so memory spent on
//! an input is bounded by its limit whatever the file system does.
//!
//! A failure is described by its kind alone ([`ReadFailure`]): never by the file's bytes, so that the
//! program cannot be used to print files it was not meant to read. Text that is not UTF-8 is reported by
//! its line and column.

pub mod walk;

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// What a file is read as. Each kind has a size limit, overridable in whole MiB by an environment
/// variable (in the environment of any command or the window), documented in the guide's
/// *Input files* section.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InputKind {
    /// The X3D file opened (XML, ClassicVRML, VRML97, JSON, gzip-compressed or not).
    X3dDocument,
    /// A file a scene refers to: Inline, EXTERNPROTO, ImageTexture (`LoadOptions::max_reference_bytes`).
    Reference,
    PoseFile,
    /// The window's `--script`.
    Script,
    Asf,
    Amc,
    Bvh,
    /// A bone mapping (`--map`).
    Mapping,
    /// A catalogue shard's `catalog.json`.
    ShardManifest,
    /// An image, sheet or preview a shard's manifest lists, copied by `catalog merge`.
    CatalogueOutput,
    /// The window's remembered panel state.
    Settings,
}

/// One MiB, the unit of every limit.
pub const MIB: u64 = 1 << 20;

impl InputKind {
    pub const ALL: [InputKind; 11] = [
        InputKind::X3dDocument,
        InputKind::Reference,
        InputKind::PoseFile,
        InputKind::Script,
        InputKind::Asf,
        InputKind::Amc,
        InputKind::Bvh,
        InputKind::Mapping,
        InputKind::ShardManifest,
        InputKind::CatalogueOutput,
        InputKind::Settings,
    ];

    /// What files of this kind are called in messages ("pose files").
    pub fn plural(self) -> &'static str {
        match self {
            Self::X3dDocument => "X3D documents",
            Self::Reference => "referenced files",
            Self::PoseFile => "pose files",
            Self::Script => "scripts",
            Self::Asf => "ASF skeletons",
            Self::Amc => "AMC motions",
            Self::Bvh => "BVH captures",
            Self::Mapping => "bone mappings",
            Self::ShardManifest => "catalogue manifests",
            Self::CatalogueOutput => "catalogue images and previews",
            Self::Settings => "settings files",
        }
    }

    /// The environment variable that sets this kind's limit in whole MiB.
    pub fn variable(self) -> &'static str {
        match self {
            Self::X3dDocument => "HANIM_MAX_DOCUMENT_MIB",
            Self::Reference => "HANIM_MAX_REFERENCE_MIB",
            Self::PoseFile => "HANIM_MAX_POSE_MIB",
            Self::Script => "HANIM_MAX_SCRIPT_MIB",
            Self::Asf => "HANIM_MAX_ASF_MIB",
            Self::Amc => "HANIM_MAX_AMC_MIB",
            Self::Bvh => "HANIM_MAX_BVH_MIB",
            Self::Mapping => "HANIM_MAX_MAPPING_MIB",
            Self::ShardManifest => "HANIM_MAX_MANIFEST_MIB",
            Self::CatalogueOutput => "HANIM_MAX_CATALOGUE_FILE_MIB",
            Self::Settings => "HANIM_MAX_SETTINGS_MIB",
        }
    }

    /// The limit without the variable, in MiB: far above any real file of the kind (the largest corpus
    /// X3D file is 2.4 MB, the largest AMC 3.5 MB, a 146-joint pose file 60 KiB), low enough that a wrong
    /// path costs little. X3D documents allow 1 GiB: a 500 MB generated humanoid still loads.
    pub const fn default_mib(self) -> u64 {
        match self {
            Self::X3dDocument => 1024,
            Self::Reference => 64,
            Self::PoseFile | Self::Script | Self::Mapping => 16,
            Self::Asf => 16,
            Self::Amc | Self::Bvh => 256,
            Self::ShardManifest => 64,
            Self::CatalogueOutput => 256,
            Self::Settings => 1,
        }
    }

    /// The limit in bytes: the variable's whole MiB when it is set to a number, else the default (a typo
    /// must not lift a limit).
    pub fn limit(self) -> u64 {
        mib_from_env(self.variable(), self.default_mib())
    }
}

/// A size in MiB from the environment variable `name` (whole MiB), or `default` when it is unset or not a
/// whole number; in bytes.
pub fn mib_from_env(name: &str, default: u64) -> u64 {
    let mib = std::env::var(name).ok().and_then(|v| v.trim().parse::<u64>().ok()).unwrap_or(default);
    mib.saturating_mul(MIB)
}

/// Why a file was not read, in general terms only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadFailure {
    NotFound,
    /// A directory, device, FIFO or socket: "a FIFO".
    NotRegularFile(&'static str),
    /// Larger than `limit` bytes: `size` is the size on disk, or what was read once the file grew.
    TooLarge {
        size: u64,
        limit: u64,
    },
    /// Opening or reading failed (permissions, I/O error): the error's kind.
    Unreadable(String),
    /// Text that is not UTF-8: where the first bad byte is (1-based line, column in characters).
    NotUtf8 {
        line: usize,
        column: usize,
    },
}

/// A file of `kind` at `path` that could not be read, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    pub path: PathBuf,
    pub kind: InputKind,
    pub failure: ReadFailure,
}

impl InputError {
    /// The reason alone, without the path: "is a FIFO, not a regular file".
    pub fn reason(&self) -> String {
        match &self.failure {
            ReadFailure::NotFound => "no such file".to_string(),
            ReadFailure::NotRegularFile(kind) => format!("is {kind}, not a regular file"),
            ReadFailure::TooLarge { size, limit } => format!(
                "is larger than the limit of {} for {} ({size} bytes; set {} to raise it)",
                describe_size(*limit),
                self.kind.plural(),
                self.kind.variable()
            ),
            ReadFailure::Unreadable(kind) => format!("cannot be read ({kind})"),
            ReadFailure::NotUtf8 { .. } => format!("is not UTF-8 text (expected one of the {})", self.kind.plural()),
        }
    }

    /// Line and column of the failure, where it has one (text that is not UTF-8).
    pub fn position(&self) -> Option<(usize, usize)> {
        match self.failure {
            ReadFailure::NotUtf8 { line, column } => Some((line, column)),
            _ => None,
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position() {
            Some((line, column)) => write!(f, "{}:{line}:{column}: {}", self.path.display(), self.reason()),
            None => write!(f, "{}: {}", self.path.display(), self.reason()),
        }
    }
}

impl std::error::Error for InputError {}

/// `limit` in words: whole MiB as "16 MiB", anything else in bytes.
pub fn describe_size(limit: u64) -> String {
    if limit >= MIB && limit.is_multiple_of(MIB) { format!("{} MiB", limit / MIB) } else { format!("{limit} bytes") }
}

/// The bytes of the file of `kind` at `path`, within its limit.
pub fn read(path: &Path, kind: InputKind) -> Result<Vec<u8>, InputError> {
    read_within(path, kind.limit()).map_err(|failure| InputError { path: path.to_path_buf(), kind, failure })
}

/// The UTF-8 text of the file of `kind` at `path`, within its limit; text that is not UTF-8 is an error
/// at the line and column of its first bad byte (which is not quoted).
pub fn read_text(path: &Path, kind: InputKind) -> Result<String, InputError> {
    let bytes = read(path, kind)?;
    String::from_utf8(bytes).map_err(|e| {
        let (line, column) = utf8_error_position(e.as_bytes(), e.utf8_error().valid_up_to());
        InputError { path: path.to_path_buf(), kind, failure: ReadFailure::NotUtf8 { line, column } }
    })
}

/// Where byte `offset` of `bytes` (valid UTF-8 up to it) stands: 1-based line and column in characters.
pub fn utf8_error_position(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset.min(bytes.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    let column = String::from_utf8_lossy(&before[line_start..]).chars().count() + 1;
    (line, column)
}

/// The bytes of the regular file at `path`, at most `limit` of them: the door itself, for callers that
/// carry their own limit (a load's `LoadOptions::max_reference_bytes`).
pub fn read_within(path: &Path, limit: u64) -> Result<Vec<u8>, ReadFailure> {
    let (file, size) = open_regular(path, Some(limit))?;
    let mut bytes = Vec::with_capacity(size.min(limit) as usize);
    // The size may have grown since the look; never read past the limit.
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes).map_err(io_failure)?;
    if bytes.len() as u64 > limit {
        return Err(ReadFailure::TooLarge { size: bytes.len() as u64, limit });
    }
    Ok(bytes)
}

/// The first `count` bytes (or fewer) of the regular file at `path`, whatever its size: to tell what a
/// file is before reading it whole.
pub fn read_head(path: &Path, count: u64) -> Result<Vec<u8>, ReadFailure> {
    let (file, _) = open_regular(path, None)?;
    let mut head = Vec::with_capacity(count.min(64 * 1024) as usize);
    file.take(count).read_to_end(&mut head).map_err(io_failure)?;
    Ok(head)
}

/// Whether `path` names a regular file (through links), by the same rule as the door: `Err` says what it
/// is instead.
pub fn check_regular(path: &Path) -> Result<(), ReadFailure> {
    let metadata = std::fs::metadata(path).map_err(io_failure)?;
    check_metadata(&metadata, None).map(|_| ())
}

/// Opens the regular file at `path` for reading without blocking, and checks its type (and size against
/// `limit`) by path first, then on the handle.
fn open_regular(path: &Path, limit: Option<u64>) -> Result<(std::fs::File, u64), ReadFailure> {
    // A first look by path, so that a FIFO or device is never even opened.
    let metadata = std::fs::metadata(path).map_err(io_failure)?;
    check_metadata(&metadata, limit)?;
    let file = open_nonblocking(path).map_err(io_failure)?;
    let metadata = file.metadata().map_err(io_failure)?;
    let size = check_metadata(&metadata, limit)?;
    Ok((file, size))
}

fn check_metadata(metadata: &std::fs::Metadata, limit: Option<u64>) -> Result<u64, ReadFailure> {
    let kind = metadata.file_type();
    if !kind.is_file() {
        return Err(ReadFailure::NotRegularFile(describe_file_type(&kind)));
    }
    match limit {
        Some(limit) if metadata.len() > limit => Err(ReadFailure::TooLarge { size: metadata.len(), limit }),
        _ => Ok(metadata.len()),
    }
}

/// What a file that is not a regular file is, for messages: "a directory", "a device", "a FIFO", "a socket".
pub fn describe_file_type(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else if kind.is_symlink() {
        "a link"
    } else {
        "not a file"
    }
}

#[cfg(unix)]
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// An I/O error by its kind only: the OS message is about the call, but the kind is all a user needs.
pub fn io_failure(e: std::io::Error) -> ReadFailure {
    match e.kind() {
        std::io::ErrorKind::NotFound => ReadFailure::NotFound,
        std::io::ErrorKind::PermissionDenied => ReadFailure::Unreadable("permission denied".into()),
        std::io::ErrorKind::IsADirectory => ReadFailure::NotRegularFile("a directory"),
        // A link that leads back to itself (`ELOOP`).
        _ if e.raw_os_error() == Some(libc_eloop()) => ReadFailure::Unreadable("a link loop".into()),
        kind => ReadFailure::Unreadable(kind.to_string()),
    }
}

#[cfg(unix)]
fn libc_eloop() -> i32 {
    libc::ELOOP
}

#[cfg(not(unix))]
fn libc_eloop() -> i32 {
    -1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(path: &Path, kind: InputKind, failure: ReadFailure) -> InputError {
        InputError { path: path.to_path_buf(), kind, failure }
    }

    #[test]
    fn only_regular_files_within_the_limit_are_read() {
        let dir = tempfile::tempdir().expect("temp dir");
        assert_eq!(read_within(dir.path(), 1000), Err(ReadFailure::NotRegularFile("a directory")));
        assert_eq!(read_within(&dir.path().join("none"), 1000), Err(ReadFailure::NotFound));
        let file = dir.path().join("f.x3d");
        std::fs::write(&file, b"0123456789").expect("write");
        assert_eq!(read_within(&file, 10).as_deref(), Ok(&b"0123456789"[..]));
        assert_eq!(read_within(&file, 9), Err(ReadFailure::TooLarge { size: 10, limit: 9 }));
        assert_eq!(read_head(&file, 4).as_deref(), Ok(&b"0123"[..]));
        #[cfg(target_os = "linux")]
        {
            assert_eq!(read_within(Path::new("/dev/zero"), 1000), Err(ReadFailure::NotRegularFile("a device")));
            assert_eq!(read_head(Path::new("/dev/zero"), 10), Err(ReadFailure::NotRegularFile("a device")));
            let link = dir.path().join("zero.json");
            std::os::unix::fs::symlink("/dev/zero", &link).expect("symlink");
            assert_eq!(read_within(&link, 1000), Err(ReadFailure::NotRegularFile("a device")));
            let looped = dir.path().join("loop.json");
            std::os::unix::fs::symlink(&looped, &looped).expect("symlink");
            assert_eq!(read_within(&looped, 1000), Err(ReadFailure::Unreadable("a link loop".into())));
        }
    }

    #[test]
    fn messages_name_the_file_the_reason_and_the_way_to_raise_a_limit() {
        let path = Path::new("/p/pose.json");
        assert_eq!(
            error(path, InputKind::PoseFile, ReadFailure::NotRegularFile("a FIFO")).to_string(),
            "/p/pose.json: is a FIFO, not a regular file"
        );
        assert_eq!(
            error(path, InputKind::PoseFile, ReadFailure::TooLarge { size: 20 * MIB, limit: 16 * MIB }).to_string(),
            "/p/pose.json: is larger than the limit of 16 MiB for pose files (20971520 bytes; set HANIM_MAX_POSE_MIB \
             to raise it)"
        );
        assert_eq!(
            error(path, InputKind::Script, ReadFailure::NotUtf8 { line: 3, column: 7 }).to_string(),
            "/p/pose.json:3:7: is not UTF-8 text (expected one of the scripts)"
        );
        assert_eq!(describe_size(1000), "1000 bytes");
    }

    #[test]
    fn text_that_is_not_utf8_is_placed_and_not_quoted() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("m.bvh");
        std::fs::write(&file, b"HIERARCHY\nROOT h\xe9ips\n").expect("write");
        let e = read_text(&file, InputKind::Bvh).unwrap_err();
        assert_eq!(e.failure, ReadFailure::NotUtf8 { line: 2, column: 7 });
        assert!(!e.to_string().contains("ips"), "{e}");
    }

    #[test]
    fn every_kind_has_its_own_variable_and_a_limit_of_at_least_one_mib() {
        let names: std::collections::HashSet<&str> = InputKind::ALL.iter().map(|k| k.variable()).collect();
        assert_eq!(names.len(), InputKind::ALL.len());
        for kind in InputKind::ALL {
            assert!(kind.default_mib() >= 1, "{kind:?}");
            assert!(kind.variable().starts_with("HANIM_MAX_") && kind.variable().ends_with("_MIB"));
        }
    }
}
