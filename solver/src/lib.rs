//! The builder of `morris`'s tables: the moving phase by parallel retrograde analysis with
//! successor counting, the placement phase by forward passes, verification by forward
//! recomputation, statistics, and packing. Reading the tables is [`morris_tablebase`]'s job.

mod encode;
mod forward;
pub mod journal;
pub mod lock;
pub mod no_capture;
pub mod pack;
pub mod placement;
pub mod progress;
pub mod retro;
pub mod solution;
pub mod solve;
pub mod verify;
