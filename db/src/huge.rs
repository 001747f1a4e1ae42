//! The one kind of large working memory of the project: zeroed, backed by transparent huge
//! pages where the system offers them, viewed as words, atomics or bytes.
//!
//! Three users read such memory at random: the index's per-pattern table (1.25 MiB for 9
//! stones), the solver's per-slot cells (up to several GiB), and the resident copies of the
//! tables a solve reads. Under a hypervisor each TLB miss is a two-dimensional page walk:
//! measured here with an earlier 5 MiB pattern table, backing it with 2 MiB pages took the
//! index benchmark from 10.5 to 19.5 M/s under the same load.
//!
//! The plain and the atomic view are two types, and a table passes from one to the other only
//! by value ([`HugeTable::into_atomics`]): were both views lent by `&self`, safe code could
//! store through an atomic while a `&[u32]` of the same word is alive, which is undefined
//! behaviour. Both views stay a pointer and a length, so a look-up is still one load.
//!
//! A table is filled through its plain view, then handed to the threads as atomics:
//!
//! ```
//! use core::sync::atomic::Ordering::Relaxed;
//! use morris_db::huge::HugeTable;
//!
//! let mut table = HugeTable::zeroed(4);
//! table[0] = 1;
//! let atomics = table.into_atomics();
//! atomics.as_atomics()[0].fetch_add(1, Relaxed);
//! assert_eq!(atomics.as_atomics()[0].load(Relaxed), 2);
//! ```
//!
//! but a plain view cannot outlive the move into atomics:
//!
//! ```compile_fail,E0505
//! use core::sync::atomic::Ordering::Relaxed;
//! use morris_db::huge::HugeTable;
//!
//! let table = HugeTable::zeroed(4);
//! let plain: &[u32] = &table;
//! let atomics = table.into_atomics();
//! atomics.as_atomics()[0].store(1, Relaxed);
//! assert_eq!(plain[0], 0);
//! ```
//!
//! and the atomic table has no plain view:
//!
//! ```compile_fail,E0308
//! let atomics = morris_db::huge::HugeTable::zeroed(4).into_atomics();
//! let plain: &[u32] = &atomics;
//! ```

use core::ops::{Deref, DerefMut};
use core::sync::atomic::AtomicU32;

const HUGE_PAGE: usize = 2 << 20;

/// A zero-initialised `[u32]` that asks for huge pages when it is large enough to benefit.
///
/// Invariants (asserted at construction): `ptr` is aligned for `u32` (and to 2 MiB when
/// mapped), and `ptr .. ptr + 4 * len` lies inside `_backing`, which owns the memory and never
/// moves it.
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
// SAFETY: shared access only reads (`Deref`, `as_bytes`); writes need `&mut` (`DerefMut`,
// `as_bytes_mut`), and the atomic view needs the table itself (`into_atomics`).
unsafe impl Sync for HugeTable {}

impl HugeTable {
    /// `len` zeroed words.
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
                assert!(start + 4 * len <= map.len(), "the table fits its mapping");
                let ptr = map[start..].as_mut_ptr() as *mut u32;
                assert_eq!(
                    ptr as usize % HUGE_PAGE,
                    0,
                    "the table starts on a huge page"
                );
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

    /// Zeroed memory for `bytes` bytes (rounded up to whole words), for byte views.
    pub fn zeroed_bytes(bytes: usize) -> HugeTable {
        HugeTable::zeroed(bytes.div_ceil(4))
    }

    /// The words as atomics, for threads that update them concurrently. Taking the table by
    /// value ends every plain borrow of it first.
    pub fn into_atomics(self) -> AtomicHugeTable {
        AtomicHugeTable(self)
    }

    /// The memory as bytes (`4 * len` of them).
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        // SAFETY: the same memory as `deref`, any bit pattern is a u8, and u8 has alignment 1.
        unsafe { core::slice::from_raw_parts(self.ptr as *const u8, 4 * self.len) }
    }

    #[inline]
    pub fn as_bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: as in `as_bytes`, and `&mut self` makes the borrow unique.
        unsafe { core::slice::from_raw_parts_mut(self.ptr as *mut u8, 4 * self.len) }
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

/// A [`HugeTable`] whose words are atomics: the only view it lends, so shared mutation never
/// meets a plain borrow of the same memory.
pub struct AtomicHugeTable(HugeTable);

// `Send` and `Sync` come from the inner table: shared access goes through atomics only.

impl AtomicHugeTable {
    /// The words as atomics.
    #[inline]
    pub fn as_atomics(&self) -> &[AtomicU32] {
        let t = &self.0;
        // SAFETY: `ptr` points to `len` initialised, aligned u32 owned by the table; AtomicU32
        // has the size and alignment of u32 and allows shared mutation; and this type lends no
        // other view of the memory, so no plain borrow of it coexists with this one (the
        // inner table's plain views are never called on it).
        unsafe { core::slice::from_raw_parts(t.ptr as *const AtomicU32, t.len) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::sync::atomic::Ordering::Relaxed;

    #[test]
    fn views_share_the_memory() {
        for len in [2, 1000, 1 << 20] {
            let mut t = HugeTable::zeroed(len);
            assert!(t.iter().all(|&w| w == 0));
            t[len - 1] = 0x0102_0304;
            assert_eq!(t.as_bytes()[4 * len - 4..], 0x0102_0304u32.to_ne_bytes());
            t.as_bytes_mut()[0] = 9;
            assert_eq!(t[0] & 0xff, 9);
            // The atomics are the same words: what the plain view wrote, and what they add.
            let first = t[0];
            let t = t.into_atomics();
            t.as_atomics()[0].fetch_add(7, Relaxed);
            assert_eq!(t.as_atomics()[0].load(Relaxed), first + 7);
            assert_eq!(t.as_atomics()[len - 1].load(Relaxed), 0x0102_0304);
        }
    }
}
