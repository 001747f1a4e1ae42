//! Answers for one position: its value and distance, and every legal move ranked.

use crate::value::Outcome;
use crate::Lookup;
use morris_engine::{for_each_move, Move, Position, Rules};

/// A legal move and where it leads, for the player making it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RankedMove {
    pub mv: Move,
    /// The mover's outcome after this move.
    pub outcome: Outcome,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The outcome for the side to move.
    pub outcome: Outcome,
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
    let limit = |o: Outcome| turns_left.map_or(o, |left| o.within(left));
    let mut moves = Vec::new();
    for_each_move(pos, rules, |mv| {
        let next = pos.play(mv);
        moves.push(RankedMove {
            mv,
            outcome: limit(lookup.outcome(&next).after_move()),
        });
    });
    moves.sort_by_key(|m| m.outcome);
    Answer {
        outcome: limit(lookup.outcome(pos)),
        moves,
    }
}
