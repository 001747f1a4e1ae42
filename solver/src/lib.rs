//! The parallel retrograde solver of `morris`: the moving phase by retrograde analysis with
//! successor counting, verification by forward recomputation, statistics and probing.

mod cells;
pub mod memory;
pub mod placement;
pub mod progress;
pub mod query;
pub mod retro;
pub mod search;
pub mod solve;
pub mod stats;
pub mod store;
pub mod unmove;
pub mod value;
pub mod verify;

use morris_db::Key;
use morris_engine::Position;

/// A source of solved moving-phase values: the smaller sub-databases a capture leads into
/// while a pair is solved, or every sub-database for verify and query.
pub trait Lookup: Sync {
    /// The distance in plies of a position to the end of the game, or `None` for a draw.
    /// Positions where the side to move is below the minimum of stones are lost in 0.
    fn plies(&self, pos: &Position) -> Option<u32>;
}

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
pub fn lost_already(pos: &Position, rules: &morris_engine::Rules) -> bool {
    pos.us().count() + (pos.our_hand() as u32) < rules.min_stones()
}

/// Where a key sits in the flat tables of [`memory::Solution`] and [`store::Store`]: a flat
/// table rather than a map, as lookups happen in the solver's innermost loops.
#[inline]
pub(crate) fn key_slot(key: Key) -> usize {
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
pub(crate) const KEY_FIELD: usize = 13;
/// Entries of a flat key table.
pub(crate) const KEY_SLOTS: usize = KEY_FIELD * KEY_FIELD * KEY_FIELD * KEY_FIELD;
