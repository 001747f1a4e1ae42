//! The name of a sub-database: how many stones each side has on the board and in hand.
//!
//! Positions are always seen from the side to move, so a key says "us" and "them" rather than
//! White and Black: a position and its colour-swapped twin share one entry.

use core::fmt;
use core::str::FromStr;

/// Stones on the board and in hand for the side to move (`us`) and the other side (`them`).
///
/// Written `M-O-MH-OH`, e.g. `4-3-0-0` (four of ours and three of theirs on the board, both
/// hands empty).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    pub us: u8,
    pub them: u8,
    pub us_hand: u8,
    pub them_hand: u8,
}

impl Key {
    pub const fn new(us: u8, them: u8, us_hand: u8, them_hand: u8) -> Key {
        Key {
            us,
            them,
            us_hand,
            them_hand,
        }
    }

    /// A key of the moving phase (both hands empty).
    pub const fn moving(us: u8, them: u8) -> Key {
        Key::new(us, them, 0, 0)
    }

    /// The same material seen from the other side: where a quiet move from this key leads.
    pub const fn swapped(self) -> Key {
        Key::new(self.them, self.us, self.them_hand, self.us_hand)
    }

    pub const fn is_moving_phase(self) -> bool {
        self.us_hand == 0 && self.them_hand == 0
    }

    /// Stones on the board, both sides together.
    pub const fn on_board(self) -> u32 {
        self.us as u32 + self.them as u32
    }

    /// Stones in hand, both sides together: the layer of the placement phase the key lies in
    /// (0 for the moving phase). A key's moves lead into its own layer (Lasker's slides) or
    /// the one below, so a solve can go layer by layer with only two layers of tables on
    /// disk.
    pub const fn in_hand(self) -> u32 {
        self.us_hand as u32 + self.them_hand as u32
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}-{}-{}-{}",
            self.us, self.them, self.us_hand, self.them_hand
        )
    }
}

/// Why a string is not a key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyParseError {
    /// Not four numbers separated by `-`.
    FieldCount { input: String, found: usize },
    /// A field is not a number from 0 to 255.
    BadNumber { input: String, field: String },
}

impl fmt::Display for KeyParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyParseError::FieldCount { input, found } => write!(
                f,
                "key `{input}` has {found} field(s); expected four numbers M-O-MH-OH, e.g. 4-3-0-0"
            ),
            KeyParseError::BadNumber { input, field } => write!(
                f,
                "key `{input}`: `{field}` is not a stone count (a number from 0 to 255)"
            ),
        }
    }
}

impl std::error::Error for KeyParseError {}

impl FromStr for Key {
    type Err = KeyParseError;

    fn from_str(s: &str) -> Result<Key, KeyParseError> {
        let fields: Vec<&str> = s.split('-').collect();
        if fields.len() != 4 {
            return Err(KeyParseError::FieldCount {
                input: s.to_string(),
                found: fields.len(),
            });
        }
        let mut n = [0u8; 4];
        for (slot, field) in n.iter_mut().zip(&fields) {
            // u8::from_str accepts a leading `+`; a key never has one.
            let digits = !field.is_empty() && field.bytes().all(|b| b.is_ascii_digit());
            *slot = match field.parse::<u8>() {
                Ok(v) if digits => v,
                _ => {
                    return Err(KeyParseError::BadNumber {
                        input: s.to_string(),
                        field: field.to_string(),
                    })
                }
            };
        }
        Ok(Key::new(n[0], n[1], n[2], n[3]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_and_parses() {
        let k = Key::new(4, 3, 0, 0);
        assert_eq!(k.to_string(), "4-3-0-0");
        assert_eq!("4-3-0-0".parse::<Key>(), Ok(k));
        assert_eq!("2-1-7-8".parse::<Key>(), Ok(Key::new(2, 1, 7, 8)));
        assert!(k.is_moving_phase());
        assert!(!Key::new(2, 1, 7, 8).is_moving_phase());
        assert_eq!(Key::new(2, 1, 7, 8).swapped(), Key::new(1, 2, 8, 7));
    }

    #[test]
    fn refuses_malformed_keys() {
        assert!(matches!(
            "4-3-0".parse::<Key>(),
            Err(KeyParseError::FieldCount { found: 3, .. })
        ));
        assert!(matches!(
            "4-3-0-x".parse::<Key>(),
            Err(KeyParseError::BadNumber { .. })
        ));
        assert!(matches!(
            "4-3-0-+1".parse::<Key>(),
            Err(KeyParseError::BadNumber { .. })
        ));
        assert!(matches!(
            "4-3-0-256".parse::<Key>(),
            Err(KeyParseError::BadNumber { .. })
        ));
        assert!(matches!(
            "4-3--0".parse::<Key>(),
            Err(KeyParseError::BadNumber { .. })
        ));
        let msg = "4-3".parse::<Key>().unwrap_err().to_string();
        assert!(msg.contains("4-3") && msg.contains("M-O-MH-OH"), "{msg}");
    }
}
