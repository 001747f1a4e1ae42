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

/// Appends a value's symbol to a block of the value kind.
#[inline]
pub fn encode_value(value: Value, bytes: &mut Vec<u8>) {
    bytes.push(wdl_symbol(value));
}

/// Appends an outcome's symbol to a block of the outcome kind, and its 16-bit code to `tail`
/// when the code does not fit in the byte.
#[inline]
pub fn encode_outcome(outcome: Outcome, bytes: &mut Vec<u8>, tail: &mut Vec<u8>) {
    let code = outcome.code();
    if code < OVERFLOW as u16 {
        bytes.push(code as u8);
    } else {
        bytes.push(OVERFLOW);
        tail.extend_from_slice(&code.to_le_bytes());
    }
}

/// The byte of an outcome code that continues in the block's tail.
pub(crate) const OVERFLOW: u8 = 255;

/// Symbols of the value kind, most frequent first in most keys (draws).
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
    fn symbols_round_trip() {
        for v in [Value::Win, Value::Draw, Value::Loss] {
            assert_eq!(wdl_value(wdl_symbol(v)), Some(v));
        }
        assert_eq!(wdl_value(3), None);
    }
}
