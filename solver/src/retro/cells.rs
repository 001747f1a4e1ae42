//! The solver's per-slot working array: one word per slot, updated by every thread at once.
//!
//! Propagation reads and writes slots at random across arrays of up to several GiB; the words
//! live in the project's huge-page memory ([`HugeTable`]), so that the random accesses mostly
//! hit the TLB.

use morris_db::huge::{AtomicHugeTable, HugeTable};
use std::sync::atomic::AtomicU32;

pub struct Cells(AtomicHugeTable);

impl Cells {
    /// `len` zeroed cells.
    pub fn zeroed(len: usize) -> Cells {
        Cells(HugeTable::zeroed(len).into_atomics())
    }

    #[inline]
    pub fn as_slice(&self) -> &[AtomicU32] {
        self.0.as_atomics()
    }
}
