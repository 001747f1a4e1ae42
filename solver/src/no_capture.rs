//! The no-capture rule's reading of the tables, as a [`Lookup`] wrapped around any other, so
//! that the solver's passes and verification take the rule without knowing it.
//!
//! A move that zeroes the counter (a capture or a placement, which leave the key and its colour
//! swap) starts the count again, so its child is read with its value under the rule at counter
//! 0 (a win or loss only when its distance to zeroing fits in the limit, else a draw), at
//! distance 0; a move inside the pair keeps the child's distance to zeroing.

use morris_db::format::Encoding;
use morris_db::{Index, Key, Outcome};
use morris_engine::Position;
use morris_tablebase::entries::{after_table, AfterTable};
use morris_tablebase::{key_slot, Entries, Located, Lookup};

/// A lookup whose children reached by a zeroing ply read at counter 0 under the rule's limit.
pub struct ZeroingView<'a> {
    inner: &'a dyn Lookup,
    /// Key slots whose values are read as they are: the pair being solved or checked.
    pair: [usize; 2],
    /// The rule's limit N.
    limit: u32,
    /// By encoding (the distance byte, the zeroing byte, two bits): how a child reached by a
    /// zeroing ply is read from its entries, so that the passes read it directly as they do
    /// in the plain game.
    after: Box<[AfterTable; 3]>,
}

impl<'a> ZeroingView<'a> {
    /// Every child read at counter 0 under the limit `limit` except those in `pair` (a key
    /// and its colour swap; none for a placement key, whose every move zeroes). The entries
    /// `inner` lends must be as stored ([`Entries::stored`]).
    pub fn new(inner: &'a dyn Lookup, pair: &[Key], limit: u16) -> ZeroingView<'a> {
        let mut slots = [usize::MAX; 2];
        for (s, &k) in slots.iter_mut().zip(pair) {
            *s = key_slot(k);
        }
        let limit = limit as u32;
        let after = Box::new(ENCODINGS.map(|e| after_table(e, Some(limit))));
        ZeroingView {
            inner,
            pair: slots,
            limit,
            after,
        }
    }
}

const ENCODINGS: [Encoding; 3] = [
    Encoding::DistanceByte,
    Encoding::ZeroingByte,
    Encoding::Wdl2,
];

impl Lookup for ZeroingView<'_> {
    #[inline]
    fn probe(&self, pos: &Position) -> Located {
        self.inner.probe(pos)
    }

    #[inline]
    fn read(&self, probe: Located) -> Outcome {
        let outcome = self.inner.read(probe);
        match probe.located() {
            Ok((key, _)) if self.pair.contains(&key) => outcome,
            _ => outcome.within(self.limit).at_zero(),
        }
    }

    fn index_of(&self, key: Key) -> Option<&Index> {
        self.inner.index_of(key)
    }

    fn entries_of(&self, key: Key) -> Option<Entries<'_>> {
        let stored = self.inner.entries_of(key)?;
        if self.pair.contains(&key_slot(key)) {
            return Some(stored);
        }
        let at = ENCODINGS.iter().position(|&e| e == stored.encoding)?;
        Some(Entries {
            after: &self.after[at],
            ..stored
        })
    }

    #[inline]
    fn probe_slot(&self, key: Key, slot: u64) -> Located {
        self.inner.probe_slot(key, slot)
    }
}
