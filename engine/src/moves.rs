//! A move: a placement or a slide (or fly), with its capture folded in.
//!
//! A capture is part of the move that forms the mill, so the solver sees one ply per move and
//! each choice of stone to remove is a move of its own.

use crate::bitboard::Point;

const NONE: u8 = u8::MAX;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    from: u8,
    to: u8,
    capture: u8,
}

impl Move {
    /// A stone from hand to `to`.
    #[inline]
    pub const fn place(to: Point) -> Move {
        Move {
            from: NONE,
            to,
            capture: NONE,
        }
    }

    /// A stone from `from` to `to` (slide or fly).
    #[inline]
    pub const fn slide(from: Point, to: Point) -> Move {
        Move {
            from,
            to,
            capture: NONE,
        }
    }

    #[inline]
    pub const fn new(from: Option<Point>, to: Point, capture: Option<Point>) -> Move {
        Move {
            from: match from {
                Some(p) => p,
                None => NONE,
            },
            to,
            capture: match capture {
                Some(p) => p,
                None => NONE,
            },
        }
    }

    /// The same move, removing the enemy stone on `c`.
    #[inline]
    pub const fn capturing(self, c: Point) -> Move {
        Move { capture: c, ..self }
    }

    #[inline]
    pub const fn from(self) -> Option<Point> {
        if self.from == NONE {
            None
        } else {
            Some(self.from)
        }
    }

    #[inline]
    pub const fn to(self) -> Point {
        self.to
    }

    #[inline]
    pub const fn capture(self) -> Option<Point> {
        if self.capture == NONE {
            None
        } else {
            Some(self.capture)
        }
    }

    #[inline]
    pub const fn is_placement(self) -> bool {
        self.from == NONE
    }
}
