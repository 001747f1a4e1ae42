//! Packed sets answer every position exactly as the tables they were packed from: values and
//! outcomes with distances, the keys left out (the side to move with fewer stones) searched
//! by the reader; a damaged block or a missing file is an error naming the file, never a wrong
//! answer.
#![cfg(feature = "packed")]

use morris_db::format::{Checks, DbError, Metric};
use morris_db::{Index, Key, Outcome, Value};
use morris_engine::{Game, Rules};
use morris_packed::{packed_file_name, Kind, PackedTable};
use morris_solver::pack::{is_searched, pack_key, verify_key, PackOptions, PackedSet, Sets};
use morris_solver::progress::Silent;
use morris_solver::solve::{solve, steps, Job};
use morris_solver::store::Store;
use morris_solver::Lookup;
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("morris-pack-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn rules(stones: u8) -> Rules {
    Rules {
        stones,
        ..Rules::nine()
    }
}

fn job(stones: u8, placement: bool) -> Job {
    Job {
        max_stones: stones,
        only: None,
        placement,
        stop_after_files: None,
    }
}

/// Solves a reduced game into `dir` and packs it into `out` (small blocks, so that keys
/// span many blocks and the fill crosses block boundaries), leaving out the weaker side's
/// keys in the plain game; returns its keys.
fn solve_and_pack(dir: &Path, out: &Path, stones: u8, placement: bool, metric: Metric) -> Vec<Key> {
    solve_and_pack_with(
        dir,
        out,
        rules(stones),
        placement,
        metric,
        metric == Metric::Plain,
    )
}

fn solve_and_pack_with(
    dir: &Path,
    out: &Path,
    rules: Rules,
    placement: bool,
    metric: Metric,
    weaker_searched: bool,
) -> Vec<Key> {
    let job = job(rules.stones, placement);
    if metric != Metric::Plain {
        solve(&mut Store::new(dir, rules), &job, &Silent).unwrap();
    }
    let mut store = Store::with_metric(dir, rules, metric);
    solve(&mut store, &job, &Silent).unwrap();
    let keys: Vec<Key> = steps(&rules, &job)
        .unwrap()
        .iter()
        .flat_map(|s| s.keys())
        .collect();
    let options = PackOptions {
        kinds: vec![Kind::Wdl, Kind::Distance],
        // Not a multiple of five: most blocks end in a partial byte.
        value_block_slots: 1501,
        outcome_block_slots: 1000,
        level: 3,
        weaker_searched,
    };
    for &key in &keys {
        store.open(key, Checks::default()).unwrap();
        let packed = pack_key(&rules, metric, key, &store, out, &options);
        if weaker_searched && is_searched(key) {
            assert!(packed.is_err(), "{key} is refused in such a set");
        } else {
            packed.unwrap();
        }
    }
    keys
}

/// Every position of every key: the packed value and outcome equal the unpacked table's.
fn check_every_position(dir: &Path, out: &Path, stones: u8, keys: &[Key], metric: Metric) {
    check_every_position_with(
        dir,
        out,
        rules(stones),
        keys,
        metric,
        metric == Metric::Plain,
    )
}

fn check_every_position_with(
    dir: &Path,
    out: &Path,
    rules: Rules,
    keys: &[Key],
    metric: Metric,
    weaker_searched: bool,
) {
    let store = Store::with_metric(dir, rules, metric);
    let values: PackedSet<Value> = PackedSet::new(out, rules, metric);
    let outcomes: PackedSet<Outcome> = PackedSet::new(out, rules, metric);
    let mut searched = 0;
    for &key in keys {
        let (index, table) = store.load(key, Checks::default(), false).unwrap();
        let left_out = outcomes.searched(key).unwrap();
        assert_eq!(left_out, values.searched(key).unwrap(), "{key}");
        assert_eq!(
            left_out,
            weaker_searched && is_searched(key),
            "{key}: the set leaves out exactly the weaker side, if any"
        );
        searched += left_out as usize;
        for slot in 0..index.size() {
            if index.is_hole(slot) {
                continue;
            }
            let expected = table.outcome(slot);
            assert_eq!(
                outcomes.get_slot(key, slot).unwrap(),
                expected,
                "{key} slot {slot}"
            );
            assert_eq!(
                values.get_slot(key, slot).unwrap(),
                expected.value(),
                "{key} {slot}"
            );
        }
        // A position read through the whole-position path lands on the same answer.
        let (us, them) = index.unindex(index.size() / 2);
        let pos = morris_engine::Position::from_sides(
            us,
            them,
            [key.us_hand, key.them_hand],
            morris_engine::Color::White,
        );
        assert_eq!(outcomes.get(&pos).unwrap(), store.outcome(&pos), "{key}");
    }
    // The test exercises the search: some keys have no file.
    if weaker_searched {
        assert!(searched > 0, "no key was left out");
    }
}

#[test]
fn three_and_four_stones_every_position() {
    for stones in [3, 4] {
        let (dir, out) = (
            scratch(&format!("db{stones}")),
            scratch(&format!("p{stones}")),
        );
        let keys = solve_and_pack(&dir, &out, stones, true, Metric::Plain);
        check_every_position(&dir, &out, stones, &keys, Metric::Plain);
    }
}

/// The other games of the family, whose rules differ where a search could go wrong: a full
/// board with no move (tic-tac-toe), a line that wins at once (Three Men's Morris), no flying
/// (Six Men's Morris), placing or sliding (Lasker Morris).
#[test]
fn every_game_every_position() {
    for (game, stones) in [
        (Game::TicTacToe, None),
        (Game::Three, None),
        (Game::Six, None),
        (Game::Lasker, Some(3)),
    ] {
        let mut rules = Rules::standard(game);
        if let Some(n) = stones {
            rules = rules.with_stones(n).unwrap();
        }
        let (dir, out) = (
            scratch(&format!("dbg{game:?}")),
            scratch(&format!("pg{game:?}")),
        );
        let keys = solve_and_pack_with(&dir, &out, rules, true, Metric::Plain, true);
        check_every_position_with(&dir, &out, rules, &keys, Metric::Plain, true);
    }
}

#[test]
fn both_sides_packed_every_position() {
    let (dir, out) = (scratch("dbb"), scratch("pb"));
    let keys = solve_and_pack_with(&dir, &out, rules(3), true, Metric::Plain, false);
    check_every_position_with(&dir, &out, rules(3), &keys, Metric::Plain, false);
}

/// A key without a file is searched only where the set says it leaves such keys out: with
/// the table its moves lead into gone, or in a set that packed every key, a missing file is
/// an error naming it.
#[test]
fn a_missing_file_is_an_error_not_a_search() {
    let rules = rules(4);
    let pos = morris_engine::Position::parse("W:a1,d1,g1 B:a7,d7,g7,b4 w 0 0", &rules).unwrap();
    // White to move with fewer stones: a key the plain set leaves out.
    let key = morris_solver::key_of(&pos);
    assert!(is_searched(key), "{key}");
    for weaker_searched in [true, false] {
        let (dir, out) = (
            scratch(&format!("dbm{weaker_searched}")),
            scratch(&format!("pm{weaker_searched}")),
        );
        solve_and_pack_with(&dir, &out, rules, false, Metric::Plain, weaker_searched);
        let set: PackedSet<Outcome> = PackedSet::new(&out, rules, Metric::Plain);
        let own = set.path(key);
        let witness = set.path(key.swapped());
        if weaker_searched {
            assert!(!own.exists());
            let expected = Store::new(&dir, rules);
            expected.open(key, Checks::default()).unwrap();
            assert_eq!(set.get(&pos).unwrap(), expected.outcome(&pos));
            std::fs::remove_file(&witness).unwrap();
        } else {
            std::fs::remove_file(&own).unwrap();
        }
        let fresh: PackedSet<Outcome> = PackedSet::new(&out, rules, Metric::Plain);
        match fresh.get(&pos) {
            Err(e) => {
                let message = e.to_string();
                let name = own.file_name().unwrap().to_string_lossy().into_owned();
                assert!(message.contains(&name), "{message}");
            }
            Ok(o) => panic!("a missing file answered {o}"),
        }
    }
}

#[test]
fn five_stones_moving_phase_every_position() {
    let (dir, out) = (scratch("db5"), scratch("p5"));
    let keys = solve_and_pack(&dir, &out, 5, false, Metric::Plain);
    check_every_position(&dir, &out, 5, &keys, Metric::Plain);
}

#[test]
fn no_capture_rule_tables_pack_too() {
    let (dir, out) = (scratch("dbnc"), scratch("pnc"));
    let metric = Metric::NoCapture(6);
    let keys = solve_and_pack(&dir, &out, 3, true, metric);
    check_every_position(&dir, &out, 3, &keys, metric);
}

#[test]
fn a_damaged_block_is_an_error_naming_file_and_block() {
    let (dir, out) = (scratch("dbd"), scratch("pd"));
    let keys = solve_and_pack(&dir, &out, 3, false, Metric::Plain);
    let rules = rules(3);
    let key = *keys.last().unwrap();
    let path = out.join(packed_file_name(&rules, Metric::Plain, key, Kind::Distance));
    let table = PackedTable::open_any(&path).unwrap();
    assert!(table.blocks() > 2, "the key spans several blocks");
    // Flip a byte in the middle of block 1.
    let block = 1;
    // Block 1 starts where block 0 ends: after the header and block 0's bytes.
    let at = 128 + table.block_bytes(0) + table.block_bytes(1) / 2;
    drop(table);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[at as usize] ^= 0x5a;
    std::fs::write(&path, &bytes).unwrap();
    let set: PackedSet<Outcome> = PackedSet::new(&out, rules, Metric::Plain);
    let index = Index::new(rules.board(), key);
    let slot = (1000..2000).find(|&s| !index.is_hole(s)).unwrap();
    match set.get_slot(key, slot) {
        Err(DbError::DamagedBlock {
            path: p,
            block: b,
            offset,
            ..
        }) => {
            assert_eq!(p, path);
            assert_eq!(b, block);
            assert_eq!(offset, 128 + set.open(key).unwrap().1.block_bytes(0));
            let message = DbError::DamagedBlock {
                path: p,
                block: b,
                offset,
                detail: String::new(),
            }
            .to_string();
            assert!(
                message.contains("block 1") && message.contains("offset"),
                "{message}"
            );
        }
        other => panic!("expected a damaged block, got {other:?}"),
    }
    // Block 0 is intact and still answers.
    let store = Store::new(&dir, rules);
    let (_, t) = store.load(key, Checks::default(), false).unwrap();
    let s0 = (0..1000).find(|&s| !index.is_hole(s)).unwrap();
    assert_eq!(set.get_slot(key, s0).unwrap(), t.outcome(s0));
}

/// A source that disagrees with the packed set at one slot: `verify_key` must say so.
struct Shifted<'a>(&'a Store, u64);

impl Lookup for Shifted<'_> {
    fn probe(&self, pos: &morris_engine::Position) -> morris_solver::Located {
        self.0.probe(pos)
    }
    fn read(&self, probe: morris_solver::Located) -> Outcome {
        let o = self.0.read(probe);
        match probe.located() {
            Ok((_, slot)) if slot == self.1 => match o {
                Outcome::Draw => Outcome::Win(1),
                _ => Outcome::Draw,
            },
            _ => o,
        }
    }
    fn index_of(&self, key: Key) -> Option<&Index> {
        self.0.index_of(key)
    }
    fn probe_slot(&self, key: Key, slot: u64) -> morris_solver::Located {
        self.0.probe_slot(key, slot)
    }
}

#[test]
fn verify_reports_a_position_that_differs() {
    let (dir, out) = (scratch("dbv"), scratch("pv"));
    let keys = solve_and_pack(&dir, &out, 4, false, Metric::Plain);
    let rules = rules(4);
    let store = Store::new(&dir, rules);
    for k in &keys {
        store.open(*k, Checks::default()).unwrap();
    }
    let set: PackedSet<Outcome> = PackedSet::new(&out, rules, Metric::Plain);
    let values: PackedSet<Value> = PackedSet::new(&out, rules, Metric::Plain);
    let sets = Sets {
        values: Some(&values),
        outcomes: Some(&set),
    };
    // A key with a file and a key searched.
    let stored = *keys.last().unwrap();
    let searched = *keys.iter().find(|&&k| is_searched(k)).unwrap();
    for key in [stored, searched] {
        let index = Index::new(rules.board(), key);
        let slot = (500..index.size()).find(|&s| !index.is_hole(s)).unwrap();
        for report in verify_key(&rules, key, &store, sets).unwrap() {
            assert_eq!((report.mismatches, report.checked > 0), (0, true), "{key}");
        }
        let [v, o] = verify_key(&rules, key, &Shifted(&store, slot), sets).unwrap();
        assert!(v.mismatches >= 1 && o.mismatches >= 1, "{key}: {v:?} {o:?}");
    }
}
