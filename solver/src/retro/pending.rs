//! The slots decided and not yet propagated, by level and side.
//!
//! A level's pass visits exactly the slots decided at that level. Finding them by scanning
//! every cell cost a full sweep of the working array per level (a pair has up to about 200
//! levels and GiBs of cells), which was about 40% of the time of a large pair; the lists cost
//! four bytes per decided slot while they wait.
//!
//! A slot is listed once per decision: a tentative capture win shortened by a quiet move into
//! a faster loss is listed again at its new level, and its first entry is recognised as stale
//! when its level comes (the cell no longer holds that level's code).

use rayon::slice::ParallelSliceMut;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// Decisions waiting for their level, shared by the threads of a pass.
#[derive(Default)]
pub(super) struct Pending {
    levels: Mutex<BTreeMap<u32, [Vec<u32>; 2]>>,
}

impl Pending {
    /// The lowest level with slots waiting, and those slots per side, each list sorted (so that
    /// the pass reads the cells in address order).
    pub(super) fn take_lowest(&self) -> Option<(u32, [Vec<u32>; 2])> {
        let (level, mut sides) = self
            .levels
            .lock()
            .expect("no panic under the lock")
            .pop_first()?;
        for slots in &mut sides {
            slots.par_sort_unstable();
        }
        Some((level, sides))
    }
}

/// One task's decisions, handed to [`Pending`] in bulk when the task ends (or its buffer
/// fills), so that the threads seldom meet at the lock.
pub(super) struct Decisions<'a> {
    pending: &'a Pending,
    /// `level << 33 | side << 32 | slot`: sorting groups the entries by level and side.
    buffer: Vec<u64>,
}

impl<'a> Decisions<'a> {
    const FLUSH: usize = 1 << 14;

    pub(super) fn new(pending: &'a Pending) -> Decisions<'a> {
        Decisions {
            pending,
            buffer: Vec::with_capacity(Self::FLUSH),
        }
    }

    /// Lists slot `slot` of side `side` for level `level`.
    #[inline]
    pub(super) fn push(&mut self, side: usize, slot: u64, level: u32) {
        debug_assert!(side < 2 && slot <= u32::MAX as u64);
        self.buffer
            .push((level as u64) << 33 | (side as u64) << 32 | slot);
        if self.buffer.len() == Self::FLUSH {
            self.flush();
        }
    }

    fn flush(&mut self) {
        if self.buffer.is_empty() {
            return;
        }
        self.buffer.sort_unstable();
        let mut levels = self.pending.levels.lock().expect("no panic under the lock");
        for run in self.buffer.chunk_by(|a, b| a >> 32 == b >> 32) {
            let (level, side) = ((run[0] >> 33) as u32, (run[0] >> 32 & 1) as usize);
            levels.entry(level).or_default()[side].extend(run.iter().map(|&e| e as u32));
        }
        drop(levels);
        self.buffer.clear();
    }
}

impl Drop for Decisions<'_> {
    fn drop(&mut self) {
        self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_come_lowest_first_with_their_slots_sorted_per_side() {
        let pending = Pending::default();
        {
            let mut a = Decisions::new(&pending);
            a.push(1, 7, 3);
            a.push(0, 9, 1);
            a.push(0, 2, 1);
            let mut b = Decisions::new(&pending);
            b.push(0, 5, 1);
            b.push(1, u32::MAX as u64, 3);
            b.push(1, 4, 3);
        }
        assert_eq!(pending.take_lowest(), Some((1, [vec![2, 5, 9], vec![]])));
        assert_eq!(
            pending.take_lowest(),
            Some((3, [vec![], vec![4, 7, u32::MAX]]))
        );
        assert_eq!(pending.take_lowest(), None);
    }

    #[test]
    fn a_full_buffer_is_handed_over_before_the_task_ends() {
        let pending = Pending::default();
        let mut a = Decisions::new(&pending);
        for slot in 0..Decisions::FLUSH as u64 {
            a.push(0, slot, 2);
        }
        let (level, [slots, _]) = pending.take_lowest().expect("flushed when full");
        assert_eq!((level, slots.len()), (2, Decisions::FLUSH));
        drop(a);
        assert_eq!(pending.take_lowest(), None);
    }
}
