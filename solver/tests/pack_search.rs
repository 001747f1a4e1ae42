//! The packed reader's pruned search of the keys a set leaves out answers exactly as the
//! unpacked tables and as the full minimax over the same set: values, and outcomes with their
//! distances, on every position of the keys whose captures chain (the placement keys where
//! the side to move is one stone behind and both sides have stones in hand; the full minimax
//! on a sample of them). `pack.rs` checks every position of every key of smaller games.

mod common;

use common::{job, nine_with, solve_keys};
use morris_db::format::{Checks, Metric};
use morris_db::{Key, Outcome, Value};
use morris_engine::{Color, Position, Rules};
use morris_packed::Kind;
use morris_solver::pack::{pack_key, PackOptions};
use morris_tablebase::packed::{is_searched, search, PackedSet, Symbol};
use morris_tablebase::store::Store;
use morris_tablebase::{key_of, lost_already};
use morris_testdirs::scratch;
use rayon::prelude::*;

/// The reader as it was: the full minimax over every move, searched children searched in
/// full in turn.
fn full<T: Symbol>(set: &PackedSet<T>, rules: &Rules, pos: &Position) -> T {
    if lost_already(pos, rules) {
        return T::LOST;
    }
    if set.searched(key_of(pos)).unwrap() {
        return search::<T, ()>(pos, rules, |c| Ok(full(set, rules, c))).unwrap();
    }
    set.get(pos).unwrap()
}

/// Every how many slots the full minimax is run too.
const FULL_EVERY: u64 = 5;

/// A searched placement key whose captures lead into searched placement keys again (the
/// chains of several plies; with one side's hand empty the chain is one ply on, which
/// `pack.rs` checks on every position of the 3- and 4-stone games).
fn chains(key: Key) -> bool {
    is_searched(key) && key.us + 1 == key.them && key.us_hand > 0 && key.them_hand > 0
}

#[test]
fn pruned_search_equals_full_minimax_and_tables() {
    let stones = 5;
    let rules = nine_with(stones);
    let (dir, out) = (scratch("db"), scratch("p"));
    let mut store = Store::new(&dir, rules);
    let keys = solve_keys(&mut store, &rules, &job(stones, true));
    let options = PackOptions {
        kinds: vec![Kind::Wdl, Kind::Distance],
        value_block_slots: 20_480,
        outcome_block_slots: 8192,
        level: 3,
        weaker_searched: true,
    };
    for &key in &keys {
        if !is_searched(key) {
            store.open(key, Checks::default()).unwrap();
            pack_key(&rules, Metric::Plain, key, &store, &out, &options).unwrap();
        }
    }
    let values: PackedSet<Value> = PackedSet::new(&out, rules, Metric::Plain);
    let outcomes: PackedSet<Outcome> = PackedSet::new(&out, rules, Metric::Plain);
    let (mut checked, mut deep) = (0u64, 0);
    for &key in keys.iter().filter(|&&k| chains(k)) {
        assert!(outcomes.searched(key).unwrap() && values.searched(key).unwrap());
        let (index, table) = store.load(key, Checks::default(), false).unwrap();
        checked += (0..index.size())
            .into_par_iter()
            .filter(|&slot| !index.is_hole(slot))
            .map(|slot| {
                let (us, them) = index.unindex(slot);
                let pos =
                    Position::from_sides(us, them, [key.us_hand, key.them_hand], Color::White);
                let expected = table.outcome(slot);
                let (outcome, value) = (outcomes.get(&pos).unwrap(), values.get(&pos).unwrap());
                assert_eq!(outcome, expected, "{key} slot {slot}");
                assert_eq!(value, expected.value(), "{key} slot {slot}");
                // The full minimax, slower, on a sample.
                if slot % FULL_EVERY == 0 {
                    assert_eq!(full(&outcomes, &rules, &pos), outcome, "{key} slot {slot}");
                    assert_eq!(full(&values, &rules, &pos), value, "{key} slot {slot}");
                }
                1
            })
            .sum::<u64>();
        deep += 1;
    }
    // The keys of chained captures are there, several plies deep (hands of up to 4 and 3).
    assert!(
        deep >= 6 && checked > 100_000,
        "{deep} keys, {checked} positions"
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&out);
}
