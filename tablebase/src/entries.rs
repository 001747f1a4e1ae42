//! A key's stored entries lent by a lookup ([`crate::Lookup::entries_of`]) to the forward
//! passes, which read millions of children's values: each is then one load and one look-up in
//! a small table, instead of two calls through the lookup and a decode. The table also carries
//! how the lookup reads the key (the no-capture rule's view reads a child reached by a zeroing
//! ply at counter 0: [`crate::no_capture::ZeroingView`]), so that the rule's passes take the same direct
//! path as the plain ones.

use morris_db::format::{Encoding, Entry};
use morris_db::Outcome;

/// By stored byte (shifted right to its slot's bits in the two-bit encoding): the
/// [`Outcome::order`] of the mover's outcome after a move into the child it holds, or
/// [`Entries::OVERFLOW`] where the byte is the overflow mark, whose value is read through
/// the lookup.
pub type AfterTable = [u64; 256];

/// The entries of one key as a lookup reads them.
#[derive(Copy, Clone)]
pub struct Entries<'a> {
    pub bytes: &'a [u8],
    pub encoding: Encoding,
    pub after: &'a AfterTable,
}

impl<'a> Entries<'a> {
    /// An [`AfterTable`] entry whose value is read through the lookup.
    pub const OVERFLOW: u64 = u64::MAX;

    /// The entries of a table as stored, read as they are.
    pub fn stored(bytes: &'a [u8], encoding: Encoding) -> Entries<'a> {
        let after = match encoding {
            Encoding::DistanceByte => &AFTER_DISTANCE,
            Encoding::ZeroingByte => &AFTER_ZEROING,
            Encoding::Wdl2 => &AFTER_WDL2,
        };
        Entries {
            bytes,
            encoding,
            after,
        }
    }

    /// Slots a byte holds: 4 in the two-bit encoding, else 1.
    #[inline(always)]
    pub fn per_byte(&self) -> u64 {
        match self.encoding {
            Encoding::Wdl2 => 4,
            _ => 1,
        }
    }

    /// The byte that holds `slot`, and how far right to shift it to the slot's bits.
    #[inline(always)]
    pub fn byte_of(&self, slot: u64) -> (&'a u8, u32) {
        match self.encoding {
            Encoding::Wdl2 => (&self.bytes[(slot / 4) as usize], 2 * (slot % 4) as u32),
            _ => (&self.bytes[slot as usize], 0),
        }
    }

    /// The [`AfterTable`] entry of `slot`.
    #[inline]
    pub fn order_after(&self, slot: u64) -> u64 {
        let (byte, shift) = self.byte_of(slot);
        self.after[(*byte >> shift) as usize]
    }

    /// The value of `slot` as the lookup reads it; `None` for an overflow mark.
    #[inline]
    pub fn outcome(&self, slot: u64) -> Option<Outcome> {
        let order = self.order_after(slot);
        (order != Self::OVERFLOW).then(|| Outcome::from_order(order).before_move())
    }
}

/// The [`AfterTable`] of `encoding`, each stored value read through `limit` when given: as the
/// no-capture rule reads a child reached by a zeroing ply, kept where its distance to zeroing
/// fits in the limit (else a draw), at distance 0.
pub const fn after_table(encoding: Encoding, limit: Option<u32>) -> AfterTable {
    let mut after = [Entries::OVERFLOW; 256];
    let mut byte = 0;
    while byte < 256 {
        let stored = match encoding {
            // The low two bits are the slot's; the higher ones belong to other slots.
            Encoding::Wdl2 => match morris_db::format::wdl2::outcome(byte as u8 & 3) {
                Some(outcome) => Some(outcome),
                // The unused pattern of a damaged file: a draw, as the table reads it.
                None => Some(Outcome::Draw),
            },
            _ => Entry(byte as u8).decode(encoding),
        };
        if let Some(stored) = stored {
            let read = match limit {
                Some(limit) => stored.within(limit).at_zero(),
                None => stored,
            };
            after[byte] = read.after_move().order();
        }
        byte += 1;
    }
    after
}

static AFTER_DISTANCE: AfterTable = after_table(Encoding::DistanceByte, None);
static AFTER_ZEROING: AfterTable = after_table(Encoding::ZeroingByte, None);
static AFTER_WDL2: AfterTable = after_table(Encoding::Wdl2, None);

#[cfg(test)]
mod tests {
    use super::*;
    use morris_db::format::wdl2;

    /// Every byte of every encoding reads back as the table's own decoding does, through a
    /// limit where one is given.
    #[test]
    fn tables_read_as_the_tables_decode() {
        for encoding in [Encoding::DistanceByte, Encoding::ZeroingByte] {
            for limit in [None, Some(0), Some(5), Some(50)] {
                let after = after_table(encoding, limit);
                let bytes: Vec<u8> = (0..=255).collect();
                let entries = Entries {
                    bytes: &bytes,
                    encoding,
                    after: &after,
                };
                for b in 0..=255u8 {
                    let expected = Entry(b)
                        .decode(encoding)
                        .map(|o| limit.map_or(o, |l| o.within(l).at_zero()));
                    assert_eq!(entries.outcome(b as u64), expected, "{encoding:?} {b}");
                }
            }
        }
        let after = after_table(Encoding::Wdl2, Some(50));
        // Slots 0..4: a draw, a win, a loss, the unused pattern.
        let bytes = [0b11_10_01_00u8];
        let entries = Entries {
            bytes: &bytes,
            encoding: Encoding::Wdl2,
            after: &after,
        };
        let read: Vec<_> = (0..4).map(|s| entries.outcome(s)).collect();
        let at_zero = |bits| wdl2::outcome(bits).map(Outcome::at_zero);
        assert_eq!(
            read,
            [at_zero(0), at_zero(1), at_zero(2), Some(Outcome::Draw)]
        );
    }
}
