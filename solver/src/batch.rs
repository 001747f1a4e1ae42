//! Forward evaluation in batches: the values of many positions from their children's stored
//! values, for the placement pass and for verification.
//!
//! Both are bound by memory latency: every child is a load at a random place of a
//! sub-database of up to a GiB. Positions are therefore taken in batches: every child of the
//! batch is probed (located, its load started) before any is read, so that the loads overlap.

use crate::value::evaluate;
use crate::{Lookup, Probe};
use morris_db::{Fixed, Index, Key};
use morris_engine::{for_each_move, Point, Position, Rules};

/// The keys a placement key's moves lead into, with their indexes where the children have them.
///
/// Most children are found by an index with one side fixed, several times cheaper than a full
/// one: without capture the side that did not move is to move in every child of a position;
/// with a capture the mover's stones are the same whichever stone it takes.
pub(crate) struct Targets<'a> {
    quiet: Option<(Key, &'a Index)>,
    capture: Option<(Key, &'a Index)>,
}

impl<'a> Targets<'a> {
    pub(crate) fn new(key: Key, children: &'a dyn Lookup) -> Targets<'a> {
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
pub(crate) struct Batch {
    /// Per position: its slot, the position, and where its probes end.
    positions: Vec<(u64, Position, usize)>,
    probes: Vec<Probe>,
    values: Vec<Option<u32>>,
}

impl Batch {
    /// Enough positions for a few hundred loads in flight, few enough that the first probed
    /// lines are still in the cache when read.
    const POSITIONS: usize = 16;

    pub(crate) fn is_full(&self) -> bool {
        self.positions.len() == Self::POSITIONS
    }

    /// Probes the children of a position. With `targets` (a placement key's), children are
    /// indexed with one side fixed; without, each by the full index, as verification wants
    /// (it must not share the shortcuts of the pass it checks).
    pub(crate) fn push(
        &mut self,
        slot: u64,
        pos: Position,
        rules: &Rules,
        children: &dyn Lookup,
        targets: Option<&Targets>,
    ) {
        let none = Targets {
            quiet: None,
            capture: None,
        };
        let targets = targets.unwrap_or(&none);
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

    /// Reads the probes and calls `f(slot, position, plies)` for every position, by the
    /// minimax rule (`None` for a draw); empties the batch.
    pub(crate) fn evaluate(
        &mut self,
        rules: &Rules,
        children: &dyn Lookup,
        mut f: impl FnMut(u64, &Position, Option<u32>),
    ) {
        let mut begin = 0;
        for &(slot, pos, end) in &self.positions {
            self.values.clear();
            self.values
                .extend(self.probes[begin..end].iter().map(|&p| children.read(p)));
            f(slot, &pos, evaluate(rules, &pos, &self.values));
            begin = end;
        }
        self.positions.clear();
        self.probes.clear();
    }
}
