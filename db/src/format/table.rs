//! A solved sub-database opened for reading, memory-mapped so that looking up a slot is a load.
//!
//! # The memory-map contract
//!
//! [`Table::open_with`] and [`Table::open_any`] map the file read-only, after reading its
//! header with an ordinary read and checking the file's size against it: a file too short or
//! too long for its header is refused before it is mapped, so no look-up can reach past its
//! end. What no check can cover is a file changed *after* it was mapped: the mapping shows
//! the file as it is now, not as it was checked. Truncating a mapped file makes the next read
//! of a page past the new end a SIGBUS, which kills the process; rewriting it in place makes
//! the bytes behind a `&[u8]` change under the program. Both are the user's to avoid: **never
//! rewrite, truncate or append to a table in place while a process has it open**. Replace a
//! table by writing a new file and renaming it over the old one (what [`super::Writer`] does):
//! a process that has the old file open keeps reading the old, unchanged inode.
//!
//! This program keeps the contract itself: its writer never modifies a file with a final name
//! (it writes `<name>.tmp` and renames), and a solve holds the directory's write lock, so two
//! writers cannot interleave. The one `unsafe` operation is [`map_read_only`]. A caller that
//! cannot promise the contract (files on a network share edited elsewhere, say) reads the
//! table into memory instead with [`Table::read_any`] or [`Table::from_bytes`]: no mapping,
//! nothing to break, at the price of reading the whole file up front.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use memmap2::Mmap;
use morris_engine::Rules;
use xxhash_rust::xxh3::xxh3_64;

use super::entry::{wdl2, ByteOutcomes, Entry};
use super::error::DbError;
use super::header::{Encoding, Header, Metric, HEADER_LEN, OVERFLOW_RECORD};
use crate::huge::HugeTable;
use crate::index::slots;
use crate::key::Key;
use crate::outcome::Outcome;

pub struct Table {
    path: PathBuf,
    map: Bytes,
    header: Header,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("path", &self.path)
            .field("header", &self.header)
            .finish()
    }
}

/// A table's bytes: the file's mapping, a copy in memory (see [`Table::into_resident`]), or
/// bytes read or given whole ([`Table::from_bytes`]).
enum Bytes {
    Mapped(Mmap),
    /// The copy and the table's length in bytes (the copy is rounded up to whole words).
    Resident(HugeTable, usize),
    Owned(Box<[u8]>),
}

impl core::ops::Deref for Bytes {
    type Target = [u8];

    #[inline]
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Mapped(m) => m,
            Bytes::Resident(m, len) => &m.as_bytes()[..*len],
            Bytes::Owned(b) => b,
        }
    }
}

/// A table's slots read in bulk ([`Table::decoder`]); the same outcomes as [`Table::outcome`].
pub struct Decoder<'a> {
    table: &'a Table,
    bytes: &'a [u8],
    /// `None` for the two-bit encoding, read through the table.
    outcomes: Option<ByteOutcomes>,
}

impl Decoder<'_> {
    /// The outcome of `slot`.
    #[inline]
    pub fn outcome(&self, slot: u64) -> Outcome {
        self.outcomes
            .as_ref()
            .and_then(|outcomes| outcomes.get(self.bytes[slot as usize]))
            .unwrap_or_else(|| self.table.outcome(slot))
    }

    /// The outcomes of the slots `run`, into `out` (as long as the run).
    #[inline]
    pub fn outcomes(&self, run: core::ops::Range<u64>, out: &mut [Option<Outcome>]) {
        assert_eq!(out.len() as u64, run.end - run.start, "one outcome a slot");
        let Some(outcomes) = &self.outcomes else {
            for (o, slot) in out.iter_mut().zip(run) {
                *o = Some(self.table.outcome(slot));
            }
            return;
        };
        let bytes = &self.bytes[run.start as usize..run.end as usize];
        for ((o, &b), slot) in out.iter_mut().zip(bytes).zip(run) {
            *o = Some(match outcomes.get(b) {
                Some(outcome) => outcome,
                None => self.table.outcome(slot),
            });
        }
    }
}

/// What to check when opening.
#[derive(Copy, Clone, Debug)]
pub struct Checks {
    /// Hash the whole file and check the overflow table against the entries: a read of the
    /// whole file (a second or so per GiB), worth it except where files are reopened often.
    pub checksum: bool,
}

impl Default for Checks {
    fn default() -> Checks {
        Checks { checksum: true }
    }
}

impl Table {
    /// Opens the plain table of `key` under `rules`, with every check.
    pub fn open(path: impl AsRef<Path>, rules: Rules, key: Key) -> Result<Table, DbError> {
        Table::open_with(path, rules, Metric::Plain, key, Checks::default())
    }

    /// Opens the table of `key` under `rules` and `metric`, refusing a file whose header
    /// says otherwise, whose size does not match its header, or (with `checks.checksum`)
    /// whose data does not hash to the header's checksum.
    ///
    /// The file is memory-mapped: see the module's memory-map contract (never rewrite or
    /// truncate a table in place while it is open).
    pub fn open_with(
        path: impl AsRef<Path>,
        rules: Rules,
        metric: Metric,
        key: Key,
        checks: Checks,
    ) -> Result<Table, DbError> {
        let path = path.as_ref();
        let (file, len, header) = read_header(path)?;
        check_identity(
            path,
            (header.rules, header.metric, header.key),
            (rules, metric, key),
        )?;
        Table::map(path, file, len, header, checks)
    }

    /// Opens a table whatever its rules and key (to describe it, or to query it by file);
    /// memory-mapped like [`Table::open_with`].
    pub fn open_any(path: impl AsRef<Path>, checks: Checks) -> Result<Table, DbError> {
        let path = path.as_ref();
        let (file, len, header) = read_header(path)?;
        Table::map(path, file, len, header, checks)
    }

    /// Reads a table whatever its rules and key into memory, without a mapping: safe whatever
    /// happens to the file afterwards, at the price of reading it whole.
    pub fn read_any(path: impl AsRef<Path>, checks: Checks) -> Result<Table, DbError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|e| DbError::io(path, "read", e))?;
        Table::from_bytes(path, bytes, checks)
    }

    /// A table from its bytes (the whole file), checked like a file: `path` only names it in
    /// errors. Any bytes are safe to give: what is not a table is an error, never a panic
    /// (the loader's fuzz target feeds it arbitrary bytes).
    pub fn from_bytes(
        path: impl AsRef<Path>,
        bytes: Vec<u8>,
        checks: Checks,
    ) -> Result<Table, DbError> {
        let path = path.as_ref();
        let len = bytes.len() as u64;
        let Some(h) = bytes.first_chunk::<HEADER_LEN>() else {
            return Err(truncated(path, len));
        };
        let header = Header::decode(h, path)?;
        check_size(path, &header, len)?;
        Table::checked(
            path.to_path_buf(),
            Bytes::Owned(bytes.into()),
            header,
            checks,
        )
    }

    /// Maps a file whose header is read, once its size is checked; then checks the rest.
    fn map(
        path: &Path,
        file: File,
        len: u64,
        header: Header,
        checks: Checks,
    ) -> Result<Table, DbError> {
        check_size(path, &header, len)?;
        // SAFETY: read-only mapping of a database file, which this program never modifies in
        // place (written under a temporary name, then renamed; one writer per directory).
        // Changes by others are excluded by the module's contract, documented in the README.
        let map = unsafe { map_read_only(&file, path)? };
        // The size checked above is that of the file when its header was read; a file
        // truncated or extended in place between the two is refused rather than trusted.
        if map.len() as u64 != len {
            return Err(DbError::Truncated {
                path: path.to_path_buf(),
                len: map.len() as u64,
                expected: len,
            });
        }
        Table::checked(path.to_path_buf(), Bytes::Mapped(map), header, checks)
    }

    fn checked(
        path: PathBuf,
        map: Bytes,
        header: Header,
        checks: Checks,
    ) -> Result<Table, DbError> {
        let table = Table { path, map, header };
        if checks.checksum {
            table.verify()?;
        }
        Ok(table)
    }

    /// Hashes the data and checks the overflow table: sorted, one record per overflow marker.
    pub fn verify(&self) -> Result<(), DbError> {
        let computed = xxh3_64(&self.map[HEADER_LEN..]);
        if computed != self.header.checksum {
            return Err(DbError::ChecksumMismatch {
                path: self.path.clone(),
                stored: self.header.checksum,
                computed,
            });
        }
        let bad = |detail: String| DbError::BadOverflow {
            path: self.path.clone(),
            detail,
        };
        if self.header.encoding == Encoding::Wdl2 {
            // No overflow table; each slot one of three patterns, none in the padding.
            if self.header.overflow != 0 {
                return Err(bad("an overflow table in a two-bit table".to_string()));
            }
            let padded = self.header.entries.div_ceil(4) * 4;
            return match (0..padded).find(|&s| {
                let bits = wdl2::get(self.entries(), s);
                bits == 3 || (s >= self.len() && bits != 0)
            }) {
                Some(s) => Err(DbError::BadEntries {
                    path: self.path.clone(),
                    detail: format!("slot {s}: a two-bit pattern that means nothing"),
                }),
                None => Ok(()),
            };
        }
        let markers = count_markers(self.entries());
        if markers != self.header.overflow {
            return Err(bad(format!(
                "{markers} overflow markers, {} records",
                self.header.overflow
            )));
        }
        let mut previous = None;
        for (slot, _) in self.overflow_records() {
            if previous.is_some_and(|p| p >= slot) || slot >= self.len() {
                return Err(bad(format!("record for slot {slot} out of order or range")));
            }
            if !self.get(slot).is_overflow() {
                return Err(bad(format!("record for slot {slot}, which has no marker")));
            }
            previous = Some(slot);
        }
        Ok(())
    }

    /// The table copied into anonymous memory backed by huge pages where the system offers
    /// them. A file's mapping uses 4 KiB pages, so a solver reading it at random misses the
    /// TLB on nearly every look-up; a resident copy costs one sequential read of the file.
    pub fn into_resident(self) -> Result<Table, DbError> {
        let bytes = &self.map[..];
        let mut copy = HugeTable::zeroed_bytes(bytes.len());
        copy.as_bytes_mut()[..bytes.len()].copy_from_slice(bytes);
        let len = bytes.len();
        Ok(Table {
            path: self.path,
            map: Bytes::Resident(copy, len),
            header: self.header,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    pub fn key(&self) -> Key {
        self.header.key
    }

    /// Number of slots.
    #[inline]
    pub fn len(&self) -> u64 {
        self.header.entries
    }

    pub fn is_empty(&self) -> bool {
        self.header.entries == 0
    }

    pub fn metric(&self) -> Metric {
        self.header.metric
    }

    pub fn encoding(&self) -> Encoding {
        self.header.encoding
    }

    /// The stored byte of a slot (byte encodings).
    #[inline]
    pub fn get(&self, slot: u64) -> Entry {
        Entry(self.entries()[slot as usize])
    }

    /// All entries (for scans): one byte per slot, or four slots a byte in the two-bit
    /// encoding.
    #[inline]
    pub fn entries(&self) -> &[u8] {
        &self.map[HEADER_LEN..HEADER_LEN + self.header.encoding.entry_bytes(self.len()) as usize]
    }

    /// Where the entry of `slot` is, to prefetch it.
    #[inline]
    pub fn entry_ptr(&self, slot: u64) -> *const u8 {
        let byte = match self.header.encoding {
            Encoding::Wdl2 => slot / 4,
            _ => slot,
        };
        self.entries()[byte as usize..].as_ptr()
    }

    /// The outcome of a slot, from the overflow table when the byte says so. A slot a damaged
    /// table cannot answer (a file opened without its checksum checked) reads as a draw.
    #[inline]
    pub fn outcome(&self, slot: u64) -> Outcome {
        let encoding = self.header.encoding;
        if encoding == Encoding::Wdl2 {
            return wdl2::outcome(wdl2::get(self.entries(), slot)).unwrap_or(Outcome::Draw);
        }
        match self.get(slot).decode(encoding) {
            Some(o) => o,
            None => self
                .overflow_record(slot)
                .map_or(Outcome::Draw, |r| Entry::decode_overflow(encoding, r)),
        }
    }

    /// A reader of many slots: [`Table::outcome`] finds the entries' bytes and matches on the
    /// encoding and the byte for every slot; the decoder finds the bytes once and decodes a
    /// byte by one look-up ([`ByteOutcomes`]).
    pub fn decoder(&self) -> Decoder<'_> {
        Decoder {
            table: self,
            bytes: self.entries(),
            outcomes: ByteOutcomes::of(self.header.encoding),
        }
    }

    /// Binary search of the overflow table. `None` only for a table that failed (or skipped)
    /// verification.
    fn overflow_record(&self, slot: u64) -> Option<u16> {
        let table = self.overflow_bytes();
        let (mut lo, mut hi) = (0usize, table.len() / OVERFLOW_RECORD);
        while lo < hi {
            let mid = (lo + hi) / 2;
            let (s, plies) = record(table, mid);
            match s.cmp(&slot) {
                core::cmp::Ordering::Less => lo = mid + 1,
                core::cmp::Ordering::Greater => hi = mid,
                core::cmp::Ordering::Equal => return Some(plies),
            }
        }
        None
    }

    fn overflow_bytes(&self) -> &[u8] {
        &self.map[HEADER_LEN + self.header.encoding.entry_bytes(self.len()) as usize..]
    }

    /// The overflow records (slot, 16 bits) in slot order.
    pub fn overflow_records(&self) -> impl Iterator<Item = (u64, u16)> + '_ {
        let table = self.overflow_bytes();
        (0..table.len() / OVERFLOW_RECORD).map(move |i| record(table, i))
    }
}

fn record(table: &[u8], i: usize) -> (u64, u16) {
    let r = &table[i * OVERFLOW_RECORD..(i + 1) * OVERFLOW_RECORD];
    (
        u64::from_le_bytes(r[0..8].try_into().unwrap()),
        u16::from_le_bytes(r[8..10].try_into().unwrap()),
    )
}

fn truncated(path: &Path, len: u64) -> DbError {
    DbError::Truncated {
        path: path.to_path_buf(),
        len,
        expected: HEADER_LEN as u64,
    }
}

/// Opens a file and reads its header with an ordinary read (no mapping yet).
fn read_header(path: &Path) -> Result<(File, u64, Header), DbError> {
    let mut file = File::open(path).map_err(|e| DbError::io(path, "open", e))?;
    let len = file
        .metadata()
        .map_err(|e| DbError::io(path, "read the size of", e))?
        .len();
    if len < HEADER_LEN as u64 {
        return Err(truncated(path, len));
    }
    let mut h = [0u8; HEADER_LEN];
    file.read_exact(&mut h).map_err(|e| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => truncated(path, len),
        _ => DbError::io(path, "read the header of", e),
    })?;
    let header = Header::decode(&h, path)?;
    Ok((file, len, header))
}

/// Checks that the header's key can occur under its own rules and that the file has exactly
/// the length the header accounts for, so that every slot and overflow record a reader can
/// ask for lies inside the file.
fn check_size(path: &Path, header: &Header, len: u64) -> Result<(), DbError> {
    check_key(path, &header.rules, header.key, header.entries)?;
    let path = path.to_path_buf();
    // Computed in u128: a damaged overflow count must not overflow the sum.
    let wanted = HEADER_LEN as u128
        + header.encoding.entry_bytes(header.entries) as u128
        + OVERFLOW_RECORD as u128 * header.overflow as u128;
    if (len as u128) < wanted {
        return Err(DbError::Truncated {
            path,
            len,
            expected: wanted.min(u64::MAX as u128) as u64,
        });
    }
    if len as u128 > wanted {
        return Err(DbError::TrailingBytes {
            path,
            len,
            expected: wanted as u64,
        });
    }
    Ok(())
}

/// Refuses a file whose header names other rules, another metric or another key than the
/// caller expects: `found` and `expected` are each (rules, metric, key). Shared by every file
/// format.
pub fn check_identity(
    path: &Path,
    found: (Rules, Metric, Key),
    expected: (Rules, Metric, Key),
) -> Result<(), DbError> {
    let path = path.to_path_buf();
    if found.0 != expected.0 {
        return Err(DbError::WrongRules {
            path,
            found: found.0,
            expected: expected.0,
        });
    }
    if found.1 != expected.1 {
        return Err(DbError::WrongMetric {
            path,
            found: found.1,
            expected: expected.1,
        });
    }
    if found.2 != expected.2 {
        return Err(DbError::WrongKey {
            path,
            found: found.2,
            expected: expected.2,
        });
    }
    Ok(())
}

/// Checks that a header's key can occur under its rules and that its entry count is the
/// key's number of slots: shared by every file format, before anything is mapped or indexed.
pub fn check_key(path: &Path, rules: &Rules, key: Key, entries: u64) -> Result<(), DbError> {
    let path = path.to_path_buf();
    let board = rules.board();
    let stones = rules.stones as u32;
    let [us, them, us_hand, them_hand] =
        [key.us, key.them, key.us_hand, key.them_hand].map(u32::from);
    // Counts no writer produces, and that the index (built for at most 12 stones a side on
    // at most the board's points) must not be asked about.
    if !(3..=12).contains(&stones)
        || us + us_hand > stones
        || them + them_hand > stones
        || us + them > board.len() as u32
    {
        return Err(DbError::ImpossibleKey {
            path,
            key,
            stones: rules.stones,
        });
    }
    let expected = slots(board, key);
    if entries != expected {
        return Err(DbError::WrongEntryCount {
            path,
            key,
            found: entries,
            expected,
        });
    }
    Ok(())
}

/// The overflow markers among `entries`, counted in blocks of 128 bytes with a byte-wide sum
/// each, which the compiler turns into vector compares: the plain filtered count took seven
/// times the hash's instructions (callgrind), on every table a solve or a verification opens.
fn count_markers(entries: &[u8]) -> u64 {
    let blocks = entries.chunks_exact(128);
    let tail = blocks.remainder();
    let count = |block: &[u8]| -> u64 {
        let equal = block.iter().map(|&b| (b == Entry::OVERFLOW.0) as u8);
        equal.fold(0u8, u8::wrapping_add) as u64
    };
    blocks.map(count).sum::<u64>() + count(tail)
}

/// Maps `file` read-only.
///
/// # Safety
///
/// The caller must ensure that nobody truncates or modifies the file for as long as the map
/// (and any slice borrowed from it) lives: the map shows the file's current contents, so a
/// change in place alters memory behind a shared reference (undefined behaviour), and a
/// truncation turns reads past the new end into SIGBUS. Replacing the file by renaming
/// another over it is fine: the map keeps the old inode.
pub unsafe fn map_read_only(file: &File, path: &Path) -> Result<Mmap, DbError> {
    // SAFETY: forwarded to the caller (see above); the map itself is read-only.
    unsafe { Mmap::map(file) }.map_err(|e| DbError::io(path, "memory-map", e))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length around the block size, markers dense (all of a block: the byte-wide sum at
    /// its largest) and sparse, against a plain count.
    #[test]
    fn markers_are_counted_as_a_plain_count_would() {
        for len in [0, 1, 127, 128, 129, 255, 256, 257, 1000, 4099] {
            for every in [1, 2, 3, 7, 128, 1000] {
                let entries: Vec<u8> = (0..len)
                    .map(|i| {
                        if i % every == 0 {
                            Entry::OVERFLOW.0
                        } else {
                            (i % 255) as u8
                        }
                    })
                    .collect();
                let plain = entries.iter().filter(|&&b| b == Entry::OVERFLOW.0).count();
                assert_eq!(
                    count_markers(&entries),
                    plain as u64,
                    "len {len}, every {every}"
                );
            }
        }
    }
}
