//! How every reader of solved values is asked for them: the solver's own tables while it
//! builds, the files on disk, and the packed sets, all through one trait.

use crate::keys::key_slot;
use crate::Entries;
use morris_db::{Index, Key, Outcome};
use morris_engine::Position;

/// A source of solved values: the smaller sub-databases a capture leads into while a pair is
/// solved, the children of a placement key, or every sub-database for verify and query.
///
/// A look-up is split in two, [`probe`](Lookup::probe) then [`read`](Lookup::read), so that a
/// caller with many positions to look up (a placement pass) can locate them all first and let
/// their memory loads overlap, instead of waiting for each in turn.
pub trait Lookup: Sync {
    /// Locates a position's stored value and asks the processor to start loading it.
    fn probe(&self, pos: &Position) -> Located;

    /// The value a probe located.
    fn read(&self, probe: Located) -> Outcome;

    /// The index of a solved key, for a caller that computes many slots of one key itself
    /// (with one side fixed: [`Index::with_us`]), then probes them with
    /// [`probe_slot`](Lookup::probe_slot). `None` sends the caller to [`probe`](Lookup::probe).
    fn index_of(&self, _key: Key) -> Option<&Index> {
        None
    }

    /// The stored entries of a solved key with how this lookup reads them ([`Entries`]): a
    /// caller with many slots to read (the forward passes) then reads each with a load instead
    /// of calls. `None` (the default) where reads must go through the lookup.
    fn entries_of(&self, _key: Key) -> Option<Entries<'_>> {
        None
    }

    /// Locates slot `slot` of `key` (a key [`index_of`](Lookup::index_of) gave the index of)
    /// and starts its load.
    #[inline]
    fn probe_slot(&self, key: Key, slot: u64) -> Located {
        Located::at(key_slot(key), slot)
    }

    /// The value of a position. Positions where the side to move is below the minimum of
    /// stones are lost in 0.
    #[inline]
    fn outcome(&self, pos: &Position) -> Outcome {
        self.read(self.probe(pos))
    }
}

/// Where a position's value is, as found by [`Lookup::probe`]: known already (the side to move
/// has lost, say), or a slot of a key. Packed in one word so that a probe is returned in a
/// register: a two-word enum went through the stack, and the reload after each call stalled
/// the placement pass.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Located(u64);

impl Located {
    const SLOT_BITS: u32 = 44;
    /// The key field of a known value (above every [`key_slot`]).
    const KNOWN: u64 = (1 << (64 - Self::SLOT_BITS)) - 1;

    /// A value known without a load.
    pub fn known(outcome: Outcome) -> Located {
        Located(Self::KNOWN << Self::SLOT_BITS | outcome.code() as u64)
    }

    /// Slot `slot` of the key at [`key_slot`] `key`.
    #[inline]
    pub fn at(key: usize, slot: u64) -> Located {
        debug_assert!(slot < 1 << Self::SLOT_BITS && (key as u64) < Self::KNOWN);
        Located((key as u64) << Self::SLOT_BITS | slot)
    }

    /// The key slot and slot located, or the value known.
    #[inline]
    pub fn located(self) -> Result<(usize, u64), Outcome> {
        let key = self.0 >> Self::SLOT_BITS;
        let low = self.0 & ((1 << Self::SLOT_BITS) - 1);
        if key == Self::KNOWN {
            Err(Outcome::from_code(low as u16))
        } else {
            Ok((key as usize, low))
        }
    }
}

/// Asks the processor to bring the cache line at `ptr` closer ahead of its use (a hint only).
#[inline(always)]
pub fn prefetch<T>(ptr: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint; it never faults, whatever the address.
    unsafe {
        core::arch::x86_64::_mm_prefetch(ptr as *const i8, core::arch::x86_64::_MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = ptr;
}
