//! How a slot's outcome is stored: the encodings of a table's entries.
//!
//! Plain tables need not store the value: under perfect play a won game ends on the winner's
//! move and a lost one on the opponent's, so the parity of the distance gives it. One byte
//! holds distances up to 253; longer ones go to a small overflow table.
//!
//! Tables of distances to zeroing (the no-capture rule) have no such parity, so their byte is
//! the outcome's code (`1 + 2 * distance + win`), inline up to distance 126. Placement keys
//! under that rule need only the value (every placement zeroes the counter), two bits a slot.

use super::header::Encoding;
use crate::outcome::Outcome;

/// A stored byte of a byte encoding: 0 a draw (and holes), 255 "see the overflow table".
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Entry(pub u8);

impl Entry {
    pub const DRAW: Entry = Entry(0);
    pub const OVERFLOW: Entry = Entry(255);
    /// The longest plain distance stored in the byte itself.
    pub const MAX_INLINE_PLIES: u32 = 253;
    /// The longest plain distance the overflow table can hold.
    pub const MAX_PLIES: u32 = u16::MAX as u32;

    /// The byte for an outcome under `encoding` (a byte encoding), and the overflow record's
    /// 16 bits when the byte is [`Entry::OVERFLOW`]. `None`: the outcome has no form in this
    /// encoding (a plain distance of the wrong parity, a distance beyond 16 bits).
    #[inline]
    pub const fn encode(encoding: Encoding, outcome: Outcome) -> Option<(Entry, u16)> {
        match encoding {
            Encoding::DistanceByte => match outcome {
                Outcome::Draw => Some((Entry::DRAW, 0)),
                Outcome::Win(p) | Outcome::Loss(p)
                    if (p % 2 == 1) != matches!(outcome, Outcome::Win(_)) =>
                {
                    None
                }
                Outcome::Win(p) | Outcome::Loss(p) => {
                    if p <= Entry::MAX_INLINE_PLIES {
                        Some((Entry(p as u8 + 1), 0))
                    } else if p <= Entry::MAX_PLIES {
                        Some((Entry::OVERFLOW, p as u16))
                    } else {
                        None
                    }
                }
            },
            Encoding::ZeroingByte => match outcome.plies() {
                Some(d) if d >= Outcome::MAX_CODED => None,
                _ => {
                    let code = outcome.code();
                    if code < 255 {
                        Some((Entry(code as u8), 0))
                    } else {
                        Some((Entry::OVERFLOW, code))
                    }
                }
            },
            Encoding::Wdl2 => None,
        }
    }

    /// The outcome of a byte, or `None` when it is in the overflow table.
    #[inline]
    pub const fn decode(self, encoding: Encoding) -> Option<Outcome> {
        match (self.0, encoding) {
            (255, _) => None,
            (0, _) => Some(Outcome::Draw),
            (b, Encoding::DistanceByte) => Some(Outcome::in_plies(b as u32 - 1)),
            (b, _) => Some(Outcome::from_code(b as u16)),
        }
    }

    /// The outcome an overflow record stands for.
    #[inline]
    pub const fn decode_overflow(encoding: Encoding, record: u16) -> Outcome {
        match encoding {
            Encoding::DistanceByte => Outcome::in_plies(record as u32),
            _ => Outcome::from_code(record),
        }
    }

    #[inline]
    pub const fn is_overflow(self) -> bool {
        self.0 == 255
    }
}

/// The outcome of each of the 256 bytes of a byte-a-slot encoding, for a reader of many
/// slots: one look-up instead of [`Entry::decode`]'s matches, which a slot at a time were a
/// third of `morris pack`'s instructions.
#[derive(Clone)]
pub(crate) struct ByteOutcomes([Option<Outcome>; 256]);

impl ByteOutcomes {
    /// `None` for the two-bit encoding, whose bytes hold four slots.
    pub(crate) fn of(encoding: Encoding) -> Option<ByteOutcomes> {
        if encoding == Encoding::Wdl2 {
            return None;
        }
        let mut outcomes = [None; 256];
        for (b, o) in outcomes.iter_mut().enumerate() {
            *o = Entry(b as u8).decode(encoding);
        }
        Some(ByteOutcomes(outcomes))
    }

    /// The byte's outcome; `None` for the overflow mark (in the table's overflow records).
    #[inline]
    pub(crate) fn get(&self, byte: u8) -> Option<Outcome> {
        self.0[byte as usize]
    }
}

/// Two bits a slot, four slots a byte (the first in the low bits): 0 draw, 1 win, 2 loss. A
/// win or loss is read back at distance 1, the distance to the zeroing ply every move of a
/// placement key makes.
pub mod wdl2 {
    use crate::outcome::{Outcome, Value};

    #[inline]
    pub const fn bits(outcome: Outcome) -> u8 {
        match outcome.value() {
            Value::Draw => 0,
            Value::Win => 1,
            Value::Loss => 2,
        }
    }

    /// `None` for the unused pattern 3 (a damaged file).
    #[inline]
    pub const fn outcome(bits: u8) -> Option<Outcome> {
        match bits {
            0 => Some(Outcome::Draw),
            1 => Some(Outcome::Win(1)),
            2 => Some(Outcome::Loss(1)),
            _ => None,
        }
    }

    /// The two bits of `slot` in the packed bytes.
    #[inline]
    pub fn get(bytes: &[u8], slot: u64) -> u8 {
        bytes[(slot / 4) as usize] >> (2 * (slot % 4)) & 3
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_round_trips() {
        for enc in [Encoding::DistanceByte, Encoding::ZeroingByte] {
            for b in 0..=255u8 {
                if let Some(o) = Entry(b).decode(enc) {
                    assert_eq!(Entry::encode(enc, o), Some((Entry(b), 0)), "{enc:?} {b}");
                }
            }
        }
        let dtm = Encoding::DistanceByte;
        for p in 0..=Entry::MAX_INLINE_PLIES {
            let o = Outcome::in_plies(p);
            let (e, _) = Entry::encode(dtm, o).unwrap();
            assert!(!e.is_overflow());
            assert_eq!(e.decode(dtm), Some(o));
        }
        assert_eq!(
            Entry::encode(dtm, Outcome::in_plies(254)),
            Some((Entry::OVERFLOW, 254))
        );
        assert_eq!(Entry::decode_overflow(dtm, 254), Outcome::Loss(254));
        // A plain win is odd: an even win has no plain form.
        assert_eq!(Entry::encode(dtm, Outcome::Win(2)), None);
        let dtz = Encoding::ZeroingByte;
        assert_eq!(Entry::encode(dtz, Outcome::Win(2)), Some((Entry(6), 0)));
        assert_eq!(Entry::encode(dtz, Outcome::Loss(1)), Some((Entry(3), 0)));
        let (e, rec) = Entry::encode(dtz, Outcome::Win(200)).unwrap();
        assert!(e.is_overflow());
        assert_eq!(Entry::decode_overflow(dtz, rec), Outcome::Win(200));
    }

    #[test]
    fn two_bits_round_trip() {
        for o in [Outcome::Win(1), Outcome::Draw, Outcome::Loss(1)] {
            assert_eq!(wdl2::outcome(wdl2::bits(o)), Some(o));
        }
        assert_eq!(wdl2::get(&[0b10_01_00_10], 0), 2);
        assert_eq!(wdl2::get(&[0b10_01_00_10], 2), 1);
        assert_eq!(wdl2::get(&[0b10_01_00_10], 3), 2);
    }
}
