//! Perft: the number of move sequences of a given length, the standard check of a move
//! generator against an independent one.

use crate::movegen::{count_moves, for_each_move};
use crate::position::Position;
use crate::rules::Rules;

/// Leaf count at `depth` plies; a finished game is a leaf that does not extend. Depth 1 is
/// counted in bulk.
pub fn perft(pos: &Position, rules: &Rules, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_moves(pos, rules) as u64,
        _ => {
            let mut n = 0;
            for_each_move(pos, rules, |m| n += perft(&pos.play(m), rules, depth - 1));
            n
        }
    }
}
