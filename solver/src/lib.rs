//! The parallel retrograde solver of `morris`: the moving phase by retrograde analysis with
//! successor counting, verification by forward recomputation, statistics and probing.

pub mod memory;
pub mod progress;
pub mod retro;
pub mod unmove;

use morris_engine::Bitboard;

/// Solved positions with fewer stones, read when a capture leaves the pair being solved.
pub trait Lower: Sync {
    /// The distance in plies of `(us, them)` (side to move first) to the end of the game, or
    /// `None` for a draw. Positions where `us` is below three stones are lost in 0.
    fn plies(&self, us: Bitboard, them: Bitboard) -> Option<u32>;
}
