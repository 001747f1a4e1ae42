//! The placement phase: sub-databases with stones in hand.
//!
//! Every move of the placement phase takes a stone from a hand, so the keys form an acyclic
//! graph above the moving phase: a key's children all have one stone fewer in hand. Each key
//! is solved in one forward pass, children first, by the minimax rule; no counters and no
//! levels are needed. Which keys exist and what they read is the plan's business
//! ([`morris_db::plan::KeyGraph`]).
//!
//! A position's value depends only on its children, never on its neighbours in the key, so a
//! large key can also be solved range by range of its slots, on different machines, each range
//! into a part file ([`part`]) that the key's last step joins into the table.

pub mod part;

use crate::forward::evaluate_range;
use crate::forward::locate::Targets;
use crate::progress::Progress;
use core::ops::Range;
use morris_db::{Index, Key};
use morris_engine::Rules;
use morris_tablebase::Lookup;
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
    let index = Index::new(rules.board(), key);
    solve_slots(rules, &index, 0..index.size(), children, progress)
}

/// [`solve_key`] for the slots `slots` of the key of `index` only: their codes, in order.
pub fn solve_slots(
    rules: &Rules,
    index: &Index,
    slots: Range<u64>,
    children: &dyn Lookup,
    progress: &dyn Progress,
) -> Vec<u16> {
    const CHUNK: usize = 1 << 16;
    let key = index.key();
    progress.start("placement", slots.end - slots.start);
    let targets = Targets::new(rules, key, children);
    // Written in place, chunk by chunk: the codes of a large key are gigabytes, and a copy
    // of them would run on one core.
    let mut codes = vec![0u16; (slots.end - slots.start) as usize];
    codes
        .par_chunks_mut(CHUNK)
        .enumerate()
        .for_each(|(c, out)| {
            let start = slots.start + (c * CHUNK) as u64;
            let range = start..start + out.len() as u64;
            evaluate_range(rules, index, range, children, &targets, |i, _, outcome| {
                out[(i - start) as usize] = outcome.code()
            });
            progress.advance(out.len() as u64);
        });
    codes
}
