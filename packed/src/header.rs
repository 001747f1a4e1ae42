//! The fixed 128-byte header of a packed table (layout in the crate's documentation).

use std::path::Path;

use morris_db::format::{decode_common, encode_common, DbError, Metric};
use morris_db::Key;
use morris_engine::Rules;

use crate::kind::Kind;

pub const PACKED_MAGIC: &[u8; 8] = b"MORRISPK";
/// Version 3: value blocks hold five values a byte (version 2: one). Version 2 brought the
/// flag of byte 23, whether the weaker side's keys are searched (version 1 resolved captures
/// instead).
pub const PACKED_VERSION: u32 = 3;
pub const PACKED_HEADER_LEN: usize = 128;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PackedHeader {
    pub rules: Rules,
    pub metric: Metric,
    pub key: Key,
    pub kind: Kind,
    pub level: u8,
    /// The set was packed without the keys whose side to move has fewer stones on the board
    /// than the other: a reader finds their positions by a one-ply search (see the crate's
    /// documentation). Every table of such a set carries the flag, so a reader that meets a
    /// missing key can tell a searched key from a lost file.
    pub weaker_searched: bool,
    pub entries: u64,
    pub block_slots: u32,
    pub blocks: u64,
    pub index_offset: u64,
    pub checksum: u64,
}

impl PackedHeader {
    /// The largest block a reader accepts: a damaged header must not make it allocate more.
    pub const MAX_BLOCK_SLOTS: u32 = 1 << 24;

    /// Bytes of the block index after the blocks.
    pub const fn index_len(&self) -> u64 {
        (2 * self.blocks + 1) * 8
    }

    pub fn encode(&self) -> [u8; PACKED_HEADER_LEN] {
        let mut h = [0u8; PACKED_HEADER_LEN];
        encode_common(
            &mut h,
            PACKED_MAGIC,
            PACKED_VERSION,
            &self.rules,
            self.key,
            self.metric,
        );
        h[15] = self.kind as u8;
        h[22] = self.level;
        h[23] = self.weaker_searched as u8;
        h[24..32].copy_from_slice(&self.entries.to_le_bytes());
        h[32..36].copy_from_slice(&self.block_slots.to_le_bytes());
        h[40..48].copy_from_slice(&self.blocks.to_le_bytes());
        h[48..56].copy_from_slice(&self.index_offset.to_le_bytes());
        h[56..64].copy_from_slice(&self.checksum.to_le_bytes());
        h
    }

    /// Reads a header, refusing what this version does not write; `path` names the file in
    /// errors. The block geometry is checked here, the file's size by the table.
    pub fn decode(h: &[u8; PACKED_HEADER_LEN], path: &Path) -> Result<PackedHeader, DbError> {
        let owned = || path.to_path_buf();
        let u64_at = |o: usize| u64::from_le_bytes(h[o..o + 8].try_into().unwrap());
        let (rules, key, metric) = decode_common(h, PACKED_MAGIC, PACKED_VERSION, path)?;
        let Some(kind) = Kind::from_id(h[15]) else {
            return Err(DbError::UnknownEncoding {
                path: owned(),
                found: h[15],
            });
        };
        if h[23] > 1 {
            return Err(DbError::UnknownRuleFlags {
                path: owned(),
                flags: h[23],
            });
        }
        let header = PackedHeader {
            rules,
            metric,
            key,
            kind,
            level: h[22],
            weaker_searched: h[23] == 1,
            entries: u64_at(24),
            block_slots: u32::from_le_bytes(h[32..36].try_into().unwrap()),
            blocks: u64_at(40),
            index_offset: u64_at(48),
            checksum: u64_at(56),
        };
        let geometry_ok = (1..=Self::MAX_BLOCK_SLOTS).contains(&header.block_slots)
            && header.blocks == header.entries.div_ceil(header.block_slots as u64)
            && header.index_offset >= PACKED_HEADER_LEN as u64;
        if !geometry_ok {
            return Err(DbError::BadEntries {
                path: owned(),
                detail: format!(
                    "block geometry: {} slots in {} blocks of {} slots, index at {}",
                    header.entries, header.blocks, header.block_slots, header.index_offset
                ),
            });
        }
        Ok(header)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let h = PackedHeader {
            rules: Rules::nine(),
            metric: Metric::NoCapture(50),
            key: Key::new(5, 4, 1, 0),
            kind: Kind::Distance,
            level: 9,
            weaker_searched: true,
            entries: 100_001,
            block_slots: 1000,
            blocks: 101,
            index_offset: 5000,
            checksum: 0x0123_4567_89ab_cdef,
        };
        let path = Path::new("x");
        assert_eq!(PackedHeader::decode(&h.encode(), path).unwrap(), h);
        let bad = PackedHeader { blocks: 100, ..h };
        assert!(PackedHeader::decode(&bad.encode(), path).is_err());
        let mut unpacked = h.encode();
        unpacked[0..8].copy_from_slice(b"MORRISDB");
        assert!(matches!(
            PackedHeader::decode(&unpacked, path),
            Err(DbError::BadMagic { .. })
        ));
    }
}
