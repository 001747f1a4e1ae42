//! Reading packed sets ([`morris_packed`]), with what the packer left out.
//!
//! Two things are left out. A hole of the index (no position maps to it) holds whatever
//! continues the run before it, which lengthens the runs the compressor feeds on. And in the
//! plain game the keys whose side to move has fewer stones on the board have no file at all
//! ([`is_searched`]): the reader answers their positions by a search of their moves (one ply,
//! or an alpha-beta search through chains of captures into keys left out too) over tables
//! that are there. Under the no-capture rule a position's distance to zeroing is not the minimax
//! of its children's, so every key keeps its file there.

pub mod latency;
mod search;
mod set;
mod symbol;

pub use search::{is_searched, search, search_pruned};
pub use set::PackedSet;
pub use symbol::Symbol;
