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
            super::radix::sort_slots(slots);
        }
        Some((level, sides))
    }
}

/// One task's decisions, handed to [`Pending`] in bulk when the task ends (or its buffer
/// fills), so that the threads seldom meet at the lock.
pub(super) struct Decisions<'a> {
    pending: &'a Pending,
    /// The slots listed, at `2 * level + side`: grouped as they come, so that handing them
    /// over needs no sort (the level's list is sorted once, when its pass starts).
    lists: Vec<Vec<u32>>,
    listed: usize,
}

impl<'a> Decisions<'a> {
    const FLUSH: usize = 1 << 14;

    pub(super) fn new(pending: &'a Pending) -> Decisions<'a> {
        Decisions {
            pending,
            lists: Vec::new(),
            listed: 0,
        }
    }

    /// Lists slot `slot` of side `side` for level `level`.
    #[inline]
    pub(super) fn push(&mut self, side: usize, slot: u64, level: u32) {
        debug_assert!(side < 2 && slot <= u32::MAX as u64);
        let at = 2 * level as usize + side;
        if at >= self.lists.len() {
            self.lists.resize_with(at + 1, Vec::new);
        }
        self.lists[at].push(slot as u32);
        self.listed += 1;
        if self.listed == Self::FLUSH {
            self.flush();
        }
    }

    fn flush(&mut self) {
        if self.listed == 0 {
            return;
        }
        let mut levels = self.pending.levels.lock().expect("no panic under the lock");
        for (at, list) in self.lists.iter_mut().enumerate() {
            if list.is_empty() {
                continue;
            }
            let waiting = &mut levels.entry((at / 2) as u32).or_default()[at % 2];
            if waiting.is_empty() {
                std::mem::swap(waiting, list);
            } else {
                waiting.append(list);
            }
        }
        drop(levels);
        self.listed = 0;
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
