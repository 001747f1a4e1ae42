//! The rule every forward computation applies to a position's children, in one place so that
//! the placement pass, verification and the packed reader's search agree on it, down to the
//! games where a player who cannot move draws.

use morris_db::Outcome;

/// The outcome of a position from its children's (each for the child's side to move): the
/// best move by [`Outcome::best_move`], or where the game says so (a full tic-tac-toe board),
/// a draw for a player without a move.
pub fn evaluate(
    rules: &morris_engine::Rules,
    pos: &morris_engine::Position,
    children: &[Outcome],
) -> Outcome {
    if children.is_empty() && rules.blocked_is_draw() && pos.decided(rules).is_none() {
        return Outcome::Draw;
    }
    Outcome::best_move(children.iter().copied())
}
