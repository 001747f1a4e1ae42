//! The minimax rule with the game's own rule for a player who cannot move.

pub use morris_db::{Outcome, Value};

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
