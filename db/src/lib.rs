//! The database layer of `morris`: a symmetry-reduced perfect index of the positions of each
//! sub-database, the on-disk format of solved sub-databases, and the solving plan.
//!
//! The solver addresses every position by a dense slot number ([`Index`]), keeps one value per
//! slot, and stores one byte per slot on disk ([`format`]). [`plan`] lists the moving-phase
//! sub-databases in the order they can be solved, with their sizes.

pub mod bits;
pub mod colex;
pub mod format;
pub mod huge;
pub mod index;
pub mod key;
pub mod outcome;
pub mod pattern_cache;
pub mod patterns;
pub mod plan;
pub mod symmetry;
mod tables;

pub use format::{DbError, Entry, Metric, Table, Writer};
pub use index::{slots, Fixed, Index};
pub use key::{Key, KeyParseError};
pub use outcome::{Category, Outcome, Value};
pub use plan::{plan, PlanRow};
pub use symmetry::classes;

#[cfg(test)]
mod tests {
    /// The solver shares indexes and tables between threads.
    #[test]
    fn shareable_between_threads() {
        fn check<T: Send + Sync>() {}
        check::<crate::Index>();
        check::<crate::Table>();
        check::<crate::Key>();
    }
}
