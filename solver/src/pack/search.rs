//! The keys a set may leave out, and the one-ply search that answers their positions.
//!
//! Leaving out the side with fewer stones halves a pair of moving-phase keys and every other
//! ply of the placement phase, and its positions are cheap to search: the mover's every move
//! leads into a key where the side to move (the other side, with more stones) is the pattern
//! side of the index, whose stones the move did not touch, so the children of one position
//! lie in one pattern class (a few neighbouring blocks). A capture that leaves the capturer
//! still behind leads into another left-out key, searched the same way; each such step takes
//! a stone off, so the search ends.

use morris_db::{Key, Outcome};
use morris_engine::{for_each_move, Move, Position, Rules};

use super::symbol::Symbol;
use crate::minimax::evaluate;

/// True when a set that leaves out the weaker side has no table for `key`: its side to move
/// has fewer stones on the board than the other.
pub const fn is_searched(key: Key) -> bool {
    key.us < key.them
}

/// The symbol of `pos` by the minimax rule over its children, each valued by `child`.
pub fn search<T: Symbol, E>(
    pos: &Position,
    rules: &Rules,
    mut child: impl FnMut(&Position) -> Result<T, E>,
) -> Result<T, E> {
    let mut moves: Vec<Move> = Vec::new();
    for_each_move(pos, rules, |mv| moves.push(mv));
    let mut children: Vec<Outcome> = Vec::with_capacity(moves.len());
    for mv in moves {
        children.push(child(&pos.play(mv))?.outcome());
    }
    Ok(T::of(evaluate(rules, pos, &children)))
}
