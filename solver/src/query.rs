//! Answers for one position: its value and distance, and every legal move ranked.

use crate::value::{after_move, preference, within};
use crate::Lookup;
use morris_engine::{for_each_move, Move, Position, Rules};

/// A legal move and where it leads, for the player making it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RankedMove {
    pub mv: Move,
    /// Distance to the end for the mover after this move (`None`: draw).
    pub plies: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Distance to the end for the side to move (`None`: draw).
    pub plies: Option<u32>,
    /// Every legal move, best first: fastest win, then draws, then slowest loss.
    pub moves: Vec<RankedMove>,
}

/// Ranks the moves of a position from solved values; with `turns_left`, as if the game ended
/// drawn after that many more plies.
pub fn answer(
    rules: &Rules,
    pos: &Position,
    lookup: &dyn Lookup,
    turns_left: Option<u32>,
) -> Answer {
    let limit = |p: Option<u32>, left: u32| turns_left.map_or(p, |_| within(p, left));
    let left = turns_left.unwrap_or(u32::MAX);
    let mut moves = Vec::new();
    for_each_move(pos, rules, |mv| {
        let next = pos.play(mv);
        moves.push(RankedMove {
            mv,
            plies: limit(after_move(lookup.plies(&next)), left),
        });
    });
    moves.sort_by_key(|m| preference(m.plies));
    Answer {
        plies: limit(lookup.plies(pos), left),
        moves,
    }
}
