//! Perft: the number of move sequences of a given length.

use crate::movegen::{legal_moves, play};
use crate::position::{Position, Variant};

/// The number of leaves of the game tree `depth` plies deep. A finished game (no legal move)
/// is a leaf that does not extend: it counts only at depth 0.
pub fn perft(pos: &Position, variant: &Variant, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(pos, variant);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|mv| perft(&play(pos, mv), variant, depth - 1))
        .sum()
}

/// Perft split by first move, sorted by move notation: (move, leaves below it).
pub fn divide(pos: &Position, variant: &Variant, depth: u32) -> Vec<(String, u64)> {
    assert!(depth >= 1);
    let mut v: Vec<(String, u64)> = legal_moves(pos, variant)
        .iter()
        .map(|mv| (mv.to_string(), perft(&play(pos, mv), variant, depth - 1)))
        .collect();
    v.sort();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_counts() {
        let v = Variant::STANDARD;
        let start = Position::start(&v);
        // Depth 3: 24 * 23 * 22 placements, none can close a mill yet.
        assert_eq!(perft(&start, &v, 1), 24);
        assert_eq!(perft(&start, &v, 2), 552);
        assert_eq!(perft(&start, &v, 3), 12144);
    }
}
