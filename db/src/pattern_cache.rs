//! The pattern classes of the larger stone counts kept on disk between processes.
//!
//! Building the classes of 9 stones on the 24-point board (1.3 M patterns) takes about 16 ms,
//! most of a whole `morris query` of a 9-9 position; reading them back takes about one. The
//! file is only a cache: it is checked (magic, version, board, sizes, checksum) and rebuilt
//! when anything is off, and a failure to write it is ignored. It lives in
//! `$MORRIS_CACHE_DIR`, else `$XDG_CACHE_HOME/morris`, else `$HOME/.cache/morris`.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use xxhash_rust::xxh3::xxh3_64;

use crate::patterns::PatternClasses;

const MAGIC: &[u8; 8] = b"MORRISPC";
const VERSION: u32 = 1;
/// Pattern counts worth a file: below, building is as quick as reading; above (the grid
/// game's 12 stones on 30 points, 86 M patterns), the file would be a hundred MiB.
pub const WORTH_CACHING: core::ops::RangeInclusive<u64> = 200_000..=20_000_000;

/// The cache directory, if the environment names one.
pub fn dir() -> Option<PathBuf> {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    var("MORRIS_CACHE_DIR")
        .or_else(|| var("XDG_CACHE_HOME").map(|d| d.join("morris")))
        .or_else(|| var("HOME").map(|d| d.join(".cache").join("morris")))
}

/// The file of a board's classes of `stones` stones in `dir`.
pub fn path(dir: &Path, board: &str, stones: u32) -> PathBuf {
    dir.join(format!("{board}-{stones}.patterns"))
}

/// The header: magic, version, stones, and the four lengths; then the checksum of the rest.
fn header(p: &PatternClasses, lens: [u64; 4]) -> Vec<u8> {
    let mut h = Vec::with_capacity(56);
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    h.extend_from_slice(&p.stones().to_le_bytes());
    for l in lens {
        h.extend_from_slice(&l.to_le_bytes());
    }
    h
}

/// Writes `p` to `path` atomically (a temporary file renamed); errors are the caller's to
/// ignore.
pub fn save(p: &PatternClasses, path: &Path) -> std::io::Result<()> {
    let (fields, ranks, canonical, stabilizer) = p.parts();
    let mut body = Vec::new();
    body.extend(fields.iter().flat_map(|w| w.to_le_bytes()));
    for &(c, b) in &ranks {
        body.extend_from_slice(&c.to_le_bytes());
        body.extend_from_slice(&b.to_le_bytes());
    }
    body.extend(canonical.iter().flat_map(|w| w.to_le_bytes()));
    body.extend(stabilizer.iter().flat_map(|w| w.to_le_bytes()));
    let lens = [
        fields.len() as u64,
        ranks.len() as u64,
        canonical.len() as u64,
        stabilizer.len() as u64,
    ];
    let mut out = header(p, lens);
    out.extend_from_slice(&xxh3_64(&body).to_le_bytes());
    out.extend_from_slice(&body);
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent)?;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    let mut f = fs::File::create(&tmp)?;
    f.write_all(&out)?;
    f.sync_all()?;
    fs::rename(&tmp, path).inspect_err(|_| {
        let _ = fs::remove_file(&tmp);
    })
}

/// Reads the classes of `stones` stones from `path`; `None` for a missing, foreign, damaged or
/// stale file.
pub fn load(path: &Path, stones: u32, patterns: u64) -> Option<PatternClasses> {
    let bytes = fs::read(path).ok()?;
    let u32_at = |o: usize| Some(u32::from_le_bytes(bytes.get(o..o + 4)?.try_into().ok()?));
    let u64_at = |o: usize| Some(u64::from_le_bytes(bytes.get(o..o + 8)?.try_into().ok()?));
    if bytes.get(0..8)? != MAGIC || u32_at(8)? != VERSION || u32_at(12)? != stones {
        return None;
    }
    let lens = [u64_at(16)?, u64_at(24)?, u64_at(32)?, u64_at(40)?];
    let body = bytes.get(56..)?;
    if xxh3_64(body) != u64_at(48)? {
        return None;
    }
    // The sizes build() gives these tables, so that a file of other sizes is refused.
    if lens[0] != patterns / 4 + 1 || lens[1] != patterns / 64 + 1 || lens[2] != lens[3] {
        return None;
    }
    let want = 4 * lens[0] + 12 * lens[1] + 4 * lens[2] + 4 * lens[3];
    if body.len() as u64 != want {
        return None;
    }
    let words = |b: &[u8]| -> Vec<u32> {
        b.chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect()
    };
    let (fields, rest) = body.split_at(4 * lens[0] as usize);
    let (ranks, rest) = rest.split_at(12 * lens[1] as usize);
    let (canonical, stabilizer) = rest.split_at(4 * lens[2] as usize);
    let ranks = ranks
        .chunks_exact(12)
        .map(|c| {
            (
                u64::from_le_bytes(c[0..8].try_into().expect("8 bytes")),
                u32::from_le_bytes(c[8..12].try_into().expect("4 bytes")),
            )
        })
        .collect();
    PatternClasses::from_parts(
        stones,
        &words(fields),
        ranks,
        words(canonical),
        words(stabilizer),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symmetry::Symmetries;
    use morris_engine::board::NINE;

    #[test]
    fn round_trips_and_refuses_damage() {
        let dir = morris_testdirs::scratch("pattern-cache");
        let file = path(&dir, NINE.name(), 7);
        let built = PatternClasses::build(&NINE, &Symmetries::new(&NINE), 7);
        let patterns = crate::colex::binom(24, 7);
        save(&built, &file).unwrap();
        let back = load(&file, 7, patterns).expect("a sound file loads");
        assert_eq!(back.parts(), built.parts());
        // Another stone count, another size, a flipped byte: refused, so rebuilt.
        assert!(load(&file, 8, crate::colex::binom(24, 8)).is_none());
        assert!(load(&file, 7, patterns + 4).is_none());
        let mut bytes = fs::read(&file).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        fs::write(&file, &bytes).unwrap();
        assert!(load(&file, 7, patterns).is_none());
        let _ = fs::remove_dir_all(&dir);
    }
}
