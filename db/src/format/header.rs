//! The fixed 64-byte little-endian header of a database file.
//!
//! ```text
//! offset  size  field
//!      0     8  magic "MORRISDB"
//!      8     4  format version (u32)
//!     12     1  game id (Game::id)
//!     13     1  rule flags (bit 0: flying)
//!     14     1  stones per player
//!     15     1  entry encoding (1: distance byte, see entry.rs)
//!     16     4  key: us, them, us in hand, them in hand
//!     20     4  reserved, zero
//!     24     8  entry count (u64) = index size of the key
//!     32     8  overflow entry count (u64)
//!     40     8  xxh3-64 of everything after the header
//!     48    16  reserved, zero
//! ```
//! Everything a reader must check before trusting the data is here, so that a file copied to
//! the wrong place or opened with the wrong rules is refused rather than misread.

use std::path::Path;

use morris_engine::{Game, Rules};

use super::error::DbError;
use crate::key::Key;

pub const MAGIC: &[u8; 8] = b"MORRISDB";
pub const VERSION: u32 = 1;
pub const HEADER_LEN: usize = 64;
/// One overflow record: slot (u64) and plies (u16), little-endian, unpadded.
pub const OVERFLOW_RECORD: usize = 10;

const FLAG_FLYING: u8 = 1;

/// How the entries are encoded; only one so far, the field is there for the next.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// One byte per slot, distance to the end (entry.rs), overflow table after the entries.
    DistanceByte = 1,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub rules: Rules,
    pub key: Key,
    pub encoding: Encoding,
    pub entries: u64,
    pub overflow: u64,
    pub checksum: u64,
}

impl Header {
    /// The file length this header accounts for.
    pub fn file_len(&self) -> u64 {
        HEADER_LEN as u64 + self.entries + OVERFLOW_RECORD as u64 * self.overflow
    }

    pub fn encode(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[0..8].copy_from_slice(MAGIC);
        h[8..12].copy_from_slice(&VERSION.to_le_bytes());
        h[12] = self.rules.game.id();
        h[13] = if self.rules.flying { FLAG_FLYING } else { 0 };
        h[14] = self.rules.stones;
        h[15] = self.encoding as u8;
        h[16..20].copy_from_slice(&[
            self.key.us,
            self.key.them,
            self.key.us_hand,
            self.key.them_hand,
        ]);
        h[24..32].copy_from_slice(&self.entries.to_le_bytes());
        h[32..40].copy_from_slice(&self.overflow.to_le_bytes());
        h[40..48].copy_from_slice(&self.checksum.to_le_bytes());
        h
    }

    /// Reads a header, refusing anything this version of the program does not understand.
    /// `path` only names the file in errors.
    pub fn decode(h: &[u8; HEADER_LEN], path: &Path) -> Result<Header, DbError> {
        let path = path.to_path_buf();
        let u64_at = |o: usize| u64::from_le_bytes(h[o..o + 8].try_into().unwrap());
        if &h[0..8] != MAGIC {
            return Err(DbError::BadMagic {
                path,
                found: h[0..8].try_into().unwrap(),
            });
        }
        let version = u32::from_le_bytes(h[8..12].try_into().unwrap());
        if version != VERSION {
            return Err(DbError::UnsupportedVersion {
                path,
                found: version,
                supported: VERSION,
            });
        }
        let Some(game) = Game::from_id(h[12]) else {
            return Err(DbError::UnknownGame { path, id: h[12] });
        };
        if h[13] & !FLAG_FLYING != 0 {
            return Err(DbError::UnknownRuleFlags { path, flags: h[13] });
        }
        if h[15] != Encoding::DistanceByte as u8 {
            return Err(DbError::UnknownEncoding { path, found: h[15] });
        }
        Ok(Header {
            rules: Rules {
                game,
                stones: h[14],
                flying: h[13] & FLAG_FLYING != 0,
            },
            key: Key::new(h[16], h[17], h[18], h[19]),
            encoding: Encoding::DistanceByte,
            entries: u64_at(24),
            overflow: u64_at(32),
            checksum: u64_at(40),
        })
    }
}

/// `nine, 9 stones, flying` for messages.
pub fn describe_rules(r: &Rules) -> String {
    format!(
        "{}, {} stones, {}",
        r.game.name(),
        r.stones,
        if r.flying { "flying" } else { "no flying" }
    )
}

/// The file name of a key: `nine-4-3-0-0.mdb`, with the rule options that differ from the
/// game's standard rules after the game (`nine-noflying-4-3-0-0.mdb`, `nine-s10-...`), so that
/// databases of different rules can share a directory.
pub fn file_name(rules: &Rules, key: Key) -> String {
    let standard = Rules::standard(rules.game);
    let mut name = rules.game.name().to_string();
    if rules.flying != standard.flying {
        name.push_str(if rules.flying { "-flying" } else { "-noflying" });
    }
    if rules.stones != standard.stones {
        name.push_str(&format!("-s{}", rules.stones));
    }
    format!("{name}-{key}.mdb")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let h = Header {
            rules: Rules {
                flying: false,
                ..Rules::nine()
            },
            key: Key::new(4, 3, 1, 2),
            encoding: Encoding::DistanceByte,
            entries: 123_456_789_012,
            overflow: 7,
            checksum: 0xdead_beef_0123_4567,
        };
        let bytes = h.encode();
        assert_eq!(&bytes[0..8], b"MORRISDB");
        assert_eq!(Header::decode(&bytes, Path::new("x")).unwrap(), h);
        assert_eq!(h.file_len(), 64 + 123_456_789_012 + 70);
    }

    #[test]
    fn names() {
        let nine = Rules::nine();
        assert_eq!(file_name(&nine, Key::moving(4, 3)), "nine-4-3-0-0.mdb");
        let no_fly = Rules {
            flying: false,
            ..nine
        };
        assert_eq!(
            file_name(&no_fly, Key::moving(4, 3)),
            "nine-noflying-4-3-0-0.mdb"
        );
        let six_fly = Rules {
            flying: true,
            ..Rules::standard(Game::Six)
        };
        assert_eq!(
            file_name(&six_fly, Key::moving(3, 3)),
            "six-flying-3-3-0-0.mdb"
        );
    }
}
