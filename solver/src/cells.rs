//! The solver's per-slot working array, backed by huge pages where the system offers them.
//!
//! Propagation reads and writes slots at random across arrays of up to several GiB. With 4 KiB
//! pages nearly every access also misses the TLB, and under a hypervisor a TLB miss is a
//! two-level page walk; with 2 MiB pages the walks mostly disappear. The kernel here gives huge
//! pages only to memory that asks for them (`madvise`), which a `Vec` never does.

use memmap2::MmapMut;
use std::sync::atomic::AtomicU32;

pub struct Cells {
    map: MmapMut,
    len: usize,
}

impl Cells {
    /// `len` zeroed cells.
    pub fn zeroed(len: usize) -> Cells {
        let bytes = (len * 4).max(1);
        let map = MmapMut::map_anon(bytes).expect("memory for the solver's working array");
        #[cfg(target_os = "linux")]
        {
            // Only a hint: without huge pages the solve is slower, not wrong.
            let _ = map.advise(memmap2::Advice::HugePage);
        }
        Cells { map, len }
    }

    /// The cells as atomics (the mapping is page-aligned, zero-filled and lives as long as
    /// `self`).
    #[inline]
    pub fn as_slice(&self) -> &[AtomicU32] {
        // SAFETY: the mapping holds `len * 4` bytes, aligned to a page (so to 4), and
        // AtomicU32 has the size and alignment of u32 and allows shared mutation.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr() as *const AtomicU32, self.len) }
    }
}
