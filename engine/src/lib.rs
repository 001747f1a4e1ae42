//! The bitboard engine of `morris`: boards, rules, positions, notation and move generation for
//! Nine Men's Morris and the other games of its family.
#![forbid(unsafe_code)]

pub mod bitboard;
pub mod board;
pub mod error;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod render;
pub mod rule_set;
pub mod rules;
pub mod sanmill;

pub use bitboard::{Bitboard, Point};
pub use board::Board;
pub use error::{MoveError, PositionError};
pub use movegen::{count_moves, for_each_move, legal_moves};
pub use moves::Move;
pub use perft::perft;
pub use position::{Color, GameEnd, Position, Reason};
pub use rule_set::{Preset, RuleError, RuleSet};
pub use rules::{Game, Rules};
