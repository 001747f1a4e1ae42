//! An exact alpha-beta search over the placement phase, for when the placement databases are
//! not built: positions without stones in hand are read from the moving-phase databases, so
//! the search proves the value (win, draw or loss, not the distance) of any placement position.
//!
//! Gasser proved the draw of Nine Men's Morris this way. Values are -1, 0, 1 for the side to
//! move; a transposition table keyed by the symmetric slot keeps bounds, and moves are ordered
//! mills first, then points with more neighbours, which decides the size of the proof tree.

use crate::{key_of, lost_already};
use morris_db::format::DbError;
use morris_db::Value;
use morris_db::{Index, Key};
use morris_engine::{legal_moves, Position, Rules};
use std::collections::HashMap;

/// The leaves' values (positions without stones in hand), from wherever they are read.
type Leaf<'a> = dyn FnMut(&Position) -> Result<Value, DbError> + 'a;

pub struct Search<'a> {
    rules: Rules,
    leaf: Box<Leaf<'a>>,
    indexes: HashMap<Key, Index>,
    /// Lower and upper bound of each searched class.
    table: HashMap<(Key, u64), (i8, i8)>,
    /// Positions searched (for the report).
    pub nodes: u64,
}

impl<'a> Search<'a> {
    /// A search whose leaves are valued by `leaf`: a read error ends the search with it.
    pub fn new(
        rules: &Rules,
        leaf: impl FnMut(&Position) -> Result<Value, DbError> + 'a,
    ) -> Search<'a> {
        Search {
            rules: *rules,
            leaf: Box::new(leaf),
            indexes: HashMap::new(),
            table: HashMap::new(),
            nodes: 0,
        }
    }

    /// The value of a position for its side to move.
    pub fn value(&mut self, pos: &Position) -> Result<Value, DbError> {
        Ok(match self.negamax(pos, -1, 1)? {
            1 => Value::Win,
            0 => Value::Draw,
            _ => Value::Loss,
        })
    }

    fn negamax(&mut self, pos: &Position, mut alpha: i8, mut beta: i8) -> Result<i8, DbError> {
        self.nodes += 1;
        if lost_already(pos, &self.rules) {
            return Ok(-1);
        }
        if pos.our_hand() == 0 && pos.their_hand() == 0 {
            return Ok(match (self.leaf)(pos)? {
                Value::Win => 1,
                Value::Draw => 0,
                Value::Loss => -1,
            });
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
            return Ok(lo);
        }
        if hi <= alpha {
            return Ok(hi);
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
            return Ok(v);
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
            let v = -self.negamax(&pos.play(m), -beta, -alpha)?;
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
        Ok(best)
    }
}
