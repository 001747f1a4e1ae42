//! Writes a database file so that a crash leaves either no file or a complete one: the data
//! goes through an [`AtomicFile`], the header with the checksum is written last.

use std::path::{Path, PathBuf};

use morris_engine::Rules;
use xxhash_rust::xxh3::Xxh3;

use super::atomic::AtomicFile;
use super::entry::{wdl2, Entry};
use super::error::DbError;
use super::header::{Encoding, Header, Metric, HEADER_LEN};
use crate::index::slots;
use crate::key::Key;
use crate::outcome::Outcome;

const BUFFER: usize = 1 << 20;

pub struct Writer {
    file: AtomicFile,
    /// Entries not yet hashed and written: hashing and writing in large blocks keeps
    /// `push` cheap enough to call once per slot.
    buf: Vec<u8>,
    rules: Rules,
    metric: Metric,
    encoding: Encoding,
    key: Key,
    expected: u64,
    /// Two-bit encoding: the slots of the byte being filled.
    pending: u8,
    written: u64,
    hasher: Xxh3,
    /// Slots whose byte is the overflow marker, in order.
    marked: Vec<u64>,
    overflow: Vec<(u64, u16)>,
}

impl Writer {
    /// Starts the plain table of `key` at `path`.
    pub fn create(path: impl AsRef<Path>, rules: Rules, key: Key) -> Result<Writer, DbError> {
        Writer::create_with(path, rules, Metric::Plain, Encoding::DistanceByte, key)
    }

    /// Starts the file of `key` at `path` (usually `dir.join(file_name(rules, metric, key))`);
    /// the entries must then be pushed in slot order, exactly as many as the key's index has
    /// slots.
    pub fn create_with(
        path: impl AsRef<Path>,
        rules: Rules,
        metric: Metric,
        encoding: Encoding,
        key: Key,
    ) -> Result<Writer, DbError> {
        let mut w = Writer {
            expected: slots(rules.board(), key),
            file: AtomicFile::create(path)?,
            buf: Vec::with_capacity(BUFFER),
            rules,
            metric,
            encoding,
            key,
            pending: 0,
            written: 0,
            hasher: Xxh3::new(),
            marked: Vec::new(),
            overflow: Vec::new(),
        };
        // Room for the header, written when the checksum is known.
        w.file.write(&[0u8; HEADER_LEN])?;
        Ok(w)
    }

    /// Appends the entry of the next slot.
    pub fn push(&mut self, outcome: Outcome) -> Result<(), DbError> {
        if self.encoding == Encoding::Wdl2 {
            if self.written == self.expected {
                return Err(self.too_many());
            }
            let shift = 2 * (self.written % 4);
            self.pending |= wdl2::bits(outcome) << shift;
            self.written += 1;
            if self.written & 3 == 0 || self.written == self.expected {
                let byte = std::mem::take(&mut self.pending);
                self.buffer(&[byte])?;
            }
            return Ok(());
        }
        let Some((entry, record)) = Entry::encode(self.encoding, outcome) else {
            return Err(self.file.invalid(format!(
                "slot {}: {outcome} has no form in {:?}",
                self.written, self.encoding
            )));
        };
        if entry.is_overflow() {
            self.overflow.push((self.written, record));
        }
        self.push_raw(&[entry.0])
    }

    /// The table's encoding, which [`EncodedBlock::encode`] must use.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The slot the next entry is for: where the next block must start.
    pub fn next_slot(&self) -> u64 {
        self.written
    }

    /// Appends a block of slots encoded apart from the writer ([`EncodedBlock::encode`]), so that
    /// encoding can run in parallel: each block starts where the table is (for two-bit tables,
    /// at the start of a byte; slots pushed one by one may finish a block's last byte).
    pub fn push_block(&mut self, block: &EncodedBlock) -> Result<(), DbError> {
        if let Some((slot, outcome)) = block.unencodable {
            return Err(self.file.invalid(format!(
                "slot {slot}: {outcome} has no form in {:?}",
                self.encoding
            )));
        }
        if block.encoding != self.encoding || block.first != self.written {
            return Err(self.file.invalid(format!(
                "a block of {:?} at slot {} where the table, {:?}, is at slot {}",
                block.encoding, block.first, self.encoding, self.written
            )));
        }
        if self.written + block.slots > self.expected {
            return Err(self.too_many());
        }
        if self.encoding == Encoding::Wdl2 && !self.written.is_multiple_of(4) {
            return Err(self.file.invalid(format!(
                "a two-bit block at slot {}, not on a byte",
                self.written
            )));
        }
        self.marked.extend(block.overflow.iter().map(|&(s, _)| s));
        self.overflow.extend_from_slice(&block.overflow);
        self.written += block.slots;
        let mut bytes = &block.bytes[..];
        if self.encoding == Encoding::Wdl2
            && !self.written.is_multiple_of(4)
            && self.written < self.expected
        {
            // A byte not yet full: the next slots, pushed one by one, fill it.
            let (last, full) = bytes.split_last().expect("a partial byte");
            self.pending = *last;
            bytes = full;
        }
        self.buffer(bytes)
    }

    fn too_many(&self) -> DbError {
        self.file.invalid(format!(
            "more than {} entries for key {}",
            self.expected, self.key
        ))
    }

    /// Appends already encoded entries (byte encodings). Every overflow marker (255) among
    /// them needs its record given with [`Writer::overflow`].
    pub fn push_raw(&mut self, entries: &[u8]) -> Result<(), DbError> {
        if self.encoding == Encoding::Wdl2 {
            return Err(self
                .file
                .invalid("raw entries for a two-bit table".to_string()));
        }
        if self.written + entries.len() as u64 > self.expected {
            return Err(self.too_many());
        }
        for (i, &b) in entries.iter().enumerate() {
            if b == Entry::OVERFLOW.0 {
                self.marked.push(self.written + i as u64);
            }
        }
        self.written += entries.len() as u64;
        self.buffer(entries)
    }

    fn buffer(&mut self, entries: &[u8]) -> Result<(), DbError> {
        if self.buf.len() + entries.len() > BUFFER {
            self.flush()?;
        }
        if entries.len() >= BUFFER {
            self.write(entries)
        } else {
            self.buf.extend_from_slice(entries);
            Ok(())
        }
    }

    /// The record of a slot written as the overflow marker by [`Writer::push_raw`].
    pub fn overflow(&mut self, slot: u64, plies: u16) {
        self.overflow.push((slot, plies));
    }

    fn flush(&mut self) -> Result<(), DbError> {
        let buf = std::mem::take(&mut self.buf);
        self.write(&buf)?;
        self.buf = buf;
        self.buf.clear();
        Ok(())
    }

    fn write(&mut self, bytes: &[u8]) -> Result<(), DbError> {
        self.hasher.update(bytes);
        self.file.write(bytes)
    }

    /// Writes the overflow table and the header, syncs, and moves the file to its final name.
    pub fn finish(mut self) -> Result<PathBuf, DbError> {
        if self.written != self.expected {
            return Err(self.file.invalid(format!(
                "{} entries written, key {} has {} slots",
                self.written, self.key, self.expected
            )));
        }
        self.overflow.sort_unstable();
        let slots: Vec<u64> = self.overflow.iter().map(|&(s, _)| s).collect();
        if slots != self.marked {
            return Err(self.file.invalid(format!(
                "{} overflow markers but {} overflow distances, or at other slots",
                self.marked.len(),
                self.overflow.len()
            )));
        }
        let mut table = Vec::with_capacity(self.overflow.len() * 10);
        for &(slot, plies) in &self.overflow {
            table.extend_from_slice(&slot.to_le_bytes());
            table.extend_from_slice(&plies.to_le_bytes());
        }
        self.flush()?;
        self.write(&table)?;
        let header = Header {
            rules: self.rules,
            key: self.key,
            metric: self.metric,
            encoding: self.encoding,
            entries: self.written,
            overflow: self.overflow.len() as u64,
            checksum: self.hasher.digest(),
        };
        self.file.write_header(&header.encode())?;
        self.file.commit()
    }
}

/// Consecutive slots encoded for [`Writer::push_block`]: the bytes and overflow records that
/// per-slot [`Writer::push`] calls would have produced.
pub struct EncodedBlock {
    encoding: Encoding,
    first: u64,
    slots: u64,
    bytes: Vec<u8>,
    overflow: Vec<(u64, u16)>,
    /// The first slot with no form in the encoding: the block is refused when pushed.
    unencodable: Option<(u64, Outcome)>,
}

impl EncodedBlock {
    /// Encodes the outcomes of the slots from `first` on.
    pub fn encode(
        encoding: Encoding,
        first: u64,
        outcomes: impl IntoIterator<Item = Outcome>,
    ) -> EncodedBlock {
        let outcomes = outcomes.into_iter();
        let hint = outcomes.size_hint().0;
        let mut block = EncodedBlock {
            encoding,
            first,
            slots: 0,
            bytes: Vec::with_capacity(match encoding {
                Encoding::Wdl2 => hint.div_ceil(4),
                _ => hint,
            }),
            overflow: Vec::new(),
            unencodable: None,
        };
        if encoding == Encoding::Wdl2 {
            let mut byte = 0u8;
            for outcome in outcomes {
                byte |= wdl2::bits(outcome) << (2 * (block.slots % 4));
                block.slots += 1;
                if block.slots.is_multiple_of(4) {
                    block.bytes.push(std::mem::take(&mut byte));
                }
            }
            if !block.slots.is_multiple_of(4) {
                block.bytes.push(byte);
            }
            return block;
        }
        for outcome in outcomes {
            let slot = first + block.slots;
            block.slots += 1;
            match Entry::encode(encoding, outcome) {
                Some((entry, record)) => {
                    if entry.is_overflow() {
                        block.overflow.push((slot, record));
                    }
                    block.bytes.push(entry.0);
                }
                None => {
                    block.unencodable.get_or_insert((slot, outcome));
                    block.bytes.push(0);
                }
            }
        }
        block
    }
}

/// Writes a whole table at once from encoded entries and the distances of their overflow
/// markers.
pub fn write_table(
    path: impl AsRef<Path>,
    rules: Rules,
    key: Key,
    entries: &[u8],
    overflow: &[(u64, u16)],
) -> Result<PathBuf, DbError> {
    let mut w = Writer::create(path, rules, key)?;
    w.push_raw(entries)?;
    for &(slot, plies) in overflow {
        w.overflow(slot, plies);
    }
    w.finish()
}
