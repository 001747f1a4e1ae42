//! Everything that can be wrong with a database file, each case saying which file and what.

use core::fmt;
use std::io;
use std::path::PathBuf;

use morris_engine::Rules;

use crate::key::Key;

use super::header::{describe_metric, describe_rules, Metric, MAGIC};

#[derive(Debug)]
pub enum DbError {
    /// The operating system refused an operation (`action` says which).
    Io {
        path: PathBuf,
        action: &'static str,
        source: io::Error,
    },
    /// The file is shorter than its header says (or than a header).
    Truncated {
        path: PathBuf,
        len: u64,
        expected: u64,
    },
    /// The file is longer than its header says.
    TrailingBytes {
        path: PathBuf,
        len: u64,
        expected: u64,
    },
    BadMagic {
        path: PathBuf,
        found: [u8; 8],
    },
    UnsupportedVersion {
        path: PathBuf,
        found: u32,
        supported: u32,
    },
    UnknownGame {
        path: PathBuf,
        id: u8,
    },
    UnknownRuleFlags {
        path: PathBuf,
        flags: u8,
    },
    UnknownEncoding {
        path: PathBuf,
        found: u8,
    },
    WrongRules {
        path: PathBuf,
        found: Rules,
        expected: Rules,
    },
    WrongKey {
        path: PathBuf,
        found: Key,
        expected: Key,
    },
    /// A table of the plain game where one under the no-capture rule was expected, or of
    /// another limit.
    WrongMetric {
        path: PathBuf,
        found: Metric,
        expected: Metric,
    },
    /// The header's key cannot occur under its own rules (more stones than the rules give a
    /// side, more than the board holds, or a stone count outside 3..=12).
    ImpossibleKey {
        path: PathBuf,
        key: Key,
        stones: u8,
    },
    /// The entry count is not the index size of the header's key.
    WrongEntryCount {
        path: PathBuf,
        key: Key,
        found: u64,
        expected: u64,
    },
    ChecksumMismatch {
        path: PathBuf,
        stored: u64,
        computed: u64,
    },
    /// The overflow table disagrees with the entries (checked with the checksum).
    BadOverflow {
        path: PathBuf,
        detail: String,
    },
    /// Entries no encoder writes (checked with the checksum).
    BadEntries {
        path: PathBuf,
        detail: String,
    },
    /// A block of a packed table that cannot be trusted: its bytes do not hash to the
    /// checksum of the block index, or do not decompress to the block's size. `offset` is
    /// where the block starts in the file.
    DamagedBlock {
        path: PathBuf,
        block: u64,
        offset: u64,
        detail: String,
    },
    /// A writer was given data that cannot be stored as it is.
    InvalidData {
        path: PathBuf,
        detail: String,
    },
}

impl DbError {
    pub fn path(&self) -> &PathBuf {
        match self {
            DbError::Io { path, .. }
            | DbError::Truncated { path, .. }
            | DbError::TrailingBytes { path, .. }
            | DbError::BadMagic { path, .. }
            | DbError::UnsupportedVersion { path, .. }
            | DbError::UnknownGame { path, .. }
            | DbError::UnknownRuleFlags { path, .. }
            | DbError::UnknownEncoding { path, .. }
            | DbError::WrongRules { path, .. }
            | DbError::WrongKey { path, .. }
            | DbError::WrongMetric { path, .. }
            | DbError::BadEntries { path, .. }
            | DbError::WrongEntryCount { path, .. }
            | DbError::ImpossibleKey { path, .. }
            | DbError::ChecksumMismatch { path, .. }
            | DbError::BadOverflow { path, .. }
            | DbError::DamagedBlock { path, .. }
            | DbError::InvalidData { path, .. } => path,
        }
    }

    pub fn io(path: impl Into<PathBuf>, action: &'static str, source: io::Error) -> Self {
        DbError::Io {
            path: path.into(),
            action,
            source,
        }
    }
}

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.path().display())?;
        match self {
            DbError::Io { action, source, .. } => write!(f, "cannot {action}: {source}"),
            DbError::Truncated { len, expected, .. } => write!(
                f,
                "truncated: {len} bytes, the format needs {expected} (an interrupted copy or a \
                 full disk?)"
            ),
            DbError::TrailingBytes { len, expected, .. } => write!(
                f,
                "{} bytes too long: {len} bytes, the header accounts for {expected}",
                len - expected
            ),
            DbError::BadMagic { found, .. } => write!(
                f,
                "not a morris database: starts with {:?}, expected {:?}",
                String::from_utf8_lossy(found),
                String::from_utf8_lossy(MAGIC)
            ),
            DbError::UnsupportedVersion {
                found, supported, ..
            } => write!(
                f,
                "format version {found}; this program reads version {supported}"
            ),
            DbError::UnknownGame { id, .. } => write!(f, "unknown game id {id} in the header"),
            DbError::UnknownRuleFlags { flags, .. } => {
                write!(f, "unknown rule flags {flags:#04x} in the header")
            }
            DbError::UnknownEncoding { found, .. } => {
                write!(f, "unknown entry encoding {found} in the header")
            }
            DbError::WrongRules {
                found, expected, ..
            } => write!(
                f,
                "solved for {}, not for {}",
                describe_rules(found),
                describe_rules(expected)
            ),
            DbError::WrongKey {
                found, expected, ..
            } => write!(f, "holds key {found}, not {expected}"),
            DbError::WrongMetric {
                found, expected, ..
            } => write!(
                f,
                "holds {}, not {}",
                describe_metric(*found),
                describe_metric(*expected)
            ),
            DbError::ImpossibleKey { key, stones, .. } => write!(
                f,
                "damaged header: key {key} cannot occur with {stones} stones a side"
            ),
            DbError::WrongEntryCount {
                key,
                found,
                expected,
                ..
            } => write!(
                f,
                "header says {found} entries, but key {key} has {expected} slots"
            ),
            DbError::ChecksumMismatch {
                stored, computed, ..
            } => write!(
                f,
                "checksum mismatch: the header says {stored:#018x}, the data hashes to \
                 {computed:#018x} (damaged data)"
            ),
            DbError::BadOverflow { detail, .. } => write!(f, "bad overflow table: {detail}"),
            DbError::BadEntries { detail, .. } => write!(f, "damaged entries: {detail}"),
            DbError::DamagedBlock {
                block,
                offset,
                detail,
                ..
            } => write!(
                f,
                "damaged block {block} at byte offset {offset}: {detail} (copy or pack the \
                 file again)"
            ),
            DbError::InvalidData { detail, .. } => write!(f, "cannot write: {detail}"),
        }
    }
}

impl std::error::Error for DbError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DbError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
