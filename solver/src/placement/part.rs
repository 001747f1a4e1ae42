//! Part files: the codes of one slot range of a placement key, solved by a job of its own,
//! and the join that turns a key's parts into its table.
//!
//! A part is named `<table file name>.part-<start>-<end>` and sits beside the table it will
//! become, written atomically ([`AtomicFile`]): under its name it is complete or absent. It
//! holds the solver's 2-byte codes, not table entries, so that the join pushes exactly the
//! values a single run pushes through the same [`Writer`]: the table of any split is the
//! table of a single run, byte for byte (header, checksum and overflow table included).
//!
//! Layout: the magic `MORRISPT`, the key (4 bytes: stones and hands of the side to move, then
//! of the other side), the range's start and end and a checksum of the codes (8 bytes each,
//! little-endian), then the codes (2 bytes each, little-endian).

use core::ops::Range;
use std::path::{Path, PathBuf};

use crate::encode::write_codes;
use morris_db::format::{AtomicFile, DbError, Metric, Writer};
use morris_db::{slots, Key};
use morris_engine::Rules;

const MAGIC: &[u8; 8] = b"MORRISPT";
const HEADER_LEN: usize = 8 + 4 + 3 * 8;

/// The ranges of `range_slots` slots (the last one shorter) that split a key of `n` slots.
pub fn split(n: u64, range_slots: u64) -> Vec<Range<u64>> {
    assert!(range_slots > 0, "a range has at least one slot");
    (0..n.div_ceil(range_slots))
        .map(|i| i * range_slots..((i + 1) * range_slots).min(n))
        .collect()
}

/// Where the part of `range` of the table at `table` goes.
pub fn part_path(table: &Path, range: &Range<u64>) -> PathBuf {
    let mut name = table.as_os_str().to_os_string();
    name.push(format!(".part-{}-{}", range.start, range.end));
    PathBuf::from(name)
}

/// A checksum of the codes: the same 64-bit multiply-and-rotate mix over every word. It
/// guards against a truncated or damaged part (a crash, a bad copy), not against an adversary.
fn checksum(codes: &[u16]) -> u64 {
    codes.iter().fold(0x243f_6a88_85a3_08d3, |h, &c| {
        (h ^ c as u64)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29)
    })
}

fn key_bytes(key: Key) -> [u8; 4] {
    [key.us, key.them, key.us_hand, key.them_hand]
}

/// Writes the codes of `range` of `key` as the part beside `table`, atomically.
pub fn write_part(
    table: &Path,
    key: Key,
    range: &Range<u64>,
    codes: &[u16],
) -> Result<PathBuf, DbError> {
    assert_eq!(codes.len() as u64, range.end - range.start);
    let mut bytes = Vec::with_capacity(HEADER_LEN + 2 * codes.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&key_bytes(key));
    for v in [range.start, range.end, checksum(codes)] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    for &c in codes {
        bytes.extend_from_slice(&c.to_le_bytes());
    }
    let mut file = AtomicFile::create(part_path(table, range))?;
    file.write(&bytes)?;
    file.commit()
}

/// The codes of the part of `range` of `key` beside `table`, checked: size, key, range and
/// checksum.
pub fn read_part(table: &Path, key: Key, range: &Range<u64>) -> Result<Vec<u16>, DbError> {
    let path = part_path(table, range);
    let bytes = std::fs::read(&path).map_err(|e| DbError::io(&path, "read the part", e))?;
    let invalid = |detail: String| DbError::InvalidData {
        path: path.clone(),
        detail,
    };
    let expected = HEADER_LEN as u64 + 2 * (range.end - range.start);
    if bytes.len() as u64 != expected {
        return Err(invalid(format!(
            "{} bytes, a part of {} slots has {expected}",
            bytes.len(),
            range.end - range.start
        )));
    }
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    if &bytes[..8] != MAGIC
        || bytes[8..12] != key_bytes(key)
        || (word(12), word(20)) != (range.start, range.end)
    {
        return Err(invalid(format!(
            "not the part {}..{} of key {key}",
            range.start, range.end
        )));
    }
    let codes: Vec<u16> = bytes[HEADER_LEN..]
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    if checksum(&codes) != word(28) {
        return Err(invalid("checksum mismatch".to_string()));
    }
    Ok(codes)
}

/// True when the part of `range` beside `table` is there and passes [`read_part`]'s checks.
pub fn is_complete(table: &Path, key: Key, range: &Range<u64>) -> bool {
    read_part(table, key, range).is_ok()
}

/// The ranges of the parts beside `table` (by their names; unchecked), sorted.
pub fn parts(table: &Path) -> Vec<Range<u64>> {
    let (Some(dir), Some(name)) = (table.parent(), table.file_name()) else {
        return Vec::new();
    };
    let prefix = format!("{}.part-", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    }) else {
        return Vec::new();
    };
    let mut ranges: Vec<Range<u64>> = entries
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            let (start, end) = name.strip_prefix(&prefix)?.split_once('-')?;
            Some(start.parse().ok()?..end.parse().ok()?)
        })
        .collect();
    ranges.sort_by_key(|r| (r.start, r.end));
    ranges
}

/// Joins the parts beside `table` into the table of `key` (under `rules` and `metric`, a
/// placement key: one forward pass, not cyclic), then removes every part of the key.
///
/// The parts may come from any split (a resubmission with another range size leaves parts of
/// both): from slot 0 on, the longest part that starts where the last one ended is taken.
/// Missing slots are an error naming them; nothing is removed then.
pub fn join(table: &Path, rules: Rules, metric: Metric, key: Key) -> Result<PathBuf, DbError> {
    let n = slots(rules.board(), key);
    let found = parts(table);
    let mut chain = Vec::new();
    let mut at = 0;
    while at < n {
        let Some(next) = found
            .iter()
            .filter(|r| r.start == at && r.end > at && r.end <= n)
            .max_by_key(|r| r.end)
        else {
            return Err(DbError::InvalidData {
                path: part_path(table, &(at..n)),
                detail: format!("no part of key {key} starts at slot {at} of {n}"),
            });
        };
        chain.push(next.clone());
        at = next.end;
    }
    let mut writer = Writer::create_with(table, rules, metric, metric.encoding(false), key)?;
    for range in &chain {
        write_codes(&mut writer, &read_part(table, key, range)?)?;
    }
    let path = writer.finish()?;
    for range in found {
        let _ = std::fs::remove_file(part_path(table, &range));
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_cover_every_slot_once() {
        assert_eq!(split(10, 4), [0..4, 4..8, 8..10]);
        assert_eq!(split(8, 4), [0..4, 4..8]);
        assert_eq!(split(3, 10), vec![0..3]);
        assert!(split(0, 10).is_empty());
    }

    #[test]
    fn a_damaged_part_is_refused() {
        let dir = morris_testdirs::scratch("part");
        let table = dir.join("t.mdb");
        let key = Key::new(1, 2, 3, 4);
        let codes = [1u16, 2, 3, 400];
        let path = write_part(&table, key, &(4..8), &codes).unwrap();
        assert_eq!(read_part(&table, key, &(4..8)).unwrap(), codes);
        assert_eq!(parts(&table), vec![4..8]);
        assert!(read_part(&table, Key::new(1, 2, 3, 5), &(4..8)).is_err());
        let mut bytes = std::fs::read(&path).unwrap();
        *bytes.last_mut().unwrap() ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(!is_complete(&table, key, &(4..8)));
        bytes.pop();
        std::fs::write(&path, &bytes).unwrap();
        assert!(!is_complete(&table, key, &(4..8)));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
