//! One block: compressing its bytes, and reading a decompressed block.

use morris_db::{Outcome, Value};

use crate::kind::{wdl_value, Kind, OVERFLOW};

/// Compresses a block's bytes (symbols, then the tail) into one zstd frame.
pub fn compress(bytes: &[u8], level: i32) -> Vec<u8> {
    zstd::bulk::compress(bytes, level).expect("zstd compresses any input in memory")
}

/// A decompressed block whose size and symbols were checked when it was decoded.
pub struct Block {
    /// The symbols, then the tail.
    bytes: Vec<u8>,
    slots: usize,
}

impl Block {
    /// Checks a decompressed block of `slots` slots of `kind`: its length is the symbols plus
    /// a tail entry per overflow byte, and every symbol is one the kind writes. `Err` says
    /// what is wrong.
    pub(crate) fn new(bytes: Vec<u8>, slots: usize, kind: Kind) -> Result<Block, String> {
        if bytes.len() < slots {
            return Err(format!("{} bytes for {slots} slots", bytes.len()));
        }
        let expected = match kind {
            Kind::Wdl => {
                if let Some(i) = bytes[..slots].iter().position(|&b| wdl_value(b).is_none()) {
                    return Err(format!("symbol {} at slot {i} of the block", bytes[i]));
                }
                slots
            }
            Kind::Distance => {
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
            Kind::Wdl => wdl_value(self.bytes[i]).expect("checked when decoded"),
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
    use crate::kind::encode_outcome;

    #[test]
    fn outcomes_with_a_tail() {
        let outcomes = [
            Outcome::Draw,
            Outcome::Win(200),
            Outcome::Loss(3),
            Outcome::Loss(130),
            Outcome::Win(1),
        ];
        let (mut bytes, mut tail) = (Vec::new(), Vec::new());
        for o in outcomes {
            encode_outcome(o, &mut bytes, &mut tail);
        }
        assert_eq!(tail.len(), 4);
        bytes.extend(tail);
        let block = Block::new(bytes.clone(), 5, Kind::Distance).unwrap();
        for (i, o) in outcomes.iter().enumerate() {
            assert_eq!(block.outcome(i), *o);
        }
        bytes.pop();
        assert!(Block::new(bytes, 5, Kind::Distance).is_err());
        assert!(Block::new(vec![0, 1, 3], 3, Kind::Wdl).is_err());
    }
}
