//! What a packed set stores per slot, and how a slot's symbol is written in a block.

use morris_db::format::{file_name, Metric};
use morris_db::{Key, Outcome, Value};
use morris_engine::Rules;

/// The two kinds of packed sets.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Win, draw or loss: one of three symbols, the smallest set that still plays perfectly.
    Wdl = 1,
    /// The outcome with its distance (to the end, or to zeroing under the no-capture rule).
    Distance = 2,
}

impl Kind {
    pub const fn from_id(id: u8) -> Option<Kind> {
        match id {
            1 => Some(Kind::Wdl),
            2 => Some(Kind::Distance),
            _ => None,
        }
    }

    /// `wdl` or `dtw` (the file name's tag and the command line's word).
    pub const fn tag(self) -> &'static str {
        match self {
            Kind::Wdl => "wdl",
            Kind::Distance => "dtw",
        }
    }
}

/// The bytes of a value block: five values to a byte (3^5 = 243 fits), the first of the five
/// in the lowest base-3 digit; a last byte that is not full has zeros in its high digits.
/// Against a byte a value, zstd gets one fifth of the bytes: its entropy stage (Huffman
/// codes of at least a bit a byte) is no longer the floor, and a block of the same decoded
/// bytes covers five times the slots. Measured on the 6-stone game (zstd level 9): the
/// values 12% smaller at the same slots a block, 20% smaller with blocks of 20,480 slots
/// (4 KiB decoded) instead of 8,192 bytes.
pub fn encode_values(values: impl IntoIterator<Item = Value>) -> Vec<u8> {
    let mut bytes = Vec::new();
    let (mut byte, mut digits) = (0u8, 0usize);
    for v in values {
        byte += wdl_symbol(v) * POW3[digits];
        digits += 1;
        if digits == VALUES_PER_BYTE {
            bytes.push(byte);
            (byte, digits) = (0, 0);
        }
    }
    if digits > 0 {
        bytes.push(byte);
    }
    bytes
}

/// The bytes of an outcome block: a byte a slot, then the 16-bit codes of the slots whose
/// code does not fit in the byte (their byte is [`OVERFLOW`]), in slot order.
pub fn encode_outcomes(outcomes: impl IntoIterator<Item = Outcome>) -> Vec<u8> {
    let (mut bytes, mut tail) = (Vec::new(), Vec::new());
    for outcome in outcomes {
        let code = outcome.code();
        if code < OVERFLOW as u16 {
            bytes.push(code as u8);
        } else {
            bytes.push(OVERFLOW);
            tail.extend_from_slice(&code.to_le_bytes());
        }
    }
    bytes.extend(tail);
    bytes
}

/// Values in a byte of a value block.
pub(crate) const VALUES_PER_BYTE: usize = 5;

/// The weights of the base-3 digits of a byte of a value block.
pub(crate) const POW3: [u8; VALUES_PER_BYTE] = [1, 3, 9, 27, 81];

/// The bytes five values can make (3^5): a byte of a value block is below this.
pub(crate) const FULL_BYTES: u8 = 243;

/// The value of digit `i` of a byte of a value block.
#[inline]
pub(crate) const fn digit(byte: u8, i: usize) -> u8 {
    byte / POW3[i] % 3
}

/// The byte of an outcome code that continues in the block's tail.
pub(crate) const OVERFLOW: u8 = 255;

/// The base-3 digits of the values, most frequent first in most keys (draws).
pub(crate) const fn wdl_symbol(v: Value) -> u8 {
    match v {
        Value::Draw => 0,
        Value::Win => 1,
        Value::Loss => 2,
    }
}

pub(crate) const fn wdl_value(symbol: u8) -> Option<Value> {
    match symbol {
        0 => Some(Value::Draw),
        1 => Some(Value::Win),
        2 => Some(Value::Loss),
        _ => None,
    }
}

/// `nine-4-3-0-0.wdl.mpk`: the unpacked table's name with the kind, so that a packed set can
/// share a directory with unpacked tables and with the other kind.
pub fn packed_file_name(rules: &Rules, metric: Metric, key: Key, kind: Kind) -> String {
    let name = file_name(rules, metric, key);
    let stem = name.strip_suffix(".mdb").unwrap_or(&name);
    format!("{stem}.{}.mpk", kind.tag())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(
            packed_file_name(
                &Rules::nine(),
                Metric::NoCapture(50),
                Key::moving(4, 3),
                Kind::Wdl
            ),
            "nine-nc50-4-3-0-0.wdl.mpk"
        );
        assert_eq!(
            packed_file_name(
                &Rules::nine(),
                Metric::Plain,
                Key::new(4, 3, 1, 2),
                Kind::Distance
            ),
            "nine-4-3-1-2.dtw.mpk"
        );
    }

    #[test]
    fn five_values_a_byte() {
        use Value::*;
        let values = [Win, Loss, Draw, Win, Loss, Loss, Win];
        let bytes = encode_values(values);
        assert_eq!(bytes, vec![1 + 2 * 3 + 27 + 2 * 81, 2 + 3]);
        for (i, v) in values.iter().enumerate() {
            assert_eq!(wdl_value(digit(bytes[i / 5], i % 5)), Some(*v));
        }
        assert_eq!(encode_values([Loss; 5]), vec![242]);
        assert!(encode_values([]).is_empty());
    }

    #[test]
    fn symbols_round_trip() {
        for v in [Value::Win, Value::Draw, Value::Loss] {
            assert_eq!(wdl_value(wdl_symbol(v)), Some(v));
        }
        assert_eq!(wdl_value(3), None);
    }
}
