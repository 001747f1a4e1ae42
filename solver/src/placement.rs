//! The placement phase: sub-databases with stones in hand.
//!
//! Every move of the placement phase takes a stone from a hand, so the keys form an acyclic
//! graph above the moving phase: a key's children all have one stone fewer in hand. Each key
//! is solved in one forward pass, children first, by the minimax rule; no counters and no
//! levels are needed. Which keys exist and what they read is the plan's business
//! ([`morris_db::plan::placement_keys`]).

use crate::progress::Progress;
use crate::value::evaluate;
use crate::{Lookup, Probe};
use morris_db::{Fixed, Index, Key};
use morris_engine::{for_each_move, Color, Point, Position, Rules};
use rayon::prelude::*;

/// Solves one placement key from its (solved) children; returns a code per slot (0 = draw or
/// hole, else plies + 1).
///
/// The pass is bound by memory latency: every child is a load at a random place of a
/// sub-database of up to a GiB. Positions are therefore taken in batches: every child of the
/// batch is probed (located, its load started) before any is read, so that the loads overlap.
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
    let targets = Targets::new(key, children);
    let chunks: Vec<Vec<u16>> = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let range = c * CHUNK..((c + 1) * CHUNK).min(n);
            let mut out = vec![0u16; (range.end - range.start) as usize];
            let mut batch = Batch::default();
            let mut flush = |batch: &mut Batch| {
                batch.evaluate(rules, children, |i, p| {
                    out[(i - range.start) as usize] = p as u16 + 1;
                })
            };
            index.for_each_in(range.clone(), |i, us, them| {
                if index.is_hole(i) {
                    return;
                }
                let pos =
                    Position::from_sides(us, them, [key.us_hand, key.them_hand], Color::White);
                batch.push(i, pos, rules, children, &targets);
                if batch.positions.len() == Batch::POSITIONS {
                    flush(&mut batch);
                }
            });
            flush(&mut batch);
            progress.advance(range.end - range.start);
            out
        })
        .collect();
    chunks.concat()
}

/// The keys a placement key's moves lead into, with their indexes where the children have them.
///
/// Most children are found by an index with one side fixed, several times cheaper than a full
/// one: without capture the side that did not move is to move in every child of a position;
/// with a capture the mover's stones are the same whichever stone it takes.
struct Targets<'a> {
    quiet: Option<(Key, &'a Index)>,
    capture: Option<(Key, &'a Index)>,
}

impl<'a> Targets<'a> {
    fn new(key: Key, children: &'a dyn Lookup) -> Targets<'a> {
        let with_index = |k: Option<Key>| k.and_then(|k| Some((k, children.index_of(k)?)));
        let hand = key.us_hand.checked_sub(1);
        Targets {
            quiet: with_index(hand.map(|h| Key::new(key.them, key.us + 1, key.them_hand, h))),
            capture: with_index(hand.and_then(|h| {
                Some(Key::new(
                    key.them.checked_sub(1)?,
                    key.us + 1,
                    key.them_hand,
                    h,
                ))
            })),
        }
    }
}

/// Positions whose children have been probed but not yet read.
#[derive(Default)]
struct Batch {
    /// Per position: its slot, the position, and where its probes end.
    positions: Vec<(u64, Position, usize)>,
    probes: Vec<Probe>,
    values: Vec<Option<u32>>,
}

impl Batch {
    /// Enough positions for a few hundred loads in flight, few enough that the first probed
    /// lines are still in the cache when read.
    const POSITIONS: usize = 16;

    fn push(
        &mut self,
        slot: u64,
        pos: Position,
        rules: &Rules,
        children: &dyn Lookup,
        targets: &Targets,
    ) {
        let quiet = targets
            .quiet
            .map(|(k, index)| (k, index.with_us(pos.them())));
        // Captures come grouped by the point placed on.
        let mut capturing: Option<(Point, Fixed)> = None;
        for_each_move(&pos, rules, |m| {
            let child = pos.play(m);
            let probe = match (m.from(), m.capture(), &quiet, targets.capture) {
                (None, None, Some((k, fixed)), _) => {
                    children.probe_slot(*k, fixed.index(child.them()))
                }
                (None, Some(_), _, Some((k, index))) => {
                    if capturing.as_ref().is_some_and(|(to, _)| *to != m.to()) {
                        capturing = None;
                    }
                    let (_, fixed) =
                        capturing.get_or_insert_with(|| (m.to(), index.with_them(child.them())));
                    children.probe_slot(k, fixed.index(child.us()))
                }
                _ => children.probe(&child),
            };
            self.probes.push(probe);
        });
        self.positions.push((slot, pos, self.probes.len()));
    }

    /// Reads the probes and calls `decided(slot, plies)` for every position not drawn; empties
    /// the batch.
    fn evaluate(
        &mut self,
        rules: &Rules,
        children: &dyn Lookup,
        mut decided: impl FnMut(u64, u32),
    ) {
        let mut begin = 0;
        for &(slot, pos, end) in &self.positions {
            self.values.clear();
            self.values
                .extend(self.probes[begin..end].iter().map(|&p| children.read(p)));
            if let Some(p) = evaluate(rules, &pos, &self.values) {
                decided(slot, p);
            }
            begin = end;
        }
        self.positions.clear();
        self.probes.clear();
    }
}
