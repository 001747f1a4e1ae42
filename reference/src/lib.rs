//! `morris-reference`: a deliberately naive, independent implementation of Nine Men's Morris
//! and of the family of docs/rules.md (Twelve, Six, Lasker, Three Men's Morris, tic-tac-toe; the
//! grid game has its own naive generator in the engine's tests), used only by tests to check
//! the engine and the solver.
//!
//! It shares no code with `morris-engine`: the boards are written out by hand ([`board`]),
//! positions are arrays of cells ([`position`]), and moves are generated the obvious way
//! ([`movegen`]). [`perft`] counts game-tree leaves; [`solve`] solves the moving phase with
//! few stones by plain retrograde analysis; [`game`] adds the placement phase by minimax over
//! every position reachable from the start; [`nocapture`] solves the no-capture draw rule with
//! the counter as part of the state.
#![forbid(unsafe_code)]

pub mod board;
pub mod game;
pub mod movegen;
pub mod nocapture;
pub mod perft;
pub mod position;
pub mod solve;

pub use board::Board;
pub use game::GameSolution;
pub use movegen::{legal_move_strings, legal_moves, play, Move};
pub use nocapture::CounterSolution;
pub use perft::perft;
pub use position::{Color, Game, Position, Variant};
pub use solve::{MovingSolution, Value};
