//! Database files: round trips, and every kind of damage refused with its own error.

use std::fs;
use std::path::{Path, PathBuf};

use morris_db::format::info::{inspect, render};
use morris_db::format::{
    file_name, write_table, Checks, DbError, EncodedBlock, Encoding, Entry, Metric, Table, Writer,
    HEADER_LEN,
};
use morris_db::{slots, Key, Outcome, Value};
use morris_engine::Rules;
use morris_testdirs::scratch;

const KEY: Key = Key::moving(3, 3);

/// A deterministic outcome per slot, with a few distances past the byte range.
fn outcome_of(i: u64) -> Outcome {
    match i % 1000 {
        0 => Outcome::Draw,
        7 => Outcome::in_plies(254 + (i / 1000 % 300) as u32),
        13 => Outcome::in_plies(65_535),
        r => Outcome::in_plies((r % 200) as u32),
    }
}

fn write_sample(dir: &Path) -> PathBuf {
    let rules = Rules::nine();
    let path = dir.join(file_name(&rules, Metric::Plain, KEY));
    let mut w = Writer::create(&path, rules, KEY).unwrap();
    for i in 0..slots(rules.board(), KEY) {
        w.push(outcome_of(i)).unwrap();
    }
    assert_eq!(w.finish().unwrap(), path);
    path
}

/// Every slot of `t` read through its [`Table::decoder`], in runs of several lengths and
/// alone, against [`Table::outcome`].
fn decoder_agrees(t: &Table) {
    let d = t.decoder();
    for run in [1, 7, 1000] {
        let mut start = 0;
        while start < t.len() {
            let end = (start + run).min(t.len());
            let mut got = vec![None; (end - start) as usize];
            d.outcomes(start..end, &mut got);
            for (slot, o) in (start..end).zip(got) {
                assert_eq!(o, Some(t.outcome(slot)), "slot {slot}, runs of {run}");
                assert_eq!(d.outcome(slot), t.outcome(slot), "slot {slot} alone");
            }
            start = end;
        }
    }
}

#[test]
fn round_trip_with_overflow() {
    let dir = scratch("round-trip");
    let path = write_sample(&dir);
    assert!(path.ends_with("nine-3-3-0-0.mdb"));
    let t = Table::open(&path, Rules::nine(), KEY).unwrap();
    let n = slots(Rules::nine().board(), KEY);
    assert_eq!(t.len(), n);
    assert!(t.header().overflow > 0);
    for i in 0..n {
        assert_eq!(t.outcome(i), outcome_of(i), "slot {i}");
    }
    assert_eq!(t.outcome(7).value(), Value::Loss);
    assert_eq!(t.outcome(13).plies(), Some(65_535));
    decoder_agrees(&t);
    assert_eq!(fs::metadata(&path).unwrap().len(), t.header().file_len());
    // No temporary file left behind.
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
}

/// A distance to zeroing per slot (no parity), some past the byte's range.
fn zeroing_of(i: u64) -> Outcome {
    match i % 7 {
        0 => Outcome::Draw,
        1 => Outcome::Win((i / 7 % 300) as u32),
        _ => Outcome::Loss((i / 7 % 150) as u32),
    }
}

#[test]
fn rule_tables_round_trip_and_are_told_apart() {
    let dir = scratch("rule");
    let rules = Rules::nine();
    let n = slots(rules.board(), KEY);
    let metric = Metric::NoCapture(50);
    let path = dir.join(file_name(&rules, metric, KEY));
    assert!(path.to_str().unwrap().ends_with("nine-nc50-3-3-0-0.mdb"));
    let mut w = Writer::create_with(&path, rules, metric, Encoding::ZeroingByte, KEY).unwrap();
    for i in 0..n {
        w.push(zeroing_of(i)).unwrap();
    }
    w.finish().unwrap();
    let t = Table::open_with(&path, rules, metric, KEY, Checks::default()).unwrap();
    assert!(t.header().overflow > 0);
    for i in 0..n {
        assert_eq!(t.outcome(i), zeroing_of(i), "slot {i}");
    }
    decoder_agrees(&t);
    // Opened as the plain table, or under another limit: refused.
    for other in [Metric::Plain, Metric::NoCapture(100)] {
        let err = Table::open_with(&path, rules, other, KEY, Checks::default()).unwrap_err();
        assert!(matches!(err, DbError::WrongMetric { .. }), "{err}");
        assert!(err.to_string().contains("N = 50"), "{err}");
    }

    // Two bits a slot: values only, read back at distance 1.
    let key = Key::new(3, 3, 1, 0);
    let n = slots(rules.board(), key);
    let path = dir.join(file_name(&rules, metric, key));
    let mut w = Writer::create_with(&path, rules, metric, Encoding::Wdl2, key).unwrap();
    for i in 0..n {
        w.push(zeroing_of(i)).unwrap();
    }
    w.finish().unwrap();
    assert_eq!(fs::metadata(&path).unwrap().len(), 64 + n.div_ceil(4));
    let t = Table::open_with(&path, rules, metric, key, Checks::default()).unwrap();
    for i in 0..n {
        let want = match zeroing_of(i).value() {
            Value::Win => Outcome::Win(1),
            Value::Draw => Outcome::Draw,
            Value::Loss => Outcome::Loss(1),
        };
        assert_eq!(t.outcome(i), want, "slot {i}");
    }
    decoder_agrees(&t);
    // A pattern no writer makes is caught by the full check, the checksum patched to match.
    let mut bytes = fs::read(&path).unwrap();
    bytes[HEADER_LEN] |= 3;
    let sum = xxhash_rust::xxh3::xxh3_64(&bytes[HEADER_LEN..]);
    bytes[40..48].copy_from_slice(&sum.to_le_bytes());
    fs::write(&path, &bytes).unwrap();
    let err = Table::open_with(&path, rules, metric, key, Checks::default()).unwrap_err();
    assert!(matches!(err, DbError::BadEntries { .. }), "{err}");
}

/// The file of `outcome` over `key`'s slots under `encoding`, written by the writer's `push`
/// alone, or by blocks split at `cuts` with the slots of `one_by_one` (ranges between cuts)
/// pushed singly.
fn written(
    dir: &Path,
    name: &str,
    encoding: Encoding,
    key: Key,
    outcome: fn(u64) -> Outcome,
    cuts: &[u64],
    one_by_one: &[usize],
) -> Vec<u8> {
    let rules = Rules::nine();
    let metric = match encoding {
        Encoding::DistanceByte => Metric::Plain,
        _ => Metric::NoCapture(50),
    };
    let path = dir.join(name);
    let mut w = Writer::create_with(&path, rules, metric, encoding, key).unwrap();
    let n = slots(rules.board(), key);
    let mut bounds = vec![0];
    bounds.extend(cuts.iter().copied().filter(|&c| c < n));
    bounds.push(n);
    for (k, r) in bounds.windows(2).enumerate() {
        if one_by_one.contains(&k) {
            for i in r[0]..r[1] {
                w.push(outcome(i)).unwrap();
            }
        } else {
            w.push_block(&EncodedBlock::encode(
                encoding,
                r[0],
                (r[0]..r[1]).map(outcome),
            ))
            .unwrap();
        }
    }
    w.finish().unwrap();
    fs::read(&path).unwrap()
}

#[test]
fn blocks_write_what_single_pushes_write() {
    let dir = scratch("blocks");
    let key = Key::new(3, 3, 1, 0);
    for (encoding, key, outcome) in [
        (
            Encoding::DistanceByte,
            KEY,
            outcome_of as fn(u64) -> Outcome,
        ),
        (Encoding::ZeroingByte, KEY, zeroing_of),
        (Encoding::Wdl2, key, zeroing_of),
    ] {
        let single = written(&dir, "a", encoding, key, outcome, &[], &[0]);
        // Whole, in uneven blocks, and (two bits) a block ending inside a byte that single
        // pushes finish, then blocks again from the next byte.
        for (cuts, singles) in [
            (vec![], vec![]),
            (vec![1000, 4000, 4004, 77_776], vec![]),
            (vec![1001, 1004, 5000], vec![1]),
        ] {
            let blocks = written(&dir, "b", encoding, key, outcome, &cuts, &singles);
            assert!(
                single == blocks,
                "{encoding:?} cut at {cuts:?}: files differ"
            );
        }
    }
}

#[test]
fn blocks_out_of_place_or_unencodable_are_refused() {
    let dir = scratch("blocks-refused");
    let rules = Rules::nine();
    let path = dir.join("t.mdb");
    let mut w = Writer::create(&path, rules, KEY).unwrap();
    // Pushes `block`, which must be refused with an error that says `why`.
    let mut refused = |block: EncodedBlock, why: &str| {
        let err = w.push_block(&block).unwrap_err();
        assert!(err.to_string().contains(why), "{err}");
    };
    // Not where the table is.
    refused(
        EncodedBlock::encode(Encoding::DistanceByte, 5, (5..9).map(outcome_of)),
        "at slot 5",
    );
    // Another encoding.
    refused(
        EncodedBlock::encode(Encoding::ZeroingByte, 0, (0..9).map(zeroing_of)),
        "ZeroingByte",
    );
    // A plain distance of the wrong parity has no byte.
    let bad = [Outcome::Draw, Outcome::Win(2)];
    refused(
        EncodedBlock::encode(Encoding::DistanceByte, 0, bad),
        "slot 1",
    );
    // Past the end.
    let n = slots(rules.board(), KEY);
    refused(
        EncodedBlock::encode(Encoding::DistanceByte, 0, (0..n + 1).map(outcome_of)),
        "more than",
    );
    // Nothing refused was written: the table still takes every slot from 0.
    w.push_block(&EncodedBlock::encode(
        Encoding::DistanceByte,
        0,
        (0..n).map(outcome_of),
    ))
    .unwrap();
    w.finish().unwrap();
    let t = Table::open(&path, rules, KEY).unwrap();
    assert_eq!(t.outcome(7), outcome_of(7));
}

#[test]
fn raw_entries_with_explicit_overflow() {
    let dir = scratch("raw");
    let rules = Rules::nine();
    let n = slots(rules.board(), KEY) as usize;
    let mut entries: Vec<u8> = (0..n)
        .map(|i| {
            Entry::encode(Encoding::DistanceByte, outcome_of(i as u64))
                .unwrap()
                .0
                 .0
        })
        .collect();
    let overflow: Vec<(u64, u16)> = (0..n as u64)
        .filter(|&i| entries[i as usize] == 255)
        .map(|i| (i, outcome_of(i).plies().unwrap() as u16))
        .collect();
    let path = dir.join(file_name(&rules, Metric::Plain, KEY));
    write_table(&path, rules, KEY, &entries, &overflow).unwrap();
    let t = Table::open(&path, rules, KEY).unwrap();
    assert_eq!(t.entries(), &entries[..]);
    assert_eq!(t.overflow_records().collect::<Vec<_>>(), overflow);

    // A marker without its distance is refused, and leaves no file.
    fs::remove_file(&path).unwrap();
    entries[1] = 255;
    let err = write_table(&path, rules, KEY, &entries, &overflow).unwrap_err();
    assert!(matches!(err, DbError::InvalidData { .. }), "{err}");
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
}

#[test]
fn writer_dropped_before_finish_leaves_nothing() {
    let dir = scratch("dropped");
    let rules = Rules::nine();
    let path = dir.join(file_name(&rules, Metric::Plain, KEY));
    {
        let mut w = Writer::create(&path, rules, KEY).unwrap();
        w.push_raw(&[1, 2, 3]).unwrap();
        assert!(dir.join("nine-3-3-0-0.mdb.tmp").exists());
    }
    assert!(!path.exists());
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);

    // Too few entries: finish refuses, and nothing is left either.
    let mut w = Writer::create(&path, rules, KEY).unwrap();
    w.push_raw(&[1, 2, 3]).unwrap();
    let err = w.finish().unwrap_err();
    assert!(matches!(err, DbError::InvalidData { .. }), "{err}");
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
}

/// Writes the sample, damages it with `damage`, and returns the error of opening it.
fn open_damaged(name: &str, damage: impl FnOnce(&mut Vec<u8>)) -> DbError {
    let dir = scratch(name);
    let path = write_sample(&dir);
    let mut bytes = fs::read(&path).unwrap();
    damage(&mut bytes);
    fs::write(&path, &bytes).unwrap();
    let err = match Table::open(&path, Rules::nine(), KEY) {
        Ok(_) => panic!("{name}: damaged file accepted"),
        Err(e) => e,
    };
    let msg = err.to_string();
    assert!(
        msg.contains("nine-3-3-0-0.mdb"),
        "{name}: message names no file: {msg}"
    );
    err
}

#[test]
fn truncated_file() {
    let err = open_damaged("truncated", |b| {
        b.pop();
    });
    assert!(matches!(err, DbError::Truncated { .. }), "{err}");
    let err = open_damaged("truncated-header", |b| b.truncate(HEADER_LEN - 1));
    assert!(matches!(err, DbError::Truncated { .. }), "{err}");
    let err = open_damaged("trailing", |b| b.push(0));
    assert!(matches!(err, DbError::TrailingBytes { .. }), "{err}");
}

#[test]
fn flipped_payload_byte() {
    let err = open_damaged("flipped", |b| {
        let i = b.len() / 2;
        b[i] ^= 0x10;
    });
    assert!(matches!(err, DbError::ChecksumMismatch { .. }), "{err}");
    // A damaged overflow record too.
    let err = open_damaged("flipped-overflow", |b| {
        let i = b.len() - 1;
        b[i] ^= 1;
    });
    assert!(matches!(err, DbError::ChecksumMismatch { .. }), "{err}");
}

#[test]
fn wrong_header_fields() {
    let err = open_damaged("magic", |b| b[0] = b'X');
    assert!(matches!(err, DbError::BadMagic { .. }), "{err}");
    let err = open_damaged("version", |b| b[8] = 2);
    assert!(
        matches!(err, DbError::UnsupportedVersion { found: 2, .. }),
        "{err}"
    );
    let err = open_damaged("game", |b| b[12] = 99);
    assert!(matches!(err, DbError::UnknownGame { id: 99, .. }), "{err}");
    let err = open_damaged("rules", |b| b[13] = 0); // flying off
    assert!(matches!(err, DbError::WrongRules { .. }), "{err}");
    let err = open_damaged("stones", |b| b[14] = 10);
    assert!(matches!(err, DbError::WrongRules { .. }), "{err}");
    let err = open_damaged("flags", |b| b[13] |= 0x80);
    assert!(matches!(err, DbError::UnknownRuleFlags { .. }), "{err}");
    // 3-3-1-1 has as many slots as 3-3-0-0: only the key check can tell.
    let err = open_damaged("key", |b| {
        b[18] = 1;
        b[19] = 1;
    });
    assert!(
        matches!(err, DbError::WrongKey { found, .. } if found == Key::new(3, 3, 1, 1)),
        "{err}"
    );
    let err = open_damaged("encoding", |b| b[15] = 7);
    assert!(
        matches!(err, DbError::UnknownEncoding { found: 7, .. }),
        "{err}"
    );
    let err = open_damaged("entries", |b| b[24] ^= 1);
    assert!(matches!(err, DbError::WrongEntryCount { .. }), "{err}");
    let err = open_damaged("overflow count", |b| b[32] += 1);
    assert!(matches!(err, DbError::Truncated { .. }), "{err}");
    let err = open_damaged("checksum", |b| b[40] ^= 1);
    assert!(matches!(err, DbError::ChecksumMismatch { .. }), "{err}");
}

#[test]
fn opened_with_other_expectations() {
    let dir = scratch("expectations");
    let path = write_sample(&dir);
    let no_flying = Rules {
        flying: false,
        ..Rules::nine()
    };
    let err = Table::open(&path, no_flying, KEY).err().unwrap();
    assert!(matches!(err, DbError::WrongRules { .. }), "{err}");
    assert!(
        err.to_string()
            .contains("not for nine, 9 stones, no flying"),
        "{err}"
    );
    let err = Table::open(&path, Rules::nine(), Key::moving(4, 3))
        .err()
        .unwrap();
    assert!(matches!(err, DbError::WrongKey { .. }), "{err}");
    assert!(
        err.to_string().contains("holds key 3-3-0-0, not 4-3-0-0"),
        "{err}"
    );
    let err = Table::open(dir.join("missing.mdb"), Rules::nine(), KEY)
        .err()
        .unwrap();
    assert!(matches!(err, DbError::Io { .. }), "{err}");
}

#[test]
fn checksum_check_can_be_skipped() {
    let dir = scratch("skip-checksum");
    let path = write_sample(&dir);
    let mut bytes = fs::read(&path).unwrap();
    bytes[HEADER_LEN + 5] ^= 1;
    fs::write(&path, &bytes).unwrap();
    let fast = Checks { checksum: false };
    let t = Table::open_with(&path, Rules::nine(), Metric::Plain, KEY, fast).unwrap();
    assert!(matches!(t.verify(), Err(DbError::ChecksumMismatch { .. })));
}

#[test]
fn info_flags_damaged_files() {
    let dir = scratch("info");
    let good = write_sample(&dir);
    let copy = |name: &str| {
        let p = dir.join(name);
        fs::copy(&good, &p).unwrap();
        p
    };
    let misnamed = copy("nine-4-3-0-0.mdb");
    let damaged = copy("nine-3-4-0-0.mdb");
    let mut bytes = fs::read(&damaged).unwrap();
    bytes.truncate(bytes.len() - 3);
    fs::write(&damaged, bytes).unwrap();
    fs::write(dir.join("nine-5-3-0-0.mdb.tmp"), b"partial").unwrap();
    fs::write(dir.join("notes.txt"), b"ignored").unwrap();

    let infos = inspect(&dir, Checks::default()).unwrap();
    assert_eq!(infos.len(), 4);
    let by_name = |n: &str| infos.iter().find(|i| i.path.ends_with(n)).unwrap();
    assert!(by_name("nine-3-3-0-0.mdb").is_ok());
    assert_eq!(
        by_name("nine-4-3-0-0.mdb").expected_name.as_deref(),
        Some("nine-3-3-0-0.mdb")
    );
    assert!(matches!(
        by_name("nine-3-4-0-0.mdb").status,
        Err(DbError::Truncated { .. })
    ));
    assert!(by_name("nine-5-3-0-0.mdb.tmp").unfinished);
    let text = render(&infos);
    assert!(text.contains("MISNAMED"), "{text}");
    assert!(text.contains("DAMAGED"), "{text}");
    assert!(text.contains("3 damaged or misplaced"), "{text}");
    println!("{text}");

    let one = inspect(&misnamed, Checks::default()).unwrap();
    assert_eq!(one.len(), 1);
}
