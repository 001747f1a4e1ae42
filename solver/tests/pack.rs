//! Packed sets answer every position exactly as the tables they were packed from: values and
//! outcomes with distances, the keys left out (the side to move with fewer stones) searched
//! by the reader; a damaged block or a missing file is an error naming the file, never a wrong
//! answer.

mod common;

use common::{job, nine_with, solve_keys};
use morris_db::format::{Checks, DbError, Entry, Metric, HEADER_LEN};
use morris_db::{Index, Key, Outcome, Value};
use morris_engine::{Color, Game, Position, Rules};
use morris_packed::{packed_file_name, Kind, PackedTable};
use morris_solver::pack::{pack_key, verify_key, PackOptions, Searched, Sets};
use morris_solver::progress::Silent;
use morris_solver::solve::solve;
use morris_tablebase::answer::{Answer, Source};
use morris_tablebase::packed::{is_searched, PackedSet};
use morris_tablebase::store::Store;
use morris_tablebase::tablebase::{ProbeError, Tablebase};
use morris_tablebase::{Found, Lookup};
use morris_testdirs::scratch;
use std::path::Path;

/// Solves a reduced game into `dir` and packs it into `out` (small blocks, so that keys
/// span many blocks and the fill crosses block boundaries), leaving out the weaker side's
/// keys in the plain game; returns its keys.
fn solve_and_pack(dir: &Path, out: &Path, stones: u8, placement: bool, metric: Metric) -> Vec<Key> {
    solve_and_pack_with(
        dir,
        out,
        nine_with(stones),
        placement,
        metric,
        if metric == Metric::Plain { ALL } else { NONE },
    )
}

/// Which keys' tables are packed as leaving out the weaker side (and so which weaker keys get
/// no file): every key, none, or a layout that changes with the layer.
type LeftOut = fn(Key) -> bool;
const ALL: LeftOut = |_| true;
const NONE: LeftOut = |_| false;

fn solve_and_pack_with(
    dir: &Path,
    out: &Path,
    rules: Rules,
    placement: bool,
    metric: Metric,
    weaker_searched: LeftOut,
) -> Vec<Key> {
    let job = job(rules.stones, placement);
    if metric != Metric::Plain {
        solve(&mut Store::new(dir, rules), &job, &Silent).unwrap();
    }
    let mut store = Store::with_metric(dir, rules, metric);
    let keys = solve_keys(&mut store, &rules, &job);
    let options = PackOptions {
        kinds: vec![Kind::Wdl, Kind::Distance],
        // Not a multiple of five: most blocks end in a partial byte.
        value_block_slots: 1501,
        outcome_block_slots: 1000,
        level: 3,
        weaker_searched: false,
    };
    for &key in &keys {
        store.open(key, Checks::default()).unwrap();
        let options = PackOptions {
            weaker_searched: weaker_searched(key),
            ..options.clone()
        };
        let packed = pack_key(&rules, metric, key, &store, out, &options);
        if weaker_searched(key) && is_searched(key) {
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
        nine_with(stones),
        keys,
        metric,
        if metric == Metric::Plain { ALL } else { NONE },
    )
}

fn check_every_position_with(
    dir: &Path,
    out: &Path,
    rules: Rules,
    keys: &[Key],
    metric: Metric,
    weaker_searched: LeftOut,
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
            weaker_searched(key) && is_searched(key),
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
    if keys.iter().any(|&k| weaker_searched(k)) {
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
        let keys = solve_and_pack_with(&dir, &out, rules, true, Metric::Plain, ALL);
        check_every_position_with(&dir, &out, rules, &keys, Metric::Plain, ALL);
    }
}

#[test]
fn both_sides_packed_every_position() {
    let (dir, out) = (scratch("dbb"), scratch("pb"));
    let keys = solve_and_pack_with(&dir, &out, nine_with(3), true, Metric::Plain, NONE);
    check_every_position_with(&dir, &out, nine_with(3), &keys, Metric::Plain, NONE);
}

/// A game packed a layer at a time may leave the weaker side out of its lower layers only
/// (`scripts/solve-layers.sh` packs every key from layer 4 up, where searches grow long): a
/// searched key's moves and captures lead only into layers at or below its own, so every
/// position still answers as the tables, and the weaker keys above get their files.
#[test]
fn weaker_side_left_out_below_a_layer_every_position() {
    const BELOW_4: LeftOut = |k| k.us_hand + k.them_hand < 4;
    for (rules, name) in [
        (nine_with(4), "nine"),
        (
            Rules::standard(Game::Lasker).with_stones(3).unwrap(),
            "lasker",
        ),
    ] {
        let (dir, out) = (
            scratch(&format!("dbl{name}")),
            scratch(&format!("pl{name}")),
        );
        let keys = solve_and_pack_with(&dir, &out, rules, true, Metric::Plain, BELOW_4);
        assert!(keys.iter().any(|&k| !BELOW_4(k) && is_searched(k)));
        check_every_position_with(&dir, &out, rules, &keys, Metric::Plain, BELOW_4);
    }
}

/// In such a set, a key of the lowest layer that packs every key has the weaker side's file,
/// though its placements lead into a layer that leaves them out: its file missing is an error
/// naming it, not a search.
#[test]
fn a_missing_file_above_a_searched_layer_is_an_error() {
    // In the 4-stone game the first layer with keys of both kinds is 2 (White to place its
    // last stone, behind by a capture or not), so here the set packs every key from there up.
    const BELOW_2: LeftOut = |k| k.us_hand + k.them_hand < 2;
    let rules = nine_with(4);
    let (dir, out) = (scratch("dbmm"), scratch("pmm"));
    let keys = solve_and_pack_with(&dir, &out, rules, true, Metric::Plain, BELOW_2);
    let key = *keys
        .iter()
        .find(|k| k.us_hand + k.them_hand == 2 && is_searched(**k))
        .expect("a weaker key on layer 2");
    let index = Index::new(rules.board(), key);
    let slot = (0..index.size()).find(|&s| !index.is_hole(s)).unwrap();
    let (us, them) = index.unindex(slot);
    let pos = Position::from_sides(us, them, [key.us_hand, key.them_hand], Color::White);
    let set: PackedSet<Outcome> = PackedSet::new(&out, rules, Metric::Plain);
    let expected = Store::new(&dir, rules);
    expected.open(key, Checks::default()).unwrap();
    assert_eq!(set.get(&pos).unwrap(), expected.outcome(&pos));
    let own = set.path(key);
    std::fs::remove_file(&own).unwrap();
    let fresh: PackedSet<Outcome> = PackedSet::new(&out, rules, Metric::Plain);
    match fresh.get(&pos) {
        Err(e) => {
            let name = own.file_name().unwrap().to_string_lossy().into_owned();
            assert!(e.to_string().contains(&name), "{e}");
        }
        Ok(o) => panic!("a missing file answered {o}, searched"),
    }
}

/// A key without a file is searched only where the set says it leaves such keys out: in a
/// set that packed every key its missing file is an error naming it, and with the table its
/// moves lead into gone, the error names that table.
#[test]
fn a_missing_file_is_an_error_not_a_search() {
    let rules = nine_with(4);
    let pos = morris_engine::Position::parse("W:a1,d1,g1 B:a7,d7,g7,b4 w 0 0", &rules).unwrap();
    // White to move with fewer stones: a key the plain set leaves out.
    let key = morris_tablebase::key_of(&pos);
    assert!(is_searched(key), "{key}");
    for weaker_searched in [true, false] {
        let (dir, out) = (
            scratch(&format!("dbm{weaker_searched}")),
            scratch(&format!("pm{weaker_searched}")),
        );
        let left_out = if weaker_searched { ALL } else { NONE };
        solve_and_pack_with(&dir, &out, rules, false, Metric::Plain, left_out);
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
        let missing = if weaker_searched { &witness } else { &own };
        match fresh.get(&pos) {
            Err(e) => {
                let message = e.to_string();
                let name = missing.file_name().unwrap().to_string_lossy().into_owned();
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
    let rules = nine_with(3);
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
    fn probe(&self, pos: &morris_engine::Position) -> morris_tablebase::Located {
        self.0.probe(pos)
    }
    fn read(&self, probe: morris_tablebase::Located) -> Outcome {
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
    fn probe_slot(&self, key: Key, slot: u64) -> morris_tablebase::Located {
        self.0.probe_slot(key, slot)
    }
}

#[test]
fn verify_reports_a_position_that_differs() {
    let (dir, out) = (scratch("dbv"), scratch("pv"));
    let keys = solve_and_pack(&dir, &out, 4, false, Metric::Plain);
    let rules = nine_with(4);
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
        for report in verify_key(&rules, key, &store, sets, Searched::Every).unwrap() {
            assert_eq!((report.mismatches, report.checked > 0), (0, true), "{key}");
        }
        let [v, o] =
            verify_key(&rules, key, &Shifted(&store, slot), sets, Searched::Every).unwrap();
        assert!(v.mismatches >= 1 && o.mismatches >= 1, "{key}: {v:?} {o:?}");
    }
    // On the sample alone, a searched key is read through the packed reader one position in
    // 997: a difference there is found, and the stored key is still checked slot by slot.
    let index = Index::new(rules.board(), searched);
    let on_sample = (997..index.size())
        .step_by(997)
        .find(|&s| !index.is_hole(s))
        .unwrap();
    let every = verify_key(&rules, searched, &store, sets, Searched::Every).unwrap();
    let sample = verify_key(&rules, searched, &store, sets, Searched::Sample).unwrap();
    assert!(sample[1].checked > 0 && sample[1].checked * 900 < every[1].checked);
    assert_eq!(sample[1].mismatches, 0);
    let [v, o] = verify_key(
        &rules,
        searched,
        &Shifted(&store, on_sample),
        sets,
        Searched::Sample,
    )
    .unwrap();
    assert_eq!((v.mismatches, o.mismatches), (1, 1), "{v:?} {o:?}");
    let stored_every = verify_key(&rules, stored, &store, sets, Searched::Sample).unwrap();
    assert_eq!(stored_every[1].checked, every_checked(&rules, stored));
}

/// A store whose reads through calls are counted: the check reads the entries the store lends
/// instead, and calls the lookup only for an overflow mark.
struct Counted<'a>(&'a Store, std::sync::atomic::AtomicU64);

impl Lookup for Counted<'_> {
    fn probe(&self, pos: &morris_engine::Position) -> morris_tablebase::Located {
        self.0.probe(pos)
    }
    fn read(&self, probe: morris_tablebase::Located) -> Outcome {
        self.1.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.0.read(probe)
    }
    fn index_of(&self, key: Key) -> Option<&Index> {
        self.0.index_of(key)
    }
    fn entries_of(&self, key: Key) -> Option<morris_tablebase::Entries<'_>> {
        self.0.entries_of(key)
    }
    fn probe_slot(&self, key: Key, slot: u64) -> morris_tablebase::Located {
        self.0.probe_slot(key, slot)
    }
}

/// The check reads the table from the entries the store lends, a call of the lookup only for
/// an overflow mark; a byte of the raw table changed after packing is found at its slot.
#[test]
fn verify_reads_the_raw_tables_entries() {
    let (dir, out) = (scratch("dbraw"), scratch("praw"));
    let keys = solve_and_pack(&dir, &out, 4, false, Metric::Plain);
    let rules = nine_with(4);
    let key = *keys.last().unwrap();
    let set: PackedSet<Outcome> = PackedSet::new(&out, rules, Metric::Plain);
    let values: PackedSet<Value> = PackedSet::new(&out, rules, Metric::Plain);
    let sets = Sets {
        values: Some(&values),
        outcomes: Some(&set),
    };
    let index = Index::new(rules.board(), key);
    let path = Store::new(&dir, rules).path(key);
    let mut bytes = std::fs::read(&path).unwrap();
    let marks = (0..index.size())
        .filter(|&s| !index.is_hole(s) && bytes[HEADER_LEN + s as usize] == Entry::OVERFLOW.0)
        .count() as u64;
    let store = Store::new(&dir, rules);
    store.open(key, Checks::default()).unwrap();
    let counted = Counted(&store, Default::default());
    let [v, o] = verify_key(&rules, key, &counted, sets, Searched::Every).unwrap();
    assert_eq!((v.mismatches, o.mismatches), (0, 0));
    assert_eq!(
        counted.1.into_inner(),
        2 * marks,
        "a call only for an overflow mark"
    );

    let slot = (500..index.size())
        .find(|&s| !index.is_hole(s) && bytes[HEADER_LEN + s as usize] != Entry::OVERFLOW.0)
        .unwrap();
    let byte = &mut bytes[HEADER_LEN + slot as usize];
    *byte = if *byte == 1 { 2 } else { 1 };
    std::fs::write(&path, &bytes).unwrap();
    // Opened without the checksum, which the change broke.
    let store = Store::new(&dir, rules);
    store.open(key, Checks { checksum: false }).unwrap();
    let [_, o] = verify_key(&rules, key, &store, sets, Searched::Every).unwrap();
    assert_eq!(o.mismatches, 1, "{o:?}");
    assert_eq!(o.first.map(|f| f.0), Some(slot));
}

/// The positions (non-hole slots) of `key`.
fn every_checked(rules: &morris_engine::Rules, key: Key) -> u64 {
    let index = Index::new(rules.board(), key);
    (0..index.size()).filter(|&s| !index.is_hole(s)).count() as u64
}

/// The values-only set (`morris pack --what wdl`) is the one a player downloads: the
/// tablebase answers every position from it with the value the tables hold and no distance,
/// ranks the moves by value, and says what is missing when a file is.
#[test]
fn a_tablebase_answers_from_a_values_only_set() {
    let (dir, out) = (scratch("dbvo"), scratch("pvo"));
    let rules = nine_with(4);
    let keys = solve_and_pack_with(&dir, &out, rules, true, Metric::Plain, ALL);
    for &key in &keys {
        let _ = std::fs::remove_file(out.join(packed_file_name(
            &rules,
            Metric::Plain,
            key,
            Kind::Distance,
        )));
    }
    let raw = Store::new(&dir, rules);
    let tb = Tablebase::open(&out, rules).unwrap();
    let mut checked = 0;
    for &key in &keys {
        raw.open(key, Checks::default()).unwrap();
        let index = Index::new(rules.board(), key);
        for slot in (0..index.size()).step_by(7) {
            if index.is_hole(slot) {
                continue;
            }
            let (us, them) = index.unindex(slot);
            let pos = Position::from_sides(us, them, [key.us_hand, key.them_hand], Color::White);
            if pos.outcome(&rules).is_some() {
                continue;
            }
            let probe = tb.probe(&pos).unwrap();
            assert_eq!(
                probe.plain,
                Found::Value(raw.outcome(&pos).value()),
                "{key} {slot}"
            );
            let moves = tb.best_moves(&pos).unwrap();
            for m in &moves {
                let next = pos.play(m.mv);
                raw.open(morris_tablebase::key_of(&next), Checks::default())
                    .ok();
                let exact = if morris_tablebase::lost_already(&next, &rules) {
                    Outcome::Win(1)
                } else {
                    raw.outcome(&next).after_move()
                };
                // A value, or where the answer is known without a table (a side left with
                // too few stones) the exact outcome.
                assert_eq!(m.plain.value(), exact.value(), "{key} {slot}");
                assert!(m.plain.outcome().is_none_or(|o| o == exact), "{key} {slot}");
            }
            assert!(moves
                .windows(2)
                .all(|w| w[0].plain.value() <= w[1].plain.value()));
            if let Some(best) = moves.first() {
                assert_eq!(best.plain.value(), probe.plain.value(), "{key} {slot}");
            }
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked}");
    // The answer says where its values come from, and has no distances.
    let start = Position::start(&rules);
    let answer = Answer::query(&tb, &start, 0, None).unwrap();
    assert_eq!((answer.source, answer.valued.plies), (Source::Values, None));
    assert!(answer.moves.iter().all(|m| m.valued.plies.is_none()));
    // A turn limit needs the distances.
    match Answer::query(&tb, &start, 0, Some(10)) {
        Err(ProbeError::NoDistances { .. }) => {}
        other => panic!("expected a values-only refusal, got {other:?}"),
    }
    // A key with no file at all: the error names the raw table and the packed files.
    let key = morris_tablebase::key_of(&start);
    std::fs::remove_file(out.join(packed_file_name(&rules, Metric::Plain, key, Kind::Wdl)))
        .unwrap();
    let message = Tablebase::open(&out, rules)
        .unwrap()
        .probe(&start)
        .unwrap_err()
        .to_string();
    for kind in [Kind::Distance, Kind::Wdl] {
        let name = packed_file_name(&rules, Metric::Plain, key, kind);
        assert!(message.contains(&name), "{message}");
    }
    assert!(message.contains("morris solve"), "{message}");
}

/// A server shares one tablebase between requests. With a damaged block, every probe that
/// reads it fails with its own error, and every other probe, in any thread, gets the value
/// the tables hold: never a value made up in place of the damaged one.
#[test]
fn a_damaged_block_under_concurrent_probes_never_gives_a_wrong_value() {
    let (dir, out) = (scratch("dbcc"), scratch("pcc"));
    let rules = nine_with(3);
    let keys = solve_and_pack_with(&dir, &out, rules, false, Metric::Plain, NONE);
    let key = *keys.last().unwrap();
    let path = out.join(packed_file_name(&rules, Metric::Plain, key, Kind::Distance));
    let table = PackedTable::open_any(&path).unwrap();
    assert!(table.blocks() > 2, "the key spans several blocks");
    let at = 128 + table.block_bytes(0) + table.block_bytes(1) / 2;
    drop(table);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[at as usize] ^= 0x5a;
    std::fs::write(&path, &bytes).unwrap();
    let raw = Store::new(&dir, rules);
    for &k in &keys {
        raw.open(k, Checks::default()).unwrap();
    }
    let tb = std::sync::Arc::new(Tablebase::open(&out, rules).unwrap());
    let index = Index::new(rules.board(), key);
    let slots: Vec<u64> = (0..index.size().min(4000))
        .filter(|&s| !index.is_hole(s))
        .collect();
    let (failed, answered) = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let (tb, raw, slots, index) = (tb.clone(), &raw, &slots, &index);
                scope.spawn(move || {
                    let (mut failed, mut answered) = (0, 0);
                    // Each thread walks the slots from another start, so that reads of the
                    // damaged block and of sound ones interleave between threads.
                    for i in 0..slots.len() {
                        let slot = slots[(i + t * slots.len() / 4) % slots.len()];
                        let (us, them) = index.unindex(slot);
                        let pos = Position::from_sides(us, them, [0, 0], Color::White);
                        match tb.probe(&pos) {
                            Ok(p) => {
                                assert!(
                                    !(1000..2000).contains(&slot),
                                    "slot {slot} read the damaged block"
                                );
                                assert_eq!(
                                    p.plain,
                                    Found::Outcome(raw.outcome(&pos)),
                                    "slot {slot}"
                                );
                                answered += 1;
                            }
                            Err(ProbeError::BadTable { error, .. }) => {
                                assert!((1000..2000).contains(&slot), "slot {slot}: {error}");
                                assert!(
                                    matches!(error, DbError::DamagedBlock { block: 1, .. }),
                                    "{error}"
                                );
                                failed += 1;
                            }
                            Err(e) => panic!("slot {slot}: {e}"),
                        }
                    }
                    (failed, answered)
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|t| t.join().unwrap())
            .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    });
    assert!(failed > 0 && answered > 0, "{failed} {answered}");
}
