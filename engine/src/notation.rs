//! Text forms of positions and moves (docs/rules.md section 4), parsed and printed so that
//! `parse(print(x)) == x` for every valid value.

use crate::bitboard::{Bitboard, Point};
use crate::board::Board;
use crate::error::{MoveError, PositionError};
use crate::movegen::for_each_move;
use crate::moves::Move;
use crate::position::{Color, Position};
use crate::rules::Rules;
use core::fmt;

/// The synonym for the start position of the game.
pub const STARTPOS: &str = "startpos";

impl Position {
    /// Parses a position and checks it against the rules: every point exists, none is listed
    /// twice, stone and hand counts are possible.
    pub fn parse(text: &str, rules: &Rules) -> Result<Position, PositionError> {
        let text = text.trim();
        if text == STARTPOS {
            return Ok(Position::start(rules));
        }
        let board = rules.board();
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 3 && fields.len() != 5 {
            return Err(PositionError::Syntax(format!(
                "{} fields where 3 or 5 are expected",
                fields.len()
            )));
        }
        let white = parse_stones(fields[0], "W:", board)?;
        let black = parse_stones(fields[1], "B:", board)?;
        if let Some(p) = (white & black).first() {
            return Err(PositionError::BothColors {
                point: board.point_name(p).to_string(),
            });
        }
        let side = match fields[2] {
            "w" => Color::White,
            "b" => Color::Black,
            s => return Err(PositionError::BadSide(s.to_string())),
        };
        let mut hand = [0u8; 2];
        if fields.len() == 5 {
            for (h, s) in hand.iter_mut().zip(&fields[3..]) {
                *h = s
                    .parse()
                    .map_err(|_| PositionError::BadHand(s.to_string()))?;
            }
        }
        let pos = Position::new(white, black, hand, side);
        check(&pos, rules)?;
        Ok(pos)
    }

    /// The position in notation, e.g. `W:d7,g1,g7 B:a4,d5,g4 b 0 0`.
    pub fn notation<'a>(&'a self, rules: &'a Rules) -> impl fmt::Display + 'a {
        PositionText {
            pos: self,
            board: rules.board(),
        }
    }
}

fn parse_stones(
    field: &str,
    prefix: &str,
    board: &'static Board,
) -> Result<Bitboard, PositionError> {
    let list = field
        .strip_prefix(prefix)
        .ok_or_else(|| PositionError::Syntax(format!("`{field}` should start with `{prefix}`")))?;
    let mut set = Bitboard::EMPTY;
    if list.is_empty() {
        return Ok(set);
    }
    for name in list.split(',') {
        let p = board
            .parse_point(name)
            .ok_or_else(|| PositionError::UnknownPoint {
                name: name.to_string(),
                board: board.name(),
            })?;
        if set.contains(p) {
            return Err(PositionError::Duplicate {
                point: name.to_string(),
            });
        }
        set = set.with(p);
    }
    Ok(set)
}

fn check(pos: &Position, rules: &Rules) -> Result<(), PositionError> {
    for c in [Color::White, Color::Black] {
        let on_board = pos.stones(c).count();
        let in_hand = pos.in_hand(c) as u32;
        if on_board + in_hand > rules.stones as u32 {
            return Err(PositionError::TooManyStones {
                color: c,
                on_board,
                in_hand,
                max: rules.stones,
            });
        }
    }
    let (side, other) = (pos.side_to_move(), !pos.side_to_move());
    if rules.alternate_placement() {
        let diff = pos.in_hand(side) as i32 - pos.in_hand(other) as i32;
        if !(0..=1).contains(&diff) {
            return Err(PositionError::ImpossibleHands {
                white: pos.in_hand(Color::White),
                black: pos.in_hand(Color::Black),
                side,
            });
        }
    }
    let total = pos.stones(other).count() + pos.in_hand(other) as u32;
    if total < rules.min_stones() {
        return Err(PositionError::AlreadyOver {
            color: other,
            total,
        });
    }
    Ok(())
}

struct PositionText<'a> {
    pos: &'a Position,
    board: &'static Board,
}

impl fmt::Display for PositionText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in [Color::White, Color::Black] {
            if c == Color::Black {
                f.write_str(" ")?;
            }
            write!(f, "{}:", c.letter())?;
            for (i, p) in self.pos.stones(c).enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{}", self.board.point_name(p))?;
            }
        }
        let side = match self.pos.side_to_move() {
            Color::White => 'w',
            Color::Black => 'b',
        };
        write!(
            f,
            " {side} {} {}",
            self.pos.in_hand(Color::White),
            self.pos.in_hand(Color::Black)
        )
    }
}

impl Move {
    /// Parses the text of a move (`d6`, `d6-d5`, `a1xd7`, `b6-c5xg4`) without checking that
    /// it is legal anywhere.
    pub fn parse(text: &str, board: &'static Board) -> Result<Move, MoveError> {
        let syntax = || MoveError::Syntax(text.to_string());
        let point = |name: &str| -> Result<Point, MoveError> {
            if name.is_empty() {
                return Err(syntax());
            }
            board
                .parse_point(name)
                .ok_or_else(|| MoveError::UnknownPoint {
                    name: name.to_string(),
                    board: board.name(),
                })
        };
        let text = text.trim();
        let (body, capture) = match text.split_once('x') {
            Some((b, c)) => (b, Some(point(c)?)),
            None => (text, None),
        };
        let (from, to) = match body.split_once('-') {
            Some((a, b)) => (Some(point(a)?), point(b)?),
            None => (None, point(body)?),
        };
        if from == Some(to) || capture == Some(to) || (from.is_some() && capture == from) {
            return Err(syntax());
        }
        Ok(Move::new(from, to, capture))
    }

    /// The move in notation.
    pub fn notation(self, board: &'static Board) -> impl fmt::Display {
        MoveText { mv: self, board }
    }
}

struct MoveText {
    mv: Move,
    board: &'static Board,
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(from) = self.mv.from() {
            write!(f, "{}-", self.board.point_name(from))?;
        }
        write!(f, "{}", self.board.point_name(self.mv.to()))?;
        if let Some(c) = self.mv.capture() {
            write!(f, "x{}", self.board.point_name(c))?;
        }
        Ok(())
    }
}

impl Position {
    /// Parses a move and checks that it is legal here; the error lists the legal moves.
    pub fn parse_move(&self, text: &str, rules: &Rules) -> Result<Move, MoveError> {
        let board = rules.board();
        let mv = Move::parse(text, board)?;
        let mut legal = Vec::new();
        let mut found = false;
        for_each_move(self, rules, |m| {
            found |= m == mv;
            legal.push(m.notation(board).to_string());
        });
        if found {
            Ok(mv)
        } else {
            Err(MoveError::Illegal {
                mv: text.trim().to_string(),
                legal,
            })
        }
    }
}
