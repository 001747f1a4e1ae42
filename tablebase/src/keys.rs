//! Which sub-database a position belongs to, and where a key sits in a flat table of keys.

use morris_db::plan::children;
use morris_db::Key;
use morris_engine::{Position, Rules};

/// The sub-database a position belongs to, seen from its side to move.
#[inline]
pub fn key_of(pos: &Position) -> Key {
    Key::new(
        pos.us().count() as u8,
        pos.them().count() as u8,
        pos.our_hand(),
        pos.their_hand(),
    )
}

/// True when the side to move has lost already (too few stones on board and in hand).
#[inline]
pub fn lost_already(pos: &Position, rules: &Rules) -> bool {
    pos.us().count() + (pos.our_hand() as u32) < rules.min_stones()
}

/// Where a key sits in the flat tables of [`solution::Solution`] and [`store::Store`]: a flat
/// table rather than a map, as lookups happen in the solver's innermost loops.
#[inline]
pub fn key_slot(key: Key) -> usize {
    const N: usize = KEY_FIELD;
    let f = |v: u8| {
        assert!(
            (v as usize) < N,
            "stone counts above {} are not supported",
            N - 1
        );
        v as usize
    };
    ((f(key.us) * N + f(key.them)) * N + f(key.us_hand)) * N + f(key.them_hand)
}

/// Values each field of a key may take (0 ..= 12 stones: every game of the family).
pub const KEY_FIELD: usize = 13;
/// Entries of a flat key table.
pub const KEY_SLOTS: usize = KEY_FIELD * KEY_FIELD * KEY_FIELD * KEY_FIELD;

/// The keys whose values a position of `key` and its moves read: the key itself, and where
/// its moves lead.
pub fn reads(rules: &Rules, key: Key) -> Vec<Key> {
    let mut v = vec![key];
    v.extend(children(rules, key).into_iter().map(|e| e.to));
    // A side below the minimum of stones has lost: no key to read.
    v.retain(|k| (k.them + k.them_hand) as u32 >= rules.min_stones());
    v.dedup();
    v
}
