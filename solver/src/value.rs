//! Game values as distances: `Some(plies)` to the end of the game under perfect play, `None`
//! for a draw. A win always takes an odd number of plies (the winner makes the last move), a
//! loss an even number, so the distance alone carries the value.

use morris_db::format::Outcome;
pub use morris_db::format::Value;

/// The value a distance stands for.
pub fn value_of(plies: Option<u32>) -> Value {
    plies.map_or(Outcome::DRAW, Outcome::in_plies).value()
}

/// The minimax rule: the distance of a position from the distances of its children (each
/// seen from the child's side to move). The winner takes the fastest win, the loser the
/// slowest loss; no children at all is a loss in 0.
pub fn from_children(children: impl IntoIterator<Item = Option<u32>>) -> Option<u32> {
    let mut fastest_win = None::<u32>;
    let mut draw = false;
    let mut slowest_loss = None::<u32>;
    for child in children {
        match child {
            Some(p) if p % 2 == 0 => {
                fastest_win = Some(fastest_win.map_or(p + 1, |w| w.min(p + 1)))
            }
            Some(p) => slowest_loss = Some(slowest_loss.map_or(p + 1, |l| l.max(p + 1))),
            None => draw = true,
        }
    }
    match (fastest_win, draw) {
        (Some(w), _) => Some(w),
        (None, true) => None,
        (None, false) => Some(slowest_loss.unwrap_or(0)),
    }
}

/// The distance of a position from the distances of its children, with the game's rule for a
/// player who cannot move (a loss, or a draw on a full tic-tac-toe board).
pub fn evaluate(
    rules: &morris_engine::Rules,
    pos: &morris_engine::Position,
    children: &[Option<u32>],
) -> Option<u32> {
    if children.is_empty() && rules.blocked_is_draw() && pos.decided(rules).is_none() {
        return None;
    }
    from_children(children.iter().copied())
}

/// The distance under a turn limit (RULES.md section 3), from the unlimited one: with `left`
/// plies left to play, a game that ends within them (a win on the last one counts) keeps its
/// value; one that would end later, or never, is a draw when the limit is reached. Exact
/// because the stored distances are minimax distances: the winner can force the end in that
/// many plies and the loser can delay it that long.
pub fn within(plies: Option<u32>, left: u32) -> Option<u32> {
    plies.filter(|&p| p <= left)
}

/// Orders moves best first for the mover: fastest win, then draws, then slowest loss. Takes
/// the distance of the move's outcome for the mover.
pub fn preference(plies: Option<u32>) -> (u8, i64) {
    match plies {
        Some(p) if p % 2 == 1 => (0, p as i64),
        None => (1, 0),
        Some(p) => (2, -(p as i64)),
    }
}

/// The mover's distance after a move, from the child's distance.
pub fn after_move(child: Option<u32>) -> Option<u32> {
    child.map(|p| p + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimax_rule() {
        assert_eq!(from_children([]), Some(0));
        assert_eq!(from_children([Some(1), Some(3)]), Some(4));
        assert_eq!(from_children([Some(1), None]), None);
        assert_eq!(from_children([Some(1), None, Some(4), Some(2)]), Some(3));
        assert_eq!(value_of(Some(26)), Value::Loss);
        assert_eq!(value_of(Some(1)), Value::Win);
        assert_eq!(value_of(None), Value::Draw);
        // A win in 9 plies is a win with 9 plies left and a draw with 8.
        assert_eq!(within(Some(9), 9), Some(9));
        assert_eq!(within(Some(9), 8), None);
        assert_eq!(within(Some(26), 30), Some(26));
        assert_eq!(within(None, 100), None);
        let mut v = [Some(2), None, Some(5), Some(1), Some(6)];
        v.sort_by_key(|&p| preference(p));
        assert_eq!(v, [Some(1), Some(5), None, Some(6), Some(2)]);
    }
}
