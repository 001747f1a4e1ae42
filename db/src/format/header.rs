//! The fixed 64-byte little-endian header of a database file.
//!
//! ```text
//! offset  size  field
//!      0     8  magic "MORRISDB"
//!      8     4  format version (u32)
//!     12     1  game id (Game::id)
//!     13     1  rule flags (bit 0: flying)
//!     14     1  stones per player
//!     15     1  entry encoding (1 distance byte, 2 zeroing byte, 3 two bits; entry.rs)
//!     16     4  key: us, them, us in hand, them in hand
//!     20     2  no-capture limit N (u16; 0: the plain tables, without the rule)
//!     22     2  reserved, zero
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

/// How the entries are encoded (entry.rs).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// One byte per slot, distance to the end, overflow table after the entries.
    DistanceByte = 1,
    /// One byte per slot, value and distance to zeroing, overflow table after the entries.
    ZeroingByte = 2,
    /// Two bits per slot, the value alone; no overflow table.
    Wdl2 = 3,
}

impl Encoding {
    pub const fn from_id(id: u8) -> Option<Encoding> {
        match id {
            1 => Some(Encoding::DistanceByte),
            2 => Some(Encoding::ZeroingByte),
            3 => Some(Encoding::Wdl2),
            _ => None,
        }
    }

    /// Bytes of entries for `slots` slots.
    pub const fn entry_bytes(self, slots: u64) -> u64 {
        match self {
            Encoding::Wdl2 => slots.div_ceil(4),
            _ => slots,
        }
    }
}

/// What a table's entries measure: the plain game, or the game under the no-capture rule.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Value and distance to the end of the game.
    Plain,
    /// Under `--moves-without-capture N`: value and distance to the next zeroing ply where
    /// plies that zero nothing exist (the moving phase, Lasker's keys with slides), the value
    /// alone where every move zeroes (placement keys).
    NoCapture(u16),
}

impl Metric {
    /// The limit field of the header.
    pub const fn limit(self) -> u16 {
        match self {
            Metric::Plain => 0,
            Metric::NoCapture(n) => n,
        }
    }

    /// The metric of a header's limit field (0: the plain game).
    pub const fn from_limit(limit: u16) -> Metric {
        match limit {
            0 => Metric::Plain,
            n => Metric::NoCapture(n),
        }
    }

    /// The encoding of the key's entries; `cyclic` for keys whose positions can follow one
    /// another without a zeroing ply (solved by retrograde analysis).
    pub const fn encoding(self, cyclic: bool) -> Encoding {
        match (self, cyclic) {
            (Metric::Plain, _) => Encoding::DistanceByte,
            (Metric::NoCapture(_), true) => Encoding::ZeroingByte,
            (Metric::NoCapture(_), false) => Encoding::Wdl2,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub rules: Rules,
    pub key: Key,
    pub metric: Metric,
    pub encoding: Encoding,
    pub entries: u64,
    pub overflow: u64,
    pub checksum: u64,
}

impl Header {
    /// The file length this header accounts for.
    pub fn file_len(&self) -> u64 {
        HEADER_LEN as u64
            + self.encoding.entry_bytes(self.entries)
            + OVERFLOW_RECORD as u64 * self.overflow
    }

    pub fn encode(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        encode_common(&mut h, MAGIC, VERSION, &self.rules, self.key, self.metric);
        h[15] = self.encoding as u8;
        h[24..32].copy_from_slice(&self.entries.to_le_bytes());
        h[32..40].copy_from_slice(&self.overflow.to_le_bytes());
        h[40..48].copy_from_slice(&self.checksum.to_le_bytes());
        h
    }

    /// Reads a header, refusing anything this version of the program does not understand.
    /// `path` only names the file in errors.
    pub fn decode(h: &[u8; HEADER_LEN], path: &Path) -> Result<Header, DbError> {
        let (rules, key, metric) = decode_common(h, MAGIC, VERSION, path)?;
        let u64_at = |o: usize| u64::from_le_bytes(h[o..o + 8].try_into().unwrap());
        let encoding = match Encoding::from_id(h[15]) {
            Some(e) if e == metric.encoding(true) || e == metric.encoding(false) => e,
            _ => {
                return Err(DbError::UnknownEncoding {
                    path: path.to_path_buf(),
                    found: h[15],
                })
            }
        };
        Ok(Header {
            rules,
            key,
            metric,
            encoding,
            entries: u64_at(24),
            overflow: u64_at(32),
            checksum: u64_at(40),
        })
    }
}

/// Writes the fields every file format of the project opens its header with: `magic` (bytes
/// 0..8), `version` (8..12), the rules (12..15), the key (16..20) and the no-capture limit
/// (20..22). Byte 15 and what follows byte 22 are the format's own.
pub fn encode_common(
    h: &mut [u8],
    magic: &[u8; 8],
    version: u32,
    rules: &Rules,
    key: Key,
    metric: Metric,
) {
    h[0..8].copy_from_slice(magic);
    h[8..12].copy_from_slice(&version.to_le_bytes());
    h[12..15].copy_from_slice(&encode_rules(rules));
    h[16..20].copy_from_slice(&[key.us, key.them, key.us_hand, key.them_hand]);
    h[20..22].copy_from_slice(&metric.limit().to_le_bytes());
}

/// Reads the fields of [`encode_common`], refusing another magic or version (`path` names the
/// file in errors): the rules, the key and the metric.
pub fn decode_common(
    h: &[u8],
    magic: &[u8; 8],
    version: u32,
    path: &Path,
) -> Result<(Rules, Key, Metric), DbError> {
    if &h[0..8] != magic {
        return Err(DbError::BadMagic {
            path: path.to_path_buf(),
            found: h[0..8].try_into().unwrap(),
        });
    }
    let found = u32::from_le_bytes(h[8..12].try_into().unwrap());
    if found != version {
        return Err(DbError::UnsupportedVersion {
            path: path.to_path_buf(),
            found,
            supported: version,
        });
    }
    let rules = decode_rules(h[12..15].try_into().unwrap(), path)?;
    let key = Key::new(h[16], h[17], h[18], h[19]);
    let metric = Metric::from_limit(u16::from_le_bytes([h[20], h[21]]));
    Ok((rules, key, metric))
}

/// The three header bytes of a set of rules (game id, flags, stones), shared by every file
/// format of the project.
pub fn encode_rules(rules: &Rules) -> [u8; 3] {
    let flags = if rules.flying { FLAG_FLYING } else { 0 };
    [rules.game.id(), flags, rules.stones]
}

/// The rules of [`encode_rules`]'s bytes; `path` names the file in errors.
pub fn decode_rules(b: &[u8; 3], path: &Path) -> Result<Rules, DbError> {
    let path = path.to_path_buf();
    let Some(game) = Game::from_id(b[0]) else {
        return Err(DbError::UnknownGame { path, id: b[0] });
    };
    if b[1] & !FLAG_FLYING != 0 {
        return Err(DbError::UnknownRuleFlags { path, flags: b[1] });
    }
    Ok(Rules {
        game,
        stones: b[2],
        flying: b[1] & FLAG_FLYING != 0,
    })
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

/// `the plain game` or `the no-capture rule with N = 50` for messages.
pub fn describe_metric(m: Metric) -> String {
    match m {
        Metric::Plain => "the plain game".to_string(),
        Metric::NoCapture(n) => format!("the no-capture rule with N = {n}"),
    }
}

/// The file name of a key: `nine-4-3-0-0.mdb`, with the rule options that differ from the
/// game's standard rules after the game (`nine-noflying-4-3-0-0.mdb`, `nine-s10-...`), and the
/// no-capture limit (`nine-nc50-4-3-0-0.mdb`), so that databases of different rules can share
/// a directory.
pub fn file_name(rules: &Rules, metric: Metric, key: Key) -> String {
    let standard = Rules::standard(rules.game);
    let mut name = rules.game.name().to_string();
    if rules.flying != standard.flying {
        name.push_str(if rules.flying { "-flying" } else { "-noflying" });
    }
    if rules.stones != standard.stones {
        name.push_str(&format!("-s{}", rules.stones));
    }
    if let Metric::NoCapture(n) = metric {
        name.push_str(&format!("-nc{n}"));
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
            metric: Metric::Plain,
            encoding: Encoding::DistanceByte,
            entries: 123_456_789_012,
            overflow: 7,
            checksum: 0xdead_beef_0123_4567,
        };
        let bytes = h.encode();
        assert_eq!(&bytes[0..8], b"MORRISDB");
        assert_eq!(Header::decode(&bytes, Path::new("x")).unwrap(), h);
        assert_eq!(h.file_len(), 64 + 123_456_789_012 + 70);
        let rule = Header {
            metric: Metric::NoCapture(50),
            encoding: Encoding::Wdl2,
            overflow: 0,
            ..h
        };
        assert_eq!(
            Header::decode(&rule.encode(), Path::new("x")).unwrap(),
            rule
        );
        assert_eq!(rule.file_len(), 64 + 123_456_789_012_u64.div_ceil(4));
        // A plain table has no two-bit form.
        let bad = Header {
            metric: Metric::Plain,
            ..rule
        };
        assert!(Header::decode(&bad.encode(), Path::new("x")).is_err());
    }

    #[test]
    fn names() {
        let nine = Rules::nine();
        assert_eq!(
            file_name(&nine, Metric::Plain, Key::moving(4, 3)),
            "nine-4-3-0-0.mdb"
        );
        let no_fly = Rules {
            flying: false,
            ..nine
        };
        assert_eq!(
            file_name(&no_fly, Metric::Plain, Key::moving(4, 3)),
            "nine-noflying-4-3-0-0.mdb"
        );
        assert_eq!(
            file_name(&no_fly, Metric::NoCapture(50), Key::moving(4, 3)),
            "nine-noflying-nc50-4-3-0-0.mdb"
        );
        let six_fly = Rules {
            flying: true,
            ..Rules::standard(Game::Six)
        };
        assert_eq!(
            file_name(&six_fly, Metric::Plain, Key::moving(3, 3)),
            "six-flying-3-3-0-0.mdb"
        );
    }
}
