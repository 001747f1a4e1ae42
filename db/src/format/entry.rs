//! One byte per slot: the value for the side to move and the exact distance to the end.
//!
//! The value need not be stored: under perfect play a won game ends on the winner's move and a
//! lost one on the opponent's, so a win is always an odd number of plies away and a loss an
//! even number (0 when the side to move has already lost). Storing only the distance leaves
//! room for distances up to 253 in one byte; longer ones go to a small overflow table.

use core::fmt;

/// The game-theoretic value for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Win,
    Draw,
    Loss,
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Value::Win => "win",
            Value::Draw => "draw",
            Value::Loss => "loss",
        })
    }
}

/// A value with its distance to the end in plies (none for a draw).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    plies: Option<u32>,
}

impl Outcome {
    pub const DRAW: Outcome = Outcome { plies: None };

    /// The game ends in `plies` plies: a win for the side to move when odd, a loss when even.
    pub const fn in_plies(plies: u32) -> Outcome {
        Outcome { plies: Some(plies) }
    }

    pub const fn value(self) -> Value {
        match self.plies {
            None => Value::Draw,
            Some(p) if p % 2 == 1 => Value::Win,
            Some(_) => Value::Loss,
        }
    }

    /// Distance to the end of the game under perfect play; `None` for a draw.
    pub const fn plies(self) -> Option<u32> {
        self.plies
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.plies {
            None => f.write_str("draw"),
            Some(p) => write!(f, "{} in {p}", self.value()),
        }
    }
}

/// A stored byte: 0 draw (and holes), `d + 1` for distance `d` <= 253, 255 "see the overflow
/// table".
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Entry(pub u8);

impl Entry {
    pub const DRAW: Entry = Entry(0);
    pub const OVERFLOW: Entry = Entry(255);
    /// The longest distance stored in the byte itself.
    pub const MAX_INLINE_PLIES: u32 = 253;
    /// The longest distance the overflow table can hold.
    pub const MAX_PLIES: u32 = u16::MAX as u32;

    /// The byte for an outcome; [`Entry::OVERFLOW`] when the distance needs the overflow table.
    #[inline]
    pub const fn encode(outcome: Outcome) -> Entry {
        match outcome.plies {
            None => Entry::DRAW,
            Some(p) if p <= Entry::MAX_INLINE_PLIES => Entry(p as u8 + 1),
            Some(_) => Entry::OVERFLOW,
        }
    }

    /// The outcome, or `None` when it is in the overflow table.
    #[inline]
    pub const fn decode(self) -> Option<Outcome> {
        match self.0 {
            0 => Some(Outcome::DRAW),
            255 => None,
            b => Some(Outcome::in_plies(b as u32 - 1)),
        }
    }

    #[inline]
    pub const fn is_overflow(self) -> bool {
        self.0 == 255
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parity_gives_the_value() {
        assert_eq!(Outcome::in_plies(0).value(), Value::Loss);
        assert_eq!(Outcome::in_plies(1).value(), Value::Win);
        assert_eq!(Outcome::in_plies(26).value(), Value::Loss);
        assert_eq!(Outcome::DRAW.value(), Value::Draw);
        assert_eq!(Outcome::in_plies(26).to_string(), "loss in 26");
        assert_eq!(Outcome::in_plies(3).to_string(), "win in 3");
        assert_eq!(Outcome::DRAW.to_string(), "draw");
    }

    #[test]
    fn every_byte_round_trips() {
        for p in 0..=Entry::MAX_INLINE_PLIES {
            let o = Outcome::in_plies(p);
            let e = Entry::encode(o);
            assert!(!e.is_overflow());
            assert_eq!(e.decode(), Some(o));
        }
        assert_eq!(Entry::encode(Outcome::DRAW), Entry::DRAW);
        assert_eq!(Entry::DRAW.decode(), Some(Outcome::DRAW));
        assert_eq!(Entry::encode(Outcome::in_plies(254)), Entry::OVERFLOW);
        assert_eq!(Entry::OVERFLOW.decode(), None);
        for b in 0..=255u8 {
            if let Some(o) = Entry(b).decode() {
                assert_eq!(Entry::encode(o), Entry(b));
            }
        }
    }
}
