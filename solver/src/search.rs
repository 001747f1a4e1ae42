//! An exact alpha-beta search over the placement phase, for when the placement databases are
//! not built: positions without stones in hand are read from the moving-phase databases, so
//! the search proves the value (win, draw or loss, not the distance) of any placement position.
//!
//! Gasser proved the draw of Nine Men's Morris this way. Values are -1, 0, 1 for the side to
//! move; a transposition table keyed by the symmetric slot keeps bounds, and moves are ordered
//! mills first, then points with more neighbours, which decides the size of the proof tree.

use crate::{key_of, lost_already, Lookup};
use morris_db::Value;
use morris_db::{Index, Key};
use morris_engine::{legal_moves, Position, Rules};
use std::collections::HashMap;

pub struct Search<'a> {
    rules: Rules,
    lookup: &'a dyn Lookup,
    indexes: HashMap<Key, Index>,
    /// Lower and upper bound of each searched class.
    table: HashMap<(Key, u64), (i8, i8)>,
    /// Positions searched (for the report).
    pub nodes: u64,
}

impl<'a> Search<'a> {
    pub fn new(rules: &Rules, lookup: &'a dyn Lookup) -> Search<'a> {
        Search {
            rules: *rules,
            lookup,
            indexes: HashMap::new(),
            table: HashMap::new(),
            nodes: 0,
        }
    }

    /// The value of a position for its side to move.
    pub fn value(&mut self, pos: &Position) -> Value {
        match self.negamax(pos, -1, 1) {
            1 => Value::Win,
            0 => Value::Draw,
            _ => Value::Loss,
        }
    }

    fn negamax(&mut self, pos: &Position, mut alpha: i8, mut beta: i8) -> i8 {
        self.nodes += 1;
        if lost_already(pos, &self.rules) {
            return -1;
        }
        if pos.our_hand() == 0 && pos.their_hand() == 0 {
            return match self.lookup.outcome(pos).value() {
                Value::Win => 1,
                Value::Draw => 0,
                Value::Loss => -1,
            };
        }
        let key = key_of(pos);
        let board = self.rules.board();
        let slot = self
            .indexes
            .entry(key)
            .or_insert_with(|| Index::new(board, key))
            .index(pos.us(), pos.them());
        let (lo, hi) = self.table.get(&(key, slot)).copied().unwrap_or((-1, 1));
        if lo >= beta || lo == hi {
            return lo;
        }
        if hi <= alpha {
            return hi;
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);
        let (alpha0, beta0) = (alpha, beta);
        let mut moves = legal_moves(pos, &self.rules);
        if moves.is_empty() {
            let v = if self.rules.blocked_is_draw() && pos.decided(&self.rules).is_none() {
                0
            } else {
                -1
            };
            self.table.insert((key, slot), (v, v));
            return v;
        }
        // Mills first, then points with more neighbours.
        moves.sort_by_key(|m| {
            (
                m.capture().is_none(),
                std::cmp::Reverse(board.adjacent(m.to()).count()),
            )
        });
        let mut best = -2;
        for m in moves {
            let v = -self.negamax(&pos.play(m), -beta, -alpha);
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let bounds = if best <= alpha0 {
            (lo, best.min(hi)) // fail low: an upper bound
        } else if best >= beta0 {
            (best.max(lo), hi) // fail high: a lower bound
        } else {
            (best, best)
        };
        self.table.insert((key, slot), bounds);
        best
    }
}
