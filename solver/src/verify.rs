//! Verification by forward recomputation: every stored distance must equal the minimax rule
//! applied to the stored distances of the position's children.
//!
//! It shares nothing with the retrograde propagation: moves go forward through the engine's
//! generator and values through [`crate::value::from_children`]. It reads children in batches
//! as the placement pass does, but each through the full index, not the placement pass's
//! fixed-side shortcuts, so that those are checked too. A consistent labelling with
//! exact distances is the game's solution (wins and losses are well founded on the "no move"
//! losses, so no other labelling passes), hence a clean run proves the databases right.

use crate::batch::{evaluate_range, Targets};
use crate::progress::Progress;
use crate::Lookup;
use morris_db::{Index, Key};
use morris_engine::{Bitboard, Rules};
use rayon::prelude::*;
use std::sync::Mutex;

/// A stored value that its children contradict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub key: Key,
    pub slot: u64,
    pub us: Bitboard,
    pub them: Bitboard,
    pub stored: Option<u32>,
    pub recomputed: Option<u32>,
}

/// The outcome of verifying one key: how many classes were checked, the mismatches found (the
/// first `limit` kept) and their total.
pub struct Report {
    pub checked: u64,
    pub mismatches: Vec<Mismatch>,
    pub mismatch_count: u64,
}

const CHUNK: u64 = 1 << 16;

/// Checks every class of a key against its children, all read through `lookup`.
pub fn verify_key(
    rules: &Rules,
    key: Key,
    lookup: &dyn Lookup,
    limit: usize,
    progress: &dyn Progress,
) -> Report {
    let index = Index::new(rules.board(), key);
    let n = index.size();
    let found = Mutex::new(Vec::new());
    progress.start("verify", n);
    let (checked, bad) = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let range = c * CHUNK..((c + 1) * CHUNK).min(n);
            let (mut checked, mut bad) = (0u64, 0u64);
            let full_index = Targets::default();
            evaluate_range(
                rules,
                &index,
                range.clone(),
                lookup,
                &full_index,
                |i, pos, recomputed| {
                    checked += 1;
                    let stored = lookup.plies(pos);
                    if stored != recomputed {
                        bad += 1;
                        let mut f = found.lock().expect("no panics while held");
                        if f.len() < limit {
                            f.push(Mismatch {
                                key,
                                slot: i,
                                us: pos.us(),
                                them: pos.them(),
                                stored,
                                recomputed,
                            });
                        }
                    }
                },
            );
            progress.advance(range.end - range.start);
            (checked, bad)
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    let mut mismatches = found.into_inner().expect("no panics while held");
    mismatches.sort_by_key(|m| m.slot);
    Report {
        checked,
        mismatches,
        mismatch_count: bad,
    }
}
