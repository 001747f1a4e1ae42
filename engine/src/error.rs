//! Typed errors for positions and moves given as text; each says what is wrong and where.

use crate::position::Color;
use core::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The text does not have the shape `W:<points> B:<points> <w|b> [<hand> <hand>]`.
    Syntax(String),
    /// A point name that the board does not have.
    UnknownPoint { name: String, board: &'static str },
    /// A point listed twice for the same colour.
    Duplicate { point: String },
    /// A point listed for both colours.
    BothColors { point: String },
    /// The side letter is not `w` or `b`.
    BadSide(String),
    /// A hand count that is not a number.
    BadHand(String),
    /// More stones on board and in hand than the rules give a player.
    TooManyStones {
        color: Color,
        on_board: u32,
        in_hand: u32,
        max: u8,
    },
    /// Hand counts that strict alternation of placements cannot produce.
    ImpossibleHands { white: u8, black: u8, side: Color },
    /// The side not to move already had too few stones: the game ended before this turn.
    AlreadyOver { color: Color, total: u32 },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Syntax(what) => write!(
                f,
                "malformed position: {what} (expected `W:<points> B:<points> <w|b> <white in hand> <black in hand>`, e.g. `W:d7,g1,g7 B:a4,d5,g4 b 0 0`, or `startpos`)"
            ),
            PositionError::UnknownPoint { name, board } => {
                write!(f, "unknown point `{name}` on the {board} board")
            }
            PositionError::Duplicate { point } => write!(f, "point {point} is listed twice"),
            PositionError::BothColors { point } => {
                write!(f, "point {point} is listed for both White and Black")
            }
            PositionError::BadSide(s) => {
                write!(f, "side to move must be `w` or `b`, not `{s}`")
            }
            PositionError::BadHand(s) => {
                write!(f, "stones in hand must be a number from 0, not `{s}`")
            }
            PositionError::TooManyStones {
                color,
                on_board,
                in_hand,
                max,
            } => write!(
                f,
                "{} has {on_board} stones on the board and {in_hand} in hand, more than the {max} the rules allow",
                color.name()
            ),
            PositionError::ImpossibleHands { white, black, side } => write!(
                f,
                "impossible hand counts: White {white}, Black {black} with {} to move (the side to move has the same number in hand as the other, or one more)",
                side.name()
            ),
            PositionError::AlreadyOver { color, total } => write!(
                f,
                "{} has only {total} stones on board and in hand: the game ended before it was the other side's turn",
                color.name()
            ),
        }
    }
}

impl std::error::Error for PositionError {}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text does not have the shape `d6`, `d6-d5`, `a1xd7` or `b6-c5xg4`.
    Syntax(String),
    UnknownPoint {
        name: String,
        board: &'static str,
    },
    /// Well-formed but not legal in the position; `legal` lists the legal moves.
    Illegal {
        mv: String,
        legal: Vec<String>,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(
                f,
                "malformed move `{s}` (expected a placement `d6`, a move `d6-d5`, with a capture appended: `a1xd7`, `b6-c5xg4`)"
            ),
            MoveError::UnknownPoint { name, board } => {
                write!(f, "unknown point `{name}` on the {board} board")
            }
            MoveError::Illegal { mv, legal } if legal.is_empty() => {
                write!(f, "illegal move `{mv}`: the game is over, there is no legal move")
            }
            MoveError::Illegal { mv, legal } => {
                write!(f, "illegal move `{mv}`; legal moves: {}", legal.join(" "))
            }
        }
    }
}

impl std::error::Error for MoveError {}
