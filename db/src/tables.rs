//! The per-board tables, built once per process and shared by every index of the board.
//!
//! An [`crate::Index`] is created for every sub-database the solver touches (and several per
//! pair), so it must be cheap: it only borrows these tables. They live for the whole process
//! (a handful of boards, a few MiB each), which lets indexes be `Copy` and `'static`.

use std::sync::{Mutex, OnceLock};

use morris_engine::Board;

use crate::colex::binom;
use crate::pattern_cache;
use crate::patterns::PatternClasses;
use crate::symmetry::Symmetries;

pub struct BoardTables {
    pub board: &'static Board,
    pub syms: Symmetries,
    /// Indexed by the number of stones of the pattern; built on first use.
    patterns: Vec<OnceLock<PatternClasses>>,
}

impl BoardTables {
    /// The pattern classes for `stones` stones, built on first use (a fraction of a second for
    /// the largest Nine Men's Morris pattern sizes).
    pub fn patterns(&self, stones: u32) -> &PatternClasses {
        self.patterns[stones as usize].get_or_init(|| self.build_or_load(stones))
    }

    /// The larger tables from the cache file when it is there and sound, else built (and
    /// saved for the next process, best effort).
    fn build_or_load(&self, stones: u32) -> PatternClasses {
        let patterns = binom(self.board.len() as u32, stones);
        let file = pattern_cache::dir()
            .filter(|_| pattern_cache::WORTH_CACHING.contains(&patterns))
            .map(|d| pattern_cache::path(&d, self.board.name(), stones));
        if let Some(p) = file
            .as_ref()
            .and_then(|f| pattern_cache::load(f, stones, patterns))
        {
            return p;
        }
        let built = PatternClasses::build(self.board, &self.syms, stones);
        if let Some(f) = &file {
            let _ = pattern_cache::save(&built, f);
        }
        built
    }
}

/// Boards are told apart by address: every board is a `static`.
static REGISTRY: Mutex<Vec<(usize, &'static BoardTables)>> = Mutex::new(Vec::new());

/// The shared tables of a board.
pub fn for_board(board: &'static Board) -> &'static BoardTables {
    let addr = board as *const Board as usize;
    let mut registry = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&(_, t)) = registry.iter().find(|(a, _)| *a == addr) {
        return t;
    }
    let tables: &'static BoardTables = Box::leak(Box::new(BoardTables {
        board,
        syms: Symmetries::new(board),
        patterns: (0..=board.len()).map(|_| OnceLock::new()).collect(),
    }));
    registry.push((addr, tables));
    tables
}
