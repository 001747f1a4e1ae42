//! A packed table opened for reading: memory-mapped, one block decompressed per probe.
//!
//! The mapping follows the unpacked tables' contract (`morris_db::format::Table`): the size
//! is checked against the header before mapping and the map is read-only; never rewrite a
//! packed file in place while a process has it open (replace it by renaming a new one over
//! it).

use std::cell::RefCell;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use memmap2::Mmap;
use morris_db::format::{check_identity, check_key, map_read_only, DbError, Metric};
use morris_db::{Key, Outcome, Value};
use morris_engine::Rules;
use xxhash_rust::xxh3::xxh3_64;

use crate::block::Block;
use crate::cache::with_block;
use crate::header::{PackedHeader, PACKED_HEADER_LEN};
use crate::kind::{Kind, VALUES_PER_BYTE};

pub struct PackedTable {
    path: PathBuf,
    map: Mmap,
    header: PackedHeader,
    /// Names the table in the per-thread block cache.
    id: u64,
}

impl std::fmt::Debug for PackedTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PackedTable")
            .field("path", &self.path)
            .field("header", &self.header)
            .finish()
    }
}

thread_local! {
    static DECOMPRESSOR: RefCell<Option<zstd::bulk::Decompressor<'static>>> =
        const { RefCell::new(None) };
}

impl PackedTable {
    /// Opens the packed table of `key` under `rules` and `metric`, of `kind`, refusing a file
    /// whose header says otherwise or whose size or block index does not match its header.
    /// The checksum of the whole file is not read here (see [`PackedTable::verify`]): every
    /// block is checked against its own hash when it is decoded.
    pub fn open(
        path: impl AsRef<Path>,
        rules: Rules,
        metric: Metric,
        key: Key,
        kind: Kind,
    ) -> Result<PackedTable, DbError> {
        let table = PackedTable::open_any(path)?;
        let h = &table.header;
        check_identity(
            &table.path,
            (h.rules, h.metric, h.key),
            (rules, metric, key),
        )?;
        if h.kind != kind {
            return Err(DbError::BadEntries {
                path: table.path.clone(),
                detail: format!("holds {} symbols, not {}", h.kind.tag(), kind.tag()),
            });
        }
        Ok(table)
    }

    /// Opens a packed table whatever it holds.
    pub fn open_any(path: impl AsRef<Path>) -> Result<PackedTable, DbError> {
        static NEXT_ID: AtomicU64 = AtomicU64::new(0);
        let path = path.as_ref();
        let mut file = File::open(path).map_err(|e| DbError::io(path, "open", e))?;
        let len = file
            .metadata()
            .map_err(|e| DbError::io(path, "read the size of", e))?
            .len();
        let truncated = |expected: u64| DbError::Truncated {
            path: path.to_path_buf(),
            len,
            expected,
        };
        let mut h = [0u8; PACKED_HEADER_LEN];
        if len < PACKED_HEADER_LEN as u64 {
            return Err(truncated(PACKED_HEADER_LEN as u64));
        }
        file.read_exact(&mut h)
            .map_err(|e| DbError::io(path, "read the header of", e))?;
        let header = PackedHeader::decode(&h, path)?;
        check_key(path, &header.rules, header.key, header.entries)?;
        let wanted = header.index_offset as u128 + header.index_len() as u128;
        if (len as u128) < wanted {
            return Err(truncated(wanted.min(u64::MAX as u128) as u64));
        }
        if len as u128 > wanted {
            return Err(DbError::TrailingBytes {
                path: path.to_path_buf(),
                len,
                expected: wanted as u64,
            });
        }
        // SAFETY: read-only mapping of a packed file, which this program never modifies in
        // place (written under a temporary name, then renamed); the module's contract
        // excludes changes by others.
        let map = unsafe { map_read_only(&file, path)? };
        if map.len() as u64 != len {
            return Err(truncated(len));
        }
        let table = PackedTable {
            path: path.to_path_buf(),
            map,
            header,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        };
        table.check_index()?;
        Ok(table)
    }

    /// The block offsets start after the header, never decrease, and end at the index.
    fn check_index(&self) -> Result<(), DbError> {
        let mut previous = PACKED_HEADER_LEN as u64;
        for b in 0..=self.header.blocks {
            let at = self.offset(b);
            if at < previous || (b == 0 && at != previous) || at > self.header.index_offset {
                return Err(DbError::DamagedBlock {
                    path: self.path.clone(),
                    block: b,
                    offset: at,
                    detail: "the block index is out of order".to_string(),
                });
            }
            previous = at;
        }
        if previous != self.header.index_offset {
            return Err(DbError::BadEntries {
                path: self.path.clone(),
                detail: "the blocks do not end where the index starts".to_string(),
            });
        }
        Ok(())
    }

    fn index_u64(&self, i: u64) -> u64 {
        let at = (self.header.index_offset + 8 * i) as usize;
        u64::from_le_bytes(self.map[at..at + 8].try_into().unwrap())
    }

    /// Where block `b` starts (`b == blocks`: where the last one ends).
    fn offset(&self, b: u64) -> u64 {
        self.index_u64(b)
    }

    fn block_hash(&self, b: u64) -> u64 {
        self.index_u64(self.header.blocks + 1 + b)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn header(&self) -> &PackedHeader {
        &self.header
    }

    pub fn kind(&self) -> Kind {
        self.header.kind
    }

    pub fn len(&self) -> u64 {
        self.header.entries
    }

    pub fn is_empty(&self) -> bool {
        self.header.entries == 0
    }

    pub fn blocks(&self) -> u64 {
        self.header.blocks
    }

    /// The slots of block `b`.
    pub fn block_slots(&self, b: u64) -> core::ops::Range<u64> {
        let n = self.header.block_slots as u64;
        b * n..((b + 1) * n).min(self.header.entries)
    }

    /// The compressed size of block `b`.
    pub fn block_bytes(&self, b: u64) -> u64 {
        self.offset(b + 1) - self.offset(b)
    }

    /// Brings the whole file into memory: asks the kernel to read it ahead, then touches
    /// every page of the map. A probe's worst case is then a decode, not a disk read: a
    /// server's first answers come as fast as its later ones. What stays in memory
    /// afterwards is the kernel's page cache to decide. Returns the bytes of the file.
    pub fn preload(&self) -> u64 {
        // A hint only: on a system without it the pages are touched all the same.
        #[cfg(unix)]
        let _ = self.map.advise(memmap2::Advice::WillNeed);
        const PAGE: usize = 4096;
        let mut touched = 0u8;
        for at in (0..self.map.len()).step_by(PAGE) {
            touched ^= self.map[at];
        }
        std::hint::black_box(touched);
        self.map.len() as u64
    }

    /// Block `b` decompressed and checked (not cached: for scans, which read each block
    /// once).
    pub fn decode_block(&self, b: u64) -> Result<Block, DbError> {
        let (start, end) = (self.offset(b), self.offset(b + 1));
        let damaged = |detail: String| DbError::DamagedBlock {
            path: self.path.clone(),
            block: b,
            offset: start,
            detail,
        };
        let frame = &self.map[start as usize..end as usize];
        let hash = xxh3_64(frame);
        if hash != self.block_hash(b) {
            return Err(damaged(format!(
                "its bytes hash to {hash:#018x}, the index says {:#018x}",
                self.block_hash(b)
            )));
        }
        let slots = self.block_slots(b).count();
        let capacity = match self.header.kind {
            Kind::Wdl => slots.div_ceil(VALUES_PER_BYTE),
            Kind::Distance => 3 * slots,
        };
        let bytes = DECOMPRESSOR.with_borrow_mut(|d| {
            if d.is_none() {
                *d = Some(zstd::bulk::Decompressor::new().map_err(|e| e.to_string())?);
            }
            let d = d.as_mut().expect("created above");
            d.decompress(frame, capacity).map_err(|e| e.to_string())
        });
        let bytes = bytes.map_err(|e| damaged(format!("does not decompress: {e}")))?;
        Block::new(bytes, slots, self.header.kind).map_err(damaged)
    }

    /// The block holding `slot` and the slot's place in it.
    #[inline]
    pub fn block_of(&self, slot: u64) -> (u64, usize) {
        assert!(slot < self.header.entries, "slot {slot} out of range");
        let n = self.header.block_slots as u64;
        (slot / n, (slot % n) as usize)
    }

    /// Runs `f` on the block holding `slot` and the slot's place in it, decoding the block
    /// unless this thread decoded it lately.
    fn at<T>(&self, slot: u64, f: impl FnOnce(&Block, usize) -> T) -> Result<T, DbError> {
        let (b, i) = self.block_of(slot);
        with_block(self.id, b, || self.decode_block(b), |block| f(block, i))
    }

    /// The stored value of a slot (either kind).
    pub fn value(&self, slot: u64) -> Result<Value, DbError> {
        let kind = self.header.kind;
        self.at(slot, |block, i| block.value(i, kind))
    }

    /// The stored outcome of a slot of an outcome table; `None` from a value table.
    pub fn outcome(&self, slot: u64) -> Result<Option<Outcome>, DbError> {
        match self.header.kind {
            Kind::Wdl => Ok(None),
            Kind::Distance => self.at(slot, |block, i| Some(block.outcome(i))),
        }
    }

    /// Hashes everything after the header against the header's checksum.
    pub fn verify(&self) -> Result<(), DbError> {
        let computed = xxh3_64(&self.map[PACKED_HEADER_LEN..]);
        if computed != self.header.checksum {
            return Err(DbError::ChecksumMismatch {
                path: self.path.clone(),
                stored: self.header.checksum,
                computed,
            });
        }
        Ok(())
    }
}
