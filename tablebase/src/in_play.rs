//! A game as it is played under a rule set: the position, the plies since the last capture
//! or placement, the plies played, and the positions seen, so that every front end ends a
//! game for the same reasons (the board, threefold repetition, the no-capture rule, a turn
//! limit).

use crate::tablebase::Tablebase;
use morris_engine::{GameEnd, Move, Position, RuleSet, Rules};
use std::collections::HashMap;

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// On the board: a win, or a draw where the game says so.
    Board(GameEnd),
    /// The same position with the same side to move a third time: a draw.
    Repetition,
    /// N plies without a capture or placement under the no-capture rule: a draw.
    NoCapture(u16),
    /// The turn limit is reached: a draw.
    TurnLimit(u32),
}

impl End {
    /// The winner, or `None` for a draw.
    pub fn winner(self) -> Option<morris_engine::Color> {
        match self {
            End::Board(GameEnd::Win { winner, .. }) => Some(winner),
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
pub struct GameInPlay {
    rules: Rules,
    no_capture: Option<u16>,
    turn_limit: Option<u32>,
    pos: Position,
    counter: u32,
    played: u32,
    seen: HashMap<Position, u32>,
}

impl GameInPlay {
    /// A game under `set` from `start`, `counter` plies after the last capture or placement.
    pub fn new(set: &RuleSet, start: Position, counter: u32) -> GameInPlay {
        GameInPlay::with_limits(
            set.rules(),
            set.moves_without_capture(),
            set.turn_limit(),
            start,
            counter,
        )
    }

    /// A game under the rules a tablebase answers (its no-capture rule, no turn limit).
    pub fn of_tablebase(tb: &Tablebase, start: Position, counter: u32) -> GameInPlay {
        GameInPlay::with_limits(*tb.rules(), tb.no_capture_limit(), None, start, counter)
    }

    fn with_limits(
        rules: Rules,
        no_capture: Option<u16>,
        turn_limit: Option<u32>,
        start: Position,
        counter: u32,
    ) -> GameInPlay {
        let mut seen = HashMap::new();
        seen.insert(start, 1);
        GameInPlay {
            rules,
            no_capture,
            turn_limit,
            pos: start,
            counter,
            played: 0,
            seen,
        }
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Plies since the last capture or placement.
    pub fn counter(&self) -> u32 {
        self.counter
    }

    pub fn played(&self) -> u32 {
        self.played
    }

    /// Plies left before the turn limit draws the game.
    pub fn turns_left(&self) -> Option<u32> {
        self.turn_limit.map(|n| n.saturating_sub(self.played))
    }

    /// How often the game has been in `pos` (with the same side to move).
    pub fn seen(&self, pos: &Position) -> u32 {
        self.seen.get(pos).copied().unwrap_or(0)
    }

    /// Why the game is over, if it is.
    pub fn end(&self) -> Option<End> {
        if let Some(o) = self.pos.outcome(&self.rules) {
            return Some(End::Board(o));
        }
        if self.seen.get(&self.pos).is_some_and(|&n| n >= 3) {
            return Some(End::Repetition);
        }
        if let Some(n) = self.turn_limit {
            if self.played >= n {
                return Some(End::TurnLimit(n));
            }
        }
        match self.no_capture {
            Some(n) if self.counter >= u32::from(n) => Some(End::NoCapture(n)),
            _ => None,
        }
    }

    /// Plays `mv`, a legal move of the position.
    pub fn play(&mut self, mv: Move) {
        self.counter = if crate::answer::is_zeroing(mv) {
            0
        } else {
            self.counter + 1
        };
        self.played += 1;
        self.pos = self.pos.play(mv);
        *self.seen.entry(self.pos).or_insert(0) += 1;
    }
}
