//! The parallel retrograde solver of `morris`: the moving phase by retrograde analysis with
//! successor counting, verification by forward recomputation, statistics and probing.

pub mod memory;
pub mod progress;
pub mod query;
pub mod retro;
pub mod solve;
pub mod stats;
pub mod store;
pub mod unmove;
pub mod value;
pub mod verify;

use morris_engine::Bitboard;

/// A source of solved moving-phase values: the smaller sub-databases a capture leads into
/// while a pair is solved, or every sub-database for verify and query.
pub trait Lookup: Sync {
    /// The distance in plies of `(us, them)` (side to move first) to the end of the game, or
    /// `None` for a draw. Positions where `us` is below three stones are lost in 0.
    fn plies(&self, us: Bitboard, them: Bitboard) -> Option<u32>;
}
