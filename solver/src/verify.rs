//! Verification by forward recomputation: every stored outcome must equal the minimax rule
//! applied to the stored outcomes of the position's children.
//!
//! Under the no-capture rule the children reached by a zeroing ply count at distance 0
//! ([`ZeroingView`]), so a stored distance is checked as a distance to zeroing; a placement
//! key, stored as values alone, is checked on values.
//!
//! It shares nothing with the retrograde propagation: moves go forward through the engine's
//! generator and values through the minimax rule ([`Outcome::order`]). It reads children in batches
//! through the placement pass's locator, but not through that pass's shortcuts (the child keys the
//! key graph names, and the mills' best captures kept by the mover's stones): each kind of move's
//! child key is taken from a child of that kind, built by the engine's `play`, and every capture is
//! read, so that those shortcuts are checked too. The side fixed in a child's index is its own
//! key's pattern side; the fixed-side index is checked against the full one on every position of
//! the small keys and on random positions of the large ones (`db/tests/index_exhaustive.rs`,
//! `index_random.rs`). A consistent labelling with exact distances is the game's solution (wins and
//! losses are well founded on the "no move" losses, so no other labelling passes), hence a clean
//! run proves the databases right.

use crate::forward::evaluate_range;
use crate::forward::locate::Targets;
use crate::no_capture::ZeroingView;
use crate::progress::Progress;
use morris_db::plan::UnitKind;
use morris_db::{Index, Key, Metric, Outcome};
use morris_engine::{Bitboard, Position, Rules};
use morris_tablebase::Lookup;
use rayon::prelude::*;
use std::sync::Mutex;

/// A stored value that its children contradict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub key: Key,
    pub slot: u64,
    pub us: Bitboard,
    pub them: Bitboard,
    pub stored: Outcome,
    pub recomputed: Outcome,
}

/// The outcome of verifying one key: how many classes were checked, the mismatches found (the
/// first `limit` kept) and their total.
pub struct Report {
    pub checked: u64,
    pub mismatches: Vec<Mismatch>,
    pub mismatch_count: u64,
}

const CHUNK: u64 = 1 << 16;

/// Checks every class of a key against its children, all read through `lookup` (tables of
/// `metric`).
pub fn verify_key(
    rules: &Rules,
    metric: Metric,
    key: Key,
    lookup: &dyn Lookup,
    limit: usize,
    progress: &dyn Progress,
) -> Report {
    let cyclic = UnitKind::of(rules, key).is_cyclic();
    let pair = [key, key.swapped()];
    let zeroing = ZeroingView::new(lookup, if cyclic { &pair } else { &[] }, metric.limit());
    let (children, values_only): (&dyn Lookup, bool) = match metric {
        Metric::Plain => (lookup, false),
        Metric::NoCapture(_) => (&zeroing, !cyclic),
    };
    let index = Index::new(rules.board(), key);
    let n = index.size();
    let found = Mutex::new(Vec::new());
    // The stored value of slot `i` is read at `i`, without indexing the position again, where
    // the lookup reads by slot; from the key's entries where it lends them (a load, where the
    // lookup's reads are two calls).
    let by_slot = lookup.index_of(key).is_some();
    let entries = lookup.entries_of(key);
    let stored = |i: u64, pos: &Position| match entries.and_then(|e| e.outcome(i)) {
        Some(outcome) => outcome,
        None if by_slot => lookup.read(lookup.probe_slot(key, i)),
        None => lookup.outcome(pos),
    };
    progress.start("verify", n);
    let (checked, bad) = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let range = c * CHUNK..((c + 1) * CHUNK).min(n);
            let (mut checked, mut bad) = (0u64, 0u64);
            let no_shortcuts = Targets::default();
            evaluate_range(
                rules,
                &index,
                range.clone(),
                children,
                &no_shortcuts,
                |i, pos, recomputed| {
                    checked += 1;
                    let stored = stored(i, pos);
                    let agree = if values_only {
                        stored.value() == recomputed.value()
                    } else {
                        stored == recomputed
                    };
                    if !agree {
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
