//! Large look-up tables backed by transparent huge pages where the system offers them.
//!
//! The index reads its per-pattern table (1.25 MiB for 9 stones) at random, between random
//! accesses of the solver to its own large arrays that keep evicting TLB entries. Under a
//! hypervisor each TLB miss is a two-dimensional page walk: measured here with an earlier 5 MiB
//! table, backing it with 2 MiB pages took the index benchmark from 10.5 to 19.5 M/s under the
//! same load. One huge page covers the whole table.

use core::ops::{Deref, DerefMut};

const HUGE_PAGE: usize = 2 << 20;

/// A zero-initialised `[u32]` that asks for huge pages when it is large enough to benefit.
pub struct HugeTable {
    /// Kept apart from the backing store so that a look-up is one load, with no enum match
    /// and no re-slicing of the mapping.
    ptr: *mut u32,
    len: usize,
    _backing: Backing,
}

enum Backing {
    /// An anonymous mapping, over-allocated by one huge page so that the table can start on a
    /// huge-page boundary (only aligned 2 MiB extents can be backed by a huge page).
    #[cfg(unix)]
    #[allow(dead_code)] // owned only to keep the memory mapped
    Mapped(memmap2::MmapMut),
    #[allow(dead_code)]
    Heap(Vec<u32>),
}

// SAFETY: the table owns its memory exclusively (like a Vec<u32>); the pointer is only a cache
// of the backing store's address, which does not move.
unsafe impl Send for HugeTable {}
// SAFETY: shared access only reads (`Deref`); writing needs `&mut` (`DerefMut`).
unsafe impl Sync for HugeTable {}

impl HugeTable {
    pub fn zeroed(len: usize) -> HugeTable {
        #[cfg(unix)]
        // Below this a huge page would mostly hold zeros the table never uses.
        if len * 4 >= HUGE_PAGE / 8 {
            // Whole huge pages, so that the tail of the table is backed by one as well.
            let bytes = (len * 4).div_ceil(HUGE_PAGE) * HUGE_PAGE;
            if let Ok(mut map) = memmap2::MmapMut::map_anon(bytes + HUGE_PAGE) {
                // Advice is only a hint: without transparent huge pages the table still works.
                let _ = map.advise(memmap2::Advice::HugePage);
                let addr = map.as_ptr() as usize;
                let start = (HUGE_PAGE - addr % HUGE_PAGE) % HUGE_PAGE;
                // The mapping is page-aligned and `start` a multiple of 2 MiB, so the pointer
                // is aligned for u32, and `start + 4 * len` is within the mapping.
                let ptr = map[start..].as_mut_ptr() as *mut u32;
                return HugeTable {
                    ptr,
                    len,
                    _backing: Backing::Mapped(map),
                };
            }
        }
        let mut v = vec![0u32; len];
        HugeTable {
            ptr: v.as_mut_ptr(),
            len,
            _backing: Backing::Heap(v),
        }
    }
}

impl Deref for HugeTable {
    type Target = [u32];

    #[inline(always)]
    fn deref(&self) -> &[u32] {
        // SAFETY: `ptr` points to `len` initialised u32 owned by `_backing` (zeroed anonymous
        // memory or a zeroed Vec); any bit pattern is a u32.
        unsafe { core::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl DerefMut for HugeTable {
    fn deref_mut(&mut self) -> &mut [u32] {
        // SAFETY: as in `deref`, and `&mut self` makes the borrow unique.
        unsafe { core::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}
