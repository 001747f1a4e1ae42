//! A position: stones of each colour, stones in hand, side to move.

use crate::bitboard::{Bitboard, Point};
use crate::moves::Move;
use crate::rules::Rules;
use core::ops::Not;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }

    pub const fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    stones: [Bitboard; 2],
    hand: [u8; 2],
    side: Color,
}

/// Why a game is over.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The loser has fewer than the minimum stones on board and in hand.
    TooFewStones,
    /// The player to move has no legal move.
    NoMoves,
    /// The winner completed a line (games where a line wins at once).
    Line,
}

/// The end of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameEnd {
    Win { winner: Color, reason: Reason },
    Draw,
}

impl Position {
    /// A position from its parts, unchecked (use the notation parser for checked input).
    #[inline]
    pub const fn new(white: Bitboard, black: Bitboard, hand: [u8; 2], side: Color) -> Position {
        Position {
            stones: [white, black],
            hand,
            side,
        }
    }

    /// A position seen from the side to move: `us` moves next.
    #[inline]
    pub const fn from_sides(us: Bitboard, them: Bitboard, hands: [u8; 2], side: Color) -> Position {
        match side {
            Color::White => Position::new(us, them, hands, side),
            Color::Black => Position::new(them, us, [hands[1], hands[0]], side),
        }
    }

    /// The empty board with every stone in hand, White to move.
    pub const fn start(rules: &Rules) -> Position {
        Position::new(
            Bitboard::EMPTY,
            Bitboard::EMPTY,
            [rules.stones, rules.stones],
            Color::White,
        )
    }

    #[inline]
    pub const fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    pub const fn stones(&self, c: Color) -> Bitboard {
        self.stones[c as usize]
    }

    #[inline]
    pub const fn in_hand(&self, c: Color) -> u8 {
        self.hand[c as usize]
    }

    /// The stones of the side to move.
    #[inline]
    pub const fn us(&self) -> Bitboard {
        self.stones[self.side as usize]
    }

    /// The stones of the side not to move.
    #[inline]
    pub const fn them(&self) -> Bitboard {
        self.stones[1 - self.side as usize]
    }

    #[inline]
    pub const fn our_hand(&self) -> u8 {
        self.hand[self.side as usize]
    }

    #[inline]
    pub const fn their_hand(&self) -> u8 {
        self.hand[1 - self.side as usize]
    }

    #[inline]
    pub const fn occupied(&self) -> Bitboard {
        self.stones[0].union(self.stones[1])
    }

    /// The colour of the stone on `p`, if any.
    pub fn color_at(&self, p: Point) -> Option<Color> {
        if self.stones[0].contains(p) {
            Some(Color::White)
        } else if self.stones[1].contains(p) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The position after `mv`, which must be legal here (not checked).
    #[inline]
    pub fn play(&self, mv: Move) -> Position {
        let s = self.side as usize;
        let mut next = *self;
        match mv.from() {
            Some(from) => next.stones[s] = next.stones[s].without(from),
            None => next.hand[s] -= 1,
        }
        next.stones[s] = next.stones[s].with(mv.to());
        if let Some(c) = mv.capture() {
            next.stones[1 - s] = next.stones[1 - s].without(c);
        }
        next.side = !self.side;
        next
    }

    /// The same position with the colours swapped (White's stones become Black's and the
    /// side to move changes colour). Game values are unchanged by it.
    pub fn color_swapped(&self) -> Position {
        Position::new(
            self.stones[1],
            self.stones[0],
            [self.hand[1], self.hand[0]],
            !self.side,
        )
    }

    /// The game is over before the side to move plays, without looking at its moves: a side
    /// is below the minimum of stones, or (where a line wins) the side that just moved has one.
    pub fn decided(&self, rules: &Rules) -> Option<GameEnd> {
        let min = rules.min_stones();
        for c in [self.side, !self.side] {
            if self.stones(c).count() + (self.in_hand(c) as u32) < min {
                return Some(GameEnd::Win {
                    winner: !c,
                    reason: Reason::TooFewStones,
                });
            }
        }
        if rules.line_wins() {
            let board = rules.board();
            for c in [!self.side, self.side] {
                if board.lines().iter().any(|l| l.is_subset_of(self.stones(c))) {
                    return Some(GameEnd::Win {
                        winner: c,
                        reason: Reason::Line,
                    });
                }
            }
        }
        None
    }

    /// The result of the game if it is over here, including "no legal move".
    pub fn outcome(&self, rules: &Rules) -> Option<GameEnd> {
        if let Some(o) = self.decided(rules) {
            return Some(o);
        }
        if crate::movegen::count_moves(self, rules) == 0 {
            return Some(if rules.blocked_is_draw() {
                GameEnd::Draw
            } else {
                GameEnd::Win {
                    winner: !self.side,
                    reason: Reason::NoMoves,
                }
            });
        }
        None
    }
}
