//! The placement phase: sub-databases with stones in hand.
//!
//! Every move of the placement phase takes a stone from a hand, so the keys form an acyclic
//! graph above the moving phase: a key's children all have one stone fewer in hand. Each key
//! is solved in one forward pass, children first, by the minimax rule; no counters and no
//! levels are needed. Which keys exist and what they read is the plan's business
//! ([`morris_db::plan::placement_keys`]).

use crate::batch::{evaluate_range, Targets};
use crate::progress::Progress;
use crate::Lookup;
use morris_db::{Index, Key};
use morris_engine::Rules;
use rayon::prelude::*;

/// Solves one placement key from its (solved) children; returns a code per slot
/// ([`morris_db::Outcome::code`]; holes are draws). Children are read in batches
/// ([`evaluate_range`]).
pub fn solve_key(
    rules: &Rules,
    key: Key,
    children: &dyn Lookup,
    progress: &dyn Progress,
) -> Vec<u16> {
    const CHUNK: u64 = 1 << 16;
    let index = Index::new(rules.board(), key);
    let n = index.size();
    progress.start("placement", n);
    let targets = Targets::new(rules, key, children);
    let chunks: Vec<Vec<u16>> = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let range = c * CHUNK..((c + 1) * CHUNK).min(n);
            let mut out = vec![0u16; (range.end - range.start) as usize];
            evaluate_range(
                rules,
                &index,
                range.clone(),
                children,
                &targets,
                |i, _, outcome| out[(i - range.start) as usize] = outcome.code(),
            );
            progress.advance(range.end - range.start);
            out
        })
        .collect();
    chunks.concat()
}
