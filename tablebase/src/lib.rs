//! The reader of `morris`'s solved tables: what a position is worth and which moves keep it,
//! from raw tables or packed sets, for the command line, a server or a binding in another
//! language. It does not build anything; `morris-solver` does, and reads through the same
//! [`Lookup`] while it builds.

pub mod analysis;
pub mod answer;
pub mod arena;
pub mod choice;
pub mod entries;
pub mod in_play;
mod keys;
mod lookup;
pub mod minimax;
pub mod packed;
pub mod prove;
pub mod rng;
pub mod stats;
pub mod store;
pub mod tablebase;
mod tables;

pub use entries::Entries;
pub use keys::{key_of, key_slot, lost_already, reads, KEY_FIELD, KEY_SLOTS};
pub use lookup::{prefetch, Located, Lookup};
pub use tablebase::{Probe, ProbeError, RankedMove, RuleProbe, Tablebase};
pub use tables::Found;
