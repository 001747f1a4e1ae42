//! One block: compressing its bytes, and reading a decompressed block.

use morris_db::{Outcome, Value};

use crate::kind::{digit, wdl_value, Kind, FULL_BYTES, OVERFLOW, POW3, VALUES_PER_BYTE};

/// Compresses a block's bytes ([`crate::encode_values`], [`crate::encode_outcomes`]) into one
/// zstd frame.
pub fn compress(bytes: &[u8], level: i32) -> Vec<u8> {
    COMPRESSOR.with_borrow_mut(|c| {
        if c.as_ref().is_none_or(|(at, _)| *at != level) {
            let new = zstd::bulk::Compressor::new(level).expect("zstd takes levels 1 to 22");
            *c = Some((level, new));
        }
        let (_, c) = c.as_mut().expect("created above");
        c.compress(bytes)
            .expect("zstd compresses any input in memory")
    })
}

thread_local! {
    /// A thread's compression context, kept from block to block: creating one a block (and
    /// the fresh pages of its tables) took a tenth of a pack's time.
    static COMPRESSOR: core::cell::RefCell<Option<(i32, zstd::bulk::Compressor<'static>)>> =
        const { core::cell::RefCell::new(None) };
}

/// A decompressed block whose size and symbols were checked when it was decoded.
pub struct Block {
    /// The symbols (values five to a byte), then for outcomes the tail.
    bytes: Vec<u8>,
    slots: usize,
}

impl Block {
    /// Checks a decompressed block of `slots` slots of `kind`: its length is what the kind
    /// writes for that many slots (values five to a byte; outcomes a byte each plus a tail
    /// entry per overflow byte), and every byte is one the kind writes. `Err` says what is
    /// wrong.
    pub(crate) fn new(bytes: Vec<u8>, slots: usize, kind: Kind) -> Result<Block, String> {
        let expected = match kind {
            Kind::Wdl => slots.div_ceil(VALUES_PER_BYTE),
            Kind::Distance => {
                if bytes.len() < slots {
                    return Err(format!("{} bytes for {slots} slots", bytes.len()));
                }
                let overflow = bytes[..slots].iter().filter(|&&b| b == OVERFLOW).count();
                slots + 2 * overflow
            }
        };
        if bytes.len() != expected {
            return Err(format!(
                "{} bytes, {expected} expected for {slots} slots",
                bytes.len()
            ));
        }
        if kind == Kind::Wdl {
            // A full byte holds five digits; a short last one, zeros above its slots.
            let (full, rest) = (slots / VALUES_PER_BYTE, slots % VALUES_PER_BYTE);
            let bad = bytes[..full]
                .iter()
                .position(|&b| b >= FULL_BYTES)
                .or((rest > 0 && bytes[full] >= POW3[rest]).then_some(full));
            if let Some(i) = bad {
                return Err(format!("byte {} at byte {i} of the block", bytes[i]));
            }
        }
        Ok(Block { bytes, slots })
    }

    pub fn len(&self) -> usize {
        self.slots
    }

    pub fn is_empty(&self) -> bool {
        self.slots == 0
    }

    /// The value of slot `i` of a block of either kind.
    #[inline]
    pub fn value(&self, i: usize, kind: Kind) -> Value {
        match kind {
            Kind::Wdl => {
                let byte = self.bytes[i / VALUES_PER_BYTE];
                wdl_value(digit(byte, i % VALUES_PER_BYTE)).expect("a base-3 digit")
            }
            Kind::Distance => self.outcome(i).value(),
        }
    }

    /// The outcome of slot `i` of an outcome block.
    #[inline]
    pub fn outcome(&self, i: usize) -> Outcome {
        let b = self.bytes[i];
        if b != OVERFLOW {
            return Outcome::from_code(b as u16);
        }
        // The tail holds the overflowing codes in slot order.
        let k = self.bytes[..i].iter().filter(|&&x| x == OVERFLOW).count();
        let at = self.slots + 2 * k;
        Outcome::from_code(u16::from_le_bytes([self.bytes[at], self.bytes[at + 1]]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kind::{encode_outcomes, encode_values};

    #[test]
    fn outcomes_with_a_tail() {
        let outcomes = [
            Outcome::Draw,
            Outcome::Win(200),
            Outcome::Loss(3),
            Outcome::Loss(130),
            Outcome::Win(1),
        ];
        let mut bytes = encode_outcomes(outcomes);
        assert_eq!(bytes.len(), 5 + 4);
        let block = Block::new(bytes.clone(), 5, Kind::Distance).unwrap();
        for (i, o) in outcomes.iter().enumerate() {
            assert_eq!(block.outcome(i), *o);
        }
        bytes.pop();
        assert!(Block::new(bytes, 5, Kind::Distance).is_err());
    }

    #[test]
    fn values_five_to_a_byte() {
        let values: Vec<Value> = (0..13)
            .map(|i| [Value::Win, Value::Draw, Value::Loss][i * 7 % 3])
            .collect();
        let bytes = encode_values(values.iter().copied());
        let block = Block::new(bytes.clone(), 13, Kind::Wdl).unwrap();
        for (i, v) in values.iter().enumerate() {
            assert_eq!(block.value(i, Kind::Wdl), *v);
        }
        // Too many or too few bytes, a byte past 3^5, a digit set past the last slot.
        assert!(Block::new(bytes[..2].to_vec(), 13, Kind::Wdl).is_err());
        assert!(Block::new([&bytes[..], &[0]].concat(), 13, Kind::Wdl).is_err());
        assert!(Block::new(vec![243, 0, 0], 13, Kind::Wdl).is_err());
        assert!(Block::new(vec![0, 0, 27], 13, Kind::Wdl).is_err());
        assert!(Block::new(vec![0, 0, 26], 13, Kind::Wdl).is_ok());
    }
}
