//! Writes a packed table: compressed blocks appended in order, then the block index, then the
//! header with the checksum, through an atomic file (complete under its final name or absent).

use std::path::{Path, PathBuf};

use morris_db::format::{AtomicFile, DbError, Metric};
use morris_db::{slots, Key};
use morris_engine::Rules;
use xxhash_rust::xxh3::{xxh3_64, Xxh3};

use crate::header::{PackedHeader, PACKED_HEADER_LEN};
use crate::kind::Kind;

/// How a table's blocks are made.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub block_slots: u32,
    /// The zstd level (recorded in the header).
    pub level: u8,
    /// See [`PackedHeader::weaker_searched`].
    pub weaker_searched: bool,
}

/// The most bytes the packed table of `entries` slots of `kind`, in blocks of `block_slots`,
/// can take when no distance needs more than its byte: each block's decoded bytes as zstd
/// stores the least compressible input (a raw block, with its bound's margin and a frame),
/// the block index and the header. A pack checks the free disk against it before it starts,
/// so that it refuses at once instead of failing part way.
pub fn max_table_len(entries: u64, kind: Kind, block_slots: u32) -> u64 {
    let blocks = entries.div_ceil(block_slots as u64);
    let decoded = match kind {
        // Five values a byte, each block's last byte maybe part full.
        Kind::Wdl => entries.div_ceil(5) + blocks,
        Kind::Distance => entries,
    };
    /// A frame's header, block headers and checksum, and a block's two index words.
    const PER_BLOCK: u64 = 64 + 16;
    PACKED_HEADER_LEN as u64 + decoded + decoded / 256 + blocks * PER_BLOCK
}

pub struct PackWriter {
    file: AtomicFile,
    header: PackedHeader,
    offsets: Vec<u64>,
    hashes: Vec<u64>,
    hasher: Xxh3,
}

impl PackWriter {
    /// Starts the packed table of `key` at `path`; then [`append`](PackWriter::append) every
    /// block, in order, compressed from `block_slots` slots each (the last one shorter).
    pub fn create(
        path: impl AsRef<Path>,
        rules: Rules,
        metric: Metric,
        key: Key,
        kind: Kind,
        layout: Layout,
    ) -> Result<PackWriter, DbError> {
        let Layout {
            block_slots,
            level,
            weaker_searched,
        } = layout;
        let entries = slots(rules.board(), key);
        let path = path.as_ref();
        if !(1..=PackedHeader::MAX_BLOCK_SLOTS).contains(&block_slots) {
            return Err(DbError::InvalidData {
                path: path.to_path_buf(),
                detail: format!(
                    "{block_slots} slots per block (1 ..= {})",
                    PackedHeader::MAX_BLOCK_SLOTS
                ),
            });
        }
        let mut file = AtomicFile::create(path)?;
        file.write(&[0u8; PACKED_HEADER_LEN])?;
        Ok(PackWriter {
            file,
            header: PackedHeader {
                rules,
                metric,
                key,
                kind,
                level,
                weaker_searched,
                entries,
                block_slots,
                blocks: entries.div_ceil(block_slots as u64),
                index_offset: 0,
                checksum: 0,
            },
            offsets: vec![PACKED_HEADER_LEN as u64],
            hashes: Vec::new(),
            hasher: Xxh3::new(),
        })
    }

    /// The number of blocks the table needs.
    pub fn blocks(&self) -> u64 {
        self.header.blocks
    }

    /// Appends the next compressed block.
    pub fn append(&mut self, frame: &[u8]) -> Result<(), DbError> {
        if self.hashes.len() as u64 == self.header.blocks {
            return Err(self
                .file
                .invalid(format!("more than {} blocks", self.header.blocks)));
        }
        self.hasher.update(frame);
        self.hashes.push(xxh3_64(frame));
        self.offsets
            .push(self.offsets.last().expect("starts with one") + frame.len() as u64);
        self.file.write(frame)
    }

    /// Writes the index and the header, and moves the file to its final name.
    pub fn finish(mut self) -> Result<PathBuf, DbError> {
        if self.hashes.len() as u64 != self.header.blocks {
            return Err(self.file.invalid(format!(
                "{} blocks written, {} needed",
                self.hashes.len(),
                self.header.blocks
            )));
        }
        let mut index = Vec::with_capacity(self.header.index_len() as usize);
        for v in self.offsets.iter().chain(&self.hashes) {
            index.extend_from_slice(&v.to_le_bytes());
        }
        self.hasher.update(&index);
        self.file.write(&index)?;
        self.header.index_offset = *self.offsets.last().expect("starts with one");
        self.header.checksum = self.hasher.digest();
        self.file.write_header(&self.header.encode())?;
        self.file.commit()
    }
}
